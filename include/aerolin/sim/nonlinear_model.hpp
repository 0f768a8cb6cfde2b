#pragma once
/// @file
/// The nonlinear 6-DOF flight model: a rigid body in body axes with a unit
/// quaternion attitude, NED position, full gravity and kinematics, the
/// inertia tensor with Ixz, standard-atmosphere density at the current
/// altitude, a steady wind, and a *linear aerodynamic model* built from a
/// data file's derivatives around its reference condition, so that every
/// aircraft aerolin loads flies nonlinearly with no new data, and
/// linearizing it at the reference gives back the file's A and B
/// (study/linearize.hpp; docs/nonlinear.md).

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/slicer.hpp"

namespace aerolin::sim {

/// Indices of the 13 nonlinear states x = (u, v, w, p, q, r, q0, q1, q2, q3,
/// north, east, down): inertial velocity in body axes [m/s], body rates
/// [rad/s], the body→earth quaternion (scalar first, R_eb of
/// model/conventions.hpp), NED position [m] (altitude h = −down).
namespace nl {
inline constexpr int kU = 0;
inline constexpr int kV = 1;
inline constexpr int kW = 2;
inline constexpr int kP = 3;
inline constexpr int kQ = 4;
inline constexpr int kR = 5;
inline constexpr int kQ0 = 6;
inline constexpr int kNorth = 10;
inline constexpr int kEast = 11;
inline constexpr int kDown = 12;
inline constexpr int kNumStates = 13;
}  // namespace nl

using NonlinearState = Eigen::Matrix<double, nl::kNumStates, 1>;
/// Specific forces X/m, Y/m, Z/m [m/s²] and unprimed moments L/Ix, M/Iy,
/// N/Iz [1/s²], body axes, in this order.
using ForcesAndMoments = Eigen::Matrix<double, 6, 1>;

/// Returns the unit quaternion (q0, q1, q2, q3) of the Euler angles (z-y-x,
/// model/conventions.hpp) [rad].
Eigen::Vector4d QuaternionFromEuler(double phi, double theta, double psi);
/// Returns (φ, θ, ψ) [rad] of the quaternion `q` (normalized first); θ in
/// [−π/2, π/2] (the output alone is singular at θ = ±90°).
Eigen::Vector3d EulerFromQuaternion(const Eigen::Vector4d& q);
/// Returns R_eb, body → earth, of the quaternion `q` (normalized first).
Eigen::Matrix3d QuaternionToBodyToEarth(const Eigen::Vector4d& q);

/// What acts on the aircraft besides its state; held over a slice.
struct NonlinearInput {
  /// The file's controls in file order and units, as *deviations from the
  /// reference condition's settings* (the file's derivatives are about them).
  Eigen::VectorXd controls;
  /// A specific force along body x [m/s²] added to the aerodynamic X/m: the
  /// thrust change of a file without a throttle control (trim's variable).
  double thrust = 0.0;
  /// Steady wind [m/s], NED (the velocity of the air): it enters the
  /// aerodynamics only, through the air-relative velocity.
  Eigen::Vector3d wind_ned = Eigen::Vector3d::Zero();
};

/// Switches of the model.
struct NonlinearOptions {
  /// false: no aerodynamic force or moment and no thrust: a torque-free rigid
  /// body in gravity (a test-only switch: energy must be conserved).
  bool aerodynamics = true;
  /// k [1/s] of the constraint-stabilizing term k(1 − |q|²) q added to the
  /// quaternion rate: |q| = 1 is an attracting invariant (the term vanishes on
  /// it, so it changes no trajectory and no Jacobian), and drift decays at
  /// rate 2k; k Δh ≪ 1 for RK45's steps. The slicer also renormalizes at each
  /// slice end.
  double quaternion_gain = 1.0;
};

/// The nonlinear 6-DOF model of one aircraft.
///
/// Rigid body, flat non-rotating earth (Stevens, Lewis & Johnson, *Aircraft
/// Control and Simulation*, 3rd ed., §1.7, §2.5):
/// @f[ \dot v_b = -\omega\times v_b + F/m + R_{eb}^T (0, 0, g)^T, @f]
/// @f[ I_x\dot p - I_{xz}\dot r = L + (I_y - I_z) q r + I_{xz} p q,\quad
///     I_y\dot q = M + (I_z - I_x) p r + I_{xz}(r^2 - p^2),\quad
///     I_z\dot r - I_{xz}\dot p = N + (I_x - I_y) p q - I_{xz} q r, @f]
/// the quaternion rate ½ q ⊗ (0, ω), and NED position rate R_eb v_b.
///
/// **Aerodynamics** (linear around the reference, in aerolin's variables of
/// the air-relative body velocity v_a = v_b − R_ebᵀ w_NED: Δu = u_a − U0,
/// α̃ = (w_a − W0)/U0, β̃ = v_a/U0), normalized as the file's derivatives:
/// @f[ X/m = s\,(X_0 + \tilde X_u\Delta u + \tilde X_\alpha\tilde\alpha + \textstyle\sum X_\delta\delta)
///       + s_r X_q q + X_{\delta_t}\delta_t + T, @f]
/// Z likewise with Z_α̇ ẇ_a/U0 in the rate part; M/Iy = s (Mu Δu + Mα α̃ +
/// Σ Mδ δ) + s_r (Mq q + Mα̇ ẇ_a/U0); Y, L, N with β̃, p, r. X0 = g sin θ0,
/// Z0 = −g cos θ0 balance gravity at the reference. s = (ρ/ρ0)(V/V0)² scales
/// with dynamic pressure, s_r = (ρ/ρ0)(V/V0) the rate and α̇ terms (they scale
/// with ρV); the throttle (a control named "throttle") and T are not scaled.
/// The scaling's own ∂s/∂u and ∂s/∂w at the reference are taken out of the
/// u and α derivatives, X̃u = Xu − 2 X0 U0/V0², X̃α = Xα − 2 X0 W0 U0/V0² (Z
/// likewise; M0 = 0 needs none), so the Jacobian at the reference is the
/// file's. ẇ enters Z and M linearly: it is solved for exactly (the α̇
/// divisor 1 − s_r Zα̇/U0 of model/build.hpp). L, N are the file's primed
/// derivatives unprimed with the file's inertias (L = L′ − (Ixz/Ix) N′,
/// N = N′ − (Ixz/Iz) L′).
///
/// **Coefficient tables** (AircraftData::tables, model/aero_tables.hpp;
/// docs/nonlinear.md): with the table's α = atan2(w_a, u_a), β = asin(v_a/V)
/// and q̄ = ½ ρ V², a C_X table replaces X0, X̃u, X̃α (and the X derivative of
/// the control it takes) by q̄ S C_X/m; C_Z and C_m likewise for Z (Z0, Zu,
/// Zα) and M (Mu, Mα, with M = q̄ S c̄ C_m/Iy); C_Xq, C_Zq, C_mq replace Xq,
/// Zq, Mq (by q̄ S C_Fq q c̄/(2V), divided as their static coefficient). On an
/// axis with a static table the file's other control derivatives act on the
/// whole deflection (the reference setting plus the deviation): the table
/// is the coefficient with those controls at zero. Everything else stays the
/// linear model's: α̇, β, p, r, the lateral axes. With a C_X table, a constant
/// reference thrust (not scaled with q̄) balances X at the reference.
///
/// **Assumptions** (docs/nonlinear.md): a file without Ix, Iy, Iz is taken
/// with Ix = Iy = Iz and Ixz = 0 (inertia_assumed()): the inertial coupling
/// terms, quadratic in the rates, then vanish; they contribute nothing to a
/// Jacobian at zero rates, so the round trip holds either way, but turns and
/// rolls miss that coupling. A file without an altitude has ρ/ρ0 = 1 at every
/// height (density_fixed()). Outside the standard atmosphere's range
/// (model/atmosphere.hpp) the density is held at its limit. The linearization
/// of aerolin's 9-state model has no altitude state: the ∂ρ/∂h dependence is
/// not in it. A file's [augmentation] is not applied: this is the bare airframe.
class NonlinearModel {
 public:
  /// @throws std::invalid_argument if U0 ≤ 0 or the inertias given make no
  ///         positive-definite tensor.
  explicit NonlinearModel(const model::AircraftData& aircraft, NonlinearOptions options = {});

