// `aerolin matrices` / `modes --verbose` / `modes --sensitivity` / `sweep` on
// coefficient files.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

constexpr const char* kCoefficients = "data/derivatives/boeing747_cruise_40kft_coefficients.toml";

// The value printed on the line "  KEY    =  VALUE unit" of `text`, or NaN.
double Printed(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string k, eq;
    double v = 0;
    if (words >> k >> eq >> v && k == key && eq == "=") return v;
  }
  return std::nan("");
}

TEST(CoefficientsCommand, MatricesShowTheDimensionalDerivativesOfEtkinsTable) {
  const auto r = RunAerolin(std::string("matrices ") + kCoefficients, "coef_matrices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  ASSERT_NE(r.out.find("Dimensional derivatives from the coefficients"), std::string::npos) << r.out;
  // Etkin & Reid Table 6.2 / 6.7 (SI), printed to 4 digits.
  EXPECT_NEAR(Printed(r.out, "Zwdot"), 1.909e3, 1.5e-3 * 1.909e3);
  EXPECT_NEAR(Printed(r.out, "Mq"), -1.521e7, 1.5e-3 * 1.521e7);
  EXPECT_NEAR(Printed(r.out, "Lv"), -3.062e5, 1.5e-3 * 3.062e5);
  EXPECT_NEAR(Printed(r.out, "Nr"), -8.934e6, 1.5e-3 * 8.934e6);
}

// The lift/drag family: Teper's Navion (NASA CR-96008 Tables X-B/X-C). Raw SI
// = Teper's normalized Table X-D/X-E value × Ix, Iy, Iz (or m), ÷ U0 for L_v;
// allowed: half a unit in the printed value's last digit plus half a unit in
// the coefficient's (LoadCoefficients.NavionCoefficientsGiveTepersDimensionalTables).
TEST(CoefficientsCommand, MatricesShowTheDimensionalDerivativesOfTepersTable) {
  const auto r =
      RunAerolin("matrices data/derivatives/navion_cruise_sl_coefficients.toml", "coef_matrices_navion");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  constexpr double kSlugFt2 = 1.3558179483314004;  // kg m² per slug ft²
  constexpr double kSlug = 14.593902937206364;     // kg per slug
  constexpr double kFtPerS = 0.3048;               // m/s per ft/s
  constexpr double kLbf = 4.4482216152605;         // N per lbf
  const double U0 = 176.0 * kFtPerS;
  auto near = [&](const char* key, double printed, double unit, double coefficient, double half_unit,
                  double factor) {
    const double tolerance = 0.5 * unit / std::abs(printed) + half_unit / std::abs(coefficient);
    EXPECT_NEAR(Printed(r.out, key), printed * factor, tolerance * std::abs(printed * factor)) << key;
  };
  near("Mq", -2.0767, 1e-4, -9.96, 5e-3, 3000.0 * kSlugFt2);          // N m s
  near("Mwdot", -0.005165, 1e-6, -4.36, 5e-3, 3000.0 * kSlugFt2 / 0.3048);  // kg m (1/ft → 1/m)
  near("Lv", -15.982, 1e-3, -0.074, 5e-4, 1048.0 * kSlugFt2 / U0);    // N s
  near("Nr", -0.7605, 1e-4, -0.125, 5e-4, 3530.0 * kSlugFt2);         // N m s
  near("Zw", -2.0244, 1e-4, -4.49, 1e-2, 85.4 * kSlug);               // N s/m
  // Z_u = −ρU0S C_W0 = −2W/U0 (Table 4.4; Teper's −0.3697 used C_L = 0.41, see the file),
  // to the 5 significant digits printed.
  constexpr double kPrintedDigits = 1e-4;
  const double Zu = -2.0 * 2750.0 * kLbf / U0;
  EXPECT_NEAR(Printed(r.out, "Zu"), Zu, kPrintedDigits * std::abs(Zu));
}

TEST(CoefficientsCommand, ModesVerboseShowsThemAndDimensionalFilesSaySo) {
  const auto r = RunAerolin(std::string("modes ") + kCoefficients + " --verbose", "coef_modes_verbose");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NEAR(Printed(r.out, "Zu"), -2.595e4, 1.5e-3 * 2.595e4);
  const auto d = RunAerolin("modes data/derivatives/p2v7.toml --verbose", "coef_modes_verbose_dim");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("(data/derivatives/p2v7.toml gives dimensional derivatives: no coefficient "
                       "conversion)"),
            std::string::npos);
  // Without --verbose, no extra block.
  const auto plain = RunAerolin(std::string("modes ") + kCoefficients, "coef_modes_plain");
  EXPECT_EQ(plain.out.find("Dimensional derivatives"), std::string::npos);
}

