#include "aerolin/model/typed_values.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>
#include <fmt/format.h>

#include "aerolin/core/units.hpp"

namespace aerolin::model {
namespace {

// The P2V-7 of data/derivatives/p2v7.toml in SI (ft → m), with a plausible
// inertia set: a conventional aircraft that breaks no rule.
AircraftData Conventional() {
  constexpr double ft = 0.3048;
  AircraftData a;
  a.condition.U0 = 293.8 * ft;
  a.condition.g = core::kStandardGravity;
  LongitudinalDerivatives& lon = a.longitudinal;
  lon.Xu = -0.0215;
  lon.Zu = -0.227;
  lon.Xa = 14.7 * ft;
  lon.Za = -236.0 * ft;
  lon.Ma = -3.78;
  lon.Madot = -0.28;
  lon.Zq = -5.76 * ft;
  lon.Mq = -0.992;
  LateralDerivatives& lat = a.lateral;
  lat.Yb = -45.4 * ft;
  lat.Yp = 0.716 * ft;
  lat.Yr = 2.66 * ft;
  lat.Lb = -1.71;
  lat.Lp = -0.962;
  lat.Lr = 0.271;
  lat.Nb = 0.986;
  lat.Np = -0.0632;
  lat.Nr = -0.215;
  a.mass.m = 30000.0;
  a.mass.Ix = 2.0e5;
  a.mass.Iy = 3.0e5;
  a.mass.Iz = 4.5e5;
  a.mass.Ixz = 1.0e4;
  return a;
}

// A locator for tests: the key is the member's name, the line its index in
// a fixed list (so each warning's place is checked too).
WrittenAt Locate(std::string_view quantity) {
  static const std::vector<std::string_view> kOrder = {
      "longitudinal.Xu", "longitudinal.Za", "longitudinal.Ma", "longitudinal.Mq",
      "lateral.Yb",      "lateral.Lb",      "lateral.Lp",      "lateral.Nb",
      "lateral.Nr",      "mass.Ix",         "mass.Iy",         "mass.Iz",
      "mass.Ixz",        "mass.W",          "coefficients.CL0"};
  int line = 0;
  for (std::size_t i = 0; i < kOrder.size(); ++i)
    if (kOrder[i] == quantity) line = static_cast<int>(i) + 10;
  return {std::string(quantity.substr(quantity.find('.') + 1)), {"t.toml", line}};
}

std::vector<std::string> Messages(const AircraftData& a, const TypedValueExtras& extras = {}) {
  std::vector<std::string> out;
  for (const core::Diagnostic& d : CheckTypedValues(a, Locate, extras)) out.push_back(d.ToString());
  return out;
}

TEST(CheckTypedValues, ConventionalAircraftDrawsNothing) {
  EXPECT_TRUE(Messages(Conventional()).empty());
}

// Each sign rule, its text and its place.
TEST(CheckTypedValues, EachWrongSignIsNamedWithItsReason) {
  struct Case {
    void (*flip)(AircraftData&);
    const char* message;
  };
  const Case cases[] = {
      {[](AircraftData& a) { a.longitudinal.Za = -a.longitudinal.Za; },
       "t.toml:11: Za: Z_alpha > 0, expected < 0: lift grows with angle of attack and Z points "
       "down, so Z_alpha = -(C_Lalpha + C_D0) qS/m is negative; check the sign"},
      {[](AircraftData& a) { a.longitudinal.Ma = -a.longitudinal.Ma; },
       "t.toml:12: Ma: M_alpha > 0, expected < 0: the aircraft is statically unstable in pitch "
       "(a nose-up disturbance grows); fine for an unstable design, otherwise check the sign"},
      {[](AircraftData& a) { a.longitudinal.Mq = -a.longitudinal.Mq; },
       "t.toml:13: Mq: M_q > 0, expected < 0: pitch damping opposes the pitch rate (the tail's "
       "angle of attack grows with q); check the sign"},
      {[](AircraftData& a) { a.lateral.Lp = -a.lateral.Lp; },
       "t.toml:16: Lp: L_p > 0, expected < 0: roll damping opposes the roll rate (the "
       "down-going wing meets a larger angle of attack); check the sign"},
      {[](AircraftData& a) { a.lateral.Nr = -a.lateral.Nr; },
       "t.toml:18: Nr: N_r > 0, expected < 0: yaw damping opposes the yaw rate (the fin's side "
       "force); check the sign"},
      {[](AircraftData& a) { a.lateral.Nb = -a.lateral.Nb; },
       "t.toml:17: Nb: N_beta < 0, expected > 0: the aircraft is directionally unstable "
       "(weathercock stability turns the nose into the relative wind); check the sign"},
      {[](AircraftData& a) { a.lateral.Yb = -a.lateral.Yb; },
       "t.toml:14: Yb: Y_beta > 0, expected < 0: a sideslip to the right (wind from the right) "
       "pushes the aircraft to the left; check the sign"},
      {[](AircraftData& a) { a.longitudinal.Xu = -a.longitudinal.Xu; },
       "t.toml:10: Xu: X_u > 0, expected < 0: drag grows with speed; only thrust growing faster "
       "than drag makes X_u positive (thrust?); check the sign"},
  };
  for (const Case& c : cases) {
    AircraftData a = Conventional();
    c.flip(a);
    const std::vector<std::string> m = Messages(a);
    ASSERT_EQ(m.size(), 1u) << c.message;
    EXPECT_EQ(m[0], c.message);
  }
}

// In body axes at a trim angle of attack α0 (W0 ≠ 0) the tilted lift adds to
// X_u: a positive X_u below g sin α0 cos α0 / V is physical (the A-7A's
// body-axis X_u = +0.0162 1/s at α0 = 11.2°).
TEST(CheckTypedValues, PositiveXuIsAllowedUpToTheTiltedLiftInBodyAxes) {
  AircraftData a = Conventional();
  const double V = a.condition.U0;
  const double alpha0 = 11.2 * core::kDegToRad;
  a.condition.U0 = V * std::cos(alpha0);
  a.condition.W0 = V * std::sin(alpha0);
  const double allowance = a.condition.g * std::sin(alpha0) * std::cos(alpha0) / V;
  a.longitudinal.Xu = 0.9 * allowance;
  EXPECT_TRUE(Messages(a).empty());
  a.longitudinal.Xu = 1.1 * allowance;
  const std::vector<std::string> m = Messages(a);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "t.toml:10: Xu: X_u = 0.02295 1/s > g sin(alpha0) cos(alpha0)/V = 0.02087 "
                  "1/s, expected below: drag grows with speed; only thrust growing faster than "
                  "drag makes X_u positive (thrust?); check the sign");
}

TEST(CheckTypedValues, InertiasThatNoBodyHasAreNamed) {
  AircraftData a = Conventional();
  a.mass.Ixz = 2.5e5;  // Ixz² = 6.25e10 > ½ Ix Iz = 4.5e10 (yet G > 0: loads)
  std::vector<std::string> m = Messages(a);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "t.toml:22: Ixz: |Ixz| = 2.5e+05 is more than 0.71 sqrt(Ix Iz) = 2.121e+05: a "
                  "product of inertia is normally a small fraction of Ix and Iz; check its value "
                  "and units (and that Ix and Iz are about the same axes)");
  a = Conventional();
  a.mass.Iz = 6.0e5;  // > Ix + Iy = 5e5: e.g. Ix typed in the wrong unit
  m = Messages(a);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "t.toml:21: Iz: Iz = 6e+05 exceeds the sum of the other two moments of "
                  "inertia (5e+05), impossible for any body (e.g. Ix + Iy - Iz = 2 integral "
                  "z^2 dm >= 0); check the values and their units");
  a.mass.Iz = 5.0e5;  // a flat body: Iz = Ix + Iy exactly, allowed
  EXPECT_TRUE(Messages(a).empty());
}

