#include "aerolin/core/nice_number.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace aerolin::core {
namespace {

TEST(NiceCeil, RoundsUpToOneTwoFive) {
  EXPECT_DOUBLE_EQ(NiceCeil(0.7), 1.0);
  EXPECT_DOUBLE_EQ(NiceCeil(1.0), 1.0);
  EXPECT_DOUBLE_EQ(NiceCeil(1.2), 2.0);
  EXPECT_DOUBLE_EQ(NiceCeil(3.0), 5.0);
  EXPECT_DOUBLE_EQ(NiceCeil(7.5), 10.0);
  EXPECT_DOUBLE_EQ(NiceCeil(420.0), 500.0);
  EXPECT_DOUBLE_EQ(NiceCeil(0.013), 0.02);
  EXPECT_THROW(NiceCeil(0.0), std::invalid_argument);
}

TEST(NiceFloor, RoundsDownToOneTwoFive) {
  EXPECT_DOUBLE_EQ(NiceFloor(18.3), 10.0);
  EXPECT_DOUBLE_EQ(NiceFloor(27.0), 20.0);
  EXPECT_DOUBLE_EQ(NiceFloor(0.07), 0.05);
  EXPECT_DOUBLE_EQ(NiceFloor(5.0), 5.0);
  EXPECT_DOUBLE_EQ(NiceFloor(4.9999999999), 5.0);
  EXPECT_DOUBLE_EQ(NiceFloor(1000.0), 1000.0);
  EXPECT_DOUBLE_EQ(NiceFloor(999.0), 500.0);
  EXPECT_THROW(NiceFloor(0.0), std::invalid_argument);
  EXPECT_THROW(NiceFloor(std::nan("")), std::invalid_argument);
}

TEST(NiceNearest, RoundsToNearestOneTwoFiveOnLogScale) {
  EXPECT_DOUBLE_EQ(NiceNearest(100.0), 100.0);
  EXPECT_DOUBLE_EQ(NiceNearest(140.0), 100.0);
  EXPECT_DOUBLE_EQ(NiceNearest(240.0), 200.0);
  EXPECT_DOUBLE_EQ(NiceNearest(450.0), 500.0);
  EXPECT_DOUBLE_EQ(NiceNearest(800.0), 1000.0);
  EXPECT_THROW(NiceNearest(-1.0), std::invalid_argument);
}

// Regression: "NiceCeil: expected a finite x > 0, got 0.000000" could reach
// the user; the message is now worded for them, numbers in %g style.
TEST(NiceCeil, ExplainsABadValueWithoutInternalNames) {
  try {
    NiceCeil(1e-320 * 0.0);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a tick spacing must be a finite number > 0, got 0");
  }
}

}  // namespace
}  // namespace aerolin::core
