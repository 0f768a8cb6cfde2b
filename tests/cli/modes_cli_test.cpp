#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

TEST(ModesCommand, PrintsNamedP2V7Modes) {
  const auto r = RunAerolin("modes data/derivatives/p2v7.toml", "modes_table");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  for (const char* name : {"short period", "phugoid", "dutch roll", "roll subsidence", "spiral", "heading"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  EXPECT_NE(r.out.find("43.57"), std::string::npos) << "phugoid period with consistent units";
  EXPECT_NE(r.out.find("Classical approximations"), std::string::npos);
}

TEST(ModesCommand, JsonFollowsSchema) {
  const auto r = RunAerolin("modes data/derivatives/p2v7.toml --json", "modes_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "aerolin.modes/2");
  ASSERT_EQ(doc["longitudinal"]["modes"].size(), 2u);
  ASSERT_EQ(doc["lateral"]["modes"].size(), 4u);
  const auto& sp = doc["longitudinal"]["modes"][0];
  EXPECT_EQ(sp["name"], "short period");
  EXPECT_NEAR(sp["damped_period_s"].get<double>(), 3.394, 0.001);
  EXPECT_TRUE(sp["time_to_double_s"].is_null());
  EXPECT_EQ(sp["shape"].size(), 4u);
  EXPECT_EQ(doc["lateral"]["modes"][3]["name"], "heading");
  EXPECT_EQ(doc["units"]["speed"], "m/s");
}

TEST(ModesCommand, ImperialUnitsShowTrimSpeedInFeet) {
  const auto r = RunAerolin("modes data/derivatives/p2v7.toml --json --units imperial", "modes_imperial");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_NEAR(doc["condition"]["U0"].get<double>(), 293.8, 1e-9);
  EXPECT_EQ(doc["units"]["speed"], "ft/s");
}

TEST(ModesCommand, BadDataExitsOneWithLocatedMessage) {
  const auto r = RunAerolin("modes tests/fixtures/derivatives/unknown_key.toml", "modes_bad");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "error: tests/fixtures/derivatives/unknown_key.toml:17: unknown key 'M_alfa' in "
            "[longitudinal] (did you mean 'Ma'?)\n");
}

TEST(ModesCommand, WarningsGoToStderrAndDoNotFail) {
  const auto r = RunAerolin("modes tests/fixtures/derivatives/warning_positive_Ma.toml", "modes_warn");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.err.find("warning: tests/fixtures/derivatives/warning_positive_Ma.toml:17: Ma: "
                       "M_alpha > 0, expected < 0"),
            std::string::npos)
      << r.err;
}

// --strict makes the warnings errors (exit 1, nothing on stdout) for every
// command that loads a file; a file without warnings is unaffected.
TEST(ModesCommand, StrictTurnsWarningsIntoErrorsInEveryCommand) {
  const std::string file = "tests/fixtures/derivatives/warning_positive_Ma.toml";
  const std::string message =
      "error: tests/fixtures/derivatives/warning_positive_Ma.toml:17: Ma: M_alpha > 0, expected "
      "< 0: the aircraft is statically unstable in pitch (a nose-up disturbance grows); fine for "
      "an unstable design, otherwise check the sign\n";
  for (const std::string command :
       {"modes", "matrices", "qualities", "tf --input elevator --output q",
        "bode --input elevator --output q", "simulate --duration 1",
        "sweep --param longitudinal.Mq --from -1 --to -0.5 --steps 2",
        "locus --loop elevator:q --gain 0,1"}) {
    const std::size_t space = std::min(command.find(' '), command.size());
    const std::string name = command.substr(0, space);
    // FILE right after the command name: bode's --output takes several values.
    const auto r = RunAerolin(name + " " + file + command.substr(space) + " --strict", "strict_" + name);
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(r.err, message) << command;
  }
  const auto ok = RunAerolin("modes data/derivatives/p2v7.toml --strict", "strict_ok");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.err, "");
}

TEST(ModesCommand, MissingFileIsAUsageError) {
  const auto r = RunAerolin("modes data/derivatives/no_such_aircraft.toml", "modes_missing");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no_such_aircraft.toml"), std::string::npos) << r.err;
}

