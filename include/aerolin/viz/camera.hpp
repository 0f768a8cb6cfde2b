#pragma once
/// @file
/// The flight window's camera and perspective projection, as plain Eigen math
/// (no SFML, no OpenGL), so every transform is unit-tested without a display.
///
/// **Scene frame.** The plot frame of core/frames.hpp, right-handed with z
/// up (ENU): x = east, y = north, z = up [m], origin at the start of the
/// flight. core::NedToPlot converts the engine's NED position (north, east,
/// down) and core::BodyToPlot its attitude.
/// **Screen.** Pixels, origin top-left, x right, y down (SFML's convention).

#include <Eigen/Core>
#include <optional>

#include "aerolin/core/frames.hpp"

namespace aerolin::viz {

/// A projected point: pixel coordinates and the distance in front of the eye
/// along the view axis [m].
struct ScreenPoint {
  double x = 0.0;      ///< [px], from the left edge
  double y = 0.0;      ///< [px], from the top edge
  double depth = 0.0;  ///< [m], > 0 in front of the camera
};

/// A camera looking at `target` from spherical offset (azimuth, elevation,
/// distance), with a vertical field of view.
struct OrbitCamera {
  Eigen::Vector3d target = Eigen::Vector3d::Zero();  ///< scene point looked at [m]
  double azimuth = 0.0;    ///< eye direction from target, from +x (east) toward +y (north) [rad]
  double elevation = 0.3;  ///< eye height angle above the horizontal [rad]
  double distance = 100.0;  ///< eye-to-target distance [m], > 0
  double fov_y = 0.8;       ///< vertical field of view [rad], in (0, π)
  /// Roll of the camera about its view axis [rad], as an aircraft banks:
  /// positive lowers the camera's right side, so the scene turns
  /// counter-clockwise on screen. The chase view rolls with the aircraft's
  /// bank φ, so the ground tilts against the glyph.
  double roll = 0.0;

  /// Returns the eye position in the scene [m].
  Eigen::Vector3d Eye() const;
  /// Rotates the orbit: adds `d_azimuth`, `d_elevation` [rad]; elevation is
  /// clamped to ±kMaxElevation so the view never flips over the pole.
  void Orbit(double d_azimuth, double d_elevation);
  /// Multiplies the distance by `factor` (> 0), clamped to [min, max] [m].
  void Zoom(double factor, double min_distance, double max_distance);
};

/// Elevation limit [rad]: 89° keeps the look-at basis well defined (the up
/// vector z must not be parallel to the view direction).
inline constexpr double kMaxElevation = 1.5533430342749532;

/// The combined view and projection of one frame, for a viewport of
/// width × height pixels. Build once per frame, then project many points.
class Projector {
 public:
  /// @throws std::invalid_argument if the viewport is empty or the camera's
  ///         distance or field of view is out of range.
  Projector(const OrbitCamera& camera, int width, int height);

  /// Returns the camera-space point (x right, y up, z toward the viewer; the
  /// eye looks along −z) of scene point `p`.
  Eigen::Vector3d ToCamera(const Eigen::Vector3d& p) const;
  /// Returns the screen position of scene point `p`, or nullopt if it lies
  /// behind the near plane.
  std::optional<ScreenPoint> Project(const Eigen::Vector3d& p) const;
  /// Returns the screen end points of segment a–b after clipping it against
  /// the near plane, or nullopt if it lies wholly behind.
  std::optional<std::pair<ScreenPoint, ScreenPoint>> ProjectSegment(
      const Eigen::Vector3d& a, const Eigen::Vector3d& b) const;
  /// Returns the world length [m] that spans `pixels` on screen at `depth` [m].
  double WorldPerPixel(double depth, double pixels = 1.0) const;

  double near() const { return near_; }
  int width() const { return width_; }
  int height() const { return height_; }
  const Eigen::Matrix3d& rotation() const { return rotation_; }
  const Eigen::Vector3d& eye() const { return eye_; }

 private:
  ScreenPoint FromCamera(const Eigen::Vector3d& c) const;

  Eigen::Matrix3d rotation_;  // rows: camera right, up, back in scene coords
  Eigen::Vector3d eye_;
  double focal_px_;  // pixels per unit of x/z at unit depth
  double near_;
  int width_, height_;
};

/// An axis-aligned box that grows one point at a time, O(1) per point.
struct Bounds {
  Eigen::Vector3d min = Eigen::Vector3d::Constant(0.0);
  Eigen::Vector3d max = Eigen::Vector3d::Constant(0.0);
  bool empty = true;

  void Extend(const Eigen::Vector3d& p);
  Eigen::Vector3d Center() const { return 0.5 * (min + max); }
  /// Returns half the diagonal [m] (0 when empty).
  double Radius() const;
};

/// Returns the target and distance at which a camera with the given field of
/// view and aspect (width/height) sees the whole of `bounds`, with the
/// bounding sphere filling at most `fill` (0, 1] of the narrower view angle;
/// the radius is at least `min_radius` [m].
OrbitCamera FitToBounds(const Bounds& bounds, OrbitCamera camera, double aspect,
                        double min_radius, double fill = 0.85);

/// Returns `current` moved toward `goal` by the exponential filter
/// 1 − exp(−dt/τ): the overview grows smoothly instead of jumping.
/// `dt`, `tau` [s]; τ ≤ 0 returns `goal`.
double SmoothApproach(double current, double goal, double dt, double tau);
Eigen::Vector3d SmoothApproach(const Eigen::Vector3d& current,
                               const Eigen::Vector3d& goal, double dt,
                               double tau);
/// As SmoothApproach for an angle [rad], taking the short way round.
double SmoothApproachAngle(double current, double goal, double dt, double tau);

/// Returns a "nice" grid spacing (1, 2 or 5 × 10^k) [m] giving about
/// `target_lines` lines across `extent` [m].
double NiceStep(double extent, double target_lines = 10.0);

}  // namespace aerolin::viz