  /// Writes ẋ for state `x` and input `in`.
  /// @throws std::invalid_argument if in.controls.size() != num_controls().
  void Derivative(const NonlinearState& x, const NonlinearInput& in, NonlinearState& dxdt) const;

  /// Returns the aerodynamic (and thrust) specific forces and unprimed
  /// normalized moments for the air-relative body velocity `v_air` [m/s],
  /// body rates `omega` [rad/s], the air-relative ẇ_a [m/s²], altitude [m],
  /// controls and thrust (NonlinearInput). Zero when aerodynamics are off.
  ForcesAndMoments Aerodynamics(const Eigen::Vector3d& v_air, const Eigen::Vector3d& omega,
                                double wdot_air, double altitude,
                                const Eigen::VectorXd& controls, double thrust) const;

  /// Returns the file's reference condition as a state: u = U0, w = W0,
  /// θ = θ0, no rates, at `altitude` [m] heading north.
  NonlinearState ReferenceState(double altitude) const;

  /// The altitude [m] the density ratio is taken from (the file's
  /// `altitude`), or nullopt: density_fixed().
  const std::optional<double>& reference_altitude() const { return reference_altitude_; }
  bool density_fixed() const { return !reference_altitude_.has_value(); }
  /// True when the file gives no inertias (Ix = Iy = Iz, Ixz = 0 assumed).
  bool inertia_assumed() const { return inertia_assumed_; }
  /// The index of the control named "throttle", or −1.
  int throttle_index() const { return throttle_index_; }
  int num_controls() const { return static_cast<int>(controls_.size()); }
  const std::vector<model::Control>& controls() const { return controls_; }
  double U0() const { return U0_; }
  double W0() const { return W0_; }
  double theta0() const { return theta0_; }
  double g() const { return g_; }
  /// Ixz/Ix and Ixz/Iz: the priming factors (model/conversions.hpp).
  double ixz_over_ix() const { return a_; }
  double ixz_over_iz() const { return b_; }
  /// ρ(h)/ρ0 [1] (1 when density_fixed()).
  double DensityRatio(double altitude) const;