TEST(ModesCommand, UnknownFlagIsAUsageError) {
  const auto r = RunAerolin("modes data/derivatives/p2v7.toml --frobnicate", "modes_flag");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(ModesCommand, BadUnitsValueIsAUsageError) {
  const auto r = RunAerolin("modes data/derivatives/p2v7.toml --units furlong", "modes_units");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, HelpOnEveryCommandExitsZero) {
  for (const char* cmd : {"--help", "modes --help", "matrices --help"}) {
    const auto r = RunAerolin(cmd, "help");
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << cmd;
  }
}

TEST(Cli, NoSubcommandIsAUsageError) {
  EXPECT_EQ(RunAerolin("", "nosub").exit_code, 2);
}

TEST(MatricesCommand, PrintsLabelledMatricesAndJson) {
  const auto r = RunAerolin("matrices data/derivatives/p2v7.toml", "matrices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Longitudinal A"), std::string::npos);
  EXPECT_NE(r.out.find("dalpha/dt"), std::string::npos);
  EXPECT_NE(r.out.find("elevator [rad]"), std::string::npos);
  const auto j = RunAerolin("matrices data/derivatives/p2v7.toml --json", "matrices_json");
  ASSERT_EQ(j.exit_code, 0);
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  // A(u, θ) = −g in SI: the model uses consistent units.
  EXPECT_NEAR(doc["longitudinal"]["A"][0][3].get<double>(), -9.80665, 1e-12);
}

// Long control names (AVL's b737: "aileron [rad]", "elevator [rad]") widen
// the columns: every column header is separated from its neighbour.
TEST(MatricesCommand, ColumnHeadersNeverRunTogether) {
  const auto r = RunAerolin("matrices data/avl/b737.toml", "matrices_b737");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("]a"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("]e"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" aileron [rad] elevator [rad]"), std::string::npos) << r.out;
}

// What the AVL conversion assumed reaches the user: `modes --verbose` and
// `matrices` list it for an AVL file, and say nothing of AVL otherwise.
TEST(ModesCommand, VerboseListsTheAvlConversionsAssumptions) {
  for (const char* cmd : {"modes --verbose", "matrices"}) {
    const auto r = RunAerolin(std::string(cmd) + " data/avl/b737.toml", "avl_notes");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Assumed in converting the AVL stability derivatives:"), std::string::npos)
        << cmd << "\n" << r.out;
    EXPECT_NE(r.out.find("AVL is quasi-steady"), std::string::npos) << cmd;
    const auto p = RunAerolin(std::string(cmd) + " data/derivatives/p2v7.toml", "avl_notes_p2v7");
    ASSERT_EQ(p.exit_code, 0) << p.err;
    EXPECT_EQ(p.out.find("AVL"), std::string::npos) << cmd;
  }
}

// p2v7.toml declares Class III, Category B: one summary line per graded
// mode (levels derived by hand in tests/analysis/flying_qualities_test.cpp).
TEST(ModesCommand, SummarizesFlyingQualitiesWhenTheFileGivesAClass) {
  const auto r = RunAerolin("modes data/derivatives/p2v7.toml", "modes_fq");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s :
       {"Flying qualities  (MIL-F-8785C, Class III, Category B;", "  short period      Level 1\n",
        "  dutch roll        Level 2         zeta*wn = 0.1082 rad/s (Level 1: ≥ 0.15), 3.3.1.1\n",
        "  roll subsidence   Level 1\n"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  // Without a category, every category on one line.
  const auto a7 = RunAerolin("modes data/derivatives/a7a_clean_m025_sl.toml", "modes_fq_a7");
  EXPECT_NE(a7.out.find("Class IV, Categories A B C"), std::string::npos) << a7.out;
  EXPECT_NE(a7.out.find("  dutch roll        A 1  B 1  C 1\n"), std::string::npos) << a7.out;
}

TEST(ModesCommand, NoSummaryWithoutAClass) {
  const auto r = RunAerolin("modes tests/fixtures/derivatives/valid_minimal.toml", "modes_nofq");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Flying qualities"), std::string::npos);
  EXPECT_NE(r.out.find("Classical approximations"), std::string::npos);
}

}  // namespace
}  // namespace aerolin
