#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

// The written file holds [augmentation.longitudinal] and [augmentation.lateral], each once.
void ExpectBothSectionsOnce(const std::string& text) {
  for (const char* section : {"[augmentation.longitudinal]", "[augmentation.lateral]"}) {
    const std::size_t at = text.find(section);
    EXPECT_NE(at, std::string::npos) << section;
    EXPECT_EQ(text.find(section, at + 1), std::string::npos) << section << " twice";
  }
}

TEST(AugmentCommand, YawDamperJsonDescribesItself) {
  const auto r = RunAerolin(
      "augment data/derivatives/p2v7.toml --axis lateral --lqr --inputs rudder --json", "aug_yaw");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "aerolin.augment/1");
  EXPECT_EQ(doc["method"], "lqr");
  EXPECT_EQ(doc["gain"]["rows"], nlohmann::json::array({"rudder"}));
  EXPECT_EQ(doc["gain"]["columns"], nlohmann::json::array({"beta", "p", "r", "phi", "psi"}));
  EXPECT_EQ(doc["gain"]["values"][0][4], 0.0);
  // δr = −K_r r with K_r < 0: a yaw rate right commands rudder that yaws the
  // nose left (N_δr < 0): a damper.
  EXPECT_LT(doc["gain"]["values"][0][2].get<double>(), 0.0);
  EXPECT_EQ(doc["weights"]["rule"], "bryson");
  EXPECT_LT(doc["residual"].get<double>(), 1e-12);
  EXPECT_EQ(doc["riccati"]["X"].size(), 4u);
  EXPECT_TRUE(doc["poles"].is_null());
  EXPECT_EQ(doc["qualities"]["class"], "III");
  EXPECT_EQ(doc["qualities"]["categories"][0]["open_loop"]["mode_levels"]["dutch roll"], 2);
  EXPECT_EQ(doc["qualities"]["categories"][0]["closed_loop"]["mode_levels"]["dutch roll"], 1);
  for (const auto& m : doc["closed_loop"]["modes"])
    if (m["name"] == "dutch roll") {
      EXPECT_GT(m["damping_ratio"].get<double>(), 0.6);
    }
}

TEST(AugmentCommand, UsageErrorsSayWhatToDo) {
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--axis lateral", "error: augment: give one of --lqr and --place POLES"},
      {"--axis lateral --lqr --place roll:-2", "error: augment: give one of --lqr and --place POLES"},
      {"--axis lateral --place roll:-2 --max beta=1deg",
       "error: augment: --Q, --R and --max are LQR weights: they need --lqr"},
      {"--axis lateral --lqr --Q 1,1,1,1", "error: augment: --Q and --R go together (or neither: Bryson's rule, --max)"},
      {"--axis lateral --lqr --max beta=2parsecs",
       "error: --max/--place: '2parsecs' is not a value of beta (a number in rad, or followed by rad, deg)"},
      {"--axis longitudinal --place -1,-2,-3,-3",
       "error: augment: data/derivatives/p2v7.toml: the pole -3 is requested 2 times, more than rank(B) = 1 "
       "(elevator): a pole may repeat at most once per independent input"},
      {"--axis lateral --lqr --inputs aileron,rudder --R 1,0 --Q 1,1,1,1",
       "error: augment: data/derivatives/p2v7.toml: R is not positive definite (smallest eigenvalue 0, "
       "largest 1): every input needs a positive weight"},
  };
  int k = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = RunAerolin("augment data/derivatives/p2v7.toml " + c.args, "aug_err" + std::to_string(k++));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, c.message + "\n");
    EXPECT_EQ(r.out, "");
  }
}

