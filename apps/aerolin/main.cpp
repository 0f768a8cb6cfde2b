// aerolin: linearized small-perturbation flight-stability analyzer (CLI).
// Wiring only: each subcommand is registered from its own *_command.cpp.

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "cli_common.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/study/limits.hpp"


namespace {

// "modes, matrices, ..." in registration order.
std::string CommandNames(const CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands({}))
    names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

// The subcommand spelled `name`, or null.
CLI::App* FindCommand(CLI::App& app, const std::string& name) {
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == name) return sub;
  return nullptr;
}

int UnknownCommand(const CLI::App& app, const std::string& name) {
  std::cerr << "error: unknown command '" << name << "' (commands: " << CommandNames(app)
            << "; aerolin help COMMAND describes one)\n";
  return aerolin::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace aerolin;
  CLI::App app{
      "aerolin: linearized small-perturbation flight-stability analyzer.\n"
      "Builds the longitudinal and lateral-directional state-space models of an\n"
      "aircraft from its stability derivatives, names its dynamic modes, and flies\n"
      "the linear model.\n"
      "The manual: docs/README.md in the source repository, one page per command and subject.",
      "aerolin"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "aerolin " AEROLIN_VERSION, "print the version and exit");
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
  cli::RegisterRmsCommand(app, action);
  cli::RegisterAugmentCommand(app, action);
  cli::RegisterTrimCommand(app, action);
  cli::RegisterLinearizeCommand(app, action);
  cli::RegisterIdentifyCommand(app, action);
  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Describe aerolin, or COMMAND and its options.");
  help->add_option("COMMAND", help_topic, "the command to describe");
  help->callback([&] {
    action = [&]() -> int {
      // App::help() would describe the selected subcommand, `help` itself;
      // these are the texts of `aerolin --help` and `aerolin COMMAND --help`.
      if (help_topic.empty()) {
        std::cout << app.get_formatter()->make_help(&app, "aerolin", CLI::AppFormatMode::Normal);
        return 0;
      }
      CLI::App* command = FindCommand(app, help_topic);
      if (command == nullptr || command == help) return UnknownCommand(app, help_topic);
      std::cout << command->help("aerolin");
      return 0;
    };
  });
  cli::KeepStandardOutputErrors();
  cli::SetCommandLine(argc, argv);
  // CLI11 reads an unknown first word as a stray positional and then
  // complains that a subcommand is required; name the word instead.
  if (argc > 1 && argv[1][0] != '-' && FindCommand(app, argv[1]) == nullptr)
    return UnknownCommand(app, argv[1]);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints and returns 0; any other parse error is a usage error (2).
    const int code = app.exit(e);
    return code == 0 ? cli::FinishStandardOutput(0) : cli::kExitUsage;
  }
  core::RemoveTemporaryOutputsOnSignals();
  try {
    const int code = action ? action() : cli::kExitUsage;
    return cli::FinishStandardOutput(code);
  } catch (const study::LimitError& e) {  // the library's limits, aerolin/study/limits.hpp
    std::cerr << "error: " << e.what() << '\n';
    return cli::kExitUsage;
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
