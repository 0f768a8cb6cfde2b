// `aerolin plot FILE [--script S] [--excite M [--amplitude A]] --duration T
//  [--dt Δt] [--integrator rk45|exact] --out PREFIX [--format png,svg]
//  [--width W] [--height H] [--glyph-interval S]`: flies the linear model as
// `aerolin simulate` does and writes three figures without a display:
// PREFIX_trajectory, PREFIX_history and PREFIX_splane, one file per format.

#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/modes.hpp"
#include "cli_common.hpp"
#include "export/plot.hpp"
#include "model/build.hpp"
#include "sim/excitation.hpp"
#include "sim/simulate.hpp"

namespace aerolin::cli {
namespace {

struct PlotCommandOptions {
  std::string file;
  std::string script;
  std::string excite;
  std::optional<double> amplitude;
  double duration = 0.0;
  double dt = 0.1;
  std::string integrator = "rk45";
  double rtol = 1e-6;
  double atol = 1e-9;
  std::string out;
  std::vector<std::string> formats = {"png"};
  int width = 1200;
  int height = 900;
  double glyph_interval = 0.0;
};

// As simulate_command.cpp's ExcitedState (the mode's eigenvector goes from
// analysis/ to sim/ as plain Eigen data). TODO(lead): share one copy through
// cli_common once both commands are settled.
sim::FlightState ExcitedState(const model::AircraftData& aircraft,
                              const std::vector<analysis::Mode>& lon,
                              const std::vector<analysis::Mode>& lat,
                              const std::string& spelling,
                              std::optional<double>& amplitude) {
  const std::optional<analysis::ModeKind> kind = analysis::ParseModeKind(spelling);
  if (!kind) throw std::invalid_argument("unknown mode '" + spelling + "'");
  const bool is_lon = *kind == analysis::ModeKind::kShortPeriod ||
                      *kind == analysis::ModeKind::kPhugoid;
  const std::vector<analysis::Mode>& modes = is_lon ? lon : lat;
  const analysis::Mode* mode = analysis::FindMode(modes, *kind);
  if (mode == nullptr) {
    std::string have;
    for (const analysis::Mode& m : modes) have += (have.empty() ? "" : ", ") + m.full_name();
    throw std::runtime_error(aircraft.name + " has no " + analysis::ToString(*kind) +
                             " mode (its " + (is_lon ? "longitudinal" : "lateral") +
                             " modes: " + have + ")");
  }
  const sim::ModeAxis axis =
      is_lon ? sim::ModeAxis::kLongitudinal : sim::ModeAxis::kLateral;
  if (!amplitude)
    amplitude = sim::DefaultExcitationAmplitude(axis, mode->reference_state,
                                                aircraft.condition.U0);
  return sim::ModeInitialState(mode->shape, mode->reference_state, axis, *amplitude);
}

int RunPlot(PlotCommandOptions opt) {
  sim::SimulationOptions options;
  options.slice.dt = opt.dt;
  options.slice.integrator = *sim::ParseIntegrator(opt.integrator);
  options.slice.rtol = opt.rtol;
  options.slice.atol = opt.atol;
  options.duration = opt.duration;
  try {
    sim::NumSlices(opt.duration, opt.dt);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: --duration/--dt: " << e.what() << '\n';
    return kExitUsage;
  }

  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const std::vector<analysis::Mode> lon = analysis::AnalyzeLongitudinal(
      model::BuildLongitudinal(aircraft), aircraft.condition.U0);
  const std::vector<analysis::Mode> lat =
      analysis::AnalyzeLateral(model::BuildLateral(aircraft));

  const sim::FlightModel flight_model(aircraft);
  std::optional<sim::PilotScript> script;
  if (!opt.script.empty())
    script = sim::LoadPilotScript(opt.script, aircraft.controls, options.pilot);
  sim::FlightState x0 = sim::FlightState::Zero();
  if (!opt.excite.empty())
    x0 = ExcitedState(aircraft, lon, lat, opt.excite, opt.amplitude);
  const sim::SimulationResult result =
      sim::Simulate(flight_model, x0, script ? &*script : nullptr, options);
  if (result.stopped)
    std::cerr << "warning: " << *result.stopped << " (plotting the flight so far)\n";

  exporting::PlotOptions plot;
  plot.width_px = opt.width;
  plot.height_px = opt.height;
  plot.aircraft = aircraft.name;
  plot.theta0 = aircraft.condition.theta0;
  plot.glyph_interval_s = opt.glyph_interval;
  for (const std::string& format : opt.formats) {
    const std::string trajectory = opt.out + "_trajectory." + format;
    const std::string history = opt.out + "_history." + format;
    const std::string splane = opt.out + "_splane." + format;
    exporting::PlotTrajectory3D(result.log, plot, trajectory);
    exporting::PlotTimeHistories(result.log, plot, history);
    exporting::PlotSPlane(lon, lat, plot, splane);
    std::cout << trajectory << '\n' << history << '\n' << splane << '\n';
  }
  return 0;
}

}  // namespace

void RegisterPlotCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<PlotCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plot",
      "Fly the linear model as 'simulate' does and write three figures without\n"
      "a display: PREFIX_trajectory (3D path with paper-plane attitude glyphs),\n"
      "PREFIX_history (states and controls against time) and PREFIX_splane\n"
      "(eigenvalues of both models with their mode names).");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--script", opt->script,
                  "pilot script: 't_start t_end KEY' / 't_start t_end set CONTROL VALUE' lines")
      ->check(CLI::ExistingFile);
  cmd->add_option("--excite", opt->excite, "start on this mode's eigenvector (real part)")
      ->check(CLI::IsMember({"short-period", "phugoid", "dutch-roll", "roll", "spiral"}));
  cmd->add_option("--amplitude", opt->amplitude,
                  "excitation amplitude of the mode's reference state [m/s, rad or rad/s]")
      ->needs(cmd->get_option("--excite"))
      ->check(CLI::PositiveNumber);
  cmd->add_option("--duration", opt->duration, "flight time [s], a whole number of slices")
      ->required()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--dt", opt->dt, "slice length [s]")
      ->default_val(0.1)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--integrator", opt->integrator,
                  "rk45 (Dormand-Prince, error-controlled) or exact (matrix exponential)")
      ->check(CLI::IsMember({"rk45", "exact"}))
      ->default_val("rk45");
  cmd->add_option("--rtol", opt->rtol, "RK45 relative tolerance")
      ->default_val(1e-6)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--atol", opt->atol, "RK45 absolute tolerance")
      ->default_val(1e-9)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", opt->out,
                  "output prefix: writes PREFIX_trajectory, PREFIX_history, PREFIX_splane")
      ->required();
  cmd->add_option("--format", opt->formats, "comma-separated image formats: png, svg")
      ->delimiter(',')
      ->check(CLI::IsMember({"png", "svg"}))
      ->default_str("png");
  cmd->add_option("--width", opt->width, "image width [px]")
      ->default_val(1200)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--height", opt->height, "image height [px]")
      ->default_val(900)
      ->check(CLI::PositiveNumber);
  cmd->add_option("--glyph-interval", opt->glyph_interval,
                  "seconds between attitude glyphs on the 3D path (default: about 8 glyphs)")
      ->check(CLI::NonNegativeNumber);
  cmd->callback([opt, &action] { action = [opt] { return RunPlot(*opt); }; });
}

}  // namespace aerolin::cli
