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
    const ApproximationError error = CompareApproximation(approx[0].lambda, sp->lambda);
    ASSERT_TRUE(error.natural_frequency_percent.has_value()) << name;
    EXPECT_LT(std::abs(*error.natural_frequency_percent), 2.0) << name;
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

// Hand computation: exact λ = −0.1 ± 1i (ωn = √1.01, ζ = 0.1/√1.01) against
// an approximation with three times its real part, λ = −0.3 ± 1i
// (ωn = √1.09, ζ = 0.3/√1.09): ωn is 3.9 % high, ζ 188.8 % high. The ωn
// error alone would call this approximation good.
TEST(CompareApproximation, OscillatoryRootsGiveSignedErrorsOfNaturalFrequencyAndDamping) {
  const ApproximationError e = CompareApproximation({-0.3, 1.0}, {-0.1, 1.0});
  ASSERT_TRUE(e.natural_frequency_percent && e.damping_ratio_percent);
  EXPECT_FALSE(e.time_constant_percent.has_value());
  EXPECT_NEAR(*e.natural_frequency_percent, 100.0 * (std::sqrt(1.09 / 1.01) - 1.0), 1e-12);
  EXPECT_NEAR(*e.damping_ratio_percent, 100.0 * (3.0 * std::sqrt(1.01 / 1.09) - 1.0), 1e-12);
  EXPECT_NEAR(*e.natural_frequency_percent, 3.885, 1e-3);
  EXPECT_NEAR(*e.damping_ratio_percent, 188.8, 0.05);
  // The same pair the other way round: both errors negative.
  const ApproximationError low = CompareApproximation({-0.1, 1.0}, {-0.3, 1.0});
  EXPECT_LT(*low.natural_frequency_percent, 0.0);
  EXPECT_NEAR(*low.damping_ratio_percent, 100.0 * (std::sqrt(1.09 / 1.01) / 3.0 - 1.0), 1e-12);
}

// Real roots: τ = −1/λ. Exact −2/s (τ = 0.5 s), approximation −1/s (τ = 1 s):
// +100 % (where the old error of λ read −50 %). A stable approximation
// (τ = 1 s) of an unstable root +0.5/s (τ = −2 s): (1 − (−2))/(−2) = −150 %.
TEST(CompareApproximation, RealRootsGiveTheSignedErrorOfTheTimeConstant) {
  const ApproximationError e = CompareApproximation({-1.0, 0.0}, {-2.0, 0.0});
  EXPECT_FALSE(e.natural_frequency_percent || e.damping_ratio_percent);
  ASSERT_TRUE(e.time_constant_percent.has_value());
  EXPECT_NEAR(*e.time_constant_percent, 100.0, 1e-12);
  EXPECT_NEAR(*CompareApproximation({-1.0, 0.0}, {0.5, 0.0}).time_constant_percent, -150.0, 1e-12);
}

// A real approximation of an oscillatory root (or the reverse) is compared by
// ωn and ζ (a real root's ζ is ±1); an exact value of 0 leaves that error out.
TEST(CompareApproximation, MixedOrZeroExactValuesAreHandled) {
  const ApproximationError mixed = CompareApproximation({-2.0, 0.0}, {-1.0, 1.0});
  EXPECT_NEAR(*mixed.natural_frequency_percent, 100.0 * (2.0 / std::sqrt(2.0) - 1.0), 1e-12);
  EXPECT_NEAR(*mixed.damping_ratio_percent, 100.0 * (1.0 / (1.0 / std::sqrt(2.0)) - 1.0), 1e-12);
  const ApproximationError undamped = CompareApproximation({-0.1, 1.0}, {0.0, 1.0});
  EXPECT_TRUE(undamped.natural_frequency_percent.has_value());
  EXPECT_FALSE(undamped.damping_ratio_percent.has_value());
  EXPECT_FALSE(CompareApproximation({-1.0, 0.0}, {0.0, 0.0}).time_constant_percent);
}

}  // namespace
}  // namespace aerolin::analysis

namespace aerolin::analysis {
namespace {

// The A-7A's derivatives are in body axes at α0 = 11.2° (W0 ≠ 0). Read as
// stability-axis forms they gave an unstable phugoid and a Dutch roll 37 %
// slow; rotated into stability axes first, the approximations land near the
// exact roots (which no choice of axes changes).
TEST(ClassicalApproximations, BodyAxisFilesAreRotatedIntoStabilityAxesFirst) {
  const model::AircraftData a =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/a7a_clean_m025_sl.toml").aircraft;
  EXPECT_NEAR(DerivativeAxesAngle(a) * 180.0 / M_PI, 11.2, 0.01);
  const ModalAnalysis modes = AnalyzeModes(a);
  int checked = 0;
  for (const Approximation& x : ClassicalApproximations(a)) {
    const Mode* exact = modes.Find(x.kind);
    ASSERT_NE(exact, nullptr);
    const ApproximationError e = CompareApproximation(x.lambda, exact->lambda);
    if (x.kind == ModeKind::kPhugoid) {
      EXPECT_LT(x.lambda.real(), 0.0);  // stable, as the exact phugoid
      EXPECT_LT(std::abs(*e.natural_frequency_percent), 10.0);
      ++checked;
    }
    if (x.kind == ModeKind::kDutchRoll) {
      EXPECT_LT(std::abs(*e.natural_frequency_percent), 10.0);
      ++checked;
    }
    if (x.kind == ModeKind::kRollSubsidence) {
      EXPECT_LT(std::abs(*e.time_constant_percent), 10.0);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
  // A stability-axis file is used as it is: roll = L'p exactly.
  const model::AircraftData p2v7 =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
  EXPECT_EQ(DerivativeAxesAngle(p2v7), 0.0);
  for (const Approximation& x : ClassicalApproximations(p2v7))
    if (x.kind == ModeKind::kRollSubsidence) {
      EXPECT_EQ(x.lambda.real(), p2v7.lateral.Lp);
    }
}

}  // namespace
}  // namespace aerolin::analysis
