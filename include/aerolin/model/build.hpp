#pragma once
/// @file
/// Builds the longitudinal and lateral-directional state-space models from
/// normalized SI derivatives. The equations are written once, on a scalar T
/// (model/scalar.hpp: double and the AD scalars), in LongitudinalA/B and
/// LateralA/B; BuildLongitudinal and BuildLateral are them in double, and
/// model::MatricesOf (as_written.hpp) is them after the conversions in T.

#include <Eigen/Core>
#include <string>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/scalar.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::model {

/// Returns the longitudinal model, x = (u, α, q, θ), inputs = the controls
/// with `longitudinal == true`, in file order.
///
/// Small-perturbation equations about a trim with pitch attitude θ0 (Kato,
/// Oya, Karasawa ch. 3; Etkin & Reid eq. 4.9,18), with D = 1 − Z_α̇/U0:
/// @f[
/// \dot u = X_u u + X_\alpha \alpha + (X_q - W_0) q - g\cos\theta_0\,\theta + X_\delta\delta
/// @f]
/// @f[
/// D\,\dot\alpha = \tfrac{Z_u}{U_0} u + \tfrac{Z_\alpha}{U_0}\alpha
///   + (1 + \tfrac{Z_q}{U_0}) q - \tfrac{g}{U_0}\sin\theta_0\,\theta + \tfrac{Z_\delta}{U_0}\delta
/// @f]
/// @f[
/// \dot q = M_u u + M_\alpha\alpha + M_{\dot\alpha}\dot\alpha + M_q q + M_\delta\delta,
/// \qquad \dot\theta = q
/// @f]
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | A | 4 | 4 |
/// | B | 4 | number of longitudinal controls |
///
/// With `aircraft.longitudinal_augmentation`, A is the closed loop A − B_K K
/// (AxisAugmentation; B unchanged, the pilot's inputs stay the inputs). With
/// loops on derived outputs (AxisAugmentation::output_loops), A − B K and
/// B M of FeedbackOf: an acceleration's feedthrough scales the pilot's
/// command too.
/// @throws std::invalid_argument if the augmentation names a control the
///         axis does not have or its gain is not inputs × 4, an output that is
///         no derived output of the axis, or loops whose I − G D is singular,
///         or a loop through a washout filter (a state of its own:
///         BuildAugmented gives that model).
StateSpace BuildLongitudinal(const AircraftData& aircraft);

/// Returns the lateral-directional model, x = (β, p, r, φ, ψ), inputs = the
/// controls with `lateral == true`, in file order (Kato ch. 3; Etkin & Reid
/// eq. 4.9,19 with primed L', N'):
/// @f[
/// \dot\beta = \tfrac{Y_\beta}{U_0}\beta + \tfrac{W_0 + Y_p}{U_0} p
///   + (\tfrac{Y_r}{U_0} - 1) r + \tfrac{g\cos\theta_0}{U_0}\phi + \tfrac{Y_\delta}{U_0}\delta
/// @f]
/// @f[
/// \dot p = L'_\beta\beta + L'_p p + L'_r r + L'_\delta\delta,\quad
/// \dot r = N'_\beta\beta + N'_p p + N'_r r + N'_\delta\delta,\quad
/// \dot\phi = p + r\tan\theta_0,\quad \dot\psi = r / \cos\theta_0
/// @f]
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | A | 5 | 5 |
/// | B | 5 | number of lateral controls |
///
/// With `aircraft.lateral_augmentation`, A is the closed loop A − B_K K, as
/// BuildLongitudinal.
StateSpace BuildLateral(const AircraftData& aircraft);

/// The surface deflections an axis's feedback commands: δ = M δ_pilot − K x,
/// over all the axis's inputs (in its model's order).
struct ClosedFeedback {
  Eigen::MatrixXd gain;     ///< K, inputs × states (zero rows for inputs not fed back)
  Eigen::MatrixXd command;  ///< M, inputs × inputs (the identity without feedthrough)
};

