// aerolin sweep / locus / modes --sensitivity through the built binary.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace aerolin::testing_cli {
namespace {

TEST(SweepCommand, JsonHasEveryPointAndTheStructureChange) {
  const CommandResult r = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param longitudinal.Mq --from -0.992 --to -10 --steps 7 --json", "sweep_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["param"], "longitudinal.Mq");
  ASSERT_EQ(j["points"].size(), 7u);
  EXPECT_EQ(j["points"][0]["modes"][0]["name"], "short period");
  ASSERT_EQ(j["structure_changes"].size(), 1u);
  EXPECT_EQ(j["structure_changes"][0]["to"], "short period (overdamped)");
}

TEST(SweepCommand, UnknownOrInertKeysAreUsageErrors) {
  const CommandResult a = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param longitudinal.Mw --from 0 --to 1 --steps 3", "sweep_bad1");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.err.find("is not a key of this file"), std::string::npos) << a.err;
  const CommandResult b = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param controls.rudder.N --from 0 --to 1 --steps 3", "sweep_bad2");
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("aerolin locus"), std::string::npos) << b.err;
}

TEST(LocusCommand, YawDamperReportsTheBestGainAndBadLoopsAreUsageErrors) {
  const CommandResult r = RunAerolin(
      "locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain 0:3:31 --maximize dutch-roll --json",
      "locus_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["points"].size(), 31u);
  EXPECT_GT(j["maximize"]["gain"].get<double>(), 0.0);
  EXPECT_GT(j["maximize"]["zeta"].get<double>(), 0.2);
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop rudder --gain 1", "locus_bad1").exit_code, 2);
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop elevator:r --gain 1", "locus_bad2").exit_code, 2);
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop rudder:r --gain 1:x", "locus_bad3").exit_code, 2);
}

TEST(ModesCommand, SensitivityJsonIsKeyedByParameter) {
  const CommandResult r = RunAerolin("modes data/derivatives/navion_cruise_sl.toml --sensitivity --json", "sens_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& sp = j["modes"][0];
  EXPECT_TRUE(sp["sensitivity"].contains("longitudinal.Mq"));
  EXPECT_TRUE(sp["sensitivity"]["longitudinal.Mq"].contains("re"));
  EXPECT_EQ(sp["top_damping"].size(), 3u);
}

}  // namespace
}  // namespace aerolin::testing_cli
