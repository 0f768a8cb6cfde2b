#include "aerolin/viz/hud_model.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/viz/flight_session.hpp"

namespace aerolin::viz {

std::string_view ToString(PanelMode mode) {
  switch (mode) {
    case PanelMode::kFull: return "full";
    case PanelMode::kCompact: return "compact";
    case PanelMode::kHidden: return "hidden";
  }
  return "?";
}

PanelMode DefaultPanelMode(float width, float height) {
  return width < 1100 || height < 700 ? PanelMode::kCompact : PanelMode::kFull;
}

PanelMode NextPanelMode(PanelMode mode) {
  switch (mode) {
    case PanelMode::kFull: return PanelMode::kCompact;
    case PanelMode::kCompact: return PanelMode::kHidden;
    case PanelMode::kHidden: return PanelMode::kFull;
  }
  return PanelMode::kFull;
}

HudRect HudLayout::SceneCentre(float window_height) const {
  const float cx = 0.5f * (scene_left + scene_right), cy = 0.5f * window_height;
  const float w = 0.3f * (scene_right - scene_left), h = 0.3f * strip.top;
  return {cx - 0.5f * w, cy - 0.5f * h, w, h};
}

HudLayout LayoutHud(const HudState& h, float width, float height, PanelMode mode,
                    int strip_lines) {
  HudLayout l;
  l.mode = mode;
  const float strip_height = 10.0f + 20.0f * static_cast<float>(std::max(strip_lines, 1));
  l.strip = {12, height - strip_height - 8, width - 24, strip_height};
  l.scene_left = 0;
  l.scene_right = width;
  if (mode == PanelMode::kHidden) return l;
  const float controls = static_cast<float>(h.controls.size());
  std::size_t mode_lines = 0;  // a long name takes two or more lines
  for (const ModeRow& m : h.modes) mode_lines += ModeNameLines(m.name, ModeNameChars(mode)).size();
  const float modes = static_cast<float>(mode_lines);
  float column = RightColumnWidth(width);
  if (mode == PanelMode::kFull) {
    l.text_size = 14;
    l.small_size = 13;
    l.line_height = 19;
    l.control_row = 36;  // name, bar and value, then the keys' effects
    l.state_panel = {12, 12, kStatePanelRight - 12,
                     30 + 22 + 11 * l.line_height + 18 + controls * l.control_row + 10};
    l.mode_table = {width - 442, 12, 430, 34 + l.line_height * (modes + 1) + 6};
    l.scene_left = std::min(l.state_panel.right(), 0.45f * width);
  } else {
    column = RightColumnWidth(0.0f);  // the narrow column
    l.text_size = 12;
    l.small_size = 12;
    l.line_height = 16;
    l.control_row = 20;  // no key hints (the help overlay lists the keys)
    l.state_panel = {12, 12, 250, 8 + 20 + 22 + 11 * l.line_height + 16 + controls * l.control_row + 8};
    l.mode_table = {width - 312, 12, 300, 30 + 17 * (modes + 1) + 6};
    l.scene_left = l.state_panel.right();
  }
  const float column_width = column - 24;
  const float column_top = l.mode_table.bottom() + 8;
  l.right_column = {width - column_width - 12, column_top, column_width,
                    std::max(0.0f, l.strip.top - 8 - column_top)};
  l.scene_right = width - column;
  return l;
}

std::size_t ModeNameChars(PanelMode mode) { return mode == PanelMode::kCompact ? 18 : 20; }

std::vector<std::string> ModeNameLines(const std::string& name, std::size_t chars) {
  // Characters, not bytes: the names are UTF-8.
  auto count = [](const std::string& s) {
    return static_cast<float>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  };
  if (count(name) <= static_cast<float>(chars)) return {name};
  std::vector<std::string> lines = WrapText(name, static_cast<float>(chars) - 1, count);
  for (std::size_t i = 1; i < lines.size(); ++i) lines[i].insert(0, 1, ' ');
  return lines;
}

std::vector<std::string> WrapText(const std::string& text, float width,
                                  const std::function<float(const std::string&)>& measure) {
  std::vector<std::string> lines;
  std::string line;
  auto flush = [&] {
    if (!line.empty()) lines.push_back(line);
    line.clear();
  };
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(i, end - i);
    i = end + 1;
    if (word.empty()) continue;
    const std::string joined = line.empty() ? word : line + " " + word;
    if (measure(joined) <= width) {
      line = joined;
      continue;
    }
    flush();
    // A word wider than the line: cut it at character boundaries.
    while (measure(word) > width) {
      std::size_t cut = 0, next = 0;
      while (next < word.size()) {
        std::size_t n = next + 1;
        while (n < word.size() && (static_cast<unsigned char>(word[n]) & 0xC0) == 0x80) ++n;
        if (measure(word.substr(0, n)) > width) break;
        next = cut = n;
      }
      if (cut == 0) {  // not even one character fits: one per line
        cut = 1;
        while (cut < word.size() && (static_cast<unsigned char>(word[cut]) & 0xC0) == 0x80) ++cut;
      }
      lines.push_back(word.substr(0, cut));
      word.erase(0, cut);
    }
    line = word;
  }
  flush();
  return lines;
}