// --write: the data file with [augmentation.lateral]; every command then
// builds the closed loop the report described, to the last bit.
TEST(AugmentCommand, WrittenFileIsTheClosedLoopForEveryCommand) {
  const std::string out = std::string(AEROLIN_BINARY_DIR) + "/cli_test_aug_written.toml";
  std::remove(out.c_str());
  const auto design = RunAerolin(
      "augment data/derivatives/p2v7.toml --axis lateral --lqr --json --write '" + out + "'", "aug_w1");
  ASSERT_EQ(design.exit_code, 0) << design.err;
  EXPECT_EQ(design.err, "wrote " + out +
                            " (the file with [augmentation.lateral]: modes, qualities, tf, bode, "
                            "simulate read the closed loop)\n");
  const nlohmann::json doc = nlohmann::json::parse(design.out);

  const auto modes = RunAerolin("modes '" + out + "' --json", "aug_w2");
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  const nlohmann::json m = nlohmann::json::parse(modes.out);
  EXPECT_EQ(m["lateral"]["modes"], doc["closed_loop"]["modes"]);
  EXPECT_EQ(m["lateral"]["modes"].size(), doc["closed_loop"]["modes"].size());
  const auto bare = RunAerolin("modes data/derivatives/p2v7.toml --json", "aug_w3");
  EXPECT_EQ(m["longitudinal"], nlohmann::json::parse(bare.out)["longitudinal"]);

  const auto q = RunAerolin("qualities '" + out + "' --json", "aug_w4");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const nlohmann::json grades = nlohmann::json::parse(q.out);
  EXPECT_EQ(grades["categories"][0]["mode_levels"],
            doc["qualities"]["categories"][0]["closed_loop"]["mode_levels"]);
  EXPECT_EQ(grades["categories"][0]["level"], doc["qualities"]["categories"][0]["closed_loop"]["level"]);

  const auto sim = RunAerolin("simulate '" + out + "' --excite dutch-roll --duration 10 --json", "aug_w5");
  EXPECT_EQ(sim.exit_code, 0) << sim.err;

  // Designing again starts from the bare airframe: the same gain.
  const auto again = RunAerolin("augment '" + out + "' --axis lateral --lqr --json", "aug_w6");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["gain"], doc["gain"]);
  const auto twice = RunAerolin("augment '" + out + "' --axis lateral --lqr --write '" + out + "2'", "aug_w7");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("already has [augmentation.lateral]"), std::string::npos) << twice.err;

  // A sweep varies the airframe with the gains held: the closed loop's roots
  // (its first point, at the file's Nr, are the closed-loop modes').
  const auto sweep =
      RunAerolin("sweep '" + out + "' --param lateral.Nr --from -0.215 --to -0.3 --steps 3 --json", "aug_w8");
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  const nlohmann::json swept = nlohmann::json::parse(sweep.out);
  for (const auto& mode : swept["points"][0]["modes"]) {
    if (mode["name"] != "dutch roll") continue;
    for (const auto& closed : doc["closed_loop"]["modes"]) {
      if (closed["name"] != "dutch roll") continue;
      EXPECT_NEAR(mode["eigenvalue_per_s"]["re"].get<double>(),
                  closed["eigenvalue_per_s"]["re"].get<double>(), 1e-9);
    }
  }
  std::remove(out.c_str());
}

// --bare flies the written file's bare airframe: the CSV of the file it was
// designed from, byte for byte (the window's G key replays with it).
TEST(AugmentCommand, SimulateBareFliesTheAirframeTheGainWasDesignedFor) {
  const std::string dir = std::string(AEROLIN_BINARY_DIR);
  const std::string file = dir + "/cli_test_aug_bare.toml";
  std::remove(file.c_str());
  const auto design = RunAerolin(
      "augment data/derivatives/p2v7.toml --axis lateral --lqr --inputs rudder --write '" + file + "'",
      "aug_b1");
  ASSERT_EQ(design.exit_code, 0) << design.err;
  const std::string flight = " --excite dutch-roll --duration 20 --csv '";
  const auto bare = RunAerolin("simulate '" + file + "' --bare" + flight + dir + "/aug_b_bare.csv'", "aug_b2");
  const auto plain = RunAerolin("simulate data/derivatives/p2v7.toml" + flight + dir + "/aug_b_plain.csv'", "aug_b3");
  const auto closed = RunAerolin("simulate '" + file + "'" + flight + dir + "/aug_b_closed.csv'", "aug_b4");
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_EQ(closed.exit_code, 0) << closed.err;
  const std::string bare_csv = testing_cli::ReadAll(dir + "/aug_b_bare.csv");
  EXPECT_FALSE(bare_csv.empty());
  EXPECT_EQ(bare_csv, testing_cli::ReadAll(dir + "/aug_b_plain.csv"));
  EXPECT_NE(bare_csv, testing_cli::ReadAll(dir + "/aug_b_closed.csv"));
  for (const char* f : {"/aug_b_bare.csv", "/aug_b_plain.csv", "/aug_b_closed.csv"})
    std::remove((dir + f).c_str());
  std::remove(file.c_str());
}

// Several loops at once: δa = 0.3 p and δr = 1.2 r, K's sign as locus's,
// written as loops that every command closes as the gain augment reported.
TEST(AugmentCommand, LoopsAreAGainAndAFileEveryCommandReads) {
  const std::string out = std::string(AEROLIN_BINARY_DIR) + "/cli_test_aug_loops.toml";
  std::remove(out.c_str());
  const auto design = RunAerolin("augment data/derivatives/p2v7.toml --loop aileron:p=0.3 --loop rudder:r=1.2 "
                                 "--json --write '" + out + "'",
                                 "aug_l1");
  ASSERT_EQ(design.exit_code, 0) << design.err;
  const nlohmann::json doc = nlohmann::json::parse(design.out);
  EXPECT_EQ(doc["schema"], "aerolin.augment/1");
  EXPECT_EQ(doc["method"], "loops");
  EXPECT_EQ(doc["axis"], "lateral");
  ASSERT_EQ(doc["loops"].size(), 2u);
  EXPECT_EQ(doc["loops"][1]["input"], "rudder");
  EXPECT_EQ(doc["loops"][1]["output"], "r");
  EXPECT_EQ(doc["loops"][1]["gain"], 1.2);
  EXPECT_EQ(doc["loops"][1]["gain_unit"], "rad/(rad/s)");
  EXPECT_EQ(doc["loops"][1]["washout_s"], nullptr);
  EXPECT_EQ(doc["gain"]["rows"], nlohmann::json::array({"aileron", "rudder"}));
  EXPECT_EQ(doc["gain"]["values"],
            nlohmann::json::parse("[[0, -0.3, 0, 0, 0], [0, 0, -1.2, 0, 0]]"));
  EXPECT_EQ(doc["design"]["states"], nlohmann::json::array({"p", "r"}));
  const std::string section = testing_cli::ReadAll(out);
  EXPECT_NE(section.find("[augmentation.lateral]\nunits = \"SI\"   # each K in input unit per output unit\n"
                         "loops = [\n  { input = \"aileron\", output = \"p\", gain = 0.3 },\n"
                         "  { input = \"rudder\", output = \"r\", gain = 1.2 },\n]\n"),
            std::string::npos)
      << section;
  const auto modes = RunAerolin("modes '" + out + "' --json", "aug_l2");
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  EXPECT_EQ(nlohmann::json::parse(modes.out)["lateral"]["modes"], doc["closed_loop"]["modes"]);
  const auto q = RunAerolin("qualities '" + out + "' --json", "aug_l3");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(nlohmann::json::parse(q.out)["categories"][0]["level"],
            doc["qualities"]["categories"][0]["closed_loop"]["level"]);
  std::remove(out.c_str());
}

