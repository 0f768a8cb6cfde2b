// `aerolin identify` end to end: a flight simulated with `simulate --noise`,
// identified; the estimates against the file's values (the truth), the
// written file against `modes`, equation error against numpy, and the bad
// inputs' messages.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

const std::string kP2V7 = "data/derivatives/p2v7.toml";
const std::string kFree = "longitudinal.Ma,longitudinal.Mq,controls.elevator.M,longitudinal.Za";
const std::string kNoise = "u=0.05,alpha=0.001,q=0.001,theta=0.001";

std::string Temp(const std::string& name) { return std::string(AEROLIN_BINARY_DIR) + "/identify_" + name; }

// The longitudinal flight of docs/identify.md: 45 s of the 3-2-1-1 script.
std::string Flight(const std::string& name, const std::string& extra = "") {
  const std::string csv = Temp(name);
  const auto r = RunAerolin("simulate " + kP2V7 + " --script examples/scripts/c_elevator_3211.txt --duration 45 "
                            "--dt 0.05 --integrator exact --csv '" + csv + "' --noise " + kNoise + " " + extra,
                            "identify_sim_" + name);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return csv;
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(IdentifyCommand, EstimatesTheTruthWithinTheirErrorsAndWritesAFileModesReads) {
  const std::string csv = Flight("truth.csv");
  const std::string out = Temp("identified.toml");
  std::remove(out.c_str());
  const auto r = RunAerolin("identify " + kP2V7 + " --flight '" + csv + "' --axis longitudinal --free " + kFree +
                                " --json --write '" + out + "'",
                            "identify_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "aerolin.identify/1");
  EXPECT_EQ(j["method"], "output-error");
  EXPECT_TRUE(j["converged"].get<bool>());
  const std::map<std::string, double> truth = {{"longitudinal.Ma", -3.78},
                                               {"longitudinal.Mq", -0.992},
                                               {"controls.elevator.M", -2.48},
                                               {"longitudinal.Za", -236.0}};
  for (const auto& e : j["estimates"]) {
    const std::string key = e["key"];
    if (!truth.count(key)) continue;
    // One seed: each within 3 standard errors (a 0.27 % false alarm per key).
    EXPECT_LT(std::abs(e["value"].get<double>() - truth.at(key)), 3 * e["std_error"].get<double>()) << key;
    EXPECT_GT(e["std_error"].get<double>(), 0.0) << key;
  }
  // The written file keeps every other line and gives identify's modes.
  const std::string written = ReadAll(out);
  const std::string original = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/" + kP2V7);
  EXPECT_NE(written.find("# Lockheed P2V-7 Neptune: the seed program's aircraft."), std::string::npos);
  EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), std::count(original.begin(), original.end(), '\n'));
  const auto modes = RunAerolin("modes '" + out + "' --json", "identify_modes");
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  const nlohmann::json m = nlohmann::json::parse(modes.out);
  const auto& sp = m["longitudinal"]["modes"][0];
  ASSERT_EQ(sp["name"], "short period");
  ASSERT_EQ(j["modes"][0]["mode"], "short period");
  // The same A (the written decimals round-trip) → the same eigenvalue to rounding.
  EXPECT_NEAR(sp["eigenvalue_per_s"]["re"].get<double>(), j["modes"][0]["eigenvalue_per_s"]["re"].get<double>(), 1e-10);
  EXPECT_NEAR(sp["eigenvalue_per_s"]["im"].get<double>(), j["modes"][0]["eigenvalue_per_s"]["im"].get<double>(), 1e-10);
}

TEST(IdentifyCommand, EquationErrorAgreesWithNumpyLstsq) {
  const std::string csv = Flight("ee.csv");
  const auto mat = RunAerolin("matrices " + kP2V7 + " --json", "identify_matrices");
  ASSERT_EQ(mat.exit_code, 0) << mat.err;
  WriteText(Temp("ee_matrices.json"), mat.out);
  const auto r = RunAerolin("identify " + kP2V7 + " --flight '" + csv +
                                "' --axis longitudinal --free longitudinal.Ma,longitudinal.Mq,controls.elevator.M "
                                "--method equation-error --json",
                            "identify_ee");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  WriteText(Temp("ee_identify.json"), r.out);
  const std::string command = "/usr/bin/python3 '" + std::string(AEROLIN_SOURCE_DIR) +
                              "/tests/cli/identify_lstsq.py' '" + csv + "' '" + Temp("ee_matrices.json") + "' '" +
                              Temp("ee_identify.json") + "' > '" + Temp("ee_numpy.txt") + "' 2>&1";
  const int status = std::system(command.c_str());
  const std::string report = ReadAll(Temp("ee_numpy.txt"));
  std::printf("%s", report.c_str());
  EXPECT_EQ(status, 0) << report;
}

