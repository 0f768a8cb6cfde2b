#pragma once
/// @file
/// Classical low-order approximations of the modes, to set beside the exact
/// eigenvalues (Nelson, Flight Stability and Automatic Control, 2nd ed.,
/// §4.4–4.5 and §5.6; Etkin & Reid §6.3, §6.8).

#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::analysis {

/// One approximate root and the method that produced it.
struct Approximation {
  ModeKind kind;
  std::string method;           ///< e.g. "2-DOF (α, q)"
  std::complex<double> lambda;  ///< approximate eigenvalue [1/s], Im ≥ 0
};

/// Returns the angle α0 [rad] from the stability x axis (along the trim
/// velocity) up to the x axis of `aircraft`'s derivatives: atan2(W0, U0).
/// 0 for a file in stability axes (W0 = 0); a body-axis file gives W0
/// (model/aircraft_data.hpp).
double DerivativeAxesAngle(const model::AircraftData& aircraft);

/// Returns the classical approximations that apply to `aircraft`. The forms
/// are stability-axis forms: a body-axis file (W0 ≠ 0) is first rotated by
/// DerivativeAxesAngle into stability axes (u, w, p, r turned by α0, α and β
/// taken on V = √(U0² + W0²), and U0 below read as V); a stability-axis file
/// is used as it is.
/// - short period, 2-DOF (α, q): the (α, q) block of the longitudinal A;
/// - phugoid, Lanchester (Nelson eq. 4.84): ωn = √(−g Zu/U0), ζ = −Xu/(2ωn)
///   (equal to Lanchester's √2 g/U0 when Zu = −2g/U0); omitted if Zu ≥ 0;
/// - Dutch roll, 2-DOF (β, r): the (β, r) block of the lateral A;
/// - roll subsidence, 1-DOF: λ = L'p (the lateral A's p row);
/// - spiral, quasi-static with gravity (Etkin & Reid §6.8):
///   λ = −(g/U0)(L'β N'r − L'r N'β)/(L'β N'p − L'p N'β); omitted if the
///   denominator is 0.
std::vector<Approximation> ClassicalApproximations(const model::AircraftData& aircraft);

/// Signed relative errors of an approximate root against the exact one, in
/// percent, each 100 (approx − exact)/exact of the quantity named, so that a
/// positive error always means "the approximation gives more". Empty where a
/// quantity does not apply or the exact value is 0.
struct ApproximationError {
  /// Of ωn = |λ| [rad/s], when either root is oscillatory.
  std::optional<double> natural_frequency_percent;
  /// Of ζ = −Re λ/|λ|, when either root is oscillatory (a real root's ζ is ±1).
  std::optional<double> damping_ratio_percent;
  /// Of the time constant τ = −1/λ [s], when both roots are real; with this
  /// sign a stable approximation of an unstable root reads below −100 %.
  std::optional<double> time_constant_percent;
};

/// Returns the errors of `approx` against `exact` (Im ≥ 0 for both).
ApproximationError CompareApproximation(std::complex<double> approx, std::complex<double> exact);

}  // namespace aerolin::analysis