// A loop on the normal load factor (D ≠ 0): written as a loop on "nz", and
// every command that reads the file closes it as augment did: modes gives
// augment's closed-loop modes, tf the pilot's command scaled by M, sweep and
// a limited flight refuse it by name.
TEST(AugmentCommand, AccelerationLoopsAreAFileEveryCommandReads) {
  const std::string out = std::string(AEROLIN_BINARY_DIR) + "/cli_test_aug_nz.toml";
  std::remove(out.c_str());
  const auto design = RunAerolin("augment data/derivatives/p2v7.toml --loop elevator:n_z=0.05 --loop elevator:q=0.3 "
                                 "--json --write '" + out + "'",
                                 "aug_nz1");
  ASSERT_EQ(design.exit_code, 0) << design.err;
  const nlohmann::json doc = nlohmann::json::parse(design.out);
  EXPECT_EQ(doc["loops"][0]["output"], "nz");
  EXPECT_EQ(doc["command"]["rows"], nlohmann::json::array({"elevator"}));
  EXPECT_EQ(doc["command"]["columns"], nlohmann::json::array({"elevator", "throttle"}));
  const std::string section = testing_cli::ReadAll(out);
  EXPECT_NE(section.find("loops = [\n  { input = \"elevator\", output = \"nz\", gain = 0.05 },\n"
                         "  { input = \"elevator\", output = \"q\", gain = 0.3 },\n]\n"),
            std::string::npos)
      << section;
  const auto modes = RunAerolin("modes '" + out + "' --json", "aug_nz2");
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  // One builder closes both: the same modes to the bit.
  EXPECT_EQ(nlohmann::json::parse(modes.out)["longitudinal"]["modes"], doc["closed_loop"]["modes"]);
  // The high-frequency gain of q/δe (relative degree 1: the q row of B) is
  // the bare file's times M, the loop's scaling of the pilot's command.
  const auto tf = RunAerolin("tf '" + out + "' --input elevator --output q --json", "aug_nz3");
  ASSERT_EQ(tf.exit_code, 0) << tf.err;
  const double m = doc["command"]["values"][0][0].get<double>();
  const auto bare_tf = RunAerolin("tf data/derivatives/p2v7.toml --input elevator --output q --json", "aug_nz4");
  ASSERT_EQ(bare_tf.exit_code, 0) << bare_tf.err;
  const double k_closed = nlohmann::json::parse(tf.out)["gain"].get<double>();
  const double k_bare = nlohmann::json::parse(bare_tf.out)["gain"].get<double>();
  EXPECT_NEAR(k_closed, m * k_bare, 1e-9 * std::abs(k_bare));  // two factorizations' rounding
  EXPECT_GT(std::abs(m - 1.0), 1e-3);                             // and M does scale it
  const auto sweep = RunAerolin("sweep '" + out + "' --param longitudinal.Ma --from -1 --to -2 --steps 2", "aug_nz5");
  EXPECT_NE(sweep.exit_code, 0);
  EXPECT_NE(sweep.err.find("the longitudinal augmentation loops elevator:nz, an output whose C and D rows move"),
            std::string::npos)
      << sweep.err;
  const auto fly = RunAerolin("simulate '" + out + "' --duration 1", "aug_nz6");
  EXPECT_EQ(fly.exit_code, 0) << fly.err;
  std::remove(out.c_str());
}

