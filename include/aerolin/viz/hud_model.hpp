#pragma once
/// @file
/// What the flight window's head-up display shows, computed from a
/// FlightSession without a display: the state and control panels, the mode
/// table graded once per session, the validity warnings, the excitation and
/// turbulence panel. hud.hpp draws a HudState; nothing here includes SFML.

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/validity.hpp"

namespace aerolin::viz {

class FlightSession;

/// One control's bar: the surface's deflection and the range the bar spans.
struct ControlGauge {
  std::string name;
  core::Unit unit = core::Unit::kOne;  ///< kRadian is shown in degrees
  /// The surface's deflection [unit]: its actuator's position (lagging the
  /// command, within its stop and rate limit), or for an ideal control the
  /// pilot's command plus the augmentation's, δ_pilot − K x
  /// (sim::FlightModel::SurfaceDeflections); the pilot's alone when bare.
  double value = 0.0;
  double range = 1.0;  ///< the bar spans ±range [unit]
  /// The keys and their effects, e.g. "4 roll left · 6 roll right" (empty
  /// if the control is not key-bound); drawn under the bar.
  std::string keys;
  /// The actuator's position limit [unit] (`[actuators]`), or none.
  std::optional<double> limit{};
  /// The surface is held at its stop: its command goes beyond `limit`.
  bool saturated = false;
  double commanded = 0.0;  ///< the command δ_pilot − K x, unlimited [unit]
  /// The actuator's rate limit [unit/s] (`[actuators]`), or none.
  std::optional<double> rate_limit{};
  /// The actuator moves at its rate limit: the rate its lag asks for
  /// (sim::FlightModel::DemandedRates) goes beyond `rate_limit`.
  bool rate_saturated = false;
  double demanded_rate = 0.0;  ///< the rate asked for, unlimited [unit/s]
};

/// One row of the mode table.
struct ModeRow {
  std::string name;
  double natural_frequency = 0.0;        ///< ωn [rad/s]
  double damping_ratio = 0.0;            ///< ζ
  std::optional<double> period;          ///< damped period [s]
  std::optional<double> time_constant;   ///< real roots [s]
  bool stable = true;
  /// MIL-F-8785C level 1-4 (4 = worse than Level 3) when the aircraft's
  /// class is known; the row is drawn in the level's colour.
  std::optional<int> level{};
};

/// How much of the HUD's side panels the window shows (Tab cycles them).
enum class PanelMode {
  kFull,     ///< state panel with key hints, mode table with ωn, attitude
  kCompact,  ///< narrower panels in smaller type: no key hints, no ωn column
  kHidden,   ///< no side panels: the status strip, banners and messages only
};
/// "full", "compact", "hidden".
std::string_view ToString(PanelMode mode);
/// The panels a window of `width` × `height` px opens with: compact below
/// 1100 × 700 px (an 800 × 600 window), else full.
PanelMode DefaultPanelMode(float width, float height);
/// The next mode of the Tab key: full → compact → hidden → full.
PanelMode NextPanelMode(PanelMode mode);

/// Everything the HUD shows in one frame. HudModel::Update fills all but the
/// window's own readings (marked "window": its clock, rates, camera and
/// status message), which the window sets after it.
struct HudState {
  std::string aircraft;
  double time = 0.0;  ///< simulation time [s]
  sim::FlightState state = sim::FlightState::Zero();
  double U0 = 0.0;    ///< trim speed [m/s]
  std::optional<double> trim_altitude;  ///< [m]
  std::vector<ControlGauge> controls;
  std::vector<ModeRow> modes;
  /// What the mode levels are graded against, e.g. "MIL-F-8785C III, cat. B"
  /// ("" when no class is known).
  std::string qualities;
  double slice_dt = 0.1;          ///< [s]
  double slice_cost_mean = 0.0;   ///< wall time per slice [s]
  double slice_cost_max = 0.0;    ///< [s]
  double frame_cost = 0.0;        ///< window: wall time to build the last frame [s]
  double fps = 0.0;               ///< window
  double time_scale = 1.0;        ///< window: requested
  double realtime_factor = 0.0;   ///< window: measured sim seconds per wall second
  /// Window: a scripted flight flown as fast as possible, no wall-clock rates
  /// to show.
  bool as_fast_as_possible = false;
  double behind = 0.0;            ///< window: simulated time still owed [s]
  unsigned long long overruns = 0;  ///< window
  unsigned long long slices = 0;
  std::size_t drawn_points = 0;   ///< window
  bool paused = false;            ///< window
  std::string camera_mode;        ///< window
  std::vector<std::string> warnings;  ///< validity warnings, shown in red
  std::string message;                ///< window: transient status (saved files, ...)
  std::string log_path;
  std::string pilot;  ///< who flies, e.g. "script: a.txt" (empty: the user)
  /// Pitch attitude θ0 + θ [rad] for the attitude indicator (bank is
  /// state[kPhi]).
  double pitch_attitude = 0.0;
  /// Trim pitch attitude θ0 [rad]: the ladder's scale shrinks below
  /// kPitchPixelsPerDegree when θ0 would put the horizon off the disc.
  double trim_pitch = 0.0;
  /// Window: vertical exaggeration of the drawn altitude (1: true scale) and
  /// whether it is chosen automatically.
  double vertical_exaggeration = 1.0;
  bool exaggeration_auto = true;
  /// Window: attitude exaggeration of the glyph (1: true attitude; bank and
  /// pitch), its heading's (automatic: its own, AutoHeadingExaggeration),
  /// and whether they are chosen automatically.
  double attitude_exaggeration = 1.0;
  double heading_exaggeration = 1.0;
  bool attitude_exaggeration_auto = true;
  /// Turbulence intensity ("light", ...), empty when off.
  std::string turbulence;
  double turbulence_altitude = 0.0;  ///< height above ground [m]
  /// Where turbulence_altitude came from: "default", "file" or "--altitude"
  /// (study::HeightSource), shown beside it.
  std::string turbulence_height_source;
  unsigned long long turbulence_seed = 0;
  Eigen::Vector3d turbulence_sigma = Eigen::Vector3d::Zero();  ///< σu, σv, σw [m/s]
  /// Gusts held over the last slice: u_g, v_g, w_g [m/s], p_g [rad/s].
  Eigen::Vector4d wind = Eigen::Vector4d::Zero();
  /// In turbulence, the RMS of the segment flown so far beside the exact
  /// stationary RMS it tends to (`aerolin rms`): n_z [g], α, β, φ [deg].
  struct RmsRow {
    std::string symbol;  ///< UTF-8, e.g. "α"
    std::string unit;    ///< "g" or "°"
    double running = 0.0;
    /// nullopt when the axis has no stationary RMS (a mode not stable).
    std::optional<double> exact;
  };
  std::vector<RmsRow> turbulence_rms;  ///< empty with turbulence off
  double turbulence_rms_time = 0.0;    ///< seconds the running RMS cover
  /// The data file's augmentation (`[augmentation]`, the G key): nullopt
  /// when the file has none, else whether it flies now.
  std::optional<bool> augmentation_on;
  /// What it closes, one line per axis, e.g. {"longitudinal: elevator",
  /// "lateral: rudder"} (empty without one): one line each, so a file with
  /// both axes' loops fits the narrow panel of an 800-px window.
  std::vector<std::string> augmentation_loops;
  /// Factor of the keys , and . on the next excitation's amplitude.
  double amplitude_factor = 1.0;
  /// The current segment's start, e.g. "phugoid, A = 0.02" (empty at trim).
  std::string excitation;
  /// Window: how much of the side panels shows (Tab).
  PanelMode panels = PanelMode::kFull;
  /// The nonlinear aircraft beside the linear one (the N key), linear −
  /// nonlinear: θ, φ [rad], airspeed V [m/s], altitude h [m]; nullopt while
  /// no nonlinear shadow flies.
  struct NonlinearDifference {
    double theta = 0.0, phi = 0.0, speed = 0.0, altitude = 0.0;
  };
  std::optional<NonlinearDifference> nonlinear_difference;
  /// Its line, e.g. "nonlinear beside (N): Δθ 0.4°, Δφ 1.2°, ΔV 0.3 m/s,
  /// Δh 2 m" (NonlinearDifferenceText); empty with the switch off.
  std::string nonlinear;
  /// Under it: when states parted ("φ parted 10 % at 4.2 s"), the nonlinear
  /// flight's validity flags, why it does not fly (refused, stopped).
  std::vector<std::string> nonlinear_notes;
};

/// Returns the HUD's line of `d`: "nonlinear beside (N): Δθ 0.4°, Δφ 1.2°,
/// ΔV 0.3 m/s, Δh 2 m" (angles in degrees).
std::string NonlinearDifferenceText(const HudState::NonlinearDifference& d);

/// Right edge of the HUD's full state panel (top left) [px]: the window
/// centres the 3D scene in the area right of it.
inline constexpr float kStatePanelRight = 342.0f;

/// Width [px] the HUD's right column (attitude indicator, excitation and
/// turbulence panel, with its margins) takes in a window `window_width` wide:
/// narrower below 1100 px.
inline float RightColumnWidth(float window_width) { return window_width < 1100 ? 214 : 274; }

/// A rectangle in window pixels (origin top left, y down).
struct HudRect {
  float left = 0, top = 0, width = 0, height = 0;
  float right() const { return left + width; }
  float bottom() const { return top + height; }
  bool empty() const { return !(width > 0 && height > 0); }
  /// True if both are non-empty and share interior points.
  bool Intersects(const HudRect& o) const {
    return !empty() && !o.empty() && left < o.right() && o.left < right() && top < o.bottom() &&
           o.top < bottom();
  }
};

/// Where the HUD's panels go in a window, computed from counts of rows (no
/// font): hud.cpp draws into these rectangles and the window centres the
/// scene between the side panels.
struct HudLayout {
  PanelMode mode = PanelMode::kFull;
  HudRect state_panel;   ///< top left (empty when hidden)
  HudRect mode_table;    ///< top right (empty when hidden)
  /// The right column's area under the mode table, down to the status strip
  /// (attitude indicator, excitation and turbulence; empty when hidden).
  HudRect right_column;
  HudRect strip;         ///< the status strip along the bottom
  /// The scene's band between the side panels [px]: the window centres the
  /// scene (and the chase view the aircraft) in it.
  float scene_left = 0, scene_right = 0;
  /// Text sizes and row heights of the side panels [px].
  unsigned text_size = 14, small_size = 13;
  float line_height = 19, control_row = 36;
  /// The scene's central area: a box of 30 % of the band's width and of the
  /// height above the strip, around the point the chase view puts the
  /// aircraft on. No panel covers it.
  HudRect SceneCentre(float window_height) const;
};

/// Returns the layout of `h`'s panels in a `width` × `height` window under
/// `mode`, with a status strip of `strip_lines` lines (the renderer wraps it
/// to the width).
HudLayout LayoutHud(const HudState& h, float width, float height, PanelMode mode,
                    int strip_lines);

/// Splits `text` at spaces into lines no wider than `width` by `measure`
/// (a word wider than the width is cut into pieces that fit, at UTF-8
/// character boundaries). Empty text gives no lines.
std::vector<std::string> WrapText(const std::string& text, float width,
                                  const std::function<float(const std::string&)>& measure);

/// Characters of a mode's name that one row of the mode table holds: 20 in
/// full panels, 18 in compact ones (their number columns take the rest).
std::size_t ModeNameChars(PanelMode mode);
/// The lines a mode's `name` takes in the mode table at `chars` characters a
/// line: the name when it fits; else the name split at its spaces, each line
/// after the first indented by one space ("short period", " (overdamped)"),
/// so no row cuts a name short (it used to read "short period (over" at
/// 800 × 600). A word longer than a line is cut into pieces (WrapText).
std::vector<std::string> ModeNameLines(const std::string& name, std::size_t chars);

/// How the HUD shows a quantity of `unit`: angles and rates in degrees, the
/// rest in its SI unit. `factor` converts from SI.
struct DisplayUnit {
  double factor;
  std::string_view symbol;
};
DisplayUnit DisplayUnitOf(core::Unit unit);

/// Returns one warning line per quantity of `state` now beyond the engine's
/// small-perturbation `limits` (sim/validity.hpp), given the trim speed U0
/// [m/s]; empty when within range.
std::vector<std::string> ValidityWarnings(const sim::FlightState& state, double U0,
                                          const sim::ValidityThresholds& limits = {});

/// Returns the HUD's line for a surface at its stop, e.g. "elevator saturated:
/// commanded +8.0°, stop ±3°" (`gauge.saturated`).
std::string SaturationWarning(const ControlGauge& gauge);
/// The warning line of a rate-saturated surface, e.g. "elevator rate
/// limited: asked -84°/s, limit ±60°/s" (degrees per second for a control in
/// radians).
std::string RateSaturationWarning(const ControlGauge& gauge);

/// The mode table of an aircraft, graded against MIL-F-8785C.
struct ModeTable {
  /// One row per mode of `modes` but the heading root, in their order.
  std::vector<ModeRow> rows;
  /// What the levels are graded against (HudState::qualities).
  std::string qualities;
};

/// Returns the rows of `modes` (both axes, as FlightSession::modes()) with
/// each graded mode's level: analysis::Grade's worst level of the mode in the
/// file's category, else the worst of Categories A, B and C. Without levels
/// and with empty `qualities` when the file gives no class or a mode the
/// grading needs is missing.
ModeTable GradeModeTable(const model::AircraftData& aircraft,
                         const std::vector<analysis::Mode>& modes);

/// Returns who flies, as the status strip shows it: "script: <file name>",
/// or "" for the user (`script` nullptr).
std::string PilotLabel(const pilot::PilotScript* script);

/// Returns the glyph's exaggerations as the status strip shows them:
/// "attitude ×20 auto (A)", or with the heading's when it differs,
/// "attitude ×20, heading ×100 auto (A)".
std::string AttitudeExaggerationText(const HudState& h);

/// Fills a HudState from a FlightSession frame by frame. What does not
/// change during a session (the graded mode table, the control names and key
/// texts, the aircraft's name, who flies) is computed once, at construction.
class HudModel {
 public:
  /// Grades the session's modes (again whenever the session's modes change:
  /// the G key). `session` must outlive the model.
  HudModel(const FlightSession& session, std::string aircraft_name,
           const pilot::PilotScript* script = nullptr);

  /// Returns the HUD of a frame that draws `shown`, the state `lag` [s]
  /// behind the session's newest slice (an interpolated frame; the time shown
  /// is 0 before the first slice). Control bars span the control's travel
  /// when the file limits it, else 0.1 rad or 10 units, widened to the
  /// largest deflection seen so far. The window then sets its own readings
  /// (see HudState) in the returned state. `nonlinear_shown`: the nonlinear
  /// state drawn beside (interpolated as `shown`); nullptr: the session's
  /// newest (FlightSession::nonlinear_state()).
  HudState& Update(const sim::FlightState& shown, double lag = 0.0,
                   const sim::FlightState* nonlinear_shown = nullptr);

  const HudState& hud() const { return hud_; }

 private:
  void GradeModes();

  const FlightSession* session_;
  HudState hud_;
  int graded_generation_ = 0;
  Eigen::VectorXd commanded_, surfaces_, rates_;  // scratch of Update (control units)
};

}  // namespace aerolin::viz
