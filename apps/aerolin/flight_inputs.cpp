#include "flight_inputs.hpp"
#include "aerolin/study/limits.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/trim.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {

void AddFlightInputOptions(CLI::App& cmd, FlightInputs& inputs) {
  AddAircraftFileArgument(cmd, inputs.file);
  cmd.add_option("--script", inputs.script,
                 "pilot script: 't_start t_end KEY' / 't_start t_end set CONTROL VALUE' lines")
      ->check(CLI::ExistingFile);
  cmd.add_option("--excite", inputs.excite, "start on this mode's eigenvector (real part)")
      ->check(CLI::IsMember(StartableModeNames()));
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
                 "height above ground for --turbulence [file's length unit]; " +
                     std::string(study::kTurbulenceHeightRule))
      ->needs(cmd.get_option("--turbulence"))
      ->check(NonNegativeFinite());
  cmd.add_option("--seed", inputs.seed,
                 "turbulence random seed (same seed and flags: the same flight, bit for bit)")
      ->needs(cmd.get_option("--turbulence"))
      ->default_val(study::kDefaultTurbulenceSeed)
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
            try {
              study::ParseGustText(input);
              return {};
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
          },
          "AXIS:VM:DM[:T0]"));
  cmd.add_flag("--bare", inputs.bare,
               "fly the bare airframe: FILE's [augmentation] sections off (as the window's G key)");
}

void AddModelOption(CLI::App& cmd, FlightInputs& inputs, const std::string& both_does) {
  cmd.add_option("--model", inputs.model,
                 "linear (default), nonlinear (the 6-DOF model of docs/nonlinear.md from the same\n"
                 "inputs) or both (" + both_does + "); no turbulence or gusts with nonlinear")
      ->transform(CLI::IsMember({"linear", "nonlinear", "both"}));
}

std::vector<std::string> InputFiles(const FlightInputs& inputs) {
  std::vector<std::string> files = AircraftInputFiles(inputs.file);
  if (!inputs.script.empty()) files.push_back(inputs.script);
  return files;
}

study::FlightSpec FlightSpecOf(const FlightInputs& inputs, core::UnitSystem units) {
  study::FlightSpec spec;
  spec.slice.dt = inputs.dt;
  spec.slice.integrator = *sim::ParseIntegrator(inputs.integrator);
  spec.slice.rtol = inputs.rtol;
  spec.slice.atol = inputs.atol;
  spec.duration = inputs.duration;
  if (!inputs.excite.empty()) spec.excite = analysis::ParseModeKind(inputs.excite);
  spec.amplitude = inputs.amplitude;
  spec.fallback = study::ModeFallback::kExact;
  if (!inputs.turbulence.empty()) {
    study::TurbulenceSpec& t = spec.turbulence.emplace();
    t.intensity = *sim::ParseTurbulenceIntensity(inputs.turbulence);
    if (inputs.altitude) t.height = core::ToSI(*inputs.altitude, units, core::kLength);
    t.seed = inputs.seed;
  }
  for (const std::string& text : inputs.gusts) {
    study::GustText gust;
    try {
      gust = study::ParseGustText(text);
    } catch (const std::invalid_argument& e) {
      throw UsageError("--gust: " + std::string(e.what()));
    }
    spec.gusts.push_back({gust.axis, core::ToSI(gust.vm, units, core::kSpeed),
                          core::ToSI(gust.dm, units, core::kLength), gust.t0});
  }
  if (!inputs.script.empty()) spec.script = inputs.script;
  spec.bare = inputs.bare;
  spec.model = *study::ParseFlightModelKind(inputs.model);
  return spec;
}

namespace {

// Keeps `to` at the prepared flight's wind of the last slice before each row
// reaches `inner` (see WindProbe).
class WindUpdating final : public sim::FlightRecorder {
 public:
  WindUpdating(sim::FlightRecorder& inner, const Eigen::Vector4d& from, Eigen::Vector4d& to)
      : inner_(inner), from_(from), to_(to) {}
  void Begin(const std::vector<std::string>& control_names) override {
    inner_.Begin(control_names);
  }
  void WatchSurfaces(const Eigen::VectorXd* surfaces) override { inner_.WatchSurfaces(surfaces); }
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override {
    to_ = from_;
    inner_.Record(t, x, controls);
  }

 private:
  sim::FlightRecorder& inner_;
  const Eigen::Vector4d& from_;
  Eigen::Vector4d& to_;
};

}  // namespace

