#include "aerolin/model/build.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "aerolin/model/conventions.hpp"

namespace aerolin::model {
namespace {
using namespace model::lon;
using namespace model::lat;

// Exact arithmetic reproduces the seed's formulas; only rounding differs.
constexpr double kTight = 1e-12;

// The P2V-7 in consistent imperial units (ft, s), not converted: the
// matrices are unit-consistent as long as g and U0 share the length unit.
AircraftData P2V7InFeet() {
  AircraftData a;
  a.condition.U0 = 293.8;
  a.condition.g = 32.174;
  a.longitudinal = {.Xu = -0.0215, .Zu = -0.227, .Mu = 0.0, .Xa = 14.7, .Za = -236.0,
                    .Ma = -3.78, .Zadot = 0.0, .Madot = -0.28, .Xq = 0.0, .Zq = -5.76,
                    .Mq = -0.992};
  a.lateral = {.Yb = -45.4, .Yp = 0.716, .Yr = 2.66, .Lb = -1.71, .Lp = -0.962,
               .Lr = 0.271, .Nb = 0.986, .Np = -0.0632, .Nr = -0.215};
  auto control = [](std::string name, bool longitudinal) {
    Control c;
    c.name = std::move(name);
    (longitudinal ? c.longitudinal : c.lateral) = true;
    return c;
  };
  Control elevator = control("elevator", true);
  elevator.Z = -12.9;
  elevator.M = -2.48;
  Control throttle = control("throttle", true);
  throttle.unit = core::Unit::kOne;
  throttle.X = 0.01;
  Control aileron = control("aileron", false);
  aileron.L = 1.72;
  aileron.N = -0.0436;
  Control rudder = control("rudder", false);
  rudder.Y = 9.17;
  rudder.L = 0.244;
  rudder.N = -0.666;
  a.controls = {elevator, throttle, aileron, rudder};
  return a;
}

TEST(BuildLongitudinal, MatchesSeedFormulasAtLevelTrim) {
  const AircraftData a = P2V7InFeet();
  const StateSpace lon = BuildLongitudinal(a);
  const double U0 = 293.8, g = 32.174, Madot = -0.28;
  Eigen::Matrix4d expected;
  expected << -0.0215, 14.7, 0.0, -g,
      -0.227 / U0, -236.0 / U0, 1 - 5.76 / U0, 0.0,
      Madot * (-0.227 / U0), -3.78 + Madot * (-236.0 / U0), -0.992 + Madot * (1 - 5.76 / U0), 0.0,
      0.0, 0.0, 1.0, 0.0;
  EXPECT_TRUE(lon.A().isApprox(expected, kTight)) << lon.A();
  ASSERT_EQ(lon.num_inputs(), 2);
  EXPECT_EQ(lon.inputs()[0].name, "elevator");
  EXPECT_EQ(lon.inputs()[1].name, "throttle");
  EXPECT_EQ(lon.inputs()[1].unit, core::Unit::kOne);
  EXPECT_NEAR(lon.B()(kAlpha, 0), -12.9 / U0, kTight);
  EXPECT_NEAR(lon.B()(kQ, 0), -2.48 + Madot * (-12.9 / U0), kTight);
  EXPECT_NEAR(lon.B()(kU, 1), 0.01, kTight);
}

TEST(BuildLateral, MatchesSeedFormulasAtLevelTrim) {
  const StateSpace lat = BuildLateral(P2V7InFeet());
  const double U0 = 293.8, g = 32.174;
  Eigen::Matrix<double, 5, 5> expected;
  expected << -45.4 / U0, 0.716 / U0, 2.66 / U0 - 1, g / U0, 0,
      -1.71, -0.962, 0.271, 0, 0,
      0.986, -0.0632, -0.215, 0, 0,
      0, 1, 0, 0, 0,
      0, 0, 1, 0, 0;
  EXPECT_TRUE(lat.A().isApprox(expected, kTight)) << lat.A();
  ASSERT_EQ(lat.num_inputs(), 2);
  EXPECT_NEAR(lat.B()(kBeta, 1), 9.17 / U0, kTight);
  EXPECT_NEAR(lat.B()(kP, 0), 1.72, kTight);
  EXPECT_NEAR(lat.B()(kR, 1), -0.666, kTight);
}

TEST(BuildLongitudinal, ClimbingTrimGravityTermsHaveEtkinSigns) {
  AircraftData a = P2V7InFeet();
  a.condition.theta0 = 0.2;
  const StateSpace lon = BuildLongitudinal(a);
  // Etkin & Reid eq. 4.9,18: Δu̇ has −g cos θ0 Δθ, ẇ has −g sin θ0 Δθ.
  EXPECT_NEAR(lon.A()(kU, kTheta), -32.174 * std::cos(0.2), kTight);
  EXPECT_NEAR(lon.A()(kAlpha, kTheta), -(32.174 / 293.8) * std::sin(0.2), kTight);
  EXPECT_NEAR(lon.A()(kQ, kTheta), -0.28 * -(32.174 / 293.8) * std::sin(0.2), kTight);
  const StateSpace lat = BuildLateral(a);
  EXPECT_NEAR(lat.A()(kPhi, kR), std::tan(0.2), kTight);
  EXPECT_NEAR(lat.A()(kPsi, kR), 1.0 / std::cos(0.2), kTight);
  EXPECT_NEAR(lat.A()(kBeta, kPhi), 32.174 * std::cos(0.2) / 293.8, kTight);
}

TEST(BuildLongitudinal, ZalphaDotScalesTheAlphaRowAndFeedsPitch) {
  AircraftData a = P2V7InFeet();
  const StateSpace plain = BuildLongitudinal(a);
  a.longitudinal.Zadot = -29.38;  // D = 1 − Zα̇/U0 = 1.1
  const StateSpace with = BuildLongitudinal(a);
  EXPECT_TRUE(with.A().row(kAlpha).isApprox(plain.A().row(kAlpha) / 1.1, kTight));
  EXPECT_NEAR(with.A()(kQ, kAlpha), -3.78 + -0.28 * (-236.0 / 293.8) / 1.1, kTight);
  EXPECT_NEAR(with.B()(kAlpha, 0), plain.B()(kAlpha, 0) / 1.1, kTight);
}

TEST(StateSpace, RejectsMismatchedSizesNamingBoth) {
  try {
    StateSpace(Eigen::MatrixXd::Zero(2, 2), Eigen::MatrixXd::Zero(3, 1),
               {{"a", core::Unit::kOne, "a"}, {"b", core::Unit::kOne, "b"}}, {{"u", core::Unit::kOne, "u"}});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "StateSpace: B is 3x1, expected 2x1");
  }
}

TEST(StateSpace, RejectsNonFiniteEntries) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(1, 1);
  A(0, 0) = std::nan("");
  EXPECT_THROW(StateSpace(A, Eigen::MatrixXd::Zero(1, 0), {{"a", core::Unit::kOne, "a"}}, {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::model
