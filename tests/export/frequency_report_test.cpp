#include "aerolin/export/frequency_report.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/conventions.hpp"
#include "export/report_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::Contains;
using testing::Lines;

// Round-off of the writers' polynomial expansion and of one complex solve,
// far below the 4 significant digits the text shows.
constexpr double kTight = 1e-12;
// Relative agreement of two ways of evaluating G(jω) on the P2V-7: a
// factored form against a solve of (jωI − A) x = B, each good to ~1e-13.
constexpr double kResponse = 1e-9;

const core::Signal kElevator{"elevator", core::Unit::kRadian, "δe"};
const core::Signal kThrottle{"throttle", core::Unit::kOne, "δt"};
const core::Signal kU{"u", core::Unit::kMetrePerSecond, "u"};
const core::Signal kQ{"q", core::Unit::kRadianPerSecond, "q"};
const core::Signal kNz{"nz", core::Unit::kGravity, "n_z"};

// G(s) = 2 (s + 1) / (s² + 2 s + 4), u [m/s] per elevator [rad]: a zero at
// −1, the pair −1 ± i√3 (ωn = 2, ζ = 0.5) named as a short period, G(0) = 0.5.
analysis::TransferFunction HandMade() {
  analysis::TransferFunction tf;
  tf.input = kElevator;
  tf.output = kU;
  tf.gain = 2.0;
  tf.relative_degree = 1;
  analysis::Factor zero;
  zero.root = -1.0;
  zero.natural_frequency = 1.0;
  zero.inverse_time_constant = 1.0;
  tf.zeros = {zero};
  analysis::Factor pair;
  pair.root = {-1.0, std::sqrt(3.0)};
  pair.second_order = true;
  pair.natural_frequency = 2.0;
  pair.damping_ratio = 0.5;
  pair.mode = analysis::ModeKind::kShortPeriod;
  pair.mode_name = "short period";
  tf.poles = {pair};
  tf.dc_gain = 0.5;
  return tf;
}

// Evaluates a polynomial given highest power first at `s`.
std::complex<double> Polynomial(const nlohmann::json& coefficients, std::complex<double> s) {
  std::complex<double> value = 0.0;
  for (const nlohmann::json& c : coefficients) value = value * s + c.get<double>();
  return value;
}

TEST(GainUnit, IsOutputPerInputWithSpeedsInTheAskedSystem) {
  const core::UnitSystem si = core::UnitSystem::kSI, imperial = core::UnitSystem::kImperial;
  EXPECT_EQ(GainUnit(kQ, kElevator, si), "(rad/s)/rad");
  EXPECT_EQ(GainUnit(kNz, kElevator, si), "g/rad");
  EXPECT_EQ(GainUnit(kU, kElevator, si), "(m/s)/rad");
  EXPECT_EQ(GainUnit(kU, kElevator, imperial), "(ft/s)/rad");
  // A dimensionless control adds no "per"; only speeds change unit system.
  EXPECT_EQ(GainUnit(kU, kThrottle, si), "m/s");
  EXPECT_EQ(GainUnit(kQ, kElevator, imperial), "(rad/s)/rad");
}

TEST(FactoredForm, WritesGainZerosAndPoleFactorsAndScalesSpeedOutputs) {
  const analysis::TransferFunction tf = HandMade();
  EXPECT_EQ(FactoredForm(tf, core::UnitSystem::kSI), "2 (s + 1) / [(s² + 2(0.5)(2)s + 2²)]");
  // 2 (m/s)/rad = 2/0.3048 = 6.5617 (ft/s)/rad, shown to 4 digits.
  EXPECT_EQ(FactoredForm(tf, core::UnitSystem::kImperial), "6.562 (s + 1) / [(s² + 2(0.5)(2)s + 2²)]");
  analysis::TransferFunction zero;
  zero.identically_zero = true;
  EXPECT_EQ(FactoredForm(zero, core::UnitSystem::kSI), "0");
}

