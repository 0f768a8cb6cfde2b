// Hostile and careless inputs to the whole program (issue #8): every input
// bounded, every file safe, numbers checked, exit codes distinct.

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli/run_command.hpp"

namespace aerolin::testing_cli {
namespace {

namespace fs = std::filesystem;

fs::path WorkDir(const std::string& name) {
  const fs::path dir = fs::path(AEROLIN_BINARY_DIR) / ("hardening_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void WriteText(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Every numeric flag: NaN and infinity are usage errors (CLI11's
// PositiveNumber let "nan" through).
TEST(Hardening, NonFiniteNumbersInEveryNumericFlagAreUsageErrors) {
  const std::string base = "data/derivatives/p2v7.toml";
  const std::vector<std::string> cases = {
      "simulate " + base + " --duration nan",
      "simulate " + base + " --duration inf",
      "simulate " + base + " --duration 10 --dt nan",
      "simulate " + base + " --duration 10 --rtol nan",
      "simulate " + base + " --duration 10 --atol inf",
      "simulate " + base + " --duration 10 --excite phugoid --amplitude nan",
      "plot " + base + " --duration 10 --out x --glyph-interval nan",
      "plot " + base + " --duration 10 --out x --dt -inf",
      "plot " + base + " --duration 10 --out x --width 65536",
      "plot " + base + " --duration 10 --out x --height 100000",
      // The commands that came with the analyses, same rules.
      "sweep " + base + " --param lateral.Nr --from nan --to 1 --steps 5",
      "sweep " + base + " --param lateral.Nr --from 0 --to inf --steps 5",
      "locus " + base + " --loop rudder:r --washout inf --gain 0:1",
      "bode " + base + " --input elevator --output q --omega 1,nan",
      "bode " + base + " --input elevator --output q --from 0.1 --to 10 --width 20000",
      "qualities " + base + " --plot x --height 100000",
  };
  for (const std::string& args : cases) {
    const CommandResult r = RunAerolin(args, "nonfinite");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
}

// Regression: --csv naming the aircraft file overwrote it (exit 0). Also
// through a symbolic and a hard link, and the script.
TEST(Hardening, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  const fs::path dir = WorkDir("same_file");
  const fs::path aircraft = dir / "p2v7.toml";
  fs::copy_file(fs::path(AEROLIN_SOURCE_DIR) / "data/derivatives/p2v7.toml", aircraft);
  const std::string original = ReadAll(aircraft.string());
  fs::create_symlink(aircraft, dir / "link.csv");
  fs::create_hard_link(aircraft, dir / "hard.csv");
  const fs::path script = dir / "s.txt";
  WriteText(script, "0 1 8\n");
  for (const fs::path& out : {aircraft, dir / "link.csv", dir / "hard.csv"}) {
    const CommandResult r = RunAerolin("simulate '" + aircraft.string() + "' --duration 1 --csv '" +
                                           out.string() + "'",
                                       "same_file");
    EXPECT_EQ(r.exit_code, 2) << out << r.err;
    EXPECT_NE(r.err.find("is the input file"), std::string::npos) << r.err;
    EXPECT_EQ(ReadAll(aircraft.string()), original) << out;
  }
  const CommandResult s = RunAerolin("simulate '" + aircraft.string() + "' --duration 1 --script '" +
                                         script.string() + "' --csv '" + script.string() + "'",
                                     "same_file");
  EXPECT_EQ(s.exit_code, 2) << s.err;
  EXPECT_EQ(ReadAll(script.string()), "0 1 8\n");
  const CommandResult p = RunAerolin("plot '" + aircraft.string() + "' --duration 1 --out '" +
                                         (dir / "p2v7").string() + "' --format svg",
                                     "same_file");
  EXPECT_EQ(p.exit_code, 0) << p.err;  // p2v7_trajectory.svg is not p2v7.toml
  for (const std::string& command :
       {"sweep '" + aircraft.string() + "' --param lateral.Nr --from -0.3 --to -0.2 --steps 3 --csv ",
        "bode '" + aircraft.string() + "' --input elevator --output q --csv "}) {
    const CommandResult r = RunAerolin(command + "'" + (dir / "link.csv").string() + "'", "same_file");
    EXPECT_EQ(r.exit_code, 2) << command << r.err;
    EXPECT_EQ(ReadAll(aircraft.string()), original) << command;
  }
}

// A --plot PREFIX whose figures cannot be written is a usage error found
// before anything is computed: exit 2, nothing on standard output, the
// figure named. (It was the figure writer's error after the report: exit 1.)
TEST(Hardening, AnUnwritableFigurePrefixIsAUsageError) {
  const std::string base = "data/derivatives/p2v7.toml";
  const std::string prefix = (fs::path(AEROLIN_BINARY_DIR) / "no_such_dir" / "fig").string();
  const std::pair<std::string, std::string> cases[] = {
      {"bode " + base + " --input elevator --output q --plot '" + prefix + "'", prefix + "_bode.png"},
      {"bode " + base + " --input elevator --output q --json --plot '" + prefix + "' --format svg",
       prefix + "_bode.svg"},
      {"sweep " + base + " --param lateral.Nr --from -0.3 --to -0.2 --steps 3 --plot '" + prefix + "'",
       prefix + "_splane.png"},
      {"locus " + base + " --loop rudder:r --gain 0:1:3 --plot '" + prefix + "'", prefix + "_locus.png"},
      {"qualities " + base + " --class II-L --category B --plot '" + prefix + "'",
       prefix + "_short_period_B.png"},
  };
  for (const auto& [args, figure] : cases) {
    const CommandResult r = RunAerolin(args, "figure_prefix");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err.find("error: output '" + figure + "': directory"), std::string::npos)
        << args << "\n" << r.err;
  }
}

// A run that fails leaves the existing output as it was and no temporary
// file behind; a good run replaces it whole.
TEST(Hardening, OutputsAreReplacedOnlyWhenComplete) {
  const fs::path dir = WorkDir("atomic");
  const fs::path csv = dir / "out.csv";
  WriteText(csv, "sentinel\n");
  WriteText(dir / "bad.txt", "0 1 8\n2 1 5\n");
  const CommandResult bad = RunAerolin("simulate data/derivatives/p2v7.toml --duration 10 --script '" +
                                           (dir / "bad.txt").string() + "' --csv '" + csv.string() + "'",
                                       "atomic");
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_EQ(ReadAll(csv.string()), "sentinel\n");
  const CommandResult good = RunAerolin(
      "simulate data/derivatives/p2v7.toml --duration 10 --csv '" + csv.string() + "'", "atomic");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  const std::string text = ReadAll(csv.string());
  EXPECT_EQ(text.rfind("t,u,alpha,", 0), 0u);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 102);  // header + 101 rows
  int files = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    (void)e;
    ++files;
  }
  EXPECT_EQ(files, 2) << "a temporary file was left behind";
}

// Regression: /dev/zero as a data file or script read until memory ran out.
TEST(Hardening, DevicesAreRefusedAsInputs) {
  const CommandResult a = RunAerolin("modes /dev/zero", "devzero");
  EXPECT_EQ(a.exit_code, 1);
  EXPECT_EQ(a.err, "error: /dev/zero:0: not a regular file (a device, FIFO or socket); give the path "
                   "of a text file\n");
  const CommandResult s =
      RunAerolin("simulate data/derivatives/p2v7.toml --duration 1 --script /dev/zero", "devzero");
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_NE(s.err.find("/dev/zero:0: not a regular file"), std::string::npos) << s.err;
}

// Regression: a run stopped by divergence exited 0; both integrators now
// give the same message naming the physical cause, and exit 3.
TEST(Hardening, DivergenceExitsThreeWithOnePhysicalMessage) {
  const fs::path dir = WorkDir("diverge");
  WriteText(dir / "pulse.txt", "0 0.5 8\n");
  std::string messages[2];
  int i = 0;
  for (const char* integrator : {"rk45", "exact"}) {
    const CommandResult r = RunAerolin(
        std::string("simulate tests/fixtures/derivatives/valid_diverges_unstable_Ma.toml --duration 60 "
                    "--integrator ") + integrator + " --script '" + (dir / "pulse.txt").string() + "'",
        "diverge");
    EXPECT_EQ(r.exit_code, 3) << integrator << r.err;
    EXPECT_NE(r.out.find("STOPPED: "), std::string::npos) << r.out;
    const std::size_t at = r.err.find("warning: state diverged");
    ASSERT_NE(at, std::string::npos) << r.err;
    messages[i++] = r.err.substr(at);
  }
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_EQ(messages[0],
            "warning: state diverged at t = 2 s: alpha0 + alpha reached 90 deg: body velocity "
            "undefined; run stopped\n");
}

// Runs `aerolin args` and returns its peak resident set [kB] (ru_maxrss of
// the child), or -1 if it did not exit 0.
long PeakRssKb(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(AEROLIN_SOURCE_DIR) != 0) _exit(127);
    std::vector<std::string> argv_s = {std::string(AEROLIN_BINARY_DIR) + "/aerolin"};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    freopen("/dev/null", "w", stdout);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return -1;
  return usage.ru_maxrss;
}

// Regression: simulate kept the whole trajectory (~165 B a slice: 1.6 GB for
// --duration 1e6). Streaming, a run 20× longer peaks at the same memory:
// 190 000 more slices would have added ≥ 31 MB; the bound allows 4 MB of
// allocator noise.
TEST(Hardening, SimulatePeakMemoryDoesNotGrowWithTheDuration) {
  const fs::path dir = WorkDir("rss");
  const std::string csv = (dir / "long.csv").string();
  const long short_kb = PeakRssKb({"simulate", "data/derivatives/p2v7.toml", "--duration", "1000",
                                   "--csv", (dir / "short.csv").string()});
  const long long_kb = PeakRssKb({"simulate", "data/derivatives/p2v7.toml", "--duration", "20000",
                                  "--csv", csv});
  ASSERT_GT(short_kb, 0);
  ASSERT_GT(long_kb, 0);
  EXPECT_LT(long_kb - short_kb, 4 * 1024) << "short " << short_kb << " kB, long " << long_kb << " kB";
  EXPECT_GT(fs::file_size(csv), 200001u * 17) << "the long CSV was written (17 commas a row)";
  fs::remove_all(dir);
}

// Regression: the s-plane labels of the Navion and the A-7A (and of
// degenerate aircraft) never finished spreading. Every bundled aircraft and
// a degenerate one plot; `timeout` turns a hang into a failure.
TEST(Hardening, PlotsEveryBundledAircraftAndADegenerateOne) {
  const fs::path dir = WorkDir("plot_all");
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(AEROLIN_SOURCE_DIR) / "data/derivatives"))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  ASSERT_GE(files.size(), 5u);
  for (const char* degenerate : {"valid_degenerate_tiny_derivatives.toml", "valid_degenerate_zero_derivatives.toml"})
    files.push_back(std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/derivatives/" + degenerate);
  for (const std::string& file : files) {
    const std::string stem = (dir / fs::path(file).stem()).string();
    const std::string command = "timeout 120 '" + std::string(AEROLIN_BINARY_DIR) + "/aerolin' plot '" +
                                file + "' --duration 20 --out '" + stem + "' --width 400 --height 300 "
                                "--glyph-interval 1e-20 >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    ASSERT_TRUE(WIFEXITED(status)) << file;
    EXPECT_EQ(WEXITSTATUS(status), 0) << file << (WEXITSTATUS(status) == 124 ? " hung" : "");
    for (const char* figure : {"_trajectory.png", "_track.png", "_history.png", "_splane.png"})
      EXPECT_TRUE(fs::exists(stem + figure)) << stem + figure;
  }
}

