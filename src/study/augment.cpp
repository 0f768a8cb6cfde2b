#include "aerolin/study/augment.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "typed_number.hpp"
#include "aerolin/analysis/augmentation.hpp"
#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/messages.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/loops.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// A root of the open loop matches a mode when it is this close, relative to
// max(1, |λ|): both come from eigen-decompositions of the same matrix.
constexpr double kSameRootTolerance = 1e-6;

std::string Trim(std::string s) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  return s;
}

std::string Join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// A finite number filling `text`, else nullopt.
std::optional<double> Number(const std::string& text) { return detail::TypedNumber(text); }

// The units ParseSignalValue accepts for a signal of SI unit `unit`:
// core/units.hpp's one table; a dimensionless value is typed without a unit.
std::span<const core::UnitSpelling> Spellings(core::Unit unit) {
  if (unit == core::Unit::kOne || unit == core::Unit::kGravity) return {};
  return core::SpellingsOf(unit);
}

// "-2", "-2+3j", "-2-3.5j", "3j": a complex number, else nullopt.
std::optional<cd> ParseComplex(std::string text) {
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  const char last = text.back();
  if (last != 'j' && last != 'i') {
    if (const auto v = Number(text)) return cd(*v, 0.0);
    return std::nullopt;
  }
  text.pop_back();
  // The sign that starts the imaginary part: the last + or − not at the
  // start and not an exponent's.
  std::size_t split = std::string::npos;
  for (std::size_t k = text.size(); k-- > 1;)
    if ((text[k] == '+' || text[k] == '-') && text[k - 1] != 'e' && text[k - 1] != 'E') {
      split = k;
      break;
    }
  if (split == std::string::npos) {
    const auto im = Number(text.empty() || text == "+" || text == "-" ? text + "1" : text);
    if (im) return cd(0.0, *im);
    return std::nullopt;
  }
  const auto re = Number(Trim(text.substr(0, split)));
  std::string im_text = Trim(text.substr(split));
  if (im_text == "+" || im_text == "-") im_text += "1";
  const auto im = Number(im_text);
  if (!re || !im) return std::nullopt;
  return cd(*re, *im);
}

// The two roots of s² + 2ζωn s + ωn².
std::vector<cd> SecondOrder(double wn, double zeta) {
  if (zeta < 1.0) {
    const double wd = wn * std::sqrt(1.0 - zeta * zeta);
    return {cd(-zeta * wn, wd), cd(-zeta * wn, -wd)};
  }
  const double r = wn * std::sqrt(zeta * zeta - 1.0);
  return {cd(-zeta * wn + r, 0.0), cd(-zeta * wn - r, 0.0)};
}

Eigen::MatrixXd Select(const Eigen::MatrixXd& M, const std::vector<int>& rows,
                       const std::vector<int>& cols) {
  Eigen::MatrixXd out(rows.size(), cols.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < cols.size(); ++j) out(i, j) = M(rows[i], cols[j]);
  return out;
}

// The rows `rows` of M.
Eigen::MatrixXd Rows(const Eigen::MatrixXd& M, const std::vector<int>& rows) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), M.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = M.row(rows[i]);
  return out;
}

std::vector<cd> Sorted(std::vector<cd> v) {
  std::sort(v.begin(), v.end(), [](cd a, cd b) {
    return a.real() != b.real() ? a.real() < b.real() : a.imag() > b.imag();
  });
  return v;
}

// Each mode's roots (a pair: both members).
std::vector<cd> RootsOf(const analysis::Mode& m) {
  if (m.oscillatory) return {m.lambda, std::conj(m.lambda)};
  return {m.lambda};
}

std::vector<analysis::Mode> AnalyzeAxis(const model::StateSpace& sys, model::Axis axis, double U0) {
  return axis == model::Axis::kLongitudinal ? analysis::AnalyzeLongitudinal(sys, U0)
                                            : analysis::AnalyzeLateral(sys);
}

std::vector<std::string> Names(const std::vector<core::Signal>& signals) {
  std::vector<std::string> names;
  for (const core::Signal& s : signals) names.push_back(s.name);
  return names;
}


// The poles the requests ask for, over the design's open-loop modes, with
// the shapes (over the design states `rows`) analysis::Place keeps: a named
// mode's new roots take its open-loop shape, a kept mode its own; poles by
// value alone take none.
struct Poles {
  std::vector<cd> poles;
  std::vector<Eigen::VectorXcd> shapes;  // one per pole, or empty
};

