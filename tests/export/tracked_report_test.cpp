#include "aerolin/export/tracked_report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/sensitivity.hpp"
#include "aerolin/export/modes_text.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/maximize_damping.hpp"
#include "aerolin/study/tracked.hpp"
#include "export/report_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::Contains;
using testing::Lines;

study::TrackedMode Tracked(std::string name, std::complex<double> lambda, model::Axis axis,
                           std::string pointwise = "") {
  study::TrackedMode m;
  m.name = name;
  m.origin = std::move(name);
  m.axis = axis;
  m.lambda = lambda;
  m.oscillatory = lambda.imag() != 0.0;
  m.wn = std::abs(lambda);
  m.zeta = -lambda.real() / m.wn;
  m.pointwise_name = std::move(pointwise);
  return m;
}

// Two points of two modes, a structure change between them and a note.
study::TrackedStudy HandMade() {
  study::TrackedStudy s;
  s.param = "longitudinal.Mq";
  const model::Axis lon = model::Axis::kLongitudinal;
  s.points = {{-1.0, {Tracked("short period", {-1.0, 2.0}, lon), Tracked("phugoid", {-0.01, 0.1}, lon)}},
              {0.0,
               {Tracked("short period", {-3.0, 0.0}, lon, "short period (overdamped)"),
                Tracked("phugoid", {-0.02, 0.1}, lon)}}};
  s.changes = {{0.5, lon, "short period", "short period (overdamped)"}};
  s.refinements = 1;
  s.notes = {"a note"};
  return s;
}

void ExpectModeJson(const nlohmann::json& j, const study::TrackedMode& m) {
  EXPECT_EQ(j["name"], m.name);
  EXPECT_EQ(j["origin"], m.origin);
  EXPECT_EQ(j["axis"], m.axis == model::Axis::kLongitudinal ? "longitudinal" : "lateral");
  EXPECT_EQ(j["eigenvalue_per_s"]["re"].get<double>(), m.lambda.real());
  EXPECT_EQ(j["eigenvalue_per_s"]["im"].get<double>(), m.lambda.imag());
  EXPECT_EQ(j["oscillatory"].get<bool>(), m.oscillatory);
  EXPECT_EQ(j["wn"].get<double>(), m.wn);
  EXPECT_EQ(j["zeta"].get<double>(), m.zeta);
  EXPECT_EQ(j.contains("pointwise_name"), !m.pointwise_name.empty());
}

TEST(TrackedJson, HoldsEveryPointModeChangeAndNote) {
  const study::TrackedStudy s = HandMade();
  const nlohmann::json doc = nlohmann::json::parse(TrackedJson(s, "value", "p.toml"));
  EXPECT_EQ(doc["file"], "p.toml");
  EXPECT_EQ(doc["param"], "longitudinal.Mq");
  ASSERT_EQ(doc["points"].size(), s.points.size());
  for (std::size_t p = 0; p < s.points.size(); ++p) {
    EXPECT_EQ(doc["points"][p]["value"].get<double>(), s.points[p].value);
    ASSERT_EQ(doc["points"][p]["modes"].size(), s.points[p].modes.size());
    for (std::size_t k = 0; k < s.points[p].modes.size(); ++k)
      ExpectModeJson(doc["points"][p]["modes"][k], s.points[p].modes[k]);
  }
  EXPECT_EQ(doc["points"][1]["modes"][0]["pointwise_name"], "short period (overdamped)");
  ASSERT_EQ(doc["structure_changes"].size(), 1u);
  EXPECT_EQ(doc["structure_changes"][0],
            (nlohmann::json{{"value", 0.5}, {"axis", "longitudinal"}, {"from", "short period"},
                            {"to", "short period (overdamped)"}}));
  EXPECT_EQ(doc["refinements"], 1);
  EXPECT_EQ(doc["notes"], (nlohmann::json{"a note"}));
}

