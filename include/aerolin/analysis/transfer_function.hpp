#pragma once
/// @file
/// Single-input single-output transfer functions G(s) = c (sI − A)⁻¹ b + d of
/// a model, in minimal factored textbook form, with each pole factor named by
/// its mode.
///
/// **Zeros** are the invariant zeros of the system pencil
/// [A − sI, b; c, d], computed by the orthogonal deflation of Emami-Naeini &
/// Van Dooren ("Computation of zeros of linear multivariable systems",
/// Automatica 18(4), 1982, §3) specialized to one input and one output: while
/// d = 0, a Householder reflection makes the output one coordinate z_n; a zero
/// output needs z_n ≡ 0, hence ż_n = a₂₁ z₁ + b₂ u = 0, which is a system of
/// order n − 1 with output a₂₁ z₁ and feed-through b₂. When the feed-through is
/// non-zero the zeros are the eigenvalues of A′ − b′ c′ / d′. Every step is
/// orthogonal, so no polynomial is expanded and re-rooted; the number of steps
/// is the relative degree r and the high-frequency gain is the Markov
/// parameter c A^{r−1} b = ‖c₁‖ ‖c₂‖ … d′. The tests compare the zeros with the
/// finite generalized eigenvalues of the (n+1)×(n+1) pencil
/// ([A b; c d], [I 0; 0 0]) from Eigen's QZ (GeneralizedEigenSolver), which
/// also returns the infinite eigenvalues as β ≈ 0 and perturbs them when
/// r > 1, hence the deflation here.
///
/// **Poles** are the eigenvalues of A: the roots of the model's modes when
/// they are given (each pole factor then carries its mode's name), else
/// analysis::Decompose.
///
/// **Cancellation.** A pole and a zero with |z − p| ≤ kCancellationTolerance ×
/// max(|p|, ρ), ρ the largest |pole| of the model, are removed together and
/// reported (e.g. the heading integrator, unobservable from every lateral
/// output but ψ). Complex pairs cancel as pairs.

#include <Eigen/Core>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::analysis {

/// Relative distance below which a pole and a zero cancel (see file comment):
/// far above the ~1e-12 to which a zero on an unobservable mode's eigenvalue
/// is computed, and even above the ~1e-8 of a double root, far below any
/// physical near-cancellation worth showing.
inline constexpr double kCancellationTolerance = 1e-6;

/// The invariant zeros of the SISO system (A, b, c, d).
struct InvariantZeros {
  std::vector<std::complex<double>> zeros;  ///< both members of each pair [1/s]
  /// The Markov parameter c A^{r−1} b (d when r = 0): the leading coefficient
  /// of G(s) = gain · Π(s − zᵢ) / Π(s − pⱼ). 0 when G ≡ 0.
  double gain = 0.0;
  int relative_degree = 0;  ///< n − number of zeros
  bool identically_zero = false;  ///< c (sI − A)⁻¹ b + d ≡ 0
};

/// Returns the invariant zeros of (A, b, c, d) by the orthogonal deflation of
/// the file comment. `d` counts as feed-through when it is not exactly 0;
/// inside the deflation a feed-through or output row whose size is below
/// 1e-10 of the current b or of ‖A‖ counts as zero.
/// @throws std::invalid_argument if the sizes disagree or an entry is not finite.
/// @throws core::NumericalError if an eigenvalue computation fails.
InvariantZeros ComputeInvariantZeros(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                     const Eigen::RowVectorXd& c, double d);

/// One first-order (s − root) or second-order (s² + 2ζωn s + ωn²) factor.
struct Factor {
  /// A real root, or the Im > 0 member of a pair [1/s].
  std::complex<double> root;
  bool second_order = false;       ///< a complex pair
  double natural_frequency = 0.0;  ///< ωn = |root| [rad/s]
  /// ζ = −Re root / |root| (second order); for a first-order factor written
  /// (s + 1/T), `inverse_time_constant` is 1/T = −root [1/s].
  double damping_ratio = 0.0;
  double inverse_time_constant = 0.0;
  std::optional<ModeKind> mode;  ///< poles of a model with modes only
  std::string mode_name;         ///< Mode::full_name(), "" if none
  /// Returns the factor's value at `s`: (s − root) or (s − root)(s − root*).
  std::complex<double> Evaluate(std::complex<double> s) const;
};

/// A pole (factor) removed with the zero that cancels it.
struct Cancellation {
  Factor pole;
  std::complex<double> zero;  ///< the zero it cancelled (Im ≥ 0 member)
  double distance = 0.0;      ///< |zero − pole| [1/s]
};

/// A SISO transfer function in minimal factored form:
/// G(s) = gain · Π zero factors / Π pole factors.
struct TransferFunction {
  core::Signal input;
  core::Signal output;
  /// High-frequency gain K, the leading coefficient [output/input · s^−r].
  double gain = 0.0;
  int relative_degree = 0;       ///< pole count − zero count (minimal form)
  std::vector<Factor> zeros;     ///< real first, then pairs; each by ωn ascending
  std::vector<Factor> poles;     ///< likewise
  std::vector<Cancellation> cancelled;
  /// G(0) [output/input] when finite; nullopt when a pole at s = 0 remains
  /// (`integrators` > 0): the DC gain is then infinite.
  std::optional<double> dc_gain;
  int integrators = 0;             ///< poles at s = 0 left in the minimal form
  bool non_minimum_phase = false;  ///< a zero with Re z > 0
  bool identically_zero = false;   ///< G ≡ 0 (no zeros, no poles, gain 0)

  /// Returns G(s) from the factored form.
  std::complex<double> Evaluate(std::complex<double> s) const;
  /// Returns the numerator K Π(s − zᵢ), coefficients highest power first.
  std::vector<double> Numerator() const;
  /// Returns the denominator Π(s − pⱼ), monic, highest power first.
  std::vector<double> Denominator() const;
  /// Returns every zero (both members of each pair).
  std::vector<std::complex<double>> ZeroRoots() const;
  /// Returns every pole (both members of each pair).
  std::vector<std::complex<double>> PoleRoots() const;
};

/// Returns the phase of `tf` at s = jω [rad], continuous in ω > 0: arg K +
/// Σ arg(jω − zᵢ) − Σ arg(jω − pⱼ), each term continuous (a right-half-plane
/// root's term taken as arg(r − jω) + π, off atan2's cut), so no sweep can
/// skip a turn. 0 (π for K < 0) as ω → 0 with no root at 0.
double ContinuousPhase(const TransferFunction& tf, double omega);

/// Returns G(s) from input `input` to output `output` of `sys`, its pole
/// factors named by `modes` (the modes of `sys`'s A, e.g.
/// ModalAnalysis::modes(axis); each pole is matched to the nearest mode root)
/// and by `filters`, the washout filters' roots of a closed loop with filter
/// states (ModalAnalysis::filters_of(axis); named FilterRootName).
/// @throws std::invalid_argument if an index is out of range, or if `modes`
///         and `filters` do not hold exactly num_states roots.
/// @throws core::NumericalError as ComputeInvariantZeros.
TransferFunction ComputeTransferFunction(const model::StateSpace& sys, int input, int output,
                                         const std::vector<Mode>& modes,
                                         const std::vector<FilterRoot>& filters = {});

/// As above with poles from Decompose(A) and no mode names.
TransferFunction ComputeTransferFunction(const model::StateSpace& sys, int input, int output);

}  // namespace aerolin::analysis
