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
  /// The wing tips' trail: positions (drawn z, as `path`) and body → scene
  /// attitudes of the last seconds, oldest first (nullptr or empty: none).
  /// Drawn as two lines through the glyph's wing tips at the glyph's
  /// current size, the left red and the right green (navigation lights),
  /// fading with age: a bank oscillation twists them, a yaw wag sways them.
  const std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>>* trail = nullptr;
  /// The camera's distance from the aircraft [m] in a view that follows it
  /// (chase, free orbit): the ground grid is then LayoutFollowGrid's, around
  /// the aircraft; nullopt (the overview): LayoutGrid's, under the whole flight.
  std::optional<double> follow_distance;
  /// Vertical exaggeration K ≥ 1 the path, bounds and aircraft position were
  /// drawn with (their z multiplied by K): altitude ticks are labelled in
  /// true metres and the altitude title says "×K". The glyph keeps its shape.
  double vertical_exaggeration = 1.0;
  /// The nonlinear aircraft flown beside the linear one (the N key): drawn
  /// as a second glyph, translucent (alpha 0.45) and violet, under the
  /// linear glyph, with its own wing-tip trail in violet.
  struct Beside {
    Eigen::Vector3d position = Eigen::Vector3d::Zero();  ///< drawn z, as `aircraft`
    Eigen::Matrix3d attitude = Eigen::Matrix3d::Identity();  ///< body → scene
    const std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>>* trail = nullptr;
  };
  std::optional<Beside> nonlinear;  ///< nullopt: none
};

/// Returns the automatic vertical exaggeration of the overview for a path
/// with these bounds (true metres): the largest K of 1, 2, 5, 10, 20, 50, 100
/// with K·Δz ≤ 0.25·H, where Δz is the altitude extent (at least 1 m, so a
/// level flight is not magnified without limit) and H the larger horizontal
/// extent (at least kMinGridExtent). The ±6 m phugoid over 4 km gets ×50:
/// 600 m drawn against 4 km, a visible wave.
double AutoVerticalExaggeration(const Bounds& path);

/// Returns the automatic attitude exaggeration of the glyph for a flight
/// whose largest attitude perturbation |φ|, |θ| or |ψ| so far is `peak`
/// [rad]: the largest K of 1, 2, 5, 10, 20 with K·max(peak, 1°) ≤ 25°. The
/// window draws the glyph at heading K·ψ, pitch θ0 + K·θ and bank K·φ, so
/// a mode excited at the default 0.02 rad (1.1°) banks, wags or bobs the
/// glyph by about 20°, and a flight with 25° of bank or more is drawn true.
double AutoAttitudeExaggeration(double peak);

/// The largest attitude exaggeration, chosen (--attitude-exaggeration) or
/// automatic: ×100 turns 0.25° into 25°; more draws noise.
inline constexpr double kMaxAttitudeExaggeration = 100.0;

/// Returns the automatic heading exaggeration of the glyph for a flight
/// whose largest heading perturbation |ψ| so far is `peak` [rad]: the
/// largest K of 1, 2, 5, 10, 20, 50, 100 with K·max(peak, 0.25°) ≤ 25°.
/// A Dutch roll's yaw is a third to a seventh of its bank (0.17° to 0.97°
/// at the default excitation), so the bank's factor (AutoAttitudeExaggeration
/// of |φ|, |θ|) would wag the glyph by 3° to 19° only; its own factor wags
/// it by 12.5° to 25°, comparable to the bank's swing.
double AutoHeadingExaggeration(double peak);

/// The glyph's exaggerations: bank K·φ and pitch θ0 + K·θ by `attitude`,
/// heading K·ψ by `heading`.
struct GlyphExaggeration {
  double attitude = 1.0;
  double heading = 1.0;
};

/// Returns the automatic exaggerations for the largest perturbations
/// `peak` = (|φ|, |θ|, |ψ|) [rad] so far: attitude
/// AutoAttitudeExaggeration(max(|φ|, |θ|)), heading
/// AutoHeadingExaggeration(|ψ|).
GlyphExaggeration AutoGlyphExaggeration(const Eigen::Vector3d& peak);

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

