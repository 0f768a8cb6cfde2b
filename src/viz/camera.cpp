#include "aerolin/viz/camera.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "aerolin/core/nice_number.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::viz {
namespace {

using core::kPi;
// Near plane as a fraction of the orbit distance: there is no depth buffer,
// so the ratio only has to keep the perspective division finite.
constexpr double kNearFraction = 1e-3;

}  // namespace

Eigen::Vector3d OrbitCamera::Eye() const {
  const double c = std::cos(elevation);
  return target + distance * Eigen::Vector3d(c * std::cos(azimuth),
                                             c * std::sin(azimuth),
                                             std::sin(elevation));
}

void OrbitCamera::Orbit(double d_azimuth, double d_elevation) {
  azimuth = std::remainder(azimuth + d_azimuth, 2.0 * kPi);
  elevation = std::clamp(elevation + d_elevation, -kMaxElevation, kMaxElevation);
}

void OrbitCamera::Zoom(double factor, double min_distance, double max_distance) {
  distance = std::clamp(distance * factor, min_distance, max_distance);
}

Projector::Projector(const OrbitCamera& camera, int width, int height)
    : width_(width), height_(height) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument("Projector: viewport must be non-empty, got " +
                                std::to_string(width) + "x" +
                                std::to_string(height));
  if (!(camera.distance > 0.0) || !std::isfinite(camera.distance))
    throw std::invalid_argument("Projector: camera distance must be > 0, got " +
                                std::to_string(camera.distance));
  if (!(camera.fov_y > 0.0 && camera.fov_y < kPi))
    throw std::invalid_argument("Projector: fov_y must be in (0, pi), got " +
                                std::to_string(camera.fov_y));
  eye_ = camera.Eye();
  const Eigen::Vector3d back = (eye_ - camera.target).normalized();
  const Eigen::Vector3d right =
      Eigen::Vector3d::UnitZ().cross(back).normalized();
  const Eigen::Vector3d level_up = back.cross(right);
  // Roll about the view axis, as an aircraft banks: a positive roll lowers
  // the camera's right side, so the scene turns counter-clockwise on screen.
  const double cr = std::cos(camera.roll), sr = std::sin(camera.roll);
  const Eigen::Vector3d rolled_right = cr * right - sr * level_up;
  const Eigen::Vector3d up = back.cross(rolled_right);
  rotation_.row(0) = rolled_right.transpose();
  rotation_.row(1) = up.transpose();
  rotation_.row(2) = back.transpose();
  focal_px_ = 0.5 * height / std::tan(0.5 * camera.fov_y);
  near_ = kNearFraction * camera.distance;
}

Eigen::Vector3d Projector::ToCamera(const Eigen::Vector3d& p) const {
  return rotation_ * (p - eye_);
}

ScreenPoint Projector::FromCamera(const Eigen::Vector3d& c) const {
  const double depth = -c.z();
  return {0.5 * width_ + focal_px_ * c.x() / depth,
          0.5 * height_ - focal_px_ * c.y() / depth, depth};
}

std::optional<ScreenPoint> Projector::Project(const Eigen::Vector3d& p) const {
  const Eigen::Vector3d c = ToCamera(p);
  if (-c.z() < near_) return std::nullopt;
  return FromCamera(c);
}

std::optional<std::pair<ScreenPoint, ScreenPoint>> Projector::ProjectSegment(
    const Eigen::Vector3d& a, const Eigen::Vector3d& b) const {
  Eigen::Vector3d ca = ToCamera(a);
  Eigen::Vector3d cb = ToCamera(b);
  const double da = -ca.z() - near_;  // signed distance in front of the near plane
  const double db = -cb.z() - near_;
  if (da < 0.0 && db < 0.0) return std::nullopt;
  if (da < 0.0) ca = ca + (cb - ca) * (da / (da - db));
  if (db < 0.0) cb = cb + (ca - cb) * (db / (db - da));
  return std::make_pair(FromCamera(ca), FromCamera(cb));
}

double Projector::WorldPerPixel(double depth, double pixels) const {
  return pixels * depth / focal_px_;
}

void Bounds::Extend(const Eigen::Vector3d& p) {
  if (empty) {
    min = max = p;
    empty = false;
    return;
  }
  min = min.cwiseMin(p);
  max = max.cwiseMax(p);
}

double Bounds::Radius() const {
  return empty ? 0.0 : 0.5 * (max - min).norm();
}

OrbitCamera FitToBounds(const Bounds& bounds, OrbitCamera camera, double aspect,
                        double min_radius, double fill) {
  const double radius = std::max(bounds.Radius(), min_radius);
  camera.target = bounds.empty ? Eigen::Vector3d::Zero() : bounds.Center();
  const double half_v = 0.5 * camera.fov_y;
  const double half_h = std::atan(std::tan(half_v) * aspect);
  const double half = std::min(half_v, half_h) * std::clamp(fill, 0.05, 1.0);
  camera.distance = radius / std::sin(half);
  return camera;
}

double SmoothApproach(double current, double goal, double dt, double tau) {
  if (tau <= 0.0) return goal;
  return goal + (current - goal) * std::exp(-dt / tau);
}

Eigen::Vector3d SmoothApproach(const Eigen::Vector3d& current,
                               const Eigen::Vector3d& goal, double dt,
                               double tau) {
  if (tau <= 0.0) return goal;
  return goal + (current - goal) * std::exp(-dt / tau);
}

double SmoothApproachAngle(double current, double goal, double dt, double tau) {
  const double diff = std::remainder(goal - current, 2.0 * kPi);
  return std::remainder(goal - SmoothApproach(diff, 0.0, dt, tau), 2.0 * kPi);
}

double NiceStep(double extent, double target_lines) {
  if (!(extent > 0.0) || !(target_lines > 0.0)) return 1.0;
  return core::NiceNearest(extent / target_lines);
}

}  // namespace aerolin::viz
