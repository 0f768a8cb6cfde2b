#include "aerolin/export/tracked_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
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
// The bundled P2V-7's Mq swept from..to in `steps` values.
study::TrackedStudy P2V7MqSweep(double from, double to, int steps) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  study::SweepOptions options;
  options.param = "longitudinal.Mq";
  options.from = from;
  options.to = to;
  options.steps = steps;
  return study::Sweep(load.file, options);
}

TEST(TrackedJson, HoldsABundledSweepPointForPoint) {
  const study::TrackedStudy s = P2V7MqSweep(-2.0, -1.0, 3);
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

// The streaming JSON writer against the DOM it replaced: the old
// TrackedJson/LocusJson built this nlohmann document and dumped it, so the
// streamed text must be that dump byte for byte.
nlohmann::json DomComplex(std::complex<double> z) { return {{"re", z.real()}, {"im", z.imag()}}; }

void DomRemoveNegativeZeros(nlohmann::json& j) {
  if (j.is_number_float()) {
    if (j.get<double>() == 0.0) j = 0.0;
  } else if (j.is_structured()) {
    for (nlohmann::json& v : j) DomRemoveNegativeZeros(v);
  }
}

nlohmann::json DomStudy(const study::TrackedStudy& s, const std::string& value_key) {
  auto axis = [](model::Axis a) { return a == model::Axis::kLongitudinal ? "longitudinal" : "lateral"; };
  nlohmann::json j;
  j["param"] = s.param;
  nlohmann::json points = nlohmann::json::array();
  for (const study::TrackedPoint& p : s.points) {
    nlohmann::json modes = nlohmann::json::array();
    for (const study::TrackedMode& m : p.modes) {
      nlohmann::json mj = {{"name", m.name},           {"origin", m.origin},
                           {"axis", axis(m.axis)},     {"eigenvalue_per_s", DomComplex(m.lambda)},
                           {"oscillatory", m.oscillatory}, {"wn", m.wn},
                           {"zeta", m.zeta}};
      if (!m.pointwise_name.empty()) mj["pointwise_name"] = m.pointwise_name;
      modes.push_back(mj);
    }
    points.push_back({{value_key, p.value}, {"modes", modes}});
  }
  j["points"] = points;
  nlohmann::json changes = nlohmann::json::array();
  for (const study::StructureChange& c : s.changes)
    changes.push_back({{value_key, c.value}, {"axis", axis(c.axis)}, {"from", c.from}, {"to", c.to}});
  j["structure_changes"] = changes;
  j["refinements"] = s.refinements;
  j["notes"] = s.notes;
  return j;
}

std::string DomTrackedJson(const study::TrackedStudy& s, const std::string& value_key, const std::string& file) {
  nlohmann::json j = DomStudy(s, value_key);
  j["file"] = file;
  DomRemoveNegativeZeros(j);
  return j.dump(2);
}

std::string DomLocusJson(const study::LocusResult& locus, const std::string& loop, const std::string& file,
                         const study::DampingOptimum* optimum) {
  nlohmann::json j = DomStudy(locus.study, "gain");
  j["file"] = file;
  j["loop"] = loop;
  j["axis"] = locus.axis == model::Axis::kLongitudinal ? "longitudinal" : "lateral";
  j["gain_unit"] = locus.gain_unit;
  nlohmann::json poles = nlohmann::json::array(), zeros = nlohmann::json::array();
  for (auto z : locus.open_loop_poles) poles.push_back(DomComplex(z));
  for (auto z : locus.zeros) zeros.push_back(DomComplex(z));
  j["open_loop_poles"] = poles;
  j["zeros"] = zeros;
  if (optimum != nullptr) j["maximize"] = nlohmann::json::parse(DampingOptimumJson(*optimum));
  DomRemoveNegativeZeros(j);
  return j.dump(2);
}

// Doubles whose text differs between writers: integers (nlohmann "1.0",
// fmt "1"), 1e15 and up (nlohmann exponent form from 1e15, fmt from 1e16),
// small exponents ("1e-07"), −0, subnormals, the extremes, NaN and ±inf
// (null), then 20 000 doubles of random bits.
std::vector<double> AwkwardDoubles() {
  std::vector<double> v = {0.0,     -0.0,   1.0,     -1.0,    2.0,     100.0,   1e-7,   -1e-7,  1e-5,
                           1e-4,    1.5e-4, 0.001,   0.1,     0.3,     1.0 / 3, 2.0 / 3, 1e14,  1e15,
                           1.5e15,  1e16,   1e17,    1e21,    1e22,    -1e21,   123456789012345.0,
                           1234567890123456.0, 9007199254740993.0, 4.35,   0.1 + 0.2, 5e-324, -5e-324,
                           2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
                           std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  std::mt19937_64 bits(27);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t b = bits();
    double d;
    std::memcpy(&d, &b, sizeof d);
    v.push_back(d);
  }
  // And as many of the magnitudes a report holds: uniform in a few decades.
  std::uniform_real_distribution<double> decades(-6.0, 6.0);
  for (int i = 0; i < 20000; ++i) v.push_back((i % 2 ? -1.0 : 1.0) * std::pow(10.0, decades(bits)));
  return v;
}

study::TrackedStudy AwkwardStudy() {
  study::TrackedStudy s = HandMade();
  const std::vector<double> v = AwkwardDoubles();
  s.points.clear();
  for (std::size_t i = 0; i + 4 < v.size(); i += 5) {
    study::TrackedMode m = Tracked("dutch roll", {v[i + 1], v[i + 2]}, model::Axis::kLateral,
                                   i % 3 ? "" : "roll subsidence + spiral (coupled)");
    m.origin = "quote \" backslash \\ tab \t ζ";  // escaped by nlohmann
    m.wn = v[i + 3];
    m.zeta = v[i + 4];
    s.points.push_back({v[i], {m, Tracked("heading", {0.0, 0.0}, model::Axis::kLateral)}});
  }
  s.changes.push_back({-0.0, model::Axis::kLateral, "dutch roll", "roll subsidence"});
  s.notes.push_back("second note\nwith a newline");
  return s;
}

TEST(TrackedJson, StreamsExactlyTheDomDumpItReplaced) {
  for (const study::TrackedStudy& s : {HandMade(), AwkwardStudy()}) {
    EXPECT_EQ(TrackedJson(s, "value", "p.toml"), DomTrackedJson(s, "value", "p.toml"));
    std::ostringstream streamed;
    WriteTrackedJson(streamed, s, "value", "dir/p 2.toml");
    EXPECT_EQ(streamed.str(), DomTrackedJson(s, "value", "dir/p 2.toml"));
  }
  study::TrackedStudy empty;
  EXPECT_EQ(TrackedJson(empty, "value", ""), DomTrackedJson(empty, "value", ""));
  // A bundled sweep, with its structure change and notes.
  const study::TrackedStudy sweep = P2V7MqSweep(-0.992, -10.0, 40);
  ASSERT_FALSE(sweep.changes.empty());
  EXPECT_EQ(TrackedJson(sweep, "value", "p2v7.toml"), DomTrackedJson(sweep, "value", "p2v7.toml"));
}

TEST(LocusJson, StreamsExactlyTheDomDumpItReplaced) {
  study::LocusResult locus;
  locus.study = AwkwardStudy();
  locus.study.param = "gain";
  locus.axis = model::Axis::kLateral;
  locus.open_loop_poles = {{-1.0, 2.0}, {-0.0, 0.0}};
  locus.zeros = {};
  locus.gain_unit = "rad/(rad/s)";
  const study::DampingOptimum o = Refined();
  EXPECT_EQ(LocusJson(locus, "rudder:r", "p.toml", &o), DomLocusJson(locus, "rudder:r", "p.toml", &o));
  EXPECT_EQ(LocusJson(locus, "rudder:r", "p.toml", nullptr),
            DomLocusJson(locus, "rudder:r", "p.toml", nullptr));
  // A bundled locus with its optimum.
  const model::AircraftData aircraft =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
  study::LocusOptions options;
  options.input = "rudder";
  options.output = "r";
  options.washout_tau = 1.5;
  for (int k = 0; k <= 30; ++k) options.gains.push_back(0.1 * k);
  const study::LocusResult real = study::Locus(aircraft, options);
  const study::DampingOptimum best = study::MaximizeDamping(aircraft, options, real, "dutch roll");
  std::ostringstream streamed;
  WriteLocusJson(streamed, real, "rudder:r", "p2v7.toml", &best);
  EXPECT_EQ(streamed.str(), DomLocusJson(real, "rudder:r", "p2v7.toml", &best));
}

// TrackedReportStream fed in chunks (as study::Sweep hands them over) writes
// what the whole-study writers write: JSON (its points spliced back from the
// temporary file), text and CSV.
TEST(TrackedReportStream, ChunksWriteTheWholeStudysReports) {
  for (const study::TrackedStudy& s : {HandMade(), AwkwardStudy()}) {
    for (const auto format : {TrackedReportStream::Format::kJson, TrackedReportStream::Format::kText}) {
      std::ostringstream report, csv;
      TrackedReportStream stream(report, format, &csv, "Mq", "value", "p.toml");
      const std::span<const study::TrackedPoint> points(s.points);
      for (std::size_t at = 0; at < points.size(); at += 7)
        stream.Add(points.subspan(at, std::min<std::size_t>(7, points.size() - at)));
      stream.Finish(s);
      std::ostringstream text, whole_csv;
      WriteTrackedText(text, s, "Mq");
      WriteTrackedCsv(whole_csv, s, "Mq");
      EXPECT_EQ(report.str(), format == TrackedReportStream::Format::kJson ? DomTrackedJson(s, "value", "p.toml")
                                                                            : text.str());
      EXPECT_EQ(csv.str(), whole_csv.str());
    }
  }
  // No points: an empty array, as the DOM wrote it.
  study::TrackedStudy empty = HandMade();
  empty.points.clear();
  std::ostringstream report;
  TrackedReportStream stream(report, TrackedReportStream::Format::kJson, nullptr, "Mq", "value", "p.toml");
  stream.Finish(empty);
  EXPECT_EQ(report.str(), DomTrackedJson(empty, "value", "p.toml"));
}

// A locus's stream (as study::Locus hands its points over) writes what the
// whole-locus writers write: LocusJson with and without the optimum, and the
// text (held until Finish, as for --maximize, or not): the preamble, the
// table, the changes and notes, then the optimum.
TEST(TrackedReportStream, ALocusStreamWritesTheWholeLocusReports) {
  study::LocusResult locus;
  locus.study = AwkwardStudy();
  locus.study.param = "gain";
  locus.axis = model::Axis::kLateral;
  locus.open_loop_poles = {{-1.0, 2.0}, {-0.0, 0.0}};
  locus.zeros = {{-0.5, 0.0}};
  locus.gain_unit = "rad/(rad/s)";
  const study::DampingOptimum o = Refined();
  study::LocusResult head = locus;
  head.study.points.clear();
  const std::span<const study::TrackedPoint> points(locus.study.points);
  for (const study::DampingOptimum* optimum : {&o, static_cast<const study::DampingOptimum*>(nullptr)})
    for (const auto format : {TrackedReportStream::Format::kJson, TrackedReportStream::Format::kText})
      for (const bool hold : {true, false}) {
        std::ostringstream report;
        TrackedReportStream stream(report, format, nullptr, "K", "gain", "p.toml", "root locus of rudder:r\n", hold);
        for (std::size_t at = 0; at < points.size(); at += 5) {
          stream.Add(points.subspan(at, std::min<std::size_t>(5, points.size() - at)));
          // Held text reaches the report only at Finish.
          if (hold || format == TrackedReportStream::Format::kJson) {
            EXPECT_EQ(report.str(), "");
          }
        }
        stream.Finish(head, "rudder:r", optimum);
        std::ostringstream whole;
        if (format == TrackedReportStream::Format::kJson) {
          whole << LocusJson(locus, "rudder:r", "p.toml", optimum);
        } else {
          whole << "root locus of rudder:r\n";
          WriteTrackedText(whole, locus.study, "K");
          if (optimum != nullptr) {
            whole << '\n';
            WriteDampingOptimum(whole, *optimum, locus.gain_unit);
          }
        }
        EXPECT_EQ(report.str(), whole.str()) << (optimum ? "optimum " : "") << (hold ? "held" : "");
      }
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