std::string DepartureNote(const std::string& departed, bool csv) {
  return "nonlinear flight departed (" + departed + "): it stops there, the linear flight goes on" +
         (csv ? " (the CSV's nl_ and d_ columns are empty from then on)" : "");
}

Flight Fly(const FlightInputs& inputs, sim::FlightRecorder* recorder, WindProbe* wind,
           const std::function<void(const model::AircraftData&)>& before_flying,
           sim::FlightRecorder* nonlinear) {
  try {
    study::CheckFlightSlices(inputs.duration, inputs.dt);
    sim::NumSlices(inputs.duration, inputs.dt);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--duration/--dt: " + std::string(e.what()));
  }
  Flight flight;
  data::LoadResult load = LoadFileReportingWarnings(inputs.file);
  data::RequireFlyable(load);
  const study::FlightSpec spec = FlightSpecOf(inputs, load.units);
  try {
    study::Validate(spec);
  } catch (const study::FlightSpecError& e) {
    if (e.field() != "model") throw;  // Prepare's message, as before
    throw UsageError("--model " + inputs.model + ": " + e.what());
  }
  flight.aircraft = study::FlownAircraft(std::move(load.aircraft), spec);
  analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(flight.aircraft);
  std::optional<study::PreparedFlight> prepared;
  prepared.emplace(study::Prepare(flight.aircraft, modes, spec));
  flight.longitudinal_modes = std::move(modes.longitudinal);
  flight.lateral_modes = std::move(modes.lateral);
  flight.options = prepared->options();
  flight.amplitude = prepared->start().amplitude ? prepared->start().amplitude : inputs.amplitude;
  if (spec.windy()) {
    exporting::GustDescription& described = flight.gusts.emplace();
    if (const std::optional<study::TurbulenceSpec>& flown = prepared->turbulence_flown()) {
      exporting::TurbulenceDescription t;
      t.intensity = flown->intensity;
      t.altitude = *flown->height;
      t.seed = flown->seed;
      t.parameters = prepared->turbulence()->parameters();
      t.span = flown->span;
      if (t.span) t.sigma_p = prepared->turbulence()->sigma_p();
      described.turbulence = t;
    }
    described.discrete = spec.gusts;
  }
  if (before_flying) before_flying(flight.aircraft);
  std::optional<WindUpdating> with_wind;
  if (recorder != nullptr && wind != nullptr) {
    wind->wind.setZero();
    recorder = &with_wind.emplace(*recorder, prepared->WindOfLastSlice(), wind->wind);
  }
  // The nonlinear model beside the linear flight, from the same inputs,
  // starting at the same state, at the file's altitude (the density's reference).
  std::optional<sim::NonlinearShadow> shadow;
  if (spec.model != study::FlightModelKind::kLinear) {
    if (recorder == nullptr) throw UsageError("--model " + inputs.model + " needs a streaming flight");
    if (model::IsAugmented(flight.aircraft))
      throw UsageError("--model " + inputs.model + ": " + inputs.file +
                       " closes feedback loops ([augmentation]), which the nonlinear model does "
                       "not fly yet: add --bare");
    if (!flight.aircraft.command_path.actuators.empty())
      throw UsageError("--model " + inputs.model + ": " + inputs.file +
                       " gives control surfaces actuators ([actuators]), which the nonlinear model "
                       "does not fly yet: fly it with --model linear");
    const bool both = spec.model == study::FlightModelKind::kBoth;
    shadow.emplace(sim::NonlinearModel(flight.aircraft), spec.slice, prepared->x0(),
                   study::ReferenceRequest(flight.aircraft).altitude, both ? recorder : nullptr,
                   both ? nonlinear : recorder);
    recorder = &*shadow;
  }
  flight.result =
      recorder ? sim::Simulate(prepared->model(), prepared->x0(), prepared->input(),
                               flight.options, *recorder, &flight.timing)
               : sim::Simulate(prepared->model(), prepared->x0(), prepared->input(),
                               flight.options, &flight.timing);
  if (shadow) {
    flight.partings = shadow->partings();
    flight.table_departures = shadow->table_departures();
    flight.departed = shadow->departed();
    if (spec.model == study::FlightModelKind::kNonlinear) {
      flight.result.validity = shadow->monitor().flags();
      // The flight written is the nonlinear one: it stopped where it departed.
      if (flight.departed) flight.result.stopped = *flight.departed + "; run stopped";
    }
  }
  return flight;
}

}  // namespace aerolin::cli
