#include "aerolin/export/augment_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "damping_text.hpp"
#include "display_units.hpp"
#include "json_numbers.hpp"
#include "mode_list_json.hpp"
#include "text_cells.hpp"
#include "toml_float.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Mode;
using cd = std::complex<double>;


std::string UnitText(core::Unit unit) { return std::string(core::ToString(unit)); }

// "rad/(rad/s)": the unit of a gain from `state` to `input`.
std::string GainUnit(const core::Signal& input, const core::Signal& state) {
  const std::string in = UnitText(input.unit), st = UnitText(state.unit);
  if (in == st) return "1";
  return in + "/" + (st.find('/') != std::string::npos ? "(" + st + ")" : st);
}

// A value as typed back (a Bryson maximum, a disturbance, a deflection):
// 2 deg, 5 deg/s, 5 m/s, 0.1.
std::string ValueText(double si, core::Unit unit) {
  const DisplayUnit d = DisplayUnitOf(unit, core::UnitSystem::kSI, true);
  return Sig(si * d.per_si) + (d.name == "1" ? "" : " " + d.name);
}

std::string Joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::vector<std::string> DesignNames(const study::AugmentResult& r) {
  std::vector<std::string> names;
  for (int j : r.design_states) names.push_back(r.states[j].name);
  return names;
}

std::vector<std::string> InputNames(const study::AugmentResult& r) {
  std::vector<std::string> names;
  for (const core::Signal& s : r.inputs) names.push_back(s.name);
  return names;
}

// The levels of `kind` over the graded categories, "1/2/1"; "-" where a
// category grades no requirement of the mode.
std::string LevelsOf(const study::AugmentResult& r, analysis::ModeKind kind, bool closed) {
  std::string s;
  for (const study::AugmentGrade& g : r.grades) {
    const analysis::QualitiesGrade* q = closed ? (g.closed_loop ? &*g.closed_loop : nullptr) : &g.open_loop;
    std::string cell = "-";
    if (q)
      if (const auto level = q->LevelOf(kind)) cell = fmt::format("{}", analysis::ToInt(*level));
    s += (s.empty() ? "" : "/") + cell;
  }
  return s.empty() ? "-" : s;
}

std::string ModeCells(const Mode* m, const study::AugmentResult& r, bool closed) {
  if (!m) return Pad("", 22) + Pad("", 9) + Pad("", 7) + Pad("", 7);
  return Pad(Eigenvalue(m->lambda), 22) + Pad(Sig(m->natural_frequency), 9) +
         Pad(HasDampingRatio(m->kind) ? Fixed(m->damping_ratio, 3) : kNoDampingRatio, 7) +
         Pad(LevelsOf(r, m->kind, closed), 7);
}

void WriteGain(std::ostream& out, const study::AugmentResult& r) {
  out << "Gain K, u = -K x (SI: input unit per state unit; each entry's unit below):\n";
  out << "  " << Pad("", 16);
  for (const core::Signal& s : r.states) out << Pad(s.symbol + " [" + UnitText(s.unit) + "]", 14);
  out << '\n';
  for (Eigen::Index i = 0; i < r.gain.rows(); ++i) {
    const core::Signal& in = r.inputs[i];
    out << "  " << Pad(in.name + " [" + UnitText(in.unit) + "]", 16);
    for (Eigen::Index j = 0; j < r.gain.cols(); ++j) out << Pad(Sig(r.gain(i, j)), 14);
    out << '\n';
  }
  // One row of units per input unit (throttle's differ from the surfaces').
  std::vector<core::Unit> shown;
  for (const core::Signal& in : r.inputs) {
    if (std::find(shown.begin(), shown.end(), in.unit) != shown.end()) continue;
    shown.push_back(in.unit);
    out << "  " << Pad("unit (" + UnitText(in.unit) + ")", 16);
    for (const core::Signal& s : r.states) out << Pad(GainUnit(in, s), 14);
    out << '\n';
  }
  out << "  ‖K‖₂ = " << Sig(r.gain_norm) << '\n';
}

