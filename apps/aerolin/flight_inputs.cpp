#include "flight_inputs.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "cli_common.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/sim/gust_input.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/study/start_on_mode.hpp"

namespace aerolin::cli {
namespace {

// The start on the mode spelled `spelling`. Unlike the flight window, the
// command line does not fall back from roll or spiral to the roll-spiral
// oscillation: it asks for that by name.
sim::FlightState ExcitedState(const Flight& flight, const std::string& spelling,
                              std::optional<double>& amplitude) {
  const std::optional<analysis::ModeKind> kind = analysis::ParseModeKind(spelling);
  if (!kind) throw std::invalid_argument("unknown mode '" + spelling + "'");
  const std::optional<study::ModeStart> start =
      study::StartOnMode(flight.longitudinal_modes, flight.lateral_modes, *kind,
                         flight.aircraft.condition.U0, amplitude);
  if (!start || start->mode != *kind) {
    const bool lon = *kind == analysis::ModeKind::kShortPeriod ||
                     *kind == analysis::ModeKind::kPhugoid;
    const std::vector<analysis::Mode>& modes =
        lon ? flight.longitudinal_modes : flight.lateral_modes;
    std::string have;
    for (const analysis::Mode& m : modes) have += (have.empty() ? "" : ", ") + m.full_name();
    throw std::runtime_error(flight.aircraft.name + " has no " + analysis::ToString(*kind) +
                             " mode (its " + (lon ? "longitudinal" : "lateral") +
                             " modes: " + have + ")");
  }
  amplitude = start->amplitude;
  return start->state;
}

// One --gust AXIS:VM:DM[:T0], in the file's units (VM speed, DM length).
struct GustSpec {
  sim::GustAxis axis = sim::GustAxis::kW;
  double vm = 0.0, dm = 0.0, t0 = 0.0;
};

// Parses `text`; returns the problem (empty if none) in `error`.
GustSpec ParseGustSpec(const std::string& text, std::string& error) {
  GustSpec spec;
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t colon; (colon = text.find(':', from)) != std::string::npos; from = colon + 1)
    parts.push_back(text.substr(from, colon - from));
  parts.push_back(text.substr(from));
  if (parts.size() != 3 && parts.size() != 4) {
    error = "expected AXIS:VM:DM[:T0] (e.g. w:10:100:2), got '" + text + "'";
    return spec;
  }
  const std::optional<sim::GustAxis> axis = sim::ParseGustAxis(parts[0]);
  if (!axis) {
    error = "gust axis must be u, v or w, got '" + parts[0] + "' in '" + text + "'";
    return spec;
  }
  spec.axis = *axis;
  auto number = [&](const std::string& part, const char* what, double lowest, bool strict,
                    double& out) {
    if (!error.empty()) return;
    char* end = nullptr;
    const double v = part.empty() ? NAN : std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size() || !std::isfinite(v) ||
        (strict ? !(v > lowest) : !(v >= lowest))) {
      error = std::string(what) + " must be a finite number" +
              (lowest == -INFINITY ? "" : strict ? " > 0" : " >= 0") + ", got '" + part +
              "' in '" + text + "'";
      return;
    }
    out = v;
  };
  number(parts[1], "VM (gust amplitude)", -INFINITY, false, spec.vm);
  number(parts[2], "DM (gust length)", 0.0, true, spec.dm);
  if (parts.size() == 4) number(parts[3], "T0 (gust start)", 0.0, false, spec.t0);
  return spec;
}

// Records the wind of the slice the wrapped source has just given (see
// WindProbe); allocates nothing per slice.
class WindRecordingInput final : public sim::InputSource {
 public:
  WindRecordingInput(sim::GustInput& inner, WindProbe& probe) : inner_(inner), probe_(probe) {}
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override {
    inner_.InputForSlice(k, dt, controls, disturbance);
    mean_ = disturbance.head<4>();
    if (inner_.gusts())
      inner_.gusts()->AddMean(static_cast<double>(k) * dt, static_cast<double>(k + 1) * dt,
                              mean_);
    probe_.wind = mean_;
  }
  void Reset() override {
    inner_.Reset();
    probe_.wind.setZero();
  }
  const sim::DisturbanceProfile* profile() const override { return inner_.profile(); }

