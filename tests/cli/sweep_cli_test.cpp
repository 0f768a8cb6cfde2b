// aerolin sweep / locus / modes --sensitivity through the built binary.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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
  // The refined maximum lies between the best listed gain's neighbours and
  // damps at least as much; the listed best keeps its keys.
  const nlohmann::json& refined = j["maximize"]["refined"];
  ASSERT_EQ(refined["status"], "refined") << r.out;
  const double best = j["maximize"]["gain"].get<double>(), K = refined["gain"].get<double>();
  EXPECT_LT(std::abs(K - best), 0.1 + 1e-12);
  EXPECT_NEAR(refined["bracket"][0].get<double>(), best - 0.1, 1e-12);
  EXPECT_GE(refined["zeta"].get<double>(), j["maximize"]["zeta"].get<double>());
  EXPECT_EQ(refined["name"], "dutch roll");
  EXPECT_TRUE(j["maximize"]["other_local_maxima"].empty());
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop rudder --gain 1", "locus_bad1").exit_code, 2);
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop elevator:r --gain 1", "locus_bad2").exit_code, 2);
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop rudder:r --gain 1:x", "locus_bad3").exit_code, 2);
}

TEST(LocusCommand, MaximizeSaysWhenThereIsNothingToRefine) {
  const CommandResult refined = RunAerolin(
      "locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain 0:3:31 --maximize dutch-roll",
      "locus_max_text");
  ASSERT_EQ(refined.exit_code, 0) << refined.err;
  EXPECT_NE(refined.out.find("most damping of dutch roll: K = 1.69"), std::string::npos) << refined.out;
  EXPECT_NE(refined.out.find("best listed gain K = 1.7 "), std::string::npos) << refined.out;
  const CommandResult end = RunAerolin(
      "locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain 0:1:11 --maximize dutch-roll",
      "locus_max_end");
  ASSERT_EQ(end.exit_code, 0) << end.err;
  EXPECT_NE(end.out.find("K = 1 (zeta = 0.25"), std::string::npos) << end.out;
  EXPECT_NE(end.out.find("at the end of the gain range; widen --gain"), std::string::npos) << end.out;
  // The AVL 737's N'dr > 0: positive yaw-damper gains take damping away, and
  // the message says to change the sign, not to widen the range.
  const CommandResult wrong_sign = RunAerolin(
      "locus data/avl/b737.toml --loop rudder:r --washout 1.5 --gain 0:3:31 --maximize dutch-roll",
      "locus_max_sign");
  ASSERT_EQ(wrong_sign.exit_code, 0) << wrong_sign.err;
  EXPECT_NE(wrong_sign.out.find("K = 0, the open loop"), std::string::npos) << wrong_sign.out;
  EXPECT_NE(wrong_sign.out.find("try gains of the other sign (negate --gain)"), std::string::npos)
      << wrong_sign.out;
  EXPECT_EQ(wrong_sign.out.find("widen --gain"), std::string::npos) << wrong_sign.out;
  const CommandResult overdamped = RunAerolin(
      "locus data/derivatives/navion_cruise_sl.toml --loop elevator:q --gain 0:3:31 --maximize short-period --json",
      "locus_max_over");
  ASSERT_EQ(overdamped.exit_code, 0) << overdamped.err;
  const nlohmann::json j = nlohmann::json::parse(overdamped.out);
  EXPECT_EQ(j["maximize"]["refined"]["status"], "overdamped");
  EXPECT_EQ(j["maximize"]["refined"]["overdamped_to"], 3.0);
  EXPECT_EQ(j["maximize"]["name"], "short period (overdamped)");
  const CommandResult absent = RunAerolin(
      "locus data/derivatives/p2v7.toml --loop rudder:r --gain 0:1:5 --maximize phugoid", "locus_max_absent");
  ASSERT_EQ(absent.exit_code, 0) << absent.err;
  EXPECT_NE(absent.out.find("no mode named 'phugoid' in this locus"), std::string::npos) << absent.out;
}