// A washout adds a filter state: augment reports it (the gain's last column,
// the filter's root beside the named modes), --write writes it
// (washout_s), and the written file gives augment's closed loop to modes,
// qualities and bode, flies, and sweeps.
TEST(AugmentCommand, WashoutIsAStateOfTheReportAndOfTheWrittenFile) {
  const auto r = RunAerolin("augment data/derivatives/p2v7.toml --loop rudder:r=1.7,washout=1.5 --json", "aug_l4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["gain"]["columns"], nlohmann::json::array({"beta", "p", "r", "phi", "psi", "r_washout"}));
  EXPECT_EQ(doc["gain"]["values"], nlohmann::json::parse("[[0, 0, -1.7, 0, 0, 1.7]]"));
  EXPECT_EQ(doc["loops"][0]["washout_s"], 1.5);
  EXPECT_EQ(doc["loops"][0]["filter_state"], "r_washout");
  EXPECT_EQ(doc["closed_loop"]["states"].size(), 6u);
  EXPECT_EQ(doc["open_loop"]["states"].size(), 5u);
  EXPECT_EQ(doc["closed_loop"]["eigenvalues_per_s"].size(), 6u);
  ASSERT_TRUE(doc["closed_loop"]["modes"].is_array());
  EXPECT_EQ(doc["closed_loop"]["modes"].size(), 4u);

  const std::string out = std::string(AEROLIN_BINARY_DIR) + "/cli_test_aug_washout.toml";
  std::remove(out.c_str());
  const auto w = RunAerolin("augment data/derivatives/p2v7.toml --loop rudder:r=1.7,washout=1.5 --json --write '" +
                                out + "'",
                            "aug_l5");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(nlohmann::json::parse(w.out), doc);
  const std::string written = testing_cli::ReadAll(out);
  EXPECT_NE(written.find("  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n"),
            std::string::npos)
      << written;

  // modes --json of the file: augment's closed-loop modes (one builder, one
  // namer: equal as JSON), and the filter's root, an eigenvalue of augment's
  // closed loop that no mode claims.
  const auto m = RunAerolin("modes '" + out + "' --json", "aug_l6");
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const nlohmann::json modes = nlohmann::json::parse(m.out);
  EXPECT_EQ(modes["lateral"]["modes"], doc["closed_loop"]["modes"]);
  ASSERT_EQ(modes["lateral"]["washout_filters"].size(), 1u);
  const nlohmann::json& filter = modes["lateral"]["washout_filters"][0];
  EXPECT_EQ(filter["name"], "washout filter (r_washout)");
  EXPECT_EQ(filter["state"], "r_washout");
  bool among = false;
  for (const nlohmann::json& l : doc["closed_loop"]["eigenvalues_per_s"])
    among = among || (std::abs(l["re"].get<double>() - filter["eigenvalue_per_s"]["re"].get<double>()) < 1e-9 &&
                       l["im"] == 0);  // two decompositions of one matrix agree to a few ulps
  EXPECT_TRUE(among) << filter;
  EXPECT_FALSE(modes["longitudinal"].contains("washout_filters"));
  const auto text = RunAerolin("modes '" + out + "'", "aug_l7");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  washout filter (r_washout)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("rudder:r through s/(s + 1/τ), τ = 1.5 s (state r_washout)"), std::string::npos)
      << text.out;

  // qualities of the file: augment's closed-loop levels.
  const auto q = RunAerolin("qualities '" + out + "' --json", "aug_l8");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const nlohmann::json grades = nlohmann::json::parse(q.out);
  ASSERT_TRUE(doc["qualities"].is_object());
  for (const nlohmann::json& c : doc["qualities"]["categories"]) {
    bool found = false;
    for (const nlohmann::json& g : grades["categories"])
      if (g["category"] == c["category"]) {
        found = true;
        EXPECT_EQ(g["level"], c["closed_loop"]["level"]) << c["category"];
      }
    EXPECT_TRUE(found) << c["category"];
  }

  // The flight flies it (the filter's state is flown: tests/sim/washout_test.cpp);
  // identify refuses it as any augmented file.
  const auto flown = RunAerolin("simulate '" + out + "' --duration 1", "aug_l9");
  EXPECT_EQ(flown.exit_code, 0) << flown.err;
  // sweep is no flight: it sweeps the closed loop with the filter (tests/study/closed_loop_test.cpp).
  const auto swept = RunAerolin("sweep '" + out + "' --param lateral.Nr --from -0.215 --to -0.3 --steps 3", "aug_l9");
  EXPECT_EQ(swept.exit_code, 0) << swept.err;
  std::ofstream(out + ".csv") << "t\n";
  const auto identified =
      RunAerolin("identify '" + out + "' --flight '" + out + ".csv' --axis lateral --free lateral.Nr", "aug_l9");
  EXPECT_EQ(identified.exit_code, 1);
  EXPECT_EQ(identified.err,
            "error: the file closes a feedback ([augmentation]): identify estimates the airframe's keys; run it on "
            "the file without [augmentation] and a flight whose controls are the surfaces' deflections\n");
  std::remove(out.c_str());
  std::remove((out + ".csv").c_str());
}

