#include "aerolin/export/qualities_report.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "export/report_test_support.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Level;
using analysis::Limits;
using analysis::ModeKind;
using analysis::QualitiesGrade;
using analysis::RequirementResult;
using testing::Contains;
using testing::Lines;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Two categories graded by hand: A at Level 2 (the Dutch roll), C at Level 4
// (a roll-spiral oscillation, not permitted at any level).
std::vector<QualitiesGrade> HandGraded() {
  QualitiesGrade a;
  a.aircraft_class = model::AircraftClass::kIV;
  a.category = model::FlightPhaseCategory::kA;
  a.n_alpha = 12.345678;
  a.requirements = {
      {.mode = ModeKind::kShortPeriod,
       .criterion = "zeta",
       .value = 0.5,
       .unit = "-",
       .limits = {Limits{0.35, 1.3}, Limits{0.25, 2.0}, Limits{0.15, std::nullopt}},
       .level = Level::k1,
       .paragraph = "3.2.2.1.2",
       .note = ""},
      {.mode = ModeKind::kPhugoid,
       .criterion = "T2",
       .value = kInf,
       .unit = "s",
       .limits = {Limits{kInf, std::nullopt}, Limits{kInf, std::nullopt}, Limits{55.0, std::nullopt}},
       .level = Level::k1,
       .paragraph = "3.2.1.2",
       .note = "stable: never doubles"},
      {.mode = ModeKind::kDutchRoll,
       .criterion = "zeta*wn",
       .value = 0.1082,
       .unit = "rad/s",
       .limits = {Limits{0.15, std::nullopt}, Limits{0.05, std::nullopt}, Limits{}},
       .level = Level::k2,
       .paragraph = "3.3.1.1",
       .note = ""}};
  a.level = Level::k2;
  QualitiesGrade c = a;
  c.category = model::FlightPhaseCategory::kC;
  c.requirements = {{.mode = ModeKind::kRollSpiral,
                     .criterion = "zeta*wn",
                     .value = 0.2,
                     .unit = "rad/s",
                     .limits = {Limits{kInf, std::nullopt}, Limits{kInf, std::nullopt},
                                Limits{kInf, std::nullopt}},
                     .level = Level::k4,
                     .paragraph = "3.3.1.4",
                     .note = ""}};
  c.level = Level::k4;
  return {a, c};
}

// The line of `lines` that starts (after its indent) with `mode` and holds
// `criterion`, or "".
std::string Row(const std::vector<std::string>& lines, const std::string& mode,
                const std::string& criterion) {
  for (const std::string& line : lines)
    if (line.rfind("  " + mode, 0) == 0 && Contains(line, " " + criterion + " ")) return line;
  return "";
}

TEST(WriteQualitiesText, OneTablePerCategoryWithLimitsLevelsAndTheWorst) {
  std::ostringstream out;
  WriteQualitiesText(out, {"a.toml", "Hand"}, HandGraded());
  const std::string text = out.str();
  const std::vector<std::string> lines = Lines(text);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "Hand  (a.toml)");
  EXPECT_TRUE(Contains(lines[1], "class IV")) << lines[1];
  EXPECT_TRUE(Contains(lines[1], "= 12.35 g/rad")) << lines[1];  // n/α to 4 digits
  EXPECT_TRUE(Contains(text, "\nCategory A: level 2\n")) << text;
  EXPECT_TRUE(Contains(text, "\nCategory C: level 4 (worse than 3)\n")) << text;

  const std::string zeta = Row(lines, "short period", "zeta");
  for (const char* part : {"0.5", "0.35..1.3", "0.25..2", "≥ 0.15", "3.2.2.1.2"})
    EXPECT_TRUE(Contains(zeta, part)) << part << " in: " << zeta;
  // A time to double of +inf is "never"; a minimum of +inf on T2 reads "no
  // divergence"; the note follows the paragraph.
  const std::string t2 = Row(lines, "phugoid", "T2");
  for (const char* part : {"never", "no divergence", "≥ 55", "3.2.1.2  (stable: never doubles)"})
    EXPECT_TRUE(Contains(t2, part)) << part << " in: " << t2;
  const std::string dr = Row(lines, "dutch roll", "zeta*wn");
  for (const char* part : {"0.1082", "≥ 0.15", "≥ 0.05", "3.3.1.1"})
    EXPECT_TRUE(Contains(dr, part)) << part << " in: " << dr;
  // Any other minimum of +inf is "not permitted", at every level.
  const std::string rs = Row(lines, "roll-spiral oscillation", "zeta*wn");
  std::size_t count = 0;
  for (std::size_t at = rs.find("not permitted"); at != std::string::npos;
       at = rs.find("not permitted", at + 1))
    ++count;
  EXPECT_EQ(count, 3u) << rs;

  EXPECT_TRUE(Contains(text, "worst per mode: short period 1; phugoid 1; dutch roll 2;\n")) << text;
  EXPECT_EQ(lines.back(), "Overall (worst category): level 4 (worse than 3)");
}