DisplayUnit DisplayUnitOf(core::Unit unit) {
  switch (unit) {
    case core::Unit::kRadian: return {core::kRadToDeg, "\xc2\xb0"};
    case core::Unit::kRadianPerSecond: return {core::kRadToDeg, "\xc2\xb0/s"};
    default: return {1.0, core::ToString(unit)};
  }
}

std::string SaturationWarning(const ControlGauge& g) {
  const DisplayUnit unit = DisplayUnitOf(g.unit);
  return fmt::format("{} saturated: commanded {:+.1f}{}, stop \xc2\xb1{:g}{}", g.name,
                     g.commanded * unit.factor, unit.symbol,
                     g.limit ? *g.limit * unit.factor : 0.0, unit.symbol);
}

std::string RateSaturationWarning(const ControlGauge& g) {
  const DisplayUnit unit = DisplayUnitOf(g.unit);  // per second: °/s for radians
  return fmt::format("{} rate limited: asked {:+.0f}{}/s, limit \xc2\xb1{:g}{}/s", g.name,
                     g.demanded_rate * unit.factor, unit.symbol,
                     g.rate_limit ? *g.rate_limit * unit.factor : 0.0, unit.symbol);
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

std::string AttitudeExaggerationText(const HudState& h) {
  const std::string heading =
      h.heading_exaggeration != h.attitude_exaggeration
          ? fmt::format(", heading \xc3\x97{:g}", h.heading_exaggeration)
          : std::string();
  return fmt::format("attitude \xc3\x97{:g}{}{} (A)", h.attitude_exaggeration, heading,
                     h.attitude_exaggeration_auto ? " auto" : "");
}

HudModel::HudModel(const FlightSession& session, std::string aircraft_name,
                   const pilot::PilotScript* script)
    : session_(&session) {
  hud_.aircraft = std::move(aircraft_name);
  hud_.pilot = PilotLabel(script);
  GradeModes();
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
    // An actuator's stop: the bar spans it, so a bar at its end is a surface
    // at its stop.
    g.limit = session.model().position_limit(c);
    if (g.limit) g.range = *g.limit;
    g.rate_limit = session.model().rate_limit(c);
    if (auto first = pilot.first_key(c)) {
      const pilot::Key second = *pilot.second_key(c);
      g.keys = fmt::format("{} {}  \xc2\xb7  {} {}", pilot::KeyText(*first),
                           pilot::KeyEffect(*first), pilot::KeyText(second),
                           pilot::KeyEffect(second));
    }
    hud_.controls.push_back(std::move(g));
  }
}

void HudModel::GradeModes() {
  const FlightSession& s = *session_;
  ModeTable table = GradeModeTable(s.aircraft(), s.modes());
  hud_.modes = std::move(table.rows);
  hud_.qualities = std::move(table.qualities);
  graded_generation_ = s.modes_generation();
  hud_.augmentation_on.reset();
  hud_.augmentation_loops.clear();
  if (!s.augmentable()) return;
  hud_.augmentation_on = s.augmentation_on();
  const model::AircraftData& file = s.file_aircraft();
  auto loops = [&](const char* axis, const std::optional<model::AxisAugmentation>& aug) {
    if (!aug) return;
    hud_.augmentation_loops.push_back(fmt::format("{}: {}", axis, fmt::join(aug->inputs, ", ")));
  };
  loops("longitudinal", file.longitudinal_augmentation);
  loops("lateral", file.lateral_augmentation);
}