int CountEntries(const fs::path& dir) {
  int n = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    (void)e;
    ++n;
  }
  return n;
}

// Issue #27: as root, `--csv /dev/null` renamed a regular file over the
// system's /dev/null. A device or FIFO is written in place (also through a
// symbolic link), never replaced; a directory is refused. The device node is
// made here (the null device's numbers), never the system's.
TEST(Hardening, DevicesAndFifosAreWrittenInPlaceAndDirectoriesRefused) {
  const fs::path dir = WorkDir("in_place");
  const fs::path node = dir / "null";
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
    fs::create_symlink(node, dir / "link.csv");
    for (const std::string& target : {node.string(), (dir / "link.csv").string()}) {
      const CommandResult r = RunAerolin(
          "simulate data/derivatives/p2v7.toml --duration 1 --csv '" + target + "'", "in_place");
      EXPECT_EQ(r.exit_code, 0) << r.err;
      struct stat st {};
      ASSERT_EQ(::stat(node.c_str(), &st), 0);
      EXPECT_TRUE(S_ISCHR(st.st_mode)) << target << " was replaced";
    }
    EXPECT_EQ(CountEntries(dir), 2) << "a temporary file was left";
  } else {
    std::cout << "[  SKIPPED ] the device part: mknod failed (" << std::strerror(errno)
              << "); needs root\n";
  }
  const fs::path fifo = dir / "pipe.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = ReadAll(fifo.string()); });
  const CommandResult piped = RunAerolin(
      "simulate data/derivatives/p2v7.toml --duration 1 --csv '" + fifo.string() + "'", "fifo");
  reader.join();
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(std::count(received.begin(), received.end(), '\n'), 12) << received;
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  fs::create_directory(dir / "d");
  const CommandResult d = RunAerolin(
      "sweep data/derivatives/p2v7.toml --param lateral.Nr --from -1 --to 0 --steps 3 --csv '" +
          (dir / "d").string() + "'",
      "in_place_dir");
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_NE(d.err.find("output '" + (dir / "d").string() + "' is a directory; give a file name"),
            std::string::npos)
      << d.err;
}

