// `aerolin qualities`: grades the modes against MIL-F-8785C.

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/qualities_report.hpp"
#include "cli_common.hpp"

namespace aerolin::cli {
namespace {

struct QualitiesOptions {
  std::string file;
  std::string aircraft_class;
  std::string category;
  bool combat = false;
  bool json = false;
};

int RunQualities(const QualitiesOptions& opt) {
  analysis::AircraftClass aircraft_class;
  std::vector<analysis::FlightPhaseCategory> categories;
  try {
    aircraft_class = analysis::ParseAircraftClass(opt.aircraft_class);
    if (opt.category.empty())
      categories = {analysis::FlightPhaseCategory::kA, analysis::FlightPhaseCategory::kB,
                    analysis::FlightPhaseCategory::kC};
    else
      categories = {analysis::ParseFlightPhaseCategory(opt.category)};
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  const analysis::ModalSummary summary =
      analysis::SummarizeModes(modes.longitudinal, modes.lateral, aircraft);
  analysis::GradeOptions options;
  options.combat_or_ground_attack = opt.combat;
  std::vector<analysis::QualitiesGrade> grades;
  for (analysis::FlightPhaseCategory c : categories)
    grades.push_back(analysis::Grade(summary, aircraft_class, c, options));
  const exporting::QualitiesReportHeader header{opt.file, aircraft.name};
  if (opt.json)
    std::cout << exporting::QualitiesJson(header, grades) << '\n';
  else
    exporting::WriteQualitiesText(std::cout, header, grades);
  return 0;
}

}  // namespace

void RegisterQualitiesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<QualitiesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "qualities",
      "Grade the modes against MIL-F-8785C (levels 1-3; 4 = worse than Level 3).");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--class", opt->aircraft_class,
                  "airplane class: I, II-C (carrier-based), II-L (land-based), III, IV")
      ->required();
  cmd->add_option("--category", opt->category,
                  "flight-phase category A, B or C (default: grade all three)");
  cmd->add_flag("--combat", opt->combat,
                "Category A is combat or ground attack (Class IV: stricter Dutch-roll row)");
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.qualities/1)");
  cmd->callback([opt, &action] { action = [opt] { return RunQualities(*opt); }; });
}

}  // namespace aerolin::cli
