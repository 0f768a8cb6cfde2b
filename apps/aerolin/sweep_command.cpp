// `aerolin sweep FILE (--param KEY | --trim-speed [--altitude H] [--gamma DEG]) --from A
//  --to B --steps N [--json] [--csv OUT] [--plot PREFIX [--format F,...] [--width W --height H]]`:
// the modes of both axes tracked by name while one key of the file moves from A
// to B (in its units as written; for a coefficient file through the coefficient
// conversion, model::MatricesOfFile), or while the nonlinear model is trimmed
// and linearized at airspeeds from A to B (the file's speed unit,
// study::SweepTrimSpeed). With --plot, `aerolin` hands the whole command to
// `aerolin-plot` (see plot_command.cpp).

#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/export/tracked_report.hpp"
#include "aerolin/study/tracked.hpp"
#include "aerolin/study/trim.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/core/units.hpp"
#include "cli_options.hpp"
#include "figures.hpp"

namespace aerolin::cli {
namespace {

struct SweepCommandOptions {
  std::string file;
  study::SweepOptions sweep;
  bool trim_speed = false;
  std::optional<double> altitude;  // file's length unit
  double gamma_deg = 0.0;
  bool json = false;
  std::string csv;
  std::string plot;
  std::vector<std::string> formats = {"png"};
  int width = 1200, height = 900;
};

// The figures of a finished study (its points kept), as --plot asks.
void PlotStudy(const SweepCommandOptions& opt, const data::LoadResult& load, const study::TrackedStudy& result) {
  exporting::TrackedPlotOptions plot;
  plot.title = load.aircraft.name + ": sweep of " + result.param;
  plot.width_px = opt.width;
  plot.height_px = opt.height;
  for (const std::string& format : opt.formats) {
    plot.format = format;
    for (const std::string& f : figures::PlotSweep(result, plot, opt.plot)) std::cerr << f << '\n';
  }
}

// Runs a study (`run` hands its points to the sink it is given), writing the
// report and the CSV as the points are finished (opened at the first, after
// the study's checks); only a figure keeps them all. `label` names the
// parameter in the text's and CSV's first column and the JSON's "param".
int StreamStudy(const SweepCommandOptions& opt, const data::LoadResult& load, OutputRouting& outputs,
                const std::string& label,
                const std::function<study::TrackedStudy(const study::PointSink&)>& run) {
  std::optional<exporting::TrackedReportStream> stream;
  std::vector<study::TrackedPoint> kept;
  study::TrackedStudy result;
  try {
    result = run([&](std::span<const study::TrackedPoint> points) {
      if (!stream)
        stream.emplace(outputs.report(),
                       opt.json ? exporting::TrackedReportStream::Format::kJson
                                : exporting::TrackedReportStream::Format::kText,
                       outputs.has_data() ? &outputs.OpenData() : nullptr, label, "value", opt.file);
      stream->Add(points);
      if (!opt.plot.empty()) kept.insert(kept.end(), points.begin(), points.end());
    });
  } catch (const std::invalid_argument& e) {
    throw UsageError("sweep: " + opt.file + ": " + e.what());
  } catch (const study::TrimError& e) {
    std::cerr << "error: sweep: " << opt.file << ": " << e.what() << '\n';
    return kExitTrim;
  }
  result.param = label;
  stream->Finish(result);
  outputs.CommitData();
  if (opt.json) outputs.report() << '\n';
  result.points = std::move(kept);
  if (!opt.plot.empty()) PlotStudy(opt, load, result);
  return 0;
}

// --trim-speed: the linearized modes against the trim speed (straight flight
// at --altitude, default the file's, and --gamma, default level).
int RunTrimSpeedSweep(const SweepCommandOptions& opt, const data::LoadResult& load, OutputRouting& outputs) {
  study::TrimSpeedSweepOptions o;
  o.from = opt.sweep.from;
  o.to = opt.sweep.to;
  o.steps = opt.sweep.steps;
  o.threads = opt.sweep.threads;
  o.to_si = core::ToSI(1.0, load.units, core::kSpeed);
  o.altitude = opt.altitude ? core::ToSI(*opt.altitude, load.units, core::kLength)
                            : study::ReferenceRequest(load.aircraft).altitude;
  o.gamma = opt.gamma_deg * core::kDegToRad;
  const std::string label =
      std::string("trim speed [") + (load.units == core::UnitSystem::kImperial ? "ft/s" : "m/s") + "]";
  return StreamStudy(opt, load, outputs, label, [&](const study::PointSink& sink) {
    return study::SweepTrimSpeed(load.aircraft, o, sink);
  });
}

int RunSweep(const SweepCommandOptions& opt) {
  if (!opt.plot.empty() && !figures::InProcess()) return ReplaceWithPlotter();
  CheckFormatsHavePlot(opt.formats, opt.plot);
  const std::vector<std::string> inputs = AircraftInputFiles(opt.file);
  OutputRouting outputs(opt.csv, opt.json, inputs);
  // A figure that cannot be written is a bad --plot, found before sweeping.
  if (!opt.plot.empty())
    for (const std::string& format : opt.formats)
      CheckOutputs(figures::SweepFigurePaths(opt.plot, format), inputs);
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  data::RequireFlyable(load);
  data::RefuseWashout(load, "a washout filter adds a state the swept 4- and 5-state models do not carry yet "
                            "(write the loop without washout_s to sweep it, or analyse this file with modes, "
                            "qualities, tf or bode)");
  if (opt.trim_speed) return RunTrimSpeedSweep(opt, load, outputs);
  for (const model::OmittedKey& k : load.file.omitted) {
    if (k.path == opt.sweep.param)
      throw UsageError("sweep: " + opt.file + ": '" + k.path + "' is not swept: " + k.reason);
  }
  // The key in full (a bare "Ma" is longitudinal.Ma): the text and CSV
  // columns name it as the JSON's "param" does.
  std::string param;
  try {
    param = study::ResolveSweepKey(load.file, opt.sweep.param).path;
  } catch (const std::invalid_argument& e) {
    throw UsageError("sweep: " + opt.file + ": " + e.what());
  }
  return StreamStudy(opt, load, outputs, param, [&](const study::PointSink& sink) {
    return study::Sweep(load.file, opt.sweep, sink);
  });
}

}  // namespace

void RegisterSweepCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<SweepCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Move one numeric key of the data file from A to B and follow every mode by name\n"
               "(continuation from the named modes of the first value).");
  AddAircraftFileArgument(*cmd, opt->file);
  CLI::Option* param =
      cmd->add_option("--param", opt->sweep.param, "key as written, e.g. longitudinal.Mq, condition.U0");
  CLI::Option* trim = cmd->add_flag(
      "--trim-speed", opt->trim_speed,
      "sweep the trim speed instead: trim and linearize the nonlinear model at each airspeed\n"
      "(--from/--to in the file's speed unit; straight flight, as aerolin linearize)");
  param->excludes(trim);
  cmd->add_option("--altitude", opt->altitude, "with --trim-speed: altitude in the file's length unit (default the file's)")
      ->needs(trim)
      ->check(Finite());
  cmd->add_option("--gamma", opt->gamma_deg, "with --trim-speed: flight-path angle [deg] (default 0: level)")
      ->needs(trim)
      ->check(Finite());
  cmd->add_option("--from", opt->sweep.from, "first value, in the key's units as written")
      ->required()
      ->check(Finite());
  cmd->add_option("--to", opt->sweep.to, "last value")->required()->check(Finite());
  cmd->add_option("--steps", opt->sweep.steps, "number of values, from..to inclusive (2 to 100000)")
      ->required()
      ->check(CLI::Range(2, kMaxStudyPoints));
  cmd->add_flag("--json", opt->json, "print JSON instead of a table");
  cmd->add_option("--csv", opt->csv, "also write the points as CSV to this file ('-': standard output, the report then goes to stderr)")->check(OutputPathValidator());
  cmd->add_option("--plot", opt->plot, "write PREFIX_splane.FORMAT and PREFIX_wn_zeta.FORMAT")->check(OutputPathValidator());
  AddFigureOptions(*cmd, opt->formats, opt->width, opt->height);
  cmd->callback([opt, &action] {
    if (opt->sweep.param.empty() && !opt->trim_speed)
      throw CLI::RequiredError("--param KEY or --trim-speed");
    action = [opt] { return RunSweep(*opt); };
  });
}

}  // namespace aerolin::cli
