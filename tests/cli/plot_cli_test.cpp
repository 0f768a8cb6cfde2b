#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>
#include <sys/wait.h>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::ReadAll;
using testing_cli::RunAerolin;

// PNG signature and the IHDR width/height (big-endian, bytes 16..23).
bool IsPngOfSize(const std::string& bytes, unsigned width, unsigned height) {
  if (bytes.size() < 24 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return false;
  auto be32 = [&](std::size_t at) {
    return (unsigned(static_cast<unsigned char>(bytes[at])) << 24) |
           (unsigned(static_cast<unsigned char>(bytes[at + 1])) << 16) |
           (unsigned(static_cast<unsigned char>(bytes[at + 2])) << 8) |
           unsigned(static_cast<unsigned char>(bytes[at + 3]));
  };
  return be32(16) == width && be32(20) == height;
}

// The value of the first line "KEY = value" of a data file, as written.
std::string ValueOf(const std::string& file, const std::string& key) {
  const std::string text = ReadAll(std::string(AEROLIN_SOURCE_DIR) + "/" + file);
  const std::string at = "\n" + key + " = ";
  const std::size_t k = text.find(at);
  if (k == std::string::npos) return "";
  const std::size_t from = k + at.size();
  return text.substr(from, text.find_first_of(" \n#", from) - from);
}

// Every figure kind a user can ask for (plot's four, bode, qualities, sweep
// and locus with --plot), on every bundled aircraft at 800 x 600: each
// command succeeds and each figure is an 800 x 600 PNG with something drawn
// (scripts/all-figures.sh makes the same set at both sizes to look at).
TEST(FigureKinds, EveryKindOnEveryBundledAircraftAt800x600) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(AEROLIN_BINARY_DIR) / "cli_figure_kinds";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> files;
  for (const fs::directory_entry& e :
       fs::directory_iterator(fs::path(AEROLIN_SOURCE_DIR) / "data/derivatives"))
    if (e.path().extension() == ".toml") files.push_back("data/derivatives/" + e.path().filename().string());
  files.push_back("data/avl/b737.toml");
  ASSERT_EQ(files.size(), 9u);
  const std::string size = " --width 800 --height 600";
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const fs::path out = dir / fs::path(file).stem();
    fs::create_directories(out);
    const std::string p = out.string() + "/";
    const bool avl = file.find("b737.toml") != std::string::npos;
    const bool coefficients = file.find("_coefficients.toml") != std::string::npos;
    const std::string nr = coefficients ? "Cnr" : "Nr";
    const std::string sweep =
        avl ? "--param condition.U0 --from 150 --to 250"
            : "--param lateral." + nr + " --from " + ValueOf(file, nr) + " --to " +
                  std::to_string(6.0 * std::stod(ValueOf(file, nr)));
    for (const std::string& command :
         {"plot " + file + " --script examples/scripts/a_elevator_doublet.txt --duration 60"
              " --vertical-exaggeration 30 --out " + p + "doublet",
          "bode " + file + " --input rudder --output beta,r --plot " + p + "rudder",
          "qualities " + file + " --plot " + p + "qualities",
          "sweep " + file + " " + sweep + " --steps 30 --plot " + p + "sweep",
          "locus " + file + " --loop rudder:r --washout 1.5 --gain " +
              (avl ? "-3:0:31" : "0:3:31") + " --plot " + p + "yaw"}) {
      const auto r = RunAerolin(command + size, "figure_kinds");
      EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    }
    int figures = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(out)) {
      const std::string bytes = ReadAll(e.path().string());
      EXPECT_TRUE(IsPngOfSize(bytes, 800, 600)) << e.path();
      EXPECT_GT(bytes.size(), 10000u) << e.path() << ": nearly blank";
      ++figures;
    }
    // 4 (plot) + 1 (bode) + 2 or more (qualities) + 2 (sweep) + 2 (locus).
    EXPECT_GE(figures, 11);
  }
  fs::remove_all(dir);
}

TEST(PlotCommand, WritesFourFiguresPerFormatHeadless) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_plot_test";
  const auto r = RunAerolin("plot data/derivatives/p2v7.toml --excite dutch-roll --duration 20"
                            " --out '" + prefix + "' --format png,svg --width 640 --height 480",
                            "plot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* figure : {"_trajectory", "_track", "_history", "_splane"}) {
    const std::string png = prefix + figure + ".png";
    const std::string svg = prefix + figure + ".svg";
    EXPECT_NE(r.out.find(png), std::string::npos) << "prints the path it wrote";
    EXPECT_TRUE(IsPngOfSize(ReadAll(png), 640, 480)) << png;
    EXPECT_NE(ReadAll(svg).find("<svg"), std::string::npos) << svg;
    std::remove(png.c_str());
    std::remove(svg.c_str());
  }
}

