#include "aerolin/study/monte_carlo.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/core/files.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/rough_air.hpp"

namespace aerolin::study {
namespace {

model::AircraftData Load(const std::string& name) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name)
      .aircraft;
}

// The P2V-7 with a washed-out yaw damper (δr = 1.7·s/(s + 1/1.5)·r, as
// `augment --loop rudder:r=1.7,washout=1.5 --write` writes it): the batch
// carries the filter's state beside the airframe's.
model::AircraftData WashedOutP2V7() {
  const std::string path = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";
  return data::LoadAircraftString(core::ReadInputFile(path) +
                                      "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n"
                                      "  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n]\n",
                                  "p2v7_washout.toml")
      .aircraft;
}

// The bundled files and the washed-out P2V-7, each with its name.
std::vector<std::pair<std::string, model::AircraftData>> Aircraft(std::vector<std::string> names) {
  std::vector<std::pair<std::string, model::AircraftData>> out;
  for (const std::string& name : names) out.emplace_back(name, Load(name));
  out.emplace_back("p2v7 washed out", WashedOutP2V7());
  return out;
}

MonteCarloSpec Spec(std::uint64_t runs, double duration) {
  MonteCarloSpec spec;
  spec.turbulence.intensity = sim::TurbulenceIntensity::kModerate;
  spec.turbulence.height = 300.0;
  spec.turbulence.seed = 42;
  spec.runs = runs;
  spec.duration = duration;
  return spec;
}

int Index(const std::string& name) {
  const auto& outs = MonteCarloOutputs();
  for (std::size_t i = 0; i < outs.size(); ++i)
    if (outs[i].name == name) return static_cast<int>(i);
  throw std::runtime_error(name);
}

// Run i is the flight `simulate --seed RunSeed(seed, i) --integrator exact`
// flies: the same rows, to rounding (the Slicer's own exact step).
// A washout file's run is its flight too, whose exact integrator carries
// the filter's state (sim::FlightModel::ExtendedLinearA).
TEST(MonteCarlo, EachRunIsTheFlightOfItsSeed) {
  for (const auto& [name, aircraft] : Aircraft({"navion_cruise_sl.toml", "boeing747_cruise_40kft.toml"})) {
    SCOPED_TRACE(name);
    const analysis::ModalAnalysis modes = AnalyzeClosedLoop(aircraft);
    MonteCarloSpec spec = Spec(3, 30.0);
    spec.first_run = 5;
    spec.history_every = 1;
    const MonteCarloResult mc = RunMonteCarlo(aircraft, modes, spec);
    ASSERT_EQ(mc.history.size(), 3u);
    for (std::size_t r = 0; r < 3; ++r) {
      FlightSpec flight;
      flight.duration = 30.0;
      flight.slice.integrator = sim::Integrator::kExact;
      flight.turbulence = spec.turbulence;
      flight.turbulence->seed = RunSeed(42, 5 + r);
      EXPECT_EQ(mc.seed[r], flight.turbulence->seed);
      PreparedFlight prepared = Prepare(aircraft, modes, flight);
      const sim::SimulationResult flown =
          sim::Simulate(prepared.model(), prepared.x0(), prepared.input(), prepared.options());
      ASSERT_EQ(static_cast<long>(flown.log.size()), mc.rows);
      const Eigen::MatrixXd& h = mc.history[r];
      double worst = 0.0;
      for (std::size_t k = 0; k < flown.log.size(); ++k)
        for (int s = 0; s < sim::kNumLinearStates; ++s)
          worst = std::max(worst, std::abs(h(static_cast<Eigen::Index>(k), s) - flown.log.state[k][s]) /
                                      (1e-3 + mc.rms(static_cast<Eigen::Index>(r), s)));
      EXPECT_LT(worst, 1e-9);
    }
  }
}

// A run's result depends on (seed, run) only: not on the grouping, the
// first run of a chunk, or the threads.
TEST(MonteCarlo, RunsDoNotDependOnGroupingOrThreads) {
  const model::AircraftData aircraft = Load("navion_cruise_sl.toml");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  MonteCarloSpec whole = Spec(150, 20.0);  // more than two blocks of runs
  whole.levels = {{"nz", 0.1}, {"phi", -0.01}};
  whole.threads = 1;
  const MonteCarloResult a = RunMonteCarlo(aircraft, modes, whole);
  MonteCarloSpec two = whole;
  two.threads = 2;
  const MonteCarloResult b = RunMonteCarlo(aircraft, modes, two);
  MonteCarloSpec tail = whole;
  tail.first_run = 100;
  tail.runs = 50;
  const MonteCarloResult c = RunMonteCarlo(aircraft, modes, tail);
  EXPECT_EQ(a.rms, b.rms);
  EXPECT_EQ(a.peak, b.peak);
  EXPECT_EQ(a.exceedances, b.exceedances);
  EXPECT_EQ(Eigen::MatrixXd(a.rms.bottomRows(50)), c.rms);
  EXPECT_EQ(Eigen::MatrixXd(a.zero_upcrossings.bottomRows(50)), c.zero_upcrossings);
  EXPECT_EQ(Eigen::MatrixXd(a.exceedances.bottomRows(50)), c.exceedances);
  EXPECT_EQ(c.run.front(), 100u);
  // A shift by one run moves every run to another row of its block: still
  // the same numbers, bit for bit (python/tests/test_distributed.py checks
  // chunks of 7 across processes too).
  MonteCarloSpec odd = whole;
  odd.first_run = 101;
  odd.runs = 49;
  const MonteCarloResult d = RunMonteCarlo(aircraft, modes, odd);
  EXPECT_EQ(Eigen::MatrixXd(a.rms.bottomRows(49)), d.rms);
  EXPECT_EQ(Eigen::MatrixXd(a.peak.bottomRows(49)), d.peak);
  EXPECT_EQ(Eigen::MatrixXd(a.exceedances.bottomRows(49)), d.exceedances);
  // Different runs fly different air.
  EXPECT_NE(a.rms(0, Index("alpha")), a.rms(1, Index("alpha")));
}