// A pitch damper and a yaw damper in one file: two runs, the second on the
// file the first wrote. Each designs on its axis's bare airframe (the yaw
// damper's gain and closed loop are those designed on the plain file) and
// keeps the other axis's section; every command reads both.
TEST(AugmentCommand, BothAxesAreTwoRunsOnOneFile) {
  const std::string dir = std::string(AEROLIN_BINARY_DIR);
  const std::string pitch = dir + "/cli_test_aug_pitch.toml", both = dir + "/cli_test_aug_both.toml";
  std::remove(pitch.c_str());
  std::remove(both.c_str());
  const auto p = RunAerolin("augment data/derivatives/p2v7.toml --loop elevator:q=0.5 --json --write '" + pitch + "'",
                            "aug_both1");
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const auto y = RunAerolin("augment '" + pitch + "' --axis lateral --lqr --inputs rudder --json --write '" + both + "'",
                            "aug_both2");
  ASSERT_EQ(y.exit_code, 0) << y.err;
  const auto plain = RunAerolin("augment data/derivatives/p2v7.toml --axis lateral --lqr --inputs rudder --json",
                                "aug_both3");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const nlohmann::json pd = nlohmann::json::parse(p.out), yd = nlohmann::json::parse(y.out),
                       plain_doc = nlohmann::json::parse(plain.out);
  EXPECT_EQ(yd["gain"], plain_doc["gain"]);
  EXPECT_EQ(yd["closed_loop"]["modes"], plain_doc["closed_loop"]["modes"]);

  ExpectBothSectionsOnce(testing_cli::ReadAll(both));
  const auto modes = RunAerolin("modes '" + both + "' --json", "aug_both4");
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  const nlohmann::json m = nlohmann::json::parse(modes.out);
  EXPECT_EQ(m["longitudinal"]["modes"], pd["closed_loop"]["modes"]);
  EXPECT_EQ(m["lateral"]["modes"], yd["closed_loop"]["modes"]);
  // The yaw run graded its closed loop with the pitch damper on: the file's
  // qualities.
  const auto q = RunAerolin("qualities '" + both + "' --json", "aug_both5");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const nlohmann::json grades = nlohmann::json::parse(q.out);
  EXPECT_EQ(grades["categories"][0]["mode_levels"], yd["qualities"]["categories"][0]["closed_loop"]["mode_levels"]);
  EXPECT_EQ(grades["categories"][0]["level"], yd["qualities"]["categories"][0]["closed_loop"]["level"]);
  std::remove(pitch.c_str());
  std::remove(both.c_str());
}

// A pitch damper and a washed-out yaw damper with a roll damper in one run:
// one design per axis, each the one a single-axis run gives (gain and
// closed-loop modes), graded with both closed; --write writes both sections,
// and the file read back gives each single-axis run's closed loop.
TEST(AugmentCommand, LoopsOfBothAxesInOneRun) {
  const std::string dir = std::string(AEROLIN_BINARY_DIR);
  const std::string both = dir + "/cli_test_aug_one_run.toml";
  std::remove(both.c_str());
  const std::string loops = "--loop elevator:q=0.5 --loop aileron:p=-0.3 --loop rudder:r=1.7,washout=1.5";
  const auto r = RunAerolin("augment data/derivatives/p2v7.toml " + loops + " --json --write '" + both + "'",
                            "aug_one_run1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lon = RunAerolin("augment data/derivatives/p2v7.toml --loop elevator:q=0.5 --json", "aug_one_run2");
  const auto lat = RunAerolin(
      "augment data/derivatives/p2v7.toml --loop aileron:p=-0.3 --loop rudder:r=1.7,washout=1.5 --json", "aug_one_run3");
  ASSERT_EQ(lon.exit_code, 0) << lon.err;
  ASSERT_EQ(lat.exit_code, 0) << lat.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out), lon_doc = nlohmann::json::parse(lon.out),
                       lat_doc = nlohmann::json::parse(lat.out);
  EXPECT_EQ(doc["schema"], "aerolin.augment/2");
  EXPECT_EQ(doc["aircraft"]["name"], lon_doc["aircraft"]["name"]);
  ASSERT_EQ(doc["axes"].size(), 2u);
  const nlohmann::json& a0 = doc["axes"][0];
  const nlohmann::json& a1 = doc["axes"][1];
  EXPECT_EQ(a0["schema"], "aerolin.augment/1");
  EXPECT_EQ(a0["axis"], "longitudinal");
  EXPECT_EQ(a1["axis"], "lateral");
  EXPECT_EQ(a0["gain"], lon_doc["gain"]);
  EXPECT_EQ(a1["gain"], lat_doc["gain"]);
  EXPECT_EQ(a0["loops"], lon_doc["loops"]);
  EXPECT_EQ(a1["loops"], lat_doc["loops"]);
  EXPECT_EQ(a0["closed_loop"], lon_doc["closed_loop"]);
  EXPECT_EQ(a1["closed_loop"], lat_doc["closed_loop"]);
  // Graded with both dampers on: each axis's closed-loop grade is the
  // written file's, the other axis closed too.
  const auto q = RunAerolin("qualities '" + both + "' --json", "aug_one_run4");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const nlohmann::json grades = nlohmann::json::parse(q.out);
  for (const nlohmann::json* a : {&a0, &a1}) {
    EXPECT_EQ(grades["categories"][0]["mode_levels"], (*a)["qualities"]["categories"][0]["closed_loop"]["mode_levels"]);
    EXPECT_EQ(grades["categories"][0]["level"], (*a)["qualities"]["categories"][0]["closed_loop"]["level"]);
  }
  // The written file: both sections once, and its modes are each
  // single-axis run's closed loop (to 1e-12: the same doubles here).
  ExpectBothSectionsOnce(testing_cli::ReadAll(both));
  const auto modes = RunAerolin("modes '" + both + "' --json", "aug_one_run5");
  ASSERT_EQ(modes.exit_code, 0) << modes.err;
  const nlohmann::json m = nlohmann::json::parse(modes.out);
  for (const auto& [axis, single] : {std::pair{"longitudinal", &lon_doc}, std::pair{"lateral", &lat_doc}}) {
    SCOPED_TRACE(axis);
    const nlohmann::json& got = m[axis]["modes"];
    const nlohmann::json& want = (*single)["closed_loop"]["modes"];
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k]["name"], want[k]["name"]);
      for (const char* part : {"re", "im"}) {
        const double g = got[k]["eigenvalue_per_s"][part].get<double>(), w = want[k]["eigenvalue_per_s"][part].get<double>();
        EXPECT_LE(std::abs(g - w), 1e-12 * std::max(1.0, std::abs(w))) << got[k]["name"];
      }
    }
  }
  EXPECT_EQ(m["lateral"]["washout_filters"].size(), 1u);
  // The text report: one per axis, longitudinal first.
  const auto t = RunAerolin("augment data/derivatives/p2v7.toml " + loops, "aug_one_run6");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const std::size_t first = t.out.find("), longitudinal axis\n"), second = t.out.find("), lateral axis\n");
  EXPECT_NE(first, std::string::npos);
  EXPECT_NE(second, std::string::npos);
  EXPECT_LT(first, second);
  std::remove(both.c_str());
}

