#pragma once
/// @file
/// Watches a flight for leaving the small-perturbation range (flagged, the
/// run goes on) and for divergence (the run stops).

#include <optional>
#include <string>
#include <vector>

#include "aerolin/sim/flight_log.hpp"

namespace aerolin::sim {

/// Where the linearization stops being trustworthy. The defaults are the
/// usual rule of thumb for small-perturbation models (Etkin & Reid §4.1:
/// perturbation angles of a few degrees; speed within ~10 % of trim): beyond
/// them the aerodynamics are no longer linear and the trajectory is only
/// qualitative.
struct ValidityThresholds {
  double alpha = 0.17453292519943295;  ///< |α| limit [rad] (10°)
  double beta = 0.17453292519943295;   ///< |β| limit [rad] (10°)
  double phi = 0.52359877559829882;    ///< |φ| limit [rad] (30°)
  double speed_ratio = 0.1;            ///< |u| / U0 limit [1]
  /// Divergence: any state non-finite, or |u|/U0, |α|, |q|, |θ|, |β|, |p|,
  /// |r| or |φ| above this [1, rad, rad/s] — far outside any meaningful
  /// flight; the run is stopped. (ψ and position may grow without bound in a
  /// stable flight and are only checked for being finite.) The run also stops
  /// where the position kinematics are undefined: |α0 + α| or |β| ≥ 90°, or
  /// U0 + u ≤ 0.
  double divergence = 1e3;
};

/// One monitored quantity over a run.
struct ValidityFlag {
  std::string name;       ///< "alpha", "beta", "phi", "u/U0"
  double limit = 0.0;     ///< [rad] or [1]
  double peak = 0.0;      ///< max |value| seen
  double peak_time = 0.0; ///< [s]
  std::optional<double> first_exceeded;  ///< first time |value| > limit [s]
  bool exceeded() const { return first_exceeded.has_value(); }
};

/// Accumulates ValidityFlags over the states of a run.
class ValidityMonitor {
 public:
  /// @param U0 trim speed [m/s], > 0.
  /// @param alpha0 trim angle of attack in the state's axes, atan2(W0, U0) [rad].
  ValidityMonitor(const ValidityThresholds& thresholds, double U0,
                  double alpha0 = 0.0);

  /// Checks state `x` at time `t` [s]. Returns false, and sets divergence(),
  /// if the state diverged.
  bool Check(double t, const FlightState& x);

  /// The four flags, in the order alpha, beta, phi, u/U0.
  const std::vector<ValidityFlag>& flags() const { return flags_; }
  bool any_exceeded() const;
  /// The divergence message, e.g. "state diverged at t = 12.3 s: alpha =
  /// 1.2e+04 (limit 1000)", or nullopt.
  const std::optional<std::string>& divergence() const { return divergence_; }

  /// Returns the physical reason the body velocity is undefined at `x`, if
  /// an angle is within `margin` [rad] of 90° (|α0 + α|, |β|) or the speed
  /// U0 + u within margin·U0 of 0: e.g. "beta reached 90 deg". With margin 0
  /// this is the check of Check(); a larger margin names the cause when an
  /// integrator stalls as the state approaches it.
  std::optional<std::string> UndefinedKinematics(const FlightState& x, double margin = 0.0) const;

  /// Stops the run at `t` [s] for `cause` (from UndefinedKinematics): sets
  /// divergence() to "state diverged at t = T s: CAUSE: body velocity
  /// undefined; run stopped", the one message of both integrators.
  void StopFor(double t, const std::string& cause);

 private:
  ValidityThresholds thresholds_;
  double U0_;
  double alpha0_;
  std::vector<ValidityFlag> flags_;
  std::optional<std::string> divergence_;
};

}  // namespace aerolin::sim