TEST(TransferFunctionJson, HoldsTheExpandedPolynomialsAndTheFactors) {
  model::AircraftData aircraft;
  aircraft.name = "hand-made";
  const nlohmann::json doc = nlohmann::json::parse(
      TransferFunctionJson(aircraft, "x.toml", {HandMade()}, false, core::UnitSystem::kSI));
  EXPECT_EQ(doc["schema"], "aerolin.tf/1");
  EXPECT_EQ(doc["file"], "x.toml");
  EXPECT_EQ(doc["aircraft"]["name"], "hand-made");
  EXPECT_EQ(doc["speed_unit"], "m/s");
  EXPECT_EQ(doc["input"], "elevator");
  EXPECT_EQ(doc["output"], "u");
  EXPECT_EQ(doc["unit"], "(m/s)/rad");
  EXPECT_EQ(doc["gain_unit"], "(m/s)/rad s^-1");
  EXPECT_EQ(doc["relative_degree"], 1);
  // 2 (s + 1) = 2 s + 2 and (s + 1 − i√3)(s + 1 + i√3) = s² + 2 s + 4.
  const std::vector<double> numerator = {2.0, 2.0}, denominator = {1.0, 2.0, 4.0};
  ASSERT_EQ(doc["numerator"].size(), numerator.size());
  ASSERT_EQ(doc["denominator"].size(), denominator.size());
  for (std::size_t i = 0; i < numerator.size(); ++i)
    EXPECT_NEAR(doc["numerator"][i].get<double>(), numerator[i], kTight);
  for (std::size_t i = 0; i < denominator.size(); ++i)
    EXPECT_NEAR(doc["denominator"][i].get<double>(), denominator[i], kTight);
  EXPECT_EQ(doc["dc_gain"].get<double>(), 0.5);
  EXPECT_EQ(doc["integrators"], 0);
  EXPECT_FALSE(doc["non_minimum_phase"].get<bool>());
  ASSERT_EQ(doc["zeros"].size(), 1u);
  EXPECT_EQ(doc["zeros"][0]["re"].get<double>(), -1.0);
  // Both members of the pair, each with the mode's name.
  ASSERT_EQ(doc["poles"].size(), 2u);
  EXPECT_EQ(doc["poles"][0]["im"].get<double>(), std::sqrt(3.0));
  EXPECT_EQ(doc["poles"][1]["im"].get<double>(), -std::sqrt(3.0));
  EXPECT_EQ(doc["poles"][1]["mode"], "short period");
  ASSERT_EQ(doc["pole_factors"].size(), 1u);
  EXPECT_EQ(doc["pole_factors"][0]["order"], 2);
  EXPECT_EQ(doc["pole_factors"][0]["damping_ratio"].get<double>(), 0.5);
  EXPECT_EQ(doc["zero_factors"][0]["order"], 1);
  EXPECT_EQ(doc["zero_factors"][0]["inverse_time_constant"].get<double>(), 1.0);
  EXPECT_TRUE(doc["zero_factors"][0]["mode"].is_null());
  EXPECT_TRUE(doc["cancelled"].empty());
}

TEST(TransferFunctionJson, ImperialScalesTheGainsOfSpeedOutputsOnly) {
  model::AircraftData aircraft;
  analysis::TransferFunction q = HandMade();
  q.output = kQ;
  const nlohmann::json doc = nlohmann::json::parse(TransferFunctionJson(
      aircraft, "x.toml", {HandMade(), q}, true, core::UnitSystem::kImperial));
  EXPECT_EQ(doc["speed_unit"], "ft/s");
  EXPECT_EQ(doc["input"], "elevator");
  ASSERT_EQ(doc["transfer_functions"].size(), 2u);
  const nlohmann::json& u = doc["transfer_functions"][0];
  EXPECT_EQ(u["unit"], "(ft/s)/rad");
  EXPECT_DOUBLE_EQ(u["gain"].get<double>(), 2.0 / core::kMetresPerFoot);
  EXPECT_DOUBLE_EQ(u["dc_gain"].get<double>(), 0.5 / core::kMetresPerFoot);
  EXPECT_DOUBLE_EQ(u["numerator"][1].get<double>(), 2.0 / core::kMetresPerFoot);
  EXPECT_NEAR(u["denominator"][2].get<double>(), 4.0, kTight);  // poles do not change
  const nlohmann::json& rate = doc["transfer_functions"][1];
  EXPECT_EQ(rate["unit"], "(rad/s)/rad");
  EXPECT_EQ(rate["gain"].get<double>(), 2.0);
}

