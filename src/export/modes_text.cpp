#include "aerolin/export/modes_text.hpp"

#include "damping_text.hpp"
#include "aerolin/analysis/flying_qualities.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <fmt/format.h>
#include <string>
#include <utility>

#include "aerolin/model/conventions.hpp"
#include "display_units.hpp"
#include "text_cells.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Mode;

std::string Opt(const std::optional<double>& v) { return v ? Sig(*v) : "-"; }

// "+12.3 %", "−2.7 %" (ASCII minus), "0.0 %" (never "-0.0"), or "-" if absent.
std::string SignedPercent(const std::optional<double>& v) {
  if (!v) return "-";
  const std::string s = fmt::format("{:+.1f} %", *v);
  return s == "+0.0 %" || s == "-0.0 %" ? "0.0 %" : s;  // the sign of 0.0 means nothing
}

std::string Symbol(const std::vector<core::Signal>& states, const std::string& name) {
  for (const core::Signal& s : states)
    if (s.name == name) return s.symbol;
  return name;
}

// The width of an axis's mode column: 34, or two more than its longest
// name ("roll-spiral oscillation (lateral phugoid)" is 41), so that a long
// name widens its own axis's tables and no other output changes.
std::size_t ModeColumn(const std::vector<Mode>& modes, const std::vector<analysis::FilterRoot>& filters,
                       model::Axis axis) {
  std::size_t longest = 0;
  for (const Mode& m : modes) longest = std::max(longest, CodePoints(m.full_name()));
  for (const analysis::FilterRoot& f : filters)
    if (f.axis == axis) longest = std::max(longest, CodePoints(analysis::FilterRootName(f.state)));
  return std::max<std::size_t>(34, longest + 2);
}

void WriteModeTable(std::ostream& out, const std::string& title, const std::vector<Mode>& modes,
                    const model::StateSpace& sys, std::size_t width) {
  out << title << '\n';
  out << "  " << Pad("mode", width) << Pad("eigenvalue λ [1/s]", 22) << Pad("ωn [rad/s]", 11)
      << Pad("ζ", 8) << Pad("period [s]", 11) << Pad("t½ [s]", 9) << Pad("t2 [s]", 9)
      << Pad("τ [s]", 9) << Pad("N½", 7) << "dominant\n";
  for (const Mode& m : modes) {
    std::string dominant;
    for (const std::string& s : m.dominant_states)
      dominant += (dominant.empty() ? "" : ", ") + Symbol(sys.states(), s);
    out << "  " << Pad(m.full_name(), width) << Pad(Eigenvalue(m.lambda), 22)
        << Pad(Sig(m.natural_frequency), 11)
        << Pad(HasDampingRatio(m.kind) ? Fixed(m.damping_ratio, 3) : kNoDampingRatio, 8)
        << Pad(Opt(m.damped_period), 11) << Pad(Opt(m.time_to_half), 9)
        << Pad(Opt(m.time_to_double), 9) << Pad(Opt(m.time_constant), 9)
        << Pad(Opt(m.cycles_to_half), 7) << dominant << '\n';
  }
}

// The washout filters' roots of `axis` (study::AnalyzeClosedLoop) as rows
// of WriteModeTable, named as `aerolin augment` names them.
void WriteFilterRows(std::ostream& out, const std::vector<analysis::FilterRoot>& filters, model::Axis axis,
                     std::size_t width) {
  for (const analysis::FilterRoot& f : filters)
    if (f.axis == axis)
      out << "  " << Pad(analysis::FilterRootName(f.state), width) << Pad(Eigenvalue(f.lambda), 22)
          << Pad("-", 11) << Pad(kNoDampingRatio, 8) << Pad("-", 11) << Pad("-", 9) << Pad("-", 9)
          << Pad(Sig(-1.0 / f.lambda.real()), 9) << Pad("-", 7) << f.state.symbol << '\n';
}

void WriteShapes(std::ostream& out, const std::vector<Mode>& modes, const model::StateSpace& sys,
                 core::UnitSystem speed_units, std::size_t width) {
  out << "  mode shapes: magnitude ∠ phase [deg], relative to the reference state (= 1∠0°);\n"
         "  u in "
      << DisplayUnitOf(core::Unit::kMetrePerSecond, speed_units).name
      << " per rad, angles in rad per rad, rates in rad/s per rad\n";
  out << "  " << Pad("mode", width);
  // The airframe's states (a washout filter's state, after them, has no
  // shape: analysis::AnalyzeWithFilters).
  const std::size_t shown = modes.empty() ? sys.states().size() : static_cast<std::size_t>(modes.front().shape.size());
  for (std::size_t i = 0; i < shown && i < sys.states().size(); ++i) out << Pad(sys.states()[i].symbol, 17);
  out << "ref\n";
  for (const Mode& m : modes) {
    out << "  " << Pad(m.full_name(), width);
    for (Eigen::Index i = 0; i < m.shape.size(); ++i) {
      const double mag =
          std::abs(m.shape(i)) * DisplayUnitOf(sys.states()[i].unit, speed_units).per_si;
      const double phase = mag > 0.0 ? std::arg(m.shape(i)) * core::kRadToDeg : 0.0;
      out << Pad(Sig(mag) + "∠" + Fixed(phase, 0), 17);
    }
    out << sys.states()[m.reference_state].symbol << '\n';
  }
}