Poles RequestedPoles(const std::vector<PoleRequest>& requests,
                     const std::vector<analysis::Mode>& design_modes, const std::vector<int>& rows,
                     std::size_t n) {
  auto shape_of = [&rows](const analysis::Mode& m) {
    Eigen::VectorXcd v(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) v(static_cast<Eigen::Index>(i)) = m.shape(rows[i]);
    return v;
  };
  Poles named, unnamed;
  std::vector<bool> replaced(design_modes.size(), false);
  for (const PoleRequest& r : requests) {
    if (!r.mode) {
      unnamed.poles.insert(unnamed.poles.end(), r.poles.begin(), r.poles.end());
      continue;
    }
    std::size_t roots = 0;
    std::vector<Eigen::VectorXcd> sources;  // a pair's complex shape, or each real root's
    bool pair = false;
    for (std::size_t k = 0; k < design_modes.size(); ++k)
      if (design_modes[k].kind == *r.mode) {
        if (replaced[k])
          throw std::invalid_argument("the " + analysis::ToString(*r.mode) + " is requested twice");
        replaced[k] = true;
        roots += RootsOf(design_modes[k]).size();
        pair = pair || design_modes[k].oscillatory;
        sources.push_back(shape_of(design_modes[k]));
      }
    if (sources.empty()) {
      std::vector<std::string> present;
      for (const analysis::Mode& m : design_modes)
        if (std::find(present.begin(), present.end(), std::string(analysis::CliName(m.kind))) ==
            present.end())
          present.emplace_back(analysis::CliName(m.kind));
      throw std::invalid_argument("no " + analysis::ToString(*r.mode) +
                                  " among the open-loop modes the design moves (" + Join(present) +
                                  ")");
    }
    if (roots != r.poles.size())
      throw std::invalid_argument(
          "the " + analysis::ToString(*r.mode) + " has " + std::to_string(roots) + " root" +
          (roots == 1 ? "" : "s") + " but " + std::to_string(r.poles.size()) + " " +
          (r.poles.size() == 1 ? "was" : "were") + " requested" +
          (roots == 1 ? " (one real pole, e.g. roll:-3)" : " (a pair: wn=W,zeta=Z or -a+bj)"));
    // The mode's shape as one complex vector (a pair's, or two real roots'
    // v1 + i v2) or as real vectors (Re and Im of a pair's).
    const cd i(0.0, 1.0);
    const Eigen::VectorXcd complex_shape = pair ? sources[0] : (sources.size() == 2 ? Eigen::VectorXcd(sources[0] + i * sources[1]) : sources[0]);
    named.poles.insert(named.poles.end(), r.poles.begin(), r.poles.end());
    if (r.poles.size() == 2 && r.poles[0].imag() != 0.0) {
      named.shapes.push_back(complex_shape);
      named.shapes.push_back(complex_shape.conjugate());
    } else if (pair) {
      named.shapes.push_back(complex_shape.real().cast<cd>());
      named.shapes.push_back(complex_shape.imag().cast<cd>());
    } else {
      named.shapes.insert(named.shapes.end(), sources.begin(), sources.end());
    }
  }
  if (named.poles.empty()) return unnamed;
  // The modes not named: kept where they are (with their shapes), or
  // replaced by the unnamed values, which then stand for all of them.
  Poles kept;
  for (std::size_t k = 0; k < design_modes.size(); ++k)
    if (!replaced[k]) {
      const std::vector<cd> r = RootsOf(design_modes[k]);
      kept.poles.insert(kept.poles.end(), r.begin(), r.end());
      const Eigen::VectorXcd v = shape_of(design_modes[k]);
      kept.shapes.push_back(v);
      if (r.size() == 2) kept.shapes.push_back(v.conjugate());
    }
  if (!unnamed.poles.empty()) {
    if (unnamed.poles.size() != kept.poles.size())
      throw std::invalid_argument(
          "poles by value beside poles by mode stand for the modes not named, which have " +
          std::to_string(kept.poles.size()) + " roots; got " + std::to_string(unnamed.poles.size()) +
          " values (or name every mode, or give all " + std::to_string(n) + " poles by value)");
    kept.poles = unnamed.poles;
    kept.shapes.assign(kept.poles.size(), Eigen::VectorXcd());
  }
  named.poles.insert(named.poles.end(), kept.poles.begin(), kept.poles.end());
  named.shapes.insert(named.shapes.end(), kept.shapes.begin(), kept.shapes.end());
  return named;
}