TEST(WriteTrackedText, OneRowPerPointAndModeThenTheChangesAndNotes) {
  const study::TrackedStudy s = HandMade();
  std::ostringstream out;
  WriteTrackedText(out, s, "Mq");
  const std::vector<std::string> lines = Lines(out.str());
  ASSERT_GE(lines.size(), 5u);
  EXPECT_TRUE(Contains(lines[0], "Mq")) << lines[0];
  EXPECT_TRUE(Contains(lines[0], "aerolin modes says")) << lines[0];
  std::size_t row = 1;
  for (const study::TrackedPoint& p : s.points)
    for (const study::TrackedMode& m : p.modes) {
      const std::string& line = lines[row++];
      EXPECT_EQ(std::stod(line), p.value) << line;
      EXPECT_TRUE(Contains(line, m.name)) << line;
      // A pair as "re ± imi", a real root as its value (5 digits).
      std::ostringstream lambda;
      lambda << m.lambda.real();
      if (m.oscillatory) lambda << " ± " << m.lambda.imag() << "i";
      EXPECT_TRUE(Contains(line, lambda.str())) << lambda.str() << " in: " << line;
      if (!m.pointwise_name.empty()) {
        EXPECT_EQ(line.substr(line.size() - m.pointwise_name.size()), m.pointwise_name) << line;
      }
    }
  const std::string rest = out.str().substr(out.str().find("\nstructure changes:\n"));
  EXPECT_TRUE(Contains(rest, "  Mq = 0.5: short period -> short period (overdamped)\n")) << rest;
  EXPECT_EQ(lines.back(), "note: a note");
}

TEST(WriteTrackedCsv, RoundTripsEveryNumber) {
  const study::TrackedStudy s = HandMade();
  std::ostringstream out;
  WriteTrackedCsv(out, s, "value");
  const std::vector<std::string> lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 1 + 2 * 2u);
  EXPECT_EQ(lines[0], "value,axis,mode,origin,re_per_s,im_per_s,wn_rad_s,zeta,pointwise_name");
  std::size_t row = 1;
  for (const study::TrackedPoint& p : s.points)
    for (const study::TrackedMode& m : p.modes) {
      std::vector<std::string> cells;
      std::istringstream in(lines[row++]);
      for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
      ASSERT_EQ(cells.size(), 9u) << lines[row - 1];
      EXPECT_EQ(std::stod(cells[0]), p.value);
      EXPECT_EQ(cells[1], "longitudinal");
      EXPECT_EQ(cells[2], "\"" + m.name + "\"");
      EXPECT_EQ(std::stod(cells[4]), m.lambda.real());
      EXPECT_EQ(std::stod(cells[5]), m.lambda.imag());
      EXPECT_EQ(std::stod(cells[6]), m.wn);  // 17 digits: the same double
      EXPECT_EQ(std::stod(cells[7]), m.zeta);
      EXPECT_EQ(cells[8], "\"" + m.pointwise_name + "\"");
    }
}

study::DampingOptimum Refined() {
  study::DampingOptimum o;
  o.kind = study::DampingOptimumKind::kRefined;
  o.mode = "dutch roll";
  o.grid.found = true;
  o.grid.gain = 1.5;
  o.grid.mode = Tracked("dutch roll", {-0.5, 1.0}, model::Axis::kLateral);
  o.gain = 1.625;
  o.lambda = {-0.6, 0.9};
  o.wn = std::abs(o.lambda);
  o.zeta = 0.6 / o.wn;
  o.name = "dutch roll";
  o.bracket_low = 1.0;
  o.bracket_high = 2.0;
  o.evaluations = 17;
  o.relative_tolerance = 1e-6;
  o.other_local_maxima = {4.0};
  return o;
}

TEST(WriteDampingOptimum, GivesTheRefinedGainHowItWasFoundAndOtherMaxima) {
  const study::DampingOptimum o = Refined();
  std::ostringstream out;
  WriteDampingOptimum(out, o, "rad/(rad/s)");
  const std::vector<std::string> lines = Lines(out.str());
  ASSERT_EQ(lines.size(), 3u) << out.str();
  EXPECT_EQ(lines[0].rfind("most damping of dutch roll: K = 1.625 (zeta = ", 0), 0u) << lines[0];
  for (const char* part : {"K in rad/(rad/s)", "between the listed gains 1 and 2", "17 evaluations",
                           "best listed gain K = 1.5"})
    EXPECT_TRUE(Contains(lines[1], part)) << part << " in: " << lines[1];
  EXPECT_TRUE(Contains(lines[2], "local maxima among the listed gains at K = 4")) << lines[2];
}