std::string NonlinearDifferenceText(const HudState::NonlinearDifference& d) {
  // A value that rounds to zero is written 0, not -0.
  auto shown = [](double v, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(v * scale) == 0.0 ? 0.0 : v;
  };
  return fmt::format("nonlinear beside (N): \xce\x94\xce\xb8 {:.1f}\xc2\xb0, \xce\x94\xcf\x86 {:.1f}\xc2\xb0, "
                     "\xce\x94V {:.1f} m/s, \xce\x94h {:.0f} m",
                     shown(core::kRadToDeg * d.theta, 1), shown(core::kRadToDeg * d.phi, 1),
                     shown(d.speed, 1), shown(d.altitude, 0));
}

namespace {

// The airspeed [m/s] of `x` (linear form): the norm of its body velocity.
double Airspeed(const sim::NonlinearModel& model, const sim::FlightState& x) {
  return sim::BodyVelocityOf(model.U0(), std::atan2(model.W0(), model.U0()), x[sim::kU], x[sim::kAlpha],
                             x[sim::kBeta])
      .norm();
}

// "φ" for "phi": the state's symbol (FlightStateSignals), else its name.
std::string SymbolOf(const std::string& name) {
  for (const core::Signal& s : sim::FlightStateSignals())
    if (s.name == name) return s.symbol;
  return name;
}

void UpdateNonlinear(const FlightSession& s, const sim::FlightState& shown,
                     const sim::FlightState& nonlinear, HudState& h) {
  h.nonlinear_difference.reset();
  h.nonlinear.clear();
  h.nonlinear_notes.clear();
  if (!s.nonlinear_wanted()) return;
  const sim::NonlinearShadow* shadow = s.shadow();
  if (shadow == nullptr) {
    if (const std::optional<std::string> why = s.nonlinear_refusal())
      h.nonlinear = "nonlinear beside (N): not flown: " + *why;
    else if (s.nonlinear_stopped()) {
      // A departure: what and when, why, then what to press; three short
      // lines (one long line ran off both sides of an 800 x 600 window).
      const std::string& stopped = *s.nonlinear_stopped();  // "WHAT at t = T s: WHY"
      const std::size_t colon = stopped.find(": ");
      h.nonlinear = "nonlinear beside (N): departed: " + stopped.substr(0, colon);
      if (colon != std::string::npos) h.nonlinear_notes.push_back(stopped.substr(colon + 2));
      h.nonlinear_notes.push_back(
          "the linear flight goes on; R: reset to trim, 1\xe2\x80\x93" "5: restart on a mode");
    }
    return;
  }
  HudState::NonlinearDifference d;
  d.theta = shown[sim::kTheta] - nonlinear[sim::kTheta];
  d.phi = shown[sim::kPhi] - nonlinear[sim::kPhi];
  d.speed = Airspeed(*s.nonlinear_model(), shown) - Airspeed(*s.nonlinear_model(), nonlinear);
  d.altitude = nonlinear[sim::kDown] - shown[sim::kDown];  // h = −down
  h.nonlinear_difference = d;
  h.nonlinear = NonlinearDifferenceText(d);
  const std::vector<sim::Parting> partings = shadow->partings();
  if (!partings.empty()) {
    std::string line = fmt::format("{} parted {:g} % at {:.1f} s", SymbolOf(partings[0].state),
                                   100 * sim::NonlinearShadow::kPartingFraction, partings[0].time);
    constexpr std::size_t kListed = 4;
    for (std::size_t i = 1; i < std::min(partings.size(), kListed); ++i)
      line += fmt::format(", {} at {:.1f} s", SymbolOf(partings[i].state), partings[i].time);
    if (partings.size() > kListed) line += fmt::format(" (+{} more)", partings.size() - kListed);
    h.nonlinear_notes.push_back(std::move(line));
  }
  for (const sim::ValidityFlag& f : shadow->monitor().flags())
    if (f.exceeded())
      h.nonlinear_notes.push_back(fmt::format(
          "nonlinear {} beyond {:g}{} at {:.1f} s", f.name == "u/U0" ? f.name : SymbolOf(f.name),
          f.name == "u/U0" ? f.limit : core::kRadToDeg * f.limit,
          f.name == "u/U0" ? "" : "\xc2\xb0", *f.first_exceeded));
}

}  // namespace