// Points are bounded (every point's modes are kept until the report: ~16 kB
// a point with --json), and a --maximize name that is no mode at all is a
// typo, not an absent mode.
TEST(LocusCommand, PointCountsAreBoundedAndAnUnknownModeIsAUsageError) {
  const CommandResult steps = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param lateral.Nr --from -1 --to 0 --steps 100001", "sweep_too_many");
  EXPECT_EQ(steps.exit_code, 2);
  EXPECT_NE(steps.err.find("100001 not in range 2 to 100000"), std::string::npos) << steps.err;
  const CommandResult gains = RunAerolin(
      "locus data/derivatives/p2v7.toml --loop rudder:r --gain 0:1:100001", "locus_too_many");
  EXPECT_EQ(gains.exit_code, 2);
  EXPECT_NE(gains.err.find("N must be an integer from 2 to 100000"), std::string::npos) << gains.err;
  const CommandResult typo = RunAerolin(
      "locus data/derivatives/p2v7.toml --loop rudder:r --gain 0:1:5 --maximize wobble", "locus_max_typo");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(typo.err.find("--maximize: no mode named 'wobble' (a mode of this locus: 'roll subsidence', 'dutch roll'"),
            std::string::npos)
      << typo.err;
}

TEST(LocusCommand, PlotTakesTheFigureSize) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_locus_plot_test";
  const CommandResult r = RunAerolin("locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain 0:3:31"
                                     " --plot '" + prefix + "' --width 800 --height 600",
                                     "locus_plot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* figure : {"_locus.png", "_zeta.png"}) {
    const std::string png = prefix + figure;
    EXPECT_NE(r.err.find(png), std::string::npos) << "prints the path it wrote";
    const std::string bytes = ReadAll(png);
    ASSERT_GE(bytes.size(), 24u) << png;
    auto be32 = [&](std::size_t at) {
      unsigned v = 0;
      for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
      return v;
    };
    EXPECT_EQ(be32(16), 800u) << png;
    EXPECT_EQ(be32(20), 600u) << png;
    std::remove(png.c_str());
  }
  EXPECT_EQ(RunAerolin("locus data/derivatives/p2v7.toml --loop rudder:r --gain 0:1 --plot x --width 100",
                       "locus_plot_bad").exit_code,
            2);
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

// The reports are written as the points are finished (a sweep in chunks of
// study::kSweepChunk points, JSON by a streaming writer): the same bytes as
// the whole-report writers gave before (reference outputs of the last
// buffered build, in tests/export/golden), text, CSV and JSON. Since points
// are refined from the point before (analysis/root_refinement.hpp, issue
// #22), the JSON and CSV goldens were taken again after checking that each
// differs from commit 0a9d2f6's output only in numbers, by at most 5.8e-15
// relative (bench/sweep_bench_compare.py's --numbers-within); the text
// reports are unchanged. The fingerprints below likewise (at most 1.6e-13).
// Taken again in session 23, when the refinement's inverse iteration was
// written for 4 and 5 states (root_refinement.cpp; Eigen's LU and solves
// before): every output checked to differ from commit 32ed044's only in
// numbers, each within 1e-14 of the old value relative to the larger of its
// magnitude and 1 (3.3e-15 in the Mq sweeps, 1e-14 in the Navion locus);
// the text reports, which print fewer digits, are byte-identical.
std::string Golden(const std::string& name) {
  return ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/tests/export/golden/" + name);
}