 private:
  sim::GustInput& inner_;
  WindProbe& probe_;
  Eigen::VectorXd mean_ = Eigen::VectorXd::Zero(4);
};

}  // namespace

void AddFlightInputOptions(CLI::App& cmd, FlightInputs& inputs) {
  AddAircraftFileArgument(cmd, inputs.file);
  cmd.add_option("--script", inputs.script,
                 "pilot script: 't_start t_end KEY' / 't_start t_end set CONTROL VALUE' lines")
      ->check(CLI::ExistingFile);
  cmd.add_option("--excite", inputs.excite, "start on this mode's eigenvector (real part)")
      ->check(CLI::IsMember(
          {"short-period", "phugoid", "dutch-roll", "roll", "spiral", "roll-spiral"}));
  cmd.add_option("--amplitude", inputs.amplitude,
                 "excitation amplitude of the mode's reference state [m/s, rad or rad/s]; "
                 "default 0.02 rad (rad/s), or 0.02 U0 if the reference state is u")
      ->needs(cmd.get_option("--excite"))
      ->check(PositiveFinite());
  cmd.add_option("--duration", inputs.duration, "flight time [s], a whole number of slices")
      ->required()
      ->check(PositiveFinite());
  cmd.add_option("--dt", inputs.dt, "slice length [s]")->default_val(0.1)->check(PositiveFinite());
  cmd.add_option("--integrator", inputs.integrator,
                 "rk45 (Dormand-Prince, error-controlled) or exact (matrix exponential)")
      ->check(CLI::IsMember({"rk45", "exact"}))
      ->default_val("rk45");
  cmd.add_option("--rtol", inputs.rtol, "RK45 relative tolerance")
      ->default_val(1e-6)
      ->check(PositiveFinite());
  cmd.add_option("--atol", inputs.atol, "RK45 absolute tolerance")
      ->default_val(1e-9)
      ->check(PositiveFinite());
  cmd.add_option("--turbulence", inputs.turbulence,
                 "fly through MIL-F-8785C Dryden turbulence: light, moderate or severe")
      ->check(CLI::IsMember({"light", "moderate", "severe"}));
  cmd.add_option("--altitude", inputs.altitude,
                 "height above ground for --turbulence [file's length unit]; default "
                 "[condition] altitude")
      ->needs(cmd.get_option("--turbulence"))
      ->check(NonNegativeFinite());
  cmd.add_option("--seed", inputs.seed,
                 "turbulence random seed (same seed and flags: the same flight, bit for bit)")
      ->needs(cmd.get_option("--turbulence"))
      ->default_val(FlightInputs::kDefaultSeed)
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            // Digits only: CLI11 would wrap "-1" to 2^64 - 1.
            const bool digits = !input.empty() && input.size() <= 20 &&
                                input.find_first_not_of("0123456789") == std::string::npos;
            errno = 0;
            if (!digits || (std::strtoull(input.c_str(), nullptr, 10), errno == ERANGE))
              return "expected an integer from 0 to 18446744073709551615, got '" + input + "'";
            return {};
          },
          "N"));
  cmd.add_option("--gust", inputs.gusts,
                 "a discrete 1 - cos gust AXIS:VM:DM[:T0]: axis u, v or w, peak VM [file's "
                 "speed unit], length DM [file's length unit], start T0 [s] (default 0); "
                 "repeatable")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            std::string error;
            ParseGustSpec(input, error);
            return error;
          },
          "AXIS:VM:DM[:T0]"));
}

std::vector<std::string> InputFiles(const FlightInputs& inputs) {
  std::vector<std::string> files = {inputs.file};
  if (!inputs.script.empty()) files.push_back(inputs.script);
  return files;
}

