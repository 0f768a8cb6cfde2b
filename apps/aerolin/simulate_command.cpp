// `aerolin simulate FILE [--script S] [--excite M [--amplitude A]] --duration T
//  [--dt Δt] [--integrator rk45|exact] [--rtol R] [--atol A] [--csv OUT] [--json]`:
// flies the linear model headless and reports what it did.

#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "analysis/modes.hpp"
#include "cli_common.hpp"
#include "export/flight_csv.hpp"
#include "export/simulation_summary.hpp"
#include "model/build.hpp"
#include "sim/excitation.hpp"
#include "sim/simulate.hpp"

namespace aerolin::cli {
namespace {

struct SimulateOptions {
  std::string file;
  std::string script;
  std::string excite;
  std::optional<double> amplitude;
  double duration = 0.0;
  double dt = 0.1;
  std::string integrator = "rk45";
  double rtol = 1e-6;
  double atol = 1e-9;
  std::string csv;
  bool json = false;
};

// The mode's eigenvector comes from analysis/ and goes to sim/ as plain Eigen
// data: the two modules are siblings and do not know each other.
sim::FlightState ExcitedState(const model::AircraftData& aircraft,
                              const std::string& spelling,
                              std::optional<double>& amplitude) {
  const std::optional<analysis::ModeKind> kind = analysis::ParseModeKind(spelling);
  if (!kind) throw std::invalid_argument("unknown mode '" + spelling + "'");
  const bool lon = *kind == analysis::ModeKind::kShortPeriod ||
                   *kind == analysis::ModeKind::kPhugoid;
  const std::vector<analysis::Mode> modes =
      lon ? analysis::AnalyzeLongitudinal(model::BuildLongitudinal(aircraft),
                                          aircraft.condition.U0)
          : analysis::AnalyzeLateral(model::BuildLateral(aircraft));
  const analysis::Mode* mode = analysis::FindMode(modes, *kind);
  if (mode == nullptr) {
    std::string have;
    for (const analysis::Mode& m : modes) have += (have.empty() ? "" : ", ") + m.full_name();
    throw std::runtime_error(aircraft.name + " has no " + analysis::ToString(*kind) +
                             " mode (its " + (lon ? "longitudinal" : "lateral") +
                             " modes: " + have + ")");
  }
  const sim::ModeAxis axis = lon ? sim::ModeAxis::kLongitudinal : sim::ModeAxis::kLateral;
  if (!amplitude)
    amplitude = sim::DefaultExcitationAmplitude(axis, mode->reference_state,
                                                aircraft.condition.U0);
  return sim::ModeInitialState(mode->shape, mode->reference_state, axis, *amplitude);
}

int RunSimulate(SimulateOptions opt) {
  sim::SimulationOptions options;
  options.slice.dt = opt.dt;
  options.slice.integrator = *sim::ParseIntegrator(opt.integrator);
  options.slice.rtol = opt.rtol;
  options.slice.atol = opt.atol;
  options.duration = opt.duration;
  try {
    sim::NumSlices(opt.duration, opt.dt);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: --duration/--dt: " << e.what() << '\n';
    return kExitUsage;
  }

  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const sim::FlightModel flight_model(aircraft);
  std::optional<sim::PilotScript> script;
  if (!opt.script.empty())
    script = sim::LoadPilotScript(opt.script, aircraft.controls, options.pilot);
  sim::FlightState x0 = sim::FlightState::Zero();
  if (!opt.excite.empty()) x0 = ExcitedState(aircraft, opt.excite, opt.amplitude);

  const sim::SimulationResult result =
      sim::Simulate(flight_model, x0, script ? &*script : nullptr, options);

  if (!opt.csv.empty()) exporting::WriteFlightCsvFile(result.log, opt.csv);
  exporting::RunDescription run;
  run.aircraft = aircraft.name;
  if (script) run.script = opt.script;
  if (!opt.excite.empty()) {
    run.excite = opt.excite;
    run.amplitude = opt.amplitude;
  }
  if (opt.json)
    std::cout << exporting::SimulationSummaryJson(result, options, run).dump(2) << '\n';
  else
    exporting::WriteSimulationSummary(std::cout, result, options, run);
  if (result.stopped) std::cerr << "warning: " << *result.stopped << '\n';
  return 0;
}

}  // namespace

void RegisterSimulateCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Fly the linear model headless in slices of --dt with the controls held\n"
      "over each slice (the seed's scheme), from a pilot script and/or a mode\n"
      "excitation; write the trajectory as CSV and print a summary.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--script", opt->script,
                  "pilot script: 't_start t_end KEY' / 't_start t_end set CONTROL VALUE' lines")
      ->check(CLI::ExistingFile);
  cmd->add_option("--excite", opt->excite, "start on this mode's eigenvector (real part)")
      ->check(CLI::IsMember({"short-period", "phugoid", "dutch-roll", "roll", "spiral"}));
  cmd->add_option("--amplitude", opt->amplitude,
                  "excitation amplitude of the mode's reference state [m/s, rad or rad/s]; "
                  "default 0.02 rad (rad/s), or 0.02 U0 if the reference state is u")
      ->needs(cmd->get_option("--excite"))
      ->check(CLI::PositiveNumber);
  cmd->add_option("--duration", opt->duration, "flight time [s], a whole number of slices")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--dt", opt->dt, "slice length [s]")
      ->default_val(0.1)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--integrator", opt->integrator,
                  "rk45 (Dormand-Prince, error-controlled) or exact (matrix exponential)")
      ->check(CLI::IsMember({"rk45", "exact"}))
      ->default_val("rk45");
  cmd->add_option("--rtol", opt->rtol, "RK45 relative tolerance")
      ->default_val(1e-6)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--atol", opt->atol, "RK45 absolute tolerance")
      ->default_val(1e-9)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--csv", opt->csv, "write the trajectory to this CSV file");
  cmd->add_flag("--json", opt->json, "print the summary as one JSON object");
  cmd->callback([opt, &action] { action = [opt] { return RunSimulate(*opt); }; });
}

}  // namespace aerolin::cli
