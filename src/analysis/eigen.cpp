#include "aerolin/analysis/eigen.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "aerolin/core/error.hpp"

namespace aerolin::analysis {
namespace {

// Below this reciprocal condition number of V, A is taken as defective: Eigen
// returns nearly parallel vectors for a Jordan block (rcond ~ ε), and left
// vectors from such a V would satisfy WᴴV = I only to ~1e-4 or worse.
constexpr double kMinReciprocalCondition = 1e-12;

}  // namespace

EigenDecomposition Decompose(const Eigen::MatrixXd& A, LeftVectors left) {
  const Eigen::Index n = A.rows();
  if (n == 0 || A.cols() != n)
    throw std::invalid_argument("Decompose: A must be square and non-empty, got " +
                                std::to_string(A.rows()) + "x" + std::to_string(A.cols()));
  if (!A.allFinite()) throw std::invalid_argument("Decompose: A has a non-finite entry");
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(A, true);
  if (solver.info() != Eigen::Success)
    throw core::NumericalError("eigen-decomposition failed (" + std::to_string(n) + " states)");
  const Eigen::VectorXcd values = solver.eigenvalues();
  const Eigen::MatrixXcd vectors = solver.eigenvectors();

  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
    const std::complex<double> la = values(a), lb = values(b);
    if (std::abs(la) != std::abs(lb)) return std::abs(la) > std::abs(lb);
    if (la.real() != lb.real()) return la.real() < lb.real();
    return la.imag() > lb.imag();
  });
  EigenDecomposition out;
  out.values.resize(n);
  out.right.resize(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    out.values(k) = values(order[static_cast<std::size_t>(k)]);
    out.right.col(k) = vectors.col(order[static_cast<std::size_t>(k)]);  // unit norm (Eigen)
  }
  // W = V⁻ᴴ gives Wᴴ V = I, i.e. wᵢᴴ vⱼ = δᵢⱼ, and Wᴴ A = Λ Wᴴ.
  const Eigen::FullPivLU<Eigen::MatrixXcd> lu(out.right);
  if (!lu.isInvertible() || lu.rcond() < kMinReciprocalCondition) {
    if (left == LeftVectors::kIfDiagonalizable) return out;
    throw core::NumericalError("eigenvectors are linearly dependent (" + std::to_string(n) +
                               " states; A is defective): no left eigenvectors");
  }
  out.left = lu.inverse().adjoint();
  return out;
}

}  // namespace aerolin::analysis
