// The flown closed loop meets the actuators' position limits
// (FlightModel::AddLimitCorrection): checked against a closed loop written
// here by hand, ẋ = A_bare x + B_bare clamp(δ_pilot − K x, −L, L), integrated
// by a fixed-step classical Runge–Kutta of the test's own.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/input.hpp"
#include "aerolin/sim/simulate.hpp"
#include "allocation_counter.hpp"
#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

constexpr double kDeg = 0.017453292519943295;
constexpr double kDt = 0.1;         // slice [s]
constexpr double kDuration = 8.0;   // [s]
constexpr double kLimit = 3.0 * kDeg;  // the elevator's stop [rad]

// The P2V-7 with the pitch damper of docs/augmentation.md's worked example
// (short period to ωn = 3 rad/s, ζ = 0.7), and an elevator actuator of
// `limit` [rad] (none: no [actuators] section).
model::AircraftData DampedP2V7(std::optional<double> limit) {
  model::AircraftData a = test::MakeP2V7();
  model::AxisAugmentation aug;
  aug.inputs = {"elevator"};
  aug.gain = Eigen::RowVector4d(0.001136, -1.203, -0.8396, 0.01042);
  a.longitudinal_augmentation = aug;
  if (limit) {
    model::Actuator elevator;
    elevator.time_constant = 0.05;  // not flown: the flight limits the position only
    elevator.position_limit = *limit;
    a.command_path.actuators["elevator"] = elevator;
  }
  return a;
}

// An elevator doublet of ±`size` [rad], 1 s each way from t = 1 s; the other
// controls at 0. One row per slice.
Eigen::MatrixXd ElevatorDoublet(double size) {
  const int n = static_cast<int>(std::lround(kDuration / kDt));
  Eigen::MatrixXd u = Eigen::MatrixXd::Zero(n, 4);
  for (int k = 10; k < 20; ++k) u(k, 0) = size;
  for (int k = 20; k < 30; ++k) u(k, 0) = -size;
  return u;
}

std::vector<FlightState> Fly(const model::AircraftData& aircraft, const Eigen::MatrixXd& controls,
                             SliceOptions slice) {
  SampledControls input(controls);
  SimulationOptions options;
  options.duration = kDuration;
  options.slice = slice;
  return Simulate(FlightModel(aircraft), FlightState::Zero(), input, options).log.state;
}