std::string LimitOf(const analysis::Limits& l) {
  if (l.min && l.max) return fmt::format("{:g}..{:g}", *l.min, *l.max);
  if (l.min) return std::isinf(*l.min) ? "none permitted" : fmt::format("≥ {:g}", *l.min);
  if (l.max) return fmt::format("≤ {:g}", *l.max);
  return "-";
}

// One line per graded mode: its level in each category and, where that is
// not Level 1, the requirement that limits it in the worst category.
void WriteQualitiesSummary(std::ostream& out, const model::AircraftData& aircraft,
                           const analysis::ModalAnalysis& modes) {
  using analysis::FlightPhaseCategory;
  const analysis::AircraftClass cls = *aircraft.aircraft_class;
  std::vector<FlightPhaseCategory> cats;
  if (aircraft.condition.category)
    cats = {*aircraft.condition.category};
  else
    cats.assign(model::kFlightPhaseCategories.begin(), model::kFlightPhaseCategories.end());
  std::string heading = "Flying qualities  (MIL-F-8785C, Class " +
                        std::string(analysis::ToString(cls));
  heading += cats.size() == 1 ? ", Category " + std::string(analysis::ToString(cats[0]))
                              : ", Categories A B C";
  out << heading << "; level 1-3, 4 = worse than 3; aerolin qualities for every requirement)\n";
  std::vector<analysis::QualitiesGrade> grades;
  try {
    const analysis::ModalSummary summary =
        analysis::SummarizeModes(modes.longitudinal, modes.lateral, aircraft);
    for (FlightPhaseCategory c : cats) grades.push_back(analysis::Grade(summary, cls, c));
  } catch (const std::invalid_argument& e) {
    out << "  not graded: " << e.what() << '\n';
    return;
  }
  std::vector<analysis::ModeKind> kinds;
  for (const analysis::RequirementResult& r : grades[0].requirements)
    if (std::find(kinds.begin(), kinds.end(), r.mode) == kinds.end()) kinds.push_back(r.mode);
  // The mode column: 18, or two more than the longest name graded
  // ("roll-spiral oscillation").
  std::size_t width = 18;
  for (analysis::ModeKind kind : kinds)
    width = std::max(width, CodePoints(std::string(analysis::ToString(kind))) + 2);
  for (analysis::ModeKind kind : kinds) {
    std::string levels;
    const analysis::QualitiesGrade* worst = nullptr;
    for (const analysis::QualitiesGrade& g : grades) {
      const int level = analysis::ToInt(*g.LevelOf(kind));
      levels += (levels.empty() ? "" : "  ") +
                (cats.size() == 1 ? fmt::format("Level {}", level)
                                  : fmt::format("{} {}", analysis::ToString(g.category), level));
      if (worst == nullptr || level > analysis::ToInt(*worst->LevelOf(kind))) worst = &g;
    }
    std::string why;
    const int worst_level = analysis::ToInt(*worst->LevelOf(kind));
    if (worst_level > 1)
      for (const analysis::RequirementResult& r : worst->requirements)
        if (r.mode == kind && analysis::ToInt(r.level) == worst_level) {
          why = fmt::format("{} = {:.4g} {} (Level {}: {}), {}", r.criterion, r.value, r.unit,
                            worst_level - 1, LimitOf(r.limits[worst_level - 2]), r.paragraph);
          if (cats.size() > 1) why = fmt::format("{}: ", analysis::ToString(worst->category)) + why;
          break;
        }
    std::string line = "  " + Pad(std::string(analysis::ToString(kind)), width) + Pad(levels, 16) + why;
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << '\n';
  }
}

}  // namespace

