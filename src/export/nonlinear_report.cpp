#include "aerolin/export/nonlinear_report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/export/flight_csv.hpp"
#include "aerolin/model/airplane_class.hpp"
#include "aerolin/model/conventions.hpp"
#include "json_numbers.hpp"
#include "toml_float.hpp"

namespace aerolin::exporting {
namespace {

using core::kRadToDeg;

// One derivative: its key, value and SI unit.
struct Entry {
  const char* key;
  double value;
  const char* unit;
};

std::vector<Entry> LongitudinalEntries(const model::LongitudinalDerivatives& d) {
  return {{"Xu", d.Xu, "1/s"},       {"Zu", d.Zu, "1/s"},     {"Mu", d.Mu, "1/(m s)"},
          {"Xa", d.Xa, "m/s^2"},     {"Za", d.Za, "m/s^2"},   {"Ma", d.Ma, "1/s^2"},
          {"Zadot", d.Zadot, "m/s"}, {"Madot", d.Madot, "1/s"}, {"Xq", d.Xq, "m/s"},
          {"Zq", d.Zq, "m/s"},       {"Mq", d.Mq, "1/s"}};
}

std::vector<Entry> LateralEntries(const model::LateralDerivatives& d) {
  return {{"Yb", d.Yb, "m/s^2"}, {"Yp", d.Yp, "m/s"}, {"Yr", d.Yr, "m/s"},
          {"Lb", d.Lb, "1/s^2"}, {"Lp", d.Lp, "1/s"}, {"Lr", d.Lr, "1/s"},
          {"Nb", d.Nb, "1/s^2"}, {"Np", d.Np, "1/s"}, {"Nr", d.Nr, "1/s"}};
}

std::vector<Entry> ControlEntries(const model::Control& c) {
  std::vector<Entry> e;
  if (c.longitudinal) {
    e.push_back({"X", c.X, "m/s^2 per unit"});
    e.push_back({"Z", c.Z, "m/s^2 per unit"});
    e.push_back({"M", c.M, "1/s^2 per unit"});
  }
  if (c.lateral) {
    e.push_back({"Y", c.Y, "m/s^2 per unit"});
    e.push_back({"L", c.L, "1/s^2 per unit"});
    e.push_back({"N", c.N, "1/s^2 per unit"});
  }
  return e;
}

// A TOML basic string: quotes and backslashes escaped, control characters
// as \u escapes.
std::string TomlString(std::string_view text) {
  std::string s = "\"";
  for (const char ch : text) {
    if (ch == '"' || ch == '\\')
      s += std::string("\\") + ch;
    else if (static_cast<unsigned char>(ch) < 0x20)
      s += fmt::format("\\u{:04x}", static_cast<int>(ch));
    else
      s += ch;
  }
  return s + "\"";
}

std::string RequestText(const study::TrimRequest& r) {
  std::string s = fmt::format("V = {:.6g} m/s, h = {:.6g} m, gamma = {:.4g} deg", r.speed, r.altitude,
                              r.gamma * kRadToDeg);
  if (r.turn_rate) s += fmt::format(", turn rate {:.4g} deg/s", *r.turn_rate * kRadToDeg);
  if (r.bank) s += fmt::format(", bank {:.4g} deg", *r.bank * kRadToDeg);
  if (r.sideslip != 0.0) s += fmt::format(", sideslip {:.4g} deg", r.sideslip * kRadToDeg);
  return s;
}

const char* ResidualUnit(std::size_t i) { return i < 3 ? "m/s^2" : "rad/s^2"; }

nlohmann::json RequestJson(const study::TrimRequest& r) {
  nlohmann::json j;
  j["speed"] = r.speed;
  j["altitude"] = r.altitude;
  j["gamma"] = r.gamma;
  j["turn_rate"] = r.turn_rate ? nlohmann::json(*r.turn_rate) : nlohmann::json(nullptr);
  j["bank"] = r.bank ? nlohmann::json(*r.bank) : nlohmann::json(nullptr);
  j["sideslip"] = r.sideslip;
  return j;
}

void AddTrim(nlohmann::json& doc, const study::TrimResult& t) {
  nlohmann::json vars = nlohmann::json::array();
  for (const study::TrimVariable& v : t.variables)
    vars.push_back({{"name", v.name}, {"value", v.value}, {"unit", v.unit}});
  doc["variables"] = vars;
  nlohmann::json res = nlohmann::json::array();
  for (std::size_t i = 0; i < 6; ++i)
    res.push_back({{"equation", study::TrimEquationNames()[i]},
                   {"value", t.residuals(static_cast<Eigen::Index>(i))},
                   {"unit", ResidualUnit(i)}});
  doc["residuals"] = res;
  doc["iterations"] = t.iterations;
  doc["notes"] = t.notes;
}

nlohmann::json Entries(const std::vector<Entry>& entries) {
  nlohmann::json j = nlohmann::json::object();
  for (const Entry& e : entries) j[e.key] = e.value;
  return j;
}

}  // namespace

void WriteTrimText(std::ostream& out, const NonlinearReportHeader& header,
                   const study::TrimResult& t) {
  out << header.aircraft << " (" << header.file << ")\n";
  out << "Trim at " << RequestText(header.request) << " (" << t.iterations
      << " Newton iterations)\n";
  for (const study::TrimVariable& v : t.variables) {
    out << fmt::format("  {:<12} {:>13.6g} {}", v.name, v.value, v.unit);
    if (v.unit == "rad") out << fmt::format("  ({:.4g} deg)", v.value * kRadToDeg);
    if (v.unit == "rad/s") out << fmt::format("  ({:.4g} deg/s)", v.value * kRadToDeg);
    out << '\n';
  }
  Eigen::Index i = 0;
  const double worst = t.residuals.cwiseAbs().maxCoeff(&i);
  out << fmt::format("Largest residual: {} = {:.3g} {}\n", study::TrimEquationNames()[static_cast<std::size_t>(i)],
                     worst, ResidualUnit(static_cast<std::size_t>(i)));
  for (const std::string& note : t.notes) out << "Note: " << note << '\n';
}

std::string TrimJson(const NonlinearReportHeader& header, const study::TrimResult& t) {
  nlohmann::json doc;
  doc["schema"] = "aerolin.trim/1";
  doc["file"] = header.file;
  doc["aircraft"] = {{"name", header.aircraft}};
  doc["request"] = RequestJson(header.request);
  AddTrim(doc, t);
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

void WriteLinearizeText(std::ostream& out, const NonlinearReportHeader& header,
                        const study::LinearizeResult& r) {
  WriteTrimText(out, header, r.trim);
  const model::AircraftData& a = r.aircraft;
  out << fmt::format(
      "\nDerivatives at the trim (SI, normalized, primed; axes of the file, U0 = {:.6g} m/s, "
      "W0 = {:.6g} m/s, theta0 = {:.4g} deg):\n",
      a.condition.U0, a.condition.W0, a.condition.theta0 * kRadToDeg);
  const auto line = [&](const Entry& e) {
    out << fmt::format("  {:<6} = {:>13.6g}  {}\n", e.key, e.value, e.unit);
  };
  for (const Entry& e : LongitudinalEntries(a.longitudinal)) line(e);
  for (const Entry& e : LateralEntries(a.lateral)) line(e);
  for (const model::Control& c : a.controls) {
    out << "  " << c.name << ":\n";
    for (const Entry& e : ControlEntries(c)) {
      out << "  ";
      line(e);
    }
  }
  out << fmt::format(
      "Accuracy: derivatives {:.1e} (Richardson estimate, relative); the builders' A from them "
      "vs the whole model's Jacobian {:.1e}; longitudinal-lateral coupling left out {:.1e}\n",
      r.derivative_error, r.model_mismatch, r.cross_coupling);
}

std::string LinearizeJson(const NonlinearReportHeader& header, const study::LinearizeResult& r) {
  nlohmann::json doc;
  doc["schema"] = "aerolin.linearize/1";
  doc["file"] = header.file;
  doc["aircraft"] = {{"name", header.aircraft}};
  doc["request"] = RequestJson(header.request);
  nlohmann::json trim;
  AddTrim(trim, r.trim);
  doc["trim"] = trim;
  const model::AircraftData& a = r.aircraft;
  doc["condition"] = {{"U0", a.condition.U0},
                      {"W0", a.condition.W0},
                      {"theta0", a.condition.theta0},
                      {"g", a.condition.g},
                      {"altitude", a.condition.altitude ? nlohmann::json(*a.condition.altitude)
                                                        : nlohmann::json(nullptr)}};
  nlohmann::json controls = nlohmann::json::array();
  for (const model::Control& c : a.controls) {
    nlohmann::json j = Entries(ControlEntries(c));
    j["name"] = c.name;
    j["unit"] = std::string(core::ToString(c.unit));
    controls.push_back(j);
  }
  doc["derivatives"] = {{"longitudinal", Entries(LongitudinalEntries(a.longitudinal))},
                        {"lateral", Entries(LateralEntries(a.lateral))},
                        {"controls", controls}};
  std::vector<std::string> states;
  for (const core::Signal& s : model::LongitudinalStateSignals()) states.push_back(s.name);
  for (const core::Signal& s : model::LateralStateSignals()) states.push_back(s.name);
  std::vector<std::string> inputs;
  for (const model::Control& c : a.controls) inputs.push_back(c.name);
  doc["states"] = states;
  doc["inputs"] = inputs;
  doc["A"] = MatrixRows(r.A);
  doc["B"] = MatrixRows(r.B);
  doc["accuracy"] = {{"derivative_error", r.derivative_error},
                     {"model_mismatch", r.model_mismatch},
                     {"cross_coupling", r.cross_coupling}};
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

std::string LinearizedToml(const NonlinearReportHeader& header, const study::LinearizeResult& r,
                           std::string_view command) {
  const model::AircraftData& a = r.aircraft;
  std::string out = fmt::format(
      "# Written by `{}`:\n"
      "# the nonlinear model of {} (docs/nonlinear.md) linearized at\n"
      "# {}.\n"
      "# Axes: that file's body axes (W0 is the trim's w); controls are deviations from the\n"
      "# trim's settings:",
      command, header.file, RequestText(header.request));
  for (const study::TrimVariable& v : r.trim.variables) {
    if (v.name == "alpha" || v.name == "theta" || v.name == "beta" || v.name == "phi" ||
        v.name == "turn_rate" || v.name == "load_factor" || v.name == "gamma")
      continue;
    out += fmt::format(" {} = {:.6g} {};", v.name, v.value, v.unit);
  }
  out += fmt::format(
      "\n# Accuracy (Richardson estimate, relative): {:.1e}.\n\n"
      "[aircraft]\nname = {}\nsource = {}\n",
      r.derivative_error, TomlString(a.name),
      TomlString(a.source + "; linearized by aerolin at " + RequestText(header.request)));
  if (a.aircraft_class) out += fmt::format("class = \"{}\"\n", model::ToString(*a.aircraft_class));
  out += fmt::format("\n[condition]\nunits = \"SI\"\nU0 = {}\nW0 = {}\ntheta0 = {}\ng = {}\n",
                     TomlFloat(a.condition.U0), TomlFloat(a.condition.W0),
                     TomlFloat(a.condition.theta0), TomlFloat(a.condition.g));
  if (a.condition.altitude) out += "altitude = " + TomlFloat(*a.condition.altitude) + "\n";
  if (a.condition.category)
    out += fmt::format("category = \"{}\"\n", model::ToString(*a.condition.category));
  const model::MassProperties& m = a.mass;
  if (m.m && m.Ix && m.Iy && m.Iz) {
    out += "\n[mass]\nm = " + TomlFloat(*m.m) + "\nIx = " + TomlFloat(*m.Ix) +
           "\nIy = " + TomlFloat(*m.Iy) + "\nIz = " + TomlFloat(*m.Iz) + "\n";
    if (m.Ixz) out += "Ixz = " + TomlFloat(*m.Ixz) + "\n";
  }
  if (a.geometry.b) out += "\n[geometry]\nb = " + TomlFloat(*a.geometry.b) + "\n";
  out += "\n[longitudinal]\nform = \"normalized\"\n";
  for (const Entry& e : LongitudinalEntries(a.longitudinal))
    out += fmt::format("{} = {}  # {}\n", e.key, TomlFloat(e.value), e.unit);
  out += "\n[lateral]\nform = \"normalized\"\nprimed = true\n";
  for (const Entry& e : LateralEntries(a.lateral))
    out += fmt::format("{} = {}  # {}\n", e.key, TomlFloat(e.value), e.unit);
  for (const model::Control& c : a.controls) {
    out += fmt::format("\n[controls.{}]\nunit = \"{}\"\n", c.name, core::ToString(c.unit));
    for (const Entry& e : ControlEntries(c))
      out += fmt::format("{} = {}  # {}\n", e.key, TomlFloat(e.value), e.unit);
    if (c.min) out += "min = " + TomlFloat(*c.min) + "\n";
    if (c.max) out += "max = " + TomlFloat(*c.max) + "\n";
  }
  return out;
}

ComparisonCsvRecorder::ComparisonCsvRecorder(std::ostream& out, double dt) : out_(out), dt_(dt) {
  linear_.owner = this;
  nonlinear_.owner = this;
}

void ComparisonCsvRecorder::Linear::Begin(const std::vector<std::string>& control_names) {
  std::string header = FlightCsvHeader(control_names);
  for (const char* prefix : {",nl_", ",d_"})
    for (const core::Signal& s : sim::FlightStateSignals()) header += prefix + s.name;
  owner->out_ << header << '\n';
}

void ComparisonCsvRecorder::Linear::Record(double t, const sim::FlightState& x,
                                           const Eigen::VectorXd& controls) {
  owner->Finish();  // the previous row, if the nonlinear flight had departed
  owner->t_ = t;
  owner->x_ = x;
  owner->controls_ = controls;
  owner->pending_ = true;
}

void ComparisonCsvRecorder::Nonlinear::Record(double, const sim::FlightState& y,
                                              const Eigen::VectorXd&) {
  owner->WriteRow(&y);
}

void ComparisonCsvRecorder::Finish() {
  if (pending_) WriteRow(nullptr);
}

void ComparisonCsvRecorder::WriteRow(const sim::FlightState* y) {
  std::ostringstream row;
  WriteFlightCsvRow(row, SliceGridTime(t_, dt_), x_, controls_);
  std::string text = row.str();
  text.pop_back();  // the newline
  if (y == nullptr) {
    text.append(2 * static_cast<std::size_t>(x_.size()), ',');  // departed: empty nl_, d_
  } else {
    const auto number = [](double v) { return fmt::format(",{}", v == 0.0 ? 0.0 : v); };
    for (Eigen::Index i = 0; i < y->size(); ++i) text += number((*y)(i));
    for (Eigen::Index i = 0; i < y->size(); ++i) text += number((*y)(i) - x_(i));
  }
  out_ << text << '\n';
  pending_ = false;
}

void WritePartings(std::ostream& out, const std::vector<sim::Parting>& partings) {
  out << fmt::format("Nonlinear beside linear (a state parts when they differ by more than {:g} % of "
                     "its linear peak): ",
                     100 * sim::NonlinearShadow::kPartingFraction);
  if (partings.empty()) {
    out << "no state parted\n";
    return;
  }
  for (std::size_t i = 0; i < partings.size(); ++i)
    out << fmt::format("{}{} after {:g} s", i ? ", " : "", partings[i].state, partings[i].time);
  out << '\n';
}

}  // namespace aerolin::exporting
