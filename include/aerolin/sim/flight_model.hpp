#pragma once
/// @file
/// The full flight model: the linear longitudinal and lateral perturbation
/// equations plus the earth-frame position kinematics.

#include <Eigen/Core>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::sim {

/// The 9 linear perturbation states (u, α, q, θ, β, p, r, φ, ψ).
inline constexpr int kNumLinearStates = 9;
using LinearState = Eigen::Matrix<double, kNumLinearStates, 1>;
using LinearMatrix = Eigen::Matrix<double, kNumLinearStates, kNumLinearStates>;

/// Returns the body velocity (u_b, v_b, w_b) [m/s] of the perturbations u
/// [m/s], α, β [rad] about the trim speed U0 [m/s] and α0 [rad], by the exact
/// geometric definitions α_tot = atan(w/u_b), β = asin(v/V) (FlightModel,
/// below): u_b = U0 + u, w_b = u_b tan(α0 + α), v_b = u_b tan β / cos(α0 + α).
/// The one copy of that rule: the linear model's kinematics and the nonlinear
/// model's state (sim/nonlinear_shadow.hpp) both take it from here.
inline Eigen::Vector3d BodyVelocityOf(double U0, double alpha0, double u, double alpha, double beta) {
  const double ub = U0 + u;
  const double ca = std::cos(alpha0 + alpha), sa = std::sin(alpha0 + alpha);
  const double cb = std::cos(beta), sb = std::sin(beta);
  return {ub, ub * sb / (cb * ca), ub * sa / ca};
}

/// The 12-state flight model
/// @f[
/// \dot x_{lin} = A x_{lin} + B \delta + E d, \qquad
/// \dot p_e = R_{eb}(\psi, \theta_0 + \theta, \phi)\, v_b(u, \alpha, \beta)
/// @f]
/// with x = (u, α, q, θ, β, p, r, φ, ψ, north, east, down) (FlightStateIndex)
/// and the body velocity [m/s] taken from the perturbations by the exact
/// geometric definitions α_tot = atan(w/u_b), β = asin(v/V):
/// @f[
/// u_b = U_0 + u,\quad w_b = u_b \tan(\alpha_0 + \alpha),\quad
/// v_b = u_b \tan\beta / \cos(\alpha_0 + \alpha),\quad \alpha_0 = \operatorname{atan2}(W_0, U_0).
/// @f]
/// To first order this is the seed's v = u_b sin β, w = u_b tan α; it differs
/// at second order in β. Valid for |α0 + α| < 90°, |β| < 90°, U0 + u > 0.
///
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | A | 9 | 9 (block-diagonal: longitudinal 4×4, lateral 5×5) |
/// | B | 9 | num_controls (data-file order) |
/// | E | 9 | num_disturbances (0 unless given) |
///
/// E is the disturbance input (the seam for gusts): d is held over a slice
/// like δ, its order and units are those of E's columns.
class FlightModel {
 public:
  /// Builds A and B with model::BuildLongitudinal / BuildLateral; no
  /// disturbance input (E is 9 × 0).
  /// @throws std::invalid_argument as model::StateSpace, or for a position
  ///         limit on a file whose augmentation loops an acceleration (not
  ///         flown yet).
  explicit FlightModel(const model::AircraftData& aircraft);
  /// As above, with the disturbance input matrix `E` (9 rows, one column per
  /// disturbance; units: state rate per disturbance unit).
  /// @throws std::invalid_argument if E does not have 9 rows or an entry is
  ///         not finite.
  FlightModel(const model::AircraftData& aircraft, Eigen::MatrixXd E);

  const LinearMatrix& A() const { return A_; }
  const Eigen::MatrixXd& B() const { return B_; }
  const Eigen::MatrixXd& E() const { return E_; }
  double U0() const { return U0_; }          ///< trim speed [m/s]
  double theta0() const { return theta0_; }  ///< trim pitch attitude [rad]
  double alpha0() const { return alpha0_; }  ///< atan2(W0, U0) [rad]
  int num_controls() const { return static_cast<int>(controls_.size()); }
  int num_disturbances() const { return static_cast<int>(E_.cols()); }
  /// The aircraft's controls, in data-file order (names, units, limits).
  const std::vector<model::Control>& controls() const { return controls_; }
  std::vector<std::string> control_names() const;
  std::vector<std::string> control_units() const;

  /// Returns the earth-frame (NED) velocity [m/s] of state `x`.
  Eigen::Vector3d VelocityNed(const FlightState& x) const;

