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
/// dimensionless. Numpad key "8" increases the elevator value, "4" the aileron,
/// "9" the rudder, "+" the throttle (the seed's mapping).
///
/// **Derivative symbols.** Fields keep the textbook symbols and case
/// (`Xu`, `Ma`, `Madot`, `Lb`): "a" stands for α, "b" for β, "dot" for the
/// time derivative. This is the one exception to snake_case naming.
///
/// **Expected signs** of a conventional, statically stable aircraft, used to
/// warn (not fail) on a likely sign error: Mα < 0, Mq < 0, Lp < 0, Nβ > 0.

#include <array>
#include <string_view>

namespace aerolin::model {

/// Index of each longitudinal state in x = (u, α, q, θ).
enum LongitudinalState : int { kU = 0, kAlpha = 1, kQ = 2, kTheta = 3 };
inline constexpr int kNumLongitudinalStates = 4;

/// Index of each lateral-directional state in x = (β, p, r, φ, ψ).
enum LateralState : int { kBeta = 0, kP = 1, kR = 2, kPhi = 3, kPsi = 4 };
inline constexpr int kNumLateralStates = 5;

/// Control names that the numpad keys are bound to (seed program mapping).
inline constexpr std::array<std::string_view, 4> kKeyBoundControls = {
    "elevator", "throttle", "aileron", "rudder"};

}  // namespace aerolin::model