// The runs' mean square equals its exact expectation: the flight starts at
// trim in stationary turbulence, so E[y_k²] = c P_k cᵀ with P_k propagated
// from P_0 = (0 for the aircraft, the stationary filters) by the rough-air
// recursion (study/rough_air.hpp), averaged over the rows (row 0 is 0).
// Tolerance: 5 standard errors of the mean over runs (the sample standard
// deviation of the runs' mean squares over √runs). With a washed-out loop
// the exact statistics are the closed loop's with the filter state
// (`aerolin rms`): its s carries w after the airframe's states.
TEST(MonteCarlo, MeanSquareMatchesTheExactExpectation) {
  for (const auto& [name, aircraft] : Aircraft({"navion_cruise_sl.toml", "boeing747_cruise_40kft.toml"})) {
    SCOPED_TRACE(name);
    const analysis::ModalAnalysis modes = AnalyzeClosedLoop(aircraft);
    const MonteCarloSpec spec = Spec(400, 60.0);
    const MonteCarloResult mc = RunMonteCarlo(aircraft, modes, spec);
    RoughAirSpec rs;
    rs.turbulence = spec.turbulence;
    const RoughAirStatistics exact = ExactRoughAirStatistics(aircraft, modes, rs);
    for (const AxisStatistics* axis : {&exact.longitudinal, &exact.lateral}) {
      ASSERT_FALSE(axis->not_stationary);
      const Eigen::MatrixXd& T = axis->transition;
      const Eigen::MatrixXd& P = axis->covariance;
      const Eigen::MatrixXd Q = P - T * P * T.transpose();
      // The aircraft's states in s (ψ left out), the filters' included.
      const Eigen::Index nx = modes.model_of(axis->axis).num_states() - (axis->axis == model::Axis::kLateral ? 1 : 0);
      Eigen::MatrixXd Pk = P;
      Pk.topRows(nx).setZero();
      Pk.leftCols(nx).setZero();
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(axis->output_rows.rows());
      for (long k = 1; k < mc.rows; ++k) {
        Pk = (T * Pk * T.transpose() + Q).eval();
        expected += (axis->output_rows * Pk * axis->output_rows.transpose()).diagonal();
      }
      expected /= static_cast<double>(mc.rows);
      for (std::size_t o = 0; o < axis->outputs.size(); ++o) {
        const std::string& out = axis->outputs[o].signal.name;
        SCOPED_TRACE(out);
        const Eigen::VectorXd ms = mc.rms.col(Index(out)).cwiseAbs2();
        const double mean = ms.mean();
        const double sd = std::sqrt((ms.array() - mean).square().sum() / (ms.size() - 1));
        const double se = sd / std::sqrt(static_cast<double>(ms.size()));
        EXPECT_NEAR(mean, expected[static_cast<Eigen::Index>(o)], 5.0 * se);
        EXPECT_LT(se, 0.2 * mean);
      }
    }
  }
}

TEST(MonteCarlo, BadRequestsNameTheirField) {
  const model::AircraftData aircraft = Load("navion_cruise_sl.toml");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  auto field = [&](MonteCarloSpec spec) {
    try {
      RunMonteCarlo(aircraft, modes, spec);
    } catch (const FlightSpecError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field(Spec(0, 10.0)), "runs");
  EXPECT_EQ(field(Spec(kMaxMonteCarloRuns + 1, 10.0)), "runs");
  EXPECT_EQ(field(Spec(1000000, 1e5)), "runs");  // 10^12 run-slices
  EXPECT_EQ(field(Spec(10, 0.0)), "duration");
  EXPECT_EQ(field(Spec(10, 10.05)), "duration");  // not whole slices
  MonteCarloSpec bad_level = Spec(10, 10.0);
  bad_level.levels = {{"altitude", 1.0}};
  EXPECT_EQ(field(bad_level), "levels");
  MonteCarloSpec no_height = Spec(10, 10.0);
  no_height.turbulence.height = -5.0;
  EXPECT_EQ(field(no_height), "turbulence.height");
  MonteCarloSpec huge_history = Spec(100000, 1000.0);
  huge_history.history_every = 1;
  EXPECT_EQ(field(huge_history), "history_every");
  // A file with an actuator, with or without a washout filter: the batch is
  // linear and carries no actuator state; the flight would differ from it.
  for (model::AircraftData actuated : {Load("p2v7.toml"), WashedOutP2V7()}) {
    actuated.command_path.actuators["aileron"] = model::Actuator{0.05, {}, {}};
    try {
      RunMonteCarlo(actuated, AnalyzeClosedLoop(actuated), Spec(10, 10.0));
      ADD_FAILURE() << "no exception";
    } catch (const FlightSpecError& e) {
      EXPECT_EQ(e.field(), "actuators");
      EXPECT_STREQ(e.what(), "Monte Carlo of a file with [actuators]: its batched propagation is linear and "
                             "carries no actuator's lag or limits (fly it with simulate, or leave [actuators] out "
                             "for the ideal surfaces)");
    }
  }
}

}  // namespace
}  // namespace aerolin::study
