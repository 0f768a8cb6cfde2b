// The things a new user meets first: --version, help, unknown commands,
// unit spellings, `--csv -`, the simulate summary's units and times, and
// the absence of "-0" in every output.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

const std::string kP2V7 = "data/derivatives/p2v7.toml";
const std::vector<std::string> kAircraft = {
    "data/derivatives/p2v7.toml", "data/derivatives/boeing747_cruise_40kft.toml",
    "data/derivatives/nt33a_power_approach_sl.toml", "data/derivatives/navion_cruise_sl.toml",
    "data/derivatives/a7a_clean_m025_sl.toml"};
constexpr double kRadToDeg = 57.295779513082320876798;
constexpr double kFt = 0.3048;  // m per ft

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> Fields(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, separator);) fields.push_back(field);
  return fields;
}

std::string Temp(const std::string& name) { return std::string(AEROLIN_BINARY_DIR) + "/" + name; }

// ---- --version, help, unknown commands -------------------------------------

// The oracle is the top-level CMakeLists.txt's project(aerolin VERSION x.y.z).
TEST(Cli, VersionPrintsTheProjectVersion) {
  const std::string cmake = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/CMakeLists.txt");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(cmake, m, std::regex(R"(project\(aerolin VERSION ([0-9.]+))")));
  const auto r = RunAerolin("--version", "version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "aerolin " + m[1].str() + "\n");
}

TEST(Cli, HelpDescribesAerolinOrOneCommand) {
  const auto all = RunAerolin("help", "help_all");
  EXPECT_EQ(all.exit_code, 0) << all.err;
  for (const char* command : {"modes", "matrices", "simulate", "plot", "qualities", "bode"})
    EXPECT_NE(all.out.find(command), std::string::npos) << command;
  const auto simulate = RunAerolin("help simulate", "help_sim");
  EXPECT_EQ(simulate.exit_code, 0) << simulate.err;
  EXPECT_NE(simulate.out.find("--duration"), std::string::npos) << simulate.out;
  EXPECT_NE(simulate.out.find("--csv"), std::string::npos) << simulate.out;
  // `help simulate` says what `simulate --help` says.
  EXPECT_EQ(simulate.out, RunAerolin("simulate --help", "help_sim2").out);
  const auto unknown = RunAerolin("help frobnicate", "help_unknown");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_EQ(unknown.err.rfind("error: unknown command 'frobnicate' (commands: modes, ", 0), 0u)
      << unknown.err;
}

TEST(Cli, AnUnknownCommandIsNamedWithTheListAndExitsTwo) {
  const auto r = RunAerolin("simulat " + kP2V7 + " --duration 1", "unknown_cmd");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "error: unknown command 'simulat' (commands: modes, matrices, simulate, plot, "
            "qualities, sweep, locus, tf, bode, rms, augment, trim, linearize, identify, help; aerolin help "
            "COMMAND describes one)\n");
}

// ---- classical approximations ---------------------------------------------

// The issue's example: the 747's 2-DOF Dutch roll, −0.1008 ± 0.9161i against
// the exact −0.03308 ± 0.947i. By hand from those printed roots: ωn 0.9216 vs
// 0.9476 (−2.7 %), ζ 0.1094 vs 0.03491 (+213 %): the old single error column
// read "−2.7 %" for three times the true damping.
TEST(ModesCommand, ApproximationRowsShowTheDampingErrorBesideTheFrequencyError) {
  const auto r = RunAerolin("modes data/derivatives/boeing747_cruise_40kft.toml", "approx747");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  dutch roll        2-DOF (β, r)           -0.1008 ± 0.9161i     "
                       "-0.03308 ± 0.947i     -2.7 %    +213.2 %  -\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ωn error  ζ error   τ error\n"), std::string::npos) << r.out;
}

// ---- units ------------------------------------------------------------------