void WriteModesText(std::ostream& out, const model::AircraftData& aircraft,
                    const analysis::ModalAnalysis& modes,
                    const std::vector<analysis::Approximation>& approximations,
                    std::string_view file, core::UnitSystem speed_units) {
  const DisplayUnit speed = DisplayUnitOf(core::Unit::kMetrePerSecond, speed_units);
  const model::FlightCondition& fc = aircraft.condition;
  out << aircraft.name << "  (" << file << ")\n";
  out << "source: " << aircraft.source << '\n';
  out << "trim: U0 = " << Sig(fc.U0 * speed.per_si) << ' ' << speed.name
      << ", θ0 = " << Fixed(fc.theta0 * core::kRadToDeg, 2) << "°, g = "
      << Sig(fc.g * speed.per_si) << ' ' << speed.name << "²\n";
  // A file that closes a feedback: these are the augmented aircraft's modes.
  for (const auto& [axis, aug] : {std::pair{"longitudinal", &aircraft.longitudinal_augmentation},
                                  std::pair{"lateral", &aircraft.lateral_augmentation}})
    if (*aug) {
      std::string inputs;
      for (const std::string& n : (*aug)->inputs) inputs += (inputs.empty() ? "" : ", ") + n;
      std::string through;  // loops on an acceleration close through its feedthrough
      std::string washouts;  // loops through a washout filter, a state each
      for (const model::OutputFeedback& l : (*aug)->output_loops)
        if (l.washout_s)
          washouts += (washouts.empty() ? "" : ", ") + l.input + ":" + l.output + " through s/(s + 1/τ), τ = " +
                      Sig(*l.washout_s) + " s (state " + l.output + "_washout)";
        else
          through += (through.empty() ? "" : ", ") + l.input + ":" + l.output;
      if (!washouts.empty())
        out << "closed loop: [augmentation." << axis << "] feeds back " << inputs << " (" << washouts
            << (through.empty() ? "" : "; " + through + " as measured") << "): the " << axis
            << " modes are the augmented aircraft's, the filter's root named\n";
      else
        out << "closed loop: [augmentation." << axis << "] feeds back " << inputs
            << (through.empty() ? " (u = -K x)" : " (u = M u_pilot - K x, " + through + " through its feedthrough)")
            << ": the " << axis << " modes are the augmented aircraft's\n";
    }
  out << '\n';
  const std::size_t lon_width = ModeColumn(modes.longitudinal, modes.filters, model::Axis::kLongitudinal);
  const std::size_t lat_width = ModeColumn(modes.lateral, modes.filters, model::Axis::kLateral);
  WriteModeTable(out,
                 "Longitudinal modes  (x = " +
                     model::JoinSymbols(model::StateSignals(model::Axis::kLongitudinal)) + ")",
                 modes.longitudinal, modes.longitudinal_model, lon_width);
  WriteFilterRows(out, modes.filters, model::Axis::kLongitudinal, lon_width);
  out << '\n';
  WriteShapes(out, modes.longitudinal, modes.longitudinal_model, speed_units, lon_width);
  out << '\n';
  WriteModeTable(out,
                 "Lateral-directional modes  (x = " +
                     model::JoinSymbols(model::StateSignals(model::Axis::kLateral)) + ")",
                 modes.lateral, modes.lateral_model, lat_width);
  WriteFilterRows(out, modes.filters, model::Axis::kLateral, lat_width);
  out << '\n';
  WriteShapes(out, modes.lateral, modes.lateral_model, speed_units, lat_width);
  if (aircraft.aircraft_class) {
    out << '\n';
    WriteQualitiesSummary(out, aircraft, modes);
  }
  out << "\nClassical approximations, stability-axis forms  (errors: 100 (approx − exact)/exact\n"
         "of ωn and ζ for oscillatory roots, of the time constant τ = −1/λ for real ones)\n";
  out << "  " << Pad("mode", 18) << Pad("method", 23) << Pad("approximate λ", 22)
      << Pad("exact λ", 22) << Pad("ωn error", 10) << Pad("ζ error", 10) << "τ error\n";
  for (const analysis::Approximation& a : approximations) {
    const Mode* exact = modes.Find(a.kind);
    analysis::ApproximationError error;
    if (exact) error = analysis::CompareApproximation(a.lambda, exact->lambda);
    std::string line = "  " + Pad(std::string(analysis::ToString(a.kind)), 18) +
                       Pad(a.method, 23) + Pad(Eigenvalue(a.lambda), 22) +
                       Pad(exact ? Eigenvalue(exact->lambda) : "-", 22) +
                       Pad(SignedPercent(error.natural_frequency_percent), 10) +
                       Pad(SignedPercent(error.damping_ratio_percent), 10) +
                       SignedPercent(error.time_constant_percent);
    out << line << '\n';
  }
  const double axes_angle = analysis::DerivativeAxesAngle(aircraft);
  if (!approximations.empty() && axes_angle != 0.0)
    out << "  (this file's derivatives are in body axes, W0 ≠ 0: rotated by α0 = "
        << Fixed(axes_angle * core::kRadToDeg, 2) << "° into stability axes first)\n";
  out << "\nt½ / t2: time to half / double amplitude; τ: time constant of a real root;\n"
         "N½: cycles to half amplitude; dominant: states with ≥ 30 % of the largest scaled\n"
         "component (u/U0, angles, rates/ωn), the evidence for the mode's name.\n";
}

}  // namespace aerolin::exporting
