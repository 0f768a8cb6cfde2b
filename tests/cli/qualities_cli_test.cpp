#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

// The P2V-7 as Class III: levels per category derived by hand in
// tests/analysis/flying_qualities_test.cpp (Dutch-roll ζ·ωn = 0.108 rad/s is
// Level 2 against 0.35 (A) and 0.15 (B), Level 1 against 0.10 (C, III)).
TEST(QualitiesCommand, JsonGradesEveryCategoryOfTheP2V7) {
  const auto r = RunAerolin("qualities data/derivatives/p2v7.toml --category all --json", "fq_json");
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
  const auto r = RunAerolin(
      "qualities data/derivatives/boeing747_cruise_40kft.toml --class III --category all", "fq_text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Category A: CAP 0.123 < 0.16 (tests/analysis/flying_qualities_test.cpp).
  for (const char* s : {"Category A: level 4", "Category B:", "Category C:", "3.2.2.1.1",
                        "3.3.1.3", "Overall (worst category): level 4"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

TEST(QualitiesCommand, MissingOrAmbiguousClassIsAUsageError) {
  // valid_minimal.toml declares no class: the error says where to give one
  // and lists the classes.
  const auto none =
      RunAerolin("qualities tests/fixtures/derivatives/valid_minimal.toml", "fq_noclass");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.out, "");
  for (const char* s : {"--class", "[aircraft] class", "I (small, light)", "II-C", "II-L", "III",
                        "IV (high manoeuvrability)"})
    EXPECT_NE(none.err.find(s), std::string::npos) << s << "\n" << none.err;
  const auto two = RunAerolin("qualities data/derivatives/p2v7.toml --class II", "fq_class2");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("II-C"), std::string::npos) << two.err;
  const auto cat = RunAerolin("qualities data/derivatives/p2v7.toml --class III --category D",
                              "fq_catD");
  EXPECT_EQ(cat.exit_code, 2);
  EXPECT_EQ(cat.out, "");
}

// p2v7.toml declares class III and category B: without flags one category is
// graded as Class III; --class and --category override the file.
TEST(QualitiesCommand, ClassAndCategoryFromTheFileAndFlagsOverride) {
  const auto file = RunAerolin("qualities data/derivatives/p2v7.toml --json", "fq_file");
  ASSERT_EQ(file.exit_code, 0) << file.err;
  const nlohmann::json doc = nlohmann::json::parse(file.out);
  EXPECT_EQ(doc["class"], "III");
  ASSERT_EQ(doc["categories"].size(), 1u);
  EXPECT_EQ(doc["categories"][0]["category"], "B");
  const auto flags =
      RunAerolin("qualities data/derivatives/p2v7.toml --class I --category C --json", "fq_flags");
  ASSERT_EQ(flags.exit_code, 0) << flags.err;
  const nlohmann::json over = nlohmann::json::parse(flags.out);
  EXPECT_EQ(over["class"], "I");
  ASSERT_EQ(over["categories"].size(), 1u);
  EXPECT_EQ(over["categories"][0]["category"], "C");
  // Class I in Category C asks ωnd ≥ 1.0 where III asks 0.4: the limit moved.
  for (const auto& req : over["categories"][0]["requirements"])
    if (req["mode"] == "dutch roll" && req["criterion"] == "wn") {
      EXPECT_DOUBLE_EQ(req["limits"]["1"]["min"].get<double>(), 1.0);
    }
}

TEST(QualitiesCommand, BadClassInTheFileIsADataErrorWithItsLine) {
  const auto r =
      RunAerolin("qualities tests/fixtures/derivatives/unknown_aircraft_class.toml", "fq_badfile");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown_aircraft_class.toml:4: unknown aircraft class 'V' (expected one of "
                       "I, II-C, II-L, III, IV)"),
            std::string::npos)
      << r.err;
}

// --plot runs aerolin-plot: two charts per graded category and format, paths
// printed after the report.
TEST(QualitiesCommand, PlotWritesTwoChartsPerCategory) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_fq_plot";
  const auto r = RunAerolin("qualities data/derivatives/p2v7.toml --category all --plot '" + prefix +
                                "' --format png,svg --width 640 --height 480",
                            "fq_plot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Overall (worst category): level 2"), std::string::npos) << r.out;
  for (const char* cat : {"A", "B", "C"})
    for (const char* chart : {"_short_period_", "_dutch_roll_"}) {
      const std::string png = prefix + chart + cat + ".png";
      const std::string svg = prefix + chart + cat + ".svg";
      EXPECT_NE(r.out.find("figure: " + png), std::string::npos) << r.out;
      const std::string bytes = testing_cli::ReadAll(png);
      ASSERT_GE(bytes.size(), 24u) << png;
      EXPECT_EQ(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n"), 0) << png;
      EXPECT_NE(testing_cli::ReadAll(svg).find("<svg"), std::string::npos) << svg;
      std::remove(png.c_str());
      std::remove(svg.c_str());
    }
}

TEST(QualitiesCommand, PlotWithJsonKeepsStdoutOneDocument) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_fq_plot_json";
  const auto r = RunAerolin("qualities data/derivatives/navion_cruise_sl.toml --json --plot '" +
                                prefix + "' --width 400 --height 300",
                            "fq_plot_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  const std::string png = prefix + "_short_period_B.png";
  EXPECT_NE(r.err.find("figure: " + png), std::string::npos) << r.err;
  std::remove(png.c_str());
  std::remove((prefix + "_dutch_roll_B.png").c_str());
}