// `units = "si"` / "IMPERIAL" in a data file read as "SI" / "imperial" do.
TEST(Units, TheDataFilesUnitSystemIsReadInAnyCase) {
  for (const auto& [file, written] :
       std::vector<std::pair<std::string, std::string>>{{kP2V7, "\"imperial\""},
                                                         {kAircraft[1], "\"SI\""}}) {
    std::string text = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/" + file);
    const std::size_t at = text.find("units = " + written);
    ASSERT_NE(at, std::string::npos) << file;
    const auto original = RunAerolin("modes " + file + " --json", "units_orig");
    ASSERT_EQ(original.exit_code, 0) << original.err;
    for (const std::string spelling : {"upper", "lower", "mixed"}) {
      std::string system = written.substr(1, written.size() - 2);
      for (std::size_t i = 0; i < system.size(); ++i)
        system[i] = spelling == "upper"   ? static_cast<char>(std::toupper(system[i]))
                    : spelling == "lower" ? static_cast<char>(std::tolower(system[i]))
                    : i == 0              ? static_cast<char>(std::toupper(system[i]))
                                          : static_cast<char>(std::tolower(system[i]));
      std::string changed = text;
      changed.replace(at, 8 + written.size(), "units = \"" + system + "\"");
      const std::string path = Temp("units_case_" + spelling + ".toml");
      std::ofstream(path) << changed;
      const auto r = RunAerolin("modes '" + path + "' --json", "units_case");
      std::remove(path.c_str());
      ASSERT_EQ(r.exit_code, 0) << system << ": " << r.err;
      nlohmann::json a = nlohmann::json::parse(r.out), b = nlohmann::json::parse(original.out);
      a.erase("file");
      b.erase("file");
      EXPECT_EQ(a, b) << system;
    }
  }
}

TEST(Units, ModesImperialShowsGravityInFeetPerSecondSquaredAndTheFlagIgnoresCase) {
  const auto r = RunAerolin("modes " + kP2V7 + " --units IMPERIAL", "units_g");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 9.80665 / 0.3048 = 32.174 ft/s²
  EXPECT_NE(r.out.find("trim: U0 = 293.8 ft/s, θ0 = 0.00°, g = 32.17 ft/s²\n"), std::string::npos)
      << r.out;
  const auto si = RunAerolin("modes " + kP2V7, "units_g_si");
  EXPECT_NE(si.out.find(", g = 9.807 m/s²\n"), std::string::npos) << si.out;
}

