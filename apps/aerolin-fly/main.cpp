// aerolin-fly: fly an aircraft's linear model in a window with the numpad.
// Argument parsing and wiring only; the window lives in src/viz.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <ctime>
#include <exception>
#include <filesystem>
#include <iostream>
#include <cstdint>
#include <optional>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/core/messages.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/study/flight_setup.hpp"
#include "aerolin/study/limits.hpp"
#include "aerolin/viz/flight_log_writer.hpp"
#include "aerolin/viz/flight_session.hpp"
#include "aerolin/viz/flight_window.hpp"
#include "aerolin/viz/scene.hpp"

namespace {

constexpr int kExitData = 1;
constexpr int kExitUsage = 2;

// A finite number > 0 (PositiveFinite() lets "nan" and "inf" through).
CLI::Validator PositiveFinite() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value) || !(value > 0.0))
          return "expected a finite number > 0, got '" + input + "'";
        return {};
      },
      "> 0");
}

// "auto" or a finite number from 1 to `most` (an exaggeration).
CLI::Validator AutoOrAtLeastOne(double most) {
  return CLI::Validator(
      [most](std::string& input) -> std::string {
        double value = 0.0;
        if (input == "auto") return {};
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value) || !(value >= 1.0) ||
            value > most)
          return "expected 'auto' or a number from 1 to " + std::to_string(static_cast<long>(most)) +
                 ", got '" + input + "'";
        return {};
      },
      "auto|K");
}