TEST(AugmentCommand, LoopUsageErrorsSayWhatToDo) {
  struct Case {
    std::string args, message;
  };
  const std::string file = "error: augment: data/derivatives/p2v7.toml: ";
  const Case cases[] = {
      {"--loop spoiler:r=1", file + "loop spoiler:r: unknown input 'spoiler' (this aircraft's controls: "
                                    "elevator, throttle, aileron, rudder)"},
      {"--loop rudder:load=1", file + "loop rudder:load: unknown output 'load' (outputs: u alpha q theta nz gamma | "
                                      "beta p r phi psi ay)"},
      {"--loop rudder:nz=1", file + "loop rudder:nz: input 'rudder' does not act on the longitudinal axis of output 'nz'"},
      {"--loop elevator:r=1", file + "loop elevator:r: input 'elevator' does not act on the lateral axis of output 'r'"},
      {"--loop rudder:r=1 --loop rudder:r=2", file + "loop rudder:r is given twice: give each loop once, with its gain"},
      {"--loop rudder:r=1,washout=0", file + "loop rudder:r: washout time constant must be > 0"},
      {"--loop rudder:r=1 --loop elevator:q=0.5 --axis lateral",
       "error: augment: --loop elevator:q=0.5 is on the longitudinal axis, not --axis lateral (without --axis, "
       "loops may act on both axes)"},
      {"--loop rudder:r=1 --axis longitudinal",
       "error: augment: --loop rudder:r=1 is on the lateral axis, not --axis longitudinal (without --axis, "
       "loops may act on both axes)"},
      {"--loop rudder:r", "error: --loop: rudder:r needs its gain, INPUT:OUTPUT=GAIN (e.g. rudder:r=1.5)"},
      {"--loop rudder=1", "error: --loop: expected INPUT:OUTPUT, e.g. rudder:r, optionally =GAIN and "
                          ",washout=TAU (rudder:r=1.5,washout=1.5), got 'rudder=1'"},
      {"--loop rudder:r=1 --lqr",
       "error: augment: --loop is a design of its own (output feedback at given gains): give it without "
       "--lqr, --place, --inputs and --heading (LQR and pole placement design one axis, --axis; loops may "
       "act on both axes in one run)"},
      {"--lqr", "error: augment: --axis longitudinal|lateral is required (or --loop INPUT:OUTPUT=GAIN)"},
      {"--loop aileron:psi=0.1 --write /tmp/aerolin_cli_test_never_written.toml",
       "error: --write: the loop aileron:psi is a heading hold, which cannot be written to a file yet: "
       "aerolin's lateral modes need psi a free integrator"},
  };
  int k = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = RunAerolin("augment data/derivatives/p2v7.toml " + c.args, "aug_lerr" + std::to_string(k++));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, c.message + "\n");
    EXPECT_EQ(r.out, "");
  }
}

// The command at a stated disturbance, recomputed here from the document's
// gain: the largest |K_i x| over every sign combination of the stated
// components (name → SI magnitude).
double WorstOverSigns(const nlohmann::json& gain, std::size_t row,
                      const std::vector<std::pair<std::string, double>>& stated) {
  const nlohmann::json& columns = gain["columns"];
  double worst = 0.0;
  for (unsigned mask = 0; mask < (1u << stated.size()); ++mask) {
    double sum = 0.0;
    for (std::size_t j = 0; j < columns.size(); ++j)
      for (std::size_t k = 0; k < stated.size(); ++k)
        if (columns[j] == stated[k].first)
          sum += gain["values"][row][j].get<double>() * ((mask >> k) & 1u ? -1.0 : 1.0) * stated[k].second;
    worst = std::max(worst, std::abs(sum));
  }
  return worst;
}

