// `aerolin matrices FILE [--json] [--units si|imperial]`: the state-space matrices A and B, labelled.

#include <iostream>

#include "aerolin/export/dimensional_text.hpp"
#include "aerolin/export/matrices_json.hpp"
#include "aerolin/export/matrices_text.hpp"
#include "aerolin/model/build.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {
namespace {

struct MatricesOptions {
  std::string file;
  bool json = false;
  std::string units = "si";
};

int RunMatrices(const MatricesOptions& opt) {
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  const model::AircraftData& aircraft = load.aircraft;
  // The closed loop as every analysis sees it: washout filters' states
  // (r_washout, ...) after the airframe's (model::BuildAugmented).
  const model::StateSpace lon = model::BuildAugmented(aircraft, model::Axis::kLongitudinal);
  const model::StateSpace lat = model::BuildAugmented(aircraft, model::Axis::kLateral);
  const core::UnitSystem units = *core::ParseUnitSystem(opt.units);
  // A coefficient (or AVL) file: what its coefficients became, to compare
  // with a textbook's dimensional table.
  if (opt.json)
    std::cout << exporting::MatricesJson(aircraft, lon, lat, opt.file, units, load.from_coefficients,
                                         load.units)
              << '\n';
  else
    exporting::WriteMatricesText(std::cout, aircraft, lon, lat, opt.file, units);
  if (!opt.json && load.from_coefficients)
    exporting::WriteDimensionalDerivativesText(std::cout, *load.from_coefficients, load.units);
  if (!opt.json) WriteAvlNotes(std::cout, load);
  return 0;
}

}  // namespace

void RegisterMatricesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<MatricesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "matrices", "The longitudinal and lateral state-space matrices A and B (SI), labelled.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.matrices/2)");
  AddUnitsOption(*cmd, opt->units, "u (speed) in si (m/s) or imperial (ft/s); the rest stays SI");
  cmd->callback([opt, &action] { action = [opt] { return RunMatrices(*opt); }; });
}

}  // namespace aerolin::cli