TEST(WriteTransferFunctionText, ListsEachFactorTheDcGainAndThePhase) {
  std::ostringstream out;
  WriteTransferFunctionText(out, HandMade(), core::UnitSystem::kSI);
  const std::vector<std::string> lines = Lines(out.str());
  ASSERT_GE(lines.size(), 9u);
  EXPECT_EQ(lines[0], "u/elevator  [(m/s)/rad]");
  EXPECT_EQ(lines[1], "  G(s) = " + FactoredForm(HandMade(), core::UnitSystem::kSI));
  EXPECT_TRUE(Contains(lines[2], "K = 2 (m/s)/rad·s^-1 (relative degree 1)")) << lines[2];
  EXPECT_EQ(lines[3], "  zeros:");
  EXPECT_TRUE(Contains(lines[4], "(s + 1)")) << lines[4];
  EXPECT_TRUE(Contains(lines[4], "1/T = 1 1/s (T = 1 s)")) << lines[4];
  EXPECT_EQ(lines[5], "  poles:");
  EXPECT_EQ(lines[6].rfind("    short period", 0), 0u) << lines[6];
  EXPECT_TRUE(Contains(lines[6], "ωn = 2 rad/s, ζ = 0.5")) << lines[6];
  EXPECT_EQ(lines[7], "  DC gain G(0) = 0.5 (m/s)/rad");
  EXPECT_EQ(lines[8], "  minimum phase (no zero in the right half-plane)");
  EXPECT_EQ(lines.back(), "  cancelled pole-zero pairs: none");
}

TEST(WriteTransferFunctionText, AnIntegratorMakesTheDcGainInfinite) {
  analysis::TransferFunction tf = HandMade();
  tf.dc_gain.reset();
  tf.integrators = 1;
  std::ostringstream out;
  WriteTransferFunctionText(out, tf, core::UnitSystem::kSI);
  EXPECT_TRUE(Contains(out.str(), "  DC gain: infinite (1 pole at s = 0")) << out.str();
}

TEST(WriteTransferFunctionHeading, NamesTheAxisStatesFromTheConventionsAndTheUnits) {
  model::AircraftData aircraft;
  aircraft.name = "Navion";
  for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral})
    for (const core::UnitSystem units : {core::UnitSystem::kSI, core::UnitSystem::kImperial}) {
      std::ostringstream out;
      WriteTransferFunctionHeading(out, aircraft, "n.toml", axis, units);
      const std::string text = out.str();
      const std::vector<std::string> lines = Lines(text);
      ASSERT_EQ(lines.size(), 3u) << text;
      EXPECT_EQ(lines[0], "Navion  (n.toml)");
      EXPECT_EQ(lines[1].rfind(std::string(axis == model::Axis::kLongitudinal
                                               ? "longitudinal"
                                               : "lateral-directional") +
                                   ", x = (" + model::JoinSymbols(model::StateSignals(axis)) + ")",
                               0),
                0u)
          << lines[1];
      EXPECT_EQ(Contains(lines[1], "with speeds in ft/s"), units == core::UnitSystem::kImperial);
      EXPECT_TRUE(lines[2].empty());
    }
}

// The P2V-7's elevator to q and nz: the writers' numbers against G(jω) = C
// (jωI − A)⁻¹ B + D solved directly from the model.
class P2V7Elevator : public ::testing::Test {
 protected:
  P2V7Elevator()
      : aircraft_(testing::Bundled("p2v7.toml")),
        modes_(analysis::AnalyzeModes(aircraft_)),
        channel_(analysis::ResolveChannel(aircraft_, modes_, "elevator", {"q", "nz"})) {}