TEST(WriteQualitiesText, OneCategoryHasNoOverallLineAndNoGradeNoText) {
  std::ostringstream one;
  WriteQualitiesText(one, {"a.toml", "Hand"}, {HandGraded().front()});
  EXPECT_FALSE(Contains(one.str(), "Overall"));
  std::ostringstream none;
  WriteQualitiesText(none, {"a.toml", "Hand"}, {});
  EXPECT_TRUE(none.str().empty());
}

TEST(QualitiesJson, CarriesEveryRequirementWithItsLimitsAndLevels) {
  const std::vector<QualitiesGrade> grades = HandGraded();
  const nlohmann::json doc = nlohmann::json::parse(QualitiesJson({"a.toml", "Hand"}, grades));
  EXPECT_EQ(doc["schema"], "aerolin.qualities/1");
  EXPECT_EQ(doc["file"], "a.toml");
  EXPECT_EQ(doc["aircraft"], "Hand");
  EXPECT_EQ(doc["class"], "IV");
  EXPECT_EQ(doc["n_alpha_g_per_rad"].get<double>(), 12.345678);
  EXPECT_EQ(doc["level"], 4);  // the worst category
  ASSERT_EQ(doc["categories"].size(), 2u);
  const nlohmann::json& a = doc["categories"][0];
  EXPECT_EQ(a["category"], "A");
  EXPECT_EQ(a["level"], 2);
  EXPECT_EQ(a["mode_levels"], (nlohmann::json{{"short period", 1}, {"phugoid", 1}, {"dutch roll", 2}}));
  ASSERT_EQ(a["requirements"].size(), grades[0].requirements.size());
  for (std::size_t i = 0; i < grades[0].requirements.size(); ++i) {
    const RequirementResult& r = grades[0].requirements[i];
    const nlohmann::json& j = a["requirements"][i];
    EXPECT_EQ(j["mode"], analysis::ToString(r.mode));
    EXPECT_EQ(j["criterion"], r.criterion);
    EXPECT_EQ(j["unit"], r.unit);
    EXPECT_EQ(j["level"], analysis::ToInt(r.level));
    EXPECT_EQ(j["paragraph"], r.paragraph);
    EXPECT_EQ(j["note"], r.note);
  }
  const nlohmann::json& zeta = a["requirements"][0];
  EXPECT_EQ(zeta["value"].get<double>(), 0.5);
  EXPECT_EQ(zeta["limits"]["1"], (nlohmann::json{{"min", 0.35}, {"max", 1.3}}));
  EXPECT_EQ(zeta["limits"]["3"], (nlohmann::json{{"min", 0.15}, {"max", nullptr}}));
  // +inf: the value is null, the limit "not permitted" (permitted: false).
  const nlohmann::json& t2 = a["requirements"][1];
  EXPECT_TRUE(t2["value"].is_null());
  EXPECT_EQ(t2["limits"]["1"], (nlohmann::json{{"min", nullptr}, {"max", nullptr}, {"permitted", false}}));
  EXPECT_EQ(t2["limits"]["3"]["min"].get<double>(), 55.0);
  const nlohmann::json& dr = a["requirements"][2];
  EXPECT_EQ(dr["limits"]["3"], (nlohmann::json{{"min", nullptr}, {"max", nullptr}}));
  EXPECT_EQ(doc["categories"][1]["level"], 4);
}

// A real grading: the Navion's file names its class and category.
TEST(QualitiesJson, HoldsTheGradeOfABundledAircraftNumberForNumber) {
  const model::AircraftData navion = testing::Bundled("navion_cruise_sl.toml");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(navion);
  const analysis::ModalSummary summary =
      analysis::SummarizeModes(modes.longitudinal, modes.lateral, navion);
  const QualitiesGrade grade =
      analysis::Grade(summary, *navion.aircraft_class, *navion.condition.category);
  const nlohmann::json doc = nlohmann::json::parse(QualitiesJson({"n.toml", navion.name}, {grade}));
  EXPECT_EQ(doc["class"], "I");
  EXPECT_EQ(doc["n_alpha_g_per_rad"].get<double>(), grade.n_alpha);
  EXPECT_EQ(doc["level"], analysis::ToInt(grade.level));
  const nlohmann::json& requirements = doc["categories"][0]["requirements"];
  ASSERT_EQ(requirements.size(), grade.requirements.size());
  for (std::size_t i = 0; i < grade.requirements.size(); ++i) {
    if (std::isfinite(grade.requirements[i].value)) {
      EXPECT_EQ(requirements[i]["value"].get<double>(), grade.requirements[i].value) << i;
    } else {
      EXPECT_TRUE(requirements[i]["value"].is_null()) << i;
    }
  }
}

}  // namespace
}  // namespace aerolin::exporting
