#include "aerolin/model/outputs.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <string>
#include <stdexcept>
#include <unsupported/Eigen/MatrixFunctions>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::model {
namespace {

// Both routes are a handful of products of O(100) numbers.
constexpr double kTight = 1e-12;

// An aircraft with every term the output equations touch switched on:
// Zα̇, Zq, Mα̇, a climbing trim θ0, body axes W0 ≠ 0, and controls with Z and
// Y (feed-through into nz and ay). SI, normalized, values of P2V-7 size.
AircraftData Climbing() {
  AircraftData a;
  a.condition.U0 = 90.0;
  a.condition.W0 = 6.0;
  a.condition.theta0 = 0.12;
  a.condition.g = 9.80665;
  a.longitudinal = {.Xu = -0.02, .Zu = -0.23, .Mu = 0.001, .Xa = 4.5, .Za = -72.0,
                    .Ma = -3.8, .Zadot = -1.5, .Madot = -0.28, .Xq = 0.3, .Zq = -1.8,
                    .Mq = -1.0};
  a.lateral = {.Yb = -13.8, .Yp = 0.2, .Yr = 0.8, .Lb = -1.7, .Lp = -0.96,
               .Lr = 0.27, .Nb = 0.99, .Np = -0.06, .Nr = -0.21};
  Control elevator;
  elevator.name = "elevator";
  elevator.longitudinal = true;
  elevator.Z = -3.9;
  elevator.M = -2.5;
  elevator.X = 0.1;
  Control rudder;
  rudder.name = "rudder";
  rudder.lateral = true;
  rudder.Y = 2.8;
  rudder.L = 0.24;
  rudder.N = -0.67;
  a.controls = {elevator, rudder};
  return a;
}

// A fixed state and input for the algebraic checks.
Eigen::VectorXd LonState() { return (Eigen::VectorXd(4) << 1.3, 0.02, -0.05, 0.03).finished(); }
Eigen::VectorXd LatState() {
  return (Eigen::VectorXd(5) << 0.04, -0.1, 0.07, 0.2, -0.3).finished();
}

TEST(WithDerivedOutputs, KeepsStatesAsTheFirstOutputs) {
  const AircraftData a = Climbing();
  for (const Axis axis : {Axis::kLongitudinal, Axis::kLateral}) {
    const StateSpace sys = BuildWithOutputs(a, axis);
    const int n = sys.num_states();
    EXPECT_TRUE(sys.C().topRows(n).isIdentity());
    EXPECT_TRUE(sys.D().topRows(n).isZero());
    for (int i = 0; i < n; ++i) EXPECT_EQ(sys.outputs()[i], sys.states()[i]);
  }
  const StateSpace lon = BuildWithOutputs(a, Axis::kLongitudinal);
  ASSERT_EQ(lon.num_outputs(), lon_out::kNumOutputs);
  EXPECT_EQ(lon.outputs()[lon_out::kNz].name, "nz");
  EXPECT_EQ(lon.outputs()[lon_out::kNz].unit, core::Unit::kGravity);
  EXPECT_EQ(lon.outputs()[lon_out::kGamma].name, "gamma");
  const StateSpace lat = BuildWithOutputs(a, Axis::kLateral);
  ASSERT_EQ(lat.num_outputs(), lat_out::kNumOutputs);
  EXPECT_EQ(lat.outputs()[lat_out::kAy].name, "ay");
}

// Oracle: the Z force equation itself, nz = −(Zu u + Zα α + Zα̇ α̇ + Zq q + Zδ δ)/g
// (outputs.hpp), with α̇ from the α row of the model.
TEST(WithDerivedOutputs, NormalLoadFactorIsMinusTheAerodynamicZForceOverWeight) {
  const AircraftData a = Climbing();
  const StateSpace sys = BuildWithOutputs(a, Axis::kLongitudinal);
  const Eigen::VectorXd x = LonState();
  const Eigen::VectorXd u = (Eigen::VectorXd(1) << 0.05).finished();
  const double alpha_dot = (sys.A() * x + sys.B() * u)(lon::kAlpha);
  const LongitudinalDerivatives& d = a.longitudinal;
  const double force = d.Zu * x(lon::kU) + d.Za * x(lon::kAlpha) + d.Zadot * alpha_dot +
                       d.Zq * x(lon::kQ) + a.controls[0].Z * u(0);
  const double nz = (sys.C() * x + sys.D() * u)(lon_out::kNz);
  EXPECT_NEAR(nz, -force / a.condition.g, kTight);
  EXPECT_NE(sys.D()(lon_out::kNz, 0), 0.0);  // Zδ feeds straight through
}

// Oracle: the Y force equation, ay = (Yβ β + Yp p + Yr r + Yδ δ)/g; bank
// alone (no side force) reads nothing.
TEST(WithDerivedOutputs, LateralAccelerationIsTheAerodynamicSideForceOverWeight) {
  const AircraftData a = Climbing();
  const StateSpace sys = BuildWithOutputs(a, Axis::kLateral);
  const Eigen::VectorXd x = LatState();
  const Eigen::VectorXd u = (Eigen::VectorXd(1) << -0.04).finished();
  const LateralDerivatives& d = a.lateral;
  const double force = d.Yb * x(lat::kBeta) + d.Yp * x(lat::kP) + d.Yr * x(lat::kR) +
                       a.controls[1].Y * u(0);
  EXPECT_NEAR((sys.C() * x + sys.D() * u)(lat_out::kAy), force / a.condition.g, kTight);
  EXPECT_NEAR(sys.C()(lat_out::kAy, lat::kPhi), 0.0, kTight);
}

// Oracle: the kinematic definitions differentiated numerically along the
// exact free response x(t) = e^{At} x0, nz = (U0/g)(q − dα/dt) − sin θ0 θ and
// ay = (U0/g)(dβ/dt + r) − (W0/g) p − cos θ0 φ, central differences with
// h = 1e-4 s (truncation ~h²‖x⃛‖ ≈ 1e-8, rounding ~ε/h ≈ 1e-12).
TEST(WithDerivedOutputs, MatchFiniteDifferencesOfTheSimulatedState) {
  constexpr double kFiniteDifference = 1e-7;
  constexpr double h = 1e-4;
  const AircraftData a = Climbing();
  const FlightCondition& fc = a.condition;
  const StateSpace lon = BuildWithOutputs(a, Axis::kLongitudinal);
  const StateSpace lat = BuildWithOutputs(a, Axis::kLateral);
  for (const double t : {0.3, 2.0, 7.5}) {
    auto xl = [&](double tau) -> Eigen::VectorXd { return (lon.A() * tau).exp() * LonState(); };
    const Eigen::VectorXd x = xl(t);
    const double alpha_dot = (xl(t + h)(lon::kAlpha) - xl(t - h)(lon::kAlpha)) / (2 * h);
    const double nz = fc.U0 / fc.g * (x(lon::kQ) - alpha_dot) - std::sin(fc.theta0) * x(lon::kTheta);
    EXPECT_NEAR((lon.C() * x)(lon_out::kNz), nz, kFiniteDifference) << "t = " << t;

    auto xr = [&](double tau) -> Eigen::VectorXd { return (lat.A() * tau).exp() * LatState(); };
    const Eigen::VectorXd y = xr(t);
    const double beta_dot = (xr(t + h)(lat::kBeta) - xr(t - h)(lat::kBeta)) / (2 * h);
    const double ay = fc.U0 / fc.g * (beta_dot + y(lat::kR)) - fc.W0 / fc.g * y(lat::kP) -
                      std::cos(fc.theta0) * y(lat::kPhi);
    EXPECT_NEAR((lat.C() * y)(lat_out::kAy), ay, kFiniteDifference) << "t = " << t;
  }
}

// Oracle: γ = θ − [atan((W0 + U0 α)/(U0 + u)) − atan(W0/U0)] differenced
// numerically (step 1e-6 of the state: error ~1e-12).
TEST(WithDerivedOutputs, FlightPathAngleIsThetaMinusTrueAngleOfAttack) {
  for (const double W0 : {0.0, 6.0}) {
    AircraftData a = Climbing();
    a.condition.W0 = W0;
    const StateSpace sys = BuildWithOutputs(a, Axis::kLongitudinal);
    const double U0 = a.condition.U0;
    const Eigen::VectorXd x = 1e-6 * LonState();
    const double alpha_true =
        std::atan((W0 + U0 * x(lon::kAlpha)) / (U0 + x(lon::kU))) - std::atan(W0 / U0);
    EXPECT_NEAR((sys.C() * x)(lon_out::kGamma), x(lon::kTheta) - alpha_true, 1e-15);
    if (W0 == 0.0) {
      EXPECT_EQ(sys.C()(lon_out::kGamma, lon::kAlpha), -1.0);
      EXPECT_EQ(sys.C()(lon_out::kGamma, lon::kU), 0.0);
    }
  }
}

// An axis without controls (a file with no lateral control, as the fuzzer's
// corpus d88fcddb... has): no feed-through, and the same C as with them. The
// sanitizer build checks that no B.row of an empty B is formed (UBSan: "applying
// non-zero offset to null pointer").
TEST(WithDerivedOutputs, AnAxisWithoutControlsHasOutputsWithoutFeedThrough) {
  AircraftData bare = Climbing();
  bare.controls.clear();
  const AircraftData full = Climbing();
  for (const Axis axis : {Axis::kLongitudinal, Axis::kLateral}) {
    const StateSpace without = BuildWithOutputs(bare, axis);
    const StateSpace with = BuildWithOutputs(full, axis);
    EXPECT_EQ(without.num_inputs(), 0);
    EXPECT_EQ(without.D().rows(), with.D().rows());
    EXPECT_EQ(without.D().cols(), 0);
    EXPECT_TRUE(without.C().isApprox(with.C(), kTight));
  }
}

// The deflection that closes `loop(δ) = δ_p + K·y(δ) − δ` (linear in δ): the
// root of the line through two trial deflections.
double SolveLoop(const std::function<double(double)>& loop) {
  const double f0 = loop(0.0), f1 = loop(1.0);
  return -f0 / (f1 - f0);
}

// Oracle: the loop δe = δp + K·nz closed by substitution, numerically. For
// each unit state and a unit pilot command, the deflection that satisfies the
// loop with nz the aerodynamic Z force over weight, −(Zu u + Zα α + Zα̇ α̇ +
// Zq q + Zδ δ)/g (α̇ from the bare model's α row), then ẋ = A_bare x +
// B_bare δ: a column of the closed loop (A − B K, B M of FeedbackOf).
TEST(BuildLongitudinal, ClosesAnNzLoopThroughItsFeedthrough) {
  AircraftData a = Climbing();
  const StateSpace bare = BuildLongitudinal(a);
  const double K = 0.08;  // rad/g
  a.longitudinal_augmentation = AxisAugmentation{{"elevator"}, Eigen::MatrixXd::Zero(1, 4), {{"elevator", "nz", K}}};
  const StateSpace closed = BuildLongitudinal(a);
  const LongitudinalDerivatives& d = a.longitudinal;
  const double Zd = a.controls[0].Z;
  auto derivative = [&](const Eigen::VectorXd& x, double pilot) -> Eigen::VectorXd {
    auto xdot = [&](double delta) -> Eigen::VectorXd { return bare.A() * x + bare.B().col(0) * delta; };
    const double delta = SolveLoop([&](double delta) {
      const double force = d.Zu * x(lon::kU) + d.Za * x(lon::kAlpha) + d.Zadot * xdot(delta)(lon::kAlpha) +
                           d.Zq * x(lon::kQ) + Zd * delta;
      return pilot + K * (-force / a.condition.g) - delta;
    });
    return xdot(delta);
  };
  for (int j = 0; j < 4; ++j)
    EXPECT_TRUE(closed.A().col(j).isApprox(derivative(Eigen::VectorXd::Unit(4, j), 0.0), kTight)) << "column " << j;
  EXPECT_TRUE(closed.B().col(0).isApprox(derivative(Eigen::VectorXd::Zero(4), 1.0), kTight));
  EXPECT_FALSE(closed.A().isApprox(bare.A(), 1e-3));  // the loop does act
  // FeedbackOf's δ = M δp − K x is the same deflection.
  const ClosedFeedback f = FeedbackOf(a, Axis::kLongitudinal);
  EXPECT_TRUE((bare.B() * f.command).isApprox(closed.B(), kTight));
  EXPECT_TRUE((bare.A() - bare.B() * f.gain).isApprox(closed.A(), kTight));
}

// The same with two loops on the rudder, δr = δp + Kr·r + Ka·ay, ay the
// aerodynamic side force over weight (Yβ β + Yp p + Yr r + Yδ δ)/g.
TEST(BuildLateral, ClosesAnAyLoopBesideAStateLoop) {
  AircraftData a = Climbing();
  const StateSpace bare = BuildLateral(a);
  const double Kr = 1.1, Ka = -0.6;  // rad/(rad/s), rad/g
  Eigen::MatrixXd gain = Eigen::MatrixXd::Zero(1, 5);
  gain(0, lat::kR) = -Kr;  // u = −K x
  a.lateral_augmentation = AxisAugmentation{{"rudder"}, gain, {{"rudder", "ay", Ka}}};
  const StateSpace closed = BuildLateral(a);
  const LateralDerivatives& d = a.lateral;
  auto derivative = [&](const Eigen::VectorXd& x, double pilot) -> Eigen::VectorXd {
    const double delta = SolveLoop([&](double delta) {
      const double force = d.Yb * x(lat::kBeta) + d.Yp * x(lat::kP) + d.Yr * x(lat::kR) + a.controls[1].Y * delta;
      return pilot + Kr * x(lat::kR) + Ka * force / a.condition.g - delta;
    });
    return bare.A() * x + bare.B().col(0) * delta;
  };
  for (int j = 0; j < 5; ++j)
    EXPECT_TRUE(closed.A().col(j).isApprox(derivative(Eigen::VectorXd::Unit(5, j), 0.0), kTight)) << "column " << j;
  EXPECT_TRUE(closed.B().col(0).isApprox(derivative(Eigen::VectorXd::Zero(5), 1.0), kTight));
}

// K = 1/D: the deflection would be infinite.
TEST(BuildLongitudinal, RefusesALoopWhoseFeedthroughCancelsTheControl) {
  AircraftData a = Climbing();
  const double D = BuildWithOutputs(a, Axis::kLongitudinal).D()(lon_out::kNz, 0);
  a.longitudinal_augmentation = AxisAugmentation{{"elevator"}, Eigen::MatrixXd::Zero(1, 4), {{"elevator", "nz", 1.0 / D}}};
  try {
    BuildLongitudinal(a);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "the longitudinal augmentation's loops elevator:nz: I - K D is singular (delta = K*y with "
              "y = C x + D delta: the gain K times the control's own effect D on what it measures is 1, "
              "so the surface deflection would be infinite); change the gain");
  }
  a.longitudinal_augmentation->output_loops = {{"elevator", "ay", 0.1}};
  EXPECT_THROW(BuildLongitudinal(a), std::invalid_argument);  // ay is the lateral axis's
}

TEST(WithDerivedOutputs, RejectsAModelOfTheOtherAxis) {
  const AircraftData a = Climbing();
  EXPECT_THROW(WithDerivedOutputs(BuildLateral(a), Axis::kLongitudinal, a.condition),
               std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::model
