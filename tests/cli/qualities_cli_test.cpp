#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

// The P2V-7 as Class III: levels per category derived by hand in
// tests/analysis/flying_qualities_test.cpp (Dutch-roll ζ·ωn = 0.108 rad/s is
// Level 2 against 0.35 (A) and 0.15 (B), Level 1 against 0.10 (C, III)).
TEST(QualitiesCommand, JsonGradesEveryCategoryOfTheP2V7) {
  const auto r = RunAerolin("qualities data/derivatives/p2v7.toml --class III --json", "fq_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "aerolin.qualities/1");
  EXPECT_EQ(doc["class"], "III");
  EXPECT_NEAR(doc["n_alpha_g_per_rad"].get<double>(), 7.335, 0.001);
  ASSERT_EQ(doc["categories"].size(), 3u);
  EXPECT_EQ(doc["categories"][0]["category"], "A");
  EXPECT_EQ(doc["categories"][0]["level"], 2);
  EXPECT_EQ(doc["categories"][1]["level"], 2);
  EXPECT_EQ(doc["categories"][2]["level"], 1);
  EXPECT_EQ(doc["level"], 2);
  EXPECT_EQ(doc["categories"][0]["mode_levels"]["dutch roll"], 2);
  bool found = false;
  for (const auto& req : doc["categories"][0]["requirements"]) {
    if (req["mode"] != "dutch roll" || req["criterion"] != "zeta*wn") continue;
    found = true;
    EXPECT_NEAR(req["value"].get<double>(), 0.1082, 1e-4);
    EXPECT_EQ(req["unit"], "rad/s");
    EXPECT_EQ(req["paragraph"], "3.3.1.1");
    EXPECT_EQ(req["level"], 2);
    EXPECT_DOUBLE_EQ(req["limits"]["1"]["min"].get<double>(), 0.35);
    EXPECT_TRUE(req["limits"]["1"]["max"].is_null());
  }
  EXPECT_TRUE(found);
}

TEST(QualitiesCommand, NeverDivergingPhugoidIsNullAndItsLimitNotPermitted) {
  const auto r = RunAerolin("qualities data/derivatives/p2v7.toml --class III --category B --json",
                            "fq_phugoid");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["categories"].size(), 1u);
  for (const auto& req : doc["categories"][0]["requirements"])
    if (req["mode"] == "phugoid" && req["criterion"] == "T2") {
      EXPECT_TRUE(req["value"].is_null());  // +inf: never doubles
      EXPECT_EQ(req["limits"]["1"]["permitted"], false);
      EXPECT_DOUBLE_EQ(req["limits"]["3"]["min"].get<double>(), 55.0);
      EXPECT_EQ(req["level"], 1);
    }
}

TEST(QualitiesCommand, TextTableNamesParagraphsAndOverallLevel) {
  const auto r = RunAerolin("qualities data/derivatives/boeing747_cruise_40kft.toml --class III",
                            "fq_text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"Category A: level 3", "Category B:", "Category C:", "3.2.2.1.1",
                        "3.3.1.3", "Overall (worst category): level 3"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(QualitiesCommand, MissingOrAmbiguousClassIsAUsageError) {
  const auto none = RunAerolin("qualities data/derivatives/p2v7.toml", "fq_noclass");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--class"), std::string::npos) << none.err;
  const auto two = RunAerolin("qualities data/derivatives/p2v7.toml --class II", "fq_class2");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("II-C"), std::string::npos) << two.err;
  const auto cat = RunAerolin("qualities data/derivatives/p2v7.toml --class III --category D",
                              "fq_catD");
  EXPECT_EQ(cat.exit_code, 2);
  EXPECT_EQ(cat.out, "");
}

}  // namespace
}  // namespace aerolin
