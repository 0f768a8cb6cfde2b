// `aerolin modes FILE [--json] [--units si|imperial]`: the named dynamic modes.

#include <iostream>
#include <string>

#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/modes_json.hpp"
#include "aerolin/export/modes_text.hpp"
#include "cli_common.hpp"

namespace aerolin::cli {
namespace {

struct ModesOptions {
  std::string file;
  bool json = false;
  std::string units = "si";
};

int RunModes(const ModesOptions& opt) {
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  const std::vector<analysis::Approximation> approx = analysis::ClassicalApproximations(aircraft);
  const core::UnitSystem speed_units =
      opt.units == "imperial" ? core::UnitSystem::kImperial : core::UnitSystem::kSI;
  if (opt.json)
    std::cout << exporting::ModesJson(aircraft, modes, approx, opt.file, speed_units) << '\n';
  else
    exporting::WriteModesText(std::cout, aircraft, modes, approx, opt.file, speed_units);
  return 0;
}

}  // namespace

void RegisterModesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<ModesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "modes", "Eigenvalues, named modes (short period, phugoid, Dutch roll, roll, spiral,\n"
               "heading), their characteristics, mode shapes and classical approximations.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.modes/1) instead of tables");
  cmd->add_option("--units", opt->units, "display units for speeds: si (m/s) or imperial (ft/s)")
      ->check(CLI::IsMember({"si", "imperial"}))
      ->default_val("si");
  cmd->callback([opt, &action] { action = [opt] { return RunModes(*opt); }; });
}

}  // namespace aerolin::cli
