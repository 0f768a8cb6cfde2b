// `aerolin bode FILE --input CONTROL --output OUTPUT[,OUTPUT...]
//  [--from W1 --to W2 --points N | --omega LIST] [--csv OUT] [--json]
//  [--plot PREFIX --format png,svg,eps] [--width W --height H]`:
// frequency response (magnitude, dB, unwrapped and principal phase).
//
// In both programs (figures.hpp): in `aerolin` the command runs in-process
// unless --plot is given, in which case it checks its flags and runs
// `aerolin-plot` (which links MathGL) with the same arguments; in
// `aerolin-plot` it does everything itself.

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/study/closed_loop.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/frequency_report.hpp"
#include "aerolin/core/files.hpp"
#include "cli_options.hpp"
#include "figures.hpp"

namespace aerolin::cli {
namespace {

struct BodeOptions {
  std::string file;
  std::string input;
  std::vector<std::string> outputs;
  double from = 0.0;
  double to = 0.0;
  int points = 400;
  std::vector<double> omega;
  std::string csv;
  bool json = false;
  std::string plot;
  std::vector<std::string> formats = {"png"};
  int width = 1200;
  int height = 900;
};

// The figures of --plot: PREFIX_bode.EXT, one per format.
std::vector<std::string> FigurePaths(const BodeOptions& opt) {
  std::vector<std::string> paths;
  if (!opt.plot.empty())
    for (const std::string& format : opt.formats) paths.push_back(opt.plot + "_bode." + format);
  return paths;
}

void CheckFlags(const BodeOptions& opt) {
  const bool listed = !opt.omega.empty();
  study::CheckBodeRequest(opt.outputs, listed ? static_cast<long long>(opt.omega.size()) : opt.points,
                          listed, "--output", listed ? "--omega" : "--points");
  if (!opt.formats.empty() && opt.plot.empty())
    for (const std::string& f : opt.formats)
      if (f != "png") throw UsageError("--format needs --plot PREFIX");
  if (opt.from > 0.0 && opt.to > 0.0 && !(opt.to > opt.from))
    throw UsageError("--to must be above --from");
  for (std::size_t i = 1; i < opt.omega.size(); ++i)
    if (!(opt.omega[i] > opt.omega[i - 1]))
      throw UsageError("--omega must be ascending, got " + std::to_string(opt.omega[i - 1]) +
                       " then " + std::to_string(opt.omega[i]));
}

int RunBode(const BodeOptions& opt) {
  CheckFlags(opt);
  const std::vector<std::string> inputs = AircraftInputFiles(opt.file);
  OutputRouting outputs(opt.csv, opt.json, inputs);
  CheckOutputs(FigurePaths(opt), inputs);
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(aircraft);
  const analysis::Channel channel = [&] {
    try {
      return analysis::ResolveChannel(aircraft, modes, opt.input, opt.outputs);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }();
  analysis::FrequencyGrid omega = analysis::FrequencyGrid::Listed(opt.omega);
  if (opt.omega.empty()) {
    // The default range, a decade beyond the axis's slowest and fastest
    // modes, exists only if some mode has a frequency.
    auto [from, to] = [&]() -> std::pair<double, double> {
      if (opt.from > 0.0 && opt.to > 0.0) return std::pair{opt.from, opt.to};
      try {
        return analysis::DefaultFrequencyRange(modes.modes(channel.axis));
      } catch (const std::invalid_argument&) {
        throw UsageError(std::string("no mode of the ") +
                         std::string(model::AxisName(channel.axis)) +
                         " axis has a natural frequency > 0 to set the default range "
                         "around: give --from and --to, or --omega");
      }
    }();
    if (opt.from > 0.0) from = opt.from;
    if (opt.to > 0.0) to = opt.to;
    if (!(to > from))
      throw UsageError("the sweep is empty: from " + std::to_string(from) + " to " +
                       std::to_string(to) + " rad/s (give both --from and --to)");
    omega = analysis::FrequencyGrid::LogSpaced(from, to, opt.points);
  }
  // The summary (bandwidths, resonances) in one pass over the frequencies,
  // then each output written as its points are computed again; only a
  // figure holds them.
  const analysis::BodeSweep sweep(channel, modes, std::move(omega));
  outputs.WriteData([&](std::ostream& out) { exporting::WriteBodeCsv(out, sweep); });
  std::ostream& report = outputs.report();
  if (opt.json) {
    exporting::WriteBodeJson(report, aircraft, opt.file, sweep);
    report << '\n';
  } else {
    exporting::WriteBodeText(report, sweep);
  }
  if (!opt.plot.empty()) {
    exporting::PlotOptions plot;
    plot.width_px = opt.width;
    plot.height_px = opt.height;
    plot.aircraft = aircraft.name;
    const analysis::BodeDiagram diagram = sweep.Diagram();
    for (const std::string& path : FigurePaths(opt)) {
      figures::PlotBode(diagram, plot, path);
      outputs.notes() << path << '\n';
    }
  }
  return 0;
}

}  // namespace

void RegisterBodeCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<BodeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bode",
      "Frequency response from a control to one or more outputs of one axis:\n"
      "|G|, dB, phase unwrapped from (-360, 0] and principal, with the modes'\n"
      "natural frequencies, resonances and bandwidth; CSV, JSON or a figure.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--input", opt->input, "control name as in the data file, e.g. elevator")
      ->required();
  cmd->add_option("--output", opt->outputs,
                  "comma-separated outputs of one axis: " + OutputNames(model::Axis::kLongitudinal) +
                      " or\n" + OutputNames(model::Axis::kLateral))
      ->required()
      ->delimiter(',');
  CLI::Option* from = cmd->add_option("--from", opt->from,
                                      "lowest frequency [rad/s] (default: a decade below the "
                                      "slowest mode)")
                          ->check(PositiveFinite());
  CLI::Option* to = cmd->add_option("--to", opt->to,
                                    "highest frequency [rad/s] (default: a decade above the "
                                    "fastest mode)")
                        ->check(PositiveFinite());
  CLI::Option* points = cmd->add_option("--points", opt->points,
                                        "log-spaced frequencies (default 400)")
                            ->check(CLI::Range(2, 1000000));
  cmd->add_option("--omega", opt->omega, "comma-separated frequencies [rad/s], ascending")
      ->delimiter(',')
      ->check(PositiveFinite())
      ->excludes(from)
      ->excludes(to)
      ->excludes(points);
  cmd->add_option("--csv", opt->csv, "write the data as CSV to this file ('-': standard output, the report then goes to stderr)")->check(OutputPathValidator());
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.bode/1)");
  cmd->add_option("--plot", opt->plot, "write the figure PREFIX_bode.EXT (one per format)")->check(OutputPathValidator());
  AddFigureOptions(*cmd, opt->formats, opt->width, opt->height);
  cmd->callback([opt, &action] {
    action = [opt] {
      if (opt->plot.empty() || figures::InProcess()) return RunBode(*opt);
      CheckFlags(*opt);
      return ReplaceWithPlotter();
    };
  });
}

}  // namespace aerolin::cli