Flight Fly(const FlightInputs& inputs, sim::FlightRecorder* recorder, WindProbe* wind,
           const std::function<void(const model::AircraftData&)>& before_flying) {
  Flight flight;
  sim::SimulationOptions& options = flight.options;
  options.slice.dt = inputs.dt;
  options.slice.integrator = *sim::ParseIntegrator(inputs.integrator);
  options.slice.rtol = inputs.rtol;
  options.slice.atol = inputs.atol;
  options.duration = inputs.duration;
  try {
    sim::NumSlices(inputs.duration, inputs.dt);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--duration/--dt: " + std::string(e.what()));
  }
  data::LoadResult load = LoadFileReportingWarnings(inputs.file);
  flight.aircraft = std::move(load.aircraft);
  analysis::ModalAnalysis modes = analysis::AnalyzeModes(flight.aircraft);
  flight.longitudinal_modes = std::move(modes.longitudinal);
  flight.lateral_modes = std::move(modes.lateral);

  const model::AircraftData& aircraft = flight.aircraft;
  std::optional<sim::DrydenTurbulence> turbulence;
  std::optional<sim::DiscreteGusts> discrete;
  if (inputs.has_gusts()) {
    exporting::GustDescription& described = flight.gusts.emplace();
    if (!inputs.turbulence.empty()) {
      std::optional<double> altitude = aircraft.condition.altitude;
      if (inputs.altitude) altitude = core::ToSI(*inputs.altitude, load.units, core::kLength);
      if (!altitude)
        throw UsageError("--turbulence needs the height above ground: give --altitude H (in " +
                         inputs.file + "'s length unit) or [condition] altitude in " +
                         inputs.file);
      exporting::TurbulenceDescription t;
      t.intensity = *sim::ParseTurbulenceIntensity(inputs.turbulence);
      t.altitude = *altitude;
      t.seed = inputs.seed;
      t.parameters = sim::DrydenParametersAt(t.intensity, t.altitude);
      t.span = aircraft.geometry.b;
      turbulence.emplace(t.parameters, aircraft.condition.U0, inputs.dt, t.span, t.seed);
      if (t.span) t.sigma_p = turbulence->sigma_p();
      described.turbulence = t;
    }
    if (!inputs.gusts.empty()) {
      for (const std::string& text : inputs.gusts) {
        std::string error;
        const GustSpec spec = ParseGustSpec(text, error);
        if (!error.empty()) throw UsageError("--gust: " + error);
        described.discrete.push_back({spec.axis, core::ToSI(spec.vm, load.units, core::kSpeed),
                                      core::ToSI(spec.dm, load.units, core::kLength), spec.t0});
      }
      discrete.emplace(described.discrete, aircraft.condition.U0);
    }
  }
  const sim::FlightModel flight_model =
      inputs.has_gusts() ? sim::FlightModel(aircraft, model::BuildGustInput(aircraft))
                         : sim::FlightModel(aircraft);
  std::optional<pilot::PilotScript> script;
  if (!inputs.script.empty())
    script = pilot::LoadPilotScript(inputs.script, flight.aircraft.controls);
  sim::FlightState x0 = sim::FlightState::Zero();
  flight.amplitude = inputs.amplitude;
  if (!inputs.excite.empty()) x0 = ExcitedState(flight, inputs.excite, flight.amplitude);
  std::unique_ptr<sim::InputSource> input;
  if (script)
    input = std::make_unique<pilot::ScriptedPilot>(*script, flight.aircraft.controls, inputs.dt);
  else
    input = std::make_unique<sim::HandsOff>();
  std::optional<sim::GustInput> gust_input;
  std::optional<WindProbe> own_probe;
  std::optional<WindRecordingInput> probed;
  if (inputs.has_gusts()) {
    gust_input.emplace(*input, std::move(turbulence), std::move(discrete));
    probed.emplace(*gust_input, wind ? *wind : own_probe.emplace());
  }
  sim::InputSource& source = probed ? static_cast<sim::InputSource&>(*probed) : *input;
  if (before_flying) before_flying(flight.aircraft);
  flight.result = recorder
                      ? sim::Simulate(flight_model, x0, source, options, *recorder, &flight.timing)
                      : sim::Simulate(flight_model, x0, source, options, &flight.timing);
  return flight;
}

}  // namespace aerolin::cli
