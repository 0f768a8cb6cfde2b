#include "aerolin/data/load_aircraft.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <string>

#include "aerolin/core/files.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/outputs.hpp"
#include "data/loader_test_support.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::data {
namespace {

// Unit conversion multiplies by exact factors; allow a few ulps.
constexpr double kConversion = 1e-12;

std::string Fixture(const std::string& name) { return test_support::DerivativesFixture(name); }

// The message of the DataError that loading `name` throws, as "name:line: ...".
std::string ErrorOf(const std::string& name) {
  return test_support::FixtureErrorOf([&] { LoadAircraftFile(Fixture(name)); });
}

TEST(LoadAircraftFile, P2V7BecomesSI) {
  const LoadResult r = LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  EXPECT_TRUE(r.warnings.empty());
  const model::AircraftData& a = r.aircraft;
  EXPECT_EQ(a.name, "Lockheed P2V-7 Neptune");
  EXPECT_NEAR(a.condition.U0, 293.8 * 0.3048, kConversion);
  EXPECT_DOUBLE_EQ(a.condition.g, core::kStandardGravity);
  EXPECT_NEAR(a.longitudinal.Xa, 14.7 * 0.3048, kConversion);
  EXPECT_NEAR(a.longitudinal.Za, -236.0 * 0.3048, kConversion);
  EXPECT_NEAR(a.longitudinal.Zq, -5.76 * 0.3048, kConversion);
  EXPECT_DOUBLE_EQ(a.longitudinal.Ma, -3.78);  // 1/s², unit-free
  EXPECT_DOUBLE_EQ(a.longitudinal.Mq, -0.992);
  EXPECT_NEAR(a.lateral.Yb, -45.4 * 0.3048, kConversion);
  EXPECT_DOUBLE_EQ(a.lateral.Lb, -1.71);
  ASSERT_EQ(a.controls.size(), 4u);
  EXPECT_EQ(a.controls[0].name, "elevator");  // file order, not alphabetical
  EXPECT_EQ(a.controls[1].name, "throttle");
  EXPECT_EQ(a.controls[1].unit, core::Unit::kOne);
  EXPECT_NEAR(a.controls[1].X, 0.01 * 0.3048, kConversion);
  EXPECT_TRUE(a.controls[0].longitudinal);
  EXPECT_FALSE(a.controls[0].lateral);
  EXPECT_EQ(a.controls[3].name, "rudder");
  EXPECT_NEAR(a.controls[3].Y, 9.17 * 0.3048, kConversion);
}

const char* kHeader = R"(
[aircraft]
name = "t"
source = "t"
[condition]
units = "SI"
U0 = 100.0
)";

const char* kLateralPrimed = R"(
[lateral]
form = "normalized"
primed = true
Yb = -20.0
Yp = 0.0
Yr = 0.0
Lb = -2.0
Lp = -1.5
Lr = 0.3
Nb = 1.2
Np = -0.05
Nr = -0.2
)";

const char* kLongitudinalAlpha = R"(
[longitudinal]
form = "normalized"
Xu = -0.02
Zu = -0.2
Mu = 0.001
Xa = 5.0
Za = -200.0
Ma = -4.0
Madot = -0.3
Zadot = -2.0
Zq = -3.0
Mq = -1.0
)";

TEST(LoadAircraftString, WFormEqualsAlphaFormTimesU0) {
  const std::string w_form = R"(
[longitudinal]
form = "normalized"
Xu = -0.02
Zu = -0.2
Mu = 0.001
Xw = 0.05
Zw = -2.0
Mw = -0.04
Mwdot = -0.003
Zwdot = -0.02
Zq = -3.0
Mq = -1.0
)";
  const auto a = LoadAircraftString(kHeader + std::string(kLongitudinalAlpha) + kLateralPrimed, "a");
  const auto w = LoadAircraftString(kHeader + w_form + kLateralPrimed, "w");
  const auto& la = a.aircraft.longitudinal;
  const auto& lw = w.aircraft.longitudinal;
  EXPECT_NEAR(lw.Xa, la.Xa, kConversion);
  EXPECT_NEAR(lw.Za, la.Za, kConversion);
  EXPECT_NEAR(lw.Ma, la.Ma, kConversion);
  EXPECT_NEAR(lw.Madot, la.Madot, kConversion);
  EXPECT_NEAR(lw.Zadot, la.Zadot, kConversion);
}

TEST(LoadAircraftString, RawFormIsDividedByMassAndInertia) {
  const std::string raw = R"(
[mass]
m = 1000.0
Iy = 5000.0
Ix = 2000.0
Iz = 4000.0
Ixz = 0.0
[longitudinal]
form = "raw"
Xu = -20.0
Zu = -200.0
Mu = 5.0
Xa = 5000.0
Za = -200000.0
Ma = -20000.0
Madot = -1500.0
Zq = -3000.0
Mq = -5000.0
[lateral]
form = "raw"
Yb = -20000.0
Yp = 0.0
Yr = 0.0
Lb = -4000.0
Lp = -3000.0
Lr = 600.0
Nb = 4800.0
Np = -200.0
Nr = -800.0
[controls.elevator]
M = -10000.0
[controls.rudder]
N = -2000.0
)";
  const auto r = LoadAircraftString(kHeader + raw, "raw");
  const auto& lon = r.aircraft.longitudinal;
  EXPECT_NEAR(lon.Xu, -0.02, kConversion);
  EXPECT_NEAR(lon.Za, -200.0, kConversion);
  EXPECT_NEAR(lon.Mu, 0.001, kConversion);
  EXPECT_NEAR(lon.Ma, -4.0, kConversion);
  EXPECT_NEAR(lon.Madot, -0.3, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Lb, -2.0, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Nb, 1.2, kConversion);
  EXPECT_NEAR(r.aircraft.controls[0].M, -2.0, kConversion);
  EXPECT_NEAR(r.aircraft.controls[1].N, -0.5, kConversion);
}