// With --units imperial, u is in ft/s: every entry of A and B is the SI one
// times (row factor)/(column factor), factor 1/0.3048 for u and 1 otherwise.
TEST(Units, MatricesAcceptUnitsAndScaleTheSpeedRowAndColumn) {
  const auto si = RunAerolin("matrices " + kP2V7 + " --json", "mat_si");
  const auto ft = RunAerolin("matrices " + kP2V7 + " --json --units imperial", "mat_ft");
  ASSERT_EQ(si.exit_code, 0) << si.err;
  ASSERT_EQ(ft.exit_code, 0) << ft.err;
  const nlohmann::json a = nlohmann::json::parse(si.out), b = nlohmann::json::parse(ft.out);
  for (const char* axis : {"longitudinal", "lateral"}) {
    const nlohmann::json& states = b[axis]["states"];
    auto factor = [&](const nlohmann::json& signal) {
      return signal["unit"] == "ft/s" ? 1.0 / kFt : 1.0;
    };
    for (const char* matrix : {"A", "B"}) {
      const nlohmann::json& cols = std::string(matrix) == "A" ? states : b[axis]["inputs"];
      for (std::size_t i = 0; i < states.size(); ++i)
        for (std::size_t j = 0; j < cols.size(); ++j)
          EXPECT_NEAR(b[axis][matrix][i][j].get<double>(),
                      a[axis][matrix][i][j].get<double>() * factor(states[i]) / factor(cols[j]),
                      1e-12 * (1.0 + std::abs(b[axis][matrix][i][j].get<double>())))
              << axis << " " << matrix << "(" << i << ", " << j << ")";
    }
  }
  EXPECT_EQ(b["longitudinal"]["states"][0]["unit"], "ft/s");
  EXPECT_EQ(a["longitudinal"]["states"][0]["unit"], "m/s");
  // A(u, θ) = −g: −32.174 ft/s² per rad.
  EXPECT_NEAR(b["longitudinal"]["A"][0][3].get<double>(), -9.80665 / kFt, 1e-9);
  const auto text = RunAerolin("matrices " + kP2V7 + " --units imperial", "mat_ft_text");
  EXPECT_NE(text.out.find("u [ft/s]"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("-32.174"), std::string::npos) << text.out;
}

// ---- --csv - -----------------------------------------------------------------

// Standard output is the CSV alone, byte for byte the file --csv FILE
// writes; the summary goes to stderr.
TEST(CsvToStandardOutput, SimulateWritesTheCsvAloneAndTheSummaryToStderr) {
  const std::string run = "simulate " + kP2V7 +
                          " --script tests/fixtures/scripts/elevator_doublet.txt --duration 5";
  const std::string csv = Temp("csv_dash_sim.csv");
  const auto to_file = RunAerolin(run + " --csv '" + csv + "'", "csv_file");
  const auto to_stdout = RunAerolin(run + " --csv -", "csv_stdout");
  ASSERT_EQ(to_file.exit_code, 0) << to_file.err;
  ASSERT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, ReadAll(csv));
  std::remove(csv.c_str());
  EXPECT_EQ(to_stdout.out.rfind("t,u,alpha,", 0), 0u);
  EXPECT_EQ(to_stdout.err, to_file.out.substr(0, to_file.out.find("cost per slice")) +
                               to_stdout.err.substr(to_stdout.err.find("cost per slice")));
  const auto json = RunAerolin(run + " --csv - --json", "csv_stdout_json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, to_stdout.out);
  EXPECT_EQ(nlohmann::json::parse(json.err)["slices"], 50);
  EXPECT_FALSE(std::ifstream("-").good()) << "a file named '-' was written";
}

TEST(CsvToStandardOutput, BodeAndSweepToo) {
  for (const std::string& args :
       {"bode " + kP2V7 + " --input elevator --output q --points 20",
        "sweep " + kP2V7 + " --param longitudinal.Mq --from -2 --to -0.5 --steps 4"}) {
    const std::string csv = Temp("csv_dash_other.csv");
    const auto to_file = RunAerolin(args + " --csv '" + csv + "'", "csv_other_file");
    const auto to_stdout = RunAerolin(args + " --csv -", "csv_other_stdout");
    ASSERT_EQ(to_file.exit_code, 0) << args << ": " << to_file.err;
    ASSERT_EQ(to_stdout.exit_code, 0) << args << ": " << to_stdout.err;
    EXPECT_EQ(to_stdout.out, ReadAll(csv)) << args;
    EXPECT_EQ(to_stdout.err, to_file.out) << args;
    std::remove(csv.c_str());
  }
}

// ---- simulate: times on the slice grid, summary in degrees -------------------

// The t column is exactly the decimals k·dt ("0.3", not "0.30000000000000004").
TEST(SimulateSummary, CsvAndJsonTimesAreTheDecimalsOfTheSliceGrid) {
  for (const auto& [dt, slices] : std::vector<std::pair<std::string, int>>{{"0.1", 30}, {"0.05", 60}, {"0.3", 10}}) {
    const auto r = RunAerolin("simulate " + kP2V7 + " --excite phugoid --dt " + dt +
                                  " --duration 3 --csv - --json",
                              "grid");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(slices + 2)) << dt;
    const int decimals = static_cast<int>(dt.size()) - 2;
    for (int k = 0; k <= slices; ++k) {
      // The decimal k·dt written by hand: integer arithmetic on the digits.
      const long hundredths = std::lround(std::stod(dt) * std::pow(10, decimals)) * k;
      std::string expected = std::to_string(hundredths);
      if (decimals > 0) {
        while (static_cast<int>(expected.size()) <= decimals) expected.insert(0, "0");
        expected.insert(expected.size() - decimals, ".");
        while (expected.back() == '0') expected.pop_back();
        if (expected.back() == '.') expected.pop_back();
      }
      EXPECT_EQ(Fields(lines[k + 1], ',')[0], expected) << "dt " << dt << ", k " << k;
    }
    const nlohmann::json j = nlohmann::json::parse(r.err);
    EXPECT_EQ(j["final"]["t"].dump(), "3.0");
    for (const auto& [name, e] : j["max_excursions"].items()) {
      const double t = e["t"].get<double>();
      const std::string written = e["t"].dump();
      EXPECT_LE(written.size(), 6u) << name << " t = " << written;  // e.g. "12.35", not 17 digits
      EXPECT_NEAR(t / std::stod(dt), std::round(t / std::stod(dt)), 1e-9) << name;
    }
  }
}

