// `aerolin simulate FILE [--script S] [--excite M [--amplitude A]] --duration T
//  [--dt Δt] [--integrator rk45|exact] [--rtol R] [--atol A] [--csv OUT] [--json]`:
// flies the linear model headless and reports what it did.

#include <iostream>
#include <memory>
#include <string>

#include "cli_common.hpp"
#include "flight_inputs.hpp"
#include "aerolin/export/flight_csv.hpp"
#include "aerolin/export/simulation_summary.hpp"

namespace aerolin::cli {
namespace {

struct SimulateOptions {
  FlightInputs inputs;
  std::string csv;
  bool json = false;
};

int RunSimulate(const SimulateOptions& opt) {
  const Flight flight = Fly(opt.inputs);
  const sim::SimulationResult& result = flight.result;
  const sim::SimulationOptions& options = flight.options;
  if (!opt.csv.empty()) exporting::WriteFlightCsvFile(result.log, opt.csv);
  exporting::RunDescription run;
  run.aircraft = flight.aircraft.name;
  if (!opt.inputs.script.empty()) run.script = opt.inputs.script;
  if (!opt.inputs.excite.empty()) {
    run.excite = opt.inputs.excite;
    run.amplitude = flight.amplitude;
  }
  if (opt.json)
    std::cout << exporting::SimulationSummaryJson(result, options, run, &flight.timing) << '\n';
  else
    exporting::WriteSimulationSummary(std::cout, result, options, run, &flight.timing);
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
  AddFlightInputOptions(*cmd, opt->inputs);
  cmd->add_option("--csv", opt->csv, "write the trajectory to this CSV file");
  cmd->add_flag("--json", opt->json, "print the summary as one JSON object");
  cmd->callback([opt, &action] { action = [opt] { return RunSimulate(*opt); }; });
}

}  // namespace aerolin::cli