TEST(LocusJson, AddsTheLoopPolesZerosAndTheMaximizedMode) {
  study::LocusResult locus;
  locus.study = HandMade();
  locus.study.param = "gain";
  locus.axis = model::Axis::kLateral;
  locus.open_loop_poles = {{-1.0, 2.0}, {-0.5, 0.0}};
  locus.zeros = {{-2.0, 0.0}};
  locus.gain_unit = "rad/(rad/s)";
  const study::DampingOptimum o = Refined();
  const nlohmann::json doc = nlohmann::json::parse(LocusJson(locus, "rudder:r", "p.toml", &o));
  EXPECT_EQ(doc["loop"], "rudder:r");
  EXPECT_EQ(doc["axis"], "lateral");
  EXPECT_EQ(doc["gain_unit"], "rad/(rad/s)");
  EXPECT_EQ(doc["points"][1]["gain"].get<double>(), 0.0);  // the value key is "gain"
  EXPECT_FALSE(doc["points"][1].contains("value"));
  EXPECT_EQ(doc["open_loop_poles"], (nlohmann::json{{{"re", -1.0}, {"im", 2.0}}, {{"re", -0.5}, {"im", 0.0}}}));
  EXPECT_EQ(doc["zeros"], (nlohmann::json{{{"re", -2.0}, {"im", 0.0}}}));
  const nlohmann::json& m = doc["maximize"];
  EXPECT_EQ(m["mode"], "dutch roll");
  EXPECT_EQ(m["gain"].get<double>(), 1.5);  // the best listed gain
  EXPECT_EQ(m["zeta"].get<double>(), o.grid.mode.zeta);
  EXPECT_EQ(m["other_local_maxima"], (nlohmann::json{4.0}));
  const nlohmann::json& r = m["refined"];
  EXPECT_EQ(r["status"], "refined");
  EXPECT_EQ(r["gain"].get<double>(), 1.625);
  EXPECT_EQ(r["zeta"].get<double>(), o.zeta);
  EXPECT_EQ(r["eigenvalue_per_s"]["im"].get<double>(), 0.9);
  EXPECT_EQ(r["bracket"], (nlohmann::json{1.0, 2.0}));
  EXPECT_EQ(r["evaluations"], 17);
  std::ostringstream text;
  WriteDampingOptimum(text, o, "rad/(rad/s)");
  EXPECT_EQ(r["message"].get<std::string>() + "\n", Lines(text.str())[0] + "\n");
  EXPECT_EQ(nlohmann::json::parse(DampingOptimumJson(o)), m);
  // Without an optimum there is no "maximize".
  EXPECT_FALSE(nlohmann::json::parse(LocusJson(locus, "rudder:r", "p.toml", nullptr)).contains("maximize"));
}

TEST(DampingOptimumJson, AnAbsentModeHasANullGainAndSaysSo) {
  study::DampingOptimum o;
  o.mode = "wobble";
  const nlohmann::json j = nlohmann::json::parse(DampingOptimumJson(o));
  EXPECT_TRUE(j["gain"].is_null());
  EXPECT_EQ(j["refined"]["status"], "absent");
  EXPECT_EQ(j["refined"]["message"], "no mode named 'wobble' in this locus");
  EXPECT_FALSE(j["refined"].contains("bracket"));
}

// A real sweep: the points are the values from..to and each mode's numbers
// are the study's.
TEST(TrackedJson, HoldsABundledSweepPointForPoint) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  study::SweepOptions options;
  options.param = "longitudinal.Mq";
  options.from = -2.0;
  options.to = -1.0;
  options.steps = 3;
  const study::TrackedStudy s = study::Sweep(load.file, options);
  const nlohmann::json doc = nlohmann::json::parse(TrackedJson(s, "value", "p2v7.toml"));
  ASSERT_EQ(doc["points"].size(), 3u);
  for (std::size_t p = 0; p < 3; ++p) {
    EXPECT_DOUBLE_EQ(doc["points"][p]["value"].get<double>(), -2.0 + 0.5 * static_cast<double>(p));
    ASSERT_EQ(doc["points"][p]["modes"].size(), s.points[p].modes.size());
    for (std::size_t k = 0; k < s.points[p].modes.size(); ++k)
      ExpectModeJson(doc["points"][p]["modes"][k], s.points[p].modes[k]);
  }
}

