// `aerolin plot FILE [--script S] [--excite M [--amplitude A]] --duration T
//  [--dt Δt] [--integrator rk45|exact] [--turbulence ... --gust ...] --out PREFIX
//  [--format png,svg,eps,pdf]
//  [--width W] [--height H] [--glyph-interval S] [--vertical-exaggeration K]
//  [--model linear|nonlinear|both]`:
// flies the model as `aerolin simulate` does (the same Fly) and writes four
// figures without a display: PREFIX_trajectory, PREFIX_track, PREFIX_history
// and PREFIX_splane, one file per format; with --model both the flight
// figures draw the nonlinear flight beside the linear one.
//
// In both programs (figures.hpp): in `aerolin-plot` the command draws; in
// `aerolin`, it checks the flags and then runs `aerolin-plot` from the same
// directory with the same arguments, so that `aerolin` does not load MathGL.

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "flight_inputs.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/export/nonlinear_report.hpp"
#include "figures.hpp"

namespace aerolin::cli {
namespace {

struct PlotCommandOptions {
  FlightInputs inputs;
  std::string out;
  std::vector<std::string> formats = {"png"};
  int width = 1200;
  int height = 900;
  double glyph_interval = 0.0;
  double vertical_exaggeration = 1.0;
};

// Most altitude exaggeration of the 3D path: a millimetre becomes ten
// metres. Far beyond it (1e308) the altitude axis overflows and no tick
// spacing exists.
using study::kMaxVerticalExaggeration;
const std::string kMaxExaggerationText =
    std::to_string(static_cast<long>(kMaxVerticalExaggeration));

// Accepts a finite number from 1 to kMaxVerticalExaggeration. CLI::Range
// would let "nan" through (every comparison with NaN is false).
CLI::Validator ExaggerationRange() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value) || value < 1.0 ||
            value > kMaxVerticalExaggeration)
          return "expected a number from 1 to " + kMaxExaggerationText + ", got '" + input + "'";
        return {};
      },
      "K in 1.." + kMaxExaggerationText);
}

std::vector<std::string> OutputPaths(const PlotCommandOptions& opt) {
  std::vector<std::string> paths;
  for (const std::string& format : opt.formats)
    for (const char* figure : {"_trajectory.", "_track.", "_history.", "_splane."})
      paths.push_back(opt.out + figure + format);
  return paths;
}

// Draws into a temporary file beside `path` (same extension: MathGL picks
// the format from it) and renames it over `path` when complete.
template <typename Draw>
void WriteFigure(const std::string& path, Draw draw) {
  core::AtomicOutput out(path);
  try {
    draw(out.temp_path());
  } catch (const std::runtime_error& e) {
    // Name the file the user asked for, not the temporary one.
    std::string message = e.what();
    for (std::size_t at = message.find(out.temp_path()); at != std::string::npos;
         at = message.find(out.temp_path()))
      message.replace(at, out.temp_path().size(), path);
    throw std::runtime_error(message);
  }
  out.Commit();
}

// Keeps a bounded, evenly thinned copy of the flight for the figures: every
// stride-th row, the stride doubling (every other kept row dropped) whenever
// more than 2·kRows are kept, plus always the last row. Memory is bounded
// (≤ 2·kRows + 1 rows, about 3 MB) whatever the duration; a flight of up
// to kRows·2 slices is drawn from every row.
class DecimatedLog final : public sim::FlightRecorder {
 public:
  static constexpr std::size_t kRows = 8000;
  /// With `wind`, the wind of each kept row is kept too (read at Record).
  explicit DecimatedLog(const Eigen::Vector4d* wind = nullptr) : wind_source_(wind) {}
  void Begin(const std::vector<std::string>& control_names) override {
    log_.control_names = control_names;
  }
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override {
    const Eigen::Vector4d wind = wind_source_ ? *wind_source_ : Eigen::Vector4d::Zero();
    if (count_++ % stride_ != 0) {
      last_ = {t, x, controls, wind};
      return;
    }
    last_.reset();
    log_.time.push_back(t);
    log_.state.push_back(x);
    log_.controls.push_back(controls);
    if (wind_source_) wind_.push_back(wind);
    if (log_.size() > 2 * kRows) {
      std::size_t kept = 0;
      for (std::size_t k = 0; k < log_.size(); k += 2, ++kept) {
        log_.time[kept] = log_.time[k];
        log_.state[kept] = log_.state[k];
        log_.controls[kept] = log_.controls[k];
        if (wind_source_) wind_[kept] = wind_[k];
      }
      log_.time.resize(kept);
      log_.state.resize(kept);
      log_.controls.resize(kept);
      if (wind_source_) wind_.resize(kept);
      stride_ *= 2;
    }
  }
  /// The thinned log, ending at the last row recorded.
  sim::FlightLog Finish() {
    if (last_) {
      log_.time.push_back(last_->t);
      log_.state.push_back(last_->x);
      log_.controls.push_back(last_->controls);
      if (wind_source_) wind_.push_back(last_->wind);
    }
    return std::move(log_);
  }
  /// The wind of each row of Finish()'s log (empty without a wind source);
  /// call after Finish.
  std::vector<Eigen::Vector4d> TakeWind() { return std::move(wind_); }

 private:
  struct Row {
    double t;
    sim::FlightState x;
    Eigen::VectorXd controls;
    Eigen::Vector4d wind;
  };
  const Eigen::Vector4d* wind_source_;
  sim::FlightLog log_;
  std::vector<Eigen::Vector4d> wind_;
  long count_ = 0;
  long stride_ = 1;
  std::optional<Row> last_;
};

