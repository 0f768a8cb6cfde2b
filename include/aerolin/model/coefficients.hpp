#pragma once
/// @file
/// Nondimensional stability-derivative coefficients as a textbook (Etkin &
/// Reid, Nelson, Roskam, DATCOM) or AVL prints them, and their exact
/// conversion to the raw dimensional derivatives the rest of aerolin reads
/// (Etkin & Reid, *Dynamics of Flight*, 3rd ed., Tables 4.4 and 4.5).
///
/// **Conventions, written once.** Stability axes (x along the trim velocity,
/// z down, W0 = 0). Nondimensional variables
///   û = u/U0,  α̇̂ = α̇ c/(2U0),  q̂ = q c/(2U0),  p̂ = p b/(2U0),  r̂ = r b/(2U0);
/// coefficients C = F/(½ρU0²S) for forces, M/(½ρU0²S c) for pitch, L, N/(½ρU0²S b)
/// for roll and yaw; weight coefficient C_W0 = W/(½ρU0²S). α and β
/// derivatives per radian; control derivatives per radian of deflection (per
/// unit for a dimensionless control). Everything in this struct is SI.
///
/// **Two longitudinal families.** Etkin's force family (C_X, C_Z, C_m) is
/// used as written. The lift/drag family (C_L, C_D, C_m; Nelson, Roskam,
/// DATCOM, AVL) is mapped to it in stability axes, with constant thrust
/// (∂T/∂u = 0: the thrust does not change with speed):
///   C_Xu = −(C_Du + 2 C_D0) − 2 C_W0 sin θ0,  C_Xα = C_L0 − C_Dα,  C_Xq = −C_Dq,  C_Xα̇ = 0,
///   C_Zu = −C_Lu,  C_Zα = −(C_Lα + C_D0),  C_Zq = −C_Lq,  C_Zα̇ = −C_Lα̇,
/// and a control's C_Xδ = −C_Dδ, C_Zδ = −C_Lδ. C_L0 defaults to C_W0 cos θ0.
/// Derivation of C_Xu: Table 4.4's X_u = ρU0S C_W0 sin θ0 + ½ρU0S C_Xu must
/// equal −∂D/∂u = −ρU0S C_D0 − ½ρU0S C_Du at constant thrust; at θ0 = 0 this is
/// the familiar −(C_Du + 2 C_D0) (Nelson's X_u = −(C_Du + 2 C_D0) QS/(m U0)).
/// The C_W0 term of Z_u is Table 4.4's own, so C_Zu = −C_Lu carries no 2 C_L0:
/// Z_u = −(2 C_L0 + C_Lu) ½ρU0S when C_L0 = C_W0 cos θ0, as Nelson's.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/conversions.hpp"
#include "aerolin/model/inertia_axes.hpp"
#include "aerolin/model/scalar.hpp"

namespace aerolin::model {

/// The axes a file's [mass] inertias are about.
enum class InertiaAxes {
  kStability,  ///< already stability axes (the default)
  kBody,       ///< body axes: rotated by α0 into the derivatives' axes (inertia_axes.hpp)
};

/// Which longitudinal coefficients a file gives.
enum class LongitudinalFamily {
  kForce,     ///< Etkin: CXu CXa CXq CXadot CZu CZa CZq CZadot
  kLiftDrag,  ///< Nelson/Roskam/DATCOM/AVL: CL0 CD0 CLu CDu CLa CDa CLq CLadot CDq
};

/// One control's coefficients per radian (or per unit) of deflection; an
/// absent one is 0. The longitudinal ones are read in the aircraft's
/// `family`: CX CZ for kForce, CL CD for kLiftDrag; Cm in both.
struct ControlCoefficients {
  std::string name;
  core::Unit unit = core::Unit::kRadian;  ///< kRadian or kOne
  std::optional<double> CX, CZ;           ///< force family
  std::optional<double> CL, CD;           ///< lift/drag family
  std::optional<double> Cm;               ///< pitching moment
  std::optional<double> CY, Cl, Cn;       ///< side force, rolling and yawing moment
  std::optional<double> min, max;         ///< limits in `unit`
};

/// A file's nondimensional data, SI, as written (per radian). A plain
/// aggregate: a reader fills it and calls ToDimensional.
struct CoefficientsAsWritten {
  std::string name;
  std::string source;

  // Condition.
  double U0 = 0;      ///< trim speed [m/s], > 0
  double rho = 0;     ///< air density [kg/m³], > 0
  double theta0 = 0;  ///< trim pitch attitude [rad]
  double g = core::kStandardGravity;  ///< [m/s²]
  /// Trim angle of attack of the body x axis [rad]; needed only when
  /// `axes` is kBody (it rotates the inertias), else unused.
  std::optional<double> alpha0;
  std::optional<double> altitude;  ///< informational [m]
  std::optional<double> mach;      ///< informational unless `speed_of_sound` is given
  /// The speed of sound a(altitude) [m/s] when the file gives `mach` instead
  /// of U0: U0 = mach · a (`U0` holds that product too). Absent otherwise.
  std::optional<double> speed_of_sound;

  // Geometry.
  double S = 0;  ///< reference (wing) area [m²]
  double c = 0;  ///< mean aerodynamic chord [m]
  double b = 0;  ///< span [m]

  // Mass: m or W (or both; W = m g is then not checked here).
  std::optional<double> m;  ///< [kg]
  std::optional<double> W;  ///< weight [N]
  double Ix = 0, Iy = 0, Iz = 0;  ///< [kg·m²], about `axes`
  double Ixz = 0;  ///< ∫xz dm [kg·m²], Etkin's sign (Ix ṗ − Ixz ṙ = L), about `axes`
  InertiaAxes axes = InertiaAxes::kStability;

