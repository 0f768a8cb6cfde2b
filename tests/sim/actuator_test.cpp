// The actuators flown (FlightModel::AddActuators, the Slicer's auxiliary
// state): each oracle is written here by hand, not taken from the library:
// the matrix exponential of the airframe augmented with the actuator, the
// closed form of a rate-limited lag, a fixed-step classical Runge–Kutta of
// the clamped, rate-limited loop, and the ideal (actuator-free) flight.

#include <gtest/gtest.h>

#include <unsupported/Eigen/MatrixFunctions>

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
#include "tight_slice.hpp"

namespace aerolin::sim {
namespace {

constexpr double kDeg = 0.017453292519943295;
constexpr double kDt = 0.1;         // slice [s]
constexpr double kDuration = 8.0;   // [s]
constexpr double kTau = 0.05;       // the elevator actuator's time constant [s]
constexpr double kLimit = 3.0 * kDeg;  // the elevator's stop [rad]
const Eigen::RowVector4d kPitchDamper(0.001136, -1.203, -0.8396, 0.01042);

// The P2V-7 with the pitch damper of docs/augmentation.md's worked example
// (short period to ωn = 3 rad/s, ζ = 0.7), and, given τa, an elevator
// actuator with the given limits (none: no [actuators] section).
model::AircraftData DampedP2V7(std::optional<double> tau, std::optional<double> limit = std::nullopt,
                               std::optional<double> rate = std::nullopt, bool damper = true) {
  model::AircraftData a = test::MakeP2V7();
  if (damper) a.longitudinal_augmentation = model::AxisAugmentation{{"elevator"}, kPitchDamper};
  if (tau) a.command_path.actuators["elevator"] = model::Actuator{*tau, limit, rate};
  return a;
}

// An elevator doublet of ±`size` [rad], 1 s each way from t = 1 s; the other
// controls at 0. One row per slice of `dt`.
Eigen::MatrixXd ElevatorDoublet(double size, double dt = kDt) {
  const long n = std::lround(kDuration / dt);
  Eigen::MatrixXd u = Eigen::MatrixXd::Zero(n, 4);
  for (long k = 0; k < n; ++k) {
    const double t = (static_cast<double>(k) + 0.5) * dt;
    if (t > 1.0 && t < 2.0) u(k, 0) = size;
    if (t > 2.0 && t < 3.0) u(k, 0) = -size;
  }
  return u;
}

SliceOptions Tight(Integrator integrator = Integrator::kRk45, double dt = kDt) {
  return testing_sim::Tight(integrator, dt);
}

// One flight: the 12 states and the elevator's surface at each slice end.
struct Flown {
  std::vector<FlightState> states;
  std::vector<double> elevator;
};
Flown Fly(const model::AircraftData& aircraft, const Eigen::MatrixXd& controls, const SliceOptions& slice) {
  Flight flight(FlightModel(aircraft), slice, ValidityThresholds{});
  SampledControls input(controls);
  Flown flown;
  Eigen::VectorXd surfaces;
  flight.SurfaceDeflections(surfaces);
  flown.states.push_back(flight.state());
  flown.elevator.push_back(surfaces[0]);
  for (Eigen::Index k = 0; k < controls.rows(); ++k) {
    EXPECT_TRUE(flight.Step(input).flown);
    flight.SurfaceDeflections(surfaces);
    flown.states.push_back(flight.state());
    flown.elevator.push_back(surfaces[0]);
  }
  return flown;
}

// The bare airframe's longitudinal A and elevator column.
struct Airframe {
  Eigen::Matrix4d A;
  Eigen::Vector4d b;
};
Airframe BareLongitudinal() {
  const model::StateSpace bare = model::BuildLongitudinal(test::MakeP2V7());
  return {bare.A(), bare.B().col(0)};
}

// (a) No limit reached: the flight is the linear system augmented by hand,
// z = (u, α, q, θ, δ, δ_pilot), ż = [A b 0; −K/τ −1/τ 1/τ; 0 0 0] z over a
// slice (δ_pilot held), propagated exactly by the matrix exponential.
TEST(Actuator, UnlimitedFlightEqualsTheExponentialOfTheHandAugmentedSystem) {
  const Eigen::MatrixXd doublet = ElevatorDoublet(1.0 * kDeg);
  const Airframe air = BareLongitudinal();
  Eigen::Matrix<double, 6, 6> M = Eigen::Matrix<double, 6, 6>::Zero();
  M.topLeftCorner<4, 4>() = air.A;
  M.block<4, 1>(0, 4) = air.b;
  M.block<1, 4>(4, 0) = -kPitchDamper / kTau;
  M(4, 4) = -1.0 / kTau;
  M(4, 5) = 1.0 / kTau;
  const Eigen::Matrix<double, 6, 6> Phi = (M * kDt).exp();
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    const Flown flown = Fly(DampedP2V7(kTau), doublet, Tight(integrator));
    Eigen::Matrix<double, 6, 1> z = Eigen::Matrix<double, 6, 1>::Zero();
    double largest = 0.0, largest_surface = 0.0;
    for (std::size_t k = 1; k < flown.states.size(); ++k) {
      z[5] = doublet(static_cast<Eigen::Index>(k - 1), 0);
      z = Phi * z;
      largest = std::max(largest, (flown.states[k].head<4>() - z.head<4>()).cwiseAbs().maxCoeff());
      largest = std::max(largest, std::abs(flown.elevator[k] - z[4]));
      largest_surface = std::max(largest_surface, std::abs(z[4]));
      ASSERT_TRUE(flown.states[k].segment<5>(kBeta).isZero(0.0));  // the lateral axis is not driven
    }
    // RK45 at rtol 1e-10 over 80 slices (states of order 0.01-1 in SI;
    // measured 5.5e-13).
    constexpr double kAgreement = 1e-10;
    EXPECT_LT(largest, kAgreement) << ToString(integrator);
    EXPECT_GT(largest_surface, 0.5 * kDeg);  // the surface does move
  }
}

// The exact integrator is not exact for an actuated flight: it is flown by
// RK45, and says so (Slicer::integrator, the result's integrator_flown).
TEST(Actuator, ExactIsFlownByRk45AndSaysSo) {
  const Eigen::MatrixXd doublet = ElevatorDoublet(1.0 * kDeg);
  SampledControls input(doublet);
  SimulationOptions options;
  options.duration = kDuration;
  options.slice.integrator = Integrator::kExact;
  const SimulationResult exact = Simulate(FlightModel(DampedP2V7(kTau)), FlightState::Zero(), input, options);
  ASSERT_TRUE(exact.integrator_flown.has_value());
  EXPECT_EQ(*exact.integrator_flown, Integrator::kRk45);
  options.slice.integrator = Integrator::kRk45;
  const SimulationResult rk45 = Simulate(FlightModel(DampedP2V7(kTau)), FlightState::Zero(), input, options);
  EXPECT_FALSE(rk45.integrator_flown.has_value());
  ASSERT_EQ(exact.log.state.size(), rk45.log.state.size());
  for (std::size_t k = 0; k < rk45.log.state.size(); ++k) ASSERT_TRUE(exact.log.state[k] == rk45.log.state[k]);
  // Without actuators the asked integrator is flown.
  options.slice.integrator = Integrator::kExact;
  EXPECT_FALSE(Simulate(FlightModel(DampedP2V7(std::nullopt)), FlightState::Zero(), input, options)
                   .integrator_flown.has_value());
}

// (b) A rate-limited lag under a step Δ: δ̇ = min((Δ − δ)/τ, R) moves at
// exactly R until Δ − δ = R τ, at t1 = Δ/R − τ, then closes the gap as
// e^{−(t − t1)/τ}: δ = Δ − R τ e^{−(t − t1)/τ}.
TEST(Actuator, RateLimitedStepMovesAtTheRateLimitThenLags) {
  constexpr double kStep = 5.0 * kDeg;  // Δ [rad]
  constexpr double kRate = 10.0 * kDeg;  // R [rad/s]
  constexpr double kSlice = 0.01;        // sample the ramp finely [s]
  const long n = 100;  // 1 s
  Eigen::MatrixXd controls = Eigen::MatrixXd::Zero(n, 4);
  controls.col(0).setConstant(kStep);
  // The bare airframe: the command is the pilot's alone.
  const Flown flown = Fly(DampedP2V7(kTau, std::nullopt, kRate, false), controls, Tight(Integrator::kRk45, kSlice));
  const double t1 = kStep / kRate - kTau;
  double largest = 0.0;
  int on_ramp = 0;
  for (std::size_t k = 0; k < flown.elevator.size(); ++k) {
    const double t = static_cast<double>(k) * kSlice;
    const double expected = t <= t1 ? kRate * t : kStep - kRate * kTau * std::exp(-(t - t1) / kTau);
    largest = std::max(largest, std::abs(flown.elevator[k] - expected));
    if (t < t1 - 1e-9) ++on_ramp;
  }
  EXPECT_EQ(on_ramp, 45);  // t = 0 ... 0.44 s, before t1 = 0.45 s: the slope is R
  // RK45 at rtol 1e-10 across the kink at t1 (δ of order 0.1 rad;
  // measured 1.6e-12).
  EXPECT_LT(largest, 1e-10);
  // The ramp's slope, slice by slice: R exactly up to rounding.
  for (int k = 1; k < on_ramp; ++k)
    EXPECT_NEAR((flown.elevator[k] - flown.elevator[k - 1]) / kSlice, kRate, 1e-9) << "slice " << k;
}

// The oracle of a saturating flight: the 4 longitudinal states of the bare
// airframe and the surface δ, ẋ = A x + b δ,
// δ̇ = clamp((clamp(δ_pilot − K x, ±L) − δ)/τ, ±R), RK4 with `substeps` steps
// per slice; returns (x, δ) at each slice end (row 0: the start) and the
// largest commanded |δc| seen.
struct Oracle {
  std::vector<Eigen::Matrix<double, 5, 1>> states;
  double largest_command = 0.0;
};
Oracle HandBuiltClosedLoop(const Eigen::MatrixXd& controls, double rate, int substeps) {
  const Airframe air = BareLongitudinal();
  using Z = Eigen::Matrix<double, 5, 1>;
  Oracle oracle;
  double pilot = 0.0;
  auto f = [&](const Z& z) {
    const double commanded = pilot - kPitchDamper.dot(z.head<4>());
    oracle.largest_command = std::max(oracle.largest_command, std::abs(commanded));
    Z dz;
    dz.head<4>() = air.A * z.head<4>() + air.b * z[4];
    dz[4] = std::clamp((std::clamp(commanded, -kLimit, kLimit) - z[4]) / kTau, -rate, rate);
    return dz;
  };
  Z z = Z::Zero();
  oracle.states.push_back(z);
  const double h = kDt / substeps;
  for (Eigen::Index k = 0; k < controls.rows(); ++k) {
    pilot = controls(k, 0);
    for (int i = 0; i < substeps; ++i) {
      const Z k1 = f(z), k2 = f(z + 0.5 * h * k1), k3 = f(z + 0.5 * h * k2), k4 = f(z + h * k3);
      z += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    oracle.states.push_back(z);
  }
  return oracle;
}

// (c) A saturating doublet through a position- and rate-limited actuator:
// the flight is the hand-built clamped loop, and the surface never passes
// its stop.
TEST(Actuator, SaturatingDoubletEqualsHandBuiltLoopAndKeepsWithinTheStop) {
  constexpr double kRate = 40.0 * kDeg;
  const Eigen::MatrixXd doublet = ElevatorDoublet(5.0 * kDeg);
  const Flown flown = Fly(DampedP2V7(kTau, kLimit, kRate), doublet, Tight());
  const Oracle oracle = HandBuiltClosedLoop(doublet, kRate, 1000);
  ASSERT_EQ(flown.states.size(), oracle.states.size());
  EXPECT_GT(oracle.largest_command, 1.5 * kLimit);  // the doublet does saturate
  double largest = 0.0, deepest = 0.0;
  for (std::size_t k = 0; k < flown.states.size(); ++k) {
    largest = std::max(largest, (flown.states[k].head<4>() - oracle.states[k].head<4>()).cwiseAbs().maxCoeff());
    largest = std::max(largest, std::abs(flown.elevator[k] - oracle.states[k][4]));
    EXPECT_LE(std::abs(flown.elevator[k]), kLimit) << "t = " << static_cast<double>(k) * kDt;
    deepest = std::max(deepest, std::abs(flown.elevator[k]));
  }
  // RK4 at 0.1 ms across the clamps' kinks and RK45 at rtol 1e-10: both
  // within 1e-8 of the true flight (states of order 0.1 rad, 1 m/s).
  constexpr double kAgreement = 1e-8;
  EXPECT_LT(largest, kAgreement);
  EXPECT_GT(deepest, 0.99 * kLimit);  // and it does reach the stop
  // The limits matter: the unlimited actuator's flight is far from it.
  const Flown free = Fly(DampedP2V7(kTau), doublet, Tight());
  double apart = 0.0;
  for (std::size_t k = 0; k < free.states.size(); ++k)
    apart = std::max(apart, (free.states[k].head<4>() - oracle.states[k].head<4>()).cwiseAbs().maxCoeff());
  EXPECT_GT(apart, 1e3 * kAgreement);
}

// (d) As τa shrinks the actuated flight approaches the ideal one (no
// actuator): the gap is first order in τa.
TEST(Actuator, FastActuatorApproachesTheIdealFlight) {
  const Eigen::MatrixXd doublet = ElevatorDoublet(1.0 * kDeg);
  const Flown ideal = Fly(DampedP2V7(std::nullopt), doublet, Tight());
  auto gap = [&](double tau) {
    const Flown flown = Fly(DampedP2V7(tau), doublet, Tight());
    double largest = 0.0;
    for (std::size_t k = 0; k < ideal.states.size(); ++k)
      largest = std::max(largest, (flown.states[k] - ideal.states[k]).head<4>().cwiseAbs().maxCoeff());
    return largest;
  };
  const double g1 = gap(0.1), g2 = gap(0.01), g3 = gap(0.001);
  EXPECT_NEAR(g2 / g1, 0.1, 0.05);
  EXPECT_NEAR(g3 / g2, 0.1, 0.02);
}

// R in the window and every restart: the actuator starts at trim again.
TEST(Actuator, ResetStartsTheActuatorAgain) {
  const Eigen::MatrixXd doublet = ElevatorDoublet(5.0 * kDeg);
  Flight flight(FlightModel(DampedP2V7(kTau, kLimit, 40.0 * kDeg)), SliceOptions{}, ValidityThresholds{});
  SampledControls input(doublet);
  std::vector<FlightState> first;
  for (int k = 0; k < 25; ++k) {
    flight.Step(input);
    first.push_back(flight.state());
  }
  ASSERT_NE(flight.slicer().auxiliary_state()[0], 0.0);
  flight.Reset(FlightState::Zero());
  input.Reset();
  EXPECT_TRUE(flight.slicer().auxiliary_state().isZero(0.0));
  for (int k = 0; k < 25; ++k) {
    flight.Step(input);
    ASSERT_TRUE(flight.state() == first[static_cast<std::size_t>(k)]) << "slice " << k;
  }
}

TEST(Actuator, FlightStepDoesNotAllocate) {
  if (!AEROLIN_COUNTS_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under ASan";
  Flight flight(FlightModel(DampedP2V7(kTau, kLimit, 40.0 * kDeg)), SliceOptions{}, ValidityThresholds{});
  SampledControls input(ElevatorDoublet(5.0 * kDeg));
  Eigen::VectorXd surfaces = Eigen::VectorXd::Zero(4);
  flight.Step(input);
  const long before = test::g_allocations;
  for (int k = 0; k < 60; ++k) {
    ASSERT_TRUE(flight.Step(input).flown);
    flight.SurfaceDeflections(surfaces);
  }
  EXPECT_EQ(test::g_allocations, before);
}

TEST(Actuator, ModelReadsTheActuatorsAndScattersTheGain) {
  const FlightModel model(DampedP2V7(kTau, kLimit, 40.0 * kDeg));
  ASSERT_TRUE(model.has_actuators());
  EXPECT_EQ(model.num_auxiliary_states(), 1);
  EXPECT_EQ(model.actuator_slot(0), 0);
  EXPECT_FALSE(model.actuator_slot(1).has_value());
  EXPECT_EQ(model.position_limit(0), kLimit);
  EXPECT_EQ(model.rate_limit(0), 40.0 * kDeg);
  EXPECT_FALSE(model.position_limit(1).has_value());
  EXPECT_FALSE(FlightModel(DampedP2V7(kTau)).position_limit(0).has_value());
  EXPECT_EQ(model.feedback_gain()(0, 2), -0.8396);
  EXPECT_TRUE(model.feedback_gain().bottomRows(3).isZero(0.0));
  FlightState x = FlightState::Zero();
  x[kQ] = 0.1;
  Eigen::VectorXd controls = Eigen::VectorXd::Zero(4), commanded, surfaces, rates;
  model.CommandedDeflections(x, AuxiliaryState::Zero(), controls, commanded);
  EXPECT_DOUBLE_EQ(commanded[0], 0.8396 * 0.1);
  AuxiliaryState aux = AuxiliaryState::Zero();
  aux[0] = 0.01;
  model.SurfaceDeflections(x, aux, controls, surfaces);
  EXPECT_EQ(surfaces[0], 0.01);  // the actuator's position, not the command
  model.DemandedRates(x, aux, controls, rates);
  EXPECT_DOUBLE_EQ(rates[0], (kLimit - 0.01) / kTau);  // toward the stop, not the command
  EXPECT_TRUE(rates.tail(3).isZero(0.0));
  EXPECT_TRUE(model.flies_surfaces());
  EXPECT_TRUE(FlightModel(DampedP2V7(std::nullopt)).flies_surfaces());  // the damper's
  EXPECT_FALSE(FlightModel(test::MakeP2V7()).flies_surfaces());
  EXPECT_FALSE(FlightModel(test::MakeP2V7()).has_actuators());
}

// A loop on nz feeds the deflection back through itself (D ≠ 0): the surface
// takes δ = M δ_pilot − K x (model::FeedbackOf), which the flight's A and B
// close (A − B K, B M); an actuator on such a loop is refused.
TEST(Actuator, AnAccelerationLoopScalesThePilotsCommandAndRefusesAnActuator) {
  model::AircraftData a = test::MakeP2V7();
  a.longitudinal_augmentation = model::AxisAugmentation{{"elevator"}, Eigen::MatrixXd::Zero(1, 4), {{"elevator", "nz", 0.05}}};
  const FlightModel model(a);
  const model::ClosedFeedback f = model::FeedbackOf(a, model::Axis::kLongitudinal);
  ASSERT_GT(std::abs(f.command(0, 0) - 1.0), 1e-3);
  FlightState x = FlightState::Zero();
  x[kQ] = 0.1;
  Eigen::VectorXd controls = Eigen::VectorXd::Zero(4), commanded;
  controls[0] = 0.02;
  model.CommandedDeflections(x, AuxiliaryState::Zero(), controls, commanded);
  EXPECT_NEAR(commanded[0], f.command(0, 0) * 0.02 - f.gain(0, model::lon::kQ) * 0.1, 1e-15);
  const model::StateSpace lon = model::BuildLongitudinal(a);
  EXPECT_EQ(Eigen::MatrixXd(model.A().topLeftCorner<4, 4>()), lon.A());
  EXPECT_EQ(Eigen::MatrixXd(model.B().topRows<4>().leftCols(1)), lon.B().leftCols(1));
  a.command_path.actuators["elevator"] = model::Actuator{kTau, kLimit, std::nullopt};
  try {
    FlightModel{a};
    FAIL() << "an actuated acceleration loop was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the [actuators] entry of elevator with an [augmentation] loop on an "
                                          "acceleration"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace aerolin::sim