struct SummaryRow {
  double final_value = 0.0, max_magnitude = 0.0, at = 0.0;
  std::string unit;
};

// The text summary's state table, by state name.
std::map<std::string, SummaryRow> StateTable(const std::string& text) {
  std::map<std::string, SummaryRow> rows;
  bool in_table = false;
  for (const std::string& line : Lines(text)) {
    if (line.rfind("state ", 0) == 0) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.rfind("altitude change", 0) == 0) break;
    std::istringstream in(line);
    std::string name;
    SummaryRow row;
    in >> name >> row.final_value >> row.max_magnitude >> row.at >> row.unit;
    rows[name] = row;
  }
  return rows;
}

// The text shows angles in deg and rates in deg/s (as the window's HUD),
// lengths and speeds in --units, and max |x| as a magnitude: each checked
// against the JSON's SI, signed values of the same run.
TEST(SimulateSummary, TextIsInDegreesAndUnitsAndMaxIsAMagnitude) {
  for (const std::string units : {"si", "imperial"}) {
    const std::string run = "simulate " + kP2V7 +
                            " --script tests/fixtures/scripts/elevator_doublet.txt "
                            "--excite dutch-roll --duration 10 --units " + units;
    const auto text = RunAerolin(run, "deg_text");
    const auto json = RunAerolin(run + " --json", "deg_json");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    const std::map<std::string, SummaryRow> rows = StateTable(text.out);
    ASSERT_EQ(rows.size(), 12u) << text.out;
    const double length = units == "si" ? 1.0 : 1.0 / kFt;
    const std::map<std::string, std::pair<double, std::string>> expected_units = {
        {"u", {length, units == "si" ? "m/s" : "ft/s"}},
        {"alpha", {kRadToDeg, "deg"}}, {"q", {kRadToDeg, "deg/s"}},
        {"theta", {kRadToDeg, "deg"}}, {"beta", {kRadToDeg, "deg"}},
        {"p", {kRadToDeg, "deg/s"}},   {"r", {kRadToDeg, "deg/s"}},
        {"phi", {kRadToDeg, "deg"}},   {"psi", {kRadToDeg, "deg"}},
        {"north", {length, units == "si" ? "m" : "ft"}},
        {"east", {length, units == "si" ? "m" : "ft"}},
        {"down", {length, units == "si" ? "m" : "ft"}}};
    int negative = 0;
    for (const auto& [name, scale_unit] : expected_units) {
      const SummaryRow& row = rows.at(name);
      EXPECT_EQ(row.unit, scale_unit.second) << name;
      const double max_si = j["max_excursions"][name]["value"].get<double>();
      if (max_si < 0.0) ++negative;
      EXPECT_GE(row.max_magnitude, 0.0) << name;
      // printed with 6 significant digits
      EXPECT_NEAR(row.max_magnitude, std::abs(max_si) * scale_unit.first,
                  1e-5 * std::abs(max_si) * scale_unit.first + 1e-12)
          << name;
      const double final_si = j["final"]["state"][name].get<double>();
      EXPECT_NEAR(row.final_value, final_si * scale_unit.first,
                  1e-5 * std::abs(final_si) * scale_unit.first + 1e-12)
          << name;
      EXPECT_DOUBLE_EQ(row.at, j["max_excursions"][name]["t"].get<double>()) << name;
    }
    EXPECT_GT(negative, 0) << "the run should have some negative extreme to show as |x|";
    const std::string altitude =
        "altitude change " +
        [&] {
          std::ostringstream s;
          s.precision(6);
          s << j["final"]["altitude_change_m"].get<double>() * length;
          return s.str();
        }() +
        (units == "si" ? " m\n" : " ft\n");
    EXPECT_NE(text.out.find(altitude), std::string::npos) << altitude << text.out;
    EXPECT_NE(text.out.find("  beta   peak "), std::string::npos);
    EXPECT_NE(text.out.find(" deg "), std::string::npos);
  }
}

// ---- no "-0" anywhere ----------------------------------------------------------

// A negative zero as printed: "-0", "-0.0", "-0.000", "-0e+00", not "-0.5".
const std::regex kNegativeZero(R"((^|[^0-9A-Za-z_.])-0(\.0*)?([eE][-+]?[0-9]+)?(?![0-9.]))");