/// Returns the ground grid of a view that follows the aircraft at `aircraft`
/// (scene frame [m]) from `distance` [m] (chase, free orbit): lines every
/// NiceStep(2·distance, 8) (100 m at the chase view's 450 m), over
/// ±kFollowGridSteps steps around the aircraft, the extent snapped to whole
/// steps (the lines stay put in the world and the aircraft's motion reads
/// against them); the ground plane a whole number of steps below the lowest
/// point of `bounds` (the flight so far), at least one step. However long the
/// flight, the grid is under the aircraft and its step fits the view (the
/// flight-wide grid of a 747 ten minutes out has 10 km squares, 5 km below).
GroundGrid LayoutFollowGrid(const Bounds& bounds, const Eigen::Vector3d& aircraft,
                            double distance);
/// Half-width of LayoutFollowGrid's grid [steps].
inline constexpr int kFollowGridSteps = 24;

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

  /// Rectangles (in the target's view coordinates) no label may overlap,
  /// e.g. the HUD panels: labels there are left out, not drawn under them.
  void SetKeepOut(std::vector<sf::FloatRect> rects) { keep_out_ = std::move(rects); }
  /// Rectangles of the labels drawn in the last Draw (view coordinates), for
  /// tests: none overlaps another, a keep-out rectangle or the view's edge.
  const std::vector<sf::FloatRect>& labels() const { return placed_; }

  /// Screen position of the aircraft in the last Draw, if it was in front.
  std::optional<ScreenPoint> aircraft_on_screen() const { return aircraft_px_; }
  const GroundGrid& grid() const { return grid_; }

 private:
  void DrawBackground(sf::RenderTarget& target);
  void DrawGrid(sf::RenderTarget& target, const Projector& projector);
  void DrawPath(sf::RenderTarget& target, const Projector& projector,
                const SceneView& view);
  void DrawAxes(sf::RenderTarget& target, const Projector& projector, double exaggeration);
  void DrawGlyph(sf::RenderTarget& target, const Projector& projector,
                 const SceneView& view);
  /// Appends the wing tips' trail (SceneView::trail) at glyph scale `scale`
  /// to lines_, its alpha fading with age, times `fade`.
  void AppendTrail(const Projector& projector,
                   const std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>>* trail,
                   double scale, sf::Color left, sf::Color right, float fade = 1.0f);
  /// Appends the glyph's shadow on the ground to `tris`.
  void AppendPlaneShadow(sf::VertexArray& tris, const Projector& projector,
                         const Eigen::Vector3d& position, const Eigen::Matrix3d& attitude,
                         double scale) const;
  /// Draws the glyph's five triangles at `position`, `attitude`, `scale`:
  /// the linear aircraft's colours, or (`ghost`) the nonlinear one's.
  void DrawPlane(sf::RenderTarget& target, const Projector& projector,
                 const Eigen::Vector3d& position, const Eigen::Matrix3d& attitude, double scale,
                 bool ghost);
  /// Draws a label anchored at (x, y) (its centre, else its left end, or its
  /// right end if `right_aligned`), turned by `angle_deg`, unless its box
  /// leaves the view or overlaps a drawn label or a keep-out rectangle;
  /// returns whether it was drawn.
  bool TryLabel(sf::RenderTarget& target, const std::string& text, float x, float y,
                unsigned size, sf::Color color, bool center, float angle_deg = 0.0f,
                bool right_aligned = false);

  const sf::Font* font_;
  GroundGrid grid_;
  std::optional<ScreenPoint> aircraft_px_;
  sf::VertexArray lines_{sf::Triangles};  // reused: no allocation per frame
  sf::VertexArray shadow_{sf::Triangles};
  sf::Text text_;
  std::vector<sf::FloatRect> keep_out_;
  std::vector<sf::FloatRect> placed_;
};

}  // namespace aerolin::viz
