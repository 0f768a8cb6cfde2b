#include "aerolin/export/augment_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/saturation.hpp"

namespace aerolin::exporting {
namespace {

// The P2V-7's rudder-only yaw damper (gain rows: rudder) and a check typed
// here: 0.5 rad commanded against a 0.4 rad stop (28.65° against 22.92°).
struct Fixture {
  study::AugmentResult design;
  study::SaturationCheck check;
};

Fixture Make() {
  const model::AircraftData a =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
  study::AugmentSpec spec;
  spec.axis = model::Axis::kLateral;
  spec.inputs = {"rudder"};
  Fixture f{study::Augment(a, spec), {}};
  f.check.disturbance = {{"beta", 0.1}, {"r", 0.02}};
  study::InputCommand rudder;
  rudder.input = f.design.inputs.at(0);
  rudder.command = 0.5;
  rudder.limit = 0.4;
  rudder.ratio = 1.25;
  rudder.saturates = true;
  f.check.inputs = {rudder};
  return f;
}

TEST(AugmentReport, SaturationBlockFollowsTheGainOnlyWhenGiven) {
  const Fixture f = Make();
  const AugmentReportHeader header{"p2v7.toml", "P2V-7"};
  std::ostringstream plain, checked;
  WriteAugmentText(plain, header, f.design);
  WriteAugmentText(checked, header, f.design, &f.check);
  EXPECT_EQ(plain.str().find("stated disturbance"), std::string::npos);
  const std::string text = checked.str();
  const std::string block =
      "\nAt the stated disturbance beta 5.73 deg, r 1.146 deg/s, the worst signs (|delta_i| = sum_j |K_ij| |x_j|):\n"
      "  input           command       position stop   ratio\n"
      "  rudder          28.65 deg     22.92 deg       1.250   saturates\n";
  const std::size_t at = text.find(block);
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_GT(at, text.find("‖K‖₂"));
  EXPECT_LT(at, text.find("Weights:"));
  // Without the block, the report is the plain one.
  EXPECT_EQ(text.substr(0, at) + text.substr(at + block.size()), plain.str());
}

TEST(AugmentReport, AnInputWithoutAStopIsNotChecked) {
  Fixture f = Make();
  f.check.inputs[0].limit.reset();
  f.check.inputs[0].ratio.reset();
  f.check.inputs[0].saturates = false;
  std::ostringstream out;
  WriteAugmentText(out, {"p2v7.toml", "P2V-7"}, f.design, &f.check);
  EXPECT_NE(out.str().find("  rudder          28.65 deg     no position limit given: not checked\n"), std::string::npos)
      << out.str();
  EXPECT_TRUE(SaturationWarnings(f.design, f.check).empty());
  const nlohmann::json in = nlohmann::json::parse(AugmentJson({"p2v7.toml", "P2V-7"}, f.design, &f.check))["saturation"]["inputs"][0];
  EXPECT_TRUE(in["limit"].is_null());
  EXPECT_TRUE(in["ratio"].is_null());
  EXPECT_TRUE(in["saturates"].is_null());
}

TEST(AugmentReport, SaturationJsonIsSiAndOnlyWhenGiven) {
  const Fixture f = Make();
  const nlohmann::json plain = nlohmann::json::parse(AugmentJson({"p2v7.toml", "P2V-7"}, f.design));
  EXPECT_FALSE(plain.contains("saturation"));
  nlohmann::json doc = nlohmann::json::parse(AugmentJson({"p2v7.toml", "P2V-7"}, f.design, &f.check));
  EXPECT_EQ(doc["saturation"],
            nlohmann::json::parse(R"({"disturbance": {"beta": 0.1, "r": 0.02},
              "inputs": [{"input": "rudder", "unit": "rad", "command": 0.5, "limit": 0.4, "ratio": 1.25,
                          "saturates": true}]})"));
  doc.erase("saturation");
  EXPECT_EQ(doc, plain);
}

TEST(AugmentReport, SaturationWarningNamesTheInputTheCommandAndTheStop) {
  const Fixture f = Make();
  EXPECT_EQ(SaturationWarnings(f.design, f.check),
            std::vector<std::string>{"rudder would saturate: commanded 28.65 deg at the disturbance beta 5.73 deg, "
                                     "r 1.146 deg/s (worst signs), beyond its position stop 22.92 deg (ratio 1.250)"});
}

}  // namespace
}  // namespace aerolin::exporting