TEST(LoadAircraftString, UnprimedMomentsGetIxzCoupling) {
  // kLateralPrimed's derivatives, read as plain (unprimed) L and N.
  std::string lateral = kLateralPrimed;
  lateral.replace(lateral.find("primed = true"), 13, "primed = false");
  const std::string unprimed = R"(
[mass]
Ix = 2000.0
Iz = 4000.0
Ixz = 400.0
)" + lateral + R"(
[controls.aileron]
L = 1.0
N = 0.1
)";
  const auto r = LoadAircraftString(kHeader + std::string(kLongitudinalAlpha) + unprimed, "u");
  // Etkin & Reid eq. 4.12,5 with i1 = Ixz/Ix = 0.2, i2 = Ixz/Iz = 0.1, G = 1 − i1 i2 = 0.98.
  const double G = 0.98;
  EXPECT_NEAR(r.aircraft.lateral.Lb, (-2.0 + 0.2 * 1.2) / G, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Nb, (1.2 + 0.1 * -2.0) / G, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Lp, (-1.5 + 0.2 * -0.05) / G, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Nr, (-0.2 + 0.1 * 0.3) / G, kConversion);
  EXPECT_NEAR(r.aircraft.controls[0].L, (1.0 + 0.2 * 0.1) / G, kConversion);
  EXPECT_NEAR(r.aircraft.controls[0].N, (0.1 + 0.1 * 1.0) / G, kConversion);
  // Side-force derivatives are untouched.
  EXPECT_NEAR(r.aircraft.lateral.Yb, -20.0, kConversion);
}

TEST(LoadAircraftString, VFormEqualsBetaFormTimesU0) {
  const std::string v_form = R"(
[lateral]
form = "normalized"
primed = true
Yv = -0.2
Yp = 0.0
Yr = 0.0
Lv = -0.02
Lp = -1.5
Lr = 0.3
Nv = 0.012
Np = -0.05
Nr = -0.2
)";
  const auto r = LoadAircraftString(kHeader + std::string(kLongitudinalAlpha) + v_form, "v");
  EXPECT_NEAR(r.aircraft.lateral.Yb, -20.0, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Lb, -2.0, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Nb, 1.2, kConversion);
}

TEST(LoadAircraftFile, MissingFileIsADataError) {
  EXPECT_EQ(ErrorOf("no_such_file.toml"), "no_such_file.toml:0: cannot open file: No such file or directory (check the path)");
}

// One fixture per defect; each pins file:line and the message.
struct DefectCase {
  const char* file;
  const char* expected;
};

class LoaderDefect : public testing::TestWithParam<DefectCase> {};

