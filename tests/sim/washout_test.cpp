// A washed-out loop flown (FlightModel's washout filter states, after the
// actuators' in the auxiliary state): each oracle is written here: the
// matrix exponential of model::BuildAugmented's closed loop, the same of a
// 6-state lateral system written by hand from the bare airframe (the filter
// equations typed here, not the library's), the closed form of the filter in
// a steady turn, and the flight with a fast actuator.

#include <gtest/gtest.h>

#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <vector>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/input.hpp"
#include "allocation_counter.hpp"
#include "p2v7_fixture.hpp"
#include "tight_slice.hpp"

namespace aerolin::sim {
namespace {

constexpr double kDeg = 0.017453292519943295;
constexpr double kDt = 0.1;        // slice [s]
constexpr double kDuration = 8.0;  // [s]
constexpr double kGain = 1.7;      // δr = K (r − w) [rad/(rad/s)], docs/augmentation.md's yaw damper
constexpr double kTau = 1.5;       // washout τ [s]
constexpr Eigen::Index kRudder = 3, kAileron = 2;  // the fixture's controls: elevator, throttle, aileron, rudder

// The P2V-7 with the washed-out yaw damper rudder:r = K, washout τ; given
// τa, a rudder actuator (no limits).
model::AircraftData WashedOut(std::optional<double> actuator = std::nullopt, double tau = kTau) {
  model::AircraftData a = test::MakeP2V7();
  a.lateral_augmentation = model::AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", "r", kGain, tau}}};
  if (actuator) a.command_path.actuators["rudder"] = model::Actuator{*actuator, std::nullopt, std::nullopt};
  return a;
}

// A rudder doublet of ±1° (1 s each way from t = 1 s) and an aileron pulse.
Eigen::MatrixXd Doublet() {
  const long n = std::lround(kDuration / kDt);
  Eigen::MatrixXd u = Eigen::MatrixXd::Zero(n, 4);
  for (long k = 0; k < n; ++k) {
    const double t = (static_cast<double>(k) + 0.5) * kDt;
    if (t > 1.0 && t < 2.0) u(k, kRudder) = 1.0 * kDeg;
    if (t > 2.0 && t < 3.0) u(k, kRudder) = -1.0 * kDeg;
    if (t > 0.5 && t < 1.0) u(k, kAileron) = 2.0 * kDeg;
  }
  return u;
}

SliceOptions Tight(Integrator integrator) { return testing_sim::Tight(integrator, kDt); }

// One flight: the 12 states, the filter state and the rudder at each slice end.
struct Flown {
  std::vector<FlightState> states;
  std::vector<double> filter, rudder;
};
Flown Fly(const model::AircraftData& aircraft, const Eigen::MatrixXd& controls, const SliceOptions& slice,
          const FlightState& x0 = FlightState::Zero()) {
  Flight flight(FlightModel(aircraft), slice, ValidityThresholds{}, x0);
  const int slot = flight.model().first_filter_slot();
  SampledControls input(controls);
  Flown flown;
  Eigen::VectorXd surfaces;
  auto record = [&] {
    flight.SurfaceDeflections(surfaces);
    flown.states.push_back(flight.state());
    flown.filter.push_back(flight.slicer().auxiliary_state()[slot]);
    flown.rudder.push_back(surfaces[kRudder]);
  };
  record();
  for (Eigen::Index k = 0; k < controls.rows(); ++k) {
    EXPECT_TRUE(flight.Step(input).flown);
    record();
  }
  return flown;
}

// The largest difference of the flown lateral states and filter state from
// the zero-order-hold propagation of ż = A z + B δ (z = β, p, r, φ, ψ, w;
// δ the lateral controls aileron, rudder), exp([A B; 0 0] Δt) computed here.
double LargestFromExponential(const Flown& flown, const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                              const Eigen::MatrixXd& controls) {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(8, 8);
  M.topLeftCorner(6, 6) = A;
  M.topRightCorner(6, 2) = B;
  const Eigen::MatrixXd Phi = (M * kDt).exp();
  Eigen::VectorXd z = Eigen::VectorXd::Zero(8);
  double largest = 0.0;
  for (std::size_t k = 1; k < flown.states.size(); ++k) {
    const auto row = static_cast<Eigen::Index>(k - 1);
    z[6] = controls(row, kAileron);
    z[7] = controls(row, kRudder);
    z = Phi * z;
    largest = std::max(largest, (flown.states[k].segment<5>(kBeta) - z.head(5)).cwiseAbs().maxCoeff());
    largest = std::max(largest, std::abs(flown.filter[k] - z[5]));
  }
  return largest;
}

// (a) The flight is the closed loop with its filter state: the matrix
// exponential of BuildAugmented's lateral A, B (the longitudinal axis stays
// at trim).
TEST(Washout, FlightEqualsTheExponentialOfTheAugmentedModel) {
  const Eigen::MatrixXd doublet = Doublet();
  const model::StateSpace closed = model::BuildAugmented(WashedOut(), model::Axis::kLateral);
  ASSERT_EQ(closed.num_states(), 6);
  for (const auto& [integrator, tolerance] : {std::pair{Integrator::kExact, 1e-13}, std::pair{Integrator::kRk45, 1e-9}}) {
    const Flown flown = Fly(WashedOut(), doublet, Tight(integrator));
    const double largest = LargestFromExponential(flown, closed.A(), closed.B(), doublet);
    EXPECT_LT(largest, tolerance) << ToString(integrator);
    EXPECT_GT(*std::max_element(flown.filter.begin(), flown.filter.end()), 1e-3);  // the filter moved
  }
}

// (a) The same against a 6-state lateral system written here from the bare
// airframe: ẋ = A x + b_a δa + b_r δr, δr = δr_pilot + K (r − w), ẇ = (r − w)/τ.
TEST(Washout, FlightEqualsAHandWrittenSixStateSystem) {
  const model::StateSpace bare = model::BuildLateral(test::MakeP2V7());
  ASSERT_EQ(bare.B().cols(), 2);  // aileron, rudder
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(6, 6), B = Eigen::MatrixXd::Zero(6, 2);
  A.topLeftCorner(5, 5) = bare.A();
  A.col(model::lat::kR).head(5) += kGain * bare.B().col(1);
  A.col(5).head(5) = -kGain * bare.B().col(1);
  A(5, model::lat::kR) = 1.0 / kTau;
  A(5, 5) = -1.0 / kTau;
  B.topRows(5) = bare.B();
  const Eigen::MatrixXd doublet = Doublet();
  for (const auto& [integrator, tolerance] : {std::pair{Integrator::kExact, 1e-13}, std::pair{Integrator::kRk45, 1e-9}}) {
    const Flown flown = Fly(WashedOut(), doublet, Tight(integrator));
    EXPECT_LT(LargestFromExponential(flown, A, B, doublet), tolerance) << ToString(integrator);
    // The flown rudder is the pilot's plus K (r − w).
    for (std::size_t k = 0; k < flown.states.size(); k += 7) {
      const double pilot = k == 0 ? 0.0 : doublet(static_cast<Eigen::Index>(k - 1), kRudder);
      EXPECT_NEAR(flown.rudder[k], pilot + kGain * (flown.states[k][kR] - flown.filter[k]), 1e-15) << k;
    }
  }
}

// (b) A steady turn: an airframe whose lateral motion the rudder cannot
// change (all lateral derivatives 0, θ0 = 0), started in a coordinated turn
// at r0 (φ = r0 U0/g), keeps r = r0. The washed-out feedback K (r − w)
// decays as K r0 e^{−t/τ}; the loop without washout holds K r0 for good.
TEST(Washout, ASteadyTurnWashesOutWithTimeConstantTau) {
  model::AircraftData a = WashedOut();
  a.lateral = model::LateralDerivatives{};
  a.condition.theta0 = 0.0;
  a.condition.W0 = 0.0;
  for (model::Control& c : a.controls) c.Y = c.L = c.N = 0.0;
  constexpr double r0 = 0.05;  // [rad/s]
  FlightState x0 = FlightState::Zero();
  x0[kR] = r0;
  x0[kPhi] = r0 * a.condition.U0 / a.condition.g;
  const Eigen::MatrixXd hands_off = Eigen::MatrixXd::Zero(200, 4);  // 20 s
  for (const Integrator integrator : {Integrator::kExact, Integrator::kRk45}) {
    const Flown washed = Fly(a, hands_off, Tight(integrator), x0);
    for (std::size_t k = 0; k < washed.states.size(); ++k) {
      const double t = static_cast<double>(k) * kDt;
      ASSERT_NEAR(washed.states[k][kR], r0, 1e-12) << t;
      EXPECT_NEAR(washed.rudder[k], kGain * r0 * std::exp(-t / kTau), 1e-10) << t;
    }
    EXPECT_LT(std::abs(washed.rudder.back()), 1e-5);  // 20 s = 13 τ: washed out
  }
  model::AircraftData plain = a;
  plain.lateral_augmentation = model::AxisAugmentation{{"rudder"}, Eigen::RowVectorXd::Zero(5), {}};
  plain.lateral_augmentation->gain(0, model::lat::kR) = -kGain;  // δr = K r, u = −K_x x
  const Flown held = Fly(plain, hands_off, Tight(Integrator::kExact), x0);
  for (std::size_t k = 0; k < held.states.size(); ++k) EXPECT_NEAR(held.rudder[k], kGain * r0, 1e-12);
}

// (c) With a rudder actuator of time constant τa the flight tends to (a)'s
// as τa → 0 (RK45, the actuated flight's integrator), the error ~ τa.
TEST(Washout, WithAFastActuatorTendsToTheIdealFlight) {
  const Eigen::MatrixXd doublet = Doublet();
  const model::StateSpace closed = model::BuildAugmented(WashedOut(), model::Axis::kLateral);
  std::vector<double> errors;
  for (double tau_a : {0.02, 0.002, 0.0002}) {
    FlightModel model(WashedOut(tau_a));
    ASSERT_EQ(model.num_auxiliary_states(), 2);
    ASSERT_EQ(model.first_filter_slot(), 1);  // after the rudder's actuator
    const Flown flown = Fly(WashedOut(tau_a), doublet, Tight(Integrator::kExact));
    errors.push_back(LargestFromExponential(flown, closed.A(), closed.B(), doublet));
  }
  EXPECT_LT(errors[0], 1e-3);  // a 20 ms lag on 1-2° inputs [SI]
  EXPECT_LT(errors[1], errors[0] / 5.0);
  EXPECT_LT(errors[2], errors[1] / 5.0);
  EXPECT_LT(errors[2], 1e-5);
}

// The filter starts at rest, and Reset puts it back there; the exact and
// RK45 flights have the same auxiliary state layout.
TEST(Washout, TheFilterStateResetsWithTheFlight) {
  for (const Integrator integrator : {Integrator::kExact, Integrator::kRk45}) {
    Slicer slicer(FlightModel(WashedOut()), Tight(integrator));
    EXPECT_EQ(slicer.integrator(), integrator);
    EXPECT_EQ(slicer.model().num_auxiliary_states(), 1);
    EXPECT_EQ(slicer.model().num_washout_filters(), 1);
    Eigen::VectorXd rudder = Eigen::VectorXd::Zero(4);
    rudder[kRudder] = 1.0 * kDeg;
    for (int k = 0; k < 10; ++k) slicer.Advance(rudder);
    ASSERT_NE(slicer.auxiliary_state()[0], 0.0);
    slicer.Reset(FlightState::Zero());
    EXPECT_TRUE(slicer.auxiliary_state().isZero(0.0));
    EXPECT_TRUE(slicer.state().isZero(0.0));
  }
}

// A start off rest (a closed loop's mode, study::StartOn): the slicer starts
// at the auxiliary state given and Reset returns to the one it is given;
// a start in a slot the model does not use, or not finite, is refused.
TEST(Washout, TheFilterStartsAndResetsAtTheAuxiliaryStartGiven) {
  AuxiliaryState aux0 = AuxiliaryState::Zero();
  aux0[0] = 0.01;  // w [rad/s]
  for (const Integrator integrator : {Integrator::kExact, Integrator::kRk45}) {
    Slicer slicer(FlightModel(WashedOut()), Tight(integrator), FlightState::Zero(), aux0);
    EXPECT_EQ(slicer.auxiliary_state(), aux0);
    const Eigen::VectorXd hands_off = Eigen::VectorXd::Zero(4);
    slicer.Advance(hands_off);
    // ẇ = −w/τ at rest, and the loop's −K w moves the rudder, so the airframe.
    EXPECT_NEAR(slicer.auxiliary_state()[0], 0.01 * std::exp(-kDt / kTau), 1e-4);
    EXPECT_NE(slicer.state()[kR], 0.0);
    slicer.Reset(FlightState::Zero(), aux0);
    EXPECT_EQ(slicer.auxiliary_state(), aux0);
    EXPECT_TRUE(slicer.state().isZero(0.0));
    slicer.Reset(FlightState::Zero());
    EXPECT_TRUE(slicer.auxiliary_state().isZero(0.0));
  }
  AuxiliaryState unused = AuxiliaryState::Zero();
  unused[1] = 0.01;
  EXPECT_THROW(Slicer(FlightModel(WashedOut()), Tight(Integrator::kExact), FlightState::Zero(), unused),
               std::invalid_argument);
  AuxiliaryState nan = AuxiliaryState::Zero();
  nan[0] = std::nan("");
  EXPECT_THROW(Slicer(FlightModel(WashedOut()), Tight(Integrator::kExact), FlightState::Zero(), nan),
               std::invalid_argument);
  EXPECT_THROW(Slicer(FlightModel(test::MakeP2V7()), Tight(Integrator::kExact), FlightState::Zero(), aux0),
               std::invalid_argument);  // no filter at all
}

// With actuators, the flight refuses more auxiliary states than it carries.
TEST(Washout, MoreActuatorsAndFiltersThanTheAuxiliaryStateHoldsAreRefused) {
  model::AircraftData a = WashedOut();
  for (const char* name : {"aileron", "rudder"}) a.command_path.actuators[name] = model::Actuator{0.05, {}, {}};
  a.lateral_augmentation->output_loops.push_back({"aileron", "p", -0.3, 1.0});
  a.lateral_augmentation->output_loops.push_back({"aileron", "r", 0.1, 1.0});
  a.lateral_augmentation->output_loops.push_back({"rudder", "p", 0.1, 1.0});
  const FlightModel six(a);
  EXPECT_EQ(six.num_auxiliary_states(), 6);
  EXPECT_EQ(six.first_filter_slot(), 2);
  // The lateral filters' first slot: after the actuators' (no longitudinal filter).
  EXPECT_EQ(FilterSlot(a, model::Axis::kLongitudinal), 2);
  EXPECT_EQ(FilterSlot(a, model::Axis::kLateral), 2);
  a.command_path.actuators["elevator"] = model::Actuator{0.05, {}, {}};
  try {
    (void)FlightModel(a);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "FlightModel: 3 actuators and 4 washout filters; the flight carries at most 6 such states");
  }
}

}  // namespace
}  // namespace aerolin::sim