// The MIL-STD-1797A block: appended to the text, a key of the JSON (the
// numbers themselves are checked in tests/study/mil_std_1797_test.cpp).
TEST(QualitiesCommand, MilStd1797BlockWithoutAndWithACommandPath) {
  const auto bare = RunAerolin("qualities data/derivatives/p2v7.toml", "fq_1797_bare");
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  for (const char* s : {"MIL-STD-1797A (Notice 3)", "an ideal command path",
                        "(bare airframe) pitch: no −180° crossing: add an actuator or delay",
                        "not graded: boundary not verified", "Gibson's region [V, secondary]"})
    EXPECT_NE(bare.out.find(s), std::string::npos) << s << "\n" << bare.out;
  const auto json = RunAerolin(
      "qualities data/derivatives/p2v7.toml --actuator elevator=0.05:25:60 --delay 0.05 --json", "fq_1797_json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["schema"], "aerolin.qualities/1");
  EXPECT_EQ(doc["level"], 2);  // the 8785C keys are unchanged
  const auto& mil = doc["mil_std_1797"];
  EXPECT_EQ(mil["command_path"]["delay_s"], 0.05);
  EXPECT_EQ(mil["command_path"]["actuators"]["elevator"]["time_constant_s"], 0.05);
  EXPECT_TRUE(mil["augmented"].is_null());
  EXPECT_GT(mil["bare"]["pitch"]["omega_180_rad_s"].get<double>(), 0.0);
  EXPECT_EQ(mil["bare"]["pitch"]["graded"], false);
  EXPECT_EQ(mil["bare"]["elevator_sign"], -1.0);
  EXPECT_NEAR(mil["bare"]["cap_theta2"]["n_alpha_g_per_rad"].get<double>(), 6.61, 0.005);
  EXPECT_EQ(mil["bare"]["dropback"]["limited"], false);  // a 1 deg step asks 20 deg/s of the actuator
  // 5 deg through a 0.05 s actuator asks 100 deg/s: the 60 deg/s limit is reached.
  const auto big = RunAerolin("qualities data/derivatives/p2v7.toml --actuator elevator=0.05:25:60 --dropback-step 5 "
                              "--json", "fq_1797_step");
  ASSERT_EQ(big.exit_code, 0) << big.err;
  const auto limited = nlohmann::json::parse(big.out)["mil_std_1797"];
  EXPECT_EQ(limited["command_path"]["dropback_step_rad"].get<double>(), 5 * 3.14159265358979323846 / 180);
  EXPECT_EQ(limited["bare"]["dropback"]["limited"], true);
}

TEST(QualitiesCommand, BadActuatorFlagsAreUsageErrors) {
  const auto negative = RunAerolin("qualities data/derivatives/p2v7.toml --actuator elevator=-0.05", "fq_act_neg");
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.err.find("--actuator elevator=-0.05: an actuator time constant must be > 0 and at most 1 s "
                              "(got -0.05 s; leave the actuator out for an ideal one)"),
            std::string::npos)
      << negative.err;
  const auto unknown = RunAerolin("qualities data/derivatives/p2v7.toml --actuator elevatr=0.05", "fq_act_name");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--actuator elevatr=0.05: expected NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]] with NAME a "
                             "control surface of data/derivatives/p2v7.toml (elevator, aileron, rudder)"),
            std::string::npos)
      << unknown.err;
  const auto step = RunAerolin("qualities data/derivatives/p2v7.toml --dropback-step 0", "fq_step");
  EXPECT_EQ(step.exit_code, 2);
  EXPECT_NE(step.err.find("--dropback-step: the step must be > 0 and at most 30 deg (got 0)"), std::string::npos)
      << step.err;
  const auto delay = RunAerolin("qualities data/derivatives/p2v7.toml --delay 1.5", "fq_delay");
  EXPECT_EQ(delay.exit_code, 2);
  EXPECT_NE(delay.err.find("--delay: a delay must be at least 0 and at most 1 s (got 1.5 s)"), std::string::npos)
      << delay.err;
}

TEST(QualitiesCommand, PlotWritesTheDropbackChart) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_fq_dropback";
  const auto r = RunAerolin("qualities data/derivatives/navion_cruise_sl.toml --actuator elevator=0.05 --plot '" +
                                prefix + "' --format png,svg --width 640 --height 480",
                            "fq_dropback");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string png = prefix + "_dropback.png", svg = prefix + "_dropback.svg";
  EXPECT_NE(r.out.find("figure: " + png), std::string::npos) << r.out;
  const std::string bytes = testing_cli::ReadAll(png);
  ASSERT_GE(bytes.size(), 24u) << png;
  EXPECT_EQ(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n"), 0) << png;
  const std::string text = testing_cli::ReadAll(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos) << svg;
  for (const char* p : {png.c_str(), svg.c_str()}) std::remove(p);
  for (const char* chart : {"_short_period_B", "_dutch_roll_B"})
    for (const char* ext : {".png", ".svg"}) std::remove((prefix + chart + ext).c_str());
}

}  // namespace
}  // namespace aerolin