// `--csv /dev/stdout > out.txt`: renaming a file over out.txt, or a second
// open of it, lost or overwrote part of standard output; it is `--csv -`.
TEST(Hardening, DevStdoutIsStandardOutput) {
  const std::string run = "simulate data/derivatives/p2v7.toml --duration 1 --csv ";
  const CommandResult dash = RunAerolin(run + "-", "stdout_dash");
  const CommandResult named = RunAerolin(run + "/dev/stdout", "stdout_named");
  EXPECT_EQ(named.exit_code, 0) << named.err;
  EXPECT_EQ(named.out, dash.out);
  EXPECT_EQ(std::count(named.out.begin(), named.out.end(), '\n'), 12);
  EXPECT_NE(named.err.find("small-perturbation validity"), std::string::npos) << named.err;
}

// Regression: `plot --out ''` wrote _trajectory.png into the current
// directory; `--csv ''` was taken for "no CSV".
TEST(Hardening, EmptyOutputPathsAreUsageErrors) {
  const std::string p2v7 = "data/derivatives/p2v7.toml";
  for (const std::string& args :
       {"simulate " + p2v7 + " --duration 1 --csv ''", "plot " + p2v7 + " --duration 1 --out ''",
        "bode " + p2v7 + " --input elevator --output q --csv ''",
        "bode " + p2v7 + " --input elevator --output q --plot ''",
        "sweep " + p2v7 + " --param lateral.Nr --from -1 --to 0 --steps 3 --csv ''",
        "sweep " + p2v7 + " --param lateral.Nr --from -1 --to 0 --steps 3 --plot ''",
        "locus " + p2v7 + " --loop rudder:r --gain 0:1 --plot ''",
        std::string("qualities data/derivatives/navion_cruise_sl.toml --plot ''")}) {
    const CommandResult r = RunAerolin(args, "empty_output");
    EXPECT_EQ(r.exit_code, 2) << args << '\n' << r.err;
    EXPECT_NE(r.err.find("expected an output path, got ''"), std::string::npos) << args << r.err;
  }
  EXPECT_FALSE(fs::exists(fs::path(AEROLIN_SOURCE_DIR) / "_trajectory.png"));
}