// "rudder:r  K = 1.5 rad/(rad/s)  through s/(s + 1/τ), τ = 1.5 s" per loop.
void WriteLoops(std::ostream& out, const study::AugmentResult& r) {
  out << "Loops, delta_INPUT = K * y_OUTPUT (K's sign as given; the gain below is their u = -K x):\n";
  for (std::size_t k = 0; k < r.loops.size(); ++k) {
    const study::OutputLoop& l = r.loops[k];
    const std::string gain = "K = " + Sig(*l.gain) + " " + r.loop_gain_units[k];
    out << "  " << Pad(study::LoopName(l), 16);
    if (l.washout_tau)
      out << Pad(gain, 28) << "through s/(s + 1/τ), τ = " << Sig(*l.washout_tau) << " s (state " << l.output
          << "_washout)";
    else
      out << gain;
    out << '\n';
  }
  if (r.command.size() != 0) {
    // An acceleration depends on the deflection itself: the loops scale the
    // pilot's command too (model::SolveOutputFeedback).
    out << "Through the outputs' feedthrough D, delta = M delta_pilot - K x, M = (I - K_loops D)^-1:\n";
    const std::vector<core::Signal>& all = r.open_loop.inputs();
    for (Eigen::Index i = 0; i < r.command.rows(); ++i) {
      std::string terms;
      for (Eigen::Index j = 0; j < r.command.cols(); ++j)
        if (r.command(i, j) != 0.0)
          terms += (terms.empty() ? "" : " + ") + Sig(r.command(i, j)) + " " + all[static_cast<std::size_t>(j)].name;
      out << "  " << Pad(r.inputs[static_cast<std::size_t>(i)].name, 16) << "= " << terms << " (pilot)\n";
    }
  }
  out << '\n';
}

void WriteDesign(std::ostream& out, const study::AugmentResult& r) {
  const std::vector<std::string> design = DesignNames(r);
  if (r.method == study::DesignMethod::kLoops) return;
  if (r.method == study::DesignMethod::kLqr) {
    if (r.bryson) {
      out << "\nWeights: Bryson's rule, Q = diag(1/x_max²), R = diag(1/u_max²), with maxima\n  ";
      std::vector<std::string> cells;
      for (std::size_t k = 0; k < r.design_states.size(); ++k) {
        const core::Signal& s = r.states[r.design_states[k]];
        cells.push_back(s.name + " " + ValueText(r.maxima[k], s.unit));
      }
      for (std::size_t k = 0; k < r.inputs.size(); ++k)
        cells.push_back(r.inputs[k].name + " " +
                        ValueText(r.maxima[r.design_states.size() + k], r.inputs[k].unit));
      out << Joined(cells) << '\n';
    } else {
      out << "\nWeights: explicit, Q = diag(";
      for (Eigen::Index i = 0; i < r.Q.rows(); ++i) out << (i ? ", " : "") << Sig(r.Q(i, i));
      out << "), R = diag(";
      for (Eigen::Index i = 0; i < r.R.rows(); ++i) out << (i ? ", " : "") << Sig(r.R(i, i));
      out << ") (SI)\n";
    }
    out << "Riccati equation: X is " << r.riccati->rows() << "×" << r.riccati->cols()
        << " (JSON: riccati), relative residual " << fmt::format("{:.1e}", *r.residual) << '\n';
    return;
  }
  out << "\nPoles: requested → achieved [1/s]\n";
  for (std::size_t k = 0; k < r.requested.size(); ++k) {
    auto text = [](cd l) {
      return WithoutNegativeZero(fmt::format("{:.6g}", l.real())) +
             (l.imag() == 0.0 ? std::string()
                              : (l.imag() < 0 ? " - " : " + ") + fmt::format("{:.6g}", std::abs(l.imag())) + "i");
    };
    out << "  " << Pad(text(r.requested[k]), 28) << text(r.achieved[k]) << '\n';
  }
  out << "largest error " << fmt::format("{:.1e}", *r.max_pole_error)
      << " /s; eigenvector condition κ(X) = " << Sig(*r.eigenvector_condition) << '\n';
}

