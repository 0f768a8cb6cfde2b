#pragma once
/// @file
/// Eigenvalue sensitivities: how each mode's root moves per unit of each
/// number of the data file, exact (forward-mode automatic differentiation of
/// model::MatricesOfFile, the chain from the keys as written to A, through the
/// coefficient conversion for a coefficient file).

#include <Eigen/Core>
#include <complex>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/as_written.hpp"

namespace aerolin::analysis {

/// Returns dλ/dp = wᴴ (∂A/∂p) v / (wᴴ v) for a simple eigenvalue with right
/// vector `right` and left vector `left` (wᴴA = λwᴴ).
/// @throws std::invalid_argument if sizes disagree or wᴴv = 0.
std::complex<double> EigenvalueDerivative(const Eigen::VectorXcd& left,
                                          const Eigen::VectorXcd& right,
                                          const Eigen::MatrixXd& dA);

/// Returns the first-order change of ζ (and ωn) of a root for a change dλ:
/// ζ = −Re λ/|λ|, so dζ = (Re λ·d|λ| − |λ|·d Re λ)/|λ|², d|λ| = Re(λ̄ dλ)/|λ|.
/// Both are 0 for λ = 0.
double DampingDerivative(std::complex<double> lambda, std::complex<double> dlambda);
double FrequencyDerivative(std::complex<double> lambda, std::complex<double> dlambda);

/// ∂A/∂(key as written) of both axes for every key of `file` at its values.
struct MatrixDerivatives {
  std::vector<std::string> keys;             ///< in `file.keys` order
  std::vector<Eigen::MatrixXd> longitudinal;  ///< 4×4 each [A's unit per unit of the key]
  std::vector<Eigen::MatrixXd> lateral;       ///< 5×5 each
};

/// Returns the exact derivatives of both A matrices with respect to every key
/// of `file`, in the key's units as written.
MatrixDerivatives DifferentiateMatrices(const model::AircraftFile& file);

/// One key's effect on one mode.
struct KeySensitivity {
  std::string key;            ///< "longitudinal.Mw"
  double value = 0;           ///< the key as written
  std::complex<double> dlambda;  ///< dλ/dp [1/s per unit of the key]
  double dzeta = 0;           ///< dζ/dp (0 for a real root)
  double dwn = 0;             ///< dωn/dp
  /// Ranking measure: the first-order change of ζ (pairs) or of λ [1/s]
  /// (real roots) for a 100 % change of the key: p·dζ/dp or p·dλ/dp.
  double relative_effect = 0;
};

/// A mode with its sensitivity to every key that enters A.
struct ModeSensitivity {
  Mode mode;
  std::vector<KeySensitivity> keys;  ///< keys of `file` that enter A, file order
  std::vector<int> top;  ///< indices into `keys` of the (up to) three largest |relative_effect|
};

/// Returns every mode of `file` (AnalyzeModes of its conversion) except heading
/// (λ = 0 for every value of every key), with its sensitivities. Keys that do
/// not enter A (control derivatives and limits, altitude, mach, [mass] of a
/// normalized, primed file) are left out, as are `file.omitted`.
std::vector<ModeSensitivity> ModeSensitivities(const model::AircraftFile& file);

}  // namespace aerolin::analysis
