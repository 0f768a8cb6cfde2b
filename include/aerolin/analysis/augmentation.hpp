#pragma once
/// @file
/// Full-state feedback design on a linear model ẋ = A x + B u with
/// u = −K x: the linear-quadratic regulator (LQR) and pole placement.
///
/// Both functions work on plain matrices in any consistent units; they know
/// nothing of aircraft. Their errors name the offending mode through
/// `DesignLabels::mode_name` when the caller (study/augment.hpp) gives one,
/// else by its eigenvalue.
///
/// | Matrix | Rows | Cols | meaning                                  |
/// |:------:|:----:|:----:|:-----------------------------------------|
/// | A      | n    | n    | plant                                    |
/// | B      | n    | m    | inputs                                   |
/// | Q      | n    | n    | state weight, symmetric PSD              |
/// | R      | m    | m    | input weight, symmetric PD               |
/// | N      | n    | m    | cross weight (optional, 2 xᵀN u)         |
/// | K      | m    | n    | gain, u = −K x                           |
/// | X      | n    | n    | stabilizing solution of the CARE         |

#include <Eigen/Core>
#include <complex>
#include <functional>
#include <string>
#include <vector>

namespace aerolin::analysis {

/// Names used in the design's error messages.
struct DesignLabels {
  /// The inputs, one per column of B ("aileron, rudder"); empty: "the inputs".
  std::vector<std::string> inputs;
  /// The mode an eigenvalue λ of A belongs to, e.g. "spiral"; empty
  /// function (or empty answer): the eigenvalue alone names it.
  std::function<std::string(std::complex<double>)> mode_name;
};

/// A relative Riccati residual (see LqrResult::residual) above this is
/// refused: a backward-stable Schur solution of a well-posed CARE has
/// ~1e-15; 1e-8 leaves room for ill-conditioning (cond(U11) up to ~1e7)
/// and still guarantees eight correct digits of the terms.
inline constexpr double kMaxRiccatiResidual = 1e-8;

/// The solution of the LQR problem
/// @f$\min \int_0^\infty x^TQx + u^TRu + 2x^TNu\,dt@f$.
struct LqrResult {
  Eigen::MatrixXd K;  ///< m×n gain, @f$K = R^{-1}(B^TX + N^T)@f$, u = −Kx
  Eigen::MatrixXd X;  ///< n×n symmetric stabilizing solution of the CARE
  /// eig(A − BK), sorted by real part ascending, then imaginary part
  /// descending; every Re < 0.
  Eigen::VectorXcd closed_loop;
  /// @f$\|A^TX + XA - (XB+N)R^{-1}(B^TX+N^T) + Q\|_F@f$ divided by the sum
  /// of the Frobenius norms of the four terms (dimensionless, so the same in
  /// any units): ≤ kMaxRiccatiResidual, or Lqr throws.
  double residual = 0.0;
};

/// Solves the continuous algebraic Riccati equation
/// @f$A^TX + XA - (XB+N)R^{-1}(B^TX+N^T) + Q = 0@f$ by the ordered real
/// Schur form of the Hamiltonian
/// @f$H = \begin{bmatrix}\hat A & -BR^{-1}B^T\\ -\hat Q & -\hat A^T\end{bmatrix}@f$,
/// @f$\hat A = A - BR^{-1}N^T@f$, @f$\hat Q = Q - NR^{-1}N^T@f$
/// (Laub 1979, IEEE TAC 24(6)), after a symplectic diagonal balancing
/// (Benner 1997): LAPACK dgebal's power-of-2 scales of |H|, averaged so the
/// similarity is a change of state units. X = U21 U11⁻¹, symmetrized.
///
/// @param N optional cross weight (0×0: none).
/// @throws std::invalid_argument for sizes or non-finite entries (naming
///         both sizes), Q not symmetric or not positive semidefinite
///         (Q − N R⁻¹ Nᵀ with N), R not symmetric or not positive definite,
///         (A, B) not stabilizable (naming the mode that cannot be moved:
///         the PBH test at every eigenvalue with Re λ ≥ 0), or a mode on the
///         imaginary axis that Q does not see (PBH test on (Q, A): e.g. the
///         heading integrator, λ = 0, with no weight on ψ).
/// @throws core::NumericalError if the Schur form fails, the Hamiltonian has
///         eigenvalues on the imaginary axis, U11 is singular, or the
///         residual exceeds kMaxRiccatiResidual.
LqrResult Lqr(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Q,
              const Eigen::MatrixXd& R, const Eigen::MatrixXd& N = Eigen::MatrixXd(),
              const DesignLabels& labels = {});

/// The result of pole placement.
struct PlacementResult {
  Eigen::MatrixXd K;             ///< m×n gain, u = −Kx
  Eigen::VectorXcd requested;    ///< the requested poles, in the order given
  Eigen::VectorXcd achieved;     ///< eig(A − BK), matched one to one to `requested`
  double max_pole_error = 0.0;   ///< max |achieved − requested| [units of A]
  double gain_norm = 0.0;        ///< ‖K‖₂ (largest singular value)
  /// κ₂ of the closed-loop eigenvector matrix: the robustness measure the
  /// multi-input method minimizes (1 = orthogonal modes; large = fragile).
  double eigenvector_condition = 0.0;
};

/// A placed pole farther than this times max(1, |λ|) from its request is
/// refused: the eigenvalues of a 4–5 state closed loop are computed to
/// ~κ(X)·1e-16; 1e-6 allows κ(X) up to ~1e10 before refusing.
inline constexpr double kPlacementTolerance = 1e-6;

/// Returns K with eig(A − BK) = `poles`.
///
/// Single input (rank B = 1): the gain is unique and this is it. Several
/// inputs: the gain is not unique; the closed-loop eigenvectors are chosen by
/// Kautsky, Nichols & Van Dooren's method 0 (1985, Int. J. Control 41(5)) —
/// each eigenvector in turn made as orthogonal as its admissible subspace
/// allows to all the others, the sweeps repeated until no vector moves —
/// done in complex arithmetic with each conjugate pair's vectors kept
/// conjugate (so A − BK is real) and a real pole's vector kept real. It
/// minimizes κ(X) approximately, as scipy.signal.place_poles(method="KNV0")
/// does for real poles (scipy's KNV0 refuses complex ones).
///
/// `shapes` (optional, one per pole; an empty vector: none) asks for mode
/// shapes: a pole with a shape gets the admissible eigenvector nearest to it
/// (its orthogonal projection onto the pole's admissible subspace) and keeps
/// it; the sweeps move only the others. A pole left at an open-loop
/// eigenvalue with that eigenvalue's eigenvector as shape is then untouched
/// by the feedback (K v = 0), and a moved mode keeps its character as far as
/// the inputs allow — how study::Augment places poles by mode name. Shapes
/// that make the eigenvectors dependent are let go (plain KNV0).
///
/// @throws std::invalid_argument for sizes or non-finite entries, a number
///         of poles other than n, complex poles not in conjugate pairs, a
///         pole repeated more than rank(B) times, or an uncontrollable mode
///         of A (PBH test) with no requested pole at its eigenvalue (it
///         cannot be moved; the message names it).
/// @throws core::NumericalError if the achieved poles miss the requested
///         ones by more than kPlacementTolerance.
PlacementResult Place(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                      const std::vector<std::complex<double>>& poles,
                      const DesignLabels& labels = {},
                      const std::vector<Eigen::VectorXcd>& shapes = {});

/// ‖M‖₂, the largest singular value (0 for an empty M): the size of a gain.
double SpectralNorm(const Eigen::MatrixXd& M);

}  // namespace aerolin::analysis
