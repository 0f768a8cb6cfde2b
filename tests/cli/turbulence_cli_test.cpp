// `aerolin simulate` with --turbulence, --altitude, --seed and --gust: the
// replay is bit-for-bit, the wind columns and the summary's parameters
// against independent formulas, and every new usage error.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

const std::string kP2V7 = "data/derivatives/p2v7.toml";
constexpr double kFt = 0.3048;
constexpr double kPi = 3.14159265358979323846;

std::string CsvPath(const std::string& tag) {
  return std::string(AEROLIN_BINARY_DIR) + "/turb_cli_" + tag + ".csv";
}

// Runs `simulate` with `flags` and returns the CSV's bytes (the summary in `json`).
std::string SimulateCsv(const std::string& flags, const std::string& tag,
                        nlohmann::json* json = nullptr) {
  const std::string csv = CsvPath(tag);
  const auto r = RunAerolin("simulate " + kP2V7 + " " + flags + " --json --csv '" + csv + "'", tag);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (json && r.exit_code == 0) *json = nlohmann::json::parse(r.out);
  std::string text = ReadAll(csv);
  std::remove(csv.c_str());
  return text;
}

std::vector<std::vector<double>> Rows(const std::string& csv, std::string* header) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  if (header) *header = line;
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

TEST(TurbulenceCommand, SameSeedReplaysTheSameBytesAndAnotherSeedDoesNot) {
  const std::string flags =
      "--duration 20 --turbulence moderate --altitude 1000 --gust w:10:200:3 --gust v:-5:150";
  const std::string a = SimulateCsv(flags + " --seed 7", "replay_a");
  const std::string b = SimulateCsv(flags + " --seed 7", "replay_b");
  const std::string c = SimulateCsv(flags + " --seed 8", "replay_c");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // Without --seed the default seed is used and printed.
  nlohmann::json j;
  const std::string d = SimulateCsv("--duration 20 --turbulence moderate --altitude 1000 "
                                    "--gust w:10:200:3 --gust v:-5:150",
                                    "replay_d", &j);
  EXPECT_EQ(j["turbulence"]["seed"], 1);
  EXPECT_EQ(d, SimulateCsv(flags + " --seed 1", "replay_e"));
  // The exact integrator replays too.
  EXPECT_EQ(SimulateCsv(flags + " --integrator exact", "replay_f"),
            SimulateCsv(flags + " --integrator exact", "replay_g"));
}

