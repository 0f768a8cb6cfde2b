#include "aerolin/sim/simulate.hpp"

#include <gtest/gtest.h>

#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

TEST(Simulate, LogsTheStartAndEverySliceEndWithTheHeldControls) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const PilotScript script =
      ParsePilotScript("1.0 2.0 8\n2.0 4.0 5\n", "a.txt", aircraft.controls);
  SimulationOptions o;
  o.duration = 6.0;
  const SimulationResult r = Simulate(FlightModel(aircraft), FlightState::Zero(), &script, o);
  ASSERT_EQ(r.log.size(), 61u);
  EXPECT_EQ(r.slices, 60);
  EXPECT_EQ(r.log.time[0], 0.0);
  EXPECT_EQ(r.log.time[60], 6.0);
  EXPECT_EQ(r.log.control_names,
            (std::vector<std::string>{"elevator", "throttle", "aileron", "rudder"}));
  EXPECT_EQ(r.log.control_units, (std::vector<std::string>{"rad", "1", "rad", "rad"}));
  // Row k+1 holds the controls of slice k: slice 10 is the first with '8'.
  EXPECT_EQ(r.log.controls[10][0], 0.0);
  EXPECT_EQ(r.log.controls[11][0], 0.01);
  EXPECT_NEAR(r.log.controls[20][0], 0.1, 1e-15);
  EXPECT_NEAR(r.log.controls[40][0], -0.1, 1e-15);
  EXPECT_NEAR(r.log.controls[41][0], -0.05, 1e-15);
  EXPECT_GE(r.rk_steps, 60);
  EXPECT_GT(r.slice_cost_mean_us, 0.0);
  EXPECT_GE(r.slice_cost_max_us, r.slice_cost_mean_us);
  EXPECT_FALSE(r.stopped);
}

TEST(Simulate, RejectsADurationThatIsNotWholeSlices) {
  SimulationOptions o;
  o.duration = 1.05;
  try {
    Simulate(FlightModel(test::MakeP2V7()), FlightState::Zero(), nullptr, o);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "duration 1.050000 s is not a positive whole number of "
                 "0.100000 s slices");
  }
  EXPECT_EQ(NumSlices(600.0, 0.1), 6000);
  EXPECT_EQ(NumSlices(0.3, 0.1), 3);
}

TEST(Simulate, StopsCleanlyWhenAnUnstableAircraftDiverges) {
  model::AircraftData aircraft = test::MakeP2V7();
  aircraft.longitudinal.Ma = +3.78;  // statically unstable: λ ≈ +1.2 /s
  FlightState x0 = FlightState::Zero();
  x0[kAlpha] = 0.01;
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SimulationOptions o;
    o.slice.integrator = integrator;
    o.duration = 600.0;
    const SimulationResult r = Simulate(FlightModel(aircraft), x0, nullptr, o);
    // α passes 90° (where the kinematics are undefined) within a slice: RK45
    // then fails to meet its tolerance, the exact step lands beyond it.
    ASSERT_TRUE(r.stopped);
    EXPECT_NE(r.stopped->find(integrator == Integrator::kRk45
                                  ? "RK45 cannot meet rtol 1e-06, atol 1e-09 in slice "
                                  : "state diverged at t = "),
              std::string::npos)
        << *r.stopped;
    EXPECT_NE(r.stopped->find("run stopped"), std::string::npos);
    EXPECT_LT(r.slices, 6000);
    EXPECT_EQ(r.log.size(), static_cast<std::size_t>(r.slices) + 1);
    EXPECT_TRUE(r.log.state.back().allFinite());
    EXPECT_TRUE(r.validity[0].exceeded());  // α left the linear range first
  }
}

TEST(Simulate, FinerSlicesGiveTheSameAircraftResponse) {
  // The seed's doublet flown at Δt = 0.1 s and 0.01 s. The control histories
  // differ only by the staircase of the ramps (0.01 vs 0.001 rad steps): the
  // coarse one lags by (0.1 − 0.01)/2 = 0.045 s on average, so θ may differ
  // by about that lag times the largest pitch rate; 0.06 s leaves margin.
  // With per-slice (not per-second) rates the fine ramp would be 10× slower
  // and θ would differ by most of its peak.
  constexpr double kLagBound = 0.06;  // [s]
  const model::AircraftData aircraft = test::MakeP2V7();
  const PilotScript script =
      ParsePilotScript("1.0 2.0 8\n2.0 4.0 5\n", "a.txt", aircraft.controls);
  SimulationOptions o;
  o.duration = 20.0;
  const SimulationResult coarse = Simulate(FlightModel(aircraft), FlightState::Zero(), &script, o);
  o.slice.dt = 0.01;
  const SimulationResult fine = Simulate(FlightModel(aircraft), FlightState::Zero(), &script, o);
  double peak = 0.0, max_rate = 0.0, worst = 0.0;
  for (const FlightState& x : fine.log.state) max_rate = std::max(max_rate, std::abs(x[kQ]));
  for (std::size_t k = 0; k < coarse.log.size(); ++k) {
    const double theta = coarse.log.state[k][kTheta];
    peak = std::max(peak, std::abs(theta));
    worst = std::max(worst, std::abs(theta - fine.log.state[10 * k][kTheta]));
  }
  EXPECT_LT(worst, kLagBound * max_rate) << "peak " << peak;
  EXPECT_LT(worst, 0.1 * peak);
}

}  // namespace
}  // namespace aerolin::sim