// The figures' text is text: in the SVG, <text> elements with the axis
// labels (searchable, editable, no glyph outlines); in the PDF drawn from it,
// text pdftotext (poppler-utils, scripts/install-deps.sh) extracts.
TEST(PlotCommand, SvgAndPdfCarryRealText) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_plot_text";
  const auto r = RunAerolin("plot data/derivatives/p2v7.toml --excite dutch-roll --duration 10"
                            " --out '" + prefix + "' --format svg,PDF --width 800 --height 600",
                            "plot_text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string history = ReadAll(prefix + "_history.svg");
  const std::string splane = ReadAll(prefix + "_splane.svg");
  const std::string track = ReadAll(prefix + "_track.svg");
  EXPECT_NE(history.find(">time, s</text>"), std::string::npos);
  EXPECT_NE(history.find(">sideslip, deg</text>"), std::string::npos);
  EXPECT_NE(splane.find(">Re λ, 1/s</text>"), std::string::npos);
  EXPECT_NE(splane.find(">Im λ, rad/s</text>"), std::string::npos);
  EXPECT_NE(track.find(">north, m</text>"), std::string::npos);
  for (const std::string* svg : {&history, &splane, &track}) EXPECT_EQ(svg->find("<use"), std::string::npos);
  const std::string text_file = prefix + "_history.txt";
  ASSERT_EQ(std::system(("pdftotext '" + prefix + "_history.pdf' '" + text_file + "'").c_str()), 0);
  const std::string text = ReadAll(text_file);
  EXPECT_NE(text.find("time, s"), std::string::npos) << text;
  EXPECT_NE(text.find("sideslip, deg"), std::string::npos) << text;
  for (const char* figure : {"_trajectory", "_track", "_history", "_splane"}) {
    std::remove((prefix + figure + ".svg").c_str());
    std::remove((prefix + figure + ".pdf").c_str());
  }
  std::remove(text_file.c_str());
}

// `plot --model both` flies what `simulate --model both` flies (the same
// Fly): the same partings, to the slice, on a flight where they part; the
// flight figures name both models, the s-plane is the linear model's.
TEST(PlotCommand, ModelBothFliesWhatSimulateFliesAndDrawsBoth) {
  const std::string prefix = std::string(AEROLIN_BINARY_DIR) + "/cli_plot_both";
  const std::string flight =
      "data/derivatives/p2v7.toml --excite dutch-roll --amplitude 0.5 --duration 20 --model both";
  const auto plot = RunAerolin("plot " + flight + " --out '" + prefix + "' --format svg"
                               " --width 800 --height 600", "plot_both");
  ASSERT_EQ(plot.exit_code, 0) << plot.err;
  const auto simulate = RunAerolin("simulate " + flight, "plot_both_sim");
  ASSERT_EQ(simulate.exit_code, 0) << simulate.err;
  const std::string kPartings = "Nonlinear beside linear";
  const std::size_t at = simulate.out.find(kPartings);
  ASSERT_NE(at, std::string::npos) << simulate.out;
  const std::string line = simulate.out.substr(at, simulate.out.find('\n', at) + 1 - at);
  EXPECT_NE(line.find("phi after"), std::string::npos) << line << ": they part";
  EXPECT_NE(plot.out.find(line), std::string::npos) << plot.out;
  EXPECT_NE(ReadAll(prefix + "_track.svg").find(">nonlinear model's ground track<"), std::string::npos);
  EXPECT_NE(ReadAll(prefix + "_trajectory.svg").find(">nonlinear model's flight path<"),
            std::string::npos);
  EXPECT_NE(ReadAll(prefix + "_history.svg").find("linear model solid, nonlinear model dashed"),
            std::string::npos);
  // --model nonlinear: the nonlinear flight alone, and the titles say so.
  const auto alone = RunAerolin("plot data/derivatives/p2v7.toml --excite dutch-roll --amplitude 0.5"
                                " --duration 20 --model nonlinear --out '" + prefix + "' --format svg"
                                " --width 800 --height 600", "plot_nl");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(ReadAll(prefix + "_history.svg").find("time histories (nonlinear model)"),
            std::string::npos);
  EXPECT_EQ(ReadAll(prefix + "_track.svg").find("linear model's"), std::string::npos);
  for (const char* figure : {"_trajectory", "_track", "_history", "_splane"})
    std::remove((prefix + figure + ".svg").c_str());
  // Turbulence is refused as simulate refuses it (usage, 2).
  EXPECT_EQ(RunAerolin("plot data/derivatives/p2v7.toml --duration 1 --turbulence light --model both"
                       " --out '" + prefix + "'", "plot_nl_turb").exit_code,
            RunAerolin("simulate data/derivatives/p2v7.toml --duration 1 --turbulence light"
                       " --model both", "sim_nl_turb").exit_code);
}