TEST(IdentifyCommand, NoiseIsSeededAndOnlyInTheColumnsNamed) {
  const std::string a = ReadAll(Flight("seed1a.csv"));
  const std::string b = ReadAll(Flight("seed1b.csv"));
  const std::string c = ReadAll(Flight("seed2.csv", "--noise-seed 2"));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // The 13th column on (beta...) has no noise: the lateral states stay 0.
  const std::string row = a.substr(a.find('\n') + 1, a.find('\n', a.find('\n') + 1) - a.find('\n') - 1);
  EXPECT_NE(row.find(",0,0,0,0,0,"), std::string::npos) << row;
  const auto bad = RunAerolin("simulate " + kP2V7 + " --duration 1 --csv '" + Temp("bad.csv") + "' --noise alfa=0.1",
                              "identify_noise_bad");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("--noise: no column 'alfa' (the CSV's columns: u,alpha,q,theta,"), std::string::npos)
      << bad.err;
  const auto no_csv = RunAerolin("simulate " + kP2V7 + " --duration 1 --noise alpha=0.1", "identify_noise_nocsv");
  EXPECT_EQ(no_csv.exit_code, 2);
  EXPECT_NE(no_csv.err.find("--noise adds noise to the CSV's columns: it needs --csv"), std::string::npos);
  // --model both writes two flights in one CSV: which one the noise is for is not said, so it is refused.
  const auto both = RunAerolin("simulate " + kP2V7 + " --duration 1 --model both --csv - --noise alpha=0.1",
                               "identify_noise_both");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--noise adds noise to one flight's CSV: not with --model both"), std::string::npos)
      << both.err;
}