  /// Writes ẋ for state `x` with the input term `B_delta` = B δ + E d (9
  /// values, precomputed because δ and d are held over a slice).
  void Derivative(const FlightState& x, const LinearState& B_delta,
                  FlightState& dxdt) const {
    LinearDerivative(x, B_delta, dxdt);
    dxdt.tail<3>() = VelocityNed(x);
  }

  /// The feedback the model's A closes (the file's [augmentation], u = −K x),
  /// as the flight's controls see it: num_controls × 9 (rows in data-file
  /// order, columns the 9 linear states), zero rows for controls not fed
  /// back and for a bare airframe. SI: control unit per state unit.
  const Eigen::MatrixXd& feedback_gain() const { return K_; }
  /// True if a control's actuator has a position limit (`[actuators]`
  /// `limit_deg`): the flight then limits that surface's deflection.
  bool has_position_limits() const { return !limits_.empty(); }
  /// The position limit of control `c` (data-file order) [control unit], or
  /// nullopt if it has none.
  std::optional<double> position_limit(int c) const;
  /// Writes the deflection each surface is commanded in state `x`: the
  /// pilot's `controls` plus the feedback, δc = δ_pilot − K x, or
  /// δc = M δ_pilot − K x with a loop on an acceleration (model::FeedbackOf)
  /// (data-file order, control units; `out` is resized to num_controls).
  void CommandedDeflections(const FlightState& x, const Eigen::Ref<const Eigen::VectorXd>& controls,
                            Eigen::VectorXd& out) const;
  /// Writes the deflection each surface takes: the commanded one, clamped to
  /// ±its position limit. Returns true if a limit is reached (a commanded
  /// deflection beyond it).
  bool SurfaceDeflections(const FlightState& x, const Eigen::Ref<const Eigen::VectorXd>& controls,
                          Eigen::VectorXd& out) const;
  /// Adds to ẋ what the position limits change: for each limited control c
  /// whose commanded δc = δ_pilot,c − K_c x lies beyond ±L_c, the term
  /// B_c (clamp(δc, −L_c, L_c) − δc), so that ẋ = A_bare x + B δ_surface
  /// (A x already holds −B K x). Adds nothing, and returns false, while no
  /// limit is reached, so an unlimited flight is unchanged bit for bit.
  /// The one place the flown closed loop meets the actuators; allocates
  /// nothing.
  bool AddLimitCorrection(const FlightState& x, const Eigen::Ref<const Eigen::VectorXd>& controls,
                          FlightState& dxdt) const {
    bool limited = false;
    for (const PositionLimit& l : limits_) {
      const double commanded = controls[l.control] - l.gain.dot(x.head<kNumLinearStates>());
      if (const std::optional<double> stop = AtStop(commanded, l.limit)) {
        dxdt.head<kNumLinearStates>() += B_.col(l.control) * (*stop - commanded);
        limited = true;
      }
    }
    return limited;
  }

  /// Writes the first 9 components of ẋ (A x + B δ + E d) only.
  void LinearDerivative(const FlightState& x, const LinearState& B_delta,
                        FlightState& dxdt) const {
    // A is block-diagonal: two small products (41 multiply-adds, not 81).
    dxdt.head<4>().noalias() = A_lon_ * x.head<4>();
    dxdt.segment<5>(kBeta).noalias() = A_lat_ * x.segment<5>(kBeta);
    dxdt.head<kNumLinearStates>() += B_delta;
  }

 private:
  // The stop a `commanded` deflection beyond ±limit sits at; nullopt within.
  static std::optional<double> AtStop(double commanded, double limit) {
    if (commanded > limit) return limit;
    if (commanded < -limit) return -limit;
    return std::nullopt;
  }
  // A control whose actuator limits its position.
  struct PositionLimit {
    Eigen::Index control;                            // data-file order
    double limit;                                    // L [control unit]
    Eigen::Matrix<double, 1, kNumLinearStates> gain;  // its row of K
  };
  LinearMatrix A_;
  Eigen::Matrix4d A_lon_;
  Eigen::Matrix<double, 5, 5> A_lat_;
  Eigen::MatrixXd B_;
  Eigen::MatrixXd E_ = Eigen::MatrixXd(kNumLinearStates, 0);
  double U0_, theta0_, alpha0_;
  std::vector<model::Control> controls_;
  Eigen::MatrixXd K_;
  // M of δ = M δ_pilot − K x (model::FeedbackOf), num_controls square; empty
  // while it is the identity (no loop on an acceleration).
  Eigen::MatrixXd command_;
  std::vector<PositionLimit> limits_;
};

}  // namespace aerolin::sim
