#include "aerolin/export/nonlinear_report.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::exporting {
namespace {

model::AircraftData Load(const std::string& path) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/" + path).aircraft;
}

// The written file reads back to the same numbers: every derivative is
// written in shortest round-trip form, in SI, so the loader's matrices are
// bit for bit those of the linearization's aircraft.
TEST(LinearizedToml, ReadsBackToTheSameModel) {
  const model::AircraftData a = Load("derivatives/boeing747_cruise_40kft.toml");
  study::TrimRequest r = study::ReferenceRequest(a);
  r.speed *= 1.1;
  r.gamma = 0.03;
  const study::LinearizeResult l = study::Linearize(a, r);
  const NonlinearReportHeader header{"b747.toml", a.name, r};
  const std::string text = LinearizedToml(header, l, "aerolin linearize b747.toml --speed 259.49");
  const data::LoadResult back = data::LoadAircraftString(text, "written.toml");
  EXPECT_TRUE(back.warnings.empty()) << back.warnings.size() << " warnings, first: "
                                     << (back.warnings.empty() ? "" : back.warnings[0].message);
  EXPECT_EQ(model::BuildLongitudinal(back.aircraft).A(), model::BuildLongitudinal(l.aircraft).A());
  EXPECT_EQ(model::BuildLateral(back.aircraft).A(), model::BuildLateral(l.aircraft).A());
  EXPECT_EQ(model::BuildLongitudinal(back.aircraft).B(), model::BuildLongitudinal(l.aircraft).B());
  EXPECT_EQ(model::BuildLateral(back.aircraft).B(), model::BuildLateral(l.aircraft).B());
  EXPECT_EQ(back.aircraft.condition.theta0, l.trim.theta);
  EXPECT_EQ(*back.aircraft.mass.Ixz, *a.mass.Ixz);
  EXPECT_NE(text.find("# Written by `aerolin linearize b747.toml --speed 259.49`"), std::string::npos);
}

TEST(TrimJson, ListsEveryVariableWithItsUnit) {
  const model::AircraftData a = Load("derivatives/p2v7.toml");
  study::TrimRequest r = study::ReferenceRequest(a);
  r.turn_rate = 0.05;
  const study::TrimResult t = study::Trim(a, r);
  const nlohmann::json doc = nlohmann::json::parse(TrimJson({"p2v7.toml", a.name, r}, t));
  EXPECT_EQ(doc["schema"], "aerolin.trim/1");
  std::set<std::string> names;
  for (const nlohmann::json& v : doc["variables"]) {
    names.insert(v["name"].get<std::string>());
    EXPECT_TRUE(v["value"].is_number());
    EXPECT_FALSE(v["unit"].get<std::string>().empty());
  }
  const std::set<std::string> want = {"alpha", "beta",     "phi",       "theta",       "elevator",
                                      "aileron", "rudder", "throttle", "turn_rate", "load_factor",
                                      "gamma"};
  EXPECT_EQ(names, want);
  EXPECT_EQ(doc["residuals"].size(), 6u);
  EXPECT_EQ(doc["residuals"][4]["equation"], "q_dot");
  EXPECT_EQ(doc["request"]["turn_rate"], 0.05);
  for (const nlohmann::json& v : doc["variables"]) {
    if (v["name"] == "turn_rate") {
      EXPECT_EQ(v["value"], 0.05);
    }
  }
}

TEST(TrimText, PrintsDegreesBesideRadians) {
  const model::AircraftData a = Load("derivatives/navion_cruise_sl.toml");
  const study::TrimRequest r = study::ReferenceRequest(a);
  std::ostringstream out;
  WriteTrimText(out, {"navion.toml", a.name, r}, study::Trim(a, r));
  EXPECT_NE(out.str().find("thrust"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Note: the file has no throttle"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace aerolin::exporting
