// `aerolin matrices` / `modes --verbose` on a coefficient file, and the
// commands that are not available for one.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

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

TEST(CoefficientsCommand, SensitivityAndSweepAreUsageErrorsForCoefficientFiles) {
  const auto s = RunAerolin(std::string("modes ") + kCoefficients + " --sensitivity", "coef_sens");
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.err.find("gives coefficients"), std::string::npos) << s.err;
  const auto w = RunAerolin(std::string("sweep ") + kCoefficients +
                                " --param longitudinal.Cma --from -1 --to -0.5 --steps 3",
                            "coef_sweep");
  EXPECT_EQ(w.exit_code, 2);
  EXPECT_NE(w.err.find("gives coefficients"), std::string::npos) << w.err;
}

}  // namespace
}  // namespace aerolin
