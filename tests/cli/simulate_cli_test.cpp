#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

const std::string kP2V7 = "data/derivatives/p2v7.toml";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(SimulateCommand, WritesCsvAndJsonSummary) {
  const std::string csv = std::string(AEROLIN_BINARY_DIR) + "/sim_cli_doublet.csv";
  const auto r = RunAerolin("simulate " + kP2V7 +
                                " --script tests/fixtures/scripts/elevator_doublet.txt"
                                " --duration 10 --json --csv '" + csv + "'",
                            "sim_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = Lines(ReadAll(csv));
  std::remove(csv.c_str());
  ASSERT_EQ(lines.size(), 102u);  // header + t = 0 + 100 slices
  EXPECT_EQ(lines[0],
            "t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator,throttle,"
            "aileron,rudder");
  EXPECT_EQ(lines[1], "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
  EXPECT_EQ(lines[101].substr(0, 3), "10,");
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["slices"], 100);
  EXPECT_GE(j["rk_steps"].get<int>(), 100);
  // The command opts in to wall-clock timing (scripts/bench-vs-seed.sh reads it).
  EXPECT_GT(j["slice_cost_us"]["mean"].get<double>(), 0.0);
  EXPECT_TRUE(j["slice_cost_us"]["max"].is_number());
  EXPECT_EQ(j["valid"], true);
  EXPECT_LT(j["max_excursions"]["theta"]["value"].get<double>(), 0.0);  // '8' pitches down first
}

TEST(SimulateCommand, ExactAndRk45AgreeAndTextSummaryReportsCost) {
  const auto rk = RunAerolin("simulate " + kP2V7 + " --excite phugoid --duration 20 --json", "sim_rk");
  const auto ex = RunAerolin("simulate " + kP2V7 + " --excite phugoid --duration 20 --json --integrator exact",
                             "sim_ex");
  ASSERT_EQ(rk.exit_code, 0) << rk.err;
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  const nlohmann::json a = nlohmann::json::parse(rk.out), b = nlohmann::json::parse(ex.out);
  EXPECT_EQ(a["excite"], "phugoid");
  // RK45 at rtol 1e-6 over 200 slices: u (~1.8 m/s) to ~1e-5 m/s.
  EXPECT_NEAR(a["final"]["state"]["u"].get<double>(), b["final"]["state"]["u"].get<double>(), 1e-4);
  const auto text = RunAerolin("simulate " + kP2V7 + " --excite roll --duration 1", "sim_text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("excited: roll, amplitude 0.02"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("cost per slice mean"), std::string::npos) << text.out;
}

TEST(SimulateCommand, BadScriptExitsOneWithEveryDefectLocated) {
  const auto r = RunAerolin("simulate " + kP2V7 +
                                " --script tests/fixtures/scripts/two_defects.txt --duration 10",
                            "sim_bad");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "error: tests/fixtures/scripts/two_defects.txt:3: unknown key 'x' (keys: 8 5 + - 4 6 9 7, or 'set')\n"
            "tests/fixtures/scripts/two_defects.txt:4: t_end 2 is before t_start 3\n");
}

TEST(SimulateCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(RunAerolin("simulate " + kP2V7 + " --script no/such/file.txt --duration 1", "sim_u1").exit_code, 2);
  EXPECT_EQ(RunAerolin("simulate " + kP2V7, "sim_u2").exit_code, 2);  // --duration required
  EXPECT_EQ(RunAerolin("simulate " + kP2V7 + " --duration 1 --integrator euler", "sim_u3").exit_code, 2);
  const auto r = RunAerolin("simulate " + kP2V7 + " --duration 1.05", "sim_u4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a positive whole number of"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace aerolin

namespace aerolin {
namespace {

// A file with [actuators]: the CSV gains a NAME_surface column per control
// after the controls (the pilot's commands stay theirs), each surface within
// its stop and moving no faster than its rate limit; the ideal ones are the
// pilot's commands (no augmentation). --integrator exact is flown by RK45,
// and the summary says so.
TEST(SimulateCommand, ActuatorsAreFlownAndTheirSurfacesAreColumns) {
  const std::string dir = std::string(AEROLIN_BINARY_DIR);
  const std::string file = dir + "/sim_cli_actuated.toml";
  const std::string csv = dir + "/sim_cli_actuated.csv";
  constexpr double kStopDeg = 2.0, kRateDegS = 4.0, kDt = 0.05;
  std::ofstream(file) << ReadAll(kP2V7)
                      << "\n[actuators]\nelevator = { time_constant_s = 0.05, limit_deg = 2, rate_limit_deg_s = 4 }\n";
  const auto r = RunAerolin("simulate '" + file + "' --script tests/fixtures/scripts/elevator_doublet.txt"
                            " --duration 6 --dt 0.05 --integrator exact --csv '" + csv + "'",
                            "sim_actuated");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("120 slices of 0.05 s, rk45 (rtol 1e-06, atol 1e-09); exact asked: the actuators' lag "
                       "and limits are flown by rk45\n"),
            std::string::npos)
      << r.out;
  const std::vector<std::string> lines = Lines(ReadAll(csv));
  ASSERT_EQ(lines.size(), 122u);  // header + t = 0 + 120 slices
  EXPECT_EQ(lines[0],
            "t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator,throttle,aileron,rudder,"
            "elevator_surface,throttle_surface,aileron_surface,rudder_surface");
  constexpr double kDeg = 0.017453292519943295;
  double previous = 0.0, deepest = 0.0, fastest = 0.0, commanded = 0.0;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    std::vector<double> v;
    std::istringstream row(lines[k]);
    for (std::string cell; std::getline(row, cell, ',');) v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 21u) << lines[k];
    const double elevator = v[13], surface = v[17];
    commanded = std::max(commanded, std::abs(elevator));
    EXPECT_LE(std::abs(surface), kStopDeg * kDeg) << lines[k];
    if (k > 1) {
      // Within the rate limit from row to row (to the digits written: 17).
      EXPECT_LE(std::abs(surface - previous), kRateDegS * kDeg * kDt * (1 + 1e-12)) << lines[k];
      fastest = std::max(fastest, std::abs(surface - previous) / kDt);
    }
    for (int c = 1; c < 4; ++c) EXPECT_EQ(v[17 + c], v[13 + c]) << lines[k];  // ideal: the command
    deepest = std::max(deepest, std::abs(surface));
    previous = surface;
  }
  // The doublet (the keys ramp the elevator at about 6°/s) asks for more than
  // both limits, and the surface meets them.
  EXPECT_GT(commanded, kStopDeg * kDeg);
  EXPECT_GT(deepest, 0.99 * kStopDeg * kDeg);
  EXPECT_GT(fastest, 0.99 * kRateDegS * kDeg);
  std::remove(csv.c_str());
  std::remove(file.c_str());
}

// A file with a washed-out yaw damper (rudder:r = K through s/(s + 1/τ)):
// the flight carries the filter state and the CSV's rudder_surface column is
// the flown rudder, the pilot's plus K (r − w). Its feedback part f = K (r − w)
// gives w = r − f/K, which must be r low-passed: ẇ = (r − w)/τ = f/(Kτ),
// checked here by central differences of the CSV's columns (O(Δt²); not
// across the pilot's steps, where ẅ jumps).
TEST(SimulateCommand, AWashedOutLoopIsFlownAndItsRudderIsAColumn) {
  const std::string dir = std::string(AEROLIN_BINARY_DIR);
  const std::string file = dir + "/sim_cli_washout.toml";
  const std::string csv = dir + "/sim_cli_washout.csv";
  const std::string script = dir + "/sim_cli_washout.txt";
  constexpr double K = 0.5, tau = 1.5, dt = 0.02;
  std::ofstream(file) << ReadAll(kP2V7)
                      << "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n"
                         "  { input = \"rudder\", output = \"r\", gain = 0.5, washout_s = 1.5 },\n]\n";
  std::ofstream(script) << "1 2 set rudder 0.02\n";
  const auto r = RunAerolin("simulate '" + file + "' --script '" + script + "' --duration 8 --dt 0.02 --integrator "
                            "exact --csv '" + csv + "'",
                            "sim_washout");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("400 slices of 0.02 s, exact"), std::string::npos) << r.out;
  const std::vector<std::string> lines = Lines(ReadAll(csv));
  ASSERT_EQ(lines.size(), 402u);
  EXPECT_EQ(lines[0],
            "t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator,throttle,aileron,rudder,"
            "elevator_surface,throttle_surface,aileron_surface,rudder_surface");
  std::vector<double> yaw_rate, feedback;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    std::vector<double> v;
    std::istringstream row(lines[k]);
    for (std::string cell; std::getline(row, cell, ',');) v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 21u) << lines[k];
    yaw_rate.push_back(v[7]);
    feedback.push_back(v[20] - v[16]);
  }
  double largest = 0.0, worst = 0.0;
  for (std::size_t k = 1; k + 1 < yaw_rate.size(); ++k) {
    const double t = static_cast<double>(k) * dt;
    if (std::abs(t - 1.0) < dt / 2 || std::abs(t - 2.0) < dt / 2) continue;  // ẅ jumps with the pilot's rudder
    const auto w = [&](std::size_t i) { return yaw_rate[i] - feedback[i] / K; };
    const double rate = (w(k + 1) - w(k - 1)) / (2.0 * dt);
    worst = std::max(worst, std::abs(rate - feedback[k] / (K * tau)));
    largest = std::max(largest, std::abs(feedback[k] / (K * tau)));
  }
  EXPECT_GT(largest, 1e-3);              // the filter moved
  EXPECT_LT(worst, 1e-3 * largest);      // and is r's washout
  std::remove(csv.c_str());
  std::remove(file.c_str());
  std::remove(script.c_str());
}

}  // namespace
}  // namespace aerolin
