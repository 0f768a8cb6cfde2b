#include "aerolin/export/simulation_summary.hpp"

#include <gtest/gtest.h>

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
  r.slice_cost_mean_us = 0.5;
  r.slice_cost_max_us = 2.0;
  return r;
}

TEST(MaxExcursions, KeepsTheSignOfTheLargestMagnitude) {
  const std::vector<Excursion> e = MaxExcursions(MakeResult().log);
  ASSERT_EQ(e.size(), 12u);
  EXPECT_EQ(e[sim::kAlpha].name, "alpha");
  EXPECT_EQ(e[sim::kAlpha].value, -0.3);
  EXPECT_EQ(e[sim::kAlpha].time, 0.1);
  EXPECT_EQ(e[sim::kDown].unit, "m");
}

TEST(SimulationSummaryJson, HasTheDocumentedKeys) {
  sim::SimulationOptions options;
  options.duration = 0.2;
  const nlohmann::json j = SimulationSummaryJson(MakeResult(), options, {"Test", {}, {}, {}});
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

TEST(WriteSimulationSummary, ReportsValidityAndSolverCost) {
  sim::SimulationOptions options;
  std::ostringstream out;
  WriteSimulationSummary(out, MakeResult(), options, {"Test", {"s.txt"}, {}, {}});
  const std::string text = out.str();
  EXPECT_NE(text.find("Test: 2 slices of 0.1 s, rk45 (rtol 1e-06, atol 1e-09)"), std::string::npos) << text;
  EXPECT_NE(text.find("script: s.txt"), std::string::npos);
  EXPECT_NE(text.find("alpha  peak 0.3"), std::string::npos) << text;
  EXPECT_NE(text.find("EXCEEDED from t = 0.1 s"), std::string::npos) << text;
  EXPECT_NE(text.find("altitude change 2.5 m"), std::string::npos) << text;
  EXPECT_NE(text.find("cost per slice mean 0.500 us, max 2.000 us"), std::string::npos) << text;
}

}  // namespace
}  // namespace aerolin::exporting
