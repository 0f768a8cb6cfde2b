#pragma once
/// @file
/// Output equations y = C x + D u of the longitudinal and lateral models: every
/// state, plus the derived outputs that need an output equation of their own,
/// the normal load factor nz, the flight-path angle γ and the lateral
/// acceleration ay.
///
/// **Derivation** (body axes of the data file, x forward, z down; u, w = U0 α,
/// v = U0 β perturbations; trim U0, W0, θ0; Etkin & Reid, *Dynamics of
/// Flight*, 3rd ed., eq. 4.9,18 and 4.9,19, whose force equations the builders
/// transcribe). An accelerometer at the centre of gravity measures the
/// specific force f = a − g_vec (the non-gravitational force per unit mass).
/// Linearizing a = V̇ + ω × V about (U0, 0, W0) and the gravity vector's body
/// components g(−sin θ, cos θ sin φ, cos θ cos φ) about θ0:
/// @f[ \Delta f_z = \dot w - U_0 q + g\sin\theta_0\,\theta
///     = Z_u u + Z_\alpha\alpha + Z_{\dot\alpha}\dot\alpha + Z_q q + Z_\delta\delta, @f]
/// @f[ \Delta f_y = \dot v + U_0 r - W_0 p - g\cos\theta_0\,\phi
///     = Y_\beta\beta + Y_p p + Y_r r + Y_\delta\delta. @f]
/// The right-hand equalities are the Z and Y force equations themselves (the
/// aerodynamic force per unit mass), which the tests use as an independent
/// oracle. The load factor is positive up (an accelerometer reading +1 g in
/// level flight), the lateral acceleration positive towards the right wing:
/// @f[ n_z = -\Delta f_z / g = \tfrac{U_0}{g}(q - \dot\alpha) - \sin\theta_0\,\theta, @f]
/// @f[ a_y = \Delta f_y / g = \tfrac{U_0}{g}(\dot\beta + r) - \tfrac{W_0}{g} p - \cos\theta_0\,\phi, @f]
/// with α̇ and β̇ taken from the α and β rows of the model (so that D ≠ 0 for a
/// control with Z_δ or Y_δ). In stability axes in level flight (W0 = θ0 = 0)
/// these are the textbook nz = (U0/g)(q − α̇) = (U0/g)γ̇ and
/// ay = (U0/g)(β̇ + r) − φ: a bank without turning (r = β̇ = 0) reads −φ g,
/// since gravity, which the instrument cannot sense, pulls the aircraft
/// sideways. nz and ay are perturbations from trim, in multiples of the
/// condition's g (core::Unit::kGravity).
///
/// The flight-path angle is γ = θ − α_true with the true angle of attack
/// α_true = atan(w_b / u_b); linearized, Δα_true = (U0² α − W0 u)/(U0² + W0²),
/// which is the state α when W0 = 0 (stability axes): then γ = θ − α.

#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::model {

/// Indices of the longitudinal outputs (the four states, then nz, γ).
namespace lon_out {
inline constexpr int kNz = 4;     ///< normal load factor at the CG [g]
inline constexpr int kGamma = 5;  ///< flight-path angle [rad]
inline constexpr int kNumOutputs = 6;
}  // namespace lon_out

/// Indices of the lateral outputs (the five states, then ay).
namespace lat_out {
inline constexpr int kAy = 5;  ///< lateral specific force at the CG [g]
inline constexpr int kNumOutputs = 6;
}  // namespace lat_out

/// The derived outputs of an axis as signals: longitudinal nz [g] ("nz",
/// "n_z"), gamma [rad] ("gamma", "γ"); lateral ay [g] ("ay", "a_y").
const std::vector<core::Signal>& DerivedOutputSignals(Axis axis);

/// Returns `model` (the longitudinal or lateral model of `condition`'s
/// aircraft, as BuildLongitudinal/BuildLateral/BuildAugmented give it, with
/// C = I) with its outputs extended: every airframe state, then the derived
/// outputs of `axis`, rows of C and D as in the file comment. Filter states
/// after the airframe's (BuildAugmented's washout filters) are no outputs:
/// the states' rows of C are zero in their columns (the derived outputs'
/// rows, from A's rows, are not).
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | C | n + derived (6 and 6) | num_states |
/// | D | n + derived | num_inputs |
/// (n = 4 longitudinal, 5 lateral.)
/// @throws std::invalid_argument if `model`'s first states are not `axis`'s
///         (4 or 5, in their order) or `condition.g` or `U0` is not positive.
StateSpace WithDerivedOutputs(const StateSpace& model, Axis axis,
                              const FlightCondition& condition);

/// BuildAugmented of `aircraft` (BuildLongitudinal or BuildLateral without
/// washout filters), with WithDerivedOutputs.
StateSpace BuildWithOutputs(const AircraftData& aircraft, Axis axis);

}  // namespace aerolin::model