TEST(TurbulenceCommand, SummaryReportsTheMilF8785CParametersAndTheRmsOfTheRows) {
  nlohmann::json j;
  // 984.25 ft = 300 m, below 1000 ft: MIL-F-8785C's low-altitude model.
  const std::string csv =
      SimulateCsv("--duration 30 --turbulence moderate --altitude 984.25 --seed 3", "params", &j);
  const nlohmann::json& t = j["turbulence"];
  ASSERT_TRUE(t.is_object()) << j.dump();
  EXPECT_EQ(t["intensity"], "moderate");
  const double h_ft = 984.25;
  EXPECT_NEAR(t["altitude_m"].get<double>(), h_ft * kFt, 1e-9);
  // σ_w = 0.1 W20 with W20 = 30 kt; σ_u = σ_v = σ_w / (0.177 + 0.000823 h)^0.4;
  // L_w = h, L_u = L_v = h / (0.177 + 0.000823 h)^1.2 (h in ft).
  const double sigma_w = 0.1 * 30.0 * 1852.0 / 3600.0;
  const double k = 0.177 + 0.000823 * h_ft;
  EXPECT_NEAR(t["sigma_w"].get<double>(), sigma_w, 1e-9);
  EXPECT_NEAR(t["sigma_u"].get<double>(), sigma_w / std::pow(k, 0.4), 1e-9);
  EXPECT_NEAR(t["sigma_v"].get<double>(), sigma_w / std::pow(k, 0.4), 1e-9);
  EXPECT_NEAR(t["L_w"].get<double>(), h_ft * kFt, 1e-9);
  EXPECT_NEAR(t["L_u"].get<double>(), h_ft / std::pow(k, 1.2) * kFt, 1e-9);
  EXPECT_NEAR(t["L_v"].get<double>(), h_ft / std::pow(k, 1.2) * kFt, 1e-9);
  EXPECT_NEAR(t["span_m"].get<double>(), 103.83 * kFt, 1e-9);  // [geometry] b
  EXPECT_GT(t["sigma_p"].get<double>(), 0.0);
  EXPECT_TRUE(j["gusts"].is_array() && j["gusts"].empty());

  std::string header;
  const auto rows = Rows(csv, &header);
  EXPECT_EQ(header.substr(header.size() - 16), ",u_g,v_g,w_g,p_g");
  ASSERT_EQ(rows.size(), 301u);
  // RMS of α (column 2), β (5), φ (8) over every row, computed from the CSV.
  for (const auto& [name, col] : {std::pair{"alpha", 2}, {"beta", 5}, {"phi", 8}}) {
    double sum = 0.0;
    for (const auto& row : rows) sum += row[col] * row[col];
    const double rms = std::sqrt(sum / static_cast<double>(rows.size()));
    EXPECT_GT(rms, 0.0) << name;
    EXPECT_NEAR(j["rms"][name].get<double>(), rms, 1e-12 + 1e-12 * rms) << name;
  }
  // The wind columns: zero on the t = 0 row, then the held turbulence.
  const std::size_t n = rows.front().size();
  for (std::size_t c = n - 4; c < n; ++c) EXPECT_EQ(rows.front()[c], 0.0);
  double w_sum = 0.0;
  for (std::size_t r = 1; r < rows.size(); ++r) w_sum += rows[r][n - 2] * rows[r][n - 2];
  EXPECT_GT(w_sum, 0.0);
}

// n_z of every CSV row by hand from the P2V-7's normalized derivatives (the
// file's ft and s, stability axes, θ0 = 0, Z_α̇ = 0 so the α̇ row's
// D = 1 − Z_α̇/U0 = 1), with the wind acting on the air-relative u − u_g and
// α − w_g/U0 (Etkin & Reid eq. 4.9,18):
//   U0 α̇ = Zu (u − u_g) + Zα (α − w_g/U0) + (U0 + Zq) q + Z_δe δe,
//   n_z = (U0/g)(q − α̇)  [g, positive up],
// with standard gravity g = 9.80665 m/s² in ft/s² (the file gives no g).
// The CSV's u, u_g, w_g are m/s; the row's δe and wind are those held over
// the slice ending at it.
double P2v7NzByHand(const std::vector<double>& row, std::size_t elevator, std::size_t u_g) {
  const double U0 = 293.8, g = 9.80665 / kFt, Zu = -0.227, Za = -236.0, Zq = -5.76, Zde = -12.9;
  const double u = row[1] / kFt, alpha = row[2], q = row[3], de = row[elevator];
  const double ug = row[u_g] / kFt, wg = row[u_g + 2] / kFt;
  const double alpha_dot = (Zu * (u - ug) + Za * (alpha - wg / U0) + (U0 + Zq) * q + Zde * de) / U0;
  return (U0 / g) * (q - alpha_dot);
}

// Returns the RMS of P2v7NzByHand over `rows` (header columns by name).
double P2v7NzRmsByHand(const std::string& header, const std::vector<std::vector<double>>& rows) {
  std::vector<std::string> names;
  std::istringstream cells(header);
  for (std::string cell; std::getline(cells, cell, ',');) names.push_back(cell);
  auto column = [&](const std::string& name) {
    for (std::size_t c = 0; c < names.size(); ++c)
      if (names[c] == name) return c;
    ADD_FAILURE() << "no column " << name << " in " << header;
    return std::size_t{0};
  };
  EXPECT_EQ(column("u"), 1u);
  EXPECT_EQ(column("alpha"), 2u);
  EXPECT_EQ(column("q"), 3u);
  EXPECT_EQ(column("w_g"), column("u_g") + 2);
  double sum = 0.0;
  for (const auto& row : rows) {
    const double nz = P2v7NzByHand(row, column("elevator"), column("u_g"));
    sum += nz * nz;
  }
  return std::sqrt(sum / static_cast<double>(rows.size()));
}