TEST_P(LoaderDefect, ReportsLocatedMessage) {
  EXPECT_EQ(ErrorOf(GetParam().file), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, LoaderDefect,
    testing::Values(
        DefectCase{"missing_derivative.toml",
                   "missing_derivative.toml:10: missing 'Ma' in [longitudinal] (required derivative; "
                   "write 0.0 if the source neglects it)"},
        DefectCase{"unknown_key.toml",
                   "unknown_key.toml:17: unknown key 'M_alfa' in [longitudinal] (did you mean 'Ma'?)"},
        DefectCase{"unknown_key_no_suggestion.toml",
                   "unknown_key_no_suggestion.toml:21: unknown key 'flaps' in [longitudinal] "
                   "(control derivatives go in a [controls.<name>] table)"},
        DefectCase{"both_alpha_and_w_form.toml",
                   "both_alpha_and_w_form.toml:21: both α-form (Xa Za Ma Madot) and w-form (Xw Zw Mw "
                   "Mwdot) derivatives given; use one form per file"},
        DefectCase{"non_finite_value.toml",
                   "non_finite_value.toml:20: 'Mq' in [longitudinal] must be a finite number"},
        DefectCase{"non_numeric_value.toml",
                   "non_numeric_value.toml:20: 'Mq' in [longitudinal] must be a number"},
        DefectCase{"unknown_unit_system.toml",
                   "unknown_unit_system.toml:6: unknown unit system 'metric' (expected \"SI\" or "
                   "\"imperial\")"},
        DefectCase{"missing_units.toml",
                   "missing_units.toml:5: missing 'units' in [condition] (a quoted string)"},
        DefectCase{"nonpositive_U0.toml",
                   "nonpositive_U0.toml:7: U0 must be > 0 (trim speed along the stability x axis)"},
        DefectCase{"theta0_90_deg.toml",
                   "theta0_90_deg.toml:8: |theta0| must be < 90 deg, the Euler-angle singularity"},
        DefectCase{"theta0_degrees_in_rad_key.toml",
                   "theta0_degrees_in_rad_key.toml:8: theta0 = 5 rad is 286.5 deg; |theta0| must be "
                   "< 90 deg (did you mean theta0_deg = 5?)"},
        DefectCase{"theta0_both_keys.toml",
                   "theta0_both_keys.toml:8: both theta0 and theta0_deg given (keep one)"},
        DefectCase{"raw_without_mass.toml",
                   "raw_without_mass.toml:12: raw form needs [mass] m to normalize 'Xu' (add it, or "
                   "give normalized derivatives with form = \"normalized\")\n"
                   "raw_without_mass.toml:14: raw form needs [mass] Iy to normalize 'Mu' (add it, or "
                   "give normalized derivatives with form = \"normalized\")"},
        DefectCase{"unprimed_ixz_without_inertias.toml",
                   "unprimed_ixz_without_inertias.toml:11: unprimed L, N with Ixz != 0 need [mass] Ix "
                   "and Iz to apply the Ixz coupling (add them, or give primed derivatives with "
                   "primed = true)"},
        DefectCase{"unprimed_without_ixz.toml",
                   "unprimed_without_ixz.toml:24: primed = false needs [mass] Ixz (write Ixz = 0.0 if "
                   "the product of inertia is negligible)"},
        DefectCase{"control_without_derivative.toml",
                   "control_without_derivative.toml:43: control 'spoiler' has no derivative (give at "
                   "least one of X Z M Y L N)"},
        DefectCase{"toml_syntax_error.toml",
                   "toml_syntax_error.toml:20: TOML syntax error: Error while parsing key-value pair: "
                   "expected a comment or whitespace, saw '0' (column 13)"},
        DefectCase{"missing_table.toml", "missing_table.toml:1: missing table [lateral]"},
        DefectCase{"unknown_aircraft_class.toml",
                   "unknown_aircraft_class.toml:4: unknown aircraft class 'V' (expected one of I, "
                   "II-C, II-L, III, IV)"},
        DefectCase{"ambiguous_aircraft_class_II.toml",
                   "ambiguous_aircraft_class_II.toml:4: aircraft class 'II' is ambiguous (use 'II-C' "
                   "for carrier-based or 'II-L' for land-based: MIL-F-8785C's tables differ between "
                   "them)"},
        DefectCase{"aircraft_class_not_a_string.toml",
                   "aircraft_class_not_a_string.toml:4: 'class' in [aircraft] must be a quoted "
                   "string"},
        DefectCase{"unknown_flight_phase_category.toml",
                   "unknown_flight_phase_category.toml:7: unknown flight-phase category 'D' "
                   "(expected one of A, B, C)"},
        DefectCase{"nonpositive_span.toml",
                   "nonpositive_span.toml:11: 'b' (wing span) must be > 0"},
        DefectCase{"several_defects.toml",
                   "several_defects.toml:17: unknown key 'M_alfa' in [longitudinal] (did you mean "
                   "'Ma'?)\nseveral_defects.toml:33: 'Nr' in [lateral] must be a finite number"}),
    [](const testing::TestParamInfo<DefectCase>& info) {
      std::string name = info.param.file;
      name = name.substr(0, name.find('.'));
      return name;
    });

TEST(LoadAircraftFile, WingSpanIsOptionalAndConvertedToSI) {
  EXPECT_FALSE(LoadAircraftFile(Fixture("valid_minimal.toml")).aircraft.geometry.b.has_value());
  const LoadResult p2v7 =
      LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  ASSERT_TRUE(p2v7.aircraft.geometry.b.has_value());
  EXPECT_NEAR(*p2v7.aircraft.geometry.b, 103.83 * 0.3048, kConversion);
  const LoadResult b747 = LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) +
                                           "/data/derivatives/boeing747_cruise_40kft.toml");
  ASSERT_TRUE(b747.aircraft.geometry.b.has_value());
  EXPECT_DOUBLE_EQ(*b747.aircraft.geometry.b, 59.64);
  try {
    LoadAircraftString("[geometry]\nspan = 3.0\n", "g.toml");
    ADD_FAILURE() << "an unknown [geometry] key loaded";
  } catch (const core::DataError& e) {
    EXPECT_NE(std::string(e.what()).find("g.toml:2: unknown key 'span' in [geometry]"),
              std::string::npos)
        << e.what();
  }
}

TEST(LoadAircraftFile, ValidMinimalFixtureLoads) {
  EXPECT_NO_THROW(LoadAircraftFile(Fixture("valid_minimal.toml")));
}

TEST(LoadAircraftFile, ClassAndCategoryAreOptionalAndCaseInsensitive) {
  const LoadResult without = LoadAircraftFile(Fixture("valid_minimal.toml"));
  EXPECT_FALSE(without.aircraft.aircraft_class.has_value());
  EXPECT_FALSE(without.aircraft.condition.category.has_value());
  const LoadResult with = LoadAircraftFile(Fixture("valid_class_and_category.toml"));
  ASSERT_TRUE(with.aircraft.aircraft_class.has_value());
  EXPECT_EQ(*with.aircraft.aircraft_class, model::AircraftClass::kIII);  // written "iii"
  ASSERT_TRUE(with.aircraft.condition.category.has_value());
  EXPECT_EQ(*with.aircraft.condition.category, model::FlightPhaseCategory::kB);  // written "b"
}

TEST(LoadAircraftFile, WarnsOnPositiveMalpha) {
  const LoadResult r = LoadAircraftFile(Fixture("warning_positive_Ma.toml"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].where.line, 17);
  EXPECT_EQ(r.warnings[0].message,
            "Ma: M_alpha > 0, expected < 0: the aircraft is statically unstable in pitch (a "
            "nose-up disturbance grows); fine for an unstable design, otherwise check the sign");
}

