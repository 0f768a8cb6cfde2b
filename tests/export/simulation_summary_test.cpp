#include "aerolin/export/simulation_summary.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace aerolin::exporting {
namespace {

sim::SimulationResult MakeResult() {
  sim::SimulationResult r;
  r.log.control_names = {"elevator"};
  r.log.control_units = {"rad"};
  r.log.time = {0.0, 0.1, 0.2};
  sim::FlightState a = sim::FlightState::Zero(), b = a, c = a;
  b[sim::kAlpha] = -0.3;
  c[sim::kAlpha] = 0.1;
  c[sim::kDown] = -2.5;
  r.log.state = {a, b, c};
  r.log.controls = {Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 0.01),
                    Eigen::VectorXd::Constant(1, 0.02)};
  sim::ValidityMonitor monitor(sim::ValidityThresholds{}, 90.0);
  for (std::size_t k = 0; k < 3; ++k) monitor.Check(r.log.time[k], r.log.state[k]);
  r.validity = monitor.flags();
  r.slices = 2;
  r.rk_steps = 3;
  return r;
}

sim::SliceTiming MakeTiming() {
  sim::SliceTiming t;
  t.sum_us = 1.0;
  t.max_us = 2.0;
  t.count = 2;
  return t;
}

TEST(MaxExcursions, KeepsTheSignOfTheLargestMagnitude) {
  const std::vector<Excursion> e = MaxExcursions(MakeResult().log);
  ASSERT_EQ(e.size(), 12u);
  EXPECT_EQ(e[sim::kAlpha].name, "alpha");
  EXPECT_EQ(e[sim::kAlpha].value, -0.3);
  EXPECT_EQ(e[sim::kAlpha].time, 0.1);
  EXPECT_EQ(e[sim::kDown].unit, core::Unit::kMetre);
  EXPECT_EQ(e[sim::kQ].unit, core::Unit::kRadianPerSecond);
}

TEST(SimulationSummaryJson, HasTheDocumentedKeys) {
  sim::SimulationOptions options;
  options.duration = 0.2;
  const sim::SliceTiming timing = MakeTiming();
  const std::string text = SimulationSummaryJson(MakeResult(), options, {"Test", {}, {}, {}}, &timing);
  EXPECT_EQ(text.substr(0, 24), "{\n  \"aircraft\": \"Test\",\n") << text;
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(text, j.dump(2));
  EXPECT_EQ(j["slice_cost_us"]["mean"], 0.5);
  EXPECT_EQ(j["slice_cost_us"]["max"], 2.0);
  EXPECT_EQ(j["rk_steps"], 3);
  EXPECT_EQ(j["integrator"], "rk45");
  EXPECT_EQ(j["final"]["state"]["alpha"], 0.1);
  EXPECT_EQ(j["final"]["altitude_change_m"], 2.5);
  EXPECT_EQ(j["final"]["controls"]["elevator"], 0.02);
  EXPECT_EQ(j["max_excursions"]["alpha"]["value"], -0.3);
  EXPECT_EQ(j["validity"][0]["name"], "alpha");
  EXPECT_EQ(j["validity"][0]["exceeded"], true);
  EXPECT_EQ(j["validity"][0]["first_exceeded_t"], 0.1);
  EXPECT_EQ(j["valid"], false);
  EXPECT_TRUE(j["stopped"].is_null());
  EXPECT_TRUE(j["script"].is_null());
}

TEST(SimulationSummaryJson, SliceCostIsNullWithoutTiming) {
  const nlohmann::json j =
      nlohmann::json::parse(SimulationSummaryJson(MakeResult(), {}, {"Test", {}, {}, {}}));
  EXPECT_TRUE(j["slice_cost_us"].is_null());
  EXPECT_EQ(j["rk_steps"], 3);
}

TEST(WriteSimulationSummary, ReportsValidityAndSolverCost) {
  sim::SimulationOptions options;
  std::ostringstream out;
  const sim::SliceTiming timing = MakeTiming();
  WriteSimulationSummary(out, MakeResult(), options, {"Test", {"s.txt"}, {}, {}}, &timing);
  const std::string text = out.str();
  EXPECT_NE(text.find("Test: 2 slices of 0.1 s, rk45 (rtol 1e-06, atol 1e-09)"), std::string::npos) << text;
  EXPECT_NE(text.find("script: s.txt"), std::string::npos);
  // 0.3 rad = 17.19°; the limit 10° is ValidityThresholds' 0.1745 rad.
  EXPECT_NE(text.find("  alpha  peak 17.19 deg      limit 10 deg       EXCEEDED"), std::string::npos)
      << text;
  EXPECT_NE(text.find("EXCEEDED from t = 0.1 s"), std::string::npos) << text;
  EXPECT_NE(text.find("altitude change 2.5 m"), std::string::npos) << text;
  EXPECT_NE(text.find("solver: 3 steps (1.500 per slice, 0 rejected); cost per slice mean 0.500 us, "
                      "max 2.000 us\n"),
            std::string::npos)
      << text;
  std::ostringstream untimed;
  WriteSimulationSummary(untimed, MakeResult(), options, {"Test", {}, {}, {}});
  EXPECT_NE(untimed.str().find("solver: 3 steps (1.500 per slice, 0 rejected)\n"), std::string::npos)
      << untimed.str();
}

// Angles in degrees, rates in deg/s, max |x| unsigned (α's extreme is
// −0.3 rad = −17.1887°, at t = 0.1 s); with imperial units, lengths in ft.
TEST(WriteSimulationSummary, ShowsDegreesAndMagnitudesInTheChosenUnits) {
  sim::SimulationOptions options;
  RunDescription run{"Test", {}, {}, {}};
  std::ostringstream si;
  WriteSimulationSummary(si, MakeResult(), options, run);
  EXPECT_NE(si.str().find("alpha             5.72958          17.1887          0.1   deg\n"),
            std::string::npos)
      << si.str();
  EXPECT_NE(si.str().find("q                       0                0            0   deg/s\n"),
            std::string::npos)
      << si.str();
  EXPECT_NE(si.str().find("down                 -2.5              2.5          0.2   m\n"),
            std::string::npos)
      << si.str();
  run.units = core::UnitSystem::kImperial;
  std::ostringstream ft;
  WriteSimulationSummary(ft, MakeResult(), options, run);
  // 2.5 m / 0.3048 m/ft = 8.20210 ft
  EXPECT_NE(ft.str().find("down              -8.2021           8.2021          0.2   ft\n"),
            std::string::npos)
      << ft.str();
  EXPECT_NE(ft.str().find("altitude change 8.2021 ft\n"), std::string::npos) << ft.str();
}

// Times are the decimals of the slice grid (3 × 0.1 = 0.30000000000000004
// in doubles is written 0.3), and no −0 reaches the JSON.
TEST(SimulationSummaryJson, TimesAreOnTheSliceGridAndNoNegativeZero) {
  sim::SimulationResult r = MakeResult();
  r.log.time = {0.0, 0.1, 3 * 0.1};
  r.log.state[1][sim::kBeta] = -0.0;
  r.log.state[2][sim::kPhi] = -0.0;
  sim::SimulationOptions options;
  options.slice.dt = 0.1;
  const std::string text = SimulationSummaryJson(r, options, {"Test", {}, {}, {}});
  ASSERT_NE(3 * 0.1, 0.3);
  EXPECT_NE(text.find("\"t\": 0.3"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.30000000000000004"), std::string::npos) << text;
  EXPECT_EQ(text.find("-0.0"), std::string::npos) << text;
}

}  // namespace
}  // namespace aerolin::exporting