// FNV-1a, 64 bits: a fingerprint of outputs too long to keep.
std::uint64_t Fnv1a(const std::string& bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

TEST(SweepCommand, StreamedReportsAreTheBufferedReportsByteForByte) {
  const std::string mq = "sweep data/derivatives/p2v7.toml --param longitudinal.Mq --from -0.992 --to -10 --steps 7";
  const CommandResult json = RunAerolin(mq + " --json", "stream_sweep_json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, Golden("sweep.json"));
  // CSV on standard output, the text report on stderr.
  const CommandResult csv = RunAerolin(mq + " --csv -", "stream_sweep_csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out, Golden("sweep.csv"));
  EXPECT_EQ(csv.err, Golden("sweep.txt"));
  // Descending, with a note.
  const CommandResult u0 = RunAerolin(
      "sweep data/derivatives/navion_cruise_sl.toml --param condition.U0 --from 60 --to 20 --steps 5 --json",
      "stream_sweep_u0");
  ASSERT_EQ(u0.exit_code, 0) << u0.err;
  EXPECT_EQ(u0.out, Golden("sweep_u0.json"));
  const std::string locus = "locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain 0:3:7 --maximize dutch-roll";
  const CommandResult locus_json = RunAerolin(locus + " --json", "stream_locus_json");
  ASSERT_EQ(locus_json.exit_code, 0) << locus_json.err;
  EXPECT_EQ(locus_json.out, Golden("locus.json"));
  const CommandResult locus_text = RunAerolin(locus, "stream_locus_text");
  ASSERT_EQ(locus_text.exit_code, 0) << locus_text.err;
  EXPECT_EQ(locus_text.out, Golden("locus.txt"));
}

// Sweeps of several chunks: the continuation carries over each chunk's
// last point (Mq: the short period's split falls on the step from point 511
// to 512, the first chunk's boundary; Nβ: a lateral split, a note and
// pointwise names, 16 refined steps). Fingerprints of the buffered outputs,
// taken again after the one heading-ζ rule (text '-', JSON and CSV 0 where
// they printed 1.0000 and 1): the outputs of the buffered binary with only
// the heading rows' ζ changed, checked line by line when they were taken.
TEST(SweepCommand, SweepsOfSeveralChunksAreTheBufferedSweepsByteForByte) {
  struct Case {
    const char* args;
    std::size_t size;
    std::uint64_t fnv;
  };
  const Case cases[] = {
      {"sweep data/derivatives/p2v7.toml --param longitudinal.Mq --from -0.992 --to -10.58 --steps 1500 --json",
       3330282, 0x5cbf636f9f42ce1aull},
      {"sweep data/derivatives/p2v7.toml --param longitudinal.Mq --from -0.992 --to -10.58 --steps 1500 --csv -",
       1126535, 0x6585e73b890c6bceull},
      {"sweep data/derivatives/p2v7.toml --param lateral.Nb --from -1 --to 3 --steps 1300 --json", 2892947,
       0xea54910eddb1046aull},
      {"sweep data/derivatives/p2v7.toml --param lateral.Nb --from -1 --to 3 --steps 1300", 852431,
       0x50630662c022a283ull},
  };
  for (const Case& c : cases) {
    const CommandResult r = RunAerolin(c.args, "stream_chunks");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.size(), c.size) << c.args;
    EXPECT_EQ(Fnv1a(r.out), c.fnv) << c.args;
  }
}

// Under AddressSanitizer a program's peak resident memory is mostly ASan's:
// shadow memory and a quarantine that keeps freed blocks (256 MB by
// default), so a streamed report's peak grows with what it has freed. The
// three peak-memory tests below skip there (as the allocation counts do).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPeakRssIsTheProgramsOwn = false;
#else
constexpr bool kPeakRssIsTheProgramsOwn = true;
#endif

// Peak resident memory [kB] of one `aerolin` run, its standard output to
// /dev/null (getrusage of that child alone, as wait4 reports it).
long PeakRssKb(const std::string& args) {
  std::vector<std::string> words{std::string(AEROLIN_BINARY_DIR) + "/aerolin"};
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(AEROLIN_SOURCE_DIR) != 0) _exit(126);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    ADD_FAILURE() << "aerolin " << args << " failed (status " << status << ")";
    return -1;
  }
  return usage.ru_maxrss;
}

