#include "aerolin/study/augment.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// A mode's root against a requested pole: the eigenvalues of the 4–5 state
// closed loop carry ~κ(X)·1e-16 with κ(X) ≤ 1e3 here; the modes analysis
// decomposes A − BK again.
constexpr double kRootTolerance = 1e-9;

model::AircraftData Load(const std::string& name) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name).aircraft;
}

const std::vector<std::string> kAircraft = {
    "p2v7.toml", "navion_cruise_sl.toml", "navion_cruise_sl_coefficients.toml",
    "boeing747_cruise_40kft.toml", "boeing747_cruise_40kft_coefficients.toml",
    "a7a_clean_m025_sl.toml", "nt33a_power_approach_sl.toml"};

std::string Message(const model::AircraftData& a, const AugmentSpec& spec) {
  try {
    Augment(a, spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(ParseSignalValue, ReadsUnitsOfTheSignalsDimension) {
  const core::Signal alpha{"alpha", core::Unit::kRadian, "α"};
  const core::Signal q{"q", core::Unit::kRadianPerSecond, "q"};
  const core::Signal u{"u", core::Unit::kMetrePerSecond, "u"};
  EXPECT_DOUBLE_EQ(ParseSignalValue("2deg", alpha), 2 * core::kDegToRad);
  EXPECT_DOUBLE_EQ(ParseSignalValue(" 0.03 rad", alpha), 0.03);
  EXPECT_DOUBLE_EQ(ParseSignalValue("0.03", alpha), 0.03);
  EXPECT_DOUBLE_EQ(ParseSignalValue("5deg/s", q), 5 * core::kDegToRad);
  EXPECT_DOUBLE_EQ(ParseSignalValue("10ft/s", u), 3.048);
  try {
    ParseSignalValue("5deg", q);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "'5deg' is not a value of q (a number in rad/s, or followed by rad/s, deg/s)");
  }
}

TEST(ParsePoles, ValuesPairsAndModes) {
  const std::vector<PoleRequest> r =
      ParsePoles("short-period:wn=4,zeta=0.6,roll:-3,dutch-roll:-1+2j,-2-3j,wn=1,zeta=2");
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].mode, analysis::ModeKind::kShortPeriod);
  ASSERT_EQ(r[0].poles.size(), 2u);
  EXPECT_NEAR(r[0].poles[0].real(), -2.4, 1e-15);
  EXPECT_NEAR(r[0].poles[0].imag(), 3.2, 1e-15);
  EXPECT_EQ(r[0].poles[1], std::conj(r[0].poles[0]));
  EXPECT_EQ(r[1].mode, analysis::ModeKind::kRollSubsidence);
  EXPECT_EQ(r[1].poles, (std::vector<cd>{{-3, 0}}));
  EXPECT_EQ(r[2].poles, (std::vector<cd>{{-1, 2}, {-1, -2}}));  // a named pair: both
  EXPECT_FALSE(r[3].mode);
  EXPECT_EQ(r[3].poles, (std::vector<cd>{{-2, -3}}));  // unnamed: as typed
  // ζ = 2: two real roots −ωn(ζ ∓ √(ζ²−1)).
  EXPECT_NEAR(r[4].poles[0].real(), -2 + std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(r[4].poles[1].real(), -2 - std::sqrt(3.0), 1e-15);
  EXPECT_THROW(ParsePoles("wn=4"), std::invalid_argument);
  EXPECT_THROW(ParsePoles("banana:-1"), std::invalid_argument);
  EXPECT_THROW(ParsePoles("-1,,-2"), std::invalid_argument);
}

TEST(Augment, LqrOnEveryAircraftBothAxesIsStableWithZeroHeadingGain) {
  for (const std::string& file : kAircraft) {
    SCOPED_TRACE(file);
    const model::AircraftData a = Load(file);
    for (model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
      AugmentSpec spec;
      spec.axis = axis;
      const AugmentResult r = Augment(a, spec);
      for (const cd& l : r.closed_eigenvalues)
        if (axis == model::Axis::kLongitudinal || std::abs(l) > 1e-12) {
          EXPECT_LT(l.real(), 0.0);
        }
      ASSERT_TRUE(r.closed_modes);
      EXPECT_LE(*r.residual, 1e-12);
      if (axis == model::Axis::kLateral) {
        EXPECT_EQ(r.design_states, (std::vector<int>{0, 1, 2, 3}));
        EXPECT_TRUE(r.gain.col(model::lat::kPsi).isZero(0.0));
        EXPECT_EQ(r.inputs.size(), 2u);
      } else {
        EXPECT_EQ(r.design_states, (std::vector<int>{0, 1, 2, 3}));
      }
      // Bryson's rule: Q's diagonal is 1/max² of the defaults.
      EXPECT_DOUBLE_EQ(r.Q(1, 1), 1.0 / std::pow(DefaultMaximum(r.states[1]), 2));
      // The closed loop is A − B_d K with the whole B.
      EXPECT_EQ(r.closed_loop.B(), r.open_loop.B());
    }
  }
}

TEST(Augment, PlaceByModeMovesOnlyThatMode) {
  for (const std::string& file : kAircraft) {
    SCOPED_TRACE(file);
    const model::AircraftData a = Load(file);
    AugmentSpec spec;
    spec.axis = model::Axis::kLateral;
    spec.method = DesignMethod::kPlace;
    spec.poles = ParsePoles("dutch-roll:wn=2,zeta=0.6");
    const AugmentResult r = Augment(a, spec);
    ASSERT_TRUE(r.closed_modes);
    for (const analysis::Mode& open : r.open_modes) {
      if (open.kind == analysis::ModeKind::kDutchRoll || open.kind == analysis::ModeKind::kHeading) continue;
      // Every other open-loop root is still a closed-loop root.
      const bool kept = std::any_of(r.closed_eigenvalues.begin(), r.closed_eigenvalues.end(), [&](cd l) {
        return std::abs(l - open.lambda) <= kRootTolerance * std::max(1.0, std::abs(l));
      });
      EXPECT_TRUE(kept) << open.full_name();
    }
    const analysis::Mode* dr = analysis::FindMode(*r.closed_modes, analysis::ModeKind::kDutchRoll);
    ASSERT_NE(dr, nullptr);
    EXPECT_NEAR(dr->natural_frequency, 2.0, kRootTolerance * 2);
    EXPECT_NEAR(dr->damping_ratio, 0.6, kRootTolerance);
  }
}

TEST(Augment, NamesWhatIsWrong) {
  const model::AircraftData a = Load("p2v7.toml");
  AugmentSpec spec;
  spec.axis = model::Axis::kLateral;
  spec.inputs = {"spoiler"};
  EXPECT_EQ(Message(a, spec),
            "no input 'spoiler' on the lateral axis of Lockheed P2V-7 Neptune (its inputs: "
            "aileron, rudder)");
  spec.inputs = {};
  spec.q_diagonal = {1, 1, 1, 1, 1};
  spec.r_diagonal = {1, 1};
  EXPECT_EQ(Message(a, spec),
            "Q needs 4 weights, one per design state (beta, p, r, phi), got 5");
  spec.q_diagonal = {};
  spec.r_diagonal = {};
  spec.maxima = {{"psi", 0.1}};
  EXPECT_EQ(Message(a, spec),
            "'psi' is left out of the design (a free integrator: zero gain); design on it too to "
            "weight it (heading hold)");
  spec.maxima = {};
  spec.include_integrators = true;
  spec.q_diagonal = {1, 1, 1, 1, 0};
  spec.r_diagonal = {1, 1};
  EXPECT_EQ(Message(a, spec),
            "the heading (λ = 0 /s) is on the imaginary axis and Q does not weight it, so the "
            "Riccati equation has no stabilizing solution: weight its state in Q, or leave the "
            "state out of the design");
  AugmentSpec place;
  place.axis = model::Axis::kLongitudinal;
  place.method = DesignMethod::kPlace;
  place.poles = ParsePoles("dutch-roll:-1+1j");
  EXPECT_EQ(Message(a, place),
            "no dutch roll among the open-loop modes the design moves (short-period, phugoid)");
  place.poles = ParsePoles("short-period:-2");
  EXPECT_EQ(Message(a, place),
            "the short period has 2 roots but 1 was requested (a pair: wn=W,zeta=Z or -a+bj)");
}

TEST(Augment, HeadingHoldFeedsPsiBackAndIsNotNamed) {
  const model::AircraftData a = Load("p2v7.toml");
  AugmentSpec spec;
  spec.axis = model::Axis::kLateral;
  spec.include_integrators = true;
  const AugmentResult r = Augment(a, spec);
  EXPECT_EQ(r.design_states.size(), 5u);
  EXPECT_FALSE(r.gain.col(model::lat::kPsi).isZero(0.0));
  EXPECT_FALSE(r.closed_modes);
  for (const cd& l : r.closed_eigenvalues) EXPECT_LT(l.real(), 0.0);  // no free heading left
  EXPECT_NE(r.not_graded.find("psi is fed back"), std::string::npos);
}

}  // namespace
}  // namespace aerolin::study