// Runs `aerolin ARGS > /dev/full` (a full disk) and returns the exit code
// and stderr.
CommandResult RunIntoAFullDisk(const std::string& args) {
  const std::string err = std::string(AEROLIN_BINARY_DIR) + "/cli_test_full.err";
  const std::string command = "cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && '" +
                              std::string(AEROLIN_BINARY_DIR) + "/aerolin' " + args +
                              " >/dev/full 2>'" + err + "'";
  const int status = std::system(command.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = ReadAll(err);
  std::remove(err.c_str());
  return r;
}

// Regression: every command exited 0 when standard output could not be
// written. (A closed pipe may still end quietly, as other Unix tools do.)
TEST(Hardening, StandardOutputWriteErrorsAreErrors) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const std::string& args :
       {std::string("modes data/derivatives/p2v7.toml"),
        std::string("simulate data/derivatives/p2v7.toml --duration 100 --csv -"),
        std::string("bode data/derivatives/p2v7.toml --input elevator --output q --csv -"),
        std::string("modes --help")}) {
    const CommandResult r = RunIntoAFullDisk(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_NE(r.err.find("error: standard output: No space left on device"), std::string::npos)
        << args << '\n'
        << r.err;
  }
}

// Regression: an interrupted `simulate --csv` left its hidden temporary file
// (15-120 MB). SIGINT and SIGTERM remove it, keep the existing output, and
// still end the process by the signal.
TEST(Hardening, InterruptedRunsRemoveTheirTemporaryOutput) {
  const std::string aerolin = std::string(AEROLIN_BINARY_DIR) + "/aerolin";
  const std::string data = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const fs::path dir = WorkDir("signal" + std::to_string(signal_number));
    const fs::path csv = dir / "out.csv";
    WriteText(csv, "sentinel\n");
    const std::string csv_text = csv.string();
    // 2·10^7 slices: minutes of work, stopped within a second of starting.
    std::vector<std::string> args = {aerolin,    "simulate", data,          "--duration",
                                     "20000",    "--dt",     "0.001",       "--excite",
                                     "phugoid",  "--csv",    csv_text};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t child = 0;
    ASSERT_EQ(::posix_spawn(&child, aerolin.c_str(), nullptr, nullptr, argv.data(), environ), 0);
    // Wait until rows reach the temporary file.
    bool writing = false;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!writing && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        std::error_code ec;
        if (e.path().filename().string().rfind(".out.csv.tmp-", 0) == 0 &&
            fs::file_size(e.path(), ec) > 0)
          writing = true;
      }
    }
    ::kill(child, writing ? signal_number : SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(writing) << "the run never started writing";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal_number) << status;
    EXPECT_EQ(CountEntries(dir), 1) << "a temporary file was left";
    EXPECT_EQ(ReadAll(csv_text), "sentinel\n");
  }
}