  // Longitudinal.
  LongitudinalFamily family = LongitudinalFamily::kForce;
  double CXu = 0, CXa = 0, CXq = 0, CXadot = 0;  ///< force family
  double CZu = 0, CZa = 0, CZq = 0, CZadot = 0;  ///< force family
  std::optional<double> CL0;  ///< lift/drag family; absent: C_W0 cos θ0
  double CD0 = 0, CLu = 0, CDu = 0, CLa = 0, CDa = 0;  ///< lift/drag family
  double CLq = 0, CLadot = 0, CDq = 0;                 ///< lift/drag family
  double Cmu = 0, Cma = 0, Cmq = 0, Cmadot = 0;        ///< both families

  // Lateral-directional (β, p̂, r̂).
  double CYb = 0, CYp = 0, CYr = 0;
  double Clb = 0, Clp = 0, Clr = 0;
  double Cnb = 0, Cnp = 0, Cnr = 0;

  std::vector<ControlCoefficients> controls;  ///< in file order
};

/// The force-family coefficients of `coefficients` (the lift/drag family
/// mapped as in the file comment; the force family returned as is), with
/// CXu ... CZadot filled and `family` kForce; controls' CX, CZ filled.
/// @throws std::invalid_argument as ToDimensional.
CoefficientsAsWritten ToForceFamily(const CoefficientsAsWritten& coefficients);

/// Returns the weight coefficient C_W0 = W/(½ρU0²S) (W = m g if W absent).
/// @throws std::invalid_argument as ToDimensional.
double WeightCoefficient(const CoefficientsAsWritten& coefficients);

/// Returns the raw dimensional derivatives of `coefficients`, exactly per
/// Etkin & Reid Tables 4.4 and 4.5 (stability axes, θ0 from the condition):
///   X_u = ρU0S C_W0 sin θ0 + ½ρU0S C_Xu,  Z_u = −ρU0S C_W0 cos θ0 + ½ρU0S C_Zu,
///   M_u = ½ρU0cS C_mu;  X_w, Z_w = ½ρU0S C_Xα, C_Zα;  M_w = ½ρU0cS C_mα;
///   X_q, Z_q = ¼ρU0cS C_Xq, C_Zq;  M_q = ¼ρU0c²S C_mq;
///   X_ẇ = ¼ρcS C_Xα̇ (aerolin has no X_ẇ: a nonzero C_Xα̇ is an error),
///   Z_ẇ = ¼ρcS C_Zα̇;  M_ẇ = ¼ρc²S C_mα̇;
///   Y_v, L_v, N_v = ½ρU0S C_yβ, ½ρU0bS C_lβ, ½ρU0bS C_nβ;
///   Y_p, Y_r = ¼ρU0bS C_yp, C_yr;  L_p ... N_r = ¼ρU0b²S C_lp ... C_nr;
///   controls: X, Y, Z = ½ρU0²S C;  M = ½ρU0²Sc C_m;  L, N = ½ρU0²Sb C.
/// The result is `raw`, w-form and v-form, unprimed (primed = false), W0 = 0,
/// mass m = W/g if m absent, inertias rotated into stability axes by α0 if
/// `axes` is kBody (inertia_axes.hpp). model::Convert takes it from there.
/// @throws std::invalid_argument if U0, rho, S, c, b, g or the inertias are
///         not > 0, neither m nor W is given, C_Xα̇ ≠ 0, or kBody without alpha0.
AircraftAsWritten ToDimensional(const CoefficientsAsWritten& coefficients);

/// The numbers ToDimensional produces, in a scalar type T: SI, raw, w/v-form,
/// unprimed, inertias in stability axes (Etkin & Reid Tables 4.4, 4.5).
template <class T>
struct DimensionalDerivatives {
  T U0, theta0, g;                                      ///< condition [m/s], [rad], [m/s²]
  T m, Ix, Iy, Iz, Ixz;                                 ///< [kg], [kg·m²], stability axes
  T Xu, Zu, Mu, Xw, Zw, Mw, Xq, Zq, Mq, Zwdot, Mwdot;   ///< raw longitudinal (Table 4.4)
  T Yv, Lv, Nv, Yp, Yr, Lp, Lr, Np, Nr;                 ///< raw lateral, unprimed (Table 4.5)
  struct ControlDerivatives {
    T X, Z, M, Y, L, N;  ///< raw, per radian (or unit) of deflection
  };
  std::vector<ControlDerivatives> controls;  ///< in `coefficients.controls` order
};

/// Returns the conversion of ToDimensional(coefficients) in a scalar type T,
/// reading every number through `value(field) -> T`, where `field` is a
/// reference into `coefficients` (as model::MatricesOf): return `T(field)` to
/// evaluate, or a seeded AD scalar for the fields a caller varies, so that
/// ∂(dimensional derivative)/∂(coefficient, U0, ρ, S, c, b, m or W, g, θ0,
/// inertias, α0 of body-axis inertias, mach of a U0 = mach·a file) is exact.
/// Performs no checks: ToDimensional(double) checks first and calls this, so
/// its results are these, bit for bit. Optional coefficients absent are 0 (CL0:
/// C_W0 cos θ0); `axes` kBody needs `alpha0`, a lift/drag control its CL, CD.
/// Instantiated in coefficients.cpp for AEROLIN_MODEL_SCALARS (scalar.hpp).
template <class T>
DimensionalDerivatives<T> ToDimensional(const CoefficientsAsWritten& coefficients, FieldValue<T> value);

}  // namespace aerolin::model
