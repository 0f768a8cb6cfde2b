#include "aerolin/model/gust.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::model {
namespace {

using Vector9 = Eigen::Matrix<double, 9, 1>;
using Vector4 = Eigen::Vector4d;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// A general aircraft: every derivative non-zero, body axes (W0 ≠ 0), climbing
// (θ0 ≠ 0), Z_α̇ ≠ 0, so every term of A and E is exercised. Values are
// P2V-7-like (SI) with the zero ones filled in; they need not fly well.
AircraftData GeneralAircraft() {
  AircraftData a;
  a.condition.U0 = 89.5;
  a.condition.W0 = 4.2;
  a.condition.theta0 = 0.07;
  a.condition.g = 9.80665;
  a.longitudinal = {.Xu = -0.0215, .Zu = -0.227, .Mu = 0.0031, .Xa = 4.48, .Za = -71.9,
                    .Ma = -3.78, .Zadot = -1.9, .Madot = -0.28, .Xq = 0.35, .Zq = -1.76,
                    .Mq = -0.992};
  a.lateral = {.Yb = -13.8, .Yp = 0.218, .Yr = 0.811, .Lb = -1.71, .Lp = -0.962,
               .Lr = 0.271, .Nb = 0.986, .Np = -0.0632, .Nr = -0.215};
  return a;
}

// The 9 × 9 A of sim::FlightModel: longitudinal block, then lateral.
Eigen::Matrix<double, 9, 9> FullA(const AircraftData& a) {
  Eigen::Matrix<double, 9, 9> A = Eigen::Matrix<double, 9, 9>::Zero();
  A.topLeftCorner<4, 4>() = BuildLongitudinal(a).A();
  A.bottomRightCorner<5, 5>() = BuildLateral(a).A();
  return A;
}

// The test's own equations of motion (Etkin & Reid §4.9, the builder's
// docs), written term by term: aerodynamic derivatives on the air-relative
// u, α, β, p; kinematic and gravity terms on the inertial state; α̇ (in Z_α̇,
// M_α̇) inertial. Independent of BuildGustInput's table.
Vector9 EquationsOfMotion(const AircraftData& a, const Vector9& x, const Vector4& d) {
  const FlightCondition& fc = a.condition;
  const LongitudinalDerivatives& lo = a.longitudinal;
  const LateralDerivatives& la = a.lateral;
  const double U0 = fc.U0, W0 = fc.W0, g = fc.g, th0 = fc.theta0;
  const double u = x[0], alpha = x[1], q = x[2], theta = x[3];
  const double beta = x[4], p = x[5], r = x[6], phi = x[7];
  const double ua = u - d[0], alpha_a = alpha - d[2] / U0;
  const double beta_a = beta - d[1] / U0, pa = p - d[3];
  Vector9 f;
  f[0] = lo.Xu * ua + lo.Xa * alpha_a + lo.Xq * q - W0 * q - g * std::cos(th0) * theta;
  // U0 α̇ = Z_u u_a + Z_α α_a + Z_α̇ α̇ + Z_q q + U0 q − g sin θ0 θ, solved for α̇.
  const double alpha_dot =
      (lo.Zu * ua + lo.Za * alpha_a + lo.Zq * q + U0 * q - g * std::sin(th0) * theta) /
      (U0 - lo.Zadot);
  f[1] = alpha_dot;
  f[2] = lo.Mu * ua + lo.Ma * alpha_a + lo.Mq * q + lo.Madot * alpha_dot;
  f[3] = q;
  f[4] = (la.Yb * beta_a + la.Yp * pa + la.Yr * r) / U0 + W0 * p / U0 - r +
         g * std::cos(th0) * phi / U0;
  f[5] = la.Lb * beta_a + la.Lp * pa + la.Lr * r;
  f[6] = la.Nb * beta_a + la.Np * pa + la.Nr * r;
  f[7] = p + r * std::tan(th0);
  f[8] = r / std::cos(th0);
  return f;
}

TEST(BuildGustInput, IsNineByFourInGustOrder) {
  const Eigen::MatrixXd E = BuildGustInput(GeneralAircraft());
  EXPECT_EQ(E.rows(), 9);
  EXPECT_EQ(E.cols(), gust::kNumGusts);
  const std::vector<core::Signal>& s = GustSignals();
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[gust::kUg].name, "u_g");
  EXPECT_EQ(s[gust::kVg].name, "v_g");
  EXPECT_EQ(s[gust::kWg].name, "w_g");
  EXPECT_EQ(s[gust::kPg].name, "p_g");
  EXPECT_EQ(s[gust::kWg].unit, core::Unit::kMetrePerSecond);
  EXPECT_EQ(s[gust::kPg].unit, core::Unit::kRadianPerSecond);
  // θ̇, φ̇, ψ̇ are kinematic: no gust enters them.
  EXPECT_TRUE(E.row(3).isZero(0.0));
  EXPECT_TRUE(E.row(7).isZero(0.0));
  EXPECT_TRUE(E.row(8).isZero(0.0));
}