// Grades `out`'s open and closed loops by MIL-F-8785C: the file's class and
// category (all three without one), the designed axis closed, the other as
// `aircraft` has it.
void GradeBothLoops(const model::AircraftData& aircraft, AugmentResult& out) {
  const model::Axis axis = out.axis;
  out.aircraft_class = aircraft.aircraft_class;
  if (!aircraft.aircraft_class) {
    out.not_graded = "the file gives no [aircraft] class, which MIL-F-8785C grades by";
    return;
  }
  std::vector<analysis::FlightPhaseCategory> categories;
  if (aircraft.condition.category)
    categories = {*aircraft.condition.category};
  else
    categories.assign(model::kFlightPhaseCategories.begin(), model::kFlightPhaseCategories.end());
  const analysis::ModalAnalysis both = AnalyzeClosedLoop(aircraft);
  const analysis::ModalSummary open_summary =
      analysis::SummarizeModes(both.longitudinal, both.lateral, aircraft);
  std::optional<analysis::ModalSummary> closed_summary;
  if (out.closed_modes) {
    try {
      closed_summary = axis == model::Axis::kLongitudinal
                           ? analysis::SummarizeModes(*out.closed_modes, both.lateral, aircraft)
                           : analysis::SummarizeModes(both.longitudinal, *out.closed_modes, aircraft);
    } catch (const std::invalid_argument& e) {
      out.not_graded = std::string("the closed loop is not graded: ") + e.what();
    }
  }
  for (analysis::FlightPhaseCategory c : categories) {
    AugmentGrade g{analysis::Grade(open_summary, *aircraft.aircraft_class, c), std::nullopt};
    if (closed_summary) g.closed_loop = analysis::Grade(*closed_summary, *aircraft.aircraft_class, c);
    out.grades.push_back(std::move(g));
  }
}

