#include "aerolin/core/units.hpp"

#include <gtest/gtest.h>

namespace aerolin::core {
namespace {

TEST(ParseUnitSystem, AcceptsTheTwoNamesInAnyCaseOnly) {
  EXPECT_EQ(ParseUnitSystem("SI"), UnitSystem::kSI);
  EXPECT_EQ(ParseUnitSystem("si"), UnitSystem::kSI);
  EXPECT_EQ(ParseUnitSystem("Si"), UnitSystem::kSI);
  EXPECT_EQ(ParseUnitSystem("imperial"), UnitSystem::kImperial);
  EXPECT_EQ(ParseUnitSystem("IMPERIAL"), UnitSystem::kImperial);
  EXPECT_FALSE(ParseUnitSystem("metric").has_value());
  EXPECT_FALSE(ParseUnitSystem("S").has_value());
  EXPECT_FALSE(ParseUnitSystem("SI ").has_value());
  EXPECT_FALSE(ParseUnitSystem("imperia").has_value());
  EXPECT_FALSE(ParseUnitSystem("").has_value());
}

TEST(ToSI, SIIsIdentity) {
  EXPECT_DOUBLE_EQ(ToSI(3.5, UnitSystem::kSI, kMoment), 3.5);
  EXPECT_DOUBLE_EQ(ToSI(3.5, UnitSystem::kSI, PerSecond(2)), 3.5);
}

TEST(ToSI, ImperialBaseQuantities) {
  EXPECT_DOUBLE_EQ(ToSI(1.0, UnitSystem::kImperial, kLength), 0.3048);
  EXPECT_DOUBLE_EQ(ToSI(293.8, UnitSystem::kImperial, kSpeed), 293.8 * 0.3048);
  EXPECT_DOUBLE_EQ(ToSI(1.0, UnitSystem::kImperial, kMass), 14.593902937206364);
  // Independent values of the derived units (NIST SP 811): 1 lbf = 4.4482216152605 N,
  // 1 slug ft² = 1.3558179483314 kg m², 1 lbf ft = 1.3558179483314 N m.
  EXPECT_NEAR(ToSI(1.0, UnitSystem::kImperial, kForce), 4.4482216152605, 1e-12);
  EXPECT_NEAR(ToSI(1.0, UnitSystem::kImperial, kInertia), 1.3558179483314, 1e-12);
  EXPECT_NEAR(ToSI(1.0, UnitSystem::kImperial, kMoment), 1.3558179483314, 1e-12);
  // g0 in ft/s² converts back to standard gravity.
  EXPECT_NEAR(ToSI(32.17404855643, UnitSystem::kImperial, kAcceleration), kStandardGravity, 1e-10);
}

TEST(ToSI, RateDerivativesAreUnitFree) {
  // 1/s derivatives (Xu, Mq, Lp) do not change with the length unit.
  EXPECT_DOUBLE_EQ(ToSI(-0.992, UnitSystem::kImperial, PerSecond(1)), -0.992);
  // 1/(ft s) becomes 1/(m s): divide by 0.3048.
  EXPECT_DOUBLE_EQ(ToSI(1.0, UnitSystem::kImperial, Dimension{-1, 0, -1}), 1.0 / 0.3048);
}

}  // namespace
}  // namespace aerolin::core
