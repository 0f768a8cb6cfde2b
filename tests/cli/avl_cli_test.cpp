// AVL files on the command line: limits of AVL's controls reaching
// `simulate`, and the .mass file's g / rho check under --strict.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

// A TOML beside the bundled AVL files (absolute paths), with `extra` appended
// and the mass file `mass`; written into the build directory.
std::string AvlToml(const std::string& name, const std::string& extra,
                    const std::string& mass = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.mass") {
  std::string text = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml");
  const std::string dir = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/";
  text.replace(text.find("\"b737_classic.st\""), 17, "\"" + dir + "b737_classic.st\"");
  text.replace(text.find("\"b737.mass\""), 11, "\"" + mass + "\"");
  const std::string path = std::string(AEROLIN_BINARY_DIR) + "/avl_cli_" + name + ".toml";
  std::ofstream(path) << text << extra;
  return path;
}

// Limits of AVL's controls reach the pilot: a scripted elevator beyond
// [controls.elevator] max is refused, within it flies.
TEST(AvlCommand, SimulateHoldsAvlControlsToTheirLimits) {
  const std::string script = std::string(AEROLIN_BINARY_DIR) + "/avl_cli_elevator.txt";
  std::ofstream(script) << "1.0 2.0 set elevator 0.15\n";
  const std::string limited = AvlToml("limited", "\n[controls.elevator]\nmin = -0.2\nmax = 0.1\n");
  const auto refused = RunAerolin("simulate " + limited + " --script " + script + " --duration 3", "avl_lim");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("value 0.15 is outside elevator's limits [-0.2, 0.1] rad"), std::string::npos)
      << refused.err;
  const std::string wider = AvlToml("wider", "\n[controls.elevator]\nmin = -0.2\nmax = 0.25\n");
  const auto flown = RunAerolin("simulate " + wider + " --script " + script + " --duration 3", "avl_wide");
  EXPECT_EQ(flown.exit_code, 0) << flown.err;
  std::remove(script.c_str());
  std::remove(limited.c_str());
  std::remove(wider.c_str());
}

// The .mass file's g against the TOML's: a warning (exit 0), an error with --strict.
TEST(AvlCommand, StrictMakesTheMassFilesConditionAnError) {
  std::string mass = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.mass");
  mass.replace(mass.find("g   = 9.81"), 10, "g   = 32.2");  // ft/s², but the file's units are m, s
  const std::string mass_path = std::string(AEROLIN_BINARY_DIR) + "/avl_cli_g.mass";
  std::ofstream(mass_path) << mass;
  const std::string toml = AvlToml("g", "", mass_path);
  const std::string warning =
      mass_path + ":18: g: g = 32.2 m/s^2 differs from the TOML's g = 9.81 m/s^2 by 228.2 %, more than "
                  "2 %: AVL's run case takes g from the mass file, so the .st's trim may be for another g; "
                  "aerolin uses the TOML's (make the two agree)\n";
  const auto loose = RunAerolin("modes " + toml, "avl_g");
  EXPECT_EQ(loose.exit_code, 0);
  EXPECT_EQ(loose.err, "warning: " + warning);
  const auto strict = RunAerolin("modes " + toml + " --strict", "avl_g_strict");
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_EQ(strict.err, "error: " + warning);
  EXPECT_EQ(strict.out, "");
  std::remove(mass_path.c_str());
  std::remove(toml.c_str());
}

}  // namespace
}  // namespace aerolin
