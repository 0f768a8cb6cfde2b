#pragma once
/// @file
/// The flight window's head-up display and help overlay (SFML text and
/// shapes, drawn in screen pixels over the scene): draws the HudState that
/// hud_model.hpp computes.

#include <SFML/Graphics.hpp>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "aerolin/viz/hud_model.hpp"

namespace aerolin::viz {

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
  float DrawDisturbances(sf::RenderTarget& target, const HudState& h, float x, float y, float w,
                         bool with_rms = true);
  float DisturbancesHeight(const HudState& h, bool with_rms = true) const;

  const sf::Font* sans_;
  const sf::Font* mono_;
  sf::Text text_;
  sf::RectangleShape rect_;  ///< every panel and bar, drawn in turn
  std::vector<sf::FloatRect> panels_;
};

}  // namespace aerolin::viz
