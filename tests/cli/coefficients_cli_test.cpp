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
