#pragma once
/// @file
/// The frames aerolin draws and integrates in, written once.
///
/// **Earth frame** NED: north, east, down [m]; altitude h = −down.
/// **Body frame** x forward, y right wing, z down.
/// **Plot/scene frame** ENU: (east, north, altitude) [m], right-handed with
/// altitude up, the frame of every figure and of the window's scene. Drawing
/// (north, east, altitude) directly would be left-handed and mirror turns.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace aerolin::core {

/// Returns the body-to-earth rotation R_eb = Rz(ψ) Ry(θ) Rx(φ) (z-y-x Euler
/// angles), mapping body vectors to NED vectors. Arguments in the order of
/// the rotation: heading ψ, pitch θ (the *total* attitude θ0 + θ), bank φ,
/// all [rad]. The matrix has no singularity; only Euler-angle rates do.
inline Eigen::Matrix3d BodyToEarth(double psi, double theta, double phi) {
  return (Eigen::AngleAxisd(psi, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(phi, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

/// Maps a NED vector [m] to the plot/scene frame: (east, north, −down).
inline Eigen::Vector3d NedToPlot(const Eigen::Vector3d& ned) {
  return {ned.y(), ned.x(), -ned.z()};
}

/// Maps a NED position given by components [m] to the plot/scene frame.
inline Eigen::Vector3d NedToPlot(double north, double east, double down) {
  return {east, north, -down};
}

/// Returns the rotation mapping body vectors to plot/scene vectors: each
/// column of BodyToEarth(ψ, θ, φ) passed through NedToPlot. Same arguments
/// and order as BodyToEarth [rad].
inline Eigen::Matrix3d BodyToPlot(double psi, double theta, double phi) {
  const Eigen::Matrix3d body_to_earth = BodyToEarth(psi, theta, phi);
  Eigen::Matrix3d body_to_plot;
  for (int c = 0; c < 3; ++c)
    body_to_plot.col(c) = NedToPlot(Eigen::Vector3d(body_to_earth.col(c)));
  return body_to_plot;
}

}  // namespace aerolin::core