// The warning names the key as the file wrote it (w-form: Mw) at its line.
TEST(LoadAircraftFile, WarningNamesTheKeyOfTheFilesForm) {
  const LoadResult r = LoadAircraftFile(Fixture("warning_positive_Mw_w_form.toml"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].where.line, 17);
  EXPECT_EQ(r.warnings[0].message.substr(0, 34), "Mw: M_alpha > 0, expected < 0: the");
}

// valid_minimal.toml (the P2V-7) with Za, Ma, Lb, Nb divided by 57.3.
TEST(LoadAircraftFile, WarnsOnATableTypedPerDegree) {
  const LoadResult r = LoadAircraftFile(Fixture("warning_per_degree_table.toml"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].where.line, 16);
  EXPECT_EQ(r.warnings[0].message,
            "Za, Ma, Lb, Nb: implausibly small for any aircraft per radian (|Z_alpha| < g/2, "
            "|M_alpha| < 0.09 1/s^2, |L_beta|, |N_beta| < 0.04 1/s^2): per degree? add "
            "per_degree = true");
}

// [lateral] beta = "v/V": the β-derivatives × U0/V; the NT-33A (CR-2144,
// body axes, alpha0 = 2.2°) declares it.
TEST(LoadAircraftFile, SideslipOverVIsConvertedToOverU0) {
  const LoadResult r =
      LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/nt33a_power_approach_sl.toml");
  const double U0 = 227.832, W0 = 8.7524;  // ft/s, as in the file
  const double k = U0 / std::hypot(U0, W0);
  EXPECT_NEAR(k, std::cos(2.20 * core::kDegToRad), 1e-6);
  EXPECT_NEAR(r.aircraft.lateral.Yb, -28.4 * 0.3048 * k, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Lb, -5.49 * k, kConversion);
  EXPECT_NEAR(r.aircraft.lateral.Nb, 0.667 * k, kConversion);
  EXPECT_DOUBLE_EQ(r.aircraft.lateral.Lp, -2.03);
  EXPECT_EQ(r.file.written.lateral.beta, model::SideslipDefinition::kVOverV);
  EXPECT_EQ(ErrorOf("unknown_beta_definition.toml"),
            "unknown_beta_definition.toml:25: unknown beta 'v/W' (expected \"v/U0\", aerolin's "
            "sideslip, or \"v/V\")");
  EXPECT_EQ(ErrorOf("beta_v_over_V_with_v_form.toml"),
            "beta_v_over_V_with_v_form.toml:25: beta = \"v/V\" applies to beta-form derivatives "
            "(Yb Lb Nb); v-form derivatives (Yv Lv Nv) do not depend on it (remove the key)");
}

TEST(LoadAircraftFile, WarnsOnLargeThetaInRadians) {
  const LoadResult r = LoadAircraftFile(Fixture("warning_theta0_large_rad.toml"));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].where.line, 8);
  EXPECT_EQ(r.warnings[0].message,
            "theta0 = 0.5 rad is 28.65 deg; if you meant degrees, write theta0_deg");
  EXPECT_DOUBLE_EQ(r.aircraft.condition.theta0, 0.5);
}

TEST(LoadAircraftFile, EveryBundledAircraftLoadsWithoutWarnings) {
  for (const char* name : {"p2v7.toml", "boeing747_cruise_40kft.toml", "nt33a_power_approach_sl.toml", "navion_cruise_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const LoadResult r =
        LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name);
    EXPECT_TRUE(r.warnings.empty()) << name << ": " << r.warnings.front().ToString();
  }
}

// Regression: these loaded, and the model failed later with "StateSpace:
// non-finite entry" and no line.
TEST(LoadAircraftFile, ReportsValuesThatOverflowTheModelAtTheirLine) {
  EXPECT_EQ(ErrorOf("derivative_overflows.toml"),
            "derivative_overflows.toml:17: 'Ma' in [longitudinal] is -1e+300 once converted to SI "
            "(longitudinal.Ma), beyond 1e+100 (check the value and its units)");
  EXPECT_EQ(ErrorOf("w_form_overflows_times_U0.toml"),
            "w_form_overflows_times_U0.toml:17: 'Mw' in [longitudinal] is -inf once "
            "converted to SI (longitudinal.Ma / U0), beyond 1e+100 (check the value and its units)");
}

// What the per-key bound cannot see (a division by a tiny U0) is located at
// the section of the model that overflows, with no internal names.
TEST(LoadAircraftFile, ReportsAModelThatOverflowsAtItsSection) {
  EXPECT_EQ(ErrorOf("tiny_U0_overflows_model.toml"),
            "tiny_U0_overflows_model.toml:10: the longitudinal model overflows (a matrix entry is "
            "not finite): a value is far outside the physical range (check the values and their "
            "units)\n"
            "tiny_U0_overflows_model.toml:22: the lateral model overflows (a matrix entry is not "
            "finite): a value is far outside the physical range (check the values and their units)");
}

std::string StringError(const std::string& text) {
  try {
    LoadAircraftString(text, "m.toml");
  } catch (const core::DataError& e) {
    return e.what();
  }
  return "";
}

