#include "aerolin/sim/validity.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace aerolin::sim {
namespace {

TEST(ValidityMonitor, FlagsLeavingTheSmallPerturbationRangeWithoutStopping) {
  ValidityMonitor monitor(ValidityThresholds{}, 100.0);
  FlightState x = FlightState::Zero();
  x[kAlpha] = 0.1;
  EXPECT_TRUE(monitor.Check(0.0, x));
  EXPECT_FALSE(monitor.any_exceeded());
  x[kAlpha] = -0.2;  // 11.5° > 10°
  x[kU] = 12.0;      // 12 % of U0
  EXPECT_TRUE(monitor.Check(1.5, x));
  x[kAlpha] = 0.0;
  EXPECT_TRUE(monitor.Check(2.0, x));
  const std::vector<ValidityFlag>& f = monitor.flags();
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].name, "alpha");
  EXPECT_EQ(f[0].first_exceeded, 1.5);
  EXPECT_EQ(f[0].peak, 0.2);
  EXPECT_EQ(f[0].peak_time, 1.5);
  EXPECT_FALSE(f[1].exceeded());
  EXPECT_FALSE(f[2].exceeded());
  EXPECT_EQ(f[3].name, "u/U0");
  EXPECT_EQ(f[3].first_exceeded, 1.5);
  EXPECT_FALSE(monitor.divergence());
}

TEST(ValidityMonitor, StopsOnANonFiniteState) {
  ValidityMonitor monitor(ValidityThresholds{}, 100.0);
  FlightState x = FlightState::Zero();
  x[kEast] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(monitor.Check(3.0, x));
  EXPECT_EQ(*monitor.divergence(),
            "state diverged at t = 3 s: east = nan (limit 1000); run stopped");
}

TEST(ValidityMonitor, StopsOnAHugeStateButNotOnAWoundUpHeading) {
  ValidityMonitor monitor(ValidityThresholds{}, 100.0);
  FlightState x = FlightState::Zero();
  x[kPsi] = 5000.0;
  x[kNorth] = 1e9;
  EXPECT_TRUE(monitor.Check(1.0, x));
  x[kQ] = -2e3;
  EXPECT_FALSE(monitor.Check(2.0, x));
  EXPECT_EQ(*monitor.divergence(),
            "state diverged at t = 2 s: q = -2000 (limit 1000); run stopped");
}

}  // namespace
}  // namespace aerolin::sim
