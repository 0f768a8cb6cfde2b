#pragma once
/// @file
/// The single place where aerolin's axes, state orders, control senses and
/// expected derivative signs are written down.
///
/// **Axes.** Body and stability axes: x forward, y right wing, z down.
/// Stability axes have x along the trim velocity (so W0 = 0 unless a file says
/// otherwise). The earth frame is NED: north, east, down; altitude h = -down.
///
/// **Attitude.** Euler angles ψ (yaw), θ (pitch), φ (roll), applied in the
/// order z-y-x: R_eb = Rz(ψ) Ry(θ) Rx(φ) maps body vectors to earth vectors.
/// The total pitch attitude is θ0 + θ.
///
/// **States.** Longitudinal x = (u, α, q, θ): u [m/s] perturbation of speed
/// along x, α [rad] angle of attack perturbation (w/U0), q [rad/s] pitch rate,
/// θ [rad] pitch-attitude perturbation. Lateral-directional
/// x = (β, p, r, φ, ψ): β [rad] sideslip (v/U0), p, r [rad/s] roll and yaw
/// rates, φ, ψ [rad] bank and heading perturbations.
///
/// **Controls.** A control's positive sense is defined by the signs of its
/// derivatives in the data file; aerolin takes no sign from a control's name.
/// In the bundled files (Kato, Etkin): elevator δe > 0 is trailing edge down
/// (M_δe < 0, nose down); rudder δr > 0 is trailing edge left (N_δr < 0, nose
/// left); the P2V-7's aileron has L_δa > 0 (δa > 0 rolls right); throttle is
/// dimensionless.
///
/// **Derivative symbols.** Fields keep the textbook symbols and case
/// (`Xu`, `Ma`, `Madot`, `Lb`): "a" stands for α, "b" for β, "dot" for the
/// time derivative. This is the one exception to snake_case naming.
///
/// **Expected signs** of a conventional, statically stable aircraft, used to
/// warn (not fail) on a likely sign error: Mα < 0, Mq < 0, Lp < 0, Nβ > 0.

#include <array>
#include <string>
#include <vector>

#include <string_view>

#include "aerolin/core/signal.hpp"

namespace aerolin::model {

/// The two decoupled axes of the small-perturbation model.
enum class Axis {
  kLongitudinal,  ///< x = (u, α, q, θ)
  kLateral,       ///< x = (β, p, r, φ, ψ)
};

/// The axis as the data files, the reports and the JSON name it.
constexpr std::string_view AxisName(Axis axis) {
  return axis == Axis::kLongitudinal ? "longitudinal" : "lateral";
}

/// Indices of the longitudinal state x = (u, α, q, θ).
namespace lon {
inline constexpr int kU = 0;
inline constexpr int kAlpha = 1;
inline constexpr int kQ = 2;
inline constexpr int kTheta = 3;
inline constexpr int kNumStates = 4;
}  // namespace lon

/// Indices of the lateral-directional state x = (β, p, r, φ, ψ).
namespace lat {
inline constexpr int kBeta = 0;
inline constexpr int kP = 1;
inline constexpr int kR = 2;
inline constexpr int kPhi = 3;
inline constexpr int kPsi = 4;
inline constexpr int kNumStates = 5;
}  // namespace lat

/// The longitudinal states as signals, in lon:: index order:
/// u [m/s], alpha [rad], q [rad/s], theta [rad].
const std::vector<core::Signal>& LongitudinalStateSignals();
/// The lateral-directional states as signals, in lat:: index order:
/// beta [rad], p [rad/s], r [rad/s], phi [rad], psi [rad].
const std::vector<core::Signal>& LateralStateSignals();
/// The states of `axis` as signals: LongitudinalStateSignals() or
/// LateralStateSignals().
const std::vector<core::Signal>& StateSignals(Axis axis);

/// The names of `signals` joined by ", ", e.g. "u, alpha, q, theta": how
/// help and error texts list the states (and outputs) a flag accepts.
std::string JoinNames(const std::vector<core::Signal>& signals);
/// The symbols of `signals` joined by ", ", e.g. "u, α, q, θ": how tables
/// title an axis's state vector.
std::string JoinSymbols(const std::vector<core::Signal>& signals);

}  // namespace aerolin::model