// toml++ 3.3.0 has undefined behaviour on these (upstream #190, #295); they
// are rejected, with their line, before the parser sees them.
TEST(LoadAircraftString, RejectsNulAndInvalidUtf8BeforeParsing) {
  EXPECT_EQ(StringError(std::string("[\0]\n", 4)),
            "m.toml:1: NUL byte at column 2 (aerolin reads UTF-8 text files)");
  EXPECT_EQ(StringError("# ok\n\xC3\xA9 = 1\n\xFF\n"),
            "m.toml:3: invalid UTF-8 byte 0xFF at column 1 (aerolin reads UTF-8 text files)");
  EXPECT_EQ(StringError("a = 1\n\xC0\xAF = 2\n"),  // overlong '/'
            "m.toml:2: invalid UTF-8 sequence starting 0xC0 at column 1 (aerolin reads UTF-8 text files)");
  EXPECT_EQ(StringError("a = \"\xED\xA0\x80\"\n"),  // a UTF-16 surrogate
            "m.toml:1: invalid UTF-8 sequence starting 0xED at column 6 (aerolin reads UTF-8 text files)");
}

TEST(LoadAircraftFile, IgnoresAByteOrderMark) {
  const std::string text = core::ReadInputFile(Fixture("valid_minimal.toml"));
  EXPECT_NO_THROW(LoadAircraftString("\xEF\xBB\xBF" + text, "bom.toml"));
}

// Regression: /dev/zero read until memory ran out; a FIFO blocked forever.
TEST(LoadAircraftFile, AcceptsRegularFilesOnlyUpToTheSizeCap) {
  const std::string fifo = ::testing::TempDir() + "aerolin_fifo_test_" + std::to_string(::getpid());
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo, std::string(AEROLIN_SOURCE_DIR)}) {
    try {
      LoadAircraftFile(path);
      ADD_FAILURE() << path << " was read";
    } catch (const core::DataError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ":0: not a regular file (", 0), 0u) << e.what();
    }
  }
  std::remove(fifo.c_str());
  // A sparse file one byte over the cap: refused from its size, unread.
  const std::string big = ::testing::TempDir() + "aerolin_big_test_" + std::to_string(::getpid()) + ".toml";
  {
    std::ofstream out(big, std::ios::binary);
    out.seekp(static_cast<std::streamoff>(core::kMaxInputFileBytes));
    out.put('\n');
  }
  EXPECT_EQ(std::string(core::ReadInputFile(Fixture("valid_minimal.toml"))).empty(), false);
  try {
    LoadAircraftFile(big);
    ADD_FAILURE() << "a file over the cap was read";
  } catch (const core::DataError& e) {
    EXPECT_EQ(std::string(e.what()),
              big + ":0: file is " + std::to_string(core::kMaxInputFileBytes + 1) +
                  " bytes, larger than the 32 MiB limit of an input file");
  }
  std::remove(big.c_str());
}

// [augmentation.<axis>]: read as SI gains, closed by the builders.
std::string P2v7Text() {
  return core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
}