// U0 = 1e-300 loaded silently and gave roots of 1e302 1/s (issue #27).
TEST(CheckTypedValues, AnAirspeedNoAircraftFliesIsNamed) {
  AircraftData a = Conventional();
  for (const double U0 : {1e-300, 0.5, 3001.0}) {
    a.condition.U0 = U0;
    const std::vector<std::string> m = Messages(a);
    ASSERT_EQ(m.size(), 1u) << U0;
    EXPECT_NE(m[0].find("U0: " + fmt::format("{:.4g}", U0) +
                        " m/s, expected 1 to 3000 m/s: implausible for an aircraft in flight"),
              std::string::npos)
        << m[0];
  }
  for (const double U0 : {1.0, 3000.0}) {  // the bounds themselves are plausible
    a.condition.U0 = U0;
    EXPECT_TRUE(Messages(a).empty()) << U0;
  }
}

TEST(CheckTypedValues, WeightAndLiftCoefficientHooks) {
  const AircraftData a = Conventional();
  const double mg = 30000.0 * core::kStandardGravity;
  EXPECT_TRUE(Messages(a, {.W = 1.01 * mg}).empty());
  std::vector<std::string> m = Messages(a, {.W = 30000.0});  // a mass typed as W
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "t.toml:23: W: W = 3e+04 N differs from m g = 2.942e+05 N by more than 2 %: "
                  "weight is mass times g; check which of the two (or g) is meant");
  EXPECT_TRUE(Messages(a, {.CL0 = 0.52, .CW0 = 0.5}).empty());
  m = Messages(a, {.CL0 = 0.6, .CW0 = 0.5});
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "t.toml:24: CL0: C_L0 = 0.6 differs from C_W0 cos(theta0) = 0.5 by more than "
                  "5 %: in steady flight lift balances weight; check the condition (speed, "
                  "density, weight) or C_L0");
}

