// Every input of a run is protected from being an output (issue #27),
// including the files a data file names (an AVL aircraft's .st and .mass),
// through symbolic and hard links; and a figure that cannot be written says
// why (errno text) and leaves nothing behind.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/run_command.hpp"

namespace aerolin::testing_cli {
namespace {

namespace fs = std::filesystem;

fs::path WorkDir(const std::string& name) {
  const fs::path dir = fs::path(AEROLIN_BINARY_DIR) / ("protected_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A copy of the bundled AVL 737 (b737.toml naming b737_classic.st and
// b737.mass beside it) in `dir`.
void CopyAvl737(const fs::path& dir) {
  const fs::path avl = fs::path(AEROLIN_SOURCE_DIR) / "data/avl";
  for (const char* name : {"b737.toml", "b737_classic.st", "b737.mass"})
    fs::copy_file(avl / name, dir / name);
}

// Regression: `simulate data/avl/b737.toml --csv data/avl/b737_classic.st`
// (and sweep --csv, bode --csv, plot --out, every --plot PREFIX) overwrote the
// files the aircraft file names, exit 0. Now exit 2 before any computation,
// naming the output and the input, with the input intact; also through a
// symbolic link (named as a figure of a prefix) and a hard link.
TEST(ProtectedInputs, FilesTheDataFileNamesAreNotOutputs) {
  const fs::path dir = WorkDir("avl");
  CopyAvl737(dir);
  const std::string toml = (dir / "b737.toml").string();
  const std::string st = (dir / "b737_classic.st").string();
  const std::string mass = (dir / "b737.mass").string();
  const std::string st_text = ReadAll(st), mass_text = ReadAll(mass);
  fs::create_symlink(st, dir / "fig_trajectory.png");
  fs::create_symlink(st, dir / "sw_splane.png");
  fs::create_hard_link(mass, dir / "lo_locus.png");
  fs::create_hard_link(mass, dir / "q_short_period_B.png");
  fs::create_hard_link(mass, dir / "hard.csv");
  fs::create_symlink(st, dir / "link.csv");
  const std::string at = "'" + toml + "' ";
  const std::string sweep = "sweep " + at + "--param lateral.Nr --from -0.3 --to -0.2 --steps 3 ";
  // {arguments, the output as named, the input it is}
  const std::vector<std::vector<std::string>> cases = {
      {"simulate " + at + "--duration 1 --csv '" + st + "'", st, st},
      {"simulate " + at + "--duration 1 --csv '" + mass + "'", mass, mass},
      {"simulate " + at + "--duration 1 --json --csv '" + (dir / "link.csv").string() + "'",
       (dir / "link.csv").string(), st},
      {sweep + "--csv '" + (dir / "hard.csv").string() + "'", (dir / "hard.csv").string(), mass},
      {"bode " + at + "--input elevator --output q --csv '" + st + "'", st, st},
      {"bode " + at + "--input elevator --output q --csv '" + mass + "'", mass, mass},
      {"plot " + at + "--duration 1 --out '" + (dir / "fig").string() + "'",
       (dir / "fig_trajectory.png").string(), st},
      {sweep + "--plot '" + (dir / "sw").string() + "'", (dir / "sw_splane.png").string(), st},
      {"locus " + at + "--loop rudder:r --gain 0:1:3 --plot '" + (dir / "lo").string() + "'",
       (dir / "lo_locus.png").string(), mass},
      {"qualities " + at + "--class II-L --category B --plot '" + (dir / "q").string() + "'",
       (dir / "q_short_period_B.png").string(), mass},
  };
  for (const std::vector<std::string>& c : cases) {
    const CommandResult r = RunAerolin(c[0], "protected_avl");
    EXPECT_EQ(r.exit_code, 2) << c[0] << "\n" << r.err;
    EXPECT_EQ(r.out, "") << c[0];
    EXPECT_NE(r.err.find("output '" + c[1] + "' is the input file '" + c[2] + "'"), std::string::npos)
        << c[0] << "\n" << r.err;
    EXPECT_EQ(ReadAll(st), st_text) << c[0];
    EXPECT_EQ(ReadAll(mass), mass_text) << c[0];
  }
  // An output beside them is fine.
  const CommandResult ok =
      RunAerolin("simulate " + at + "--duration 1 --csv '" + (dir / "out.csv").string() + "'",
                 "protected_avl");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ReadAll(st), st_text);
}

// As RunAerolin, in a child with files limited to `max_file_bytes` and
// SIGXFSZ ignored: a write past the limit fails with EFBIG, as a write to a
// full disk fails with ENOSPC (a portable stand-in for a full disk: no
// mount, no root).
CommandResult RunAerolinWithFileSizeLimit(const std::string& args, const std::string& tag,
                                          rlim_t max_file_bytes) {
  const std::string out_path = std::string(AEROLIN_BINARY_DIR) + "/cli_test_" + tag + ".out";
  const std::string err_path = std::string(AEROLIN_BINARY_DIR) + "/cli_test_" + tag + ".err";
  const std::string command = "cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && '" +
                              std::string(AEROLIN_BINARY_DIR) + "/aerolin' " + args + " >'" +
                              out_path + "' 2>'" + err_path + "'";
  const pid_t child = ::fork();
  if (child == 0) {
    const struct rlimit limit {max_file_bytes, max_file_bytes};
    ::signal(SIGXFSZ, SIG_IGN);  // stays ignored across exec
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(99);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(98);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(out_path);
  r.err = ReadAll(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

// Regression: `plot` on a full disk aborted (libpng's "Write Error", exit
// 134) for PNG and blamed "ReplaceGlyphsWithText: no closing </svg>" for SVG
// and PDF, leaving the temporary file behind. Now every format exits 1 with
// one message naming the figure and the errno text, and leaves nothing.
TEST(FigureWriteErrors, PlotOnAFullDiskSaysWhyAndLeavesNothing) {
  const std::string efbig = std::strerror(EFBIG);
  for (const std::string format : {"png", "svg", "pdf", "eps"}) {
    const fs::path dir = WorkDir("full_" + format);
    const std::string prefix = (dir / "fig").string();
    const CommandResult r = RunAerolinWithFileSizeLimit(
        "plot data/derivatives/p2v7.toml --duration 2 --format " + format + " --out '" + prefix + "'",
        "full_disk", 16 * 1024);
    EXPECT_EQ(r.exit_code, 1) << format << "\n" << r.err;
    EXPECT_EQ(r.err, "error: " + prefix + "_trajectory." + format + ": cannot write (" + efbig + ")\n")
        << format;
    EXPECT_TRUE(fs::is_empty(dir)) << format << ": a file was left behind";
  }
  // The other commands' figures are written the same way (they were written
  // in place: a full disk left a truncated figure).
  {
    const fs::path dir = WorkDir("full_sweep");
    const std::string prefix = (dir / "s").string();
    const CommandResult r = RunAerolinWithFileSizeLimit(
        "sweep data/derivatives/p2v7.toml --param lateral.Nr --from -0.3 --to -0.2 --steps 3 --plot '" +
            prefix + "'",
        "full_disk", 16 * 1024);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err, "error: " + prefix + "_splane.png: cannot write (" + efbig + ")\n");
    EXPECT_TRUE(fs::is_empty(dir)) << "sweep: a file was left behind";
  }
  // The same run without the limit writes all four figures (the limit, not
  // the command, made it fail).
  const fs::path dir = WorkDir("full_control");
  const CommandResult ok = RunAerolin("plot data/derivatives/p2v7.toml --duration 2 --format png,svg --out '" +
                                          (dir / "fig").string() + "'",
                                      "full_disk");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_GT(fs::file_size(dir / "fig_trajectory.png"), 16u * 1024);
  EXPECT_GT(fs::file_size(dir / "fig_trajectory.svg"), 16u * 1024);
}

}  // namespace
}  // namespace aerolin::testing_cli
