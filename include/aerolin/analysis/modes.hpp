#pragma once
/// @file
/// Eigen-analysis of the longitudinal and lateral models: every dynamic mode
/// with its name, characteristics and mode shape.

#include <Eigen/Core>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/model/state_space.hpp"

namespace aerolin::analysis {

/// Which classical mode an eigenvalue (or conjugate pair) belongs to.
enum class ModeKind {
  kShortPeriod,
  kPhugoid,
  kDutchRoll,
  kRollSubsidence,
  kSpiral,
  kRollSpiral,  ///< coupled roll–spiral oscillation ("lateral phugoid")
  kHeading,     ///< the ψ integrator, λ = 0
};

/// Returns "short period", "phugoid", "dutch roll", "roll subsidence",
/// "spiral", "roll-spiral oscillation", "heading".
std::string ToString(ModeKind kind);
/// Parses the CLI spelling "short-period", "phugoid", "dutch-roll", "roll",
/// "spiral", "roll-spiral", "heading"; nullopt otherwise.
std::optional<ModeKind> ParseModeKind(const std::string& text);

/// One real eigenvalue or one complex-conjugate pair.
struct Mode {
  ModeKind kind;
  std::string qualifier;        ///< "", "overdamped", "aperiodic", "divergent" ...
  std::complex<double> lambda;  ///< eigenvalue [1/s]; the Im > 0 member of a pair
  bool oscillatory = false;     ///< complex pair
  double natural_frequency = 0;  ///< ωn = |λ| [rad/s]
  double damping_ratio = 0;      ///< ζ = −Re λ / |λ| (±1 for real roots)
  std::optional<double> damped_period;   ///< T = 2π/ωd [s], pairs only
  std::optional<double> time_to_half;    ///< ln 2 / (−σ) [s], stable only
  std::optional<double> time_to_double;  ///< ln 2 / σ [s], unstable only
  std::optional<double> time_constant;   ///< τ = −1/λ [s], real roots only
  std::optional<double> cycles_to_half;  ///< t½ / T, stable pairs only
  bool stable = true;                    ///< Re λ < 0 (heading: neutral, true)
  /// Eigenvector normalized so that component `reference_state` is 1∠0°.
  Eigen::VectorXcd shape;
  int reference_state = 0;
  /// Evidence for the name: states whose scaled magnitude (u/U0, angles in
  /// rad, rates divided by ωn) is at least 30 % of the largest, largest first.
  std::vector<std::string> dominant_states;
  std::string full_name() const;  ///< kind plus qualifier, e.g. "phugoid (aperiodic)"
};

/// Returns the longitudinal modes of `lon` (states u, α, q, θ; see
/// conventions.hpp), named from eigenvector content, sorted by ωn descending.
/// `U0` [m/s] scales u to u/U0 for the content comparison.
/// @throws core::NumericalError if the eigen-decomposition fails.
/// @throws std::invalid_argument if `lon` does not have 4 states.
std::vector<Mode> AnalyzeLongitudinal(const model::StateSpace& lon, double U0);

/// Returns the lateral-directional modes of `lat` (β, p, r, φ, ψ): the heading
/// integrator plus the modes of the (β, p, r, φ) block, sorted by ωn
/// descending with heading last.
/// @throws core::NumericalError if the eigen-decomposition fails.
/// @throws std::invalid_argument if `lat` does not have 5 states.
std::vector<Mode> AnalyzeLateral(const model::StateSpace& lat);

/// Returns the first mode of `kind`, or nullptr.
const Mode* FindMode(const std::vector<Mode>& modes, ModeKind kind);

}  // namespace aerolin::analysis
