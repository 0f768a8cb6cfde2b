#pragma once
/// @file
/// The full flight model: the linear longitudinal and lateral perturbation
/// equations plus the earth-frame position kinematics, and the control
/// surfaces' actuators (FlightModel::AddActuators).

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/auxiliary_states.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::sim {

/// The 9 linear perturbation states (u, α, q, θ, β, p, r, φ, ψ).
inline constexpr int kNumLinearStates = 9;
using LinearState = Eigen::Matrix<double, kNumLinearStates, 1>;
using LinearMatrix = Eigen::Matrix<double, kNumLinearStates, kNumLinearStates>;

/// The lateral and vertical body velocities (v_b, w_b) [m/s] of BodyVelocityOf
/// (below) from u_b = U0 + u [m/s] and the sines and cosines of α0 + α and β,
/// for a caller that has them already (FlightModel::VelocityNedFrom). T is
/// double, or an Eigen array for several states at once, lane by lane (the
/// same operations in every lane, so each lane is bit for bit the double's).
template <typename T>
std::array<T, 2> BodyCrossVelocityFrom(const T& ub, const T& sa, const T& ca, const T& sb, const T& cb) {
  return {T(ub * sb / (cb * ca)), T(ub * sa / ca)};
}

/// Returns the body velocity (u_b, v_b, w_b) [m/s] of the perturbations u
/// [m/s], α, β [rad] about the trim speed U0 [m/s] and α0 [rad], by the exact
/// geometric definitions α_tot = atan(w/u_b), β = asin(v/V) (FlightModel,
/// below): u_b = U0 + u, w_b = u_b tan(α0 + α), v_b = u_b tan β / cos(α0 + α).
/// The one copy of that rule: the linear model's kinematics and the nonlinear
/// model's state (sim/nonlinear_shadow.hpp) both take it from here.
inline Eigen::Vector3d BodyVelocityOf(double U0, double alpha0, double u, double alpha, double beta) {
  const double ca = std::cos(alpha0 + alpha), sa = std::sin(alpha0 + alpha), ub = U0 + u;
  const auto [vb, wb] = BodyCrossVelocityFrom(ub, sa, ca, std::sin(beta), std::cos(beta));
  return {ub, vb, wb};
}

/// The five angles whose sines and cosines turn the perturbations into the
/// NED velocity (FlightModel::VelocityAnglesOf): α0 + α, β, φ, θ0 + θ, ψ
/// [rad], in the order of VelocityAngle.
enum VelocityAngle { kAlphaTotal = 0, kBetaAngle, kPhiAngle, kThetaTotal, kPsiAngle, kNumVelocityAngles };
using VelocityAngles = std::array<double, kNumVelocityAngles>;

/// The most auxiliary states a flight carries beside the 12 flight states
/// (FlightModel::AddActuators): one per actuated control, then one per
/// washout filter (model::kMaxAuxiliaryStates). A fixed size keeps the RK45
/// stages on the stack.
inline constexpr int kMaxAuxiliaryStates = model::kMaxAuxiliaryStates;
/// The auxiliary states (actuator positions [control unit], then washout
/// filter states [their output's unit]); unused slots 0.
using AuxiliaryState = Eigen::Matrix<double, kMaxAuxiliaryStates, 1>;
/// The linear states and the auxiliary ones, (u, α, q, θ, β, p, r, φ, ψ, aux):
/// the state of a flight whose auxiliary states are linear (washout filters,
/// no actuators: FlightModel::ExtendedLinearA).
inline constexpr int kNumExtendedLinearStates = kNumLinearStates + kMaxAuxiliaryStates;
using ExtendedLinearMatrix = Eigen::Matrix<double, kNumExtendedLinearStates, kNumExtendedLinearStates>;

/// The auxiliary slot of the first washout filter state of `axis` in a
/// flight of `aircraft` (FlightModel::num_auxiliary_states' layout: the
/// actuated controls' slots, then the longitudinal filters', then the
/// lateral ones'): a start on a closed loop's mode puts its filter part
/// there (ModeInitialState).
int FilterSlot(const model::AircraftData& aircraft, model::Axis axis);

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
  /// Builds A and B with model::BuildAugmented (the airframe's states'
  /// block: model::BuildLongitudinal / BuildLateral without washout
  /// filters); no disturbance input (E is 9 × 0). Each washout filter of
  /// the augmentation is an auxiliary state (AddActuators).
  /// @throws std::invalid_argument as model::StateSpace, for an actuator
  ///         on a file whose augmentation loops an acceleration (not flown
  ///         yet), or for more than kMaxAuxiliaryStates actuators and
  ///         washout filters.
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
  /// Returns the angles (α0 + α, β, φ, θ0 + θ, ψ) [rad] of state `x` whose
  /// sines and cosines VelocityNed takes.
  VelocityAngles VelocityAnglesOf(const FlightState& x) const {
    return VelocityAnglesFrom(x[kAlpha], x[kBeta], x[kPhi], x[kTheta], x[kPsi]);
  }
  /// VelocityAnglesOf from the perturbations α, β, φ, θ, ψ [rad], each a T:
  /// double, or an Eigen array for several states at once, lane by lane
  /// (the exact slicer's 4 quadrature nodes).
  template <typename T>
  std::array<T, kNumVelocityAngles> VelocityAnglesFrom(const T& alpha, const T& beta, const T& phi, const T& theta,
                                                      const T& psi) const {
    return {T(alpha0_ + alpha), beta, phi, T(theta0_ + theta), psi};
  }
  /// Returns the NED velocity (north, east, down) [m/s] from the
  /// perturbation u [m/s] and the sines `s` and cosines `c` of the
  /// VelocityAnglesFrom angles, for a caller that has them by a cheaper way
  /// (the exact slicer's quadrature); VelocityNed(x) is this with libm's.
  /// T is double, or an Eigen array for several states at once, lane by
  /// lane: the same operations in every lane, so each lane is bit for bit
  /// the double's.
  template <typename T>
  std::array<T, 3> VelocityNedFrom(const T& u, const std::array<T, kNumVelocityAngles>& s,
                                   const std::array<T, kNumVelocityAngles>& c) const;

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
  /// back and for a bare airframe. SI: control unit per state unit. A
  /// washed-out loop's feedback on its filter state is auxiliary_gain().
  const Eigen::MatrixXd& feedback_gain() const { return K_; }
  /// The feedback on the auxiliary state, u = −K_aux aux: num_controls ×
  /// kMaxAuxiliaryStates, nonzero only in the washout filters' columns
  /// (model::AugmentedFeedbackOf: a washed-out loop feeds back y − w).
  const Eigen::MatrixXd& auxiliary_gain() const { return K_aux_; }
  /// True if the file gives any control an actuator (`[actuators]`): the
  /// flight then carries the auxiliary state (AddActuators).
  bool has_actuators() const { return !actuators_.empty(); }
  /// The number of washout filters the augmentation closes (both axes).
  int num_washout_filters() const { return num_filters_; }
  /// The auxiliary states the flight carries beside the 12 flight states:
  /// one per actuator, slot i the surface position δ [control unit] of the
  /// i-th actuated control in data-file order; then one per washout filter,
  /// the longitudinal loops' then the lateral loops' in file order
  /// (model::BuildAugmented's filter states w, in their output's unit); the
  /// rest of AuxiliaryState stays 0.
  int num_auxiliary_states() const { return static_cast<int>(actuators_.size()) + num_filters_; }
  /// The auxiliary slot of the first washout filter (after the actuators').
  int first_filter_slot() const { return static_cast<int>(actuators_.size()); }
  /// True if a flight's surfaces differ from the pilot's commands (an
  /// augmentation or actuators): the CSV then has surface columns.
  bool flies_surfaces() const { return has_actuators() || !K_.isZero(0.0) || !K_aux_.isZero(0.0); }
  /// The linear flight with its auxiliary states, for a model without
  /// actuators (whose limits are not linear): d/dt (x_lin, aux) =
  /// ExtendedLinearA (x_lin, aux) + ExtendedLinearB δ_pilot + [E; 0] d, the
  /// block of each axis and its filters model::BuildAugmented's closed loop.
  /// Unused auxiliary slots have zero rows and columns.
  ExtendedLinearMatrix ExtendedLinearA() const;
  /// See ExtendedLinearA: kNumExtendedLinearStates × num_controls.
  Eigen::MatrixXd ExtendedLinearB() const;
  /// The auxiliary slot of control `c`'s actuator, or nullopt if ideal.
  std::optional<int> actuator_slot(int c) const;
  /// The position limit of control `c` (data-file order) [control unit], or
  /// nullopt if it has none.
  std::optional<double> position_limit(int c) const;
  /// The rate limit of control `c` [control unit/s], or nullopt if none.
  std::optional<double> rate_limit(int c) const;
  /// Writes the deflection each surface is commanded in state `x` with
  /// auxiliary state `aux`: the pilot's `controls` plus the feedback,
  /// δc = δ_pilot − K x − K_aux aux, or δc = M δ_pilot − K x − K_aux aux
  /// with a loop on an acceleration (model::AugmentedFeedbackOf) (data-file
  /// order, control units; `out` is resized to num_controls).
  void CommandedDeflections(const FlightState& x, const AuxiliaryState& aux,
                            const Eigen::Ref<const Eigen::VectorXd>& controls, Eigen::VectorXd& out) const;
  /// Writes the deflection each surface takes in state `x` with actuator
  /// positions `aux`: an actuated control's is its actuator's position
  /// (its slot of `aux`), an ideal control's its commanded deflection.
  void SurfaceDeflections(const FlightState& x, const AuxiliaryState& aux,
                          const Eigen::Ref<const Eigen::VectorXd>& controls, Eigen::VectorXd& out) const;
  /// Writes the rate each actuator is asked for, before its rate limit:
  /// (clamp(δc, ±L) − δ)/τa [control unit/s]; 0 for an ideal control. Its
  /// rate limit is reached where |rate| > rate_limit(c).
  void DemandedRates(const FlightState& x, const AuxiliaryState& aux,
                     const Eigen::Ref<const Eigen::VectorXd>& controls, Eigen::VectorXd& out) const;

  /// The actuators and washout filters flown: adds to ẋ what they change
  /// and writes the auxiliary state's rate. For each actuated control c
  /// (slot i, surface position δ = aux[i]) the standard first-order actuator
  /// with its limits, in the form a position-limited, rate-limited servo
  /// takes (the position limit clamps the target the surface follows, the
  /// rate limit its speed):
  /// @f[ \dot\delta = \mathrm{clamp}\big((\mathrm{clamp}(\delta_c, \pm L) - \delta)/\tau_a,\ \pm R\big),
  ///     \qquad \delta_c = \delta_{pilot,c} - K_c x - K_{aux,c}\,aux, @f]
  /// and the airframe is driven by the surface, not the command: the term
  /// B_c (δ − δc) turns A x + B δ_pilot (A = A_bare − B K) into
  /// A_bare x + B_c δ for that control. Ideal controls are untouched.
  /// Each washout filter w (the slots after the actuators') is
  /// model::BuildAugmented's filter state, its rows of the closed loop
  /// taken as they are: ẇ = (y − w)/τ with y its loop's measured output,
  /// and the loop's feedback −B K_w w on ẋ (the closed loop's filter
  /// columns), so the loop acts on y − w.
  /// Allocates nothing.
  ///
  /// This is the flight's seam for any state beside the 12 flight states
  /// (sim::FlightState stays 12: logs, HUD and CSV rely on it): the Slicer
  /// integrates AuxiliaryState with them in one RK45 stepper and resets it
  /// with the flight.
  void AddActuators(const FlightState& x, const AuxiliaryState& aux,
                    const Eigen::Ref<const Eigen::VectorXd>& controls, FlightState& dxdt,
                    AuxiliaryState& daux) const {
    daux.setZero();
    for (std::size_t i = 0; i < actuators_.size(); ++i) {
      const FlownActuator& a = actuators_[i];
      const auto slot = static_cast<Eigen::Index>(i);
      double commanded = controls[a.control] - a.gain.dot(x.head<kNumLinearStates>());
      if (num_filters_ > 0) commanded -= a.aux_gain.dot(aux);
      const double target = std::clamp(commanded, -a.position_limit, a.position_limit);
      daux[slot] = std::clamp((target - aux[slot]) * a.inverse_time_constant, -a.rate_limit, a.rate_limit);
      dxdt.head<kNumLinearStates>() += B_.col(a.control) * (aux[slot] - commanded);
    }
    if (num_filters_ > 0) {
      dxdt.head<kNumLinearStates>().noalias() += x_from_aux_ * aux;
      daux.noalias() += aux_from_x_ * x.head<kNumLinearStates>();
      daux.noalias() += aux_from_aux_ * aux;
      for (Eigen::Index j = 0; j < aux_from_controls_.cols(); ++j) daux += aux_from_controls_.col(j) * controls[j];
    }
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
  // A control's actuator as flown (AddActuators); an absent limit is +∞.
  struct FlownActuator {
    Eigen::Index control;                             // data-file order
    double inverse_time_constant;                     // 1/τa [1/s]
    double position_limit;                            // L [control unit]
    double rate_limit;                                // R [control unit/s]
    Eigen::Matrix<double, 1, kNumLinearStates> gain;  // its row of K
    Eigen::Matrix<double, 1, kMaxAuxiliaryStates> aux_gain;  // its row of K_aux
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
  std::vector<FlownActuator> actuators_;  // in data-file order: slot i is actuators_[i]
  // The washout filters (slots first_filter_slot() on): the closed loops'
  // (model::BuildAugmented) filter rows and columns, scattered to the
  // flight's states and slots; zero elsewhere.
  int num_filters_ = 0;
  Eigen::MatrixXd K_aux_;                                                        // num_controls × kMax
  Eigen::Matrix<double, kNumLinearStates, kMaxAuxiliaryStates> x_from_aux_;      // −B K_w
  Eigen::Matrix<double, kMaxAuxiliaryStates, kNumLinearStates> aux_from_x_;      // ẇ from x
  Eigen::Matrix<double, kMaxAuxiliaryStates, kMaxAuxiliaryStates> aux_from_aux_; // ẇ from w
  Eigen::Matrix<double, kMaxAuxiliaryStates, Eigen::Dynamic> aux_from_controls_; // ẇ from δ_pilot
};

// Inline: the exact slicer calls it for its 4 nodes in every slice.
template <typename T>
std::array<T, 3> FlightModel::VelocityNedFrom(const T& u, const std::array<T, kNumVelocityAngles>& s,
                                              const std::array<T, kNumVelocityAngles>& c) const {
  // Body velocity from the exact definitions α = atan(w/u), β = asin(v/V):
  // V cos β = sqrt(u² + w²) = u / cos α, hence v = u tan β / cos α.
  const T ub = U0_ + u;
  const auto [vb, wb] = BodyCrossVelocityFrom<T>(ub, s[kAlphaTotal], c[kAlphaTotal], s[kBetaAngle], c[kBetaAngle]);
  // R = Rz(ψ) Ry(θ) Rx(φ) written out (the same matrix as
  // core::BodyToEarth, checked by a test): this runs ~6 times per RK step.
  const T& cp = c[kPhiAngle];
  const T& sp = s[kPhiAngle];
  const T& ct = c[kThetaTotal];
  const T& st = s[kThetaTotal];
  const T& cs = c[kPsiAngle];
  const T& ss = s[kPsiAngle];
  // Body → earth, column by column applied to (ub, vb, wb).
  const T y1 = cp * vb - sp * wb;  // Rx(φ) rows 2, 3
  const T z1 = sp * vb + cp * wb;
  const T x2 = ct * ub + st * z1;  // Ry(θ)
  const T z2 = -st * ub + ct * z1;
  return {T(cs * x2 - ss * y1), T(ss * x2 + cs * y1), z2};  // Rz(ψ)
}

}  // namespace aerolin::sim
