// `aerolin bode FILE --input CONTROL --output OUTPUT[,OUTPUT...]
//  [--from W1 --to W2 --points N | --omega LIST] [--csv OUT] [--json]
//  [--plot PREFIX --format png,svg,eps] [--width W --height H]`:
// frequency response (magnitude, dB, unwrapped and principal phase).
//
// Built twice, as plot_command.cpp (apps/aerolin/CMakeLists.txt): in
// `aerolin` the command runs in-process unless --plot is given, in which case
// it checks its flags and runs `aerolin-plot` (which links MathGL) with the
// same arguments; in `aerolin-plot` (AEROLIN_PLOT_IN_PROCESS) it does
// everything itself.

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/frequency_report.hpp"
#include "aerolin/core/files.hpp"
#include "cli_common.hpp"
#ifdef AEROLIN_PLOT_IN_PROCESS
#include "aerolin/export/plot.hpp"
#endif

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
  OutputRouting outputs(opt.csv, opt.json, {opt.file});
  CheckOutputs(FigurePaths(opt), {opt.file});
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  const analysis::Channel channel = [&] {
    try {
      return analysis::ResolveChannel(aircraft, modes, opt.input, opt.outputs);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }();
  std::vector<double> omega = opt.omega;
  if (omega.empty() && (opt.from > 0.0 || opt.to > 0.0)) {
    auto [from, to] = analysis::DefaultFrequencyRange(modes.modes(channel.axis));
    if (opt.from > 0.0) from = opt.from;
    if (opt.to > 0.0) to = opt.to;
    if (!(to > from))
      throw UsageError("the sweep is empty: from " + std::to_string(from) + " to " +
                       std::to_string(to) + " rad/s (give both --from and --to)");
    omega = analysis::LogSpace(from, to, opt.points);
  }
  const analysis::BodeDiagram diagram =
      analysis::ComputeBodeDiagram(channel, modes, omega, opt.points);
  outputs.WriteData([&](std::ostream& out) { exporting::WriteBodeCsv(out, diagram); });
  std::ostream& report = outputs.report();
  if (opt.json) {
    exporting::WriteBodeJson(report, aircraft, opt.file, diagram);
    report << '\n';
  } else {
    exporting::WriteBodeText(report, diagram);
  }
#ifdef AEROLIN_PLOT_IN_PROCESS
  if (!opt.plot.empty()) {
    exporting::PlotOptions plot;
    plot.width_px = opt.width;
    plot.height_px = opt.height;
    plot.aircraft = aircraft.name;
    for (const std::string& path : FigurePaths(opt)) {
      exporting::PlotBode(diagram, plot, path);
      outputs.notes() << path << '\n';
    }
  }
#endif
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
#ifdef AEROLIN_PLOT_IN_PROCESS
  cmd->callback([opt, &action] { action = [opt] { return RunBode(*opt); }; });
#else
  cmd->callback([opt, &action] {
    action = [opt] {
      if (opt->plot.empty()) return RunBode(*opt);
      CheckFlags(*opt);
      return ReplaceWithPlotter();
    };
  });
#endif
}

}  // namespace aerolin::cli