constexpr const char* kPerDegree =
    "tests/fixtures/derivatives/valid_coefficients_lift_drag_per_degree_body_axes.toml";

// `text` with the line "KEY = number" under [SECTION] set to `value`.
std::string WithValue(const std::string& text, const std::string& section, const std::string& key,
                      double value) {
  const std::size_t at = text.find("[" + section + "]");
  const std::size_t line = text.find("\n" + key + " = ", at);
  const std::size_t end = text.find_first_of(" \n", line + key.size() + 4);
  char number[32];
  std::snprintf(number, sizeof number, "%.17g", value);
  return text.substr(0, line) + "\n" + key + " = " + number + text.substr(end);
}

// The short period's eigenvalue that `aerolin modes FILE --json` prints.
std::complex<double> ShortPeriod(const std::string& file, const std::string& tag) {
  const auto r = RunAerolin("modes '" + file + "' --json", tag);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const nlohmann::json& m : j["longitudinal"]["modes"])
    if (m["name"] == "short period")
      return {m["eigenvalue_per_s"]["re"].get<double>(), m["eigenvalue_per_s"]["im"].get<double>()};
  ADD_FAILURE() << "no short period in " << file;
  return {};
}

TEST(CoefficientsCommand, SensitivityIsPerUnitOfTheKeyAsWrittenPerDegree) {
  // The file types Cma per degree (-0.011920). `modes --sensitivity` gives
  // dλ/dCma per unit of that number: the central difference of `aerolin modes`
  // on two edited copies of the file, not the per-radian value (57.3x smaller).
  const auto s = RunAerolin(std::string("modes ") + kPerDegree + " --sensitivity --json", "coef_sens_deg");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.err, "");
  const nlohmann::json j = nlohmann::json::parse(s.out);
  const nlohmann::json& sp = j["modes"][0];
  ASSERT_EQ(sp["name"], "short period");
  const std::complex<double> exact(sp["sensitivity"]["longitudinal.Cma"]["re"].get<double>(),
                                   sp["sensitivity"]["longitudinal.Cma"]["im"].get<double>());
  const std::string text = testing_cli::ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/" + kPerDegree);
  const double cma = -0.011920, h = 1e-5 * std::abs(cma);
  const std::string up = std::string(AEROLIN_BINARY_DIR) + "/coef_sens_deg_up.toml";
  const std::string down = std::string(AEROLIN_BINARY_DIR) + "/coef_sens_deg_down.toml";
  std::ofstream(up) << WithValue(text, "longitudinal", "Cma", cma + h);
  std::ofstream(down) << WithValue(text, "longitudinal", "Cma", cma - h);
  const std::complex<double> fd =
      (ShortPeriod(up, "coef_sens_up") - ShortPeriod(down, "coef_sens_down")) / (2.0 * h);
  std::remove(up.c_str());
  std::remove(down.c_str());
  // The JSON eigenvalues carry 17 digits; truncation O(h²) and rounding
  // 1e-16·|λ|/h ≈ 1e-9 leave the difference good to ~1e-5 relative.
  EXPECT_LT(std::abs(exact - fd), 1e-5 * std::abs(fd)) << "exact " << exact << " fd " << fd;
  EXPECT_GT(std::abs(exact), 10.0);  // per degree: |dλ/dCma| ≈ 26 1/s per (1/deg)
}

