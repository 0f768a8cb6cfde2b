// `aerolin identify FILE --flight LOG.csv --axis longitudinal|lateral --free KEY,...
//  [--columns NAME=COLUMN[:UNIT],...] [--method output-error|equation-error] [--fix-x0] [--fix-bias]
//  [--json] [--progress | --quiet] [--write OUT.toml] [--plot PREFIX [--format F,...] [--width W --height H]]`: estimates
// the free keys of FILE from a recorded flight, with their standard errors; the figure of the
// responses and residuals (export/plot_identify.hpp).

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/export/identify_report.hpp"
#include "aerolin/study/identify.hpp"
#include "cli_common.hpp"
#include "cli_options.hpp"
#include "figures.hpp"
#include "progress_line.hpp"

namespace aerolin::cli {
namespace {

struct IdentifyOptions {
  std::string file;
  std::string flight;
  std::string axis;
  std::vector<std::string> free;
  std::vector<std::string> columns;
  std::string method = "output-error";
  bool fix_x0 = false;
  bool fix_bias = false;
  bool json = false;
  bool progress = false;
  bool quiet = false;
  std::string write;
  std::string plot;
  std::vector<std::string> formats = {"png"};
  int width = 1200, height = 900;
};

// Progress on stderr, never stdout. With --progress: lines, "identify:
// reading 40 %" at each tenth of the file, one per iteration, one for the
// error bounds, and, while a pass over the flight goes on, how far it has
// gone ("output error: iteration 3 of at most 50, 41 % of the flight") at
// most every kPassLineEvery (a long flight's pass takes that long). Else on
// a terminal: simulate's TerminalLine with all of these, erased before the
// report; nothing in a pipe or with --quiet.
class Progress {
 public:
  static constexpr std::chrono::seconds kPassLineEvery{10};

