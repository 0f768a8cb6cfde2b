// `aerolin trim` and `aerolin linearize`: units of the flags, the JSON
// schema, the exit code of a trim that does not exist, and a written file
// that every command reads.

#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

constexpr double kFt = 0.3048;  // m per ft
constexpr double kDeg = 0.017453292519943295;

double Variable(const nlohmann::json& doc, const std::string& name) {
  for (const nlohmann::json& v : doc["variables"])
    if (v["name"] == name) return v["value"].get<double>();
  ADD_FAILURE() << "no variable " << name;
  return NAN;
}

TEST(TrimCommand, FlagsInTheFilesUnitsAndJsonInSI) {
  const auto r = RunAerolin(
      "trim data/derivatives/p2v7.toml --speed 293.8 --altitude 1000 --turn-rate 3 --json", "trim1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "aerolin.trim/1");
  EXPECT_DOUBLE_EQ(doc["request"]["speed"].get<double>(), 293.8 * kFt);
  EXPECT_DOUBLE_EQ(doc["request"]["altitude"].get<double>(), 1000 * kFt);
  EXPECT_DOUBLE_EQ(Variable(doc, "turn_rate"), 3 * kDeg);
  // Level coordinated turn: n = 1/cos μ, tan μ = Vψ̇/g.
  const double mu = std::atan(293.8 * kFt * 3 * kDeg / 9.80665);
  EXPECT_NEAR(Variable(doc, "load_factor"), 1 / std::cos(mu), 1e-9);
  EXPECT_EQ(doc["residuals"].size(), 6u);
}

TEST(TrimCommand, NoTrimExitsFourNamingTheLimitAndTheEquationLeft) {
  const auto r = RunAerolin("trim data/derivatives/p2v7.toml --speed 150 --altitude 0", "trim2");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("error: trim: no trim within the limits at V = 45.72 m/s"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("alpha would be"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is left at"), std::string::npos) << r.err;
}

TEST(TrimCommand, UsageErrors) {
  const auto both = RunAerolin(
      "trim data/derivatives/p2v7.toml --speed 293.8 --altitude 0 --turn-rate 3 --bank 30", "trim3");
  EXPECT_EQ(both.exit_code, 2);
  const auto no_speed = RunAerolin("trim data/derivatives/p2v7.toml --altitude 0", "trim4");
  EXPECT_EQ(no_speed.exit_code, 2);
  EXPECT_NE(no_speed.err.find("--speed is required"), std::string::npos) << no_speed.err;
  const auto turn = RunAerolin("linearize data/derivatives/p2v7.toml --bank 30", "trim5");
  EXPECT_EQ(turn.exit_code, 2);
  EXPECT_NE(turn.err.find("error: linearize: aerolin's linear model is about wings-level"),
            std::string::npos)
      << turn.err;
}

// With no trim option, linearize is at the file's reference: the written
// file's modes are the original's (the round trip, through the loader).
TEST(LinearizeCommand, WrittenFileAtTheReferenceHasTheOriginalsModes) {
  const std::string out = std::string(AEROLIN_BINARY_DIR) + "/cli_test_linearized.toml";
  std::remove(out.c_str());
  const auto lin = RunAerolin(
      "linearize data/derivatives/boeing747_cruise_40kft.toml --json --write '" + out + "'", "lin1");
  ASSERT_EQ(lin.exit_code, 0) << lin.err;
  EXPECT_EQ(lin.err, "wrote " + out + " (the linearization as a data file: every command reads it)\n");
  const nlohmann::json doc = nlohmann::json::parse(lin.out);
  EXPECT_EQ(doc["schema"], "aerolin.linearize/1");
  EXPECT_LT(doc["accuracy"]["derivative_error"].get<double>(), 1e-9);
  EXPECT_EQ(doc["A"].size(), 9u);

  const auto mine = RunAerolin("modes '" + out + "' --json", "lin2");
  ASSERT_EQ(mine.exit_code, 0) << mine.err;
  const auto theirs = RunAerolin("modes data/derivatives/boeing747_cruise_40kft.toml --json", "lin3");
  const nlohmann::json a = nlohmann::json::parse(mine.out), b = nlohmann::json::parse(theirs.out);
  for (const char* axis : {"longitudinal", "lateral"}) {
    ASSERT_EQ(a[axis]["modes"].size(), b[axis]["modes"].size());
    for (std::size_t k = 0; k < a[axis]["modes"].size(); ++k) {
      const nlohmann::json& x = a[axis]["modes"][k];
      const nlohmann::json& y = b[axis]["modes"][k];
      EXPECT_EQ(x["name"], y["name"]);
      EXPECT_NEAR(x["eigenvalue_per_s"]["re"].get<double>(), y["eigenvalue_per_s"]["re"].get<double>(),
                  1e-9 * (1 + std::abs(y["eigenvalue_per_s"]["re"].get<double>())));
      EXPECT_NEAR(x["eigenvalue_per_s"]["im"].get<double>(), y["eigenvalue_per_s"]["im"].get<double>(),
                  1e-9 * (1 + std::abs(y["eigenvalue_per_s"]["im"].get<double>())));
    }
  }
  // The written file must not be overwritten by another --write of itself.
  const auto self = RunAerolin("linearize '" + out + "' --write '" + out + "'", "lin4");
  EXPECT_EQ(self.exit_code, 2);
}

// --model both: one CSV with the linear flight, the nonlinear one in the same
// perturbation form and their difference; the summary says when they part.
TEST(SimulateModelBoth, CsvHoldsBothAndTheSummaryWhenTheyPart) {
  const std::string csv = std::string(AEROLIN_BINARY_DIR) + "/cli_test_both.csv";
  const auto r = RunAerolin("simulate data/derivatives/p2v7.toml --excite dutch-roll --amplitude 0.3 "
                            "--duration 20 --model both --csv '" + csv + "'",
                            "both1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Nonlinear beside linear (a state parts when they differ by more than 10 % of "
                       "its linear peak): u after 0.1 s"),
            std::string::npos)
      << r.out;
  const std::string text = testing_cli::ReadAll(csv);
  const std::string header = text.substr(0, text.find('\n'));
  EXPECT_EQ(header.rfind("t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,elevator,throttle,aileron,rudder,"
                         "nl_u,nl_alpha,",
                         0),
            0u)
      << header;
  EXPECT_NE(header.find(",d_phi,d_psi,d_north,d_east,d_down"), std::string::npos) << header;
  // 201 rows and the header.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 202);
}

// A departed nonlinear flight stops in every front end as in the window
// (sim::NonlinearShadow's rule; tests/viz's HudModel test flies the same
// F-16 Dutch roll): with --model both the linear flight goes on to 20 s and
// the CSV's nl_/d_ columns are empty from the departure, the warning says
// what and when; with --model nonlinear the flight written stops there
// (exit 3, as a diverged linear flight) at the same time; plot says the same.
TEST(SimulateModelBoth, ADepartedNonlinearFlightStopsAndTheLinearOneGoesOn) {
  const std::string flight = "simulate data/derivatives/f16_tables_sl.toml --excite dutch-roll --amplitude 0.8 "
                             "--duration 20 --quiet";
  const std::string csv = std::string(AEROLIN_BINARY_DIR) + "/cli_test_f16_departed.csv";
  const auto both = RunAerolin(flight + " --model both --csv '" + csv + "'", "departed_both");
  ASSERT_EQ(both.exit_code, 0) << both.err;
  const std::string kWarning = "warning: nonlinear flight departed (state diverged at t = ";
  const std::size_t at = both.err.find(kWarning);
  ASSERT_NE(at, std::string::npos) << both.err;
  const double t_departed = std::stod(both.err.substr(at + kWarning.size()));
  EXPECT_GT(t_departed, 1.0);
  EXPECT_LT(t_departed, 20.0);
  EXPECT_NE(both.err.find("alpha0 + alpha reached 90 deg: body velocity undefined): it stops there, the "
                          "linear flight goes on (the CSV's nl_ and d_ columns are empty from then on)"),
            std::string::npos)
      << both.err;
  std::istringstream text(testing_cli::ReadAll(csv));
  std::string line;
  std::getline(text, line);  // header
  int rows = 0, flown = 0;
  double last_t = 0.0;
  while (std::getline(text, line)) {
    ++rows;
    last_t = std::stod(line);
    const std::string empty(24, ',');  // 12 nl_ and 12 d_ columns
    const bool empty_nonlinear =
        line.size() > empty.size() && line.compare(line.size() - empty.size(), empty.size(), empty) == 0;
    if (!empty_nonlinear) {
      ++flown;
      EXPECT_LT(last_t, t_departed) << line;
    } else {
      EXPECT_GE(last_t, t_departed - 1e-9) << line;
    }
  }
  EXPECT_EQ(rows, 201) << "the linear flight flew on to 20 s";
  EXPECT_NEAR(last_t, 20.0, 1e-9);
  EXPECT_NEAR(flown * 0.1, t_departed, 1e-9) << "rows 0 .. t_departed - dt hold the nonlinear flight";
  std::remove(csv.c_str());

  const auto alone = RunAerolin(flight + " --model nonlinear --csv '" + csv + "'", "departed_nl");
  EXPECT_EQ(alone.exit_code, 3) << alone.err;
  std::ostringstream expected;  // the time as {:g} prints it
  expected << "warning: state diverged at t = " << t_departed
           << " s: alpha0 + alpha reached 90 deg: body velocity undefined; run stopped";
  EXPECT_NE(alone.err.find(expected.str()), std::string::npos)
      << alone.err;
  EXPECT_NE(alone.out.find("STOPPED: state diverged at t = "), std::string::npos) << alone.out;
  const std::string nonlinear = testing_cli::ReadAll(csv);
  EXPECT_EQ(std::count(nonlinear.begin(), nonlinear.end(), '\n'), flown + 1) << "the header and the flown rows";
  std::remove(csv.c_str());

  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_plot_departed";
  const auto plot = RunAerolin("plot data/derivatives/f16_tables_sl.toml --excite dutch-roll --amplitude 0.8 "
                               "--duration 20 --model both --format svg --width 800 --height 600 --out '" +
                                   prefix + "'",
                               "departed_plot");
  ASSERT_EQ(plot.exit_code, 0) << plot.err;
  EXPECT_NE(plot.err.find(both.err.substr(at, both.err.find(" (the CSV's", at) - at)), std::string::npos)
      << plot.err;
  for (const char* figure : {"_trajectory", "_track", "_history", "_splane"})
    std::remove((prefix + figure + ".svg").c_str());
}

TEST(SimulateModelBoth, RefusesWhatTheNonlinearModelDoesNotFly) {
  const auto windy = RunAerolin(
      "simulate data/derivatives/p2v7.toml --duration 5 --turbulence light --model nonlinear", "both2");
  EXPECT_EQ(windy.exit_code, 2);
  EXPECT_EQ(windy.err,
            "error: --model nonlinear: the nonlinear model flies no turbulence or gusts yet: fly them "
            "with the linear model\n");
}

// The bundled F-16's tables: a trim past their stall exits 4 with the lift it
// needs; a flight that leaves them warns once, naming the tables and the value.
TEST(TrimCommand, F16PastTheStallExitsFourWithTheLiftItNeeds) {
  const auto r = RunAerolin("trim data/derivatives/f16_tables_sl.toml --speed 140 --altitude 0", "f16trim");
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("error: trim: no trim within the limits at V = 42.672 m/s, h = 0 m, gamma = 0 rad: past "
                       "the stall: needs C_L 2.932 > C_L,max 1.826 at alpha 36.35 deg"),
            std::string::npos)
      << r.err;
}

TEST(SimulateModelBoth, F16LeavingItsTablesWarnsOncePerVariable) {
  const std::string csv = std::string(AEROLIN_BINARY_DIR) + "/cli_test_f16_departs.csv";
  const auto r = RunAerolin("simulate data/derivatives/f16_tables_sl.toml --excite short-period --amplitude 0.5 "
                            "--duration 10 --model nonlinear --csv '" + csv + "'",
                            "f16sim");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = "warning: nonlinear flight: alpha = ";
  const std::size_t at = r.err.find(line);
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(line, at + 1), std::string::npos) << r.err;  // once
  EXPECT_NE(r.err.find(" is past the tables CX, CZ, Cm, CXq, CZq, Cmq, -10..45 deg (held at their edge "
                       "values), from t = "),
            std::string::npos)
      << r.err;
  // Hands off at the reference, the flight stays inside its tables: no warning.
  const auto calm = RunAerolin("simulate data/derivatives/f16_tables_sl.toml --duration 5 --model nonlinear",
                               "f16calm");
  ASSERT_EQ(calm.exit_code, 0) << calm.err;
  EXPECT_EQ(calm.err.find("nonlinear flight:"), std::string::npos) << calm.err;
}

}  // namespace
}  // namespace aerolin
