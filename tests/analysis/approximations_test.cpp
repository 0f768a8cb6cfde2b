#include "aerolin/analysis/approximations.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::analysis {
namespace {

TEST(ClassicalApproximations, ShortPeriodTwoDofIsCloseForEveryBundledAircraft) {
  // The (α, q) approximation neglects only the slow u, θ coupling; for these
  // conventional aircraft its ωn is within 2 % of the exact root.
  for (const char* name : {"p2v7.toml", "boeing747_cruise_40kft.toml", "nt33a_power_approach_sl.toml", "navion_cruise_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a =
        data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name).aircraft;
    const auto approx = ClassicalApproximations(a);
    const auto modes = AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0);
    const Mode* sp = FindMode(modes, ModeKind::kShortPeriod);
    ASSERT_EQ(approx[0].kind, ModeKind::kShortPeriod);
    EXPECT_LT(std::abs(PercentError(approx[0].lambda, sp->lambda)), 2.0) << name;
  }
}

TEST(ClassicalApproximations, RollIsLpAndLanchesterUsesZu) {
  model::AircraftData a;
  a.condition.U0 = 100.0;
  a.condition.g = 9.80665;
  a.longitudinal.Zu = -2.0 * 9.80665 / 100.0;  // level flight: Zu = −2g/U0
  a.longitudinal.Xu = 0.0;
  a.lateral.Lp = -3.0;
  a.lateral.Lb = -1.0;
  a.lateral.Nb = 1.0;
  const auto approx = ClassicalApproximations(a);
  int checked = 0;
  for (const Approximation& x : approx) {
    if (x.kind == ModeKind::kRollSubsidence) {
      EXPECT_DOUBLE_EQ(x.lambda.real(), -3.0);
      ++checked;
    }
    if (x.kind == ModeKind::kPhugoid) {
      ++checked;
      // Lanchester: ωn = √2 g/U0, undamped when Xu = 0.
      EXPECT_NEAR(x.lambda.imag(), std::sqrt(2.0) * 9.80665 / 100.0, 1e-12);
      EXPECT_NEAR(x.lambda.real(), 0.0, 1e-12);
    }
  }
  EXPECT_EQ(checked, 2);
  // With Zu ≠ −2g/U0 the two readings differ: ωn = √(−g Zu/U0) = √3 g/U0
  // here, where Lanchester's √2 g/U0 would not follow Zu.
  a.longitudinal.Zu = -3.0 * 9.80665 / 100.0;
  const auto changed = ClassicalApproximations(a);
  const auto phugoid = std::find_if(changed.begin(), changed.end(), [](const Approximation& x) {
    return x.kind == ModeKind::kPhugoid;
  });
  ASSERT_NE(phugoid, changed.end());
  EXPECT_NEAR(phugoid->lambda.imag(), std::sqrt(3.0) * 9.80665 / 100.0, 1e-12);
}

TEST(PercentError, OfNaturalFrequencyOrRealRoot) {
  EXPECT_NEAR(PercentError({-1.0, 0.0}, {-2.0, 0.0}), 50.0, 1e-12);
  EXPECT_NEAR(PercentError({0.0, 1.1}, {0.0, 1.0}), 10.0, 1e-12);
}

}  // namespace
}  // namespace aerolin::analysis
