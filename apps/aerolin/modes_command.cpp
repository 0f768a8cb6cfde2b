// `aerolin modes FILE [--json] [--units si|imperial]`: the named dynamic modes.

#include <iostream>
#include <string>

#include "aerolin/study/closed_loop.hpp"
#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/dimensional_text.hpp"
#include "aerolin/export/modes_json.hpp"
#include "aerolin/export/modes_text.hpp"
#include "aerolin/export/tracked_report.hpp"
#include "aerolin/analysis/sensitivity.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {
namespace {

struct ModesOptions {
  std::string file;
  bool json = false;
  std::string units = "si";
  bool sensitivity = false;
  bool verbose = false;
};

int RunModes(const ModesOptions& opt) {
  if (opt.sensitivity) {
    const data::LoadResult load = LoadFileReportingWarnings(opt.file);
    const std::vector<analysis::ModeSensitivity> s = analysis::ModeSensitivities(load.file);
    if (opt.json)
      std::cout << exporting::SensitivityJson(s, opt.file) << '\n';
    else
      exporting::WriteSensitivityText(std::cout, s, opt.file);
    // The numbers left out, and why: after the table, or on stderr beside JSON.
    std::ostream& notes = OutputRouting("", opt.json, {}).notes();
    if (!load.file.omitted.empty() && !opt.json) notes << "\nNot differentiated:\n";
    for (const model::OmittedKey& k : load.file.omitted)
      notes << (opt.json ? "note: " : "  ") << k.path << ": " << k.reason << '\n';
    return 0;
  }
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  const model::AircraftData& aircraft = load.aircraft;
  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(aircraft);
  const std::vector<analysis::Approximation> approx = analysis::ClassicalApproximations(aircraft);
  const core::UnitSystem speed_units = *core::ParseUnitSystem(opt.units);
  if (opt.json)
    std::cout << exporting::ModesJson(aircraft, modes, approx, opt.file, speed_units) << '\n';
  else
    exporting::WriteModesText(std::cout, aircraft, modes, approx, opt.file, speed_units);
  if (opt.verbose && !opt.json) {
    if (load.from_coefficients)
      exporting::WriteDimensionalDerivativesText(std::cout, *load.from_coefficients, load.units);
    else
      std::cout << "\n(" << opt.file << " gives dimensional derivatives: no coefficient conversion)\n";
    WriteAvlNotes(std::cout, load);
  }
  return 0;
}

}  // namespace

void RegisterModesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<ModesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "modes", "Eigenvalues, named modes (short period, phugoid, Dutch roll, roll, spiral,\n"
               "heading), their characteristics, mode shapes and classical approximations.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.modes/2) instead of tables");
  AddUnitsOption(*cmd, opt->units,
                 "display units for speeds and g: si (m/s) or imperial (ft/s)");
  cmd->add_flag("--sensitivity", opt->sensitivity,
                "instead: dlambda/dp of every mode for every key of the file (exact, per unit\n"
                "of the key as written) and the three keys that move each mode's damping most");
  cmd->add_flag("--verbose", opt->verbose,
                "also print the dimensional derivatives a coefficient file produced\n"
                "(to compare with a textbook's dimensional table)");
  cmd->callback([opt, &action] { action = [opt] { return RunModes(*opt); }; });
}

}  // namespace aerolin::cli