// The output-feedback loops of `spec` closed on `out`'s axis model (the
// bare airframe of that axis): u_d = −K z over z = (x, the washout filters'
// states), filled into `out` with the closed loop and its modes.
void DesignLoops(const model::AircraftData& aircraft, const AugmentSpec& spec, AugmentResult& out) {
  if (spec.loops.empty()) throw std::invalid_argument("output feedback needs at least one loop");
  if (!spec.poles.empty() || !spec.q_diagonal.empty() || !spec.r_diagonal.empty() ||
      !spec.maxima.empty() || !spec.inputs.empty() || spec.include_integrators)
    throw std::invalid_argument(
        "loops are a design of their own: weights, maxima, poles, inputs and heading hold are for "
        "LQR and pole placement");
  // The axis's outputs: its states, then the derived outputs (nz, γ | ay),
  // whose D ≠ 0 closes through SolveOutputFeedback.
  const model::StateSpace sys = model::WithDerivedOutputs(out.open_loop, out.axis, aircraft.condition);
  const model::StateSpace lon = model::BuildWithOutputs(aircraft, model::Axis::kLongitudinal);
  const model::StateSpace lat = model::BuildWithOutputs(aircraft, model::Axis::kLateral);
  const int n = sys.num_states();
  std::vector<ResolvedLoop> resolved;
  std::vector<int> input_columns;
  for (std::size_t k = 0; k < spec.loops.size(); ++k) {
    const OutputLoop& loop = spec.loops[k];
    ResolvedLoop r = [&] {
      try {
        return ResolveLoop(aircraft, lon, lat, loop);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("loop " + LoopName(loop) + ": " + e.what());
      }
    }();
    if (!loop.gain)
      throw std::invalid_argument("loop " + LoopName(loop) + " needs a gain (" + LoopName(loop) +
                                  "=K, K in " + r.gain_unit + ")");
    if (r.axis != out.axis)
      throw std::invalid_argument("loop " + LoopName(loop) + " is on the " + std::string(model::AxisName(r.axis)) +
                                  " axis, the design on the " + std::string(model::AxisName(out.axis)) +
                                  ": one design closes the loops of one axis (without an axis, `aerolin "
                                  "augment --loop` and aerolin.augment(loops=...) design both)");
    if (std::find(input_columns.begin(), input_columns.end(), r.input_column) == input_columns.end()) {
      input_columns.push_back(r.input_column);
      out.inputs.push_back(sys.inputs()[static_cast<std::size_t>(r.input_column)]);
    }
    for (const OutputLoop& given : out.loops)
      if (given.input == loop.input && given.output == r.output.name)
        throw std::invalid_argument("loop " + LoopName(loop) +
                                    " is given twice: give each loop once, with its gain");
    out.loops.push_back(loop);
    out.loops.back().output = r.output.name;  // "n_z" is "nz", as the model names its outputs
    out.loop_gain_units.push_back(r.gain_unit);
    if (loop.washout_tau) ++out.filter_states;
    resolved.push_back(std::move(r));
  }
  const int N = n + out.filter_states;
  const auto m = static_cast<Eigen::Index>(input_columns.size());
  const auto all_inputs = static_cast<Eigen::Index>(sys.num_inputs());
  const auto p = static_cast<Eigen::Index>(resolved.size());
  out.gain = Eigen::MatrixXd::Zero(m, N);
  // The loops as δ = G y_fed, y_fed = C_fed z + D_fed δ over z = (x, filters).
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(all_inputs, p), C_fed = Eigen::MatrixXd::Zero(p, N), D_fed(p, all_inputs);
  // The loops as a file holds them (model::AxisAugmentation): loops on
  // states as a gain, loops on derived outputs and washed-out loops as
  // output loops, closed by the builders.
  Eigen::MatrixXd state_gain = Eigen::MatrixXd::Zero(m, n);
  std::vector<model::OutputFeedback> output_loops;
  int f = n;
  for (std::size_t k = 0; k < resolved.size(); ++k) {
    const ResolvedLoop& r = resolved[k];
    const double K = *out.loops[k].gain;
    const auto i = static_cast<Eigen::Index>(
        std::find(input_columns.begin(), input_columns.end(), r.input_column) - input_columns.begin());
    const Eigen::RowVectorXd c = sys.C().row(r.output_row);
    const auto kk = static_cast<Eigen::Index>(k);
    G(r.input_column, kk) = K;
    C_fed.row(kk).head(n) = c;
    D_fed.row(kk) = sys.D().row(r.output_row);
    const std::optional<double> tau = out.loops[k].washout_tau;
    if (r.output_row >= n || tau)
      output_loops.push_back({r.input.name, r.output.name, K, tau});
    else
      state_gain(i, r.output_row) -= K;
    // δ = K·y = −(−K c) x.
    out.gain.row(i).head(n) -= K * c;
    if (tau) {
      // The filter state y_w = y low-passed, ẏ_w = (y − y_w)/τ, so that
      // y − y_w = s/(s + 1/τ)·y is what the loop feeds back
      // (model::BuildAugmented).
      C_fed(kk, f) = -1.0;
      out.gain(i, f) += K;
      out.states.push_back({r.output.name + "_washout", r.output.unit, r.output.symbol + "_w"});
      ++f;
    }
  }
  const bool feedthrough = !D_fed.isZero(0.0);
  std::vector<std::string> input_names;
  for (const core::Signal& s : out.inputs) input_names.push_back(s.name);
  model::AircraftData closed_aircraft = aircraft;
  std::optional<model::AxisAugmentation>& closed_aug = out.axis == model::Axis::kLongitudinal
                                                          ? closed_aircraft.longitudinal_augmentation
                                                          : closed_aircraft.lateral_augmentation;
  if (out.filter_states == 0 && !output_loops.empty()) {
    // Loops on an acceleration: the state loops as a gain, the others closed
    // by the builders through their feedthrough (model::FeedbackOf), whose
    // δ = M δ_pilot − K x gives the gain reported.
    closed_aug = model::AxisAugmentation{input_names, state_gain, output_loops};
    const model::ClosedFeedback fb = model::FeedbackOf(closed_aircraft, out.axis);
    for (Eigen::Index i = 0; i < m; ++i) out.gain.row(i) = fb.gain.row(input_columns[static_cast<std::size_t>(i)]);
    if (feedthrough) out.command = Rows(fb.command, input_columns);
  } else if (feedthrough) {
    // With a washout on an acceleration: the same closure over z = (x, filters).
    std::string names;
    for (const OutputLoop& l : out.loops) names += (names.empty() ? "" : ", ") + LoopName(l);
    const model::ClosedFeedback fb =
        model::SolveOutputFeedback(Eigen::MatrixXd::Zero(all_inputs, N), G, C_fed, D_fed, "the loops " + names);
    for (Eigen::Index i = 0; i < m; ++i) out.gain.row(i) = fb.gain.row(input_columns[static_cast<std::size_t>(i)]);
    out.command = Rows(fb.command, input_columns);
  }
  for (int j = 0; j < N; ++j)
    if (!out.gain.col(j).isZero(0.0)) out.design_states.push_back(j);
  out.gain_norm = analysis::SpectralNorm(out.gain);
  // The closed loop as every command builds it from the file --write writes
  // (model::AxisAugmentation, study::CloseAxis): the one place that closes it.
  if (out.filter_states == 0 && output_loops.empty())
    closed_aug = model::AxisAugmentation{input_names, out.gain};
  else if (out.filter_states > 0)
    closed_aug = model::AxisAugmentation{input_names, state_gain, output_loops};
  out.augmentation = *closed_aug;
  ClosedAxis closed = CloseAxis(closed_aircraft, out.axis, &out.open_modes);
  out.closed_loop = std::move(closed.model);
  const Eigen::VectorXcd cl = analysis::Eigenvalues(out.closed_loop.A());
  out.closed_eigenvalues = Sorted(std::vector<cd>(cl.data(), cl.data() + cl.size()));
  out.closed_modes = std::move(closed.modes);
  out.not_graded = closed.not_named;
}

}  // namespace

