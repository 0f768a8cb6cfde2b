#include "aerolin/sim/simulate.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

TEST(Simulate, LogsTheStartAndEverySliceEndWithTheHeldControls) {
  const model::AircraftData aircraft = test::MakeP2V7();
  // Row k of the table is held over slice k, so it is logged at row k+1.
  Eigen::MatrixXd table = Eigen::MatrixXd::Zero(60, 4);
  for (Eigen::Index k = 0; k < 60; ++k) table.row(k) << 0.001 * k, 0.5, -0.0005 * k, 0.0;
  SampledControls input(table);
  SimulationOptions o;
  o.duration = 6.0;
  const SimulationResult r = Simulate(FlightModel(aircraft), FlightState::Zero(), input, o);
  ASSERT_EQ(r.log.size(), 61u);
  EXPECT_EQ(r.slices, 60);
  EXPECT_EQ(r.log.time[0], 0.0);
  EXPECT_EQ(r.log.time[60], 6.0);
  EXPECT_EQ(r.log.control_names,
            (std::vector<std::string>{"elevator", "throttle", "aileron", "rudder"}));
  EXPECT_EQ(r.log.control_units, (std::vector<std::string>{"rad", "1", "rad", "rad"}));
  EXPECT_TRUE(r.log.controls[0].isZero());
  for (Eigen::Index k = 0; k < 60; ++k)
    ASSERT_EQ(r.log.controls[k + 1], table.row(k).transpose()) << k;
  EXPECT_GE(r.rk_steps, 60);
  EXPECT_FALSE(r.stopped);
}

TEST(Simulate, SampledControlsHoldTheLastRowPastTheTable) {
  const model::AircraftData aircraft = test::MakeP2V7();
  Eigen::MatrixXd table(2, 4);
  table << 0.01, 0.0, 0.0, 0.0,  //
      -0.02, 1.0, 0.0, 0.0;
  SampledControls input(table);
  SimulationOptions o;
  o.duration = 1.0;
  const SimulationResult r = Simulate(FlightModel(aircraft), FlightState::Zero(), input, o);
  ASSERT_EQ(r.log.size(), 11u);
  EXPECT_EQ(r.log.controls[1], table.row(0).transpose());
  for (std::size_t k = 2; k < r.log.size(); ++k)
    EXPECT_EQ(r.log.controls[k], table.row(1).transpose()) << k;
}

TEST(Simulate, SampledControlsOfTheWrongWidthAreRejected) {
  SimulationOptions o;
  o.duration = 1.0;
  SampledControls narrow(Eigen::MatrixXd::Zero(10, 3));
  try {
    Simulate(FlightModel(test::MakeP2V7()), FlightState::Zero(), narrow, o);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "SampledControls: the control table has 3 columns, the model has 4 controls");
  }
  EXPECT_THROW(SampledControls(Eigen::MatrixXd::Zero(0, 4)), std::invalid_argument);
  EXPECT_THROW(SampledControls(Eigen::MatrixXd::Constant(1, 4, NAN)), std::invalid_argument);
}

TEST(Simulate, FunctionControlsAreSampledAtEachSliceStart) {
  const model::AircraftData aircraft = test::MakeP2V7();
  auto elevator = [](double t) { return 0.02 * std::sin(2.0 * t); };
  // The convenient form (returns a vector) and the allocation-free one.
  FunctionControls returning([&](double t) {
    Eigen::VectorXd u = Eigen::VectorXd::Zero(4);
    u[0] = elevator(t);
    return u;
  });
  FunctionControls writing([&](double t, Eigen::Ref<Eigen::VectorXd> u) {
    u.setZero();
    u[0] = elevator(t);
  });
  Eigen::MatrixXd table = Eigen::MatrixXd::Zero(100, 4);
  for (Eigen::Index k = 0; k < 100; ++k) table(k, 0) = elevator(0.1 * static_cast<double>(k));
  SampledControls sampled(table);
  SimulationOptions o;
  o.duration = 10.0;
  const FlightModel model(aircraft);
  const SimulationResult a = Simulate(model, FlightState::Zero(), returning, o);
  const SimulationResult b = Simulate(model, FlightState::Zero(), writing, o);
  const SimulationResult c = Simulate(model, FlightState::Zero(), sampled, o);
  EXPECT_EQ(a.log.controls[1][0], 0.0);  // sin(0): the start of slice 0
  EXPECT_EQ(a.log.controls[2][0], elevator(0.1));
  EXPECT_EQ(a.log.state, c.log.state);
  EXPECT_EQ(b.log.state, c.log.state);
  EXPECT_NE(c.log.state.back()[kTheta], 0.0);
  FunctionControls wrong([](double) { return Eigen::VectorXd::Zero(2).eval(); });
  EXPECT_THROW(Simulate(model, FlightState::Zero(), wrong, o), std::invalid_argument);
}