// The simulate CSV rewritten as a foreign log: other names, degrees, ft/s,
// milliseconds, the columns in another order. Read through --columns it
// gives the original's estimates to rounding (the map converts each value
// once, as read).
TEST(IdentifyCommand, ColumnsReadAForeignCsvToTheSameEstimates) {
  const std::string csv = Flight("columns_si.csv");
  const std::string text = ReadAll(csv);
  std::vector<std::vector<std::string>> rows;
  for (std::size_t at = 0, next; at < text.size(); at = next + 1) {
    next = text.find('\n', at);
    std::vector<std::string> cells;
    const std::string line = text.substr(at, next - at);
    for (std::size_t c = 0, comma; c <= line.size(); c = comma + 1) {
      comma = line.find(',', c);
      if (comma == std::string::npos) comma = line.size();
      cells.push_back(line.substr(c, comma - c));
    }
    rows.push_back(cells);
    if (next == std::string::npos) break;
  }
  const double deg = 180.0 / 3.14159265358979323846;
  // aerolin name -> (foreign name, factor from SI to the foreign unit)
  const std::map<std::string, std::pair<std::string, double>> foreign = {
      {"t", {"time_ms", 1000.0}},     {"u", {"V_fps", 1.0 / 0.3048}}, {"alpha", {"AoA_deg", deg}},
      {"q", {"pitch_rate", deg}},     {"theta", {"Theta", deg}},      {"elevator", {"dE", deg}}};
  std::string out;
  const std::vector<std::string>& header = rows[0];
  // Columns in reverse order: the map finds them by name.
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != header.size()) continue;
    std::string line;
    for (std::size_t c = header.size(); c-- > 0;) {
      const auto f = foreign.find(header[c]);
      std::string cell = rows[r][c];
      if (f != foreign.end()) {
        if (r == 0) {
          cell = f->second.first;
        } else {
          char buffer[40];
          std::snprintf(buffer, sizeof buffer, "%.17g", std::stod(cell) * f->second.second);
          cell = buffer;
        }
      }
      line += (line.empty() ? "" : ",") + cell;
    }
    out += line + "\n";
  }
  WriteText(Temp("columns_foreign.csv"), out);
  const std::string map = "t=time_ms:ms,u=V_fps:ft/s,alpha=AoA_deg:deg,q=pitch_rate:deg/s,theta=Theta:deg,elevator=dE:deg";
  for (const std::string method : {"output-error", "equation-error"}) {
    const auto a = RunAerolin("identify " + kP2V7 + " --flight '" + csv + "' --axis longitudinal --free " + kFree +
                                  " --json --method " + method,
                              "identify_columns_si");
    const auto b = RunAerolin("identify " + kP2V7 + " --flight '" + Temp("columns_foreign.csv") +
                                  "' --axis longitudinal --free " + kFree + " --json --method " + method +
                                  " --columns " + map,
                              "identify_columns_foreign");
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    const nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    ASSERT_EQ(ja["estimates"].size(), jb["estimates"].size());
    EXPECT_EQ(ja["samples"], jb["samples"]);
    for (std::size_t i = 0; i < ja["estimates"].size(); ++i) {
      const auto &ea = ja["estimates"][i], &eb = jb["estimates"][i];
      EXPECT_EQ(ea["key"], eb["key"]);
      for (const char* field : {"value", "std_error", "std_error_cramer_rao"}) {
        const double x = ea[field], y = eb[field];
        EXPECT_LE(std::abs(x - y), 1e-9 * std::abs(x)) << method << " " << ea["key"] << " " << field;
      }
    }
    for (std::size_t i = 0; i < ja["modes"].size(); ++i)
      EXPECT_NEAR(ja["modes"][i]["eigenvalue_per_s"]["re"].get<double>(),
                  jb["modes"][i]["eigenvalue_per_s"]["re"].get<double>(), 1e-9);
  }
  // The map's mistakes: a usage error before the flight is read (exit 2),
  // a mapped column the file lacks: a data error at its header (exit 1).
  auto run = [&](const std::string& columns) {
    return RunAerolin("identify " + kP2V7 + " --flight '" + Temp("columns_foreign.csv") +
                          "' --axis longitudinal --free longitudinal.Ma --columns " + columns,
                      "identify_columns_bad");
  };
  auto r = run("alfa=AoA_deg:deg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: --columns: 'alfa=AoA_deg:deg': alfa is not a name aerolin reads here (t, u, alpha, "
                       "q, theta, elevator, throttle; also accepted: beta, p, r, phi, psi, aileron, rudder)"),
            std::string::npos)
      << r.err;
  r = run("u=V_fps:deg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: --columns: 'u=V_fps:deg': deg is not a unit of u (a m/s quantity: write m/s, ft/s, kt)"),
            std::string::npos)
      << r.err;
  r = run("alpha=AoA_deg:deg,q=AoA_deg:deg/s");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: --columns: alpha and q are both mapped to the CSV column 'AoA_deg'"), std::string::npos)
      << r.err;
  r = run(map + ",throttle=thr");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("columns_foreign.csv:1: no column 'thr' (the column map reads throttle from it; the header "
                       "has: rudder, aileron, throttle, dE,"),
            std::string::npos)
      << r.err;
}

