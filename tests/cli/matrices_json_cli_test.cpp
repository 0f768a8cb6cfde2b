// `aerolin matrices --json` on a coefficient or AVL file: its
// "dimensional_derivatives" block holds the numbers the text prints.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

// The text's dimensional-derivatives block as "block/key" → {SI value,
// imperial value (NaN without --units imperial)}; blocks "longitudinal",
// "lateral", "control NAME".
std::map<std::string, std::pair<double, double>> TextDerivatives(const std::string& text) {
  std::map<std::string, std::pair<double, double>> out;
  std::istringstream in(text.substr(text.find("Dimensional derivatives from the coefficients")));
  std::string block;
  for (std::string line; std::getline(in, line);) {
    if (line == "Longitudinal" || line == "Lateral") {
      block = line == "Longitudinal" ? "longitudinal" : "lateral";
    } else if (line.rfind("Control ", 0) == 0) {
      block = "control " + line.substr(8, line.find(" (per") - 8);
    } else if (line.rfind("  ", 0) == 0 && !block.empty()) {
      std::istringstream words(line);
      std::string key, eq, unit, eq2;
      double si = 0, imperial = std::nan("");
      if (!(words >> key >> eq >> si) || eq != "=") continue;
      // "  Xu     =      -1982.1 N s/m     =      -135.82 lbf s/ft"
      const auto second = line.find(" = ", line.find('=') + 1);
      if (second != std::string::npos) imperial = std::stod(line.substr(second + 3));
      out[block + "/" + key] = {si, imperial};
    } else if (line.empty() && !block.empty()) {
      break;
    }
  }
  return out;
}

// Every JSON row equals the text's number to the text's 5 significant digits
// (%.5g: half a unit in the 5th digit, 5e-5 relative), and the JSON has
// exactly the text's rows; an imperial file's (`imperial`) also the text's
// second column. Returns the JSON block.
nlohmann::json ExpectJsonMatchesText(const std::string& file, bool imperial_file) {
  const auto text = RunAerolin("matrices " + file, "dimjson_text");
  const auto json = RunAerolin("matrices " + file + " --json", "dimjson_json");
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const auto printed = TextDerivatives(text.out);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["schema"], "aerolin.matrices/2");
  const nlohmann::json& d = doc["dimensional_derivatives"];
  std::size_t rows = 0;
  auto check = [&](const std::string& block, const nlohmann::json& row) {
    ++rows;
    const std::string key = block + "/" + row["name"].get<std::string>();
    if (!printed.count(key)) return ADD_FAILURE() << "not in the text: " << key;
    const auto [si, imperial] = printed.at(key);
    const double v = row["value"].get<double>();
    EXPECT_NEAR(v, si, 5e-5 * std::abs(v) + 1e-300) << file << " " << key;
    if (imperial_file) {
      const double vi = row["value_imperial"].get<double>();
      EXPECT_NEAR(vi, imperial, 5e-5 * std::abs(vi) + 1e-300) << file << " " << key;
      EXPECT_FALSE(row["unit_imperial"].get<std::string>().empty());
    } else {
      EXPECT_FALSE(row.contains("value_imperial"));
    }
  };
  for (const char* section : {"longitudinal", "lateral"})
    for (const nlohmann::json& row : d[section]) check(section, row);
  for (const nlohmann::json& control : d["controls"])
    for (const nlohmann::json& row : control["derivatives"])
      check("control " + control["name"].get<std::string>(), row);
  EXPECT_EQ(rows, printed.size()) << file;
  return d;
}

// The bundled 747 coefficient file in imperial units (its SI numbers divided
// by the factors of core/units.hpp), written into the build directory.
std::string ImperialBoeing747() {
  std::string text = ReadAll(std::string(AEROLIN_SOURCE_DIR) +
                             "/data/derivatives/boeing747_cruise_40kft_coefficients.toml");
  const double ft = 0.3048, slug = 14.593902937206364, lbf = 4.4482216152605;
  const std::pair<std::string, double> lines[] = {
      {"U0 = 235.9 ", 235.9 / ft},           {"g = 9.81 ", 9.81 / ft},
      {"rho = 0.3045 ", 0.3045 * ft * ft * ft / slug}, {"altitude = 12192.0 ", 12192.0 / ft},
      {"S = 511.0 ", 511.0 / (ft * ft)},     {"c = 8.324 ", 8.324 / ft},
      {"b = 59.64 ", 59.64 / ft},            {"W = 2.83176e6 ", 2.83176e6 / lbf},
      {"Ix = 0.247e8 ", 0.247e8 / (slug * ft * ft)}, {"Iy = 0.449e8", 0.449e8 / (slug * ft * ft)},
      {"Iz = 0.673e8", 0.673e8 / (slug * ft * ft)},  {"Ixz = -0.212e7 ", -0.212e7 / (slug * ft * ft)}};
  text.replace(text.find("units = \"SI\""), 12, "units = \"imperial\"");
  for (const auto& [from, value] : lines) {
    const auto at = text.find("\n" + from);
    if (at == std::string::npos) {
      ADD_FAILURE() << from;
      continue;
    }
    char number[64];
    std::snprintf(number, sizeof number, "%.17g ", value);
    text.replace(at + 1, from.size(), from.substr(0, from.find('=') + 2) + number);
  }
  const std::string path = std::string(AEROLIN_BINARY_DIR) + "/avl_cli_747_imperial.toml";
  std::ofstream(path) << text;
  return path;
}