// A report's memory does not grow with its points: 10^5 points (the cap) as
// a 10^3-point run, within 4 MB (the Mq sweep of docs/limits.md with
// --json: 10.2 and 11.9 MB; before, 24 MB and 1.76 GB). A sweep is solved,
// continued, named and written kSweepChunk points at a time.
TEST(SweepCommand, PeakRssOfTheCapIsThatOfAThousandPoints) {
  if (!kPeakRssIsTheProgramsOwn) GTEST_SKIP() << "peak memory under AddressSanitizer is its own";
  const std::string sweep = "sweep data/derivatives/p2v7.toml --param lateral.Nr --from -1 --to 0 --steps ";
  for (const char* output : {" --json", " --csv /dev/null", ""}) {
    const long small = PeakRssKb(sweep + "1000" + output);
    const long cap = PeakRssKb(sweep + "100000" + output);
    EXPECT_LT(cap - small, 4096) << "sweep" << output << ": " << small << " kB at 1000 points, " << cap
                                 << " kB at 100000";
  }
}

// Loci and Bode diagrams are written as they are computed (a locus in chunks
// of study::kSweepChunk continuation points, its gains below 0 continued
// outward and handed over back from the most negative; a Bode curve a chunk
// of frequencies at a time, its summary from a first pass): the same bytes,
// on standard output and standard error, as main's whole-study binary gave
// (commit 635cce3) for these requests of several chunks: gains below and
// above 0, sorted and not, with and without a washout, ψ fed back, both
// axes, --maximize with JSON and the held text; Bode with several outputs,
// an --omega list, CSV with the text on stderr. Issue #26 removed the loci's
// pointwise names (`aerolin modes` now names a closed loop by continuation
// from the open loop, as the locus does): the eight loci that had some were
// checked to differ from commit 989fe10's output only in those names and the
// note about them (JSON: equal without `pointwise_name` and that note; text:
// equal with each row cut after ζ), and their fingerprints taken again.
// The Bode fingerprints were taken again in session 22 (#22: the modal form
// of eigenpairs refined in long double, and its peeled forms, where the
// Hessenberg form was used before), after checking that each output differs
// from commit fbe265d's only in numbers (the text around them identical):
// magnitudes by at most 2e-12 relative (the old value the one off: p/δa at
// 0.001936 rad/s was 0.2856168994284676, now 0.2856168994281285, the
// 40-digit value 0.28561689942812862), phases by at most 1.8e-10°. The
// loci's JSON fingerprints were taken again in session 23 (the refinement's
// own inverse iteration, see above): numbers within 1e-14, text identical.
TEST(LocusCommand, StreamedLociAndBodeDiagramsAreTheBufferedOnesByteForByte) {
  struct Case {
    const char* args;
    std::size_t out_size;
    std::uint64_t out_fnv;
    std::size_t err_size;
    std::uint64_t err_fnv;
  };
  constexpr std::uint64_t kEmpty = 0xcbf29ce484222325ull;
  const Case cases[] = {
      {"locus data/derivatives/navion_cruise_sl.toml --loop rudder:r --gain -2:0:1300", 532936,
       0xa129231535827da1ull, 0, kEmpty},
      {"locus data/derivatives/navion_cruise_sl.toml --loop rudder:r --gain -2:0:1300 --json", 1784850,
       0xfe0a194d9c9e4d54ull, 0, kEmpty},
      {"locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain 0:3:1500 --json", 2394697,
       0xbc121f8dd48d78b5ull, 0, kEmpty},
      {"locus data/derivatives/p2v7.toml --loop rudder:psi --gain -1:1:1201 --json", 1488886,
       0x068276b36429bf4full, 0, kEmpty},  // gain unit "rad/rad" (was "rad/(rad)")
      {"locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain -3:3:1301 --maximize dutch-roll --json",
       2111041, 0x66a215025953804cull, 0, kEmpty},
      {"locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --gain -3:3:1301 --maximize dutch-roll",
       647923, 0x6cbca28e8c51f43dull, 0, kEmpty},
      {"locus data/derivatives/p2v7.toml --loop rudder:r --washout 1 --gain -3:0:1100 --json", 1812216,
       0x4897b81a07abc26bull, 0, kEmpty},
      {"locus data/derivatives/p2v7.toml --loop rudder:r --washout 1 --gain -3:0:1100", 556792,
       0x4f665f41ab9249afull, 0, kEmpty},
      {"locus data/derivatives/boeing747_cruise_40kft.toml --loop aileron:p --gain -1:2:700 --json", 924673,
       0xac7b2d65649c304dull, 0, kEmpty},
      {"locus data/avl/b737.toml --loop rudder:r --washout 2 --gain -4:1:900 --maximize dutch-roll --json", 1464790,
       0xcbafe36c83cb5c4eull, 0, kEmpty},
      {"bode data/derivatives/p2v7.toml --input elevator --output q,alpha,nz --points 20000 --json", 14693684,
       0xbc7e5e92a24991e6ull, 0, kEmpty},
      {"bode data/derivatives/p2v7.toml --input elevator --output q,alpha,nz --points 20000 --csv -", 4982970,
       0xac2ad6bffc93c9f0ull, 3000978, 0x28353d38a579188cull},
      {"bode data/derivatives/p2v7.toml --input rudder --output r,beta,phi,ay --from 0.1 --to 10 --points 5000 "
       "--csv - --json",
       1623818, 0xf73957dcde044712ull, 4888569, 0x43ec6e7c809e4e21ull},
      {"bode data/avl/b737.toml --input elevator --output nz,gamma --from 0.5 --to 1000 --points 4500 --json",
       2197806, 0x877d808474394b26ull, 0, kEmpty},
      {"bode data/derivatives/p2v7.toml --input elevator --output theta,u --omega 0.01,0.1,0.5,1,1.5,2,3,10,100 "
       "--json",
       5057, 0xa08f79367f3a26c7ull, 0, kEmpty},
      {"bode data/derivatives/p2v7.toml --input elevator --output theta,u --omega 0.01,0.1,0.5,1,1.5,2,3,10,100 "
       "--csv -",
       1555, 0xe7df2881d9f54f1cull, 1389, 0x2f37b510d4b1e44bull},
  };
  for (const Case& c : cases) {
    const CommandResult r = RunAerolin(c.args, "stream_locus_bode");
    ASSERT_EQ(r.exit_code, 0) << c.args << '\n' << r.err;
    EXPECT_EQ(r.out.size(), c.out_size) << c.args;
    EXPECT_EQ(Fnv1a(r.out), c.out_fnv) << c.args;
    EXPECT_EQ(r.err.size(), c.err_size) << c.args;
    EXPECT_EQ(Fnv1a(r.err), c.err_fnv) << c.args;
  }
}