// An output directory that does not exist is found before flying (usage, 2).
TEST(PlotCommand, BadFormatAndMissingOutputDirectoryAreUsageErrors) {
  EXPECT_EQ(RunAerolin("plot data/derivatives/p2v7.toml --duration 1 --out x --format gif", "plot_fmt").exit_code, 2);
  const auto r = RunAerolin("plot data/derivatives/p2v7.toml --duration 1 --out /no/such/dir/x", "plot_path");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: output '/no/such/dir/x_trajectory.png': directory '/no/such/dir' does not exist\n");
}

TEST(PlotCommand, VerticalExaggerationBelowOneIsAUsageError) {
  for (const char* k : {"0.5", "0", "-3", "nan"}) {
    const auto r = RunAerolin(std::string("plot data/derivatives/p2v7.toml --duration 1 --out x"
                                          " --vertical-exaggeration ") + k,
                              "plot_vex");
    EXPECT_EQ(r.exit_code, 2) << k << ": " << r.err;
    EXPECT_NE(r.err.find("--vertical-exaggeration"), std::string::npos) << r.err;
  }
}

// scripts/run.sh builds `aerolin` alone: every command that draws says how
// to build the plotter (exit 2, nothing written). A copy of `aerolin` in a
// folder of its own has no `aerolin-plot` beside it.
TEST(PlotCommand, WithoutThePlotterEachFigureCommandSaysHowToBuildIt) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(AEROLIN_BINARY_DIR) / "cli_no_plotter";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path aerolin = dir / "aerolin";
  fs::copy_file(fs::path(AEROLIN_BINARY_DIR) / "aerolin", aerolin);
  const std::string prefix = (dir / "fig").string();
  const std::string expected = "error: figures are drawn by aerolin-plot, which is not built ('" +
                               (dir / "aerolin-plot").string() +
                               "' does not exist); build it with: "
                               "scripts/install-deps.sh --plotter && scripts/build.sh --plotter\n";
  for (const std::string& args :
       {"plot data/derivatives/p2v7.toml --duration 1 --out " + prefix,
        "bode data/derivatives/p2v7.toml --input elevator --output q --plot " + prefix,
        "qualities data/derivatives/p2v7.toml --plot " + prefix,
        "sweep data/derivatives/p2v7.toml --param longitudinal.Mq --from -2 --to -1 --steps 2"
        " --plot " + prefix,
        "locus data/derivatives/p2v7.toml --loop rudder:r --gain 0:1:2 --plot " + prefix}) {
    const std::string out = (dir / "out.txt").string();
    const std::string err = (dir / "err.txt").string();
    const int status = std::system(("cd '" + std::string(AEROLIN_SOURCE_DIR) + "' && '" +
                                    aerolin.string() + "' " + args + " >'" + out + "' 2>'" + err +
                                    "'").c_str());
    ASSERT_TRUE(WIFEXITED(status)) << args;
    EXPECT_EQ(WEXITSTATUS(status), 2) << args;
    EXPECT_EQ(ReadAll(err), expected) << args;
    EXPECT_EQ(ReadAll(out), "") << args;
    int entries = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) entries += e.exists() ? 1 : 0;
    EXPECT_EQ(entries, 3) << args << ": only aerolin, out.txt and err.txt";
  }
  fs::remove_all(dir);
}

TEST(SimulateCommand, ExcitesTheCoupledRollSpiralSpelling) {
  // The P2V-7 has separate roll and spiral roots, so asking for the coupled
  // roll-spiral oscillation is a clear error naming the modes it does have.
  const auto r = RunAerolin("simulate data/derivatives/p2v7.toml --excite roll-spiral --duration 1", "rs");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("has no roll-spiral oscillation mode"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dutch roll"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace aerolin