int LinesOf(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(LoadAircraftString, AugmentationClosesTheLoopInTheBuilders) {
  const std::string base = P2v7Text();
  const std::string text = base +
                           "[augmentation.lateral]\nunits = \"SI\"\ninputs = [\"rudder\"]\n"
                           "states = [\"beta\", \"p\", \"r\", \"phi\", \"psi\"]\n"
                           "gain = [[4.5, -1.5, -4, -1.25, 0]]\n";
  const model::AircraftData a = LoadAircraftString(text, "p.toml").aircraft;
  ASSERT_TRUE(a.lateral_augmentation);
  EXPECT_FALSE(a.longitudinal_augmentation);
  EXPECT_EQ(a.lateral_augmentation->inputs, std::vector<std::string>{"rudder"});
  const model::AircraftData bare = LoadAircraftString(base, "p.toml").aircraft;
  const model::StateSpace open = model::BuildLateral(bare), closed = model::BuildLateral(a);
  Eigen::RowVectorXd K(5);
  K << 4.5, -1.5, -4.0, -1.25, 0.0;
  // rudder is the second lateral control of the P2V-7 (aileron, rudder).
  ASSERT_EQ(open.inputs()[1].name, "rudder");
  EXPECT_EQ(closed.A(), (open.A() - open.B().col(1) * K).eval());
  EXPECT_EQ(closed.B(), open.B());
  EXPECT_EQ(model::BuildLongitudinal(a).A(), model::BuildLongitudinal(bare).A());
  // Sensitivities and sweeps refuse it (they would ignore the gains).
  EXPECT_TRUE(LoadAircraftString(text, "p.toml").file.augmented);
  EXPECT_FALSE(LoadAircraftString(base, "p.toml").file.augmented);
}

TEST(LoadAircraftString, AugmentationDefectsAreLocated) {
  const std::string base = P2v7Text();
  const int n = LinesOf(base);
  auto error = [&](const std::string& section) {
    return test_support::DataErrorOf([&] { LoadAircraftString(base + section, "p.toml"); });
  };
  const std::string states = "states = [\"beta\", \"p\", \"r\", \"phi\", \"psi\"]\n";
  EXPECT_EQ(error("[augmentation.lateral]\nunits = \"imperial\"\ninputs = [\"rudder\"]\n" + states +
                  "gain = [[1, 0, 0, 0, 0]]\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": 'units' in [augmentation.lateral] must be \"SI\": the gains are SI (input unit "
                "per state unit) whatever the file's units");
  EXPECT_EQ(error("[augmentation.lateral]\nunits = \"SI\"\ninputs = [\"elevator\"]\n" + states +
                  "gain = [[1, 0, 0, 0, 0]]\n"),
            "p.toml:" + std::to_string(n + 3) +
                ": 'elevator' in [augmentation.lateral] inputs is no lateral control (aileron, rudder)");
  EXPECT_EQ(error("[augmentation.lateral]\nunits = \"SI\"\ninputs = [\"rudder\"]\n"
                  "states = [\"p\", \"beta\", \"r\", \"phi\", \"psi\"]\ngain = [[1, 0, 0, 0, 0]]\n"),
            "p.toml:" + std::to_string(n + 4) +
                ": 'states' in [augmentation.lateral] must be [\"beta\", \"p\", \"r\", \"phi\", "
                "\"psi\"] (the axis's states, in this order: the gain's columns)");
  EXPECT_EQ(error("[augmentation.lateral]\nunits = \"SI\"\ninputs = [\"rudder\"]\n" + states +
                  "gain = [[1, 0, 0, 0]]\n"),
            "p.toml:" + std::to_string(n + 5) +
                ": row 1 of 'gain' in [augmentation.lateral] must hold 5 numbers, one per state");
  EXPECT_EQ(error("[augmentation.lateral]\nunits = \"SI\"\ninputs = [\"rudder\"]\n" + states +
                  "gain = [[1, 0, 0, 0, 0.5]]\n"),
            "p.toml:" + std::to_string(n + 5) +
                ": the gain on psi in [augmentation.lateral] must be 0: aerolin's lateral modes need "
                "psi a free integrator (heading hold cannot be written to a file yet)");
  EXPECT_EQ(error("[augmentation.longitudinal]\nunits = \"SI\"\ninputs = [\"elevator\"]\n"
                  "states = [\"u\", \"alpha\", \"q\", \"theta\"]\ngain = [[1, 0, 0, 0], [0, 0, 0, 0]]\n"),
            "p.toml:" + std::to_string(n + 5) +
                ": 'gain' in [augmentation.longitudinal] must be an array of 1 rows (one per input), "
                "each of 4 numbers (one per state)");
}

// [actuators]: the command path of the MIL-STD-1797A criteria, keys with units.
TEST(LoadAircraftString, ActuatorsAreReadInSi) {
  const std::string text = P2v7Text() +
                           "[actuators]\ndelay_s = 0.05\n"
                           "elevator = { time_constant_s = 0.05, limit_deg = 25, rate_limit_deg_s = 60 }\n"
                           "aileron = { time_constant_s = 0.1 }\n";
  const model::CommandPath path = LoadAircraftString(text, "p.toml").aircraft.command_path;
  EXPECT_EQ(path.delay, 0.05);
  ASSERT_EQ(path.actuators.size(), 2u);
  const model::Actuator& e = path.actuators.at("elevator");
  EXPECT_EQ(e.time_constant, 0.05);
  EXPECT_DOUBLE_EQ(*e.position_limit, 25.0 * std::numbers::pi / 180.0);
  EXPECT_DOUBLE_EQ(*e.rate_limit, 60.0 * std::numbers::pi / 180.0);
  EXPECT_FALSE(path.actuators.at("aileron").position_limit);
  EXPECT_FALSE(path.actuators.at("aileron").rate_limit);
  EXPECT_TRUE(LoadAircraftString(P2v7Text(), "p.toml").aircraft.command_path.empty());
}

TEST(LoadAircraftString, ActuatorDefectsAreLocated) {
  const std::string base = P2v7Text();
  const int n = LinesOf(base);
  auto error = [&](const std::string& section) {
    return test_support::DataErrorOf([&] { LoadAircraftString(base + section, "p.toml"); });
  };
  EXPECT_EQ(error("[actuators]\nelevator = { time_constant_s = -0.05 }\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": 'time_constant_s' in [actuators.elevator]: an actuator time constant must be > 0 and at "
                "most 1 s (got -0.05 s; leave the actuator out for an ideal one)");
  EXPECT_EQ(error("[actuators]\ndelay_s = 1.5\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": 'delay_s' in [actuators]: a delay must be at least 0 and at most 1 s (got 1.5 s)");
  EXPECT_EQ(error("[actuators]\nelevatr = { time_constant_s = 0.05 }\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": unknown key 'elevatr' in [actuators] (expected delay_s or a control's name: elevator, "
                "throttle, aileron, rudder)");
  EXPECT_EQ(error("[actuators]\nthrottle = { time_constant_s = 0.5 }\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": 'throttle' in [actuators] is dimensionless (unit = \"1\"): actuators are for control "
                "surfaces, in radians");
  EXPECT_EQ(error("[actuators]\nelevator = { time_constant_s = 0.05, rate_limit_deg_s = 0 }\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": 'rate_limit_deg_s' in [actuators.elevator]: a limit must be a finite number > 0 (got 0; "
                "leave it out for none)");
  EXPECT_EQ(error("[actuators]\nelevator = { limit_deg = 20 }\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": missing 'time_constant_s' in [actuators.elevator] (the actuator's time constant in s, e.g. 0.05)");
  EXPECT_EQ(error("[actuators]\nelevator = 0.05\n"),
            "p.toml:" + std::to_string(n + 2) +
                ": 'elevator' in [actuators] must be a table, e.g. elevator = { time_constant_s = 0.05 }");
}

}  // namespace
}  // namespace aerolin::data

namespace aerolin::data {
namespace {

// [augmentation.AXIS] loops: δ_input = K·y_output closed as the gain −K in
// the output's column (a row per input); the defects each named at their line.
TEST(LoadAircraftString, AugmentationLoopsAreTheGainWithMinusKAtTheOutput) {
  const std::string p2v7 = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::string head = p2v7 + "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n";
  const int first = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;  // the first loop's line
  const auto r = LoadAircraftString(head +
                                        "  { input = \"rudder\", output = \"r\", gain = 1.5 },\n"
                                        "  { input = \"aileron\", output = \"p\", gain = -0.25 },\n"
                                        "  { input = \"rudder\", output = \"beta\", gain = 2 },\n]\n",
                                    "loops.toml");
  ASSERT_TRUE(r.aircraft.lateral_augmentation);
  const model::AxisAugmentation& aug = *r.aircraft.lateral_augmentation;
  EXPECT_EQ(aug.inputs, (std::vector<std::string>{"rudder", "aileron"}));
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(2, 5);
  expected(0, model::lat::kR) = -1.5;
  expected(0, model::lat::kBeta) = -2.0;
  expected(1, model::lat::kP) = 0.25;
  EXPECT_EQ(aug.gain, expected);
  auto error = [&](const std::string& loops) {
    return test_support::DataErrorOf([&] { LoadAircraftString(head + loops + "]\n", "loops.toml"); });
  };
  const std::string at = "loops.toml:" + std::to_string(first) + ": ";
  EXPECT_EQ(error("  { input = \"rudder\", output = \"q\", gain = 1 },\n"),
            at + "'q' in a loop of [augmentation.lateral] is no lateral state ([\"beta\", \"p\", \"r\", \"phi\", \"psi\"]) "
                 "or derived output ([\"ay\"])");
  EXPECT_EQ(error("  { input = \"elevator\", output = \"r\", gain = 1 },\n"),
            at + "'elevator' in a loop of [augmentation.lateral] is no lateral control (aileron, rudder)");
  EXPECT_EQ(error("  { input = \"rudder\", output = \"r\", gain = 1 },\n  { input = \"rudder\", output = \"r\", gain = 2 },\n"),
            "loops.toml:" + std::to_string(first + 1) + ": the loop rudder:r is given twice in [augmentation.lateral]");
  EXPECT_NE(error("  { input = \"rudder\", output = \"r\", gain = 1, washout = 1.5 },\n")
                .find(at + "unknown key 'washout' in [augmentation.lateral.loops] (did you mean 'washout_s'?)"),
            std::string::npos);
  const std::string bad_washout = at + "'washout_s' in a loop of [augmentation.lateral] must be the washout's "
                                       "time constant tau, a number of seconds from 0.01 to 100 (s/(s + 1/tau): a "
                                       "yaw damper's is about 1 to 4)";
  EXPECT_EQ(error("  { input = \"rudder\", output = \"r\", gain = 1, washout_s = 0 },\n"), bad_washout);
  EXPECT_EQ(error("  { input = \"rudder\", output = \"r\", gain = 1, washout_s = -1.5 },\n"), bad_washout);
  EXPECT_EQ(error("  { input = \"rudder\", output = \"r\", gain = 1, washout_s = 1e6 },\n"), bad_washout);
  EXPECT_EQ(error("  { input = \"rudder\", output = \"r\", gain = 1, washout_s = \"1.5\" },\n"), bad_washout);
  // A heading hold: located at 'loops' (the line before the first loop).
  EXPECT_EQ(error("  { input = \"rudder\", output = \"psi\", gain = 1 },\n")
                .rfind("loops.toml:" + std::to_string(first - 1) + ": a loop on psi in [augmentation.lateral]", 0),
            0u);
}

// A loop with washout_s is kept as an output loop with its τ (on a state
// too), closed with its filter state by model::BuildAugmented; the flight
// carries that state, a sweep and a batched Monte Carlo do not, so the load
// says where, for RefuseWashout.
TEST(LoadAircraftString, WashedOutLoopIsKeptWithItsLineForMonteCarlosRefusal) {
  const std::string p2v7 = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::string head = p2v7 + "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n";
  const int first = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
  const auto r = LoadAircraftString(head +
                                        "  { input = \"aileron\", output = \"p\", gain = -0.3 },\n"
                                        "  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n]\n",
                                    "washout.toml");
  ASSERT_TRUE(r.aircraft.lateral_augmentation);
  const model::AxisAugmentation& aug = *r.aircraft.lateral_augmentation;
  EXPECT_EQ(aug.inputs, (std::vector<std::string>{"aileron", "rudder"}));
  Eigen::MatrixXd state_gain = Eigen::MatrixXd::Zero(2, 5);
  state_gain(0, model::lat::kP) = 0.3;
  EXPECT_EQ(aug.gain, state_gain);  // the washed-out loop is not in the state gain
  ASSERT_EQ(aug.output_loops.size(), 1u);
  EXPECT_EQ(aug.output_loops[0].input, "rudder");
  EXPECT_EQ(aug.output_loops[0].output, "r");
  EXPECT_EQ(aug.output_loops[0].gain, 1.7);
  EXPECT_EQ(aug.output_loops[0].washout_s, 1.5);
  EXPECT_TRUE(r.not_flyable.empty());
  EXPECT_NO_THROW(RequireFlyable(r));
  ASSERT_EQ(r.washout_loops.size(), 1u);
  EXPECT_EQ(r.washout_loops[0].where.line, first + 1);
  EXPECT_EQ(test_support::DataErrorOf([&] { RefuseWashout(r, "why"); }),
            "washout.toml:" + std::to_string(first + 1) +
                ": the loop rudder:r in [augmentation.lateral] has a washout (washout_s): why");
  // Without a washout nothing is refused.
  EXPECT_NO_THROW(RefuseWashout(LoadAircraftString(p2v7, "p2v7.toml"), "why"));
}

// The flight carries at most model::kMaxAuxiliaryStates actuators and
// washout filters: more is not flyable, located at [actuators].
TEST(LoadAircraftString, MoreActuatorsAndFiltersThanTheFlightCarriesAreLocated) {
  const std::string p2v7 = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::string loops = "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n"
                            "  { input = \"aileron\", output = \"p\", gain = -0.3, washout_s = 1 },\n"
                            "  { input = \"aileron\", output = \"r\", gain = 0.1, washout_s = 1 },\n"
                            "  { input = \"rudder\", output = \"p\", gain = 0.1, washout_s = 1 },\n"
                            "  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n]\n";
  const std::string head = p2v7 + loops;
  const int at = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
  const std::string three = "[actuators]\nelevator = { time_constant_s = 0.05 }\naileron = { time_constant_s = 0.05 }\n"
                            "rudder = { time_constant_s = 0.05 }\n";
  const auto r = LoadAircraftString(head + three, "many.toml");
  ASSERT_EQ(r.not_flyable.size(), 1u);
  EXPECT_EQ(test_support::DataErrorOf([&] { RequireFlyable(r); }),
            "many.toml:" + std::to_string(at) +
                ": 3 actuators and 4 washout filters: the flight carries at most 6 such states (one each); fly "
                "with fewer actuators or washed-out loops");
  // Two actuators and four filters: six, it flies.
  const auto six = LoadAircraftString(head + "[actuators]\naileron = { time_constant_s = 0.05 }\n"
                                             "rudder = { time_constant_s = 0.05 }\n", "six.toml");
  EXPECT_TRUE(six.not_flyable.empty());
}

// Loops on an acceleration (nz, also spelled n_z; ay) are kept as loops, which
// the builders close through their feedthrough; K = 1/D is refused at 'loops'.
TEST(LoadAircraftString, AugmentationLoopsOnAccelerationsCloseThroughTheirFeedthrough) {
  const std::string p2v7 = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::string head = p2v7 + "\n[augmentation.longitudinal]\nunits = \"SI\"\nloops = [\n";
  const int first = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
  const auto r = LoadAircraftString(head +
                                        "  { input = \"elevator\", output = \"n_z\", gain = 0.05 },\n"
                                        "  { input = \"elevator\", output = \"q\", gain = 0.3 },\n]\n",
                                    "nz.toml");
  ASSERT_TRUE(r.aircraft.longitudinal_augmentation);
  const model::AxisAugmentation& aug = *r.aircraft.longitudinal_augmentation;
  EXPECT_EQ(aug.inputs, (std::vector<std::string>{"elevator"}));
  Eigen::MatrixXd state_gain = Eigen::MatrixXd::Zero(1, 4);
  state_gain(0, model::lon::kQ) = -0.3;
  EXPECT_EQ(aug.gain, state_gain);
  ASSERT_EQ(aug.output_loops.size(), 1u);
  EXPECT_EQ(aug.output_loops[0].input, "elevator");
  EXPECT_EQ(aug.output_loops[0].output, "nz");
  EXPECT_EQ(aug.output_loops[0].gain, 0.05);
  auto error = [&](const std::string& loops) {
    return test_support::DataErrorOf([&] { LoadAircraftString(head + loops + "]\n", "nz.toml"); });
  };
  EXPECT_EQ(error("  { input = \"elevator\", output = \"nz\", gain = 1 },\n  { input = \"elevator\", output = \"n_z\", gain = 2 },\n"),
            "nz.toml:" + std::to_string(first + 1) + ": the loop elevator:nz is given twice in [augmentation.longitudinal]");
  EXPECT_EQ(error("  { input = \"elevator\", output = \"ay\", gain = 1 },\n"),
            "nz.toml:" + std::to_string(first) + ": 'ay' in a loop of [augmentation.longitudinal] is no longitudinal "
            "state ([\"u\", \"alpha\", \"q\", \"theta\"]) or derived output ([\"nz\", \"gamma\"])");
  model::AircraftData bare = LoadAircraftString(p2v7, "p.toml").aircraft;
  const double D = model::BuildWithOutputs(bare, model::Axis::kLongitudinal).D()(model::lon_out::kNz, 0);
  char singular[96];
  std::snprintf(singular, sizeof singular, "  { input = \"elevator\", output = \"nz\", gain = %.17g },\n", 1.0 / D);
  EXPECT_EQ(error(singular),
            "nz.toml:" + std::to_string(first - 1) +
                ": the longitudinal augmentation's loops elevator:nz: I - K D is singular (delta = K*y with "
                "y = C x + D delta: the gain K times the control's own effect D on what it measures is 1, so "
                "the surface deflection would be infinite); change the gain in [augmentation.longitudinal]");
}

}  // namespace
}  // namespace aerolin::data
