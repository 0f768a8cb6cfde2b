// The identify report: JSON fields by the schema, the text's % error, and the
// levels at ∓2σ from the modes' standard errors.

#include "aerolin/export/identify_report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "aerolin/export/flight_csv.hpp"

namespace aerolin::exporting {
namespace {

study::IdentifyResult Result() {
  study::IdentifyResult r;
  r.estimates = {{"longitudinal.Ma", true, -3.78, -3.7, 0.01, 0.02}, {"bias.q", false, 0, 1e-5, 1e-5, 2e-5}};
  r.covariance = Eigen::Matrix2d{{1e-4, 0}, {0, 1e-10}};
  r.covariance_corrected = Eigen::Matrix2d{{4e-4, 0}, {0, 4e-10}};
  r.correlation = Eigen::Matrix2d::Identity();
  r.fit = {{"q", "rad/s", 0.001, 0.99}};
  analysis::Mode sp{};
  sp.kind = analysis::ModeKind::kShortPeriod;
  sp.lambda = {-1.0, 2.0};
  sp.oscillatory = true;
  sp.natural_frequency = std::sqrt(5.0);
  sp.damping_ratio = 1.0 / std::sqrt(5.0);
  r.modes = {{sp, 0.01, 0.02, 0.005, 0.01, 0.1, 0.03, 0.05, 0.015}};
  r.samples = 100;
  return r;
}

TEST(IdentifyJson, FollowsTheSchema) {
  const nlohmann::json j = nlohmann::json::parse(IdentifyJson(Result(), "f.toml", "f.csv", {}));
  EXPECT_EQ(j["schema"], "aerolin.identify/1");
  EXPECT_EQ(j["estimates"][0]["key"], "longitudinal.Ma");
  EXPECT_EQ(j["estimates"][0]["std_error"], 0.02);  // the corrected one
  EXPECT_EQ(j["estimates"][0]["std_error_cramer_rao"], 0.01);
  EXPECT_EQ(j["estimates"][1]["file_key"], false);
  EXPECT_EQ(j["modes"][0]["eigenvalue_per_s"]["im"], 2.0);
  EXPECT_EQ(j["modes"][0]["std_error"]["re"], 0.01);
  EXPECT_EQ(j["correlation"]["keys"][1], "bias.q");
  EXPECT_EQ(j["fit"][0]["r2"], 0.99);
}

TEST(WriteIdentifyText, ShowsThePercentErrorOfKeysOnly) {
  std::ostringstream out;
  WriteIdentifyText(out, Result(), "f.toml", "f.csv", {});
  // 100 × 0.02 / 3.7 = 0.54 %.
  EXPECT_NE(out.str().find("longitudinal.Ma                    -3.78          -3.7        0.01        0.02     0.54"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("        -\n"), std::string::npos) << out.str();
}

// A slow mode's standard errors far below 0.0001 keep 3 significant digits
// (fixed decimals printed them as 0.0000).
TEST(WriteIdentifyText, ModesShowStandardErrorsInSignificantDigits) {
  study::IdentifyResult r = Result();
  analysis::Mode ph{};
  ph.kind = analysis::ModeKind::kPhugoid;
  ph.lambda = {-0.0080, 0.1442};
  ph.oscillatory = true;
  ph.natural_frequency = std::abs(ph.lambda);
  ph.damping_ratio = -ph.lambda.real() / ph.natural_frequency;
  analysis::Mode spiral{};
  spiral.kind = analysis::ModeKind::kSpiral;
  spiral.lambda = {-0.0123, 0.0};
  r.modes.push_back({ph, 3.21e-5, 4.56e-5, 1e-5, 2e-5, 2.34e-4, 4.5e-5, 1e-4, 2e-5});
  r.modes.push_back({spiral, 1.234e-5, 0, 1e-5, 0, 0, 0, 0, 0});
  std::ostringstream out;
  WriteIdentifyText(out, r, "f.toml", "f.csv", {});
  EXPECT_NE(out.str().find("short period         λ = -1.0000 ± 2.0000i /s (σ 0.01, 0.02i), ζ = 0.4472 ± 0.1, "
                           "ωn = 2.2361 ± 0.03 rad/s\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("phugoid              λ = -0.0080 ± 0.1442i /s (σ 3.21e-05, 4.56e-05i), ζ = 0.0554 ± "
                           "0.000234, ωn = 0.1444 ± 4.5e-05 rad/s\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("spiral               λ = -0.0123 ± 1.23e-05 /s\n"), std::string::npos) << out.str();
}

// ζ = 0.447 with σ 0.1 against limits given here (Level 1 [0.3, 2], Level 2
// [0.2, 2]): Level 1 at the estimate and at +2σ (0.647), Level 2 at −2σ (0.247).
TEST(LevelsWithUncertainty, GradesTheEstimateMinusAndPlusTwoSigma) {
  analysis::QualitiesGrade grade;
  analysis::RequirementResult q;
  q.mode = analysis::ModeKind::kShortPeriod;
  q.criterion = "zeta";
  q.value = 1.0 / std::sqrt(5.0);
  q.limits = {analysis::Limits{0.3, 2.0}, analysis::Limits{0.2, 2.0}, analysis::Limits{0.15, std::nullopt}};
  q.level = analysis::Level::k1;
  grade.requirements = {q};
  const std::vector<IdentifiedLevel> l = LevelsWithUncertainty(grade, Result());
  ASSERT_EQ(l.size(), 1u);
  ASSERT_TRUE(l[0].sigma);
  EXPECT_EQ(*l[0].sigma, 0.1);
  EXPECT_EQ(l[0].low, analysis::Level::k2);   // 0.247
  EXPECT_EQ(l[0].high, analysis::Level::k1);  // 0.647
}

// Noise only in the columns named, from the seed, on the rows written.
TEST(MeasurementNoise, AddsSeededNoiseToTheNamedColumnsOnly) {
  std::ostringstream a, b;
  FlightCsvRecorder ca(a), cb(b);
  MeasurementNoise na(ca, {{"q", 0.5}, {"elevator", 0.25}}, 7), nb(cb, {{"q", 0.5}, {"elevator", 0.25}}, 7);
  sim::StandardNormal normal(7);
  const double eq = 0.5 * normal(), ee = 0.25 * normal();
  for (MeasurementNoise* n : {&na, &nb}) {
    n->Begin({"elevator"});
    n->Record(0.1, sim::FlightState::Zero(), Eigen::VectorXd::Zero(1));
  }
  EXPECT_EQ(a.str(), b.str());
  std::ostringstream expected;
  WriteFlightCsvRow(expected, 0.1, [&] { sim::FlightState x = sim::FlightState::Zero(); x[2] = eq; return x; }(),
                    Eigen::VectorXd::Constant(1, ee));
  EXPECT_NE(a.str().find(expected.str()), std::string::npos) << a.str() << "\n" << expected.str();
  MeasurementNoise bad(ca, {{"alfa", 0.1}}, 1);
  EXPECT_THROW(bad.Begin({"elevator"}), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::exporting
