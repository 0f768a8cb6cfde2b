#include "aerolin/model/conversions.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

#include "aerolin/model/as_written.hpp"

namespace aerolin::model {
namespace {

// One or two roundings per value: a few ulps of O(1..1e3) numbers.
constexpr double kTight = 1e-12;

// The B747 at 40,000 ft (Etkin & Reid 3rd ed. Tables 6.1, 6.6), raw SI, as
// data/derivatives/boeing747_cruise_40kft.toml gives it.
constexpr double kU0 = 235.9;        // m/s
constexpr double kM = 288660.55;     // kg
constexpr double kIx = 0.247e8;      // kg m²
constexpr double kIy = 0.449e8;
constexpr double kIz = 0.673e8;
constexpr double kIxz = -0.212e7;

MassProperties B747Mass() { return {kM, kIx, kIy, kIz, kIxz}; }

TEST(Normalize, DividesByTheDivisorAndNeedsIt) {
  const MassProperties mass = B747Mass();
  EXPECT_DOUBLE_EQ(Normalize(-1.982e3, Divisor::kMass, mass), -1.982e3 / 288660.55);
  EXPECT_DOUBLE_EQ(Normalize(-1.521e7, Divisor::kIy, mass), -1.521e7 / 0.449e8);
  EXPECT_DOUBLE_EQ(Normalize(3.0, Divisor::kNone, mass), 3.0);
  EXPECT_THROW(Normalize(1.0, Divisor::kIx, MassProperties{}), std::invalid_argument);
  MassProperties zero_mass;
  zero_mass.m = 0.0;
  EXPECT_THROW(Normalize(1.0, Divisor::kMass, zero_mass), std::invalid_argument);
}

TEST(ToLongitudinal, RawWFormIsDividedByMassOrIyThenTimesU0) {
  LongitudinalAsWritten w;
  w.raw = true;
  w.form = AngleForm::kVelocity;
  w.Xu = -1.982e3; w.Xw = 4.025e3; w.Xq = 0.0;
  w.Zu = -2.595e4; w.Zw = -9.030e4; w.Zq = -4.524e5; w.Zwdot = 1.909e3;
  w.Mu = 1.593e4; w.Mw = -1.563e5; w.Mq = -1.521e7; w.Mwdot = -1.702e4;
  w.Ma = 99.0;  // an α-form field: ignored in w-form
  const LongitudinalDerivatives d = ToLongitudinal(w, kU0, B747Mass());
  EXPECT_NEAR(d.Xu, -1.982e3 / 288660.55, kTight);
  EXPECT_NEAR(d.Zq, -4.524e5 / 288660.55, kTight);
  EXPECT_NEAR(d.Mu, 1.593e4 / 0.449e8, kTight);
  EXPECT_NEAR(d.Mq, -1.521e7 / 0.449e8, kTight);
  // α = w/U0: X_α = U0 X_w / m, M_α̇ = U0 M_ẇ / Iy, Z_α̇ = U0 Z_ẇ / m.
  EXPECT_NEAR(d.Xa, 235.9 * 4.025e3 / 288660.55, kTight);
  EXPECT_NEAR(d.Za, 235.9 * -9.030e4 / 288660.55, kTight);
  EXPECT_NEAR(d.Ma, 235.9 * -1.563e5 / 0.449e8, kTight);
  EXPECT_NEAR(d.Madot, 235.9 * -1.702e4 / 0.449e8, kTight);
  EXPECT_NEAR(d.Zadot, 235.9 * 1.909e3 / 288660.55, kTight);
  EXPECT_EQ(d.Xq, 0.0);
}

TEST(ToLongitudinal, NormalizedAlphaFormPassesThrough) {
  LongitudinalAsWritten w;
  w.Xu = -0.0215; w.Za = -71.9; w.Ma = -3.78; w.Madot = -0.28; w.Mq = -0.992;
  w.Mw = 5.0;  // a w-form field: ignored in α-form
  const LongitudinalDerivatives d = ToLongitudinal(w, 89.5, MassProperties{});
  EXPECT_EQ(d.Xu, -0.0215);
  EXPECT_EQ(d.Za, -71.9);
  EXPECT_EQ(d.Ma, -3.78);
  EXPECT_EQ(d.Madot, -0.28);
  EXPECT_EQ(d.Mq, -0.992);
}

TEST(ToLongitudinal, VelocityFormNeedsPositiveU0) {
  LongitudinalAsWritten w;
  w.form = AngleForm::kVelocity;
  EXPECT_THROW(ToLongitudinal(w, 0.0, MassProperties{}), std::invalid_argument);
}

TEST(Priming, SmallIntegerCaseByHand) {
  // Ix = 2, Iz = 4, Ixz = 1: G = 1 − 1/8 = 7/8; with L = 1, N = 2:
  // L' = (1 + 2/2)/(7/8) = 16/7, N' = (2 + 1/4)/(7/8) = 18/7.
  MassProperties mass;
  mass.Ix = 2.0;
  mass.Iz = 4.0;
  mass.Ixz = 1.0;
  const Priming p = Priming::Of(mass);
  EXPECT_DOUBLE_EQ(p.G, 7.0 / 8.0);
  double L = 1.0, N = 2.0;
  p.Apply(L, N);
  EXPECT_NEAR(L, 16.0 / 7.0, kTight);
  EXPECT_NEAR(N, 18.0 / 7.0, kTight);
}

TEST(Priming, IdentityWithoutProductOfInertiaAndRejectsBadTensors) {
  double L = 1.5, N = -0.5;
  Priming::Of(MassProperties{}).Apply(L, N);
  EXPECT_EQ(L, 1.5);
  EXPECT_EQ(N, -0.5);
  MassProperties no_ix;
  no_ix.Iz = 1.0;
  no_ix.Ixz = 0.1;
  EXPECT_THROW(Priming::Of(no_ix), std::invalid_argument);
  MassProperties not_positive{std::nullopt, 1.0, std::nullopt, 1.0, 1.0};  // Ixz² = Ix Iz
  EXPECT_THROW(Priming::Of(not_positive), std::invalid_argument);
}

TEST(ToLateral, RawVFormUnprimedEqualsSolvingTheCoupledMomentEquations) {
  // Etkin & Reid eq. 4.9,19: Ix ṗ − Ixz ṙ = ΔL, Iz ṙ − Ixz ṗ = ΔN. The primed
  // derivatives are the columns of [Ix −Ixz; −Ixz Iz]⁻¹ [L_raw; N_raw]: an
  // oracle that solves the 2×2 system instead of using the closed form.
  LateralAsWritten w;
  w.raw = true;
  w.form = AngleForm::kVelocity;
  w.primed = false;
  w.Yv = -1.610e4; w.Lv = -3.062e5; w.Nv = 2.131e5;
  w.Lp = -1.076e7; w.Np = -1.330e6;
  w.Lr = 9.925e6; w.Nr = -8.934e6;
  const LateralDerivatives d = ToLateral(w, kU0, B747Mass());
  Eigen::Matrix2d J;
  J << kIx, -kIxz, -kIxz, kIz;
  auto solve = [&](double L_raw, double N_raw) {
    return Eigen::Vector2d(J.fullPivLu().solve(Eigen::Vector2d(L_raw, N_raw)));
  };
  const Eigen::Vector2d beta = solve(kU0 * -3.062e5, kU0 * 2.131e5);  // ∂/∂β = U0 ∂/∂v
  const Eigen::Vector2d p = solve(-1.076e7, -1.330e6);
  const Eigen::Vector2d r = solve(9.925e6, -8.934e6);
  EXPECT_NEAR(d.Lb, beta(0), 1e-10 * std::abs(beta(0)));
  EXPECT_NEAR(d.Nb, beta(1), 1e-10 * std::abs(beta(1)));
  EXPECT_NEAR(d.Lp, p(0), 1e-10 * std::abs(p(0)));
  EXPECT_NEAR(d.Np, p(1), 1e-10 * std::abs(p(1)));
  EXPECT_NEAR(d.Lr, r(0), 1e-10 * std::abs(r(0)));
  EXPECT_NEAR(d.Nr, r(1), 1e-10 * std::abs(r(1)));
  EXPECT_NEAR(d.Yb, 235.9 * -1.610e4 / 288660.55, kTight);
  EXPECT_EQ(d.Yp, 0.0);
}

TEST(ToLateral, PrimedInputIsNotCoupledAgain) {
  LateralAsWritten w;
  w.Lb = -1.71; w.Nb = 0.986; w.Lp = -0.962;
  const LateralDerivatives d = ToLateral(w, 89.5, B747Mass());  // Ixz ≠ 0, but primed
  EXPECT_EQ(d.Lb, -1.71);
  EXPECT_EQ(d.Nb, 0.986);
  EXPECT_EQ(d.Lp, -0.962);
}

TEST(ToControl, NormalizesGivenDerivativesAndPrimesMoments) {
  Control c;
  c.name = "rudder";
  c.lateral = true;
  c.Y = 4.9616e5;
  c.L = 1.8013e6;
  c.N = -3.2457e7;
  MassProperties mass = B747Mass();
  mass.Iy.reset();  // X, Z, M are 0: they need no Iy
  const Control out = ToControl(c, true, true, false, mass);
  const double L = 1.8013e6 / kIx, N = -3.2457e7 / kIz;
  const double G = 1.0 - kIxz * kIxz / (kIx * kIz);
  EXPECT_NEAR(out.Y, 4.9616e5 / kM, kTight);
  EXPECT_NEAR(out.L, (L + kIxz / kIx * N) / G, 1e-12 * std::abs(out.L));
  EXPECT_NEAR(out.N, (N + kIxz / kIz * L) / G, 1e-12 * std::abs(out.N));
  EXPECT_EQ(out.M, 0.0);
  EXPECT_EQ(out.name, "rudder");
}

TEST(Convert, AppliesEachSectionsFormAndKeepsTheRest) {
  AircraftAsWritten w;
  w.name = "test";
  w.condition.U0 = 100.0;
  w.mass.m = 1000.0;
  w.longitudinal.raw = true;
  w.longitudinal.form = AngleForm::kVelocity;
  w.longitudinal.Zw = -2000.0;  // N s/m
  w.lateral.form = AngleForm::kVelocity;
  w.lateral.Yv = -0.25;  // 1/s, normalized
  Control elevator;
  elevator.name = "elevator";
  elevator.longitudinal = true;
  elevator.Z = -5000.0;  // N/rad, raw with the longitudinal section
  w.controls = {elevator};
  const AircraftData a = Convert(w);
  EXPECT_EQ(a.name, "test");
  EXPECT_DOUBLE_EQ(a.longitudinal.Za, 100.0 * -2000.0 / 1000.0);
  EXPECT_DOUBLE_EQ(a.lateral.Yb, 100.0 * -0.25);
  ASSERT_EQ(a.controls.size(), 1u);
  EXPECT_DOUBLE_EQ(a.controls[0].Z, -5.0);
  EXPECT_EQ(a.mass.m, 1000.0);
}

}  // namespace
}  // namespace aerolin::model