HudState& HudModel::Update(const sim::FlightState& shown, double lag,
                           const sim::FlightState* nonlinear_shown) {
  const FlightSession& s = *session_;
  HudState& h = hud_;
  if (s.modes_generation() != graded_generation_) GradeModes();
  h.time = s.slice_index() == 0 ? 0.0 : s.time() - lag;
  h.state = shown;
  h.U0 = s.model().U0();
  // The surfaces as the flight moves them: the pilot's newest command plus
  // the augmentation's in the state shown; an actuated one where its
  // actuator is (the last slice's end), which its stop and rate limit hold.
  const sim::AuxiliaryState aux = s.auxiliary_state();
  s.model().CommandedDeflections(shown, aux, s.pilot().controls(), commanded_);
  s.model().SurfaceDeflections(shown, aux, s.pilot().controls(), surfaces_);
  s.model().DemandedRates(shown, aux, s.pilot().controls(), rates_);
  for (std::size_t c = 0; c < h.controls.size(); ++c) {
    ControlGauge& g = h.controls[c];
    const auto i = static_cast<Eigen::Index>(c);
    g.value = surfaces_[i];
    g.commanded = commanded_[i];
    g.saturated = g.limit && std::abs(commanded_[i]) > *g.limit;
    g.demanded_rate = rates_[i];
    g.rate_saturated = g.rate_limit && std::abs(rates_[i]) > *g.rate_limit;
    g.range = std::max(g.range, std::abs(g.value));
  }
  h.slice_dt = s.dt();
  h.slice_cost_mean = s.slice_cost_mean();
  h.slice_cost_max = s.slice_cost_max();
  h.slices = s.slice_index();
  h.warnings = ValidityWarnings(shown, h.U0);
  for (const ControlGauge& g : h.controls) {
    if (g.saturated) h.warnings.push_back(SaturationWarning(g));
    if (g.rate_saturated) h.warnings.push_back(RateSaturationWarning(g));
  }
  h.log_path = s.csv_path();
  h.trim_pitch = s.model().theta0();
  h.pitch_attitude = h.trim_pitch + shown[sim::kTheta];
  if (const sim::DrydenTurbulence* d = s.dryden()) {
    h.turbulence = std::string(sim::ToString(*s.turbulence()));
    h.turbulence_sigma = {d->parameters().sigma_u, d->parameters().sigma_v,
                          d->parameters().sigma_w};
    h.turbulence_seed = d->seed();
    h.turbulence_altitude = s.turbulence_height().height;
    switch (s.turbulence_height().source) {
      case study::HeightSource::kGiven: h.turbulence_height_source = "--altitude"; break;
      case study::HeightSource::kFile: h.turbulence_height_source = "file"; break;
      case study::HeightSource::kDefault: h.turbulence_height_source = "default"; break;
    }
    h.wind = s.wind();
    h.turbulence_rms.clear();
    const exporting::FlightDigest& running = s.running_statistics();
    const study::RoughAirStatistics* exact = s.exact_rough_air();
    auto exact_rms = [&](model::Axis axis, const char* name) -> std::optional<double> {
      if (exact != nullptr)
        for (const study::OutputStatistics& o : exact->of(axis).outputs)
          if (o.signal.name == name) return o.rms;
      return std::nullopt;
    };
    auto degrees = [](std::optional<double> v) { return v ? std::optional(*v * core::kRadToDeg) : v; };
    h.turbulence_rms.push_back({"n_z", "g", running.rms_nz().value_or(0.0),
                                exact_rms(model::Axis::kLongitudinal, "nz")});
    h.turbulence_rms.push_back({"\xce\xb1", "\xc2\xb0", core::kRadToDeg * running.rms(sim::kAlpha),
                                degrees(exact_rms(model::Axis::kLongitudinal, "alpha"))});
    h.turbulence_rms.push_back({"\xce\xb2", "\xc2\xb0", core::kRadToDeg * running.rms(sim::kBeta),
                                degrees(exact_rms(model::Axis::kLateral, "beta"))});
    h.turbulence_rms.push_back({"\xcf\x86", "\xc2\xb0", core::kRadToDeg * running.rms(sim::kPhi),
                                degrees(exact_rms(model::Axis::kLateral, "phi"))});
    h.turbulence_rms_time = s.time();
  } else {
    h.turbulence.clear();
    h.turbulence_sigma.setZero();
    h.turbulence_seed = 0;
    h.turbulence_altitude = 0.0;
    h.turbulence_height_source.clear();
    h.wind.setZero();
    h.turbulence_rms.clear();
    h.turbulence_rms_time = 0.0;
  }
  h.amplitude_factor = s.amplitude_factor();
  h.excitation.clear();
  if (s.excitation() && s.excite_amplitude())
    h.excitation = fmt::format("{}, A = {:.3g}", ToString(*s.excitation()), *s.excite_amplitude());
  UpdateNonlinear(s, shown, nonlinear_shown ? *nonlinear_shown : s.nonlinear_state(), h);
  return h;
}

}  // namespace aerolin::viz