void WriteModes(std::ostream& out, const study::AugmentResult& r) {
  std::string categories;
  for (const study::AugmentGrade& g : r.grades) {
    if (!categories.empty()) categories += '/';
    categories += analysis::ToString(g.open_loop.category);
  }
  out << "\nModes";
  if (r.aircraft_class)
    out << " (levels: MIL-F-8785C Class " << analysis::ToString(*r.aircraft_class) << ", Category "
        << categories << ")";
  out << ":\n";
  out << "  " << Pad("", 42) << Pad("open loop", 45) << "closed loop\n";
  out << "  " << Pad("mode", 42);
  for (int k = 0; k < 2; ++k)
    out << Pad("eigenvalue λ [1/s]", 22) << Pad("ωn", 9) << Pad("ζ", 7) << Pad("level", 7);
  out << '\n';
  std::vector<bool> used(r.closed_modes ? r.closed_modes->size() : 0, false);
  for (const Mode& open : r.open_modes) {
    const Mode* closed = nullptr;
    for (std::size_t k = 0; k < used.size() && !closed; ++k)
      if (!used[k] && (*r.closed_modes)[k].kind == open.kind) {
        used[k] = true;
        closed = &(*r.closed_modes)[k];
      }
    std::string name = open.full_name();
    if (closed && closed->full_name() != name) name += " → " + closed->qualifier();
    out << "  " << Pad(name, 42) << ModeCells(&open, r, false) << ModeCells(closed, r, true) << '\n';
  }
  for (std::size_t k = 0; k < used.size(); ++k)
    if (!used[k]) {
      const Mode& closed = (*r.closed_modes)[k];
      out << "  " << Pad(closed.full_name(), 42) << ModeCells(nullptr, r, false)
          << ModeCells(&closed, r, true) << '\n';
    }
  if (r.closed_modes && r.filter_states > 0) {
    // The roots no mode claims: the filters' (study::Augment took them out).
    std::string filters;
    for (const cd& l : r.closed_eigenvalues) {
      bool named = false;
      for (const Mode& m : *r.closed_modes)
        named = named || std::abs(m.lambda - l) <= 1e-9 * std::max(1.0, std::abs(l)) ||
                std::abs(std::conj(m.lambda) - l) <= 1e-9 * std::max(1.0, std::abs(l));
      if (!named && l.imag() >= 0) filters += (filters.empty() ? "" : ", ") + Eigenvalue(l);
    }
    out << "  " << Pad("washout filter", 42) << Pad("", 45) << filters << '\n';
  }
  if (!r.closed_modes) {
    out << "Closed-loop eigenvalues [1/s]:";
    for (const cd& l : r.closed_eigenvalues)
      if (l.imag() >= 0) out << "  " << Eigenvalue(l);
    out << '\n';
  }
  for (const study::AugmentGrade& g : r.grades) {
    out << "Category " << analysis::ToString(g.open_loop.category) << ": level "
        << analysis::ToInt(g.open_loop.level) << " open loop";
    if (g.closed_loop) out << ", " << analysis::ToInt(g.closed_loop->level) << " closed loop";
    out << " (worst over every graded requirement of both axes; `aerolin qualities` lists them)\n";
  }
  if (!r.not_graded.empty()) out << "Not graded: " << r.not_graded << '\n';
}

// "beta 5 deg, r 2 deg/s": the components on the design's axis.
std::string DisturbanceText(const study::AugmentResult& r, const study::SaturationCheck& check) {
  std::vector<std::string> cells;
  for (const study::DisturbanceComponent& c : check.disturbance)
    for (const core::Signal& s : r.states)
      if (s.name == c.name) cells.push_back(c.name + " " + ValueText(c.value, s.unit));
  return Joined(cells);
}

