#pragma once
/// @file
/// How wind gusts enter the small-perturbation model: the gust input matrix
/// E of @f$ \dot x = A x + B\delta + E d @f$, with d the wind along the
/// model's axes.
///
/// The aerodynamic terms of the equations act on the motion relative to the
/// air, the kinematic and gravity terms on the motion relative to the earth.
/// With a wind (u_g, v_g, w_g) [m/s] along the model's x, y, z axes (the axes
/// the data file's derivatives are in: stability axes, or body axes when it
/// gives W0; +z down) and a rolling gust p_g [rad/s] (the air's rotation
/// about x), the air-relative perturbations are
/// @f[
/// u_a = u - u_g,\quad \alpha_a = \alpha - w_g/U_0,\quad
/// \beta_a = \beta - v_g/U_0,\quad p_a = p - p_g .
/// @f]
/// So E is minus the aerodynamic part of A's u, α, β and p columns (scaled by
/// 1/U0 for the velocity gusts on α and β): the kinematic q in α̇, −W0 q in
/// u̇, W0 p and −r in β̇, φ̇ = p + r tan θ0 and the gravity terms get no gust.
/// Like A, the α̇ row is divided by D = 1 − Z_α̇/U0 and q̇ carries M_α̇ times
/// the α̇ row.
///
/// Neglected (a quasi-steady, point-aircraft model): the gust-rate terms
/// α̇_g = ẇ_g/U0 in Z_α̇ and M_α̇ (they act on the inertial α̇), the pitching
/// and yawing gusts q_g ≈ −ẇ_g/U0, r_g ≈ v̇_g/U0 of a frozen field, the
/// penetration lag along the aircraft and the gust's effect on the
/// controls' derivatives. A uniform wind (u, α, β, p equal to the gust)
/// therefore produces no aerodynamic force or moment.

#include <Eigen/Core>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::model {

/// Indices of the gust vector d = (u_g, v_g, w_g, p_g).
namespace gust {
inline constexpr int kUg = 0;  ///< wind along x [m/s] (+ from behind: a tailwind)
inline constexpr int kVg = 1;  ///< wind along y [m/s] (+ toward the right wing)
inline constexpr int kWg = 2;  ///< wind along z [m/s] (+ down: a downdraft)
inline constexpr int kPg = 3;  ///< rolling gust about x [rad/s]
inline constexpr int kNumGusts = 4;
}  // namespace gust

/// The number of linear states E has rows for: (u, α, q, θ) then
/// (β, p, r, φ, ψ), the order of sim::FlightModel.
inline constexpr int kNumGustStates = 9;

/// The gust signals in gust:: order: u_g, v_g, w_g [m/s], p_g [rad/s].
const std::vector<core::Signal>& GustSignals();

/// Returns the gust input matrix E (9 × 4): rows the longitudinal states
/// (u, α, q, θ) then the lateral ones (β, p, r, φ, ψ), columns (u_g, v_g,
/// w_g, p_g). Built from the same derivatives, D and M_α̇ coupling as
/// BuildLongitudinal / BuildLateral:
///
/// | row | u_g | v_g | w_g | p_g |
/// |:--:|:--:|:--:|:--:|:--:|
/// | u̇ | −X_u | 0 | −X_α/U0 | 0 |
/// | α̇ | −Z_u/(U0 D) | 0 | −Z_α/(U0² D) | 0 |
/// | q̇ | −M_u + M_α̇ E_αu | 0 | −M_α/U0 + M_α̇ E_αw | 0 |
/// | β̇ | 0 | −Y_β/U0² | 0 | −Y_p/U0 |
/// | ṗ | 0 | −L'_β/U0 | 0 | −L'_p |
/// | ṙ | 0 | −N'_β/U0 | 0 | −N'_p |
///
/// (θ̇, φ̇, ψ̇ rows are 0.) Units: state rate per m/s (u_g, v_g, w_g) or per
/// rad/s (p_g).
Eigen::MatrixXd BuildGustInput(const AircraftData& aircraft);

}  // namespace aerolin::model
