// `aerolin rms`: the JSON is the library's statistics (one truth), --height is
// in the file's length unit, and the usage errors.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_command.hpp"

namespace aerolin {
namespace {

using testing_cli::RunAerolin;

const std::string kP2V7 = "data/derivatives/p2v7.toml";  // imperial, no altitude
const std::string k747 = "data/derivatives/boeing747_cruise_40kft.toml";  // SI, 12 192 m

TEST(RmsCommand, JsonListsEveryOutputInSiWithTheHeightInTheFilesUnit) {
  const auto r = RunAerolin("rms " + kP2V7 + " --turbulence moderate --height 1000 --json", "rms_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "aerolin.rms/1");
  EXPECT_NEAR(j["turbulence"]["height_m"].get<double>(), 1000 * 0.3048, 1e-9);
  EXPECT_EQ(j["turbulence"]["intensity"], "moderate");
  EXPECT_DOUBLE_EQ(j["dt_s"].get<double>(), 0.1);
  std::vector<std::string> names;
  for (const auto& o : j["outputs"]) {
    names.push_back(o["name"]);
    EXPECT_GT(o["rms"].get<double>(), 0.0) << o["name"];
    EXPECT_GT(o["n0_per_s"].get<double>(), 0.0) << o["name"];
  }
  const std::vector<std::string> expected = {"u", "alpha", "q", "theta", "nz", "gamma", "u_g", "w_g",
                                             "beta", "p", "r", "phi", "ay", "v_g", "p_g"};
  EXPECT_EQ(names, expected);
  // Below 1000 ft the MIL-F-8785C σw is 0.1 W20 = 3 kt... for moderate, W20 = 30 kt.
  EXPECT_NEAR(j["turbulence"]["sigma_w_m_s"].get<double>(), 0.1 * 30 * 1852.0 / 3600.0, 1e-9);
}

TEST(RmsCommand, TextTableAndTheFilesAltitude) {
  const auto r = RunAerolin("rms " + k747 + " --turbulence light", "rms_text");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("12192 m above ground ([condition] altitude)"), std::string::npos) << r.out;
  // The P2V-7 gives no altitude: the flights' default height, said so.
  const auto d = RunAerolin("rms " + kP2V7 + " --turbulence light", "rms_default");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("304.8 m above ground (default)"), std::string::npos) << d.out;
  EXPECT_NE(r.out.find("  nz "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Rice"), std::string::npos) << r.out;
}

TEST(RmsCommand, SeverityScalesTheResponse) {
  // Above 2000 ft the intensities come from the exceedance table and the
  // scale lengths do not depend on the intensity: the linear response
  // scales with σ.
  auto rms_of = [](const std::string& level) {
    const auto r = RunAerolin("rms " + k747 + " --turbulence " + level + " --json", "rms_" + level);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json light = rms_of("light"), severe = rms_of("severe");
  const double ratio = severe["turbulence"]["sigma_w_m_s"].get<double>() /
                       light["turbulence"]["sigma_w_m_s"].get<double>();
  ASSERT_EQ(light["outputs"].size(), severe["outputs"].size());
  for (std::size_t i = 0; i < light["outputs"].size(); ++i) {
    const double a = light["outputs"][i]["rms"], b = severe["outputs"][i]["rms"];
    EXPECT_NEAR(b / a, ratio, 1e-9 * ratio) << light["outputs"][i]["name"];
  }
}

// --plot writes PREFIX_rms_height.FORMAT per --format at --plot-width x
// --plot-height (the command's --height is the turbulence's), says which
// files it wrote, and still prints the table; --width is refused with the
// flags to use; a figure path that is the data file is refused before work.
TEST(RmsCommand, PlotWritesTheHeightFigure) {
  const std::string dir = ::testing::TempDir() + "rms_plot";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto r = RunAerolin("rms " + kP2V7 + " --turbulence severe --height 1000 --plot " + dir +
                                "/p2v7 --format png,svg --plot-width 800 --plot-height 600",
                            "rms_plot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Lateral-directional"), std::string::npos) << r.out;
  for (const char* ext : {"png", "svg"}) {
    const std::string f = dir + "/p2v7_rms_height." + ext;
    EXPECT_TRUE(std::filesystem::exists(f)) << f;
    EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
  }
  const std::string png = testing_cli::ReadAll(dir + "/p2v7_rms_height.png");
  ASSERT_GT(png.size(), 24u);
  auto be32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  EXPECT_EQ(be32(16), 800u);
  EXPECT_EQ(be32(20), 600u);
  const std::string svg = testing_cli::ReadAll(dir + "/p2v7_rms_height.svg");
  EXPECT_NE(svg.find("severe (the table"), std::string::npos);
  EXPECT_NE(svg.find("304.8 m (1000 ft), given"), std::string::npos);

  const auto width = RunAerolin("rms " + kP2V7 + " --turbulence light --plot " + dir + "/x --width 800", "rms_width");
  EXPECT_EQ(width.exit_code, 2) << width.err;
  EXPECT_NE(width.err.find("--plot-width W --plot-height H"), std::string::npos) << width.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/x_rms_height.png"));

  const auto format = RunAerolin("rms " + kP2V7 + " --turbulence light --format svg", "rms_format");
  EXPECT_EQ(format.exit_code, 2) << format.err;
  EXPECT_NE(format.err.find("--format needs --plot"), std::string::npos) << format.err;
}

TEST(RmsCommand, UsageErrors) {
  auto r = RunAerolin("rms " + kP2V7 + " --turbulence rough --height 100", "rms_badlevel");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunAerolin("rms " + kP2V7 + " --turbulence light --height -5", "rms_negheight");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunAerolin("rms " + kP2V7 + " --turbulence light --height 100 --dt 0", "rms_dt");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = RunAerolin("rms " + kP2V7 + " --height 100", "rms_noturb");
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

}  // namespace
}  // namespace aerolin
