// Every input of a run is protected from being an output (issue #27),
// including the files a data file names (an AVL aircraft's .st and .mass),
// through symbolic and hard links.

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace aerolin::testing_cli