int RunPlot(const PlotCommandOptions& opt) {
  CheckOutputs(OutputPaths(opt), InputFiles(opt.inputs));
  WindProbe probe;
  DecimatedLog decimated(opt.inputs.has_gusts() ? &probe.wind : nullptr);
  // --model both: the nonlinear rows, thinned as the linear ones (the same
  // rows: both logs see every slice).
  std::optional<DecimatedLog> beside;
  if (opt.inputs.model == "both") beside.emplace();
  Flight flight = Fly(opt.inputs, &decimated, &probe, {}, beside ? &*beside : nullptr);
  std::vector<Eigen::Vector4d> wind;
  std::optional<sim::FlightLog> nonlinear;
  {
    sim::FlightLog log = decimated.Finish();
    wind = decimated.TakeWind();
    log.control_units = std::move(flight.result.log.control_units);
    if (beside) {
      nonlinear = beside->Finish();
      nonlinear->control_units = log.control_units;
      // A departed nonlinear flight ends first (sim::NonlinearShadow), so
      // its thinning can differ from the linear log's: keep its rows at the
      // linear rows' times (the figures draw it to the last of them).
      std::size_t kept = 0;
      for (std::size_t i = 0, j = 0; i < nonlinear->size(); ++i) {
        while (j < log.size() && log.time[j] < nonlinear->time[i]) ++j;
        if (j == log.size() || log.time[j] != nonlinear->time[i]) continue;
        nonlinear->time[kept] = nonlinear->time[i];
        nonlinear->state[kept] = nonlinear->state[i];
        nonlinear->controls[kept] = nonlinear->controls[i];
        ++kept;
      }
      nonlinear->time.resize(kept);
      nonlinear->state.resize(kept);
      nonlinear->controls.resize(kept);
      if (kept == 0) nonlinear.reset();  // departed at the start: nothing to draw
    }
    flight.result.log = std::move(log);
  }
  const sim::FlightLog* nl = nonlinear ? &*nonlinear : nullptr;
  const sim::SimulationResult& result = flight.result;
  const model::AircraftData& aircraft = flight.aircraft;
  if (result.stopped)
    std::cerr << "warning: " << *result.stopped << " (plotting the flight so far)\n";

  exporting::PlotOptions plot;
  plot.width_px = opt.width;
  plot.height_px = opt.height;
  plot.aircraft = aircraft.name;
  plot.theta0 = aircraft.condition.theta0;
  plot.glyph_interval_s = opt.glyph_interval;
  plot.vertical_exaggeration = opt.vertical_exaggeration;
  if (opt.inputs.model == "nonlinear") plot.flown_by = "nonlinear model";
  for (const std::string& format : opt.formats) {
    const std::string trajectory = opt.out + "_trajectory." + format;
    const std::string ground_track = opt.out + "_track." + format;
    const std::string history = opt.out + "_history." + format;
    const std::string splane = opt.out + "_splane." + format;
    WriteFigure(trajectory, [&](const std::string& p) {
      figures::PlotTrajectory3D(result.log, plot, p, nl);
    });
    WriteFigure(ground_track, [&](const std::string& p) {
      figures::PlotGroundTrack(result.log, plot, p, nl);
    });
    WriteFigure(history, [&](const std::string& p) {
      figures::PlotTimeHistories(result.log, plot, p, wind, nl);
    });
    WriteFigure(splane, [&](const std::string& p) {
      figures::PlotSPlane(flight.longitudinal_modes, flight.lateral_modes, plot, p);
    });
    std::cout << trajectory << '\n' << ground_track << '\n' << history << '\n' << splane << '\n';
  }
  // As `simulate --model` says them: when the two flights part, and where
  // the nonlinear one left its coefficient tables.
  if (flight.partings) exporting::WritePartings(std::cout, *flight.partings);
  if (flight.departed && opt.inputs.model == "both")
    std::cerr << "warning: " << DepartureNote(*flight.departed, false) << '\n';
  for (const sim::TableDeparture& d : flight.table_departures)
    std::cerr << "warning: nonlinear flight: " << d.ToString() << '\n';
  return 0;
}

}  // namespace

void RegisterPlotCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<PlotCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plot",
      "Fly the model as 'simulate' does and write four figures without\n"
      "a display: PREFIX_trajectory (3D path with paper-plane attitude glyphs),\n"
      "PREFIX_track (ground track at equal scales and altitude profile),\n"
      "PREFIX_history (states and controls against time) and PREFIX_splane\n"
      "(eigenvalues of both models with their mode names).");
  AddFlightInputOptions(*cmd, opt->inputs);
  cmd->add_option("--out", opt->out,
                  "output prefix: writes PREFIX_trajectory, PREFIX_track, PREFIX_history, PREFIX_splane")
      ->required()->check(OutputPathValidator());
  AddFigureOptions(*cmd, opt->formats, opt->width, opt->height);
  AddModelOption(*cmd, opt->inputs,
                 "the trajectory, track and history figures draw the nonlinear\n"
                 "flight beside the linear one, dashed");
  cmd->add_option("--glyph-interval", opt->glyph_interval,
                  "seconds between attitude glyphs on the 3D path (default: about 8 glyphs)")
      ->check(NonNegativeFinite());
  cmd->add_option("--vertical-exaggeration", opt->vertical_exaggeration,
                  "multiply altitude by K on the 3D path (1 to " + kMaxExaggerationText + ", default 1: equal scales);\n"
                  "glyph shapes and altitude tick labels stay true, the figure names xK")
      ->default_val(1.0)
      ->check(ExaggerationRange());
  cmd->callback([opt, &action] {
    action = [opt] { return figures::InProcess() ? RunPlot(*opt) : ReplaceWithPlotter(); };
  });
}

}  // namespace aerolin::cli
