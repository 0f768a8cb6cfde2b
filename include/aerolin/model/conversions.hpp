#pragma once
/// @file
/// The physics between a data file's derivatives "as written" and
/// `AircraftData`: raw → normalized (÷ mass or inertia), w-form → α-form and
/// v-form → β-form (× U0), unprimed → primed lateral moments (Ixz coupling).
/// Pure functions on plain structs, callable without a file; data/ reads a
/// file into these structs and calls `Convert`. The formulas are written once,
/// on a scalar T (model/scalar.hpp): the functions below are them in double,
/// with their checks, and ToNormalized<T> is them in T, unchecked, for
/// model::MatricesOf (as_written.hpp).
///
/// Every value here is SI. A "raw" derivative is the dimensional derivative of
/// a force [N] or moment [N·m] (Etkin & Reid Table 4.4); a "normalized" one is
/// divided by the mass (forces) or by the moment of inertia about its axis
/// (moments): X, Y, Z by m; L by Ix; M by Iy; N by Iz.

#include <optional>
#include <string>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/scalar.hpp"

namespace aerolin::model {

/// What a raw derivative is divided by to become normalized.
enum class Divisor {
  kNone,  ///< not a derivative (trim values, limits)
  kMass,  ///< X, Y, Z derivatives: ÷ m
  kIx,    ///< L derivatives: ÷ Ix
  kIy,    ///< M derivatives: ÷ Iy
  kIz,    ///< N derivatives: ÷ Iz
};

/// Returns the divisor `d` of `mass`, or nullopt if `mass` lacks it (kNone: 1).
std::optional<double> DivisorValue(Divisor d, const MassProperties& mass);

/// Returns the normalized value raw / divisor.
/// @throws std::invalid_argument if `mass` lacks the divisor or it is ≤ 0.
/// (The section conversions below leave a value of 0 as 0 without asking
/// for its divisor: a derivative a file does not give needs none.)
double Normalize(double raw, Divisor divisor, const MassProperties& mass);

/// The variable a section's attitude derivatives are taken with respect to.
enum class AngleForm {
  kAngle,     ///< α-form (Xa, Za, Ma, Madot, Zadot) / β-form (Yb, Lb, Nb)
  kVelocity,  ///< w-form (Xw, Zw, Mw, Mwdot, Zwdot) / v-form (Yv, Lv, Nv)
};

/// Longitudinal derivatives as a data file gives them, SI, raw or
/// normalized; only the fields of `form` are read.
struct LongitudinalAsWritten {
  bool raw = false;                    ///< true: ÷ m or Iy still to apply
  AngleForm form = AngleForm::kAngle;  ///< α-form or w-form
  double Xu = 0, Zu = 0, Mu = 0, Xq = 0, Zq = 0, Mq = 0;
  double Xa = 0, Za = 0, Ma = 0, Madot = 0, Zadot = 0;  ///< α-form
  double Xw = 0, Zw = 0, Mw = 0, Mwdot = 0, Zwdot = 0;  ///< w-form
};

/// What a file's sideslip angle β is. aerolin's is β = v/U0 (the lateral state,
/// conventions.hpp); sources in body axes such as NASA CR-2144 and CR-96008
/// (Teper) use β = v/V with V = √(U0² + W0²). From β_V = (U0/V) β:
/// @f[ \partial/\partial\beta = \cos\alpha_0 \, \partial/\partial\beta_V,
///     \qquad \cos\alpha_0 = U_0/V, @f]
/// so Y_β, L_β, N_β (and only they: rate, control and v-form derivatives do
/// not involve β) are multiplied by U0/V. With W0 = 0 (stability axes) the two
/// definitions coincide.
enum class SideslipDefinition {
  kVOverU0,  ///< β = v/U0 (aerolin's; `[lateral] beta = "v/U0"`, the default)
  kVOverV,   ///< β = v/V (`[lateral] beta = "v/V"`)
};

/// Returns ∂β_V/∂β = U0/V = cos α0 for `condition` (1 when W0 = 0).
double SideslipFactor(const FlightCondition& condition);

/// Lateral-directional derivatives as a data file gives them, SI.
struct LateralAsWritten {
  bool raw = false;                    ///< true: ÷ m, Ix or Iz still to apply
  AngleForm form = AngleForm::kAngle;  ///< β-form or v-form
  bool primed = true;                  ///< L, N already include the Ixz coupling
  /// The β of the β-form derivatives (Yb, Lb, Nb); v-form ignores it.
  SideslipDefinition beta = SideslipDefinition::kVOverU0;
  double Yp = 0, Yr = 0, Lp = 0, Lr = 0, Np = 0, Nr = 0;
  double Yb = 0, Lb = 0, Nb = 0;  ///< β-form
  double Yv = 0, Lv = 0, Nv = 0;  ///< v-form
};

/// A whole aircraft as a data file gives it, SI. Controls hold their
/// derivatives in the forms of the sections they enter (X, Z, M as
/// `longitudinal.raw`; Y, L, N as `lateral.raw` and `lateral.primed`).
struct AircraftAsWritten {
  std::string name;
  std::string source;
  FlightCondition condition;
  MassProperties mass;
  LongitudinalAsWritten longitudinal;
  LateralAsWritten lateral;
  std::vector<Control> controls;
};

/// The Ixz coupling of unprimed moment derivatives (Etkin & Reid eq. 4.12,5;
/// Nelson eq. 5.50), with G = 1 − Ixz²/(Ix Iz):
/// @f[ L' = \frac{L + (I_{xz}/I_x) N}{G}, \qquad N' = \frac{N + (I_{xz}/I_z) L}{G}. @f]
/// Ixz uses Etkin's sign (Izx in stability axes, as printed in his tables).
/// In a scalar type T; Priming is the `double` one.
template <class T>
struct PrimingOf {
  T a = 0.0;  ///< Ixz/Ix
  T b = 0.0;  ///< Ixz/Iz
  T G = 1.0;  ///< 1 − Ixz²/(Ix Iz)

