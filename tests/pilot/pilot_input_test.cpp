#include "aerolin/pilot/pilot_input.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "aerolin/sim/simulate.hpp"
#include "sim/p2v7_fixture.hpp"

namespace aerolin::pilot {
namespace {

using sim::FlightModel;
using sim::FlightState;
using sim::SimulationOptions;
using sim::SimulationResult;

TEST(ScriptedPilot, RampsAndDecaysTheScriptsKeysSliceBySlice) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const PilotScript script = ParsePilotScript("1.0 2.0 8\n2.0 4.0 5\n", "a.txt", aircraft.controls);
  ScriptedPilot pilot(script, aircraft.controls, 0.1);
  SimulationOptions o;
  o.duration = 6.0;
  const SimulationResult r = Simulate(FlightModel(aircraft), FlightState::Zero(), pilot, o);
  ASSERT_EQ(r.log.size(), 61u);
  // Row k+1 holds the controls of slice k: slice 10 is the first with '8'.
  EXPECT_EQ(r.log.controls[10][0], 0.0);
  EXPECT_EQ(r.log.controls[11][0], 0.01);
  EXPECT_NEAR(r.log.controls[20][0], 0.1, 1e-15);
  EXPECT_NEAR(r.log.controls[40][0], -0.1, 1e-15);
  EXPECT_NEAR(r.log.controls[41][0], -0.05, 1e-15);
  EXPECT_EQ(pilot.held(), KeySet{});  // slice 59: nothing held
  // Simulate resets the source: a second run is the same run.
  const SimulationResult again = Simulate(FlightModel(aircraft), FlightState::Zero(), pilot, o);
  EXPECT_EQ(again.log.state, r.log.state);
}

TEST(ScriptedPilot, RejectsASliceLengthItWasNotBuiltFor) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const PilotScript script = ParsePilotScript("1 2 8\n", "a.txt", aircraft.controls);
  ScriptedPilot pilot(script, aircraft.controls, 0.1);
  SimulationOptions o;
  o.slice.dt = 0.05;
  o.duration = 1.0;
  EXPECT_THROW(Simulate(FlightModel(aircraft), FlightState::Zero(), pilot, o),
               std::invalid_argument);
}

TEST(LiveKeys, FliesTheKeysHeldLikeTheScriptThatRecordsThem) {
  const model::AircraftData aircraft = test::MakeP2V7();
  LiveKeys live(aircraft.controls, 0.1);
  KeyRecorder recorder(0.1);
  sim::Flight flight(FlightModel(aircraft), sim::SliceOptions{}, sim::ValidityThresholds{});
  for (long k = 0; k < 100; ++k) {
    live.Hold(k % 30 < 7 ? KeySet{Key::k8, Key::k4} : KeySet{Key::kPlus});
    ASSERT_TRUE(flight.Step(live).flown);
    recorder.Record(live.held());
  }
  const PilotScript script = ParsePilotScript(recorder.ToScript(), "rec.txt", aircraft.controls);
  ScriptedPilot replay(script, aircraft.controls, 0.1);
  SimulationOptions o;
  o.duration = 10.0;
  const SimulationResult r = Simulate(FlightModel(aircraft), FlightState::Zero(), replay, o);
  EXPECT_EQ(r.log.state.back(), flight.state());
  EXPECT_EQ(r.log.controls.back(), flight.controls());
  live.Reset();
  EXPECT_EQ(live.pilot().controls(), Eigen::VectorXd::Zero(4));
}

TEST(ScriptedPilot, FinerSlicesGiveTheSameAircraftResponse) {
  // The seed's doublet flown at Δt = 0.1 s and 0.01 s. The control histories
  // differ only by the staircase of the ramps (0.01 vs 0.001 rad steps): the
  // coarse one lags by (0.1 − 0.01)/2 = 0.045 s on average, so θ may differ
  // by about that lag times the largest pitch rate; 0.06 s leaves margin.
  // With per-slice (not per-second) rates the fine ramp would be 10× slower
  // and θ would differ by most of its peak.
  constexpr double kLagBound = 0.06;  // [s]
  const model::AircraftData aircraft = test::MakeP2V7();
  const PilotScript script = ParsePilotScript("1.0 2.0 8\n2.0 4.0 5\n", "a.txt", aircraft.controls);
  SimulationOptions o;
  o.duration = 20.0;
  ScriptedPilot coarse_pilot(script, aircraft.controls, 0.1);
  const SimulationResult coarse =
      Simulate(FlightModel(aircraft), FlightState::Zero(), coarse_pilot, o);
  o.slice.dt = 0.01;
  ScriptedPilot fine_pilot(script, aircraft.controls, 0.01);
  const SimulationResult fine = Simulate(FlightModel(aircraft), FlightState::Zero(), fine_pilot, o);
  double peak = 0.0, max_rate = 0.0, worst = 0.0;
  for (const FlightState& x : fine.log.state) max_rate = std::max(max_rate, std::abs(x[sim::kQ]));
  for (std::size_t k = 0; k < coarse.log.size(); ++k) {
    const double theta = coarse.log.state[k][sim::kTheta];
    peak = std::max(peak, std::abs(theta));
    worst = std::max(worst, std::abs(theta - fine.log.state[10 * k][sim::kTheta]));
  }
  EXPECT_LT(worst, kLagBound * max_rate) << "peak " << peak;
  EXPECT_LT(worst, 0.1 * peak);
}

}  // namespace
}  // namespace aerolin::pilot
