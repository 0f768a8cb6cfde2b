// [tables]: the nonlinear coefficient tables a data file may give
// (model/aero_tables.hpp, docs/data-files.md): what they load to, and each
// defect located at its line.
#include "aerolin/data/load_aircraft.hpp"

#include <gtest/gtest.h>

#include <numbers>
#include <string>

#include "data/loader_test_support.hpp"

namespace aerolin::data {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
// Unit conversion multiplies by exact factors; allow a few ulps.
constexpr double kConversion = 1e-12;

std::string Fixture(const std::string& name) { return test_support::DerivativesFixture(name); }

std::string ErrorOf(const std::string& name) {
  return test_support::FixtureErrorOf([&] { LoadAircraftFile(Fixture(name)); });
}

TEST(LoadTables, BreakpointsInDegreesOrRadiansBecomeRadiansAndTheScalesSI) {
  const LoadResult r = LoadAircraftFile(Fixture("valid_tables.toml"));
  ASSERT_TRUE(r.aircraft.tables.has_value());
  const model::AeroTables& t = *r.aircraft.tables;
  EXPECT_NEAR(t.S, 1000.0 * 0.3048 * 0.3048, kConversion);
  EXPECT_NEAR(t.c, 10.0 * 0.3048, kConversion);
  EXPECT_NEAR(t.m, 1000.0 * 14.59390293720636, 1e-9);
  EXPECT_NEAR(t.Iy, 1e5 * 14.59390293720636 * 0.3048 * 0.3048, 1e-6);
  EXPECT_NEAR(t.rho0, 1.225, 1e-6);  // the 1976 standard atmosphere at sea level
  ASSERT_EQ(t.reference_controls.size(), 2u);
  ASSERT_EQ(t.tables.size(), 3u);  // in TableCoefficient order
  const model::CoefficientTable& cz = t.tables[0];
  EXPECT_EQ(cz.coefficient, model::TableCoefficient::kCZ);
  EXPECT_EQ(cz.second, model::TableVariable::kNone);
  ASSERT_EQ(cz.alpha.size(), 4u);
  EXPECT_NEAR(cz.alpha[0], -10 * kDeg, kConversion);
  EXPECT_EQ(cz.values, (std::vector<double>{0.6, -0.2, -1.0, -1.2}));
  const model::CoefficientTable& cm = t.tables[1];
  EXPECT_EQ(cm.second, model::TableVariable::kControl);
  EXPECT_EQ(cm.control, 0);
  EXPECT_EQ(cm.second_name, "elevator");
  EXPECT_NEAR(cm.other[2], 20 * kDeg, kConversion);
  ASSERT_EQ(cm.values.size(), 12u);  // 3 rows of 4
  EXPECT_EQ(cm.values[4], 0.05);     // row 2 (elevator 0), first α
  EXPECT_NEAR(cm.At(0.0, 0.0), 0.0, 1e-15);
  const model::CoefficientTable& cmq = t.tables[2];
  EXPECT_EQ(cmq.alpha, (std::vector<double>{-0.2, 0.0, 0.4}));  // alpha: radians as written
}

TEST(LoadTables, AFileWithoutTablesHasNone) {
  EXPECT_FALSE(LoadAircraftFile(Fixture("valid_minimal.toml")).aircraft.tables.has_value());
}

struct TableDefect {
  const char* file;
  const char* expected;
};

class LoadTablesDefect : public testing::TestWithParam<TableDefect> {};

TEST_P(LoadTablesDefect, ReportsLocatedMessage) { EXPECT_EQ(ErrorOf(GetParam().file), GetParam().expected); }

INSTANTIATE_TEST_SUITE_P(
    Fixtures, LoadTablesDefect,
    testing::Values(
        TableDefect{"tables_unsorted_breakpoints.toml",
                    "tables_unsorted_breakpoints.toml:57: entry 3 of alpha_deg in [tables.CZ], 0, comes after 10 "
                    "(breakpoints must strictly increase: sort them, with their values)"},
        TableDefect{"tables_repeated_breakpoint.toml",
                    "tables_repeated_breakpoint.toml:62: entry 3 of elevator_deg in [tables.Cm], 0, repeats the "
                    "breakpoint before it (breakpoints must strictly increase)"},
        TableDefect{"tables_nan_value.toml",
                    "tables_nan_value.toml:65: entry 2 of values row 2 in [tables.Cm] must be a finite number, "
                    "got nan"},
        TableDefect{"tables_infinite_breakpoint.toml",
                    "tables_infinite_breakpoint.toml:57: entry 3 of alpha_deg in [tables.CZ] must be a finite "
                    "number, got inf"},
        TableDefect{"tables_one_point.toml",
                    "tables_one_point.toml:70: alpha in [tables.Cmq] has 1 breakpoint: a table needs at least "
                    "two to interpolate"},
        TableDefect{"tables_wrong_row_length.toml",
                    "tables_wrong_row_length.toml:64: values row 1 in [tables.Cm] has 3 entries, alpha_deg has "
                    "4 breakpoints (one value per breakpoint in each row)"},
        TableDefect{"tables_unknown_coefficient.toml",
                    "tables_unknown_coefficient.toml:56: unknown coefficient 'CL' in [tables] (the tables take "
                    "CX, CZ, Cm, CXq, CZq, Cmq: body-axis coefficients; give lift and drag as CZ and CX)"},
        TableDefect{"tables_unknown_variable.toml",
                    "tables_unknown_variable.toml:62: unknown variable 'elevatr_deg' in [tables.Cm] (a table "
                    "takes alpha_deg (or alpha), values and, for CX, CZ, Cm, one of beta_deg or a control's "
                    "deflection, elevator_deg ...; did you mean 'elevator_deg'?)"},
        TableDefect{"tables_missing_reference_setting.toml",
                    "tables_missing_reference_setting.toml:52: missing 'aileron_deg' in [tables] (the aileron "
                    "setting at the reference condition: the tables take deflections, aerolin's controls are "
                    "deviations from these settings)"},
        TableDefect{"tables_without_geometry.toml",
                    "tables_without_geometry.toml:49: [tables] needs [geometry] S and c (the coefficients are "
                    "per q S and q S c)"}),
    [](const testing::TestParamInfo<TableDefect>& info) {
      std::string name = info.param.file;
      return name.substr(0, name.find('.'));
    });

}  // namespace
}  // namespace aerolin::data