// Sensitivities: every mode and key of the analysis, its dλ/dp and dζ/dp.
TEST(SensitivityJson, HoldsEveryKeysDerivativeOfEveryMode) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::vector<analysis::ModeSensitivity> s = analysis::ModeSensitivities(load.file);
  const nlohmann::json doc = nlohmann::json::parse(SensitivityJson(s, "p2v7.toml"));
  EXPECT_EQ(doc["schema"], "aerolin.sensitivity/1");
  ASSERT_EQ(doc["modes"].size(), s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const nlohmann::json& m = doc["modes"][i];
    EXPECT_EQ(m["name"], s[i].mode.full_name());
    ASSERT_EQ(m["sensitivity"].size(), s[i].keys.size());
    for (const analysis::KeySensitivity& k : s[i].keys) {
      // (A −0 is written as 0, which compares equal.)
      EXPECT_EQ(m["sensitivity"][k.key]["re"].get<double>(), k.dlambda.real()) << k.key;
      EXPECT_EQ(m["sensitivity"][k.key]["im"].get<double>(), k.dlambda.imag()) << k.key;
      EXPECT_EQ(m["dzeta"][k.key].get<double>(), k.dzeta) << k.key;
    }
    ASSERT_EQ(m["top_damping"].size(), s[i].top.size());
    for (std::size_t t = 0; t < s[i].top.size(); ++t)
      EXPECT_EQ(m["top_damping"][t], s[i].keys[static_cast<std::size_t>(s[i].top[t])].key);
  }
  // The text names each mode and lists each key once per mode.
  std::ostringstream text;
  WriteSensitivityText(text, s, "p2v7.toml");
  for (const analysis::ModeSensitivity& m : s)
    EXPECT_TRUE(Contains(text.str(), "\n" + m.mode.full_name() + "  lambda = ")) << m.mode.full_name();
}

}  // namespace
}  // namespace aerolin::exporting

namespace aerolin::exporting {
namespace {

// One convention for the heading root λ = 0: every text table prints "-"
// for its ζ (as `modes` does), the JSON number is 0 (as `modes --json`).
TEST(WriteTrackedText, TheHeadingRootShowsNoDampingRatioAsTheModesTableDoes) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  study::SweepOptions options;
  options.param = "lateral.Nr";
  options.from = -0.3;
  options.to = -0.1;
  options.steps = 2;
  const study::TrackedStudy s = study::Sweep(load.file, options);
  std::ostringstream text;
  WriteTrackedText(text, s, s.param);
  int headings = 0;
  for (const std::string& line : testing::Lines(text.str())) {
    if (line.find("heading") == std::string::npos) continue;
    ++headings;
    // value, name, λ = 0, ωn = 0, then "-" where ζ goes.
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    ASSERT_EQ(w.size(), 5u) << line;
    EXPECT_EQ(w[4], "-") << line;
  }
  EXPECT_EQ(headings, 2);
  const nlohmann::json doc = nlohmann::json::parse(TrackedJson(s, "value", "p2v7.toml"));
  for (const nlohmann::json& m : doc["points"][0]["modes"])
    if (m["name"] == "heading") {
      EXPECT_EQ(m["zeta"].get<double>(), 0.0);
    }

  const model::AircraftData aircraft = testing::Bundled("p2v7.toml");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  std::ostringstream table;
  WriteModesText(table, aircraft, modes, analysis::ClassicalApproximations(aircraft), "p2v7.toml",
                 core::UnitSystem::kSI);
  bool found = false;
  for (const std::string& line : testing::Lines(table.str()))
    if (!found && line.rfind("  heading", 0) == 0) {  // the mode table's row (the shapes come later)
      found = true;
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string x; words >> x;) w.push_back(x);
      ASSERT_GE(w.size(), 4u) << line;
      EXPECT_EQ(w[3], "-") << line;  // heading, λ, ωn, ζ
    }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace aerolin::exporting