// Issue #27, "Clear messages": what reaches a user names the problem in the
// user's terms (a flag, a file's line), never a function of the library
// (Priming, StateSpace, Decompose, DefaultFrequencyRange, a tick spacing).
bool NamesTheLibrary(const std::string& text) {
  for (const char* name : {"Priming", "StateSpace", "Decompose", "DefaultFrequencyRange",
                           "tick spacing", "WithDerivedOutputs", "-nan", "zeroes a divisor"})
    if (text.find(name) != std::string::npos) return true;
  return false;
}

// The p2v7 file with `from` replaced by `to` (the first occurrence).
std::string P2v7With(const std::string& from, const std::string& to) {
  std::string text = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The line of `text` (1-based) that holds `what`.
int LineOf(const std::string& text, const std::string& what) {
  const std::size_t at = text.find(what);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

TEST(Hardening, NoLibraryNameReachesTheUser) {
  const fs::path dir = WorkDir("messages");
  const std::string avl = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/";
  // An AVL .mass row of 1e308 (the mass of the wing): located at its line.
  std::string mass = ReadAll(avl + "b737.mass");
  const std::string wing = " 19420.0  58.0";
  ASSERT_NE(mass.find(wing), std::string::npos);
  const int wing_line = LineOf(mass, wing);
  mass.replace(mass.find(wing), wing.size(), " 1e308    58.0");
  WriteText(dir / "big.mass", mass);
  fs::copy_file(avl + "b737_classic.st", dir / "b737_classic.st");
  std::string toml = ReadAll(avl + "b737.toml");
  toml.replace(toml.find("\"b737.mass\""), 11, "\"big.mass\"");
  WriteText(dir / "big.toml", toml);
  // An inertia of 1e308 (Ixx of the wing): the totals stay finite, Ix·Iz does not.
  mass = ReadAll(avl + "b737.mass");
  mass.replace(mass.find("8.00e6"), 6, "1e308 ");
  WriteText(dir / "ixx.mass", mass);
  toml.replace(toml.find("\"big.mass\""), 10, "\"ixx.mass\"");
  WriteText(dir / "ixx.toml", toml);
  // U0 = 1e-300 ft/s: U0² underflows, the outputs nz and gamma are 0/0.
  const std::string tiny = P2v7With("U0 = 293.8", "U0 = 1e-300");
  WriteText(dir / "tiny.toml", tiny);
  // No lateral derivative: every lateral root is 0, no frequency to centre a Bode range on.
  std::string flat = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  for (const char* key : {"Yb =", "Yp =", "Yr =", "Lb =", "Lp =", "Lr =", "Nb =", "Np =", "Nr ="}) {
    const std::size_t at = flat.find(std::string("\n") + key);
    ASSERT_NE(at, std::string::npos) << key;
    flat.replace(at + 1, flat.find('#', at) - at - 1, std::string(key) + " 0.0 ");
  }
  WriteText(dir / "flat.toml", flat);
  const std::string base = "data/derivatives/p2v7.toml";
  const std::string d = dir.string() + "/";
  struct Case {
    std::string args;
    int exit_code;
    std::string says;
  };
  const Case cases[] = {
      {"modes " + d + "big.toml", 1,
       d + "big.mass:" + std::to_string(wing_line) + ": this item takes the totals beyond 1e+100"},
      {"modes " + d + "ixx.toml", 1, "ixx.mass:" + std::to_string(wing_line) + ": this item takes the totals"},
      {"simulate " + d + "tiny.toml --duration 1", 1,
       d + "tiny.toml:" + std::to_string(LineOf(tiny, "U0 = 1e-300")) +
           ": U0 = 3.048e-301 m/s and g = 9.807 m/s^2 leave the outputs nz, gamma and ay"},
      {"bode " + d + "tiny.toml --input elevator --output q", 1, "tiny.toml:"},
      {"bode " + d + "flat.toml --input rudder --output r", 2,
       "error: no mode of the lateral axis has a natural frequency > 0 to set the default range "
       "around: give --from and --to, or --omega"},
      {"bode " + d + "flat.toml --input rudder --output r --from 0.1", 2, "give --from and --to"},
      {"locus " + base + " --loop rudder:r --washout 1e-300 --gain 0,1e300", 2,
       "at K = 1e+300 the closed-loop system matrix is not finite"},
      {"sweep " + base + " --param lateral.Nr --from -1e308 --to 1e308 --steps 3", 2,
       "the range from -1e+308 to 1e+308 is too wide: its step overflows"},
      {"plot " + base + " --duration 60 --excite phugoid --vertical-exaggeration 1e308 --out " + d + "p",
       2, "--vertical-exaggeration: expected a number from 1 to 10000, got '1e308'"},
  };
  for (const Case& c : cases) {
    const CommandResult r = RunAerolin(c.args, "messages");
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_FALSE(NamesTheLibrary(r.err)) << c.args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c.args;
  }
  // Both bounds given: the flat file's Bode diagram is drawn.
  EXPECT_EQ(RunAerolin("bode " + d + "flat.toml --input rudder --output r --from 0.1 --to 10", "messages")
                .exit_code,
            0);
}

// An output whose directory takes no new file (/proc, even as root, where
// access(W_OK) says yes) is an unusable output: exit 2 before the run.
TEST(Hardening, AnOutputWhereNoFileCanBeCreatedIsAUsageError) {
  if (!fs::is_directory("/proc/self")) GTEST_SKIP() << "no /proc";
  const std::string base = "data/derivatives/p2v7.toml";
  for (const std::string& args :
       {"simulate " + base + " --duration 1 --csv /proc/x.csv",
        "sweep " + base + " --param lateral.Nr --from -0.3 --to -0.2 --steps 3 --csv /proc/x.csv",
        "bode " + base + " --input elevator --output q --csv /proc/x.csv",
        "sweep " + base + " --param lateral.Nr --from -0.3 --to -0.2 --steps 3 --plot /proc/x",
        "locus " + base + " --loop rudder:r --gain 0:1:3 --plot /proc/x",
        "qualities " + base + " --plot /proc/x", "plot " + base + " --duration 1 --out /proc/x"}) {
    const CommandResult r = RunAerolin(args, "proc");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("error: output '/proc/x"), std::string::npos) << args << "\n" << r.err;
    // As root access(W_OK) passes and the probe file fails; as a user access() fails.
    EXPECT_NE(r.err.find(::geteuid() == 0 ? "cannot create a file in directory '/proc'"
                                          : "cannot write in directory '/proc'"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
}

// Error floods are bounded: the first core::kMaxReportedDiagnostics (20)
// errors, then a count; echoed text clipped and escaped.
TEST(Hardening, ErrorFloodsAreBoundedAndEchoedTextClippedAndEscaped) {
  const fs::path dir = WorkDir("flood");
  std::string keys;
  for (int i = 0; i < 300000; ++i) keys += "\njunk" + std::to_string(i) + " = 1";
  WriteText(dir / "many.toml", P2v7With("[geometry]", "[geometry]" + keys));
  const CommandResult r = RunAerolin("modes '" + (dir / "many.toml").string() + "'", "flood");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_LT(r.err.size(), 5000u) << "41 MB before";
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 21);  // 20 errors and the count
  EXPECT_NE(r.err.find("\n... and 299980 more errors\n"), std::string::npos) << r.err;

  // A key of a megabyte with a terminal escape: clipped at 60 characters, escaped.
  std::string odd = P2v7With("[geometry]", "[geometry]\n\"\\u001b[2J" + std::string(1000000, 'k') + "\" = 1");
  WriteText(dir / "odd.toml", odd);
  const CommandResult k = RunAerolin("modes '" + (dir / "odd.toml").string() + "'", "flood");
  EXPECT_EQ(k.exit_code, 1);
  EXPECT_LT(k.err.size(), 400u) << k.err.substr(0, 400);
  EXPECT_NE(k.err.find("unknown key '\\x1b[2J" + std::string(56, 'k') + "…' in [geometry]"),
            std::string::npos)
      << k.err;
  EXPECT_EQ(k.err.find('\x1b'), std::string::npos);

  // A pilot-script token of 20 MB: one clipped line, not 20 MB.
  WriteText(dir / "long.txt", "0 1 " + std::string(20000000, '8') + "\n");
  const CommandResult s = RunAerolin("simulate data/derivatives/p2v7.toml --duration 2 --script '" +
                                         (dir / "long.txt").string() + "'",
                                     "flood");
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_LT(s.err.size(), 400u) << s.err.substr(0, 400);
  EXPECT_NE(s.err.find("unknown key '" + std::string(60, '8') + "…'"), std::string::npos) << s.err;

  // A name with terminal escapes is printed escaped in every report.
  WriteText(dir / "name.toml", P2v7With("name = \"Lockheed P2V-7 Neptune\"",
                                        "name = \"Neptune\\u001b]0;owned\\u0007\\u009b2J\""));
  const CommandResult n = RunAerolin("modes '" + (dir / "name.toml").string() + "'", "flood");
  EXPECT_EQ(n.exit_code, 0) << n.err;
  EXPECT_NE(n.out.find("Neptune\\x1b]0;owned\\x07\\u009b2J"), std::string::npos) << n.out.substr(0, 200);
  EXPECT_EQ(n.out.find('\x1b'), std::string::npos);
  EXPECT_EQ(n.out.find('\x07'), std::string::npos);
}

// An implausible flight condition warns, as the loader's other implausible
// values do, and --strict refuses it.
TEST(Hardening, AnImplausibleAirspeedWarnsAndStrictRefusesIt) {
  const fs::path dir = WorkDir("airspeed");
  const std::string slow = P2v7With("U0 = 293.8", "U0 = 1e-3");
  WriteText(dir / "slow.toml", slow);
  const std::string file = (dir / "slow.toml").string();
  const std::string warning = file + ":" + std::to_string(LineOf(slow, "U0 = 1e-3")) +
                              ": U0: 0.0003048 m/s, expected 1 to 3000 m/s: implausible";
  const CommandResult r = RunAerolin("modes '" + file + "'", "airspeed");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: " + warning), std::string::npos) << r.err;
  const CommandResult strict = RunAerolin("modes --strict '" + file + "'", "airspeed");
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_NE(strict.err.find("error: " + warning), std::string::npos) << strict.err;
  EXPECT_EQ(strict.out, "");
}

// Values that mean "not given" when empty are usage errors when given empty.
TEST(Hardening, EmptyOrHollowValuesAreUsageErrors) {
  const std::string base = "data/derivatives/p2v7.toml";
  const std::pair<std::string, std::string> cases[] = {
      {"locus " + base + " --loop rudder:r --gain ,,,", "--gain: an empty entry in ',,,'"},
      {"locus " + base + " --loop rudder:r --gain 0,,1", "--gain: an empty entry"},
      {"locus " + base + " --loop rudder:r --gain 0:1:5 --maximize ''",
       "--maximize: expected a mode name, e.g. dutch-roll, got ''"},
      {"qualities " + base + " --class ''", "--class: expected an airplane class"},
      {"qualities " + base + " --category ''", "--category: expected a category"},
  };
  for (const auto& [args, says] : cases) {
    const CommandResult r = RunAerolin(args, "hollow");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.out, "") << args;
  }
}

// aerolin-fly's --duration has simulate's cap (study::kMaxFlightSlices),
// refused before a window opens.
TEST(Hardening, FlyDurationIsCappedAsSimulates) {
  const std::string fly = std::string(AEROLIN_BINARY_DIR) + "/aerolin-fly";
  if (!fs::exists(fly)) GTEST_SKIP() << "aerolin-fly not built";
  const std::string err = (fs::path(AEROLIN_BINARY_DIR) / "fly_cap.err").string();
  const int status = std::system(("cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && '" + fly +
                                  "' data/derivatives/p2v7.toml --no-log --duration 1e11 2>'" +
                                  err + "' >/dev/null")
                                     .c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
  EXPECT_NE(ReadAll(err).find("duration 1e+11 s is 1e+12 slices of 0.1 s, more than the limit of "
                              "1e+08 slices"),
            std::string::npos)
      << ReadAll(err);
  std::remove(err.c_str());
}

// aerolin-fly's exaggerations are bounded (the vertical one as plot's,
// study::kMaxVerticalExaggeration), before a window opens.
TEST(Hardening, FlyExaggerationsAreBounded) {
  const std::string fly = std::string(AEROLIN_BINARY_DIR) + "/aerolin-fly";
  if (!fs::exists(fly)) GTEST_SKIP() << "aerolin-fly not built";
  const std::string err = (fs::path(AEROLIN_BINARY_DIR) / "fly_exaggeration.err").string();
  auto run = [&](const std::string& args) {
    const int status = std::system(("cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && '" + fly +
                                    "' " + args + " 2>'" + err + "' >/dev/null </dev/null")
                                       .c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(run("data/derivatives/p2v7.toml --no-log --duration 1 --vertical-exaggeration 1e308"), 2);
  EXPECT_NE(ReadAll(err).find("expected 'auto' or a number from 1 to 10000, got '1e308'"),
            std::string::npos)
      << ReadAll(err);
  EXPECT_EQ(run("data/derivatives/p2v7.toml --no-log --duration 1 --attitude-exaggeration 1000"), 2);
  EXPECT_NE(ReadAll(err).find("expected 'auto' or a number from 1 to 100, got '1000'"), std::string::npos)
      << ReadAll(err);
  std::remove(err.c_str());
}

}  // namespace
}  // namespace aerolin::testing_cli