// An aircraft carried along by a uniform wind (u = u_g, α = w_g/U0,
// β = v_g/U0, p = p_g) feels no aerodynamic force or moment: A x + E d keeps
// only the kinematic and gravity terms, written here per component. θ, φ, ψ
// are set too, so the gravity terms are present; q = r = 0 (their aerodynamic
// terms act on inertial rates and would not cancel).
TEST(BuildGustInput, UniformWindLeavesOnlyKinematicAndGravityTerms) {
  for (const bool stability_axes : {true, false}) {
    AircraftData a = GeneralAircraft();
    if (stability_axes) {
      a.condition.W0 = 0.0;
      a.condition.theta0 = 0.0;
    }
    const Eigen::Matrix<double, 9, 9> A = FullA(a);
    const Eigen::MatrixXd E = BuildGustInput(a);
    const double U0 = a.condition.U0, W0 = a.condition.W0, g = a.condition.g;
    const double th0 = a.condition.theta0;
    const double D = 1.0 - a.longitudinal.Zadot / U0;
    const Vector4 gusts[] = {{1.3, 0.0, 0.0, 0.0}, {0.0, -2.1, 0.0, 0.0},
                             {0.0, 0.0, 3.7, 0.0}, {0.0, 0.0, 0.0, 0.04},
                             {-4.0, 2.5, -1.5, -0.07}};
    for (const Vector4& d : gusts) {
      const double theta = 0.03, phi = -0.2, psi = 0.4;
      Vector9 x;
      x << d[0], d[2] / U0, 0.0, theta, d[1] / U0, d[3], 0.0, phi, psi;
      const Vector9 f = A * x + E * d;
      Vector9 expected;
      const double alpha_dot = (-g * std::sin(th0) * theta / U0) / D;
      expected << -g * std::cos(th0) * theta, alpha_dot, a.longitudinal.Madot * alpha_dot, 0.0,
          W0 * d[3] / U0 + g * std::cos(th0) * phi / U0, 0.0, 0.0, d[3], 0.0;
      // Rounding only: each component is a sum of at most 13 products whose
      // magnitudes bound its error (a few ε each, plus the rounding of
      // w_g/U0 and v_g/U0 in x).
      const Vector9 scale = A.cwiseAbs() * x.cwiseAbs() + E.cwiseAbs() * d.cwiseAbs();
      for (int i = 0; i < 9; ++i)
        EXPECT_NEAR(f[i], expected[i], 16.0 * kEps * scale[i])
            << "row " << i << ", gust " << d.transpose() << ", W0 = " << W0;
    }
  }
}

// The oracle: central differences of the test's own equations of motion.
// They are linear, so the difference quotient is exact but for rounding,
// about ε·|f|/h; h = 1 (m/s, rad or rad/s) keeps that below 1e-13.
TEST(BuildGustInput, EqualsFiniteDifferenceOfAirRelativeEquations) {
  constexpr double kH = 1.0;
  constexpr double kTol = 1e-12;
  const AircraftData a = GeneralAircraft();
  const Vector9 x0 = (Vector9() << 0.5, 0.01, -0.02, 0.03, -0.01, 0.05, 0.02, 0.1, 0.2).finished();
  const Vector4 d0(0.7, -0.4, 1.1, 0.01);
  // First the equations against the builder's A, so they are the same model.
  const Eigen::Matrix<double, 9, 9> A = FullA(a);
  for (int j = 0; j < 9; ++j) {
    const Vector9 e = Vector9::Unit(j) * kH;
    const Vector9 column =
        (EquationsOfMotion(a, x0 + e, d0) - EquationsOfMotion(a, x0 - e, d0)) / (2.0 * kH);
    for (int i = 0; i < 9; ++i)
      EXPECT_NEAR(A(i, j), column[i], kTol * std::max(1.0, std::abs(A(i, j))))
          << "A(" << i << ", " << j << ")";
  }
  const Eigen::MatrixXd E = BuildGustInput(a);
  for (int j = 0; j < 4; ++j) {
    const Vector4 e = Vector4::Unit(j) * kH;
    const Vector9 column =
        (EquationsOfMotion(a, x0, d0 + e) - EquationsOfMotion(a, x0, d0 - e)) / (2.0 * kH);
    for (int i = 0; i < 9; ++i)
      EXPECT_NEAR(E(i, j), column[i], kTol * std::max(1.0, std::abs(E(i, j))))
          << "E(" << i << ", " << j << ")";
  }
}

}  // namespace
}  // namespace aerolin::model