// A locus's memory does not grow with its gains beyond the gain list it
// holds: 10^5 gains (the cap) as 10^3, within 4 MB plus the list's copies,
// gains below 0 (continued twice) with --json, and both signs with
// --maximize (the held text report). Measured (peak RSS, 10^3 and 10^5):
// 11.4 and 13.4 MB, 12.5 and 15.7 MB; with both cores busy the growth
// reached 3.0 and 3.4 MB (before session 28's buffers, 6.2 here and 6.5 MB
// in CI, over the bound); before that, 370 MB at the cap.
TEST(LocusCommand, PeakRssOfTheCapIsThatOfAThousandGains) {
  if (!kPeakRssIsTheProgramsOwn) GTEST_SKIP() << "peak memory under AddressSanitizer is its own";
  for (const std::string& locus :
       {std::string("locus data/derivatives/navion_cruise_sl.toml --loop rudder:r --json --gain -2:0:"),
        std::string("locus data/derivatives/p2v7.toml --loop rudder:r --washout 1.5 --maximize dutch-roll --gain "
                    "-3:3:")}) {
    const long small = PeakRssKb(locus + "1000");
    const long cap = PeakRssKb(locus + "100000");
    // What grows is the gain list itself, which a locus holds (the parsed
    // list and Locus's sorted and negative-side copies, massif: ~2.1 MB at
    // 10^5 gains, 8 bytes a gain each): allowed as 3 copies of 8 bytes a
    // gain on top of the 4 MB that the report and the tracking may not grow.
    const long gain_lists_kb = 3 * 8 * (100000 - 1000) / 1024;
    EXPECT_LT(cap - small, 4096 + gain_lists_kb)
        << locus << ": " << small << " kB at 1000 gains, " << cap << " kB at 100000";
  }
}