void WriteSaturation(std::ostream& out, const study::AugmentResult& r, const study::SaturationCheck& check) {
  out << "\nAt the stated disturbance "
      << (check.disturbance.empty() ? "(no component on the " + std::string(model::AxisName(r.axis)) + " axis)"
                                    : DisturbanceText(r, check))
      << ", the worst signs (|delta_i| = sum_j |K_ij| |x_j|";
  if (r.filter_states > 0) out << "; washout filters 0 at the onset: the loop commands K y";
  out << "):\n";
  out << "  " << Pad("input", 16) << Pad("command", 14) << Pad("position stop", 16) << "ratio\n";
  for (const study::InputCommand& in : check.inputs) {
    out << "  " << Pad(in.input.name, 16) << Pad(ValueText(in.command, in.input.unit), 14);
    if (in.limit)
      out << Pad(ValueText(*in.limit, in.input.unit), 16) << Pad(fmt::format("{:.3f}", *in.ratio), 8)
          << (in.saturates ? "saturates" : "within the stop");
    else
      out << "no position limit given: not checked";
    out << '\n';
  }
}

nlohmann::json SaturationJson(const study::SaturationCheck& check) {
  using nlohmann::json;
  json disturbance = json::object(), inputs = json::array();
  for (const study::DisturbanceComponent& c : check.disturbance) disturbance[c.name] = c.value;
  for (const study::InputCommand& in : check.inputs)
    inputs.push_back({{"input", in.input.name},
                      {"unit", UnitText(in.input.unit)},
                      {"command", in.command},
                      {"limit", in.limit ? json(*in.limit) : json(nullptr)},
                      {"ratio", in.ratio ? json(*in.ratio) : json(nullptr)},
                      {"saturates", in.limit ? json(in.saturates) : json(nullptr)}});
  return {{"disturbance", disturbance}, {"inputs", inputs}};
}

nlohmann::json Complexes(const std::vector<cd>& values) {
  nlohmann::json list = nlohmann::json::array();
  for (const cd& l : values) list.push_back({{"re", l.real()}, {"im", l.imag()}});
  return list;
}

nlohmann::json Names(const std::vector<std::string>& names) {
  nlohmann::json list = nlohmann::json::array();
  for (const std::string& n : names) list.push_back(n);
  return list;
}

nlohmann::json GradeJson(const analysis::QualitiesGrade& g) {
  nlohmann::json levels = nlohmann::json::object();
  for (const analysis::RequirementResult& req : g.requirements)
    levels[analysis::ToString(req.mode)] = analysis::ToInt(*g.LevelOf(req.mode));
  return {{"level", analysis::ToInt(g.level)}, {"mode_levels", levels}};
}

}  // namespace

void WriteAugmentText(std::ostream& out, const AugmentReportHeader& header,
                      const study::AugmentResult& r, const study::SaturationCheck* saturation) {
  const std::vector<std::string> design = DesignNames(r);
  out << "Augmentation of " << header.aircraft << " (" << header.file << "), " << model::AxisName(r.axis)
      << " axis\n";
  if (r.method == study::DesignMethod::kLoops) {
    out << "Output feedback on " << Joined(design) << " with " << Joined(InputNames(r)) << "\n\n";
    WriteLoops(out, r);
    WriteGain(out, r);
    if (saturation) WriteSaturation(out, r, *saturation);
    WriteModes(out, r);
    return;
  }
  out << (r.method == study::DesignMethod::kLqr ? "LQR" : "Pole placement") << " on "
      << Joined(design) << " with " << Joined(InputNames(r));
  std::vector<std::string> left_out;
  for (std::size_t j = 0; j < r.states.size(); ++j)
    if (std::find(r.design_states.begin(), r.design_states.end(), static_cast<int>(j)) ==
        r.design_states.end())
      left_out.push_back(r.states[j].name);
  if (!left_out.empty()) out << " (" << Joined(left_out) << ": zero gain, a free integrator)";
  out << "\n\n";
  WriteGain(out, r);
  if (saturation) WriteSaturation(out, r, *saturation);
  WriteDesign(out, r);
  WriteModes(out, r);
}