TEST(MatricesJsonCommand, DimensionalDerivativesAreTheTextsNumbers) {
  const nlohmann::json si =
      ExpectJsonMatchesText("data/derivatives/boeing747_cruise_40kft_coefficients.toml", false);
  ExpectJsonMatchesText("data/avl/b737.toml", false);
  // The same aircraft typed in imperial units: the text adds the imperial
  // column, the JSON value_imperial; the SI values are the SI file's.
  const std::string imperial_file = ImperialBoeing747();
  const nlohmann::json imperial = ExpectJsonMatchesText(imperial_file, true);
  std::remove(imperial_file.c_str());
  ASSERT_EQ(imperial["longitudinal"].size(), si["longitudinal"].size());
  for (std::size_t i = 0; i < si["longitudinal"].size(); ++i) {
    const double a = si["longitudinal"][i]["value"].get<double>();
    EXPECT_NEAR(imperial["longitudinal"][i]["value"].get<double>(), a, 1e-12 * std::abs(a));
  }
  // A dimensional file has no such block.
  const auto dim = RunAerolin("matrices data/derivatives/p2v7.toml --json", "dimjson_p2v7");
  ASSERT_EQ(dim.exit_code, 0) << dim.err;
  EXPECT_FALSE(nlohmann::json::parse(dim.out).contains("dimensional_derivatives"));
}


// A washed-out yaw damper (δr = 0.5·s/(s + 1/1.5)·r, as `augment --write`
// writes it): `matrices` prints the closed loop with the filter state
// r_washout after the airframe's, equal to the one built here by hand from
// the plain file's matrices: δr = K (r − w), ẇ = (r − w)/τ.
TEST(MatricesJsonCommand, AWashoutFilesClosedLoopHasTheFilterState) {
  const std::string file = std::string(AEROLIN_BINARY_DIR) + "/cli_test_matrices_washout.toml";
  std::remove(file.c_str());
  const auto w = RunAerolin("augment data/derivatives/p2v7.toml --loop rudder:r=0.5,washout=1.5 --write '" + file + "'",
                            "mat_washout1");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const auto closed = RunAerolin("matrices '" + file + "' --json", "mat_washout2");
  const auto plain = RunAerolin("matrices data/derivatives/p2v7.toml --json", "mat_washout3");
  ASSERT_EQ(closed.exit_code, 0) << closed.err;
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const nlohmann::json c = nlohmann::json::parse(closed.out)["lateral"], p = nlohmann::json::parse(plain.out)["lateral"];
  ASSERT_EQ(c["states"].size(), 6u);
  EXPECT_EQ(c["states"][5]["name"], "r_washout");
  EXPECT_EQ(c["states"][5]["unit"], "rad/s");
  EXPECT_EQ(c["inputs"], p["inputs"]);
  const double K = 0.5, tau = 1.5;
  int rudder = 0;
  while (p["inputs"][rudder]["name"] != "rudder") ++rudder;
  const int r = 2;  // β, p, r, φ, ψ
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      double want = 0.0;
      if (i < 5) {
        const double b = p["B"][i][rudder].get<double>();
        want = j < 5 ? p["A"][i][j].get<double>() + (j == r ? K * b : 0.0) : -K * b;
      } else {
        want = j == r ? 1.0 / tau : j == 5 ? -1.0 / tau : 0.0;
      }
      EXPECT_NEAR(c["A"][i][j].get<double>(), want, 1e-12 * std::max(1.0, std::abs(want))) << i << "," << j;
    }
  // The pilot's inputs stay the inputs; the filter is driven by r alone.
  for (std::size_t k = 0; k < p["inputs"].size(); ++k) {
    EXPECT_EQ(c["B"][5][k].get<double>(), 0.0);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(c["B"][i][k], p["B"][i][k]);
  }
  // The text labels the row and the column.
  const auto text = RunAerolin("matrices '" + file + "'", "mat_washout4");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("dr_washout/dt"), std::string::npos) << text.out;
  std::remove(file.c_str());
}

}  // namespace
}  // namespace aerolin
