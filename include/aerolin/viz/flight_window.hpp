#pragma once
/// @file
/// The aerolin-fly window: event handling, the real-time slice loop with
/// catch-up, camera modes, and drawing of scene + HUD, around a
/// FlightSession.

#include <optional>
#include <string>
#include <vector>

#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/viz/flight_session.hpp"
#include "aerolin/viz/hud.hpp"

namespace aerolin::viz {

/// How the window runs.
struct WindowOptions {
  int width = 1280;   ///< initial size [px]
  int height = 800;
  std::string title = "aerolin-fly";
  std::string aircraft_name;
  /// Scripted pilot (keys 8/5/+/-/4/6/9/7 are then ignored); nullptr: the
  /// user flies.
  const pilot::PilotScript* script = nullptr;
  /// Stop after this much simulated time [s] (required with a script).
  std::optional<double> duration;
  /// Scripted flights run as fast as possible unless this is set.
  bool realtime = false;
  /// Save the final frame here (PNG) and exit.
  std::string screenshot;
  /// Save a frame every `frame_interval` simulated seconds into this directory.
  std::string frames_dir;
  double frame_interval = 0.5;  ///< [s] simulated
  /// Where S saves screenshots (the log directory by default).
  std::string snapshot_dir = ".";
  /// Initial time scale (0.25 … 16).
  double time_scale = 1.0;
  /// Frame-rate limit [Hz] in interactive/real-time runs.
  unsigned fps_limit = 60;
  /// Multisampling level; nullopt: 4 on a GPU, 0 on a software rasterizer
  /// (see DefaultAntialiasing).
  std::optional<unsigned> antialiasing;
  /// Start with the help overlay shown.
  bool show_help = false;
  /// Start in this camera mode: "overview", "chase" or "free".
  std::string camera = "overview";
  /// Vertical exaggeration K ≥ 1 of the overview and free views; nullopt:
  /// automatic (AutoVerticalExaggeration). The chase view is always ×1.
  std::optional<double> vertical_exaggeration;
  /// Attitude exaggeration K ≥ 1 of the glyph (heading K·ψ, pitch θ0 + K·θ,
  /// bank K·φ); nullopt: automatic (AutoAttitudeExaggeration).
  std::optional<double> attitude_exaggeration;
  /// The HUD's side panels at the start; nullopt: DefaultPanelMode of the
  /// window's size (Tab cycles them).
  std::optional<PanelMode> panels;
};

/// Returns the multisampling level to use when none is asked for: 4 on a
/// hardware OpenGL renderer, 0 on a software one (Mesa llvmpipe/softpipe, as
/// under Xvfb), where 4× multisampling at 1280×800 costs about 5 ms a frame
/// (measured: 48 fps instead of 59 with a 60 Hz limit).
unsigned DefaultAntialiasing();

/// Returns every key of the window and what it does (help overlay, README).
const std::vector<KeyHelp>& KeyBindings();

/// Exit code of RunFlightWindow when SIGINT or SIGTERM ended the flight
/// (the shell's 128 + SIGINT); the log was flushed first.
inline constexpr int kExitInterrupted = 130;

/// Makes SIGINT (Ctrl-C) and SIGTERM end RunFlightWindow as closing the
/// window does: the loop stops, the flight log is flushed, and
/// RunFlightWindow returns kExitInterrupted. Call once, before it.
void StopOnInterruptSignals();

/// Opens the window and runs until the user quits or the scripted duration
/// is flown. Returns the process exit code (0 on success).
/// @throws std::runtime_error if the fonts are missing, no X display can be
///         opened (DISPLAY unset or unreachable), or the window cannot be
///         created; core::NumericalError if a scripted flight diverges.
int RunFlightWindow(FlightSession& session, const WindowOptions& options);

}  // namespace aerolin::viz