TEST(TurbulenceCommand, SummaryNzRmsMatchesTheRowsByHand) {
  // Turbulence, a discrete w gust and an elevator doublet (keys 8 then 5),
  // RK45; then the exact integrator with turbulence only.
  for (const std::string& flags :
       {std::string("--duration 20 --turbulence moderate --altitude 984.25 --seed 5 "
                    "--gust w:10:200:6 --script tests/fixtures/scripts/elevator_doublet.txt"),
        std::string("--duration 20 --turbulence severe --altitude 3000 --seed 9 "
                    "--integrator exact")}) {
    nlohmann::json j;
    const std::string csv = SimulateCsv(flags, "nz", &j);
    std::string header;
    const auto rows = Rows(csv, &header);
    ASSERT_EQ(rows.size(), 201u) << flags;
    ASSERT_TRUE(j["rms"]["nz"].is_number()) << j.dump();
    const double expected = P2v7NzRmsByHand(header, rows);
    EXPECT_GT(expected, 0.01) << flags;  // moderate turbulence: several hundredths of g
    // Rounding only: the CSV round-trips every double.
    EXPECT_NEAR(j["rms"]["nz"].get<double>(), expected, 1e-12 + 1e-10 * expected) << flags;
  }
  // The text summary's RMS line gains nz, in g.
  const auto r = RunAerolin("simulate " + kP2V7 +
                                " --duration 20 --turbulence severe --altitude 3000 --seed 9 "
                                "--integrator exact",
                            "nz_text");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("RMS over the run: alpha "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" deg; nz "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" g\n"), std::string::npos) << r.out;
}

TEST(TurbulenceCommand, WindColumnsOfADiscreteGustAreItsMeanOverEachSlice) {
  // P2V-7 (ft): w gust of 10 ft/s over 200 ft from t0 = 1 s; U0 = 293.8 ft/s.
  const std::string csv = SimulateCsv("--duration 3 --gust w:10:200:1 --integrator exact", "gust");
  const auto rows = Rows(csv, nullptr);
  ASSERT_EQ(rows.size(), 31u);
  const double vm = 10.0 * kFt, dm = 200.0 * kFt, U0 = 293.8 * kFt, t0 = 1.0, dt = 0.1;
  // ∫ of (vm/2)(1 − cos(π x/dm)), x = U0 (t − t0), clipped to the gust's ramp and plateau.
  auto integral = [&](double t) {
    const double x = U0 * (t - t0);
    if (x <= 0.0) return 0.0;
    if (x >= dm) return vm / 2.0 * dm / U0 + vm * (t - t0 - dm / U0);
    return vm / 2.0 * ((t - t0) - dm / (kPi * U0) * std::sin(kPi * x / dm));
  };
  const std::size_t n = rows.front().size();
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const double t = rows[r][0];
    const double mean = (integral(t) - integral(t - dt)) / dt;
    EXPECT_NEAR(rows[r][n - 2], mean, 1e-12) << "t = " << t;
    EXPECT_EQ(rows[r][n - 4], 0.0);  // u_g
    EXPECT_EQ(rows[r][n - 3], 0.0);  // v_g
    EXPECT_EQ(rows[r][n - 1], 0.0);  // p_g
  }
  EXPECT_NEAR(rows.back()[n - 2], vm, 1e-12);  // past the ramp: v_m
}

TEST(TurbulenceCommand, PlotFliesTheSameGustsAndChecksTheSameFlags) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/turb_cli_plot";
  const auto r = RunAerolin("plot " + kP2V7 + " --duration 10 --turbulence severe --altitude 2500"
                            " --gust u:5:300 --out '" + prefix + "' --width 640 --height 480",
                            "turb_plot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* figure : {"_trajectory", "_history", "_splane"}) {
    const std::string png = prefix + figure + ".png";
    EXPECT_EQ(ReadAll(png).substr(1, 3), "PNG") << png;
    std::remove(png.c_str());
  }
}