std::string_view ToString(DesignMethod method) {
  switch (method) {
    case DesignMethod::kLqr: return "lqr";
    case DesignMethod::kPlace: return "place";
    case DesignMethod::kLoops: return "loops";
  }
  return "";
}

const std::vector<std::string>& DefaultInputs(model::Axis axis) {
  static const std::vector<std::string> lon = {"elevator"};
  static const std::vector<std::string> lat = {"aileron", "rudder"};
  return axis == model::Axis::kLongitudinal ? lon : lat;
}

double DefaultMaximum(const core::Signal& signal) {
  // The one table of Bryson maxima (SI), documented in augment.hpp and
  // docs/augmentation.md.
  struct Entry {
    std::string_view name;
    double max;
  };
  static constexpr std::array<Entry, 9> kStates = {{
      {"u", 5.0},
      {"alpha", 2.0 * core::kDegToRad},
      {"q", 5.0 * core::kDegToRad},
      {"theta", 5.0 * core::kDegToRad},
      {"beta", 2.0 * core::kDegToRad},
      {"p", 10.0 * core::kDegToRad},
      {"r", 5.0 * core::kDegToRad},
      {"phi", 5.0 * core::kDegToRad},
      {"psi", 5.0 * core::kDegToRad},
  }};
  for (const Entry& e : kStates)
    if (e.name == signal.name) return e.max;
  // A control: 10° if an angle, 0.1 if dimensionless (throttle).
  return signal.unit == core::Unit::kRadian ? 10.0 * core::kDegToRad : 0.1;
}

double ParseSignalValue(const std::string& typed, const core::Signal& signal) {
  const std::string text = Trim(typed);
  const std::span<const core::UnitSpelling> units = Spellings(signal.unit);
  std::string accepted;
  for (const core::UnitSpelling& u : units) accepted += (accepted.empty() ? "" : ", ") + std::string(u.spelling);
  if (const auto v = Number(text)) return *v;
  for (const core::UnitSpelling& u : units) {
    if (text.size() > u.spelling.size() &&
        text.compare(text.size() - u.spelling.size(), u.spelling.size(), u.spelling) == 0)
      if (const auto v = Number(Trim(text.substr(0, text.size() - u.spelling.size()))))
        return *v * u.to_si;
  }
  throw std::invalid_argument(
      "'" + core::Printable(typed) + "' is not a value of " + signal.name + " (a number in " +
      std::string(core::ToString(signal.unit)) +
      (accepted.empty() ? std::string(", without a unit)") : ", or followed by " + accepted + ")"));
}

double ParseMaximum(const model::AircraftData& aircraft, model::Axis axis, const std::string& name,
                    const std::string& value) {
  const model::StateSpace sys = axis == model::Axis::kLongitudinal ? model::BuildLongitudinal(model::BareAirframe(aircraft))
                                                                   : model::BuildLateral(model::BareAirframe(aircraft));
  for (const std::vector<core::Signal>* list : {&sys.states(), &sys.inputs()})
    for (const core::Signal& s : *list)
      if (s.name == name) return ParseSignalValue(value, s);
  throw std::invalid_argument("no state or input '" + name + "' on the " + std::string(model::AxisName(axis)) +
                              " axis (states: " + Join(Names(sys.states())) +
                              "; inputs: " + Join(Names(sys.inputs())) + ")");
}