// Nor does a Bode diagram's with its frequencies: 10^6 (the cap) as 10^4,
// within 4 MB, in each format (measured: 7.1 to 8.0 MB each; before, 93 MB
// with --json at the cap).
TEST(BodeCommand, PeakRssOfTheCapIsThatOfTenThousandFrequencies) {
  if (!kPeakRssIsTheProgramsOwn) GTEST_SKIP() << "peak memory under AddressSanitizer is its own";
  const std::string bode = "bode data/derivatives/p2v7.toml --input elevator --output q --points ";
  for (const char* output : {" --json", " --csv /dev/null", ""}) {
    const long small = PeakRssKb(bode + "10000" + output);
    const long cap = PeakRssKb(bode + "1000000" + output);
    EXPECT_LT(cap - small, 4096) << "bode" << output << ": " << small << " kB at 10^4 frequencies, " << cap
                                 << " kB at the cap";
  }
}

}  // namespace
}  // namespace aerolin::testing_cli

namespace aerolin::testing_cli {
namespace {

// sweep and locus take --format and --width/--height as the other figure
// commands; a bare key unique in the file is accepted; --format needs --plot.
TEST(SweepCommand, FormatSizeAndABareKey) {
  const CommandResult bare = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param Ma --from -5 --to -2 --steps 3 --json", "sweep_bare");
  ASSERT_EQ(bare.exit_code, 0) << bare.err;
  EXPECT_EQ(nlohmann::json::parse(bare.out)["param"], "longitudinal.Ma");
  // The text table and the CSV name it in full too.
  const CommandResult text = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param Ma --from -5 --to -2 --steps 3 --csv -", "sweep_bare_csv");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("longitudinal.Ma,", 0), 0u) << text.out.substr(0, 80);
  EXPECT_NE(text.err.find("longitudinal.Ma"), std::string::npos) << text.err.substr(0, 200);
  const CommandResult ambiguous = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param N --from -1 --to 0 --steps 3", "sweep_ambiguous");
  EXPECT_EQ(ambiguous.exit_code, 2);
  EXPECT_NE(ambiguous.err.find("controls.aileron.N, controls.rudder.N"), std::string::npos) << ambiguous.err;
  const CommandResult no_plot = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param Nr --from -1 --to 0 --steps 3 --format svg", "sweep_format_no_plot");
  EXPECT_EQ(no_plot.exit_code, 2);
  EXPECT_NE(no_plot.err.find("--format needs --plot"), std::string::npos) << no_plot.err;
  const std::string prefix = ::testing::TempDir() + "aerolin_sweep_fmt";
  const CommandResult plot = RunAerolin("sweep data/derivatives/p2v7.toml --param Nr --from -1 --to 0 --steps 3 --plot " +
                                            prefix + " --format SVG,png --width 800 --height 600",
                                        "sweep_format");
  ASSERT_EQ(plot.exit_code, 0) << plot.err;
  for (const char* suffix : {"_splane.svg", "_wn_zeta.svg", "_splane.png", "_wn_zeta.png"}) {
    EXPECT_NE(plot.err.find(prefix + suffix), std::string::npos) << suffix << plot.err;
    EXPECT_EQ(std::remove((prefix + suffix).c_str()), 0) << suffix;
  }
  const CommandResult locus = RunAerolin("locus data/derivatives/p2v7.toml --loop rudder:r --gain 0,1 --plot " + prefix +
                                             " --format eps --width 800 --height 600",
                                         "locus_format");
  ASSERT_EQ(locus.exit_code, 0) << locus.err;
  for (const char* suffix : {"_locus.eps", "_zeta.eps"}) EXPECT_EQ(std::remove((prefix + suffix).c_str()), 0) << suffix;
}

// --trim-speed: each point is what `aerolin linearize --speed V --write`
// then `aerolin modes` gives (two other commands, a file in between), in the
// file's speed unit; the text's column and the JSON's param name it.
TEST(SweepCommand, TrimSpeedPointsAreTheModesOfTheLinearizationWrittenAtThatSpeed) {
  const CommandResult r = RunAerolin(
      "sweep data/derivatives/p2v7.toml --trim-speed --from 260 --to 320 --steps 4 --json", "sweep_trim_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["param"], "trim speed [ft/s]");
  ASSERT_EQ(j["points"].size(), 4u);
  const nlohmann::json& point = j["points"][2];
  ASSERT_DOUBLE_EQ(point["value"].get<double>(), 300.0);
  const std::string file = std::string(AEROLIN_BINARY_DIR) + "/sweep_trim_300.toml";
  const CommandResult w = RunAerolin(
      "linearize data/derivatives/p2v7.toml --speed 300 --write " + file, "sweep_trim_write");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const CommandResult m = RunAerolin("modes " + file + " --json", "sweep_trim_modes");
  ASSERT_EQ(m.exit_code, 0) << m.err;
  const nlohmann::json modes = nlohmann::json::parse(m.out);
  int compared = 0;
  for (const char* axis : {"longitudinal", "lateral"})
    for (const nlohmann::json& want : modes[axis]["modes"]) {
      const std::string name = want["name"];
      for (const nlohmann::json& got : point["modes"])
        if (got["name"] == name) {
          SCOPED_TRACE(name);
          // The written file rounds each derivative to 17 significant digits.
          EXPECT_NEAR(got["eigenvalue_per_s"]["re"].get<double>(), want["eigenvalue_per_s"]["re"].get<double>(), 1e-9);
          EXPECT_NEAR(got["eigenvalue_per_s"]["im"].get<double>(), want["eigenvalue_per_s"]["im"].get<double>(), 1e-9);
          ++compared;
        }
    }
  EXPECT_EQ(compared, 6);  // short period, phugoid, roll, Dutch roll, spiral, heading
  const CommandResult text = RunAerolin(
      "sweep data/derivatives/p2v7.toml --trim-speed --from 260 --to 320 --steps 2", "sweep_trim_text");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("trim speed [ft/s]", 0), 0u) << text.out;
}

// A speed without a trim: exit 4 (as `aerolin trim`), the speed and the
// reason named, nothing on standard output; flags that need --trim-speed,
// and a sweep of neither a key nor the trim speed, are usage errors.
TEST(SweepCommand, TrimSpeedErrors) {
  const CommandResult r = RunAerolin(
      "sweep data/derivatives/p2v7.toml --trim-speed --from 300 --to 100 --steps 5", "sweep_trim_no");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("error: sweep: data/derivatives/p2v7.toml: at trim speed 150: no trim"), std::string::npos)
      << r.err;
  const CommandResult a = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param Mq --altitude 100 --from -1 --to -2 --steps 3", "sweep_trim_alt");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.err.find("--altitude requires --trim-speed"), std::string::npos) << a.err;
  const CommandResult n = RunAerolin("sweep data/derivatives/p2v7.toml --from -1 --to -2 --steps 3", "sweep_trim_none");
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("--param KEY or --trim-speed"), std::string::npos) << n.err;
  const CommandResult b = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param Mq --trim-speed --from 260 --to 300 --steps 3", "sweep_trim_both");
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("excludes"), std::string::npos) << b.err;
}

}  // namespace
}  // namespace aerolin::testing_cli
