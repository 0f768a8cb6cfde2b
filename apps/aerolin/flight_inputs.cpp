#include "flight_inputs.hpp"

#include <memory>
#include <stdexcept>

#include "cli_common.hpp"
#include "aerolin/model/build.hpp"
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
}

std::vector<std::string> InputFiles(const FlightInputs& inputs) {
  std::vector<std::string> files = {inputs.file};
  if (!inputs.script.empty()) files.push_back(inputs.script);
  return files;
}

Flight Fly(const FlightInputs& inputs, sim::FlightRecorder* recorder) {
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
  flight.aircraft = LoadAircraftReportingWarnings(inputs.file);
  analysis::ModalAnalysis modes = analysis::AnalyzeModes(flight.aircraft);
  flight.longitudinal_modes = std::move(modes.longitudinal);
  flight.lateral_modes = std::move(modes.lateral);

  const sim::FlightModel flight_model(flight.aircraft);
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
  flight.result = recorder
                      ? sim::Simulate(flight_model, x0, *input, options, *recorder, &flight.timing)
                      : sim::Simulate(flight_model, x0, *input, options, &flight.timing);
  return flight;
}

}  // namespace aerolin::cli