  std::complex<double> Response(std::size_t k, double omega) const {
    const model::StateSpace& sys = channel_.system;
    const Eigen::MatrixXcd jw_minus_a =
        std::complex<double>(0.0, omega) * Eigen::MatrixXcd::Identity(sys.num_states(), sys.num_states()) -
        sys.A().cast<std::complex<double>>();
    const Eigen::VectorXcd x =
        jw_minus_a.partialPivLu().solve(sys.B().col(channel_.input).cast<std::complex<double>>());
    const int row = channel_.outputs[k];
    return (sys.C().row(row).cast<std::complex<double>>() * x)(0) + sys.D()(row, channel_.input);
  }

  model::AircraftData aircraft_;
  analysis::ModalAnalysis modes_;
  analysis::Channel channel_;
};

TEST_F(P2V7Elevator, TransferFunctionJsonPolynomialsGiveTheModelsResponse) {
  std::vector<analysis::TransferFunction> tfs;
  for (std::size_t k = 0; k < channel_.outputs.size(); ++k)
    tfs.push_back(analysis::ChannelTransferFunction(channel_, modes_, k));
  const nlohmann::json doc = nlohmann::json::parse(
      TransferFunctionJson(aircraft_, "p2v7.toml", tfs, true, core::UnitSystem::kSI));
  ASSERT_EQ(doc["transfer_functions"].size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const nlohmann::json& tf = doc["transfer_functions"][k];
    EXPECT_EQ(tf["output"], k == 0 ? "q" : "nz");
    for (const double omega : {0.05, 0.3, 1.0, 2.5, 10.0}) {
      const std::complex<double> s(0.0, omega);
      const std::complex<double> g = Polynomial(tf["numerator"], s) / Polynomial(tf["denominator"], s);
      const std::complex<double> expected = Response(k, omega);
      EXPECT_LT(std::abs(g - expected), kResponse * std::abs(expected)) << tf["output"] << " at " << omega;
    }
  }
}