void ExpectNoNegativeZero(const std::string& text, const std::string& what) {
  std::smatch m;
  if (std::regex_search(text, m, kNegativeZero)) {
    const std::size_t at = static_cast<std::size_t>(m.position(0));
    const std::size_t from = text.rfind('\n', at);
    const std::size_t to = text.find('\n', at);
    ADD_FAILURE() << what << ": \"-0\" in line: "
                  << text.substr(from == std::string::npos ? 0 : from + 1,
                                 to == std::string::npos ? std::string::npos : to - from - 1);
  }
}

TEST(NoNegativeZero, RegexFindsNegativeZerosOnly) {
  for (const char* bad : {"-0", "x -0\n", "1,-0,2", "-0.0", "-0.000 %", "[-0e+00]", "= -0.0}"})
    EXPECT_TRUE(std::regex_search(std::string(bad), kNegativeZero)) << bad;
  for (const char* good : {"-0.5", "-0.01", "-0.000123", "10-0", "e-05", "1e-0", "t-0x", "0", "-10"})
    EXPECT_FALSE(std::regex_search(std::string(good), kNegativeZero)) << good;
}

TEST(NoNegativeZero, InAnyOutputOfTheFiveBundledAircraft) {
  for (const std::string& file : kAircraft) {
    std::vector<std::string> runs = {"modes " + file, "modes " + file + " --json",
                                     "modes " + file + " --units imperial",
                                     "matrices " + file, "matrices " + file + " --json",
                                     "matrices " + file + " --units imperial --json",
                                     "modes " + file + " --sensitivity",
                                     "modes " + file + " --sensitivity --json",
                                     "tf " + file + " --input elevator --all",
                                     "tf " + file + " --input elevator --all --json",
                                     "tf " + file + " --input rudder --all --json",
                                     "bode " + file + " --input elevator --output q --csv -",
                                     "bode " + file + " --input elevator --output q --json",
                                     "qualities " + file, "qualities " + file + " --json",
                                     "sweep " + file +
                                         " --param longitudinal.Mq --from -2 --to -0.5 --steps 4 "
                                         "--csv - --json",
                                     "locus " + file + " --loop rudder:r --washout 1.5 --gain 0:3:7",
                                     "locus " + file + " --loop elevator:q --gain 0:1:5 --json"};
    for (const char* mode : {"short-period", "phugoid", "dutch-roll", "roll", "spiral"})
      for (const char* form : {"", " --json", " --units imperial"})
        runs.push_back("simulate " + file + " --excite " + mode + " --duration 4 --csv -" + form);
    for (const std::string& run : runs) {
      const auto r = RunAerolin(run, "negzero");
      if (r.exit_code == 1 && r.err.find(" has no ") != std::string::npos) continue;  // no such mode
      ASSERT_EQ(r.exit_code, 0) << run << ": " << r.err;
      ExpectNoNegativeZero(r.out, run + " (stdout)");
      ExpectNoNegativeZero(r.err, run + " (stderr)");
    }
  }
}

// The coefficient files (not in kAircraft: `--sensitivity` and `sweep` refuse
// them), with the dimensional-derivative block of `modes --verbose` and
// `matrices`. A lift/drag file's C_Xq = −C_Dq and C_Zq = −C_Lq of a 0 are −0.
TEST(NoNegativeZero, InAnyOutputOfTheBundledCoefficientFiles) {
  for (const std::string file : {"data/derivatives/boeing747_cruise_40kft_coefficients.toml",
                                 "data/derivatives/navion_cruise_sl_coefficients.toml"}) {
    for (const std::string& run :
         {"modes " + file + " --verbose", "modes " + file + " --verbose --units imperial",
          "modes " + file + " --json", "matrices " + file, "matrices " + file + " --json",
          "matrices " + file + " --units imperial --json", "qualities " + file,
          "tf " + file + " --input elevator --all",
          "simulate " + file + " --excite phugoid --duration 4 --csv -"}) {
      const auto r = RunAerolin(run, "negzero_coefficients");
      ASSERT_EQ(r.exit_code, 0) << run << ": " << r.err;
      ExpectNoNegativeZero(r.out, run + " (stdout)");
      ExpectNoNegativeZero(r.err, run + " (stderr)");
    }
  }
}

}  // namespace
}  // namespace aerolin