  explicit Progress(bool lines) : lines_(lines) {}
  void Report(const study::IdentifyProgress& p) {
    const std::string text = "identify: " + study::ToString(p);
    if (!lines_) {
      if (line_.Due()) line_.Show(text);
      return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (p.pass) {
      if (now - last_ < kPassLineEvery) return;
    } else if (p.stage == study::IdentifyProgress::Stage::kReading) {
      const int tenth = static_cast<int>(p.fraction * 10.0 + 1e-9);
      if (tenth == tenths_) return;
      tenths_ = tenth;
    }
    last_ = now;
    std::cerr << text << std::endl;
  }
  void Finish() { line_.Erase(); }

 private:
  bool lines_;
  int tenths_ = -1;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  TerminalLine line_;
};

// Points per series of the figure: a few per pixel column of the largest
// image (8192 px), whatever the flight's length.
constexpr int kFigurePoints = 16384;

int RunIdentify(const IdentifyOptions& opt) {
  if (!opt.plot.empty() && !figures::InProcess()) return ReplaceWithPlotter();
  std::vector<std::string> inputs = AircraftInputFiles(opt.file);
  inputs.push_back(opt.flight);
  std::vector<std::string> outputs;
  if (!opt.write.empty()) outputs.push_back(opt.write);
  if (!opt.plot.empty())
    for (const std::string& format : opt.formats)
      for (const std::string& f : figures::IdentifyFigurePaths(opt.plot, format)) outputs.push_back(f);
  if (!outputs.empty()) CheckOutputs(outputs, inputs);
  CheckFormatsHavePlot(opt.formats, opt.plot);
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  data::RequireFlyable(load);
  study::IdentifySpec spec;
  spec.axis = opt.axis.rfind("lon", 0) == 0 ? model::Axis::kLongitudinal : model::Axis::kLateral;
  spec.free = opt.free;
  spec.method = *study::ParseIdentifyMethod(opt.method);
  spec.estimate_x0 = !opt.fix_x0;
  spec.estimate_bias = !opt.fix_bias;
  if (!opt.plot.empty()) spec.response_points = kFigurePoints;
  std::optional<Progress> progress;
  if (opt.progress || (!opt.quiet && isatty(STDERR_FILENO) == 1)) {
    progress.emplace(opt.progress);
    spec.progress = [&progress](const study::IdentifyProgress& p) { progress->Report(p); };
  }
  try {
    study::CheckFreeKeys(load.file, spec);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--free: ") + e.what());
  }
  std::vector<data::ColumnMapping> columns;
  try {
    columns = data::ParseColumnMap(opt.columns);
    study::FlightSources(load.file, spec.axis, columns);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--columns: ") + e.what());
  }
  const study::IdentifyResult result = study::IdentifyFlightCsv(load.file, opt.flight, spec, columns);
  if (progress) progress->Finish();
  // The file with the estimates in place: written by --write, and loaded to
  // name and grade the identified modes as `aerolin modes` would.
  const exporting::IdentifiedFile identified = exporting::IdentifiedFileOf(
      core::ReadInputFile(opt.file), opt.file, opt.write.empty() ? opt.file + " (identified)" : opt.write, result);
  OutputRouting out("", opt.json, {});
  if (opt.json)
    std::cout << exporting::IdentifyJson(result, opt.file, opt.flight, identified.levels) << '\n';
  else
    exporting::WriteIdentifyText(std::cout, result, opt.file, opt.flight, identified.levels);
  if (!identified.note.empty()) out.notes() << "note: " << identified.note << '\n';
  if (!opt.write.empty()) {
    CommandOutput file(opt.write);
    file.stream() << identified.text;
    file.Commit();
    out.notes() << "wrote " << opt.write << '\n';
  }
  if (result.responses) {
    exporting::PlotOptions plot;
    plot.aircraft = load.aircraft.name;
    plot.width_px = opt.width;
    plot.height_px = opt.height;
    for (const std::string& format : opt.formats)
      for (const std::string& f : figures::IdentifyFigurePaths(opt.plot, format)) {
        figures::PlotIdentify(*result.responses, result.method, plot, f);
        out.notes() << "wrote " << f << '\n';
      }
  }
  if (!result.converged) {
    std::cerr << "warning: " << result.stop_reason << '\n';
    return kExitData;
  }
  return 0;
}

}  // namespace

void RegisterIdentifyCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<IdentifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "identify",
      "Estimate keys of FILE (as written, in its units) from a recorded flight (the CSV of\n"
      "simulate --csv), with Cramér-Rao and coloured-residual standard errors, the fit,\n"
      "and the identified modes with their standard errors and levels (docs/identify.md).");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--flight", opt->flight, "the flight: CSV with t, the axis's states and its controls")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--axis", opt->axis, "longitudinal or lateral")
      ->required()
      ->transform(CLI::IsMember({"longitudinal", "lateral"}, CLI::ignore_case));
  cmd->add_option("--free", opt->free,
                  "the keys to estimate, as written in FILE (longitudinal.Ma,controls.elevator.M)")
      ->required()
      ->delimiter(',');
  cmd->add_option("--columns", opt->columns,
                  "read any CSV: aerolin's names from its columns, with their units\n"
                  "(t=time_ms:ms,alpha=AoA_deg:deg,q=pitch_rate:deg/s,elevator=dE:deg; units rad, deg,\n"
                  "rad/s, deg/s, m, ft, m/s, ft/s, kt, s, ms; no unit: SI); other columns by their names")
      ->delimiter(',');
  cmd->add_option("--method", opt->method, "output-error (default: maximum likelihood) or equation-error")
      ->transform(CLI::IsMember({"output-error", "equation-error"}, CLI::ignore_case));
  cmd->add_flag("--fix-x0", opt->fix_x0, "output error: start at the first sample instead of estimating x0");
  cmd->add_flag("--fix-bias", opt->fix_bias, "output error: estimate no output biases");
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.identify/1)");
  cmd->add_flag("--progress", opt->progress,
                "progress lines on stderr: reading, each iteration, the error bounds (on a terminal\n"
                "a line rewritten in place is the default)");
  cmd->add_flag("--quiet", opt->quiet, "no progress line on a terminal");
  cmd->add_option("--write", opt->write,
                  "write FILE with the estimates in place of the free keys (every other line kept)")
      ->check(OutputPathValidator());
  cmd->add_option("--plot", opt->plot,
                  "also write PREFIX_identify.FORMAT: each output measured, identified and from the\n"
                  "start model, and its residual with ±2σ")
      ->check(OutputPathValidator());
  AddFigureOptions(*cmd, opt->formats, opt->width, opt->height);
  cmd->callback([opt, &action] { action = [opt] { return RunIdentify(*opt); }; });
}

}  // namespace aerolin::cli