std::vector<PoleRequest> ParsePoles(const std::string& text) {
  std::vector<std::string> tokens;
  std::string token;
  for (char c : text + ",") {
    if (c == ',') {
      tokens.push_back(Trim(token));
      token.clear();
    } else {
      token += c;
    }
  }
  std::vector<PoleRequest> out;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    std::string t = tokens[k];
    if (t.empty()) throw std::invalid_argument("an empty entry in '" + text + "'");
    PoleRequest r;
    const std::size_t colon = t.find(':');
    if (colon != std::string::npos) {
      const std::string name = Trim(t.substr(0, colon));
      r.mode = analysis::ParseModeKind(name);
      if (!r.mode)
        throw std::invalid_argument("'" + name +
                                    "' is no mode (short-period, phugoid, dutch-roll, roll, "
                                    "spiral, roll-spiral, heading)");
      t = Trim(t.substr(colon + 1));
    }
    if (t.rfind("wn=", 0) == 0) {
      const auto wn = Number(Trim(t.substr(3)));
      if (!wn || *wn <= 0)
        throw std::invalid_argument("'" + t + "': wn must be a number > 0 [rad/s]");
      if (k + 1 >= tokens.size() || tokens[k + 1].rfind("zeta=", 0) != 0)
        throw std::invalid_argument("'" + t + "' must be followed by zeta=Z, e.g. wn=4,zeta=0.7");
      const auto zeta = Number(Trim(tokens[++k].substr(5)));
      if (!zeta || *zeta < 0)
        throw std::invalid_argument("'" + tokens[k] + "': zeta must be a number ≥ 0");
      r.poles = SecondOrder(*wn, *zeta);
    } else {
      const auto p = ParseComplex(t);
      if (!p)
        throw std::invalid_argument("'" + tokens[k] +
                                    "' is not a pole (a number -2, a complex -2+3j, or wn=W,zeta=Z)");
      r.poles = {*p};
      // A named mode's complex root stands for its pair.
      if (r.mode && p->imag() != 0.0) r.poles.push_back(std::conj(*p));
    }
    out.push_back(std::move(r));
  }
  return out;
}

