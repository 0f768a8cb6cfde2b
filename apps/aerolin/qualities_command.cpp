// `aerolin qualities FILE [--class C] [--category A|B|C|all] [--combat] [--json]
//  [--plot PREFIX [--format png,svg] [--width W] [--height H]]`: grades the
// modes against MIL-F-8785C.
//
// The class and category come from the file ([aircraft] class, [condition]
// category); the flags override them. In both programs, like
// plot_command.cpp (figures.hpp): in `aerolin-plot` --plot draws the charts; in
// `aerolin`, --plot checks everything the report needs and then runs
// `aerolin-plot` with the same arguments, so `aerolin` never loads MathGL.

#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/study/closed_loop.hpp"
#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/study/mil_std_1797.hpp"
#include "aerolin/export/qualities_report.hpp"
#include "cli_options.hpp"
#include "figures.hpp"

namespace aerolin::cli {
namespace {

struct QualitiesOptions {
  std::string file;
  std::string aircraft_class;
  std::string category;
  bool combat = false;
  bool json = false;
  std::string plot;
  std::vector<std::string> formats = {"png"};
  int width = 1200;
  int height = 900;
  std::vector<std::string> actuators;  // NAME=TAU[:LIMIT_DEG[:RATE_DEG_S]]
  std::optional<double> delay;         // [s]
  double dropback_step_deg = study::kDefaultDropbackStepDeg;  // [deg]
};

// What to grade: the class and categories after the flags and the file have
// been consulted, and the aircraft.
struct Assessment {
  model::AircraftData aircraft;
  analysis::AircraftClass aircraft_class{};
  std::vector<analysis::FlightPhaseCategory> categories;
  model::CommandPath path;  // the file's [actuators], then --actuator and --delay
  study::DropbackOptions dropback;  // --dropback-step
};

// The command path: the file's, overridden by the flags (study::ResolveCommandPath).
model::CommandPath ResolvePath(const QualitiesOptions& opt, const model::AircraftData& aircraft) {
  try {
    return study::ResolveCommandPath(aircraft, opt.file, opt.actuators, opt.delay);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

Assessment Resolve(const QualitiesOptions& opt) {
  std::optional<analysis::AircraftClass> flag_class;
  std::optional<analysis::FlightPhaseCategory> flag_category;
  try {
    if (!opt.aircraft_class.empty()) flag_class = analysis::ParseAircraftClass(opt.aircraft_class);
    if (!opt.category.empty() && opt.category != "all")
      flag_category = analysis::ParseFlightPhaseCategory(opt.category);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  Assessment a;
  a.aircraft = LoadAircraftReportingWarnings(opt.file);
  a.path = ResolvePath(opt, a.aircraft);
  try {
    a.dropback.command = study::DropbackStep(opt.dropback_step_deg);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (flag_class) {
    a.aircraft_class = *flag_class;
  } else if (a.aircraft.aircraft_class) {
    a.aircraft_class = *a.aircraft.aircraft_class;
  } else {
    throw UsageError(
        "no airplane class for " + opt.file +
        ": give --class or write [aircraft] class = \"...\" in the file; MIL-F-8785C's classes "
        "are I (small, light), II-C (medium, carrier-based), II-L (medium, land-based), "
        "III (large, heavy), IV (high manoeuvrability)");
  }
  if (flag_category)
    a.categories = {*flag_category};
  else if (opt.category.empty() && a.aircraft.condition.category)
    a.categories = {*a.aircraft.condition.category};
  else
    a.categories.assign(model::kFlightPhaseCategories.begin(),
                        model::kFlightPhaseCategories.end());
  return a;
}

// The charts of --plot for `category`: per format, the short-period chart,
// then the Dutch-roll chart.
std::vector<std::string> ChartPaths(const QualitiesOptions& opt,
                                    analysis::FlightPhaseCategory category) {
  const std::string cat(analysis::ToString(category));
  std::vector<std::string> paths;
  for (const std::string& format : opt.formats) {
    paths.push_back(opt.plot + "_short_period_" + cat + "." + format);
    paths.push_back(opt.plot + "_dutch_roll_" + cat + "." + format);
  }
  return paths;
}

// The dropback chart, one per format (it does not depend on the category).
std::vector<std::string> DropbackChartPaths(const QualitiesOptions& opt) {
  std::vector<std::string> paths;
  for (const std::string& format : opt.formats) paths.push_back(opt.plot + "_dropback." + format);
  return paths;
}

// Writes the two charts of every graded category and the dropback chart;
// returns the paths.
std::vector<std::string> WriteCharts(const QualitiesOptions& opt, const Assessment& a,
                                     const analysis::ModalSummary& summary,
                                     const std::vector<analysis::QualitiesGrade>& grades,
                                     const exporting::MilStd1797Report& mil) {
  exporting::PlotOptions plot;
  plot.width_px = opt.width;
  plot.height_px = opt.height;
  plot.aircraft = a.aircraft.name;
  std::vector<std::string> paths;
  for (const analysis::QualitiesGrade& g : grades) {
    const std::vector<std::string> charts = ChartPaths(opt, g.category);
    for (std::size_t k = 0; k < charts.size(); k += 2) {
      figures::PlotShortPeriodChart(summary, g, plot, charts[k]);
      figures::PlotDutchRollChart(summary, g, plot, charts[k + 1]);
    }
    paths.insert(paths.end(), charts.begin(), charts.end());
  }
  for (const std::string& chart : DropbackChartPaths(opt)) {
    figures::PlotDropbackChart(mil, plot, chart);
    paths.push_back(chart);
  }
  return paths;
}

int RunQualities(const QualitiesOptions& opt) {
  const Assessment a = Resolve(opt);
  if (!opt.plot.empty() && !figures::InProcess()) return ReplaceWithPlotter();
  // A chart that cannot be written is a bad --plot, found before grading.
  if (!opt.plot.empty()) {
    const std::vector<std::string> inputs = AircraftInputFiles(opt.file);
    for (analysis::FlightPhaseCategory c : a.categories) CheckOutputs(ChartPaths(opt, c), inputs);
    CheckOutputs(DropbackChartPaths(opt), inputs);
  }
  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(a.aircraft);
  const analysis::ModalSummary summary =
      analysis::SummarizeModes(modes.longitudinal, modes.lateral, a.aircraft);
  analysis::GradeOptions options;
  options.combat_or_ground_attack = opt.combat;
  std::vector<analysis::QualitiesGrade> grades;
  for (analysis::FlightPhaseCategory c : a.categories)
    grades.push_back(analysis::Grade(summary, a.aircraft_class, c, options));
  const exporting::QualitiesReportHeader header{
      opt.file, a.aircraft.name, model::IsAugmented(a.aircraft)};
  const exporting::MilStd1797Report mil =
      exporting::AssessForReport(a.aircraft, a.path, a.aircraft_class, a.categories, a.dropback);
  if (opt.json) {
    std::cout << exporting::QualitiesJson(header, grades, &mil) << '\n';
  } else {
    exporting::WriteQualitiesText(std::cout, header, grades);
    exporting::WriteMilStd1797Text(std::cout, mil);
  }
  if (!opt.plot.empty()) {
    // With --json the paths go to stderr, so stdout stays one JSON document.
    std::ostream& out = OutputRouting("", opt.json, {}).notes();
    if (!opt.json) out << '\n';
    for (const std::string& path : WriteCharts(opt, a, summary, grades, mil))
      out << "figure: " << path << '\n';
  }
  return 0;
}

}  // namespace

void RegisterQualitiesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<QualitiesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "qualities",
      "Grade the modes against MIL-F-8785C (levels 1-3; 4 = worse than Level 3).\n"
      "The class and category are read from the file ([aircraft] class, [condition]\n"
      "category) unless the flags give them; with no category, all three are graded.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--class", opt->aircraft_class,
                  "airplane class: I, II-C (carrier-based), II-L (land-based), III, IV\n"
                  "(overrides [aircraft] class)")
      ->check(NonEmpty("an airplane class (I, II-C, II-L, III, IV)"));
  cmd->add_option("--category", opt->category,
                  "flight-phase category A, B, C, or all (overrides [condition] category;\n"
                  "default: the file's, else all three)")
      ->check(NonEmpty("a category (A, B, C or all)"));
  cmd->add_flag("--combat", opt->combat,
                "Category A is combat or ground attack (Class IV: stricter Dutch-roll row)");
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.qualities/1)");
  cmd->add_option("--plot", opt->plot,
                  "also write the charts PREFIX_short_period_<cat> (omega_n vs n/alpha) and\n"
                  "PREFIX_dutch_roll_<cat> (zeta vs omega_n) for each graded category, and\n"
                  "PREFIX_dropback (Gibson's dropback chart)")->check(OutputPathValidator());
  cmd->add_option("--actuator", opt->actuators,
                  "NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]]: a first-order actuator on control NAME\n"
                  "for the MIL-STD-1797A criteria (repeatable; replaces the file's [actuators] NAME)");
  cmd->add_option("--delay", opt->delay,
                  "pure time delay of every command [s] for the MIL-STD-1797A criteria\n"
                  "(replaces [actuators] delay_s)");
  cmd->add_option("--dropback-step", opt->dropback_step_deg,
                  "nose-up elevator step of the dropback test [deg] (default 1; it matters\n"
                  "only when it drives an actuator into its limits)");
  AddFigureOptions(*cmd, opt->formats, opt->width, opt->height);
  cmd->callback([opt, &action] { action = [opt] { return RunQualities(*opt); }; });
}

}  // namespace aerolin::cli