// The oracle: the 4 longitudinal states of the bare airframe driven by the
// clamped surface, RK4 with `substeps` steps per slice; returns the states at
// each slice end (row 0: the start), and the largest commanded |δ| seen.
struct Oracle {
  std::vector<Eigen::Vector4d> states;
  double largest_command = 0.0;
};
Oracle HandBuiltClosedLoop(const Eigen::MatrixXd& controls, int substeps) {
  const model::StateSpace bare = model::BuildLongitudinal(test::MakeP2V7());
  const Eigen::Matrix4d A = bare.A();
  const Eigen::Vector4d b = bare.B().col(0);  // elevator (throttle held at 0)
  const Eigen::RowVector4d K(0.001136, -1.203, -0.8396, 0.01042);
  Oracle oracle;
  double pilot = 0.0;
  auto f = [&](const Eigen::Vector4d& x) {
    const double commanded = pilot - K.dot(x);
    oracle.largest_command = std::max(oracle.largest_command, std::abs(commanded));
    return Eigen::Vector4d(A * x + b * std::clamp(commanded, -kLimit, kLimit));
  };
  Eigen::Vector4d x = Eigen::Vector4d::Zero();
  oracle.states.push_back(x);
  const double h = kDt / substeps;
  for (Eigen::Index k = 0; k < controls.rows(); ++k) {
    pilot = controls(k, 0);
    for (int i = 0; i < substeps; ++i) {
      const Eigen::Vector4d k1 = f(x), k2 = f(x + 0.5 * h * k1), k3 = f(x + 0.5 * h * k2),
                            k4 = f(x + h * k3);
      x += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    oracle.states.push_back(x);
  }
  return oracle;
}

double LargestDifference(const std::vector<FlightState>& flight, const std::vector<Eigen::Vector4d>& oracle) {
  double largest = 0.0;
  for (std::size_t k = 0; k < flight.size(); ++k)
    largest = std::max(largest, (flight[k].head<4>() - oracle[k]).cwiseAbs().maxCoeff());
  return largest;
}

TEST(PositionLimit, SaturatingDoubletEqualsHandBuiltClampedClosedLoop) {
  const Eigen::MatrixXd doublet = ElevatorDoublet(5.0 * kDeg);
  SliceOptions slice;
  slice.rtol = 1e-10;
  slice.atol = 1e-12;
  const std::vector<FlightState> flown = Fly(DampedP2V7(kLimit), doublet, slice);
  const Oracle oracle = HandBuiltClosedLoop(doublet, 1000);
  ASSERT_EQ(flown.size(), oracle.states.size());
  // The doublet does saturate: the command goes well beyond the stop.
  EXPECT_GT(oracle.largest_command, 1.5 * kLimit);
  // RK4 at 0.1 ms across the clamp's kinks and RK45 at rtol 1e-10: both
  // within 1e-8 of the true flight (states of order 0.1 rad, 1 m/s).
  constexpr double kAgreement = 1e-8;
  EXPECT_LT(LargestDifference(flown, oracle.states), kAgreement);
  // And the limit matters: the unlimited flight is far from it.
  const std::vector<FlightState> unlimited = Fly(DampedP2V7(std::nullopt), doublet, slice);
  EXPECT_GT(LargestDifference(unlimited, oracle.states), 1e3 * kAgreement);

  // The surface never goes beyond its stop, and sits on it in the doublet.
  const FlightModel model(DampedP2V7(kLimit));
  Eigen::VectorXd surface;
  bool reached = false;
  for (std::size_t k = 1; k < flown.size(); ++k) {
    reached |= model.SurfaceDeflections(flown[k], doublet.row(static_cast<Eigen::Index>(k - 1)).transpose(),
                                        surface);
    EXPECT_LE(std::abs(surface[0]), kLimit) << "t = " << k * kDt;
  }
  EXPECT_TRUE(reached);
}

TEST(PositionLimit, UnreachedLimitLeavesTheFlightBitIdentical) {
  const Eigen::MatrixXd doublet = ElevatorDoublet(0.5 * kDeg);
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SliceOptions slice;
    slice.integrator = integrator;
    const std::vector<FlightState> limited = Fly(DampedP2V7(kLimit), doublet, slice);
    const std::vector<FlightState> free = Fly(DampedP2V7(std::nullopt), doublet, slice);
    ASSERT_EQ(limited.size(), free.size());
    for (std::size_t k = 0; k < free.size(); ++k)
      ASSERT_TRUE(limited[k] == free[k]) << ToString(integrator) << ", slice " << k;
  }
}

// The exact integrator holds the limit's correction over a slice: first order
// in Δt while a limit is reached. Halving Δt halves its error.
TEST(PositionLimit, ExactIntegratorConvergesAtFirstOrderWhileLimited) {
  auto error_at = [](double dt) {
    const int per_slice = static_cast<int>(std::lround(kDt / dt));
    const Eigen::MatrixXd coarse = ElevatorDoublet(5.0 * kDeg);
    Eigen::MatrixXd fine(coarse.rows() * per_slice, coarse.cols());
    for (Eigen::Index k = 0; k < fine.rows(); ++k) fine.row(k) = coarse.row(k / per_slice);
    SliceOptions slice;
    slice.integrator = Integrator::kExact;
    slice.dt = dt;
    SampledControls input(fine);
    SimulationOptions options;
    options.duration = kDuration;
    options.slice = slice;
    const std::vector<FlightState> flown =
        Simulate(FlightModel(DampedP2V7(kLimit)), FlightState::Zero(), input, options).log.state;
    std::vector<FlightState> at_slices;
    for (std::size_t k = 0; k < flown.size(); k += static_cast<std::size_t>(per_slice))
      at_slices.push_back(flown[k]);
    return LargestDifference(at_slices, HandBuiltClosedLoop(coarse, 1000).states);
  };
  const double e1 = error_at(0.1), e2 = error_at(0.05), e4 = error_at(0.025);
  EXPECT_GT(e1, 1e-6);  // not exact: the correction is held
  EXPECT_NEAR(e2 / e1, 0.5, 0.15);
  EXPECT_NEAR(e4 / e2, 0.5, 0.15);
}

