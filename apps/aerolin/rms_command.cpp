// `aerolin rms FILE --turbulence light|moderate|severe [--height H] [--dt DT]
//  [--json] [--plot PREFIX [--format F,...] [--plot-width W --plot-height H]]`: exact
// rough-air statistics (study/rough_air.hpp); the figure of the RMS against
// height for the three intensities (export/plot_rough_air.hpp).

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/export/rough_air_report.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/rough_air.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "figures.hpp"

namespace aerolin::cli {
namespace {

struct RmsOptions {
  std::string file;
  std::string turbulence;
  std::optional<double> height;  ///< [file's length unit]
  double dt = study::RoughAirSpec{}.dt;
  bool json = false;
  std::string plot;
  std::vector<std::string> formats = {"png"};
  int width = 1200, height_px = 900;
};

int RunRms(const RmsOptions& opt) {
  if (!opt.plot.empty() && !figures::InProcess()) return ReplaceWithPlotter();
  // A figure that cannot be written is a bad --plot, found before computing.
  if (!opt.plot.empty()) {
    const std::vector<std::string> inputs = AircraftInputFiles(opt.file);
    for (const std::string& format : opt.formats)
      CheckOutputs(figures::RoughAirFigurePaths(opt.plot, format), inputs);
  }
  CheckFormatsHavePlot(opt.formats, opt.plot);
  data::LoadResult load = LoadFileReportingWarnings(opt.file);
  const model::AircraftData& aircraft = load.aircraft;
  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(aircraft);  // washout filters' states too
  study::RoughAirSpec spec;
  spec.turbulence.intensity = *sim::ParseTurbulenceIntensity(opt.turbulence);
  if (opt.height) spec.turbulence.height = core::ToSI(*opt.height, load.units, core::kLength);
  spec.dt = opt.dt;
  study::RoughAirStatistics stats;
  try {
    stats = study::ExactRoughAirStatistics(aircraft, modes, spec);
  } catch (const study::FlightSpecError& e) {
    throw UsageError(e.what());
  }
  if (opt.json)
    std::cout << exporting::RoughAirJson(aircraft, opt.file, stats) << '\n';
  else
    exporting::WriteRoughAirText(std::cout, aircraft, stats);
  if (!opt.plot.empty()) {
    const study::RoughAirProfile profile = study::RoughAirHeightProfile(aircraft, modes, spec);
    exporting::PlotOptions plot;
    plot.aircraft = aircraft.name;
    plot.width_px = opt.width;
    plot.height_px = opt.height_px;
    for (const std::string& format : opt.formats)
      for (const std::string& f : figures::RoughAirFigurePaths(opt.plot, format)) {
        figures::PlotRoughAir(profile, stats, plot, f);
        std::cerr << f << '\n';
      }
  }
  return 0;
}

}  // namespace

void RegisterRmsCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<RmsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "rms",
      "Exact rough-air statistics, no Monte Carlo: the RMS of every state and of nz,\n"
      "gamma and ay in Dryden turbulence with the controls fixed, the RMS of their\n"
      "rates and their zero up-crossings per second (Rice's formula gives how often a\n"
      "level is exceeded). The flight simulate flies, sampled every --dt.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--turbulence", opt->turbulence,
                  "MIL-F-8785C Dryden turbulence: light, moderate or severe")
      ->required()
      ->check(CLI::IsMember({"light", "moderate", "severe"}));
  cmd->add_option("--height,--altitude", opt->height,
                  "height above ground [file's length unit]; " +
                      std::string(study::kTurbulenceHeightRule))
      ->check(NonNegativeFinite());
  cmd->add_option("--dt", opt->dt, "slice length [s] (the flight's sampling)")
      ->default_val(study::RoughAirSpec{}.dt)
      ->check(PositiveFinite());
  cmd->add_flag("--json", opt->json, "one JSON object (schema aerolin.rms/1)");
  cmd->add_option("--plot", opt->plot,
                  "also write PREFIX_rms_height.FORMAT: the RMS of nz, alpha, theta, ay, beta and phi\n"
                  "against height above ground for the three intensities")
      ->check(OutputPathValidator());
  AddPlotFigureOptions(*cmd, opt->formats, opt->width, opt->height_px);
  cmd->callback([opt, &action] { action = [opt] { return RunRms(*opt); }; });
}

}  // namespace aerolin::cli