// --plot writes PREFIX_identify.FORMAT per --format at --width x --height,
// says so, and prints the same report; --format without --plot is refused.
TEST(IdentifyCommand, PlotWritesTheResponseFigure) {
  const std::string csv = Flight("plot.csv");
  const std::string dir = ::testing::TempDir() + "identify_plot";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string base = "identify " + kP2V7 + " --flight '" + csv + "' --axis longitudinal --free " + kFree;
  const auto plain = RunAerolin(base, "identify_noplot");
  const auto r = RunAerolin(base + " --plot " + dir + "/p2v7 --format png,svg --width 800 --height 600",
                            "identify_plot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The report, then what was written (as --write says it: with the report's notes).
  EXPECT_EQ(r.out, plain.out + "wrote " + dir + "/p2v7_identify.png\nwrote " + dir + "/p2v7_identify.svg\n");
  for (const char* ext : {"png", "svg"}) EXPECT_TRUE(std::filesystem::exists(dir + "/p2v7_identify." + ext)) << ext;
  EXPECT_EQ(testing_cli::PngSize(dir + "/p2v7_identify.png"), (std::array<std::uint32_t, 2>{800, 600}));
  // One σ per output, as the fit's RMS (0.0497 m/s printed as 0.0497 m/s; α in degrees).
  const std::string svg = ReadAll(dir + "/p2v7_identify.svg");
  for (const char* text : {"u: σ = 0.0497 m/s", "α: σ = 0.0591 deg", "q: σ = 0.0589 deg/s", "θ: σ = 0.0582 deg"})
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  const auto no_plot = RunAerolin(base + " --format svg", "identify_format");
  EXPECT_EQ(no_plot.exit_code, 2);
}

// Each bad input: one clear message, located, and a non-zero exit.
TEST(IdentifyCommand, BadInputsSayWhatIsWrong) {
  const std::string csv = Flight("bad_base.csv");
  const std::string text = ReadAll(csv);
  std::vector<std::string> lines;
  for (std::size_t at = 0, next; at < text.size(); at = next + 1) {
    next = text.find('\n', at);
    lines.push_back(text.substr(at, next - at));
  }
  auto write = [&](const std::string& name, const std::vector<std::string>& rows) {
    std::string out;
    for (const std::string& l : rows) out += l + "\n";
    WriteText(Temp(name), out);
    return Temp(name);
  };
  auto run = [&](const std::string& flight, const std::string& extra) {
    return RunAerolin("identify " + kP2V7 + " --flight '" + flight + "' --axis longitudinal " + extra,
                      "identify_bad");
  };
  // NaN in row 10 (file line 11).
  std::vector<std::string> nan = lines;
  nan[10] = nan[10].substr(0, nan[10].find(',')) + ",nan" + nan[10].substr(nan[10].find(',', nan[10].find(',') + 1));
  auto r = run(write("nan.csv", nan), "--free longitudinal.Ma");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nan.csv:11: a NaN (or empty) cell in the columns used"), std::string::npos) << r.err;
  // Row 10 moved off the grid: uneven.
  std::vector<std::string> uneven = lines;
  uneven[10] = "0.46" + uneven[10].substr(uneven[10].find(','));
  r = run(write("uneven.csv", uneven), "--free longitudinal.Ma");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("uneven.csv:11: uneven sampling: step 0.06 s from t = 0.4, expected 0.05 s"), std::string::npos)
      << r.err;
  // Rows 10-12 removed: a gap.
  std::vector<std::string> gap = lines;
  gap.erase(gap.begin() + 10, gap.begin() + 13);
  r = run(write("gap.csv", gap), "--free longitudinal.Ma");
  EXPECT_NE(r.err.find("gap.csv:11: a gap: t jumps from 0.4 to 0.6, 3 samples of step 0.05 s missing"),
            std::string::npos)
      << r.err;
  // No u column.
  std::vector<std::string> cut;
  for (const std::string& l : lines) {
    const std::size_t a = l.find(','), b = l.find(',', a + 1);
    cut.push_back(l.substr(0, a) + l.substr(b));
  }
  r = run(write("nou.csv", cut), "--free longitudinal.Ma");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nou.csv:1: no column 'u' (the header has: t, alpha, q, theta,"), std::string::npos) << r.err;
  // A key the file does not have: a usage error listing the axis's keys.
  r = run(csv, "--free longitudinal.Mx");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("error: --free: 'longitudinal.Mx' is not a key of the file (the keys that enter its "
                       "longitudinal A or B, as written: condition.U0,"),
            std::string::npos)
      << r.err;
  // The aileron is not excited in a longitudinal flight: singular information.
  r = RunAerolin("identify " + kP2V7 + " --flight '" + csv + "' --axis lateral --free lateral.Lp,controls.aileron.L",
                 "identify_bad");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the flight cannot identify lateral.Lp, controls.aileron.L: no measured output moves with "
                       "it"),
            std::string::npos)
      << r.err;
}

}  // namespace
// --progress writes its lines to stderr only: standard output is the same
// JSON as without it; every iteration and the bounds are reported. A stable
// mode's T2 reads "-" in the text report (as `modes` prints it), not "inf".
TEST(IdentifyCommand, ProgressGoesToStderrAndAStableT2ReadsDash) {
  const std::string csv = Flight("progress.csv");
  const std::string base = "identify " + kP2V7 + " --flight '" + csv + "' --axis longitudinal --free " + kFree;
  const auto plain = RunAerolin(base + " --json", "identify_progress_plain");
  const auto shown = RunAerolin(base + " --json --progress", "identify_progress_shown");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(shown.out, plain.out);
  EXPECT_EQ(plain.err, "");
  const int iterations = nlohmann::json::parse(shown.out)["iterations"].get<int>();
  EXPECT_NE(shown.err.find("identify: reading 100 %\n"), std::string::npos) << shown.err;
  EXPECT_NE(shown.err.find("identify: equation error: iteration 1, sum of squares "), std::string::npos);
  EXPECT_NE(shown.err.find("identify: output error: iteration " + std::to_string(iterations) + ", cost -"), std::string::npos)
      << shown.err;
  EXPECT_NE(shown.err.find("identify: error bounds (coloured residuals)\n"), std::string::npos);
  const auto text = RunAerolin(base, "identify_progress_text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  phugoid              T2                -            Level 1\n"), std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("inf"), std::string::npos);
}