/// Closes output feedback through a feedthrough: the loops
/// δ = δ_pilot − K_x x + G y with the measured outputs y = C x + D δ give
/// @f[ \delta = M\delta_{pilot} - K x,\quad M = (I - G D)^{-1},\quad
///     K = M (K_x - G C), @f]
/// so the closed loop is ẋ = (A − B K) x + B M δ_pilot. (In the design
/// convention u = −K_y y, G = −K_y: M = (I + K_y D)⁻¹.)
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | K_x | inputs | states |
/// | G | inputs | outputs fed back |
/// | C | outputs fed back | states |
/// | D | outputs fed back | inputs |
/// @throws std::invalid_argument if the sizes disagree, or if I − G D is
///         singular (the loops' gains cancel the controls' own effect on what
///         they measure: the deflection would be infinite), naming `what`.
ClosedFeedback SolveOutputFeedback(const Eigen::MatrixXd& K_x, const Eigen::MatrixXd& G,
                                   const Eigen::MatrixXd& C, const Eigen::MatrixXd& D,
                                   const std::string& what);

/// The feedback `aircraft`'s augmentation closes on `axis` (the bare
/// airframe's derived outputs give C and D of its output loops); zero gain
/// and identity command for an axis without augmentation.
/// @throws std::invalid_argument as BuildLongitudinal (a washout too: its
///         feedback acts on a filter state, BuildAugmented).
ClosedFeedback FeedbackOf(const AircraftData& aircraft, Axis axis);

/// The number of washout filters `aircraft`'s augmentation closes on `axis`
/// (its OutputFeedback loops with a washout): each a state of its own.
int FilterStates(const AircraftData& aircraft, Axis axis);

/// What an axis with more than kMaxWashoutsPerAxis washed-out loops is told:
/// "at most 4 per axis (...); wash out fewer loops" (the loader, the
/// builder and a sweep say it after the count).
std::string WashoutLimitText();

/// Returns the model of `axis` with its augmentation closed, washout
/// filters included: BuildLongitudinal or BuildLateral without filters;
/// with them, the state vector z = (x, w₁, …, w_f), the airframe's states in
/// their order and then one filter state per washed-out loop, in the loops'
/// order, named "<output>_washout" (symbol "<output symbol>_w", the output's
/// unit). A filter state is the output y low-passed,
/// @f[ \dot w = (y - w)/\tau, @f]
/// so that the loop feeds back y − w = s/(s + 1/τ)·y; y = C x + D δ may
/// depend on the controls (an acceleration), whose feedthrough enters the
/// filter too. All the axis's loops are closed at once through
/// SolveOutputFeedback over z: ż = (A_z − B_z K) z + B_z M δ_pilot.
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | A | n + f | n + f |
/// | B | n + f | number of the axis's controls |
/// (n = 4 longitudinal, 5 lateral; f = FilterStates). C = I, D = 0.
/// @throws std::invalid_argument as BuildLongitudinal (but for the
///         washout), and for a washout τ that is not a finite number > 0.
StateSpace BuildAugmented(const AircraftData& aircraft, Axis axis);

/// Returns the A of BuildLongitudinal for the trim `condition` (U0, W0, θ0,
/// g) and the derivatives `d`, in T.
template <class T>
Eigen::Matrix<T, 4, 4> LongitudinalA(const FlightConditionOf<T>& condition,
                                     const LongitudinalDerivativesOf<T>& d);

/// Returns the column of BuildLongitudinal's B of a control with normalized
/// derivatives X, Z [m/s² per unit], M [1/s² per unit], in T.
template <class T>
Eigen::Matrix<T, 4, 1> LongitudinalB(const FlightConditionOf<T>& condition,
                                     const LongitudinalDerivativesOf<T>& d, const T& X,
                                     const T& Z, const T& M);

/// Returns the A of BuildLateral for the trim `condition` (U0, W0, θ0, g) and
/// the (primed) derivatives `d`, in T.
template <class T>
Eigen::Matrix<T, 5, 5> LateralA(const FlightConditionOf<T>& condition,
                                const LateralDerivativesOf<T>& d);

/// Returns the column of BuildLateral's B of a control with normalized
/// derivatives Y [m/s² per unit], primed L, N [1/s² per unit], in T.
template <class T>
Eigen::Matrix<T, 5, 1> LateralB(const FlightConditionOf<T>& condition, const T& Y, const T& L,
                                const T& N);

}  // namespace aerolin::model
