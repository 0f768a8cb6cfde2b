#include "aerolin/analysis/eigen.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "aerolin/analysis/root_order.hpp"
#include "aerolin/core/error.hpp"

namespace aerolin::analysis {
namespace {

// Below this reciprocal condition number of V, A is taken as defective: Eigen
// returns nearly parallel vectors for a Jordan block (rcond ~ ε), and left
// vectors from such a V would satisfy WᴴV = I only to ~1e-4 or worse.
constexpr double kMinReciprocalCondition = 1e-12;

// Decompose for a matrix type M (MatrixXd or SmallMatrix); Out is the
// matching decomposition. Every step is the same for both types.
template <class Out, class M>
Out DecomposeAs(const M& A, LeftVectors left) {
  using ComplexMatrix = decltype(Out::right);
  const Eigen::Index n = A.rows();
  if (n == 0 || A.cols() != n)
    throw std::invalid_argument("Decompose: A must be square and non-empty, got " +
                                std::to_string(A.rows()) + "x" + std::to_string(A.cols()));
  if (!A.allFinite()) throw std::invalid_argument("Decompose: A has a non-finite entry");
  const Eigen::EigenSolver<M> solver(A, true);
  if (solver.info() != Eigen::Success)
    throw core::NumericalError("eigen-decomposition failed (" + std::to_string(n) + " states)");
  const auto& values = solver.eigenvalues();
  const ComplexMatrix vectors = solver.eigenvectors();

  // A stable insertion sort of the indices (n is small; std::stable_sort
  // would allocate its buffer): |λ| descending, Re λ ascending, Im λ descending.
  // |λ| once per root (std::abs of a complex is a hypot).
  const Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, M::MaxRowsAtCompileTime, 1> modulus =
      values.cwiseAbs();
  auto before = [&](Eigen::Index a, Eigen::Index b) {
    return RootBefore(values(a), modulus(a), values(b), modulus(b));
  };
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1, Eigen::ColMajor, M::MaxRowsAtCompileTime, 1> order(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index j = k;
    while (j > 0 && before(k, order(j - 1))) {
      order(j) = order(j - 1);
      --j;
    }
    order(j) = k;
  }
  Out out;
  out.values.resize(n);
  out.right.resize(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    out.values(k) = values(order(k));
    out.right.col(k) = vectors.col(order(k));  // unit norm (Eigen)
  }
  // W = V⁻ᴴ gives Wᴴ V = I, i.e. wᵢᴴ vⱼ = δᵢⱼ, and Wᴴ A = Λ Wᴴ.
  // The reciprocal condition number in the 1-norm, 1/(‖V‖₁‖V⁻¹‖₁), exactly
  // from the inverse this needs anyway (FullPivLU::rcond() estimates ‖V⁻¹‖₁
  // with further solves, a fifth of the cost of a sweep point).
  const Eigen::FullPivLU<ComplexMatrix> lu(out.right);
  ComplexMatrix inverse;
  bool independent = lu.isInvertible();
  if (independent) {
    inverse = lu.inverse();
    // max(|Re z|, |Im z|) ≤ |z| ≤ |Re z| + |Im z| bound each 1-norm within
    // a factor √2 without a hypot per entry; where the bounds leave rcond on
    // one side of the threshold by a factor 2 (far beyond rounding), that
    // decides, else rcond is computed as written below.
    auto bounds = [](const ComplexMatrix& X, double& lower, double& upper) {
      lower = upper = 0.0;
      for (Eigen::Index c = 0; c < X.cols(); ++c) {
        double low = 0.0, up = 0.0;
        for (Eigen::Index r = 0; r < X.rows(); ++r) {
          const double re = std::abs(X(r, c).real()), im = std::abs(X(r, c).imag());
          low += std::max(re, im);
          up += re + im;
        }
        lower = std::max(lower, low);
        upper = std::max(upper, up);
      }
    };
    double v_low = 0.0, v_up = 0.0, w_low = 0.0, w_up = 0.0;
    bounds(out.right, v_low, v_up);
    bounds(inverse, w_low, w_up);
    if (1.0 / (v_up * w_up) >= 2.0 * kMinReciprocalCondition) {
      independent = true;
    } else if (1.0 / (v_low * w_low) < 0.5 * kMinReciprocalCondition) {
      independent = false;
    } else {
      const double rcond = 1.0 / (out.right.cwiseAbs().colwise().sum().maxCoeff() *
                                  inverse.cwiseAbs().colwise().sum().maxCoeff());
      independent = rcond >= kMinReciprocalCondition;
    }
  }
  if (!independent) {
    if (left == LeftVectors::kIfDiagonalizable) return out;
    throw core::NumericalError("eigenvectors are linearly dependent (" + std::to_string(n) +
                               " states; A is defective): no left eigenvectors");
  }
  out.left = inverse.adjoint();
  return out;
}

}  // namespace

EigenDecomposition Decompose(const Eigen::MatrixXd& A, LeftVectors left) {
  return DecomposeAs<EigenDecomposition>(A, left);
}

SmallEigenDecomposition DecomposeSmall(const SmallMatrix& A, LeftVectors left) {
  return DecomposeAs<SmallEigenDecomposition>(A, left);
}

namespace {

template <class M>
auto EigenvaluesAs(const M& A) {
  const Eigen::EigenSolver<M> solver(A, false);
  if (solver.info() != Eigen::Success)
    throw core::NumericalError("eigenvalues failed (" + std::to_string(A.rows()) + " states)");
  return solver.eigenvalues();
}

}  // namespace

Eigen::VectorXcd Eigenvalues(const Eigen::MatrixXd& A) { return EigenvaluesAs(A); }

SmallVectorC EigenvaluesSmall(const SmallMatrix& A) { return EigenvaluesAs(A); }

SymmetricEigenpairs DecomposeSymmetric(const Eigen::MatrixXd& S, SymmetricVectors vectors) {
  const bool want = vectors == SymmetricVectors::kYes;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(
      S, want ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
  return {solver.eigenvalues(), want ? Eigen::MatrixXd(solver.eigenvectors()) : Eigen::MatrixXd()};
}

std::optional<Eigenpairs> EigenpairsAsSolved(const Eigen::MatrixXd& A) {
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(A, true);
  if (solver.info() != Eigen::Success) return std::nullopt;
  return Eigenpairs{solver.eigenvalues(), solver.eigenvectors()};
}

}  // namespace aerolin::analysis