TEST(AugmentCommand, DisturbanceCommandIsTheGainTimesTheStatedVector) {
  const double deg = M_PI / 180.0;
  const std::string yaw = "augment data/derivatives/p2v7.toml --axis lateral --lqr --inputs rudder ";
  const auto r = RunAerolin(yaw + "--disturbance beta=5deg,r=2deg/s --json", "aug_sat_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  const nlohmann::json& sat = doc["saturation"];
  EXPECT_DOUBLE_EQ(sat["disturbance"]["beta"].get<double>(), 5 * deg);
  EXPECT_DOUBLE_EQ(sat["disturbance"]["r"].get<double>(), 2 * deg);
  ASSERT_EQ(sat["inputs"].size(), 1u);
  const nlohmann::json& rudder = sat["inputs"][0];
  EXPECT_EQ(rudder["input"], "rudder");
  EXPECT_EQ(rudder["unit"], "rad");
  const double command = WorstOverSigns(doc["gain"], 0, {{"beta", 5 * deg}, {"r", 2 * deg}});
  EXPECT_NEAR(rudder["command"].get<double>(), command, 1e-14 * command);
  // P2V-7 has no [actuators]: not checked, and said so.
  EXPECT_TRUE(rudder["limit"].is_null());
  EXPECT_TRUE(rudder["saturates"].is_null());
  const auto text = RunAerolin(yaw + "--disturbance beta=5deg,r=2deg/s", "aug_sat_text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("no position limit given: not checked"), std::string::npos) << text.out;
  EXPECT_EQ(text.err, "");
  // The same disturbance in radians: the same command.
  const auto rad = RunAerolin(yaw + "--disturbance beta=0.0872665,r=0.034906585rad/s --json", "aug_sat_rad");
  ASSERT_EQ(rad.exit_code, 0) << rad.err;
  EXPECT_NEAR(nlohmann::json::parse(rad.out)["saturation"]["inputs"][0]["command"].get<double>(), command,
              1e-6 * command);
  // Without --disturbance, no saturation key (the document as before).
  const auto plain = RunAerolin(yaw + "--json", "aug_sat_plain");
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("saturation"));

  // A stop just below and just above the command: the warning iff it saturates.
  for (const double factor : {0.9, 1.1}) {
    SCOPED_TRACE(factor);
    char stop[32];  // --actuator's LIMIT_DEG, round-trip digits
    std::snprintf(stop, sizeof stop, "%.17g", factor * command / deg);
    const std::string args = yaw + "--disturbance beta=5deg,r=2deg/s --actuator rudder=0.05:" + std::string(stop);
    const auto t = RunAerolin(args, "aug_sat_stop_text");
    ASSERT_EQ(t.exit_code, 0) << t.err;
    const bool saturates = factor < 1.0;
    EXPECT_EQ(t.err.rfind("warning: rudder would saturate: commanded ", 0) == 0, saturates) << t.err;
    if (!saturates) {
      EXPECT_EQ(t.err, "");
    }
    EXPECT_EQ(t.out.find("saturates") != std::string::npos, saturates) << t.out;
    EXPECT_EQ(t.out.find("within the stop") != std::string::npos, !saturates) << t.out;
    const auto j = RunAerolin(args + " --json", "aug_sat_stop_json");
    ASSERT_EQ(j.exit_code, 0) << j.err;
    const nlohmann::json in = nlohmann::json::parse(j.out)["saturation"]["inputs"][0];
    EXPECT_NEAR(in["limit"].get<double>(), factor * command, 1e-14 * command);
    EXPECT_NEAR(in["ratio"].get<double>(), 1.0 / factor, 1e-13);
    EXPECT_EQ(in["saturates"].get<bool>(), saturates);
  }
}

TEST(AugmentCommand, DisturbanceOnBothAxesGoesToEachAxis) {
  const double deg = M_PI / 180.0;
  const auto r = RunAerolin(
      "augment data/derivatives/p2v7.toml --loop elevator:q=0.5 --loop rudder:r=0.5,washout=1.5 "
      "--disturbance q=5deg/s,r=2deg/s --json",
      "aug_sat_both");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["schema"], "aerolin.augment/2");
  const nlohmann::json& lon = doc["axes"][0]["saturation"];
  const nlohmann::json& lat = doc["axes"][1]["saturation"];
  EXPECT_EQ(lon["disturbance"], nlohmann::json({{"q", 5 * deg}}));
  EXPECT_EQ(lat["disturbance"], nlohmann::json({{"r", 2 * deg}}));
  // δ = K y, the washout filter 0 at the onset: 0.5 × the stated rate.
  EXPECT_NEAR(lon["inputs"][0]["command"].get<double>(), 0.5 * 5 * deg, 1e-15);
  EXPECT_NEAR(lat["inputs"][0]["command"].get<double>(), 0.5 * 2 * deg, 1e-15);
  EXPECT_NEAR(lat["inputs"][0]["command"].get<double>(), WorstOverSigns(doc["axes"][1]["gain"], 0, {{"r", 2 * deg}}),
              1e-15);
}

