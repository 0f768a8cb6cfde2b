// `aerolin locus FILE --loop INPUT:OUTPUT [--washout TAU] --gain LIST|FROM:TO[:N]
//  [--maximize MODE] [--json] [--plot PREFIX [--format F,...] [--width W --height H]]`: the root locus of
// δ_INPUT = K·y_OUTPUT with every branch named by its mode.

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/tracked_report.hpp"
#include "aerolin/study/maximize_damping.hpp"
#include "aerolin/study/loops.hpp"
#include "aerolin/study/tracked.hpp"
#include "cli_options.hpp"
#include "figures.hpp"

namespace aerolin::cli {
namespace {

struct LocusCommandOptions {
  std::string file;
  std::string loop;
  double washout = 0.0;
  std::string gain;
  std::string maximize;
  bool json = false;
  std::string plot;
  std::vector<std::string> formats = {"png"};
  int width = 1200, height = 900;
};

double Number(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(v))
    throw UsageError("--gain: '" + text + "' is not a finite number (" + what + ")");
  return v;
}

// "LIST" (comma-separated) or "FROM:TO[:N]" (N values, default 41).
std::vector<double> ParseGains(const std::string& text) {
  std::vector<double> gains;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string p; std::getline(in, p, ':');) parts.push_back(p);
    if (parts.size() < 2 || parts.size() > 3) throw UsageError("--gain: expected FROM:TO[:N], got '" + text + "'");
    const double from = Number(parts[0], "FROM"), to = Number(parts[1], "TO");
    const double n = parts.size() == 3 ? Number(parts[2], "N") : 41;
    if (n < 2 || n > kMaxStudyPoints || n != std::floor(n))
      throw UsageError("--gain: N must be an integer from 2 to " + std::to_string(kMaxStudyPoints));
    gains.reserve(static_cast<std::size_t>(n));
    for (int k = 0; k < static_cast<int>(n); ++k) gains.push_back(from + (to - from) * k / (n - 1));
    return gains;
  }
  std::stringstream in(text);
  for (std::string p; std::getline(in, p, ',');) {
    // "0,,1" or ",,," would read an empty entry as K = 0.
    if (p.empty())
      throw UsageError("--gain: an empty entry in '" + text + "' (a list is 0,0.5,1)");
    if (gains.size() == static_cast<std::size_t>(kMaxStudyPoints))
      throw UsageError("--gain: more than " + std::to_string(kMaxStudyPoints) + " gains in LIST");
    gains.push_back(Number(p, "LIST"));
  }
  if (gains.empty()) throw UsageError("--gain: no gains given");
  return gains;
}