TEST_F(P2V7Elevator, BodeJsonCsvAndTextCarryTheSameResponse) {
  const std::vector<double> omega = {0.1, 1.0, 10.0};
  const analysis::BodeDiagram diagram = analysis::ComputeBodeDiagram(channel_, modes_, omega);
  const nlohmann::json doc = nlohmann::json::parse(BodeJson(aircraft_, "p2v7.toml", diagram));
  EXPECT_EQ(doc["schema"], "aerolin.bode/1");
  EXPECT_EQ(doc["input"], "elevator");
  ASSERT_EQ(doc["curves"].size(), 2u);
  EXPECT_EQ(doc["curves"][0]["unit"], "(rad/s)/rad");
  EXPECT_EQ(doc["curves"][1]["unit"], "g/rad");
  for (std::size_t k = 0; k < 2; ++k) {
    const nlohmann::json& points = doc["curves"][k]["points"];
    ASSERT_EQ(points.size(), omega.size());
    for (std::size_t i = 0; i < omega.size(); ++i) {
      const std::complex<double> expected = Response(k, omega[i]);
      EXPECT_EQ(points[i]["omega"].get<double>(), omega[i]);
      EXPECT_NEAR(points[i]["magnitude"].get<double>(), std::abs(expected), kResponse * std::abs(expected));
      EXPECT_NEAR(points[i]["magnitude_db"].get<double>(), 20.0 * std::log10(std::abs(expected)), 1e-7);
      EXPECT_NEAR(points[i]["phase_principal_deg"].get<double>(), std::arg(expected) * core::kRadToDeg,
                  1e-7);
    }
  }
  // The modes marked: the longitudinal modes with ωn > 0, ascending.
  ASSERT_EQ(doc["modes"].size(), 2u);
  EXPECT_LT(doc["modes"][0]["natural_frequency"].get<double>(),
            doc["modes"][1]["natural_frequency"].get<double>());

  // CSV: omega, then four columns per output, one row per frequency, with
  // the JSON's numbers bit for bit (shortest round trip).
  std::ostringstream csv;
  WriteBodeCsv(csv, diagram);
  const std::vector<std::string> rows = Lines(csv.str());
  ASSERT_EQ(rows.size(), 1 + omega.size());
  EXPECT_EQ(rows[0],
            "omega,q_magnitude,q_magnitude_db,q_phase_deg,q_phase_principal_deg,"
            "nz_magnitude,nz_magnitude_db,nz_phase_deg,nz_phase_principal_deg");
  for (std::size_t i = 0; i < omega.size(); ++i) {
    std::vector<double> cells;
    std::istringstream row(rows[1 + i]);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(std::stod(cell));
    ASSERT_EQ(cells.size(), 9u);
    EXPECT_EQ(cells[0], omega[i]);
    for (std::size_t k = 0; k < 2; ++k) {
      const nlohmann::json& p = doc["curves"][k]["points"][i];
      EXPECT_EQ(cells[1 + 4 * k], p["magnitude"].get<double>());
      EXPECT_EQ(cells[2 + 4 * k], p["magnitude_db"].get<double>());
      EXPECT_EQ(cells[3 + 4 * k], p["phase_deg"].get<double>());
      EXPECT_EQ(cells[4 + 4 * k], p["phase_principal_deg"].get<double>());
    }
  }

  // Text: per output a heading, the factored form, the DC gain, then the
  // table's heading and one row per frequency.
  std::ostringstream text;
  WriteBodeText(text, diagram);
  const std::vector<std::string> lines = Lines(text.str());
  EXPECT_EQ(lines[0], "q/elevator  [(rad/s)/rad]");
  std::size_t headings = 0;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (Contains(lines[i], "ω [rad/s]") && Contains(lines[i], "|G| [dB]")) {
      ++headings;
      ASSERT_LE(i + omega.size(), lines.size() - 1);
      // The rows after it: ω as printed, to 5 digits.
      for (std::size_t r = 0; r < omega.size(); ++r)
        EXPECT_NEAR(std::stod(lines[i + 1 + r]), omega[r], 1e-4 * omega[r]) << lines[i + 1 + r];
    }
  EXPECT_EQ(headings, 2u);
}

// The streaming BodeJson against the DOM it replaced: the old BodeJson built
// this nlohmann document and dumped it; the streamed text is that dump byte
// for byte, −inf dB as null, −0 as 0.0, a missing DC gain or bandwidth null.
std::string DomBodeJson(const model::AircraftData& aircraft, std::string_view file,
                        const analysis::BodeDiagram& diagram) {
  auto db = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json doc = {{"schema", "aerolin.bode/1"},
                        {"file", std::string(file)},
                        {"aircraft", {{"name", aircraft.name}, {"source", aircraft.source}}}};
  doc["input"] = diagram.input.name;
  nlohmann::json modes = nlohmann::json::array();
  for (const analysis::ModeMark& m : diagram.modes)
    modes.push_back({{"name", m.name}, {"natural_frequency", m.natural_frequency}});
  doc["modes"] = modes;
  nlohmann::json curves = nlohmann::json::array();
  for (const analysis::BodeCurve& c : diagram.curves) {
    nlohmann::json points = nlohmann::json::array();
    for (const analysis::BodePoint& p : c.points)
      points.push_back({{"omega", p.omega},
                        {"magnitude", p.magnitude},
                        {"magnitude_db", db(p.magnitude_db)},
                        {"phase_deg", p.phase_deg},
                        {"phase_principal_deg", p.phase_principal_deg}});
    nlohmann::json resonances = nlohmann::json::array();
    for (const analysis::NamedResonance& r : c.resonances)
      resonances.push_back({{"mode", r.name},
                            {"omega", r.resonance.omega},
                            {"magnitude_db", r.resonance.magnitude_db},
                            {"prominence_db", r.resonance.prominence_db}});
    curves.push_back({{"output", c.tf.output.name},
                      {"unit", GainUnit(c.tf.output, c.tf.input, core::UnitSystem::kSI)},
                      {"dc_gain", c.tf.dc_gain ? nlohmann::json(*c.tf.dc_gain) : nlohmann::json(nullptr)},
                      {"bandwidth", c.bandwidth ? nlohmann::json(*c.bandwidth) : nlohmann::json(nullptr)},
                      {"resonances", resonances},
                      {"points", points}});
  }
  doc["curves"] = curves;
  std::function<void(nlohmann::json&)> no_negative_zero = [&](nlohmann::json& j) {
    if (j.is_number_float()) {
      if (j.get<double>() == 0.0) j = 0.0;
    } else if (j.is_structured()) {
      for (nlohmann::json& v : j) no_negative_zero(v);
    }
  };
  no_negative_zero(doc);
  return doc.dump(2);
}

