#pragma once
/// @file
/// The flight window's head-up display and help overlay (SFML text and
/// shapes, drawn in screen pixels over the scene).

#include <SFML/Graphics.hpp>
#include <Eigen/Core>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/validity.hpp"

namespace aerolin::viz {

/// One control's bar: value and the range the bar spans.
struct ControlGauge {
  std::string name;
  core::Unit unit = core::Unit::kOne;  ///< kRadian is shown in degrees
  double value = 0.0;  ///< [unit]
  double range = 1.0;  ///< the bar spans ±range [unit]
  /// The keys and their effects, e.g. "4 roll left · 6 roll right" (empty
  /// if the control is not key-bound); drawn under the bar.
  std::string keys;
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

/// Everything the HUD shows in one frame.
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
  double frame_cost = 0.0;        ///< wall time to build the last frame [s]
  double fps = 0.0;
  double time_scale = 1.0;        ///< requested
  double realtime_factor = 0.0;   ///< measured sim seconds per wall second
  /// A scripted flight flown as fast as possible: no wall-clock rates to show.
  bool as_fast_as_possible = false;
  double behind = 0.0;            ///< simulated time still owed [s]
  unsigned long long overruns = 0;
  unsigned long long slices = 0;
  std::size_t drawn_points = 0;
  bool paused = false;
  std::string camera_mode;
  std::vector<std::string> warnings;  ///< validity warnings, shown in red
  std::string message;                ///< transient status (saved files, ...)
  std::string log_path;
  std::string pilot;  ///< who flies, e.g. "script: a.txt" (empty: the user)
  /// Pitch attitude θ0 + θ [rad] for the attitude indicator (bank is
  /// state[kPhi]).
  double pitch_attitude = 0.0;
  /// Trim pitch attitude θ0 [rad]: the ladder's scale shrinks below
  /// kPitchPixelsPerDegree when θ0 would put the horizon off the disc.
  double trim_pitch = 0.0;
  /// Vertical exaggeration of the drawn altitude (1: true scale) and whether
  /// it is chosen automatically.
  double vertical_exaggeration = 1.0;
  bool exaggeration_auto = true;
  /// Turbulence intensity ("light", ...), empty when off.
  std::string turbulence;
  double turbulence_altitude = 0.0;  ///< [m]
  unsigned long long turbulence_seed = 0;
  Eigen::Vector3d turbulence_sigma = Eigen::Vector3d::Zero();  ///< σu, σv, σw [m/s]
  /// Gusts held over the last slice: u_g, v_g, w_g [m/s], p_g [rad/s].
  Eigen::Vector4d wind = Eigen::Vector4d::Zero();
  /// Factor of the keys , and . on the next excitation's amplitude.
  double amplitude_factor = 1.0;
  /// The current segment's start, e.g. "phugoid, amplitude 0.02" (empty at trim).
  std::string excitation;
};

/// Bank angles [deg] of the attitude indicator's bank-scale ticks (each also
/// negated).
inline constexpr std::array<int, 5> kBankTicks = {10, 20, 30, 45, 60};
/// Pixels per degree of the attitude indicator's pitch ladder at most: a 1°
/// pitch oscillation moves the horizon 6 px. With a trim attitude θ0 the
/// scale is min(6, (R − 10 px)/(|θ0| + 5°)) for a disc of radius R, so the
/// horizon stays on the disc (A-7A, θ0 = 11.2°, R = 72 px: 3.8 px/°).
inline constexpr float kPitchPixelsPerDegree = 6.0f;

/// Returns the pitch ladder's scale [px/°] for a disc of `radius` [px] and
/// trim attitude `trim_pitch_deg` [°] (see kPitchPixelsPerDegree).
inline float PitchPixelsPerDegree(float radius, double trim_pitch_deg) {
  const float fit = static_cast<float>((radius - 10.0) / (std::abs(trim_pitch_deg) + 5.0));
  return fit < kPitchPixelsPerDegree ? fit : kPitchPixelsPerDegree;
}

/// Right edge of the HUD's state panel (top left) [px]: the window centres the
/// 3D scene in the area right of it.
inline constexpr float kStatePanelRight = 342.0f;

/// Width [px] the HUD's right column (attitude indicator, excitation and
/// turbulence panel, with its margins) takes in a window `window_width` wide:
/// narrower below 1100 px.
inline float RightColumnWidth(float window_width) { return window_width < 1100 ? 214 : 274; }

/// A key and what it does, for the help overlay.
struct KeyHelp {
  std::string keys;
  std::string action;
};

class HudRenderer {
 public:
  HudRenderer(const sf::Font& sans, const sf::Font& mono) : sans_(&sans), mono_(&mono) {}

  /// Draws the HUD panels over whatever is in `target`.
  void Draw(sf::RenderTarget& target, const HudState& hud);
  /// Draws the help overlay listing `keys` in the middle of the window.
  void DrawHelp(sf::RenderTarget& target, const std::vector<KeyHelp>& keys);

  /// Rectangles (pixels) of the panels drawn in the last Draw, for tests.
  const std::vector<sf::FloatRect>& panels() const { return panels_; }

 private:
  float Text(sf::RenderTarget& target, const std::string& s, float x, float y,
             unsigned size, sf::Color color, bool mono = true);
  void Panel(sf::RenderTarget& target, sf::FloatRect r);
  /// Draws the rectangle at `position` of `size` [px] in `fill`, with an
  /// `outline` [px] of `edge` (none if 0), reusing one shape.
  void Rect(sf::RenderTarget& target, sf::Vector2f position, sf::Vector2f size, sf::Color fill,
            float outline = 0.0f, sf::Color edge = sf::Color::Transparent);
  /// Draws a gauge centred on zero: the grey track `box`, a bar of `fill`
  /// from the centre over the share `fraction` (clamped to ±1) of each half,
  /// a centre tick.
  void CentredBar(sf::RenderTarget& target, const sf::FloatRect& box, double fraction,
                  sf::Color fill);
  /// Draws the attitude indicator in a panel with top-left corner (x, y);
  /// returns the panel's height.
  float DrawAttitude(sf::RenderTarget& target, const HudState& h, float x, float y, float w,
                     float radius);
  /// Draws the excitation / turbulence panel; returns its height.
  float DrawDisturbances(sf::RenderTarget& target, const HudState& h, float x, float y, float w);
  float DisturbancesHeight(const HudState& h) const;

  const sf::Font* sans_;
  const sf::Font* mono_;
  sf::Text text_;
  sf::RectangleShape rect_;  ///< every panel and bar, drawn in turn
  std::vector<sf::FloatRect> panels_;
};

/// Returns one warning line per quantity of `state` now beyond the engine's
/// small-perturbation `limits` (sim/validity.hpp), given the trim speed U0
/// [m/s]; empty when within range.
std::vector<std::string> ValidityWarnings(const sim::FlightState& state, double U0,
                                          const sim::ValidityThresholds& limits = {});

}  // namespace aerolin::viz