  /// True when the file gives coefficient tables.
  bool has_tables() const { return tables_.has_value(); }
  /// The file's tables, when it gives them.
  const std::optional<model::AeroTables>& tables() const { return tables_; }
  /// The constant thrust along body x per unit mass [m/s²] that balances X
  /// at the reference when a C_X table gives the drag (0 without one).
  double reference_thrust() const { return T0_; }
  /// Returns the variables of the tables outside their breakpoints at the
  /// state `x` and input `in` (empty without tables).
  std::vector<model::TableExcursion> TableExcursionsAt(const NonlinearState& x,
                                                       const NonlinearInput& in) const;
  /// Returns the lift coefficient of the aerodynamic forces alone,
  /// C_L = −C_Z cos α + C_X sin α (force per q̄S, thrust left out), at angle of attack `alpha`
  /// [rad] (of the file's x axis), the reference speed and density, β = 0,
  /// no rates, the controls at their reference settings.
  double LiftCoefficient(double alpha) const;
  /// The largest and smallest C_L (LiftCoefficient) over a C_Z table's α range
  /// and the α [rad] of each: the stall. Present only with a C_Z table.
  struct LiftLimits {
    double alpha_max = 0.0, cl_max = 0.0, alpha_min = 0.0, cl_min = 0.0;
  };
  const std::optional<LiftLimits>& lift_limits() const { return lift_limits_; }
  /// q̄ S/m [m/s² per unit coefficient] at airspeed `V` [m/s] and `altitude` [m]
  /// (needs tables; 0 without).
  double DynamicPressureOverMass(double V, double altitude) const;