namespace aerolin::model {
namespace {

// β = v/V (NASA CR-2144, Teper) vs aerolin's β = v/U0: from a v-form source
// the two β-forms follow by hand, Y_β = U0 Y_v and Y_βV = V Y_v, so
// converting the v/V numbers must give exactly U0 Y_v (and the same for L, N,
// after the Ixz priming); rate derivatives are untouched.
TEST(Convert, SideslipOverVIsRescaledToOverU0) {
  AircraftAsWritten w;
  const double V = 70.0, alpha0 = 0.2;  // rad
  w.condition.U0 = V * std::cos(alpha0);
  w.condition.W0 = V * std::sin(alpha0);
  w.mass = {1000.0, 2000.0, 3000.0, 4000.0, 300.0};
  const double Yv = -0.2, Lv = -0.05, Nv = 0.02;  // per m/s, raw ÷ nothing: normalized
  LateralAsWritten& L = w.lateral;
  L.primed = false;
  L.beta = SideslipDefinition::kVOverV;
  L.Yb = V * Yv;
  L.Lb = V * Lv;
  L.Nb = V * Nv;
  L.Lp = -1.0;
  L.Nr = -0.3;
  EXPECT_NEAR(SideslipFactor(w.condition), std::cos(alpha0), kTight);
  const AircraftData a = Convert(w);
  AircraftAsWritten v_form = w;  // the oracle: the same source in v-form
  v_form.lateral.form = AngleForm::kVelocity;
  v_form.lateral.Yv = Yv;
  v_form.lateral.Lv = Lv;
  v_form.lateral.Nv = Nv;
  const AircraftData b = Convert(v_form);
  EXPECT_NEAR(a.lateral.Yb, w.condition.U0 * Yv, kTight);
  EXPECT_NEAR(a.lateral.Yb, b.lateral.Yb, kTight);
  EXPECT_NEAR(a.lateral.Lb, b.lateral.Lb, kTight);
  EXPECT_NEAR(a.lateral.Nb, b.lateral.Nb, kTight);
  EXPECT_DOUBLE_EQ(a.lateral.Lp, b.lateral.Lp);
  EXPECT_DOUBLE_EQ(a.lateral.Nr, b.lateral.Nr);
  // MatricesOf (the AD path) applies the same factor.
  EXPECT_NEAR((MatricesOf(w).lateral - MatricesOf(v_form).lateral).cwiseAbs().maxCoeff(), 0.0,
              kTight);
  // In stability axes (W0 = 0) the two definitions coincide.
  w.condition.U0 = V;
  w.condition.W0 = 0.0;
  EXPECT_DOUBLE_EQ(SideslipFactor(w.condition), 1.0);
}

}  // namespace
}  // namespace aerolin::model
