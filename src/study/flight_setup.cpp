#include "aerolin/study/flight_setup.hpp"

#include "aerolin/model/build.hpp"
#include "aerolin/study/limits.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "aerolin/model/gust.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/study/start_on_mode.hpp"

namespace aerolin::study {
namespace {

bool PositiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

// Records the wind of the slice the wrapped source has just given (see
// PreparedFlight::WindOfLastSlice); allocates nothing per slice.
class WindProbe final : public sim::InputSource {
 public:
  explicit WindProbe(sim::GustInput& inner) : inner_(inner) {}
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override {
    inner_.InputForSlice(k, dt, controls, disturbance);
    mean_ = disturbance.head<4>();
    if (inner_.gusts())
      inner_.gusts()->AddMean(static_cast<double>(k) * dt, static_cast<double>(k + 1) * dt,
                              mean_);
    wind_ = mean_;
  }
  void Reset() override {
    inner_.Reset();
    wind_.setZero();
  }
  const sim::DisturbanceProfile* profile() const override { return inner_.profile(); }
  const Eigen::Vector4d& wind() const { return wind_; }

 private:
  sim::GustInput& inner_;
  Eigen::VectorXd mean_ = Eigen::VectorXd::Zero(4);
  Eigen::Vector4d wind_ = Eigen::Vector4d::Zero();
};

const Eigen::Vector4d kCalm = Eigen::Vector4d::Zero();

}  // namespace

// The input chain, heap-held so that its layers' pointers to each other
// survive moves of the PreparedFlight.
struct PreparedFlight::Chain {
  std::optional<pilot::PilotScript> script;
  std::unique_ptr<sim::InputSource> own_controls;
  sim::InputSource* controls = nullptr;
  std::optional<sim::GustInput> gusts;
  std::optional<WindProbe> probe;
};

sim::SimulationOptions FlightSpec::simulation_options() const {
  sim::SimulationOptions options;
  options.slice = slice;
  options.duration = duration;
  return options;
}

std::optional<FlightModelKind> ParseFlightModelKind(std::string_view text) {
  if (text == "linear") return FlightModelKind::kLinear;
  if (text == "nonlinear") return FlightModelKind::kNonlinear;
  if (text == "both") return FlightModelKind::kBoth;
  return std::nullopt;
}

void Validate(const FlightSpec& spec) {
  if (spec.model != FlightModelKind::kLinear && spec.windy())
    throw FlightSpecError("model",
                          "the nonlinear model flies no turbulence or gusts yet: fly them with the "
                          "linear model");
  if (!PositiveFinite(spec.slice.dt))
    throw FlightSpecError("dt", fmt::format("dt must be a finite number > 0, got {}", spec.slice.dt));
  if (!PositiveFinite(spec.slice.rtol))
    throw FlightSpecError("rtol",
                          fmt::format("rtol must be a finite number > 0, got {}", spec.slice.rtol));
  if (!PositiveFinite(spec.slice.atol))
    throw FlightSpecError("atol",
                          fmt::format("atol must be a finite number > 0, got {}", spec.slice.atol));
  if (spec.duration != 0.0) {
    try {
      CheckFlightSlices(spec.duration, spec.slice.dt);
      sim::NumSlices(spec.duration, spec.slice.dt);
    } catch (const std::invalid_argument& e) {
      throw FlightSpecError("duration", e.what());
    }
  }
  if (spec.amplitude && !PositiveFinite(*spec.amplitude))
    throw FlightSpecError("amplitude",
                          fmt::format("amplitude must be a finite number > 0, got {}",
                                      *spec.amplitude));
  if (spec.amplitude && !spec.excite)
    throw FlightSpecError("amplitude", "an amplitude needs a mode to excite");
  if (spec.excite && spec.x0)
    throw FlightSpecError("x0", "give a mode to excite or an initial state, not both");
  if (spec.excite && *spec.excite == analysis::ModeKind::kHeading)
    throw FlightSpecError("excite", "the heading mode (the psi integrator) cannot be excited");
  if (spec.x0 && !spec.x0->allFinite())
    throw FlightSpecError("x0", "the initial state must be finite");
  for (const sim::DiscreteGust& g : spec.gusts) {
    if (!std::isfinite(g.amplitude))
      throw FlightSpecError("gusts", fmt::format("a gust's amplitude must be finite, got {}",
                                                 g.amplitude));
    if (!PositiveFinite(g.length))
      throw FlightSpecError("gusts", fmt::format("a gust's length must be a finite number > 0, "
                                                 "got {}", g.length));
    if (!(std::isfinite(g.start) && g.start >= 0.0))
      throw FlightSpecError("gusts", fmt::format("a gust's start must be a finite number >= 0, "
                                                 "got {}", g.start));
  }
  if (spec.turbulence) {
    const TurbulenceSpec& t = *spec.turbulence;
    if (t.height && !(std::isfinite(*t.height) && *t.height >= 0.0))
      throw FlightSpecError("turbulence.height",
                            fmt::format("the height above ground must be a finite number >= 0, "
                                        "got {}", *t.height));
    if (t.span && !PositiveFinite(*t.span))
      throw FlightSpecError("turbulence.span",
                            fmt::format("the wing span must be a finite number > 0, got {}",
                                        *t.span));
  }
}

FlightStart StartOn(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                    analysis::ModeKind kind, std::optional<double> amplitude,
                    ModeFallback fallback) {
  // The closed loop's mode: with washout filters its eigenvector moves
  // their states too, which start in the flight's auxiliary slots.
  const std::optional<ModeStart> start =
      StartOnMode(modes.longitudinal, modes.lateral, kind, aircraft.condition.U0, amplitude,
                  FilteredAxisOf(aircraft, modes, AxisOf(kind)));
  if (!start || (fallback == ModeFallback::kExact && start->mode != kind)) {
    const bool lon = AxisOf(kind) == model::Axis::kLongitudinal;
    std::string have;
    for (const analysis::Mode& m :
         modes.modes(lon ? model::Axis::kLongitudinal : model::Axis::kLateral))
      have += (have.empty() ? "" : ", ") + m.full_name();
    throw MissingModeError(aircraft.name + " has no " + analysis::ToString(kind) +
                           " mode (its " + (lon ? "longitudinal" : "lateral") +
                           " modes: " + have + ")");
  }
  return {start->state, start->mode, start->amplitude, start->auxiliary};
}

std::string_view ToString(HeightSource source) {
  switch (source) {
    case HeightSource::kGiven: return "given";
    case HeightSource::kFile: return "[condition] altitude";
    case HeightSource::kDefault: return "default";
  }
  return "?";
}

TurbulenceHeightChoice TurbulenceHeight(const model::AircraftData& aircraft,
                                        std::optional<double> height) {
  if (height) return {*height, HeightSource::kGiven};
  if (aircraft.condition.altitude && *aircraft.condition.altitude > 0.0)
    return {*aircraft.condition.altitude, HeightSource::kFile};
  return {kDefaultTurbulenceHeight, HeightSource::kDefault};
}

PreparedFlight::PreparedFlight() : chain_(std::make_unique<Chain>()) {}
PreparedFlight::PreparedFlight(PreparedFlight&&) noexcept = default;
PreparedFlight& PreparedFlight::operator=(PreparedFlight&&) noexcept = default;
PreparedFlight::~PreparedFlight() = default;

sim::InputSource& PreparedFlight::input() {
  if (chain_->probe) return *chain_->probe;
  return *chain_->controls;
}

sim::InputSource& PreparedFlight::controls() { return *chain_->controls; }

const sim::DrydenTurbulence* PreparedFlight::turbulence() const {
  return chain_->gusts && chain_->gusts->turbulence() ? &*chain_->gusts->turbulence() : nullptr;
}

const Eigen::Vector4d& PreparedFlight::WindOfLastSlice() const {
  return chain_->probe ? chain_->probe->wind() : kCalm;
}

model::AircraftData FlownAircraft(model::AircraftData aircraft, const FlightSpec& spec) {
  return spec.bare ? model::BareAirframe(std::move(aircraft)) : aircraft;
}

PreparedFlight Prepare(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                       const FlightSpec& spec, sim::InputSource* controls) {
  Validate(spec);
  if (spec.bare && model::IsAugmented(aircraft))
    throw FlightSpecError("bare", "a bare-airframe flight of an aircraft that closes a feedback "
                                  "([augmentation]): prepare FlownAircraft(aircraft, spec)");
  PreparedFlight flight;
  flight.options_ = spec.simulation_options();
  const double U0 = aircraft.condition.U0;

  std::optional<sim::DrydenTurbulence> dryden;
  if (spec.turbulence) {
    TurbulenceSpec flown = *spec.turbulence;
    const TurbulenceHeightChoice height = TurbulenceHeight(aircraft, flown.height);
    flown.height = height.height;
    flight.height_source_ = height.source;
    if (!flown.span) flown.span = aircraft.geometry.b;
    dryden.emplace(sim::DrydenParametersAt(flown.intensity, *flown.height), U0, spec.slice.dt,
                   flown.span, flown.seed);
    flight.turbulence_flown_ = flown;
  }
  flight.model_ = spec.windy()
                      ? std::make_unique<sim::FlightModel>(aircraft,
                                                           model::BuildGustInput(aircraft))
                      : std::make_unique<sim::FlightModel>(aircraft);

  PreparedFlight::Chain& chain = *flight.chain_;
  if (controls != nullptr) {
    chain.controls = controls;
  } else if (spec.script) {
    chain.script = pilot::LoadPilotScript(*spec.script, aircraft.controls);
    chain.own_controls =
        std::make_unique<pilot::ScriptedPilot>(*chain.script, aircraft.controls, spec.slice.dt);
    chain.controls = chain.own_controls.get();
  } else {
    chain.own_controls = std::make_unique<sim::HandsOff>();
    chain.controls = chain.own_controls.get();
  }
  // After the script (as the command line always checked them).
  if (spec.excite)
    flight.start_ = StartOn(aircraft, modes, *spec.excite, spec.amplitude, spec.fallback);
  else if (spec.x0)
    flight.start_.state = *spec.x0;
  flight.options_.auxiliary0 = flight.start_.auxiliary;

  if (spec.windy()) {
    std::optional<sim::DiscreteGusts> discrete;
    if (!spec.gusts.empty()) discrete.emplace(spec.gusts, U0);
    chain.gusts.emplace(*chain.controls, std::move(dryden), std::move(discrete));
    chain.probe.emplace(*chain.gusts);
  }
  return flight;
}

GustText ParseGustText(std::string_view text_view) {
  const std::string text(text_view);
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t colon; (colon = text.find(':', from)) != std::string::npos; from = colon + 1)
    parts.push_back(text.substr(from, colon - from));
  parts.push_back(text.substr(from));
  if (parts.size() != 3 && parts.size() != 4)
    throw std::invalid_argument("expected AXIS:VM:DM[:T0] (e.g. w:10:100:2), got '" + text + "'");
  GustText gust;
  const std::optional<sim::GustAxis> axis = sim::ParseGustAxis(parts[0]);
  if (!axis)
    throw std::invalid_argument("gust axis must be u, v or w, got '" + parts[0] + "' in '" +
                                text + "'");
  gust.axis = *axis;
  auto number = [&](const std::string& part, const char* what, double lowest, bool strict) {
    char* end = nullptr;
    const double v = part.empty() ? NAN : std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(v) ||
        (strict ? !(v > lowest) : !(v >= lowest)))
      throw std::invalid_argument(std::string(what) + " must be a finite number" +
                                  (lowest == -INFINITY ? "" : strict ? " > 0" : " >= 0") +
                                  ", got '" + part + "' in '" + text + "'");
    return v;
  };
  gust.vm = number(parts[1], "VM (gust amplitude)", -INFINITY, false);
  gust.dm = number(parts[2], "DM (gust length)", 0.0, true);
  if (parts.size() == 4) gust.t0 = number(parts[3], "T0 (gust start)", 0.0, false);
  return gust;
}

const std::vector<analysis::ModeKind>& StartableModes() {
  using analysis::ModeKind;
  static const std::vector<ModeKind> kinds = {ModeKind::kShortPeriod,     ModeKind::kPhugoid,
                                              ModeKind::kDutchRoll,       ModeKind::kRollSubsidence,
                                              ModeKind::kSpiral,          ModeKind::kRollSpiral};
  return kinds;
}

const std::string& StartableModeList() {
  static const std::string list = [] {
    std::string out;
    for (analysis::ModeKind kind : StartableModes())
      out += (out.empty() ? "" : ", ") + std::string(analysis::CliName(kind));
    return out;
  }();
  return list;
}

}  // namespace aerolin::study
