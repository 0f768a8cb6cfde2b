#include "aerolin/viz/hud_model.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/viz/flight_session.hpp"

namespace aerolin::viz {

DisplayUnit DisplayUnitOf(core::Unit unit) {
  switch (unit) {
    case core::Unit::kRadian: return {core::kRadToDeg, "\xc2\xb0"};
    case core::Unit::kRadianPerSecond: return {core::kRadToDeg, "\xc2\xb0/s"};
    default: return {1.0, core::ToString(unit)};
  }
}

std::vector<std::string> ValidityWarnings(const sim::FlightState& x, double U0,
                                          const sim::ValidityThresholds& limits) {
  std::vector<std::string> out;
  const std::vector<core::Signal>& states = sim::FlightStateSignals();
  auto angle = [&](int i, double limit) {
    const DisplayUnit shown = DisplayUnitOf(states[i].unit);
    if (std::abs(x[i]) > limit)
      out.push_back(fmt::format("{} = {:+.1f}{} beyond \xc2\xb1{:.0f}{}: left the "
                                "small-perturbation range",
                                states[i].symbol, x[i] * shown.factor, shown.symbol,
                                limit * shown.factor, shown.symbol));
  };
  if (U0 > 0.0 && std::abs(x[sim::kU]) > limits.speed_ratio * U0)
    out.push_back(fmt::format("{} = {:+.1f} {} beyond {:.0f} % of U0: left the "
                              "small-perturbation range",
                              states[sim::kU].symbol, x[sim::kU],
                              core::ToString(states[sim::kU].unit), limits.speed_ratio * 100));
  angle(sim::kAlpha, limits.alpha);
  angle(sim::kBeta, limits.beta);
  angle(sim::kPhi, limits.phi);
  return out;
}

ModeTable GradeModeTable(const model::AircraftData& aircraft,
                         const std::vector<analysis::Mode>& modes) {
  ModeTable table;
  for (const analysis::Mode& m : modes) {
    if (m.kind == analysis::ModeKind::kHeading) continue;
    table.rows.push_back({m.full_name(), m.natural_frequency, m.damping_ratio, m.damped_period,
                          m.time_constant, m.stable});
  }
  if (!aircraft.aircraft_class) return table;
  std::vector<analysis::Mode> lon, lat;
  for (const analysis::Mode& m : modes)
    (m.axis == model::Axis::kLongitudinal ? lon : lat).push_back(m);
  std::vector<analysis::QualitiesGrade> grades;
  const auto& cat = aircraft.condition.category;
  try {
    const analysis::ModalSummary summary = analysis::SummarizeModes(lon, lat, aircraft);
    for (analysis::FlightPhaseCategory c : model::kFlightPhaseCategories)
      if (!cat || *cat == c)
        grades.push_back(analysis::Grade(summary, *aircraft.aircraft_class, c));
  } catch (const std::invalid_argument&) {
    return table;  // a mode the grading needs is missing: no levels
  }
  // Rows were made from `modes` without the heading root, in order.
  std::size_t row = 0;
  for (const analysis::Mode& m : modes) {
    if (m.kind == analysis::ModeKind::kHeading) continue;
    std::optional<int>& level = table.rows[row++].level;
    for (const analysis::QualitiesGrade& g : grades)
      if (const std::optional<analysis::Level> l = g.LevelOf(m.kind))
        level = std::max(level.value_or(0), analysis::ToInt(*l));
  }
  table.qualities = fmt::format("MIL-F-8785C {}, {}", analysis::ToString(*aircraft.aircraft_class),
                                cat ? fmt::format("cat. {}", analysis::ToString(*cat))
                                    : std::string("worst of A/B/C"));
  return table;
}

std::string PilotLabel(const pilot::PilotScript* script) {
  if (script == nullptr) return "";
  return "script: " + std::filesystem::path(script->path).filename().string();
}

HudModel::HudModel(const FlightSession& session, std::string aircraft_name,
                   const pilot::PilotScript* script)
    : session_(&session) {
  hud_.aircraft = std::move(aircraft_name);
  hud_.pilot = PilotLabel(script);
  ModeTable table = GradeModeTable(session.aircraft(), session.modes());
  hud_.modes = std::move(table.rows);
  hud_.qualities = std::move(table.qualities);
  const pilot::Pilot& pilot = session.pilot();
  for (int c = 0; c < pilot.num_controls(); ++c) {
    const model::Control& ctl = session.model().controls()[c];
    // Bar span: the control's travel when the file limits it (a bar at its
    // end is a control at its stop), else 0.1 rad / 10 units; Update widens
    // it to the largest deflection seen.
    double range = ctl.unit == core::Unit::kRadian ? 0.1 : 10.0;
    if (ctl.min || ctl.max)
      range = std::max(ctl.min ? std::abs(*ctl.min) : 0.0, ctl.max ? std::abs(*ctl.max) : 0.0);
    ControlGauge g{ctl.name, ctl.unit, 0.0, range, ""};
    if (auto first = pilot.first_key(c)) {
      const pilot::Key second = *pilot.second_key(c);
      g.keys = fmt::format("{} {}  \xc2\xb7  {} {}", pilot::KeyText(*first),
                           pilot::KeyEffect(*first), pilot::KeyText(second),
                           pilot::KeyEffect(second));
    }
    hud_.controls.push_back(std::move(g));
  }
}

HudState& HudModel::Update(const sim::FlightState& shown, double lag) {
  const FlightSession& s = *session_;
  HudState& h = hud_;
  h.time = s.slice_index() == 0 ? 0.0 : s.time() - lag;
  h.state = shown;
  h.U0 = s.model().U0();
  for (std::size_t c = 0; c < h.controls.size(); ++c) {
    ControlGauge& g = h.controls[c];
    g.value = s.pilot().controls()[static_cast<int>(c)];
    g.range = std::max(g.range, std::abs(g.value));
  }
  h.slice_dt = s.dt();
  h.slice_cost_mean = s.slice_cost_mean();
  h.slice_cost_max = s.slice_cost_max();
  h.slices = s.slice_index();
  h.warnings = ValidityWarnings(shown, h.U0);
  h.log_path = s.csv_path();
  h.trim_pitch = s.model().theta0();
  h.pitch_attitude = h.trim_pitch + shown[sim::kTheta];
  if (const sim::DrydenTurbulence* d = s.dryden()) {
    h.turbulence = std::string(sim::ToString(*s.turbulence()));
    h.turbulence_sigma = {d->parameters().sigma_u, d->parameters().sigma_v,
                          d->parameters().sigma_w};
    h.turbulence_seed = d->seed();
    h.turbulence_altitude = s.turbulence_altitude().value_or(0.0);
    h.wind = s.wind();
  } else {
    h.turbulence.clear();
    h.turbulence_sigma.setZero();
    h.turbulence_seed = 0;
    h.turbulence_altitude = 0.0;
    h.wind.setZero();
  }
  h.amplitude_factor = s.amplitude_factor();
  h.excitation.clear();
  if (s.excitation() && s.excite_amplitude())
    h.excitation = fmt::format("{}, A = {:.3g}", ToString(*s.excitation()), *s.excite_amplitude());
  return h;
}

}  // namespace aerolin::viz