 private:
  // X, Z, M, Y, L, N of one control (moments unprimed) and whether q̄ scales it.
  struct ControlColumn {
    double X, Z, M, Y, L, N;
    bool scaled;
  };
  void SetUpTables(const model::AeroTables& tables);
  const model::CoefficientTable* Table(model::TableCoefficient c) const;
  bool Has(model::TableCoefficient c) const { return table_[static_cast<int>(c)] >= 0; }
  // The setting of control i: its reference setting plus the deviation.
  double Settings(const Eigen::VectorXd& controls, int i) const;

  NonlinearOptions options_;
  double U0_, W0_, theta0_, g_, V0sq_;
  double alpha0_ = 0.0;  // atan2(W0, U0): the reference's angle of attack in the file's axes
  double X0_, Z0_;
  double Xu_, Xa_, Xq_, Zu_, Za_, Zq_, Zadot_, Mu_, Ma_, Mq_, Madot_;
  double Yb_, Yp_, Yr_, Lb_, Lp_, Lr_, Nb_, Np_, Nr_;  // L, N unprimed
  double a_ = 0, b_ = 0;                               // Ixz/Ix, Ixz/Iz
  double cpq_ = 0, cqr_ = 0, cpr_ = 0, crr_ = 0;       // inertial coupling ratios
  double cpq_n_ = 0, cqr_n_ = 0;
  bool inertia_assumed_ = true;
  std::optional<double> reference_altitude_;
  double rho0_ = 1.0;
  std::vector<model::Control> controls_;
  std::vector<ControlColumn> columns_;
  int throttle_index_ = -1;
  // Coefficient tables: indices into tables_->tables by model::TableCoefficient (−1: none).
  std::optional<model::AeroTables> tables_;
  int table_[6] = {-1, -1, -1, -1, -1, -1};
  double force_scale_ = 0.0, moment_scale_ = 0.0;  // ½ρ0 S/m, ½ρ0 S c̄/Iy
  double offset_X_ = 0.0, offset_Z_ = 0.0, offset_M_ = 0.0;  // Σ F_δ δ_ref on tabled axes
  double T0_ = 0.0;
  std::optional<LiftLimits> lift_limits_;
};

/// Returns the specific mechanical energy ½|v_b|² + g h [J/kg] of `x`.
double SpecificEnergy(const NonlinearState& x, double g);

/// Steps a NonlinearModel slice by slice (zero-order hold of the input), with
/// the same Dormand–Prince 5(4) stepper and error control as sim::Slicer's
/// RK45 (SliceOptions: dt, rtol, atol; the integrator field is ignored), and
/// the quaternion renormalized at each slice end.
class NonlinearSlicer {
 public:
  /// @throws std::invalid_argument if dt, rtol or atol is not positive and finite.
  NonlinearSlicer(NonlinearModel model, const SliceOptions& options, const NonlinearState& x0);
  ~NonlinearSlicer();
  NonlinearSlicer(NonlinearSlicer&&) noexcept;
  NonlinearSlicer& operator=(NonlinearSlicer&&) noexcept;

  /// Advances over one slice with `in` held.
  /// @throws core::NumericalError if RK45 cannot meet the tolerance.
  SliceStats Advance(const NonlinearInput& in);
  void Reset(const NonlinearState& x0);
  const NonlinearState& state() const;
  double time() const;
  const NonlinearModel& model() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aerolin::sim