TEST(CoefficientsCommand, SweepOfACoefficientKeyIsTrackedAndItsUnitsAreAsWritten) {
  // Cma of the 747 from its value through 0: the short period splits into two
  // real roots (Cma is per radian in this file, as written).
  const auto w = RunAerolin(std::string("sweep ") + kCoefficients +
                                " --param longitudinal.Cma --from -1.023 --to 0.2 --steps 41 --json",
                            "coef_sweep");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const nlohmann::json j = nlohmann::json::parse(w.out);
  EXPECT_EQ(j["param"], "longitudinal.Cma");
  ASSERT_EQ(j["points"].size(), 41u);
  EXPECT_DOUBLE_EQ(j["points"][0]["value"].get<double>(), -1.023);
  EXPECT_EQ(j["points"][0]["modes"][0]["name"], "short period");
  bool split = false;
  for (const nlohmann::json& c : j["structure_changes"])
    split = split || c["to"] == "short period (overdamped)";
  EXPECT_TRUE(split) << w.out;
}

TEST(CoefficientsCommand, KeysLeftOutSayWhy) {
  // altitude reaches this file's rho and U0 through the standard atmosphere,
  // which aerolin does not differentiate: a usage error with that reason, and
  // a note under --sensitivity.
  const std::string mixed = "tests/fixtures/derivatives/valid_coefficients_mixed_mach_altitude.toml";
  const auto w = RunAerolin("sweep " + mixed + " --param condition.altitude --from 0 --to 100 --steps 3",
                            "coef_sweep_altitude");
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find("'condition.altitude' is not swept: it gives rho and the speed of sound for "
                       "U0 = mach x a through the 1976 standard atmosphere"),
            std::string::npos)
      << w.err;
  const auto s = RunAerolin("modes " + mixed + " --sensitivity", "coef_sens_mixed");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("Not differentiated:\n  condition.altitude: it gives rho"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("condition.mach"), std::string::npos);  // U0 = mach · a: differentiated
  // A mixed file sweeps its dimensional section's keys too.
  const auto lat = RunAerolin("sweep " + mixed + " --param lateral.Nr --from -2684.6 --to -20000 --steps 5",
                              "coef_sweep_mixed");
  EXPECT_EQ(lat.exit_code, 0) << lat.err;
}

TEST(CoefficientsCommand, AvlFilesSweepTheirTomlAndStKeys) {
  // The TOML's own keys and the .st's numbers by AVL's names (avl.Cnr); what
  // the classic .st's CDa estimate depends on is refused with the reason.
  const auto w = RunAerolin("sweep data/avl/b737.toml --param avl.Cnr --from -0.49148 --to -0.05 --steps 8 --json",
                            "coef_sweep_avl");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const nlohmann::json j = nlohmann::json::parse(w.out);
  EXPECT_EQ(j["param"], "avl.Cnr");
  ASSERT_EQ(j["points"].size(), 8u);
  const auto u = RunAerolin("sweep data/avl/b737.toml --param condition.U0 --from 200 --to 260 --steps 4",
                            "coef_sweep_avl_u0");
  EXPECT_EQ(u.exit_code, 0) << u.err;
  const auto cla = RunAerolin("sweep data/avl/b737.toml --param avl.CLa --from 5 --to 8 --steps 3",
                              "coef_sweep_avl_cla");
  EXPECT_EQ(cla.exit_code, 2);
  EXPECT_NE(cla.err.find("sweep: data/avl/b737.toml: 'avl.CLa' is not swept: b737_classic.st prints no CDa, "
                         "so the load estimates it as 2 CDind CLa / CLtot"),
            std::string::npos)
      << cla.err;
  const auto s = RunAerolin("modes data/avl/b737.toml --sensitivity", "coef_sens_avl");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  for (const char* key : {"condition.rho", "avl.Sref", "avl.Alpha", "avl.Cma", "avl.Cnr"})
    EXPECT_NE(s.out.find(std::string("  ") + key + " "), std::string::npos) << key;
  EXPECT_NE(s.out.find("Not differentiated:\n  aerodynamics.avl_length_unit: it scales Sref, Cref and Bref "
                       "together"),
            std::string::npos)
      << s.out;
}

}  // namespace
}  // namespace aerolin