// A whole table typed per degree: its angle derivatives are the per-radian
// ones ÷ 57.3, rate derivatives unchanged.
TEST(CheckTypedValues, TableTypedPerDegreeIsSuspected) {
  AircraftData a = Conventional();
  for (double* v : {&a.longitudinal.Za, &a.longitudinal.Ma, &a.lateral.Lb, &a.lateral.Nb})
    *v *= core::kDegToRad;
  const std::vector<std::string> m = Messages(a);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "t.toml:11: Za, Ma, Lb, Nb: implausibly small for any aircraft per radian "
                  "(|Z_alpha| < g/2, |M_alpha| < 0.09 1/s^2, |L_beta|, |N_beta| < 0.04 1/s^2): "
                  "per degree? add per_degree = true");
  // Only the lateral table per degree: still two keys.
  a = Conventional();
  a.lateral.Lb *= core::kDegToRad;
  a.lateral.Nb *= core::kDegToRad;
  ASSERT_EQ(Messages(a).size(), 1u);
  EXPECT_EQ(Messages(a)[0].substr(0, 22), "t.toml:15: Lb, Nb: imp");
}

// One small angle derivative alone is physics (an aft centre of gravity
// makes M_α small; a wing without dihedral effect has L_β ≈ 0), and a 0 is
// "not given": neither is suspected.
TEST(CheckTypedValues, OneSmallOrZeroDerivativeIsNotSuspected) {
  AircraftData a = Conventional();
  a.longitudinal.Ma = -0.01;
  EXPECT_TRUE(Messages(a).empty());
  a = Conventional();
  a.lateral.Lb = 0.0;
  a.lateral.Nb = 0.0;  // N_β = 0 breaks no sign rule (only < 0 does)
  EXPECT_TRUE(Messages(a).empty());
}

}  // namespace
}  // namespace aerolin::model
