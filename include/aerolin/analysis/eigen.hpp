#pragma once
/// @file
/// Eigen-decomposition of a real square matrix with right and left
/// eigenvectors, the basis of modal analysis and of eigenvalue sensitivities.

#include <Eigen/Core>
#include <complex>
#include <optional>

#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::analysis {

/// Eigenvalues Λ, right eigenvectors V (A V = V Λ) and left eigenvectors W
/// (Wᴴ A = Λ Wᴴ) of a real n×n matrix A.
///
/// | Member | Rows | Cols |
/// |:------:|:----:|:----:|
/// | values | n    | 1    |
/// | right  | n    | n    |
/// | left   | n    | n    |
///
/// Column i of `right` and of `left` belong to `values(i)`. Each right vector
/// has unit 2-norm; each left vector is scaled so that wᵢᴴ vᵢ = 1, hence
/// Wᴴ V = I for a diagonalizable A.
struct EigenDecomposition {
  Eigen::VectorXcd values;  ///< λᵢ [units of A]
  Eigen::MatrixXcd right;   ///< vᵢ, unit 2-norm
  Eigen::MatrixXcd left;    ///< wᵢ, wᵢᴴ vᵢ = 1
};

/// What Decompose does when A has no complete set of eigenvectors.
enum class LeftVectors {
  kRequired,          ///< throw core::NumericalError
  kIfDiagonalizable,  ///< return `left` empty (0×0)
};

/// Returns the eigen-decomposition of `A`, sorted deterministically: by |λ|
/// descending, then Re λ ascending, then Im λ descending (so each conjugate
/// pair is adjacent, Im > 0 first). Eigen's own order is unspecified.
///
/// Left vectors are the columns of V⁻ᴴ, computed with a full-pivot LU of V.
/// For a defective (or numerically near-defective) A, V is singular or
/// nearly so: the left vectors are then large (‖wᵢ‖ ~ 1/sep) and wᵢᴴ vᵢ = 1
/// still holds to the accuracy cond(V)·ε; a V whose reciprocal condition
/// number 1/(‖V‖₁‖V⁻¹‖₁) is below 1e-12 (a Jordan block gives ~1e-16) counts as singular
/// and throws, or leaves `left` empty, as `left` says.
/// @throws std::invalid_argument if `A` is not square, is empty, or has a
///         non-finite entry.
/// @throws core::NumericalError if Eigen's solver fails, or V is singular
///         (A defective to working precision) and `left` is kRequired.
EigenDecomposition Decompose(const Eigen::MatrixXd& A,
                             LeftVectors left = LeftVectors::kRequired);

/// The largest system the allocation-free types below hold: 4 longitudinal
/// or 5 lateral states, plus a loop's washout state, with room to spare.
inline constexpr int kMaxSmallStates = 8;
static_assert(4 + model::kMaxWashoutsPerAxis <= kMaxSmallStates,
              "an axis's tracked states (4 airframe states and its filters) fit a SmallMatrix");
/// A real matrix of at most kMaxSmallStates² entries, stored in place (no
/// heap allocation): Eigen's "fixed maximum size" dynamic matrix.
using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor,
                                  kMaxSmallStates, kMaxSmallStates>;
using SmallMatrixC = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, Eigen::Dynamic,
                                   Eigen::ColMajor, kMaxSmallStates, kMaxSmallStates>;
using SmallVectorC = Eigen::Matrix<std::complex<double>, Eigen::Dynamic, 1, Eigen::ColMajor,
                                   kMaxSmallStates, 1>;

/// EigenDecomposition in allocation-free storage, for the many small solves
/// of a sweep or a locus.
struct SmallEigenDecomposition {
  SmallVectorC values;  ///< λᵢ
  SmallMatrixC right;   ///< vᵢ, unit 2-norm
  SmallMatrixC left;    ///< wᵢ, wᵢᴴ vᵢ = 1; 0×0 as EigenDecomposition's
};

/// Decompose for an A of at most kMaxSmallStates rows, without heap
/// allocation. The same algorithm, order and scaling as Decompose: the
/// results are bit-for-bit equal (eigen_test checks it on every bundled
/// aircraft).
/// @throws as Decompose.
SmallEigenDecomposition DecomposeSmall(const SmallMatrix& A,
                                       LeftVectors left = LeftVectors::kRequired);