std::string AugmentJson(const AugmentReportHeader& header, const study::AugmentResult& r,
                        const study::SaturationCheck* saturation) {
  using nlohmann::json;
  const core::UnitSystem si = core::UnitSystem::kSI;
  std::vector<std::string> states;
  for (const core::Signal& s : r.states) states.push_back(s.name);
  const std::vector<std::string> design = DesignNames(r), inputs = InputNames(r);
  json doc;
  doc["schema"] = "aerolin.augment/1";
  doc["file"] = std::string(header.file);
  doc["aircraft"] = {{"name", std::string(header.aircraft)}};
  doc["axis"] = model::AxisName(r.axis);
  doc["method"] = std::string(study::ToString(r.method));
  doc["design"] = {{"states", Names(design)}, {"inputs", Names(inputs)}};
  doc["gain"] = {{"rows", Names(inputs)}, {"columns", Names(states)}, {"values", MatrixRows(r.gain)},
                 {"norm", r.gain_norm}};
  doc["residual"] = r.residual ? json(*r.residual) : json(nullptr);
  doc["riccati"] = r.riccati ? json{{"states", Names(design)}, {"X", MatrixRows(*r.riccati)}} : json(nullptr);
  if (r.method == study::DesignMethod::kLqr) {
    json maxima = nullptr;
    if (r.bryson) {
      maxima = json::object();
      for (std::size_t k = 0; k < design.size(); ++k) maxima[design[k]] = r.maxima[k];
      for (std::size_t k = 0; k < inputs.size(); ++k) maxima[inputs[k]] = r.maxima[design.size() + k];
    }
    doc["weights"] = {{"rule", r.bryson ? "bryson" : "explicit"}, {"states", Names(design)},
                      {"inputs", Names(inputs)}, {"Q", MatrixRows(r.Q)}, {"R", MatrixRows(r.R)},
                      {"maxima", maxima}};
    doc["poles"] = nullptr;
  } else if (r.method == study::DesignMethod::kLoops) {
    doc["weights"] = nullptr;
    doc["poles"] = nullptr;
  } else {
    doc["weights"] = nullptr;
    doc["poles"] = {{"requested", Complexes(r.requested)}, {"achieved", Complexes(r.achieved)},
                    {"max_error_per_s", *r.max_pole_error},
                    {"eigenvector_condition", *r.eigenvector_condition}};
  }
  doc["open_loop"] = {{"states", StateNames(r.open_loop.states())},
                      {"modes", ModeListJson(r.open_modes, r.open_loop, si)}};
  doc["closed_loop"] = {
      {"states", StateNames(r.closed_loop.states())},
      {"modes", r.closed_modes ? ModeListJson(*r.closed_modes, r.closed_loop, si) : json(nullptr)},
      {"eigenvalues_per_s", Complexes(r.closed_eigenvalues)}};
  if (r.aircraft_class) {
    json categories = json::array();
    for (const study::AugmentGrade& g : r.grades)
      categories.push_back({{"category", std::string(analysis::ToString(g.open_loop.category))},
                            {"open_loop", GradeJson(g.open_loop)},
                            {"closed_loop", g.closed_loop ? GradeJson(*g.closed_loop) : json(nullptr)}});
    doc["qualities"] = {{"class", std::string(analysis::ToString(*r.aircraft_class))},
                        {"categories", categories}};
  } else {
    doc["qualities"] = nullptr;
  }
  if (r.method == study::DesignMethod::kLoops) {
    json loops = json::array();
    for (std::size_t k = 0; k < r.loops.size(); ++k) {
      const study::OutputLoop& l = r.loops[k];
      loops.push_back({{"input", l.input}, {"output", l.output}, {"gain", *l.gain},
                       {"gain_unit", r.loop_gain_units[k]},
                       {"washout_s", l.washout_tau ? json(*l.washout_tau) : json(nullptr)},
                       {"filter_state", l.washout_tau ? json(l.output + "_washout") : json(nullptr)}});
    }
    doc["loops"] = loops;
    if (r.command.size() != 0) {
      json rows = json::array(), values = json::array();
      for (const core::Signal& in : r.inputs) rows.push_back(in.name);
      for (Eigen::Index i = 0; i < r.command.rows(); ++i) {
        json row = json::array();
        for (Eigen::Index j = 0; j < r.command.cols(); ++j) row.push_back(r.command(i, j));
        values.push_back(row);
      }
      doc["command"] = {{"rows", rows}, {"columns", StateNames(r.open_loop.inputs())}, {"values", values}};
    }
  }
  doc["not_graded"] = r.not_graded.empty() ? json(nullptr) : json(r.not_graded);
  if (saturation) doc["saturation"] = SaturationJson(*saturation);
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

std::string AugmentAxesJson(const AugmentReportHeader& header, const std::vector<study::AugmentResult>& results,
                            const std::vector<study::SaturationCheck>* saturation) {
  using nlohmann::json;
  json doc;
  doc["schema"] = "aerolin.augment/2";
  doc["file"] = std::string(header.file);
  doc["aircraft"] = {{"name", std::string(header.aircraft)}};
  doc["axes"] = json::array();
  // Each design's /1 document as AugmentJson writes it (shortest round-trip
  // numbers: parsed back, they are the same doubles).
  for (std::size_t k = 0; k < results.size(); ++k)
    doc["axes"].push_back(json::parse(AugmentJson(header, results[k], saturation ? &saturation->at(k) : nullptr)));
  return doc.dump(2);
}

std::vector<std::string> SaturationWarnings(const study::AugmentResult& r, const study::SaturationCheck& check) {
  std::vector<std::string> lines;
  for (const study::InputCommand& in : check.inputs)
    if (in.saturates)
      lines.push_back(in.input.name + " would saturate: commanded " + ValueText(in.command, in.input.unit) +
                      " at the disturbance " + DisturbanceText(r, check) + " (worst signs), beyond its position stop " +
                      ValueText(*in.limit, in.input.unit) + " (ratio " + fmt::format("{:.3f}", *in.ratio) + ")");
  return lines;
}

std::string AugmentationToml(const study::AugmentResult& r, std::string_view command) {
  if (r.axis == model::Axis::kLateral && !r.gain.col(model::lat::kPsi).isZero(0.0))
    throw std::invalid_argument(
        "heading hold (a gain on psi) cannot be written to a file yet: aerolin's lateral modes "
        "need psi a free integrator");
  auto quoted = [](const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "\"" : ", \"") + n + "\"";
    return "[" + s + "]";
  };
  if (r.method == study::DesignMethod::kLoops) {
    std::string out = fmt::format(
        "\n# Written by `{}`: output feedback delta_INPUT = K * y_OUTPUT on the {} axis\n"
        "# (docs/augmentation.md). Every command reads the closed loop.\n"
        "[augmentation.{}]\n"
        "units = \"SI\"   # each K in input unit per output unit\n"
        "loops = [\n",
        command, model::AxisName(r.axis), model::AxisName(r.axis));
    if (r.filter_states > 0 && !r.closed_modes)
      throw std::invalid_argument("the loops with a washout cannot be written: " + r.not_graded +
                                  "; the commands that read the file name the closed loop's modes "
                                  "(change the gain or the washout's time constant)");
    for (const study::OutputLoop& l : r.loops) {
      out += fmt::format("  {{ input = \"{}\", output = \"{}\", gain = {}", l.input, l.output,
                         TomlFloat(*l.gain));
      if (l.washout_tau) out += ", washout_s = " + TomlFloat(*l.washout_tau);
      out += " },\n";
    }
    return out + "]\n";
  }
  std::vector<std::string> states;
  for (const core::Signal& x : r.states) states.push_back(x.name);
  std::string out = fmt::format(
      "\n# Written by `{}`: the full-state feedback u = -K x on the {} axis\n"
      "# (docs/augmentation.md). Every command reads the closed loop.\n"
      "[augmentation.{}]\n"
      "units = \"SI\"   # each gain in input unit per state unit\n"
      "inputs = {}\nstates = {}\ngain = [\n",
      command, model::AxisName(r.axis), model::AxisName(r.axis), quoted(InputNames(r)), quoted(states));
  for (Eigen::Index i = 0; i < r.gain.rows(); ++i) {
    out += "  [";
    for (Eigen::Index j = 0; j < r.gain.cols(); ++j)
      out += (j ? ", " : "") + TomlFloat(r.gain(i, j));
    out += "],\n";
  }
  return out + "]\n";
}

}  // namespace aerolin::exporting
