#pragma once
/// @file
/// Draws the 3D scene (ground grid, trajectory and its shadow, paper-plane
/// glyph, axes with distance labels) with SFML 2D primitives, from points
/// projected by viz::Projector.

#include <SFML/Graphics.hpp>
#include <Eigen/Core>
#include <optional>
#include <vector>

#include "aerolin/viz/camera.hpp"

namespace aerolin::viz {

/// What one frame of the scene shows. Scene frame (ENU, [m]); see camera.hpp.
struct SceneView {
  /// Trajectory points to draw, oldest first; the last one is the aircraft.
  const std::vector<Eigen::Vector3d>* path = nullptr;
  Bounds bounds;                       ///< of the whole flight so far
  Eigen::Vector3d aircraft = Eigen::Vector3d::Zero();
  Eigen::Matrix3d attitude = Eigen::Matrix3d::Identity();  ///< body → scene
};

/// Size of the glyph (exporting::PaperPlaneBody with kWindowKeelDepth) on
/// screen, nose to tail [px].
inline constexpr double kGlyphPixels = 64.0;

/// Returns the ground-grid layout for `bounds`: the grid step [m] and the
/// height of the ground plane [m], a whole number of steps below the lowest
/// point (so it moves in steps as the flight grows, never every frame).
struct GroundGrid {
  double step = 100.0;
  double ground_z = 0.0;
  Eigen::Vector2d min = Eigen::Vector2d::Zero();  ///< grid extent x, y [m]
  Eigen::Vector2d max = Eigen::Vector2d::Zero();
  double top_z = 0.0;  ///< top of the altitude axis [m]
};
GroundGrid LayoutGrid(const Bounds& bounds, double min_extent);

/// Smallest horizontal extent [m] of the ground grid drawn under a flight.
inline constexpr double kMinGridExtent = 1000.0;

/// Returns `path` extended by the ground grid and altitude axis the scene
/// draws around it (LayoutGrid with kMinGridExtent), so that fitting the
/// camera to it keeps the grid's corners and labels in view. O(1).
Bounds DrawnBounds(const Bounds& path);

/// Returns "250 m", "1.5 km", ... for a distance [m] shown with grid `step`.
std::string FormatDistance(double metres, double step);

class SceneRenderer {
 public:
  explicit SceneRenderer(const sf::Font& font) : font_(&font) {}

  /// Draws the whole scene (background first) into `target`.
  void Draw(sf::RenderTarget& target, const Projector& projector,
            const SceneView& view);

  /// Screen position of the aircraft in the last Draw, if it was in front.
  std::optional<ScreenPoint> aircraft_on_screen() const { return aircraft_px_; }
  const GroundGrid& grid() const { return grid_; }

 private:
  void DrawBackground(sf::RenderTarget& target);
  void DrawGrid(sf::RenderTarget& target, const Projector& projector);
  void DrawPath(sf::RenderTarget& target, const Projector& projector,
                const SceneView& view);
  void DrawAxes(sf::RenderTarget& target, const Projector& projector);
  void DrawGlyph(sf::RenderTarget& target, const Projector& projector,
                 const SceneView& view);
  void Label(sf::RenderTarget& target, const std::string& text, float x,
             float y, unsigned size, sf::Color color, bool center);

  const sf::Font* font_;
  GroundGrid grid_;
  std::optional<ScreenPoint> aircraft_px_;
  sf::VertexArray lines_{sf::Triangles};  // reused: no allocation per frame
  sf::VertexArray shadow_{sf::Triangles};
  sf::Text text_;
};

}  // namespace aerolin::viz