/// The eigenvalues of `A` alone, in Eigen::EigenSolver's own order (no
/// sorting, no vectors). Every module asks here rather than instantiating
/// Eigen's real eigen-solver itself: each instantiation costs ~10 s of a
/// core at -O3, and these two share Decompose's (docs/performance.md).
/// @throws core::NumericalError if the QR iteration does not converge.
Eigen::VectorXcd Eigenvalues(const Eigen::MatrixXd& A);
SmallVectorC EigenvaluesSmall(const SmallMatrix& A);

/// Eigenvalues and right eigenvectors of a real A exactly as Eigen::EigenSolver
/// gives them: its own order, each vector of unit 2-norm, no left vectors
/// (the frequency response's modal form, which checks their conditioning
/// itself). Shares Decompose's instantiation of the solver.
struct Eigenpairs {
  Eigen::VectorXcd values;   ///< λᵢ
  Eigen::MatrixXcd vectors;  ///< vᵢ, column i for values(i)
};
/// @returns std::nullopt if the QR iteration does not converge.
std::optional<Eigenpairs> EigenpairsAsSolved(const Eigen::MatrixXd& A);

/// Eigenpairs of a real A refined in extended precision (long double: a
/// 64-bit significand on x86-64, u_ld = 2⁻⁶⁴) from approximate ones, to
/// measure the approximations' errors (the frequency response's modal form).
/// Each pair by Newton's method on A x = λ x with x's largest component held
/// at 1 (Wilkinson, "The Algebraic Eigenvalue Problem", 1965, §9.62): a step
/// forms the residual A x − λ x in long double and solves (A − λI), its
/// column of that component replaced by −x, in double for the corrections
/// of x and λ (mixed-precision refinement: each step keeps u κ of the last
/// error, beside Newton's quadratic convergence); from a double pair one
/// step (the default) reaches long double's own level where κ is moderate,
/// and the residual says where it did not. The second of a conjugate pair
/// (side by side, conjugate to the bit) is the first's conjugate. Then
/// each x is scaled to unit
/// 2-norm, and the left vectors are the rows of Y = X⁻¹ (yᵢ xⱼ = δᵢⱼ): Y₀ in
/// double, then Y₀ + Y₀ (I − X Y₀) with I − X Y₀ formed in long double.
/// `residual` is ‖A xᵢ − λᵢ xᵢ‖ as computed plus n u_ld (‖A‖_F + |λᵢ|), at
/// least the rounding of forming it: to first order λᵢ is within
/// κᵢ·residual of an eigenvalue, κᵢ = ‖yᵢ‖. The arithmetic is written out
/// (Gaussian elimination with partial pivoting by |Re| + |Im|; no libgcc
/// complex product or quotient). Where long double is double (some
/// platforms) the pairs come back no better than they went in, and the
/// residuals say so.
/// @returns std::nullopt if a step or X⁻¹ meets a zero pivot or a non-finite
/// value (a vector of zeros, a defective A).
struct RefinedEigenpairs {
  using Matrix = Eigen::Matrix<std::complex<long double>, Eigen::Dynamic, Eigen::Dynamic>;
  Eigen::Matrix<std::complex<long double>, Eigen::Dynamic, 1> values;  ///< λᵢ
  Matrix right;                                                        ///< xᵢ, unit columns
  Matrix left;                                                         ///< yᵢ, the rows of X⁻¹
  Eigen::Matrix<long double, Eigen::Dynamic, 1> residual;  ///< ‖A xᵢ − λᵢ xᵢ‖ + n u_ld (‖A‖_F + |λᵢ|)
};
std::optional<RefinedEigenpairs> RefineEigenpairs(const Eigen::MatrixXd& A, const Eigenpairs& approx,
                                                  int steps = 1);

/// Eigenvalues (ascending) and, if asked, orthonormal eigenvectors of a
/// symmetric S (its lower triangle is read), as Eigen::SelfAdjointEigenSolver
/// gives them; every module asks here so the solver is instantiated once.
struct SymmetricEigenpairs {
  Eigen::VectorXd values;   ///< λ₁ ≤ … ≤ λₙ
  Eigen::MatrixXd vectors;  ///< column i for values(i); 0×0 unless asked
};
enum class SymmetricVectors { kNo, kYes };
SymmetricEigenpairs DecomposeSymmetric(const Eigen::MatrixXd& S,
                                       SymmetricVectors vectors = SymmetricVectors::kNo);

}  // namespace aerolin::analysis
