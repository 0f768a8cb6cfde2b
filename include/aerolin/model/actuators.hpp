#pragma once
/// @file
/// The command path between the pilot and the control surfaces: a
/// first-order actuator per control (with optional position and rate limits)
/// and one pure time delay. The MIL-STD-1797A criteria for augmented
/// aircraft (study/mil_std_1797.hpp) grade the aircraft through them; a
/// flight (sim::FlightModel::AddActuators) flies each actuator, its lag and
/// its position and rate limits (not the delay); the modes do not see them. A data file's
/// `[actuators]` section (data/derivatives/README.md) and `aerolin
/// qualities --actuator/--delay` give them; the limits on the values are
/// written here once, for both.

#include <map>
#include <optional>
#include <string>

namespace aerolin::model {

/// A first-order actuator δ/δc = 1/(τa s + 1), the surface position δ
/// following the command δc; SI (rad, rad/s) for a control in radians.
struct Actuator {
  double time_constant = 0.0;             ///< τa [s], 0 < τa ≤ kMaxActuatorTimeConstant
  std::optional<double> position_limit;   ///< |δ| ≤ limit [rad], > 0; none: unlimited
  std::optional<double> rate_limit;       ///< |δ̇| ≤ limit [rad/s], > 0; none: unlimited
};

/// The actuators by control name, and the delay of every command.
struct CommandPath {
  std::map<std::string, Actuator> actuators;  ///< control name → actuator; absent: ideal
  double delay = 0.0;                         ///< pure time delay τ [s], 0 ≤ τ ≤ kMaxDelay
  bool empty() const { return actuators.empty() && delay == 0.0; }
};

/// Largest actuator time constant accepted [s]: a control-surface actuator
/// is 0.02-0.1 s; a second or more is a unit slip (ms given as s).
inline constexpr double kMaxActuatorTimeConstant = 1.0;
/// Largest delay accepted [s]: Level 3 of every time-delay limit is 0.25 s
/// (MIL-STD-1797A via Morelli's milstd.m); a second or more is a unit slip.
inline constexpr double kMaxDelay = 1.0;

/// Returns why `time_constant` [s] is not a valid τa, or "" if it is.
std::string TimeConstantProblem(double time_constant);
/// Returns why `delay` [s] is not a valid delay, or "" if it is.
std::string DelayProblem(double delay);
/// Returns why a position or rate limit `limit` (> 0, finite) is not valid,
/// or "" if it is.
std::string LimitProblem(double limit);

/// Returns `file` with what the command line gives in its place: each named
/// actuator replaces the file's actuator of that control wholly (time
/// constant and limits), and `delay`, when given, replaces the file's delay.
/// The one place of the rule "the command line overrides the file".
CommandPath Override(CommandPath file, const std::map<std::string, Actuator>& actuators,
                     std::optional<double> delay);

}  // namespace aerolin::model