std::string TimestampStem() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "flight-%Y%m%d-%H%M%S", std::localtime(&now));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace aerolin;
  CLI::App app{
      "aerolin-fly: fly an aircraft's linear small-perturbation model in a window.\n"
      "Numpad 4/6 roll left/right, 7/9 yaw left/right, 8/5 nose down/up, +/- more/less\n"
      "thrust, by effect on every aircraft whatever its data's control signs (arrows, Q/E,\n"
      "=/- without a numpad); H or F1 in the window lists every key. The flight is logged as it\n"
      "happens (CSV of 'aerolin simulate' + the pilot script), flushed every second.",
      "aerolin-fly"};
  std::string aircraft_path, script_path, log_dir, log_stem;
  std::string integrator = "rk45";
  double dt = 0.1;
  std::optional<double> duration;
  viz::WindowOptions win;
  bool no_log = false;
  app.add_option("FILE", aircraft_path, "aircraft data file (TOML)")->required()->check(CLI::ExistingFile);
  bool strict = false;
  app.add_flag("--strict", strict, "treat the data file's warnings as errors (exit 1)");
  app.add_option("--dt", dt, "physics slice length [s] (the seed's 0.1 s)")->check(PositiveFinite());
  app.add_option("--integrator", integrator, "slice integrator: rk45 or exact")
      ->check(CLI::IsMember({"rk45", "exact"}));
  app.add_option("--script", script_path, "fly a scripted pilot (format of 'aerolin simulate --script')")
      ->check(CLI::ExistingFile);
  app.add_option("--duration", duration, "stop after this much simulated time [s]")->check(PositiveFinite());
  app.add_flag("--realtime", win.realtime, "run a scripted flight in real time (default: as fast as possible)");
  app.add_option("--screenshot", win.screenshot,
                 "save the final frame as PNG and exit (needs --duration; its folder is created)");
  app.add_option("--frames-dir", win.frames_dir,
                 "save frames (frame-00000.png at t = 0, ...) into this directory (created)");
  app.add_option("--frame-every", win.frame_interval, "simulated seconds between saved frames")
      ->check(PositiveFinite());
  app.add_option("--log-dir", log_dir,
                 "directory of the flight logs (created if missing; default "
                 "$XDG_DATA_HOME/aerolin/flights, else ~/.local/share/aerolin/flights)");
  app.add_option("--log-name", log_stem, "stem of the log files (default flight-<date>-<time>)");
  app.add_flag("--no-log", no_log, "do not write a flight log");
  app.add_option("--antialiasing", win.antialiasing,
                 "multisampling level (default: 4 on a GPU, 0 on a software renderer such as Xvfb's)")
      ->check(CLI::Range(0, 16));
  app.add_option("--width", win.width, "window width [px]")->check(CLI::Range(200, 8192));
  app.add_option("--height", win.height, "window height [px]")->check(CLI::Range(200, 8192));
  app.add_option("--time-scale", win.time_scale, "initial time scale, 0.25 to 16")->check(CLI::Range(0.25, 16.0));
  std::string excite;
  app.add_option("--excite", excite, "start on a mode (keys 1-5 in the window)")
      ->check(CLI::IsMember(viz::ExcitationNames()));
  std::optional<double> amplitude;
  app.add_option("--amplitude", amplitude,
                 "excitation amplitude of the mode's reference state for --excite and keys 1-5\n"
                 "[m/s, rad or rad/s] (default 0.02 rad, or 0.02 U0 if the reference is u);\n"
                 "the , and . keys halve and double it")
      ->check(PositiveFinite());
  std::string turbulence;
  app.add_option("--turbulence", turbulence,
                 "start in MIL-F-8785C Dryden turbulence: light, moderate or severe (T cycles it)")
      ->check(CLI::IsMember({"light", "moderate", "severe"}));
  std::string altitude_text;
  app.add_option("--altitude", altitude_text,
                 "height above ground for turbulence and the T key [data file's length unit];\n" +
                     std::string(study::kTurbulenceHeightRule))
      ->check(CLI::Validator(
          [](std::string& input) -> std::string {
            double value = 0.0;
            if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value) || !(value >= 0.0))
              return "expected a finite height >= 0, got '" + input + "'";
            return {};
          },
          ">= 0"));
  std::uint64_t seed = study::kDefaultTurbulenceSeed;
  app.add_option("--seed", seed, "turbulence random seed (as 'aerolin simulate --seed')")
      ->default_val(study::kDefaultTurbulenceSeed);
  bool bare = false;
  app.add_flag("--bare", bare,
               "start with the bare airframe: FILE's [augmentation] off (G switches it;\n"
               "as 'aerolin simulate --bare')");
  bool nonlinear = false;
  app.add_flag("--nonlinear", nonlinear,
               "start with the nonlinear aircraft flying beside the linear one, a translucent\n"
               "violet glyph from the same inputs (N switches it; as 'aerolin simulate --model both')");
  std::string exaggeration = "auto";
  app.add_option("--vertical-exaggeration", exaggeration,
                 "altitude scale of the overview: auto (from the path's extents) or K >= 1;\n"
                 "X cycles auto, x1, x10, x30")
      ->check(AutoOrAtLeastOne(study::kMaxVerticalExaggeration));
  std::string attitude_exaggeration = "auto";
  app.add_option("--attitude-exaggeration", attitude_exaggeration,
                 "glyph attitude scale (heading K psi, pitch theta0 + K theta, bank K phi): auto\n"
                 "(bank and pitch 20 for small perturbations down to 1 at 25 deg, heading on its own\n"
                 "up to 100) or K from 1 to 100 on all three; A cycles auto, x1, x5, x20")
      ->check(AutoOrAtLeastOne(viz::kMaxAttitudeExaggeration));
  std::string panels;
  app.add_option("--panels", panels,
                 "HUD side panels: full, compact or hidden (default: compact below 1100x700 px,\n"
                 "else full); Tab cycles them")
      ->check(CLI::IsMember({"full", "compact", "hidden"}));
  app.add_flag("--show-help", win.show_help, "start with the key help overlay shown");
  app.add_option("--camera", win.camera, "initial camera: overview, chase or free")
      ->check(CLI::IsMember({"overview", "chase", "free"}));
  try {
    app.parse(argc, argv);
    if (!script_path.empty() && !duration)
      throw CLI::ValidationError("--script", "needs --duration (seconds to fly)");
    if (!win.screenshot.empty() && !duration)
      throw CLI::ValidationError("--screenshot", "needs --duration");
    if (duration) {  // the limit of `aerolin simulate` (study/limits.hpp)
      try {
        study::CheckFlightSlices(*duration, dt);
      } catch (const study::LimitError& e) {
        throw CLI::ValidationError("--duration/--dt", e.what());
      }
    }
    if (!win.frames_dir.empty()) {  // before the flight, not at its first frame
      try {
        core::PrepareOutputDirectory(win.frames_dir);
      } catch (const std::runtime_error& e) {
        throw CLI::ValidationError("--frames-dir", e.what());
      }
    }
    if (!no_log && log_dir.empty()) {
      try {
        log_dir = core::UserDataDirectory("flights");
      } catch (const std::runtime_error& e) {
        throw CLI::ValidationError("--log-dir", e.what());
      }
    }
    if (!log_stem.empty()) {
      try {
        viz::CheckLogStem(log_stem);
      } catch (const std::invalid_argument& e) {
        throw CLI::ValidationError("--log-name", e.what());
      }
    }
    if (!win.screenshot.empty()) {
      try {
        // The screenshot's folder is created, as --frames-dir's is.
        const std::string folder = std::filesystem::path(win.screenshot).parent_path().string();
        if (!folder.empty()) core::PrepareOutputDirectory(folder);
        core::CheckOutputPath(win.screenshot, {aircraft_path, script_path});
      } catch (const std::runtime_error& e) {
        throw CLI::ValidationError("--screenshot", e.what());
      }
    }
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }

  try {
    const data::LoadResult loaded = data::LoadAircraftFile(aircraft_path);
    if (strict && !loaded.warnings.empty()) throw core::DataError(loaded.warnings);
    data::RequireFlyable(loaded);
    // The first core::kMaxReportedDiagnostics, then a count of the rest (as `aerolin`).
    if (!loaded.warnings.empty())
      std::cerr << core::JoinDiagnostics(loaded.warnings, "warnings", "warning: ") << '\n';
    if (!win.screenshot.empty()) {  // also not a file the aircraft file names (its .st, .mass)
      std::vector<std::string> inputs = loaded.files;
      inputs.push_back(script_path);
      try {
        core::CheckOutputPath(win.screenshot, inputs);
      } catch (const std::runtime_error& e) {
        std::cerr << "error: --screenshot: " << e.what() << '\n';
        return kExitUsage;
      }
    }
    if (nonlinear) {  // what N would refuse, refused before the flight starts
      study::FlightSpec spec;
      spec.model = study::FlightModelKind::kBoth;
      if (!turbulence.empty()) spec.turbulence = study::TurbulenceSpec{};
      try {
        study::Validate(spec);
      } catch (const study::FlightSpecError& e) {
        std::cerr << "error: --nonlinear: " << e.what() << " (drop --turbulence)\n";
        return kExitUsage;
      }
      if (model::IsAugmented(loaded.aircraft) && !bare) {
        std::cerr << "error: --nonlinear: " << aircraft_path
                  << " closes feedback loops ([augmentation]) and the nonlinear model is the bare "
                     "airframe: add --bare\n";
        return kExitUsage;
      }
    }
    viz::SessionOptions session_options;
    session_options.slice.dt = dt;
    session_options.slice.integrator = *sim::ParseIntegrator(integrator);
    session_options.log_dir = no_log ? std::string() : log_dir;
    session_options.log_stem = log_stem.empty() ? TimestampStem() : log_stem;
    if (!no_log) {
      // An earlier flight's log is never replaced: the session takes the
      // next free name (FreeLogStem), and says so here.
      const std::string free_stem = viz::FreeLogStem(log_dir, session_options.log_stem);
      if (free_stem != session_options.log_stem)
        std::cout << "flight log: '" << session_options.log_stem << "' is taken in " << log_dir
                  << "; this flight is '" << free_stem << "'\n";
      session_options.log_stem = free_stem;
    }
    session_options.aircraft_path = aircraft_path;
    std::optional<pilot::PilotScript> script;
    if (!script_path.empty())
      script = pilot::LoadPilotScript(script_path, loaded.aircraft.controls, session_options.pilot);
    session_options.script = script ? &*script : nullptr;

    if (!excite.empty()) session_options.start_on = viz::ParseExcitation(excite);
    session_options.amplitude = amplitude;
    if (!altitude_text.empty()) {
      session_options.turbulence_altitude =
          core::ToSI(std::stod(altitude_text), loaded.units, core::kLength);
      session_options.altitude_argument = altitude_text;
    }
    session_options.seed = seed;
    session_options.bare = bare;
    session_options.nonlinear = nonlinear;
    if (!turbulence.empty()) session_options.turbulence = sim::ParseTurbulenceIntensity(turbulence);
    if (exaggeration != "auto") win.vertical_exaggeration = std::stod(exaggeration);
    if (attitude_exaggeration != "auto") win.attitude_exaggeration = std::stod(attitude_exaggeration);
    for (const viz::PanelMode mode :
         {viz::PanelMode::kFull, viz::PanelMode::kCompact, viz::PanelMode::kHidden})
      if (panels == viz::ToString(mode)) win.panels = mode;
    viz::FlightSession session(loaded.aircraft, session_options);
    // Say where turbulence (--turbulence, the T key) is flown.
    {
      const study::TurbulenceHeightChoice& h = session.turbulence_height();
      std::cout << "turbulence height: " << h.height << " m above ground ("
                << study::ToString(h.source);
      if (h.source == study::HeightSource::kDefault)
        std::cout << (loaded.aircraft.condition.altitude
                          ? ": the file's [condition] altitude 0 is a sea-level atmosphere"
                          : ": the file gives no [condition] altitude")
                  << "; --altitude H to change";
      std::cout << ")\n";
    }
    if (no_log) std::cout << "flight log: off (--no-log)\n";
    else std::cout << "flight log: " << session.csv_path() << " and " << session.script_path()
                   << " (flushed every second; --log-dir to move)\n";
    win.aircraft_name = loaded.aircraft.name;
    win.duration = duration;
    win.script = script ? &*script : nullptr;
    win.snapshot_dir = no_log ? std::string(".") : log_dir;
    viz::StopOnInterruptSignals();
    const int code = viz::RunFlightWindow(session, win);
    if (!no_log) std::cout << "replay: " << session.ReplayCommand() << '\n';
    return code;
  } catch (const core::DataError& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kExitData;
  } catch (const core::NumericalError& e) {
    std::cerr << "error: numerical failure: " << e.what() << '\n';
    return kExitData;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return kExitData;
  }
}