TEST(Simulate, SliceTimingIsOptInAndCountsEveryFlownSlice) {
  // The result itself carries no wall-clock time (it is deterministic:
  // compared whole below); timing goes only where asked.
  const FlightModel model(test::MakeP2V7());
  FlightState x0 = FlightState::Zero();
  x0[kAlpha] = 0.01;
  SimulationOptions o;
  o.duration = 3.0;
  SliceTiming timing;
  const SimulationResult timed = Simulate(model, x0, o, &timing);
  const SimulationResult untimed = Simulate(model, x0, o);
  EXPECT_EQ(timed.log.state, untimed.log.state);
  EXPECT_EQ(timed.rk_steps, untimed.rk_steps);
  EXPECT_EQ(timing.count, 30);
  EXPECT_TRUE(std::isfinite(timing.sum_us) && timing.sum_us > 0.0);
  EXPECT_TRUE(std::isfinite(timing.max_us) && timing.max_us > 0.0);
  EXPECT_EQ(timing.mean_us(), timing.sum_us / 30.0);
  EXPECT_EQ(SliceTiming{}.mean_us(), 0.0);
}

TEST(Simulate, RejectsADurationThatIsNotWholeSlices) {
  SimulationOptions o;
  o.duration = 1.05;
  try {
    Simulate(FlightModel(test::MakeP2V7()), FlightState::Zero(), o);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "duration 1.05 s is not a positive whole number of "
                 "0.1 s slices");
  }
  EXPECT_EQ(NumSlices(600.0, 0.1), 6000);
  EXPECT_EQ(NumSlices(0.3, 0.1), 3);
}

TEST(Simulate, StopsCleanlyWhenAnUnstableAircraftDiverges) {
  model::AircraftData aircraft = test::MakeP2V7();
  aircraft.longitudinal.Ma = +3.78;  // statically unstable: λ ≈ +1.2 /s
  FlightState x0 = FlightState::Zero();
  x0[kAlpha] = 0.01;
  std::vector<std::string> messages;
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SimulationOptions o;
    o.slice.integrator = integrator;
    o.duration = 600.0;
    const SimulationResult r = Simulate(FlightModel(aircraft), x0, o);
    // α passes 90° (where the kinematics are undefined) within a slice: RK45
    // stalls short of it, the exact step lands beyond it. Both name the
    // physical cause in the same words (not RK45's step size).
    ASSERT_TRUE(r.stopped);
    messages.push_back(*r.stopped);
    EXPECT_LT(r.slices, 6000);
    EXPECT_EQ(r.log.size(), static_cast<std::size_t>(r.slices) + 1);
    EXPECT_TRUE(r.log.state.back().allFinite());
    EXPECT_TRUE(r.validity[0].exceeded());  // α left the linear range first
  }
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_EQ(messages[0],
            "state diverged at t = 5.9 s: alpha0 + alpha reached 90 deg: body velocity undefined; "
            "run stopped");
}

// The streaming Simulate hands the recorder exactly the rows the log keeps,
// header names first, and keeps none itself.
TEST(Simulate, StreamsTheRowsTheLogWouldKeep) {
  struct Rows final : FlightRecorder {
    std::vector<std::string> names;
    FlightLog log;
    void Begin(const std::vector<std::string>& control_names) override { names = control_names; }
    void Record(double t, const FlightState& x, const Eigen::VectorXd& controls) override {
      log.time.push_back(t);
      log.state.push_back(x);
      log.controls.push_back(controls);
    }
  } rows;
  FlightState x0 = FlightState::Zero();
  x0[kBeta] = 0.02;
  SimulationOptions o;
  o.duration = 30.0;
  HandsOff hands_off;
  const SimulationResult kept = Simulate(FlightModel(test::MakeP2V7()), x0, o);
  const SimulationResult streamed = Simulate(FlightModel(test::MakeP2V7()), x0, hands_off, o, rows);
  EXPECT_EQ(streamed.log.size(), 0u);
  EXPECT_EQ(streamed.slices, kept.slices);
  EXPECT_EQ(rows.names, kept.log.control_names);
  ASSERT_EQ(rows.log.size(), kept.log.size());
  for (std::size_t k = 0; k < kept.log.size(); ++k) {
    EXPECT_EQ(rows.log.time[k], kept.log.time[k]);
    EXPECT_EQ(rows.log.state[k], kept.log.state[k]);
    EXPECT_EQ(rows.log.controls[k], kept.log.controls[k]);
  }
}

// Regression: --duration 1e300 overflowed lround(T / dt).
TEST(NumSlices, RejectsMoreSlicesThanTheLimit) {
  try {
    NumSlices(1e300, 0.1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "duration 1e+300 s is more than 1e+12 slices of 0.1 s");
  }
}

}  // namespace
}  // namespace aerolin::sim