  /// Returns the factors for `mass`: identity when Ixz is absent, or 0
  /// without positive Ix and Iz. (A given Ixz = 0 with Ix, Iz is computed:
  /// the identity in value, and an AD scalar's ∂/∂Ixz there.)
  /// @throws std::invalid_argument if Ixz ≠ 0 and Ix or Iz is absent, or if
  ///         G ≤ 0 (Ixz² ≥ Ix·Iz: the inertia tensor is not positive definite).
  static PrimingOf Of(const MassPropertiesOf<T>& mass);

  /// Replaces (L, N) by (L', N').
  void Apply(T& L, T& N) const;
};
using Priming = PrimingOf<double>;

/// Returns the normalized α-form derivatives: ÷ m or Iy if raw, then
/// ∂/∂α = U0 ∂/∂w for the w-form (α = w/U0; Etkin & Reid §4.9).
/// @throws std::invalid_argument as Normalize, or if U0 ≤ 0 in w-form.
LongitudinalDerivatives ToLongitudinal(const LongitudinalAsWritten& written, double U0,
                                       const MassProperties& mass);

/// Returns the normalized, β-form, primed lateral derivatives: ÷ m, Ix, Iz if
/// raw; ∂/∂β = U0 ∂/∂v for the v-form; the Ixz coupling if not primed.
/// @throws std::invalid_argument as Normalize and Priming::Of, or if U0 ≤ 0
///         in v-form.
LateralDerivatives ToLateral(const LateralAsWritten& written, double U0,
                             const MassProperties& mass);

/// Returns `written` with X, Z, M normalized if `longitudinal_raw`; Y, L, N
/// normalized if `lateral_raw`; L, N primed if not `lateral_primed`.
/// @throws std::invalid_argument as Normalize and Priming::Of.
Control ToControl(const Control& written, bool longitudinal_raw, bool lateral_raw,
                  bool lateral_primed, const MassProperties& mass);

/// A control's derivatives in aerolin's form, in a scalar type T: X, Z, Y
/// [m/s² per unit], M [1/s² per unit], L, N primed [1/s² per unit].
template <class T>
struct ControlDerivativesOf {
  T X, Z, M, Y, L, N;
};

/// Returns ToControl's derivatives of `control` (one of `written.controls`,
/// with `written`'s raw and primed flags and mass) in T, reading every number
/// through `value(field)` as ToNormalized, and as unchecked. Instantiated for
/// AEROLIN_MODEL_SCALARS.
template <class T>
ControlDerivativesOf<T> ToNormalizedControl(const AircraftAsWritten& written, const Control& control,
                                            FieldValue<T> value);

/// Returns the aircraft in aerolin's form (normalized, α/β-form with β = v/U0,
/// primed; β-derivatives of a β = v/V file × SideslipFactor).
/// `mass` is carried over into AircraftData::mass.
/// @throws std::invalid_argument as the conversions above.
AircraftData Convert(const AircraftAsWritten& written);

/// A whole aircraft's normalized derivatives and the trim they were converted
/// at, in a scalar type T (condition: U0, W0, θ0, g only).
template <class T>
struct NormalizedAircraft {
  FlightConditionOf<T> condition;
  LongitudinalDerivativesOf<T> longitudinal;
  LateralDerivativesOf<T> lateral;
};

/// Returns Convert's derivatives of `written` in T, reading every number
/// through `value(field)`, where `field` is a reference into `written`
/// (scalar.hpp). The same code as Convert, without its checks: a raw
/// derivative without its divisor, a w/v-form at U0 ≤ 0, or an inertia tensor
/// that is not positive definite give what the formulas give (a sweep reports
/// the non-finite A), not an exception. Instantiated for AEROLIN_MODEL_SCALARS.
template <class T>
NormalizedAircraft<T> ToNormalized(const AircraftAsWritten& written, FieldValue<T> value);

}  // namespace aerolin::model