int RunLocus(const LocusCommandOptions& opt) {
  if (!opt.plot.empty() && !figures::InProcess()) return ReplaceWithPlotter();
  // A figure that cannot be written is a bad --plot, found before the locus.
  if (!opt.plot.empty()) {
    const std::vector<std::string> inputs = AircraftInputFiles(opt.file);
    for (const std::string& format : opt.formats)
      CheckOutputs(figures::LocusFigurePaths(opt.plot, format), inputs);
  }
  CheckFormatsHavePlot(opt.formats, opt.plot);
  const study::OutputLoop spec = [&] {
    try {
      return study::ParseLoop(opt.loop);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--loop: ") + e.what());
    }
  }();
  if (spec.gain)
    throw UsageError("--loop: locus sweeps the gain (--gain): give INPUT:OUTPUT without =GAIN, got '" +
                     opt.loop + "'");
  if (spec.washout_tau && opt.washout != 0.0)
    throw UsageError("--loop: the washout is given twice (,washout= and --washout): give one");
  study::LocusOptions o;
  o.input = spec.input;
  o.output = spec.output;
  o.washout_tau = spec.washout_tau;
  if (opt.washout != 0.0) o.washout_tau = opt.washout;
  o.gains = ParseGains(opt.gain);
  std::string maximize = opt.maximize;
  if (!maximize.empty()) {
    // Accept the CLI spelling ("dutch-roll") or the display name ("dutch roll").
    if (const auto kind = analysis::ParseModeKind(maximize)) maximize = analysis::ToString(*kind);
  }
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  // The report is written as the points are finished (opened at the first,
  // after the locus's checks); only a figure keeps them all. The text waits
  // for --maximize, whose unknown name is found only after the last point.
  std::optional<exporting::TrackedReportStream> stream;
  study::LocusResult locus;
  std::vector<study::TrackedPoint> kept;
  std::vector<study::TrackedMode> first_modes;
  std::optional<study::DampingScan> scan;
  if (!maximize.empty()) scan.emplace(maximize);
  try {
    locus = study::DescribeLocus(aircraft, o);
    locus.study = study::Locus(aircraft, o, [&](std::span<const study::TrackedPoint> points) {
      if (!stream) {
        first_modes = points.front().modes;
        stream.emplace(std::cout,
                       opt.json ? exporting::TrackedReportStream::Format::kJson
                                : exporting::TrackedReportStream::Format::kText,
                       nullptr, "K", "gain", opt.file,
                       "root locus of " + opt.loop + " (delta_" + o.input + " = K * " +
                           (o.washout_tau ? "washout(" + o.output + ")" : o.output) + ", K in " +
                           locus.gain_unit + ")\n",
                       scan.has_value());
      }
      stream->Add(points);
      if (scan) scan->Add(points);
      if (!opt.plot.empty()) kept.insert(kept.end(), points.begin(), points.end());
    });
  } catch (const std::invalid_argument& e) {
    throw UsageError("locus: " + opt.file + ": " + e.what());
  }
  std::optional<study::DampingOptimum> optimum;
  if (scan) optimum = study::MaximizeDamping(aircraft, o, *scan);
  // A name that is no mode kind and names no mode of this locus is a typo,
  // not an absent mode: a usage error that lists what is accepted.
  if (optimum && optimum->kind == study::DampingOptimumKind::kAbsent && !analysis::ParseModeKind(opt.maximize)) {
    std::string names, kinds;
    for (const study::TrackedMode& m : first_modes)
      if (names.find("'" + m.origin + "'") == std::string::npos) names += (names.empty() ? "'" : ", '") + m.origin + "'";
    for (const std::string& kind : StartableModeNames()) kinds += (kinds.empty() ? "" : ", ") + kind;
    throw UsageError("locus: --maximize: no mode named '" + opt.maximize +
                     "' (a mode of this locus: " + names +
                     "; or " + kinds + ")");
  }
  stream->Finish(locus, opt.loop, optimum ? &*optimum : nullptr);
  if (opt.json) std::cout << '\n';
  locus.study.points = std::move(kept);
  if (!opt.plot.empty()) {
    exporting::TrackedPlotOptions plot;
    plot.title = aircraft.name + ": " + opt.loop + (o.washout_tau ? " with washout" : "");
    plot.width_px = opt.width;
    plot.height_px = opt.height;
    if (optimum && optimum->kind != study::DampingOptimumKind::kAbsent &&
        optimum->kind != study::DampingOptimumKind::kReal)
      plot.marked = exporting::MarkedGain{optimum->gain, optimum->lambda, optimum->zeta, maximize};
    for (const std::string& format : opt.formats) {
      plot.format = format;
      for (const std::string& f : figures::PlotLocus(locus, plot, opt.plot)) std::cerr << f << '\n';
    }
  }
  return 0;
}

}  // namespace

void RegisterLocusCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<LocusCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "locus", "Root locus of the loop delta_INPUT = K * y_OUTPUT closed on the input's axis,\n"
               "optionally through a washout s/(s + 1/TAU); every branch named by its mode.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--loop", opt->loop, "INPUT:OUTPUT, e.g. rudder:r or elevator:q (or rudder:r,washout=1.5)")->required();
  cmd->add_option("--washout", opt->washout, "washout time constant TAU [s] on the output")
      ->check(PositiveFinite());
  cmd->add_option("--gain", opt->gain, "gains: a list 0,0.5,1 or FROM:TO[:N] (N values, default 41)")
      ->required();
  cmd->add_option("--maximize", opt->maximize,
                  "report the gain that maximizes this mode's damping, refined between the listed gains")
      ->check(NonEmpty("a mode name, e.g. dutch-roll"));
  cmd->add_flag("--json", opt->json, "print JSON instead of a table");
  cmd->add_option("--plot", opt->plot, "write PREFIX_locus.FORMAT and PREFIX_zeta.FORMAT")->check(OutputPathValidator());
  AddFigureOptions(*cmd, opt->formats, opt->width, opt->height);
  cmd->callback([opt, &action] { action = [opt] { return RunLocus(*opt); }; });
}

}  // namespace aerolin::cli