AugmentResult Augment(const model::AircraftData& file_aircraft, const AugmentSpec& spec) {
  const model::Axis axis = spec.axis;
  // The design is made on the bare airframe of its axis (a file's own
  // augmentation of that axis is replaced, not augmented again); the other
  // axis stays as the file has it.
  model::AircraftData aircraft = file_aircraft;
  (axis == model::Axis::kLongitudinal ? aircraft.longitudinal_augmentation
                                      : aircraft.lateral_augmentation)
      .reset();
  const model::StateSpace axis_model = axis == model::Axis::kLongitudinal
                                           ? model::BuildLongitudinal(aircraft)
                                           : model::BuildLateral(aircraft);
  AugmentResult out(axis_model);
  out.axis = axis;
  out.method = spec.method;
  const model::StateSpace& sys = out.open_loop;
  out.states = sys.states();
  const double U0 = aircraft.condition.U0;
  if (spec.method == DesignMethod::kLoops) {
    out.open_modes = AnalyzeAxis(sys, axis, U0);
    DesignLoops(aircraft, spec, out);
    GradeBothLoops(aircraft, out);
    return out;
  }
  if (!spec.loops.empty())
    throw std::invalid_argument("loops are a design of their own, not part of LQR or pole placement");

  // Inputs, by name.
  const std::vector<std::string>& input_names = spec.inputs.empty() ? DefaultInputs(axis) : spec.inputs;
  std::vector<int> input_columns;
  for (const std::string& name : input_names) {
    int j = 0;
    while (j < sys.num_inputs() && sys.inputs()[j].name != name) ++j;
    if (j == sys.num_inputs())
      throw std::invalid_argument("no input '" + name + "' on the " + std::string(model::AxisName(axis)) + " axis of " +
                                  aircraft.name + " (its inputs: " + Join(Names(sys.inputs())) + ")");
    if (std::find(input_columns.begin(), input_columns.end(), j) != input_columns.end())
      throw std::invalid_argument("input '" + name + "' is named twice");
    input_columns.push_back(j);
    out.inputs.push_back(sys.inputs()[j]);
  }

  // States: those that feed the dynamics, unless integrators are asked for.
  for (int j = 0; j < sys.num_states(); ++j)
    if (spec.include_integrators || !sys.A().col(j).isZero(0.0)) out.design_states.push_back(j);
  const Eigen::MatrixXd Ad = Select(sys.A(), out.design_states, out.design_states);
  const Eigen::MatrixXd Bd = Select(sys.B(), out.design_states, input_columns);
  const std::size_t n = out.design_states.size(), m = input_columns.size();
  std::vector<std::string> design_names;
  for (int j : out.design_states) design_names.push_back(out.states[j].name);

  out.open_modes = AnalyzeAxis(sys, axis, U0);
  // The open-loop modes the design can move: those of the design states.
  std::vector<analysis::Mode> design_modes;
  for (const analysis::Mode& mode : out.open_modes)
    if (mode.kind != analysis::ModeKind::kHeading || spec.include_integrators)
      design_modes.push_back(mode);

  analysis::DesignLabels labels;
  labels.inputs = input_names;
  labels.mode_name = [&design_modes](cd l) -> std::string {
    for (const analysis::Mode& mode : design_modes)
      for (const cd& r : RootsOf(mode))
        if (std::abs(r - l) <= kSameRootTolerance * std::max(1.0, std::abs(l)))
          return analysis::ToString(mode.kind);
    return {};
  };

  Eigen::MatrixXd Kd;
  if (spec.method == DesignMethod::kLqr) {
    if (!spec.poles.empty()) throw std::invalid_argument("poles are for pole placement, not LQR");
    if (spec.q_diagonal.empty() != spec.r_diagonal.empty())
      throw std::invalid_argument("explicit weights need both Q and R (or neither: Bryson's rule)");
    Eigen::VectorXd q(n), r(m);
    if (!spec.q_diagonal.empty()) {
      if (!spec.maxima.empty())
        throw std::invalid_argument("maxima (Bryson's rule) and explicit Q, R exclude each other");
      if (spec.q_diagonal.size() != n)
        throw std::invalid_argument("Q needs " + std::to_string(n) + " weights, one per design state (" +
                                    Join(design_names) + "), got " +
                                    std::to_string(spec.q_diagonal.size()));
      if (spec.r_diagonal.size() != m)
        throw std::invalid_argument("R needs " + std::to_string(m) + " weight" + (m == 1 ? "" : "s") +
                                    ", one per input (" + Join(input_names) + "), got " +
                                    std::to_string(spec.r_diagonal.size()));
      for (std::size_t i = 0; i < n; ++i) q(i) = spec.q_diagonal[i];
      for (std::size_t i = 0; i < m; ++i) r(i) = spec.r_diagonal[i];
    } else {
      out.bryson = true;
      std::vector<double> maxima;
      for (int j : out.design_states) maxima.push_back(DefaultMaximum(out.states[j]));
      for (const core::Signal& s : out.inputs) maxima.push_back(DefaultMaximum(s));
      for (const auto& [name, value] : spec.maxima) {
        std::size_t k = 0;
        while (k < n && design_names[k] != name) ++k;
        if (k == n) {
          const auto in = std::find(input_names.begin(), input_names.end(), name);
          if (in == input_names.end()) {
            const std::string& wanted = name;  // a binding clang 14 cannot capture
            const bool left_out = std::any_of(out.states.begin(), out.states.end(),
                                              [&](const core::Signal& s) { return s.name == wanted; });
            throw std::invalid_argument(
                left_out ? "'" + name + "' is left out of the design (a free integrator: zero gain); "
                               "design on it too to weight it (heading hold)"
                         : "no state or input '" + name + "' in the design (states: " +
                               Join(design_names) + "; inputs: " + Join(input_names) + ")");
          }
          k = n + static_cast<std::size_t>(in - input_names.begin());
        }
        if (!(value > 0) || !std::isfinite(value))
          throw std::invalid_argument("the maximum of " + name + " must be a finite number > 0");
        maxima[k] = value;
      }
      for (std::size_t i = 0; i < n; ++i) q(i) = 1.0 / (maxima[i] * maxima[i]);
      for (std::size_t i = 0; i < m; ++i) r(i) = 1.0 / (maxima[n + i] * maxima[n + i]);
      out.maxima = maxima;
    }
    out.Q = q.asDiagonal();
    out.R = r.asDiagonal();
    const analysis::LqrResult lqr = analysis::Lqr(Ad, Bd, out.Q, out.R, Eigen::MatrixXd(), labels);
    Kd = lqr.K;
    out.riccati = lqr.X;
    out.residual = lqr.residual;
  } else {
    if (spec.poles.empty()) throw std::invalid_argument("pole placement needs poles");
    if (!spec.q_diagonal.empty() || !spec.r_diagonal.empty() || !spec.maxima.empty())
      throw std::invalid_argument("weights and maxima are for LQR, not pole placement");
    const Poles poles = RequestedPoles(spec.poles, design_modes, out.design_states, n);
    const analysis::PlacementResult placed = analysis::Place(Ad, Bd, poles.poles, labels, poles.shapes);
    Kd = placed.K;
    out.requested.assign(placed.requested.data(), placed.requested.data() + placed.requested.size());
    out.achieved.assign(placed.achieved.data(), placed.achieved.data() + placed.achieved.size());
    out.max_pole_error = placed.max_pole_error;
    out.eigenvector_condition = placed.eigenvector_condition;
  }
  out.gain = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(m), sys.num_states());
  for (std::size_t j = 0; j < n; ++j) out.gain.col(out.design_states[j]) = Kd.col(static_cast<Eigen::Index>(j));
  out.gain_norm = analysis::SpectralNorm(out.gain);

  // The closed loop as every command builds it from a file with this gain
  // (model::AxisAugmentation): the one place that closes it.
  model::AircraftData closed_aircraft = aircraft;
  out.augmentation = model::AxisAugmentation{input_names, out.gain};
  (axis == model::Axis::kLongitudinal ? closed_aircraft.longitudinal_augmentation
                                      : closed_aircraft.lateral_augmentation) = out.augmentation;
  out.closed_loop = axis == model::Axis::kLongitudinal ? model::BuildLongitudinal(closed_aircraft)
                                                       : model::BuildLateral(closed_aircraft);
  const Eigen::VectorXcd cl = analysis::Eigenvalues(out.closed_loop.A());
  out.closed_eigenvalues = Sorted(std::vector<cd>(cl.data(), cl.data() + cl.size()));
  // A fed-back integrator (heading hold) is no longer free: aerolin's lateral
  // naming assumes a free ψ, so those roots stay unnamed.
  // (The axis first: a longitudinal A has no column kPsi, and reading it was
  // past the matrix's end, found by AddressSanitizer in the disturbance fuzz
  // harness.)
  const bool integrator_fed_back = axis == model::Axis::kLateral &&
                                   !out.closed_loop.A().col(model::lat::kPsi).isZero(0.0);
  if (integrator_fed_back)
    out.not_graded = "psi is fed back (heading hold): aerolin names lateral modes with psi a free "
                     "integrator, so the closed-loop roots are listed unnamed and not graded";
  else
    out.closed_modes = AnalyzeAxis(out.closed_loop, axis, U0);

  GradeBothLoops(aircraft, out);
  return out;
}

