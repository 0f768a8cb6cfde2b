// aerolin: linearized small-perturbation flight-stability analyzer (CLI).
// Wiring only: each subcommand is registered from its own *_command.cpp.

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "cli_common.hpp"
#include "aerolin/core/error.hpp"


int main(int argc, char** argv) {
  using namespace aerolin;
  CLI::App app{
      "aerolin: linearized small-perturbation flight-stability analyzer.\n"
      "Builds the longitudinal and lateral-directional state-space models of an\n"
      "aircraft from its stability derivatives, names its dynamic modes, and flies\n"
      "the linear model.",
      "aerolin"};
  app.require_subcommand(1);
  cli::Action action;
  cli::RegisterModesCommand(app, action);
  cli::RegisterMatricesCommand(app, action);
  cli::RegisterSimulateCommand(app, action);
  cli::RegisterPlotCommand(app, action);
  cli::RegisterQualitiesCommand(app, action);
  cli::RegisterSweepCommand(app, action);
  cli::RegisterLocusCommand(app, action);
  cli::RegisterTfCommand(app, action);
  cli::RegisterBodeCommand(app, action);
  cli::SetCommandLine(argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints and returns 0; any other parse error is a usage error (2).
    const int code = app.exit(e);
    return code == 0 ? 0 : cli::kExitUsage;
  }
  try {
    return action ? action() : cli::kExitUsage;
  } catch (const cli::UsageError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return cli::kExitUsage;
  } catch (const core::DataError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return cli::kExitData;
  } catch (const core::NumericalError& e) {
    std::cerr << "error: numerical failure: " << e.what() << '\n';
    return cli::kExitData;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return cli::kExitData;
  }
}