TEST(AugmentCommand, DisturbanceUsageErrorsSayWhatToDo) {
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--axis lateral --lqr --disturbance alpha=2deg",
       "error: --disturbance: 'alpha' is a state of the longitudinal axis, which this run does not design "
       "(designed: lateral: beta, p, r, phi, psi)"},
      {"--loop rudder:r=0.5 --disturbance q=5deg/s",
       "error: --disturbance: 'q' is a state of the longitudinal axis, which this run does not design "
       "(designed: lateral: beta, p, r, phi, psi)"},
      {"--axis lateral --lqr --disturbance rr=2deg/s",
       "error: --disturbance: no state 'rr' on the designed axis (lateral: beta, p, r, phi, psi)"},
      {"--axis lateral --lqr --disturbance beta=5parsecs",
       "error: --disturbance: '5parsecs' is not a value of beta (a number in rad, or followed by rad, deg)"},
      {"--axis lateral --lqr --disturbance beta=inf",
       "error: --disturbance: beta=inf: the value must be a finite number"},
      {"--axis lateral --lqr --disturbance beta=-5deg",
       "error: --disturbance: beta=-5deg: a disturbance states magnitudes (the command is taken at the worst "
       "signs): give a value >= 0"},
      {"--axis lateral --lqr --actuator rudder=0.05:25",
       "error: augment: --actuator gives the position stops that --disturbance checks the commands against: "
       "give it with --disturbance STATE=VALUE,..."},
      {"--axis lateral --lqr --disturbance beta=5deg --actuator rudder=0.05:-25",
       "error: --actuator rudder=0.05:-25: a limit must be a finite number > 0 (got -25; leave it out for none)"},
  };
  int k = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = RunAerolin("augment data/derivatives/p2v7.toml " + c.args, "aug_serr" + std::to_string(k++));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, c.message + "\n");
    EXPECT_EQ(r.out, "");
  }
}

// Each washed-out loop adds a filter state, and the studies follow an axis's
// roots on at most 8 states: a fifth washout on one axis is refused with
// one message, by augment and by a locus whose own washout would be the
// fifth (both used to write past a fixed-size matrix: a wrong message or a
// crash), while four are a closed loop every command reads.
TEST(AugmentCommand, AtMostFourWashedOutLoopsPerAxis) {
  const std::string four = "--loop elevator:q=0.5,washout=1 --loop elevator:theta=0.1,washout=2 "
                           "--loop throttle:u=0.01,washout=3 --loop throttle:alpha=0.1,washout=4";
  const auto five = RunAerolin("augment data/derivatives/p2v7.toml " + four + " --loop elevator:u=0.001,washout=5",
                               "aug_five");
  EXPECT_EQ(five.exit_code, 2);
  EXPECT_NE(five.err.find("the longitudinal augmentation has 5 washed-out loops: at most 4 per axis"),
            std::string::npos)
      << five.err;
  const std::string out = std::string(AEROLIN_BINARY_DIR) + "/cli_test_aug_four_washouts.toml";
  std::remove(out.c_str());
  const auto w = RunAerolin("augment data/derivatives/p2v7.toml " + four + " --write '" + out + "'", "aug_four");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const auto sweep = RunAerolin("sweep '" + out + "' --param longitudinal.Mq --from -0.992 --to -2 --steps 5",
                                "aug_four_sweep");
  EXPECT_EQ(sweep.exit_code, 0) << sweep.err;
  const auto locus = RunAerolin("locus '" + out + "' --loop elevator:q --gain 0:1:5", "aug_four_locus");
  EXPECT_EQ(locus.exit_code, 0) << locus.err;
  const auto fifth = RunAerolin("locus '" + out + "' --loop elevator:q,washout=1 --gain 0:1:5", "aug_four_fifth");
  EXPECT_EQ(fifth.exit_code, 2);
  EXPECT_NE(fifth.err.find("the locus's washout would be the longitudinal axis's 5th filter (the file's "
                           "augmentation washes out 4 loops): at most 4 per axis"),
            std::string::npos)
      << fifth.err;
  // Written by hand with a fifth: the loader says where.
  std::string text = testing_cli::ReadAll(out);
  const std::string last = "washout_s = 4.0 },\n";
  const std::size_t at = text.find(last);
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at + last.size(), "  { input = \"elevator\", output = \"u\", gain = 0.001, washout_s = 5 },\n");
  const std::string bad = std::string(AEROLIN_BINARY_DIR) + "/cli_test_aug_five_washouts.toml";
  {
    std::ofstream f(bad);
    f << text;
  }
  const auto load = RunAerolin("modes '" + bad + "'", "aug_five_file");
  EXPECT_EQ(load.exit_code, 1);  // a data error
  EXPECT_NE(load.err.find("has 5 washed-out loops (washout_s): at most 4 per axis"), std::string::npos) << load.err;
  EXPECT_NE(load.err.find("cli_test_aug_five_washouts.toml:"), std::string::npos) << load.err;
}

}  // namespace
}  // namespace aerolin