TEST(PositionLimit, FlightStepDoesNotAllocateWhileLimited) {
  if (!AEROLIN_COUNTS_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under ASan";
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SliceOptions o;
    o.integrator = integrator;
    Flight flight(FlightModel(DampedP2V7(kLimit)), o, ValidityThresholds{});
    SampledControls input(ElevatorDoublet(5.0 * kDeg));
    flight.Step(input);
    const long before = test::g_allocations;
    for (int k = 0; k < 60; ++k) ASSERT_TRUE(flight.Step(input).flown);
    EXPECT_EQ(test::g_allocations, before) << ToString(integrator);
  }
}

TEST(PositionLimit, ModelScattersTheGainAndReadsTheLimit) {
  const FlightModel model(DampedP2V7(kLimit));
  ASSERT_TRUE(model.has_position_limits());
  EXPECT_EQ(model.position_limit(0), kLimit);
  EXPECT_FALSE(model.position_limit(1).has_value());
  EXPECT_EQ(model.feedback_gain()(0, 2), -0.8396);
  EXPECT_TRUE(model.feedback_gain().bottomRows(3).isZero(0.0));
  FlightState x = FlightState::Zero();
  x[kQ] = 0.1;
  Eigen::VectorXd controls = Eigen::VectorXd::Zero(4), commanded;
  model.CommandedDeflections(x, controls, commanded);
  EXPECT_DOUBLE_EQ(commanded[0], 0.8396 * 0.1);
  EXPECT_FALSE(FlightModel(test::MakeP2V7()).has_position_limits());
}

// A loop on nz feeds the deflection back through itself (D ≠ 0): the surface
// takes δ = M δ_pilot − K x (model::FeedbackOf), which the flight's A and B
// close (A − B K, B M); a position limit on such a loop is refused.
TEST(PositionLimit, AnAccelerationLoopScalesThePilotsCommandAndRefusesALimit) {
  model::AircraftData a = test::MakeP2V7();
  a.longitudinal_augmentation = model::AxisAugmentation{{"elevator"}, Eigen::MatrixXd::Zero(1, 4), {{"elevator", "nz", 0.05}}};
  const FlightModel model(a);
  const model::ClosedFeedback f = model::FeedbackOf(a, model::Axis::kLongitudinal);
  ASSERT_GT(std::abs(f.command(0, 0) - 1.0), 1e-3);
  FlightState x = FlightState::Zero();
  x[kQ] = 0.1;
  Eigen::VectorXd controls = Eigen::VectorXd::Zero(4), commanded;
  controls[0] = 0.02;
  model.CommandedDeflections(x, controls, commanded);
  EXPECT_NEAR(commanded[0], f.command(0, 0) * 0.02 - f.gain(0, model::lon::kQ) * 0.1, 1e-15);
  const model::StateSpace lon = model::BuildLongitudinal(a);
  EXPECT_EQ(Eigen::MatrixXd(model.A().topLeftCorner<4, 4>()), lon.A());
  EXPECT_EQ(Eigen::MatrixXd(model.B().topRows<4>().leftCols(1)), lon.B().leftCols(1));
  model::Actuator elevator;
  elevator.position_limit = kLimit;
  a.command_path.actuators["elevator"] = elevator;
  EXPECT_THROW(FlightModel{a}, std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::sim