namespace {

// Runs `aerolin ARGS` (no shell) from the source directory with its output
// to /dev/null, and returns its exit code and peak resident set size [kB]:
// wait4's ru_maxrss of the child alone.
struct Peak {
  int exit_code = -1;
  long kilobytes = 0;
};

Peak RunMeasured(const std::vector<std::string>& args) {
  const std::string binary = std::string(AEROLIN_BINARY_DIR) + "/aerolin";
  std::vector<std::string> all{binary};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    if (::chdir(AEROLIN_SOURCE_DIR) != 0 || null < 0) ::_exit(126);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  Peak peak;
  int status = 0;
  struct rusage usage {};
  if (pid > 0 && ::wait4(pid, &status, 0, &usage) == pid) {
    peak.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    peak.kilobytes = usage.ru_maxrss;
  }
  return peak;
}

// The longitudinal flight of the worked example's script at 0.01 s for
// `duration` seconds: duration × 100 + 1 rows.
std::string LongFlight(const std::string& name, int duration) {
  const std::string csv = Temp(name);
  const auto r = RunAerolin("simulate " + kP2V7 + " --script examples/scripts/c_elevator_3211.txt --duration " +
                                std::to_string(duration) + " --dt 0.01 --integrator exact --csv '" + csv +
                                "' --noise " + kNoise,
                            "identify_sim_" + name);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return csv;
}

}  // namespace

// Memory independent of the flight's length: identify's peak resident size
// on a 1 000 001-row flight (154 MB of CSV) is within kGrowth of its peak on
// a 20 001-row one, for both methods. Held whole (before it streamed) the
// samples alone took 48 bytes a row, 48 MB more at 10⁶ rows (79 MB in all
// for equation error, 112 MB for output error, measured then); the bound
// leaves room for what does not grow with the flight but varies between
// runs (the lag window of the residuals, the allocator).
TEST(IdentifyCommand, PeakMemoryDoesNotGrowWithTheFlight) {
  constexpr long kGrowthKilobytes = 10 * 1024;
  const std::string short_csv = LongFlight("rss_short.csv", 200);
  const std::string long_csv = LongFlight("rss_long.csv", 10000);
  for (const std::string method : {"equation-error", "output-error"}) {
    auto run = [&](const std::string& csv) {
      return RunMeasured({"identify", kP2V7, "--flight", csv, "--axis", "longitudinal", "--free", kFree,
                          "--method", method, "--json"});
    };
    const Peak small = run(short_csv), large = run(long_csv);
    ASSERT_EQ(small.exit_code, 0) << method;
    ASSERT_EQ(large.exit_code, 0) << method;
    std::printf("  %s: peak %ld kB at 20 001 rows, %ld kB at 1 000 001 rows\n", method.c_str(), small.kilobytes,
                large.kilobytes);
    EXPECT_LT(large.kilobytes - small.kilobytes, kGrowthKilobytes) << method;
  }
  std::remove(short_csv.c_str());
  std::remove(long_csv.c_str());
}

// A flight on a pipe (standard input) cannot be read twice: identify reads
// it once into its temporary copy, and gives the same document as from the
// file (but for the flight's name).
TEST(IdentifyCommand, AFlightOnAPipeGivesTheSameEstimates) {
  const std::string csv = Flight("pipe.csv");
  const std::string args = "identify " + kP2V7 + " --axis longitudinal --free " + kFree + " --json";
  const auto file = RunAerolin(args + " --flight '" + csv + "'", "identify_pipe_file");
  ASSERT_EQ(file.exit_code, 0) << file.err;
  const std::string out = Temp("pipe.out");
  const std::string command = "cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && cat '" + csv + "' | '" +
                              std::string(AEROLIN_BINARY_DIR) + "/aerolin' " + args + " --flight /dev/stdin > '" +
                              out + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  nlohmann::json piped = nlohmann::json::parse(ReadAll(out)), filed = nlohmann::json::parse(file.out);
  EXPECT_EQ(piped["flight"], "/dev/stdin");
  piped.erase("flight"), filed.erase("flight");
  EXPECT_EQ(piped, filed);
  std::remove(out.c_str());
  std::remove(csv.c_str());
}

}  // namespace aerolin