std::vector<AugmentSpec> LoopDesignsByAxis(const model::AircraftData& aircraft, const AugmentSpec& spec) {
  std::vector<AugmentSpec> specs;
  for (const OutputLoop& loop : spec.loops) {
    model::Axis axis{};
    try {
      axis = LoopAxis(aircraft, loop);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("loop " + LoopName(loop) + ": " + e.what());
    }
    auto it = std::find_if(specs.begin(), specs.end(), [axis](const AugmentSpec& s) { return s.axis == axis; });
    if (it == specs.end()) {
      AugmentSpec one = spec;
      one.axis = axis;
      one.loops.clear();
      specs.push_back(std::move(one));
      it = specs.end() - 1;
    }
    it->loops.push_back(loop);
  }
  std::stable_sort(specs.begin(), specs.end(), [](const AugmentSpec& a, const AugmentSpec& b) {
    return a.axis == model::Axis::kLongitudinal && b.axis != model::Axis::kLongitudinal;
  });
  return specs;
}

std::vector<AugmentResult> AugmentAxes(const model::AircraftData& aircraft, const std::vector<AugmentSpec>& specs) {
  for (std::size_t i = 0; i < specs.size(); ++i)
    for (std::size_t j = i + 1; j < specs.size(); ++j)
      if (specs[i].axis == specs[j].axis)
        throw std::invalid_argument("two designs on the " + std::string(model::AxisName(specs[i].axis)) +
                                    " axis: give one per axis");
  std::vector<AugmentResult> designed;
  for (const AugmentSpec& spec : specs) designed.push_back(Augment(aircraft, spec));
  if (specs.size() < 2) return designed;
  // Each design again, on the file with the others' written in: the same
  // gain (designed on its axis's bare airframe), graded with all closed.
  std::vector<AugmentResult> out;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    model::AircraftData others = aircraft;
    for (std::size_t j = 0; j < designed.size(); ++j)
      if (j != i)
        (designed[j].axis == model::Axis::kLongitudinal ? others.longitudinal_augmentation
                                                        : others.lateral_augmentation) = designed[j].augmentation;
    out.push_back(Augment(others, specs[i]));
  }
  return out;
}

}  // namespace aerolin::study