TEST_F(P2V7Elevator, BodeJsonStreamsExactlyTheDomDumpItReplaced) {
  analysis::BodeDiagram diagram = analysis::ComputeBodeDiagram(channel_, modes_, {}, 400);
  EXPECT_EQ(BodeJson(aircraft_, "p2v7.toml", diagram), DomBodeJson(aircraft_, "p2v7.toml", diagram));
  // The awkward values: −inf dB (G = 0), −0, integers, no DC gain or bandwidth.
  diagram.curves[0].points[0].magnitude_db = -std::numeric_limits<double>::infinity();
  diagram.curves[0].points[0].magnitude = 0.0;
  diagram.curves[0].points[1].phase_deg = -0.0;
  diagram.curves[0].points[2].omega = 1e15;
  diagram.curves[0].points[3].omega = 1e-7;
  diagram.curves[1].tf.dc_gain.reset();
  diagram.curves[1].bandwidth.reset();
  std::ostringstream streamed;
  WriteBodeJson(streamed, aircraft_, "dir/p2v7 \"copy\".toml", diagram);
  EXPECT_EQ(streamed.str(), DomBodeJson(aircraft_, "dir/p2v7 \"copy\".toml", diagram));
}

// A BodeSweep's writers (the points computed again, a chunk of
// analysis::kBodeChunk frequencies at a time, for each writer) write what the
// whole diagram's writers write: over several chunks, and with every curve's
// rows of one chunk side by side in the CSV.
TEST_F(P2V7Elevator, BodeSweepWritesWhatTheWholeDiagramWrites) {
  const int points = 2 * static_cast<int>(analysis::kBodeChunk) + 17;
  const analysis::BodeSweep sweep(channel_, modes_, analysis::FrequencyGrid::LogSpaced(0.01, 100.0, points));
  const analysis::BodeDiagram diagram =
      analysis::ComputeBodeDiagram(channel_, modes_, analysis::LogSpace(0.01, 100.0, points));
  ASSERT_EQ(diagram.curves.front().points.size(), static_cast<std::size_t>(points));
  ASSERT_EQ(sweep.summary().curves.size(), 2u);
  EXPECT_TRUE(sweep.summary().curves[0].points.empty());  // the summary holds no point
  ASSERT_FALSE(diagram.curves[0].resonances.empty());
  std::ostringstream json, whole_json, csv, whole_csv, text, whole_text;
  WriteBodeJson(json, aircraft_, "p2v7.toml", sweep);
  WriteBodeJson(whole_json, aircraft_, "p2v7.toml", diagram);
  EXPECT_EQ(json.str(), whole_json.str());
  EXPECT_EQ(json.str(), DomBodeJson(aircraft_, "p2v7.toml", diagram));
  WriteBodeCsv(csv, sweep);
  WriteBodeCsv(whole_csv, diagram);
  EXPECT_EQ(csv.str(), whole_csv.str());
  WriteBodeText(text, sweep);
  WriteBodeText(whole_text, diagram);
  EXPECT_EQ(text.str(), whole_text.str());
  const std::string rows = csv.str();
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), points + 1);
}

}  // namespace
}  // namespace aerolin::exporting