// Without --altitude, turbulence is flown at study::TurbulenceHeight's
// height: the file's [condition] altitude when above 0 (the 747's 12192 m),
// else 1000 ft = 304.8 m above ground, for a file without an altitude (the
// P2V-7) and for one whose altitude 0 states a sea-level atmosphere (Navion,
// A-7A, NT-33A; flown at Dryden's 10 ft floor before, L_w = 3 m).
TEST(TurbulenceCommand, WithoutAltitudeFliesAtTheFilesAltitudeAboveZeroElse1000Ft) {
  const std::vector<std::pair<std::string, double>> cases = {
      {kP2V7, 1000.0 * kFt},
      {"data/derivatives/navion_cruise_sl.toml", 1000.0 * kFt},
      {"data/derivatives/a7a_clean_m025_sl.toml", 1000.0 * kFt},
      {"data/derivatives/nt33a_power_approach_sl.toml", 1000.0 * kFt},
      {"data/derivatives/boeing747_cruise_40kft.toml", 12192.0},
  };
  int i = 0;
  for (const auto& [file, height] : cases) {
    const auto r = RunAerolin("simulate " + file + " --duration 1 --turbulence moderate --json",
                              "turb_height_" + std::to_string(i++));
    ASSERT_EQ(r.exit_code, 0) << file << "\n" << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_NEAR(j["turbulence"]["altitude_m"].get<double>(), height, 1e-9) << file;
    // At 1000 ft the low-altitude scale lengths are all h.
    if (height < 1000.0) {
      EXPECT_NEAR(j["turbulence"]["L_w"].get<double>(), height, 1e-9) << file;
    }
  }
}

TEST(TurbulenceCommand, UsageErrorsExitTwoWithAMessage) {
  struct Case {
    std::string flags, message;
  };
  const std::vector<Case> cases = {
      {"--turbulence bumpy", "--turbulence: bumpy not in {light,moderate,severe}"},
      {"--altitude 100", "--altitude requires --turbulence"},
      {"--seed 3", "--seed requires --turbulence"},
      {"--turbulence light --altitude nan", "--altitude: expected a finite number >= 0, got 'nan'"},
      {"--turbulence light --altitude -1", "--altitude: expected a finite number >= 0, got '-1'"},
      {"--turbulence light --altitude 10 --seed -1",
       "--seed: expected an integer from 0 to 18446744073709551615, got '-1'"},
      {"--turbulence light --altitude 10 --seed 18446744073709551616",
       "--seed: expected an integer from 0 to 18446744073709551615, got '18446744073709551616'"},
      {"--gust x:1:2", "--gust: gust axis must be u, v or w, got 'x' in 'x:1:2'"},
      {"--gust w:1", "--gust: expected AXIS:VM:DM[:T0] (e.g. w:10:100:2), got 'w:1'"},
      {"--gust w:1:0", "--gust: DM (gust length) must be a finite number > 0, got '0' in 'w:1:0'"},
      {"--gust w:inf:3", "--gust: VM (gust amplitude) must be a finite number, got 'inf' in 'w:inf:3'"},
      {"--gust w:1:2:-1", "--gust: T0 (gust start) must be a finite number >= 0, got '-1' in 'w:1:2:-1'"},
      {"--gust w:1:2:nan", "--gust: T0 (gust start) must be a finite number >= 0, got 'nan' in 'w:1:2:nan'"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const auto r = RunAerolin("simulate " + kP2V7 + " --duration 1 " + c.flags,
                              "turb_usage_" + std::to_string(i++));
    EXPECT_EQ(r.exit_code, 2) << c.flags;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.flags << "\n" << r.err;
  }
}

}  // namespace
}  // namespace aerolin
