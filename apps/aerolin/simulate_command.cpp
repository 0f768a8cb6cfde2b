// `aerolin simulate FILE [--script S] [--excite M [--amplitude A]] --duration T
//  [--dt Δt] [--integrator rk45|exact] [--rtol R] [--atol A]
//  [--turbulence light|moderate|severe [--altitude H] [--seed N]]
//  [--gust AXIS:VM:DM[:T0]]... [--csv OUT|-] [--json] [--units si|imperial]`:
// flies the linear model headless and reports what it did.

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>
#include <memory>
#include <string>

#include "cli_options.hpp"
#include "flight_inputs.hpp"
#include "progress_line.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/export/flight_csv.hpp"
#include "aerolin/export/nonlinear_report.hpp"
#include "aerolin/export/simulation_summary.hpp"

namespace aerolin::cli {
namespace {

struct SimulateOptions {
  FlightInputs inputs;
  std::string csv;
  bool json = false;
  std::string units = "si";
  bool quiet = false;
  std::vector<std::string> noise;  // NAME=SIGMA
  std::uint64_t noise_seed = exporting::kDefaultNoiseSeed;
};

// "alpha=0.001" -> {"alpha", 0.001}.
std::vector<std::pair<std::string, double>> ParseNoise(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, double>> out;
  for (const std::string& item : items) {
    const std::size_t eq = item.find('=');
    double sigma = 0;
    std::size_t used = 0;
    try {
      if (eq != std::string::npos) sigma = std::stod(item.substr(eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || eq == 0 || used == 0 || used != item.size() - eq - 1 ||
        !std::isfinite(sigma) || sigma < 0)
      throw UsageError("--noise: expected COLUMN=SIGMA (sigma >= 0 in the column's unit), got '" + item + "'");
    out.emplace_back(item.substr(0, eq), sigma);
  }
  return out;
}

// Hands each row to every recorder in turn.
class Tee final : public sim::FlightRecorder {
 public:
  void Add(sim::FlightRecorder& recorder) { recorders_.push_back(&recorder); }
  void Begin(const std::vector<std::string>& control_names) override {
    for (sim::FlightRecorder* r : recorders_) r->Begin(control_names);
  }
  void WatchSurfaces(const Eigen::VectorXd* surfaces) override {
    for (sim::FlightRecorder* r : recorders_) r->WatchSurfaces(surfaces);
  }
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override {
    for (sim::FlightRecorder* r : recorders_) r->Record(t, x, controls);
  }

 private:
  std::vector<sim::FlightRecorder*> recorders_;
};

// A long flight's progress on a terminal (TerminalLine): "simulate: 42 % (t
// = 4200 s of 10000 s)"; nothing when stderr is no terminal or with --quiet.
// The line is erased once the flight ends, before the summary.
class ProgressLine final : public sim::FlightRecorder {
 public:
  explicit ProgressLine(double duration) : duration_(duration) {}
  void Begin(const std::vector<std::string>&) override {}
  void Record(double t, const sim::FlightState&, const Eigen::VectorXd&) override {
    if ((++rows_ & 0x3FF) != 0) return;  // the clock every 1024 rows
    if (!line_.Due()) return;
    char text[96];
    std::snprintf(text, sizeof text, "simulate: %3.0f %% (t = %.6g s of %.6g s)", 100.0 * t / duration_, t,
                  duration_);
    line_.Show(text);
  }
  void Finish() { line_.Erase(); }

 private:
  double duration_;
  long long rows_ = 0;
  TerminalLine line_;
};

// Streams: the CSV rows go to a temporary file beside --csv (or to standard
// output for `--csv -`) as they are computed and the summary's extremes are
// accumulated on the way, so memory does not grow with --duration. The CSV
// replaces --csv only once complete (also when divergence stopped the run: it
// then ends at the last good slice). With `--csv -` the summary goes to
// stderr, so that standard output is the CSV alone.
int RunSimulate(const SimulateOptions& opt) {
  OutputRouting out(opt.csv, opt.json, InputFiles(opt.inputs));
  std::optional<exporting::FlightCsvRecorder> csv;
  std::optional<exporting::ComparisonCsvRecorder> comparison;  // --model both
  exporting::FlightDigest digest;
  WindProbe wind;
  Tee tee;
  tee.Add(digest);
  std::optional<ProgressLine> progress;
  if (!opt.quiet && ::isatty(STDERR_FILENO) == 1) tee.Add(progress.emplace(opt.inputs.duration));
  const bool both = opt.inputs.model == "both";
  const std::vector<std::pair<std::string, double>> noise = ParseNoise(opt.noise);
  if (!noise.empty() && !out.has_data())
    throw UsageError("--noise adds noise to the CSV's columns: it needs --csv");
  if (!noise.empty() && both)
    throw UsageError("--noise adds noise to one flight's CSV: not with --model both (give --model linear or "
                     "--model nonlinear)");
  std::optional<exporting::MeasurementNoise> noisy;
  if (out.has_data() && both) {
    comparison.emplace(out.OpenData(), opt.inputs.dt);
    tee.Add(comparison->linear_side());
  } else if (out.has_data()) {
    csv.emplace(out.OpenData(), opt.inputs.has_gusts() ? &wind.wind : nullptr, opt.inputs.dt);
    if (noise.empty()) {
      tee.Add(*csv);
    } else {
      try {
        tee.Add(noisy.emplace(*csv, noise, opt.noise_seed));
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
    }
  }
  // n_z at each row from the state, controls and wind of the row (the wind
  // held over the slice that ends at it, as the CSV's u_g..p_g).
  const Flight flight = Fly(
      opt.inputs, &tee, &wind,
      [&](const model::AircraftData& aircraft) {
        digest.TrackLoadFactor(exporting::LoadFactorRowOf(aircraft),
                               opt.inputs.has_gusts() ? &wind.wind : nullptr);
      },
      comparison ? &comparison->nonlinear_side() : nullptr);
  if (progress) progress->Finish();
  if (comparison) comparison->Finish();
  out.CommitData();
  const sim::SimulationResult& result = flight.result;
  const sim::SimulationOptions& options = flight.options;
  exporting::RunDescription run;
  run.aircraft = flight.aircraft.name;
  if (!opt.inputs.script.empty()) run.script = opt.inputs.script;
  if (!opt.inputs.excite.empty()) {
    run.excite = opt.inputs.excite;
    run.amplitude = flight.amplitude;
  }
  run.gusts = flight.gusts;
  run.units = *core::ParseUnitSystem(opt.units);
  std::ostream& summary = out.report();
  if (opt.json)
    summary << exporting::SimulationSummaryJson(result, digest, options, run, &flight.timing)
            << '\n';
  else
    exporting::WriteSimulationSummary(summary, result, digest, options, run, &flight.timing);
  if (flight.partings) {
    std::ostream& notes = out.notes();
    if (opt.inputs.model == "nonlinear")
      notes << "Flown: the nonlinear 6-DOF model (docs/nonlinear.md); summary and CSV are its "
               "flight\n";
    exporting::WritePartings(notes, *flight.partings);
  }
  if (flight.departed && both)
    std::cerr << "warning: " << DepartureNote(*flight.departed, comparison.has_value()) << '\n';
  // Once per table and variable: the tables hold their edge values there.
  for (const sim::TableDeparture& d : flight.table_departures)
    std::cerr << "warning: nonlinear flight: " << d.ToString() << '\n';
  if (result.stopped) {
    std::cerr << "warning: " << *result.stopped << '\n';
    return kExitDiverged;
  }
  return 0;
}

}  // namespace

void RegisterSimulateCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Fly the linear model headless in slices of --dt with the controls held\n"
      "over each slice (the seed's scheme), from a pilot script and/or a mode\n"
      "excitation; write the trajectory as CSV and print a summary.");
  AddFlightInputOptions(*cmd, opt->inputs);
  cmd->add_option("--csv", opt->csv,
                  "write the trajectory to this CSV file ('-': standard output, the summary "
                  "then goes to stderr)")->check(OutputPathValidator());
  cmd->add_option("--noise", opt->noise,
                  "add seeded white Gaussian noise to these CSV columns, COLUMN=SIGMA in the\n"
                  "column's unit (e.g. alpha=0.002,q=0.001), for rehearsing `aerolin identify`;\n"
                  "the flight and its summary are noise-free")
      ->delimiter(',');
  cmd->add_option("--noise-seed", opt->noise_seed, "random seed of --noise (same seed: same bytes)")
      ->default_val(exporting::kDefaultNoiseSeed);
  cmd->add_flag("--json", opt->json, "print the summary as one JSON object (SI)");
  AddModelOption(*cmd, opt->inputs,
                 "the CSV holds both and their difference; the summary says\nwhen they part");
  cmd->add_flag("--quiet", opt->quiet,
                "no progress line (shown on a terminal's stderr for flights longer than 2 s)");
  AddUnitsOption(*cmd, opt->units,
                 "text summary's speeds and lengths: si (m/s, m) or imperial (ft/s, ft); "
                 "angles in degrees");
  cmd->callback([opt, &action] { action = [opt] { return RunSimulate(*opt); }; });
}

}  // namespace aerolin::cli
