#pragma once
/// @file
/// Trim of the nonlinear 6-DOF model (sim/nonlinear_model.hpp): the angle of
/// attack, the attitude and the control settings of steady straight,
/// climbing, descending and turning flight.

#include <Eigen/Core>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/nonlinear_model.hpp"

namespace aerolin::study {

/// The flight to trim for, SI.
struct TrimRequest {
  double speed = 0.0;     ///< airspeed V [m/s], > 0
  double altitude = 0.0;  ///< h [m]
  double gamma = 0.0;     ///< flight-path angle γ [rad], |γ| < π/2
  /// Turn rate ψ̇ [rad/s] (> 0 turns right); not with `bank`.
  std::optional<double> turn_rate;
  /// Bank angle φ [rad] of a steady turn whose rate trim finds; not with `turn_rate`.
  std::optional<double> bank;
  double sideslip = 0.0;  ///< β [rad]; 0: a coordinated turn
};

/// One solved (or derived) trim variable, SI.
struct TrimVariable {
  std::string name;  ///< alpha, beta, phi, theta, a control's name, thrust, turn_rate, ...
  double value = 0.0;
  std::string unit;  ///< "rad", "rad/s", "1", "m/s²", ...
};

/// A solved trim.
struct TrimResult {
  sim::NonlinearState state;   ///< the trimmed state (heading north, at the altitude)
  sim::NonlinearInput input;   ///< controls (deviations from the file's reference) and thrust
  double alpha = 0.0, beta = 0.0, phi = 0.0, theta = 0.0;  ///< [rad]
  double turn_rate = 0.0;    ///< ψ̇ [rad/s]
  double gamma = 0.0;        ///< [rad]
  /// |non-gravitational specific force| / g [1] (1/cos φ in a level coordinated turn).
  double load_factor = 0.0;
  /// u̇, v̇, ẇ [m/s²], ṗ, q̇, ṙ [rad/s²] at the trim (TrimEquationNames order).
  Eigen::Matrix<double, 6, 1> residuals;
  int iterations = 0;
  /// alpha, beta, phi, theta, each control, thrust (files without a
  /// throttle), turn_rate, load_factor, gamma: what `aerolin trim` prints.
  std::vector<TrimVariable> variables;
  /// What the result assumes (inertias assumed, fixed density, thrust
  /// variable) and any limit held (a surplus control compensating).
  std::vector<std::string> notes;
};

/// The six trim equations: "u_dot", "v_dot", "w_dot", "p_dot", "q_dot", "r_dot".
const std::vector<std::string>& TrimEquationNames();

/// Thrown when no trim exists within the model and the controls' limits;
/// the message names the equation left unsatisfied, by how much, and the
/// limit that binds (if one does).
class TrimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Residual below which a trim equation counts as satisfied [m/s², rad/s²]:
/// Newton ends far below it (~1e-14) on a solvable request; it only decides
/// failure.
inline constexpr double kTrimTolerance = 1e-9;

/// Returns the trim of `aircraft`'s nonlinear model for `request`.
///
/// Unknowns: α, φ (or ψ̇ when `bank` is given), every control except the
/// throttle, and the throttle or (files without one) a thrust change T along
/// body x [m/s²]. Equations: u̇ = v̇ = ẇ = ṗ = q̇ = ṙ = 0 with β given, θ from
/// the rate-of-climb constraint and the body rates of a steady turn
/// (Stevens, Lewis & Johnson 3rd ed. §3.6: tan θ = (ab + sin γ √(a² − sin²γ
/// + b²))/(a² − sin²γ), a = cos α cos β, b = sin φ sin β + cos φ sin α cos β;
/// p = −ψ̇ sin θ, q = ψ̇ sin φ cos θ, r = ψ̇ cos φ cos θ). Solved by Newton
/// with a central-difference Jacobian (step 1e-7 × max(1, |z|), error
/// ~1e-9 relative, enough for quadratic convergence) and a backtracking line
/// search on |residual|; a minimum-norm least-squares step when the unknowns
/// and equations do not pair (a file with more or fewer controls).
/// @throws std::invalid_argument if speed ≤ 0, |γ| ≥ π/2, or both turn_rate
///         and bank are given.
/// @throws TrimError if Newton cannot bring every residual below
///         kTrimTolerance; an unknown that ends beyond its limit (a control's
///         min/max, or α beyond sim::ValidityThresholds::alpha of the file's
///         reference: the linear aerodynamic model has no stall) is held at
///         the limit, the rest solved again, and the residual left reported.
TrimResult Trim(const model::AircraftData& aircraft, const TrimRequest& request,
                const sim::NonlinearOptions& options = {});

/// The request that trims at `aircraft`'s own reference condition: speed
/// √(U0² + W0²), γ = θ0 − atan2(W0, U0), the file's altitude (0 without one).
TrimRequest ReferenceRequest(const model::AircraftData& aircraft);

}  // namespace aerolin::study
