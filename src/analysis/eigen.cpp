#include "aerolin/analysis/eigen.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

namespace {

using ld = long double;
using cld = std::complex<ld>;
using cd = std::complex<double>;

// Complex arithmetic written out (std::complex's product and quotient call
// libgcc's __mulxc3/__divxc3, __muldc3/__divdc3 for their infinity recovery).
template <class C>
inline C Mul(C a, C b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// 1/p by Smith's method.
template <class C>
inline C Reciprocal(C p) {
  using T = typename C::value_type;
  const T a = p.real(), b = p.imag();
  if (std::fabs(a) >= std::fabs(b)) {
    const T r = b / a, d = a + b * r;
    return {1 / d, -r / d};
  }
  const T r = a / b, d = b + a * r;
  return {r / d, -1 / d};
}
template <class C>
inline typename C::value_type Norm1(C z) {
  return std::fabs(z.real()) + std::fabs(z.imag());
}

// Solves M Z = R in place in double (both column-major, M n×n, R n×m; Z in
// R) by Gaussian elimination with partial pivoting; false on a zero or
// non-finite pivot or a non-finite solution.
bool SolveInPlace(std::vector<cd>& M, int n, std::vector<cd>& R, int m) {
  auto at = [n](int i, int j) { return static_cast<std::size_t>(i + j * n); };
  for (int c = 0; c < n; ++c) {
    int p = c;
    double best = Norm1(M[at(c, c)]);
    for (int i = c + 1; i < n; ++i)
      if (Norm1(M[at(i, c)]) > best) {
        best = Norm1(M[at(i, c)]);
        p = i;
      }
    if (!(best > 0) || !std::isfinite(best)) return false;
    if (p != c) {
      for (int j = 0; j < n; ++j) std::swap(M[at(p, j)], M[at(c, j)]);
      for (int j = 0; j < m; ++j) std::swap(R[at(p, j)], R[at(c, j)]);
    }
    const cd inv = Reciprocal(M[at(c, c)]);
    for (int i = c + 1; i < n; ++i) {
      const cd f = Mul(M[at(i, c)], inv);
      for (int j = c + 1; j < n; ++j) M[at(i, j)] -= Mul(f, M[at(c, j)]);
      for (int j = 0; j < m; ++j) R[at(i, j)] -= Mul(f, R[at(c, j)]);
    }
  }
  for (int j = 0; j < m; ++j)
    for (int i = n - 1; i >= 0; --i) {
      cd sum = R[at(i, j)];
      for (int k = i + 1; k < n; ++k) sum -= Mul(M[at(i, k)], R[at(k, j)]);
      R[at(i, j)] = Mul(sum, Reciprocal(M[at(i, i)]));
      if (!std::isfinite(R[at(i, j)].real()) || !std::isfinite(R[at(i, j)].imag())) return false;
    }
  return true;
}

inline cd Rounded(cld z) { return {static_cast<double>(z.real()), static_cast<double>(z.imag())}; }

}  // namespace

std::optional<RefinedEigenpairs> RefineEigenpairs(const Eigen::MatrixXd& A, const Eigenpairs& approx, int steps) {
  const int n = static_cast<int>(A.rows());
  const auto size = static_cast<std::size_t>(n);
  const ld u_ld = std::numeric_limits<ld>::epsilon() / 2;
  const ld norm_a = A.cast<ld>().norm();
  RefinedEigenpairs out;
  out.values.resize(n);
  out.right.resize(n, n);
  out.residual.resize(n);
  std::vector<cld> x(size), r(size);
  std::vector<cd> M(size * size), z(size);
  auto form_residual = [&](cld l) {  // r = A x − λ x, in long double
    for (int i = 0; i < n; ++i) {
      cld sum = -Mul(l, x[static_cast<std::size_t>(i)]);
      for (int j = 0; j < n; ++j) sum += static_cast<ld>(A(i, j)) * x[static_cast<std::size_t>(j)];
      r[static_cast<std::size_t>(i)] = sum;
    }
  };
  for (int e = 0; e < n; ++e) {
    // The second of a complex-conjugate pair (Eigen gives them side by side,
    // conjugate to the bit) is the first's conjugate.
    if (e > 0 && approx.values(e).imag() != 0.0 && approx.values(e) == std::conj(approx.values(e - 1)) &&
        approx.vectors.col(e) == approx.vectors.col(e - 1).conjugate()) {
      out.values(e) = std::conj(out.values(e - 1));
      out.right.col(e) = out.right.col(e - 1).conjugate();
      out.residual(e) = out.residual(e - 1);
      continue;
    }
    for (int i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = cld(approx.vectors(i, e).real(), approx.vectors(i, e).imag());
    cld l(approx.values(e).real(), approx.values(e).imag());
    int k = 0;
    for (int i = 1; i < n; ++i)
      if (Norm1(x[static_cast<std::size_t>(i)]) > Norm1(x[static_cast<std::size_t>(k)])) k = i;
    if (!(Norm1(x[static_cast<std::size_t>(k)]) > 0)) return std::nullopt;
    const cld scale = Reciprocal(x[static_cast<std::size_t>(k)]);
    for (cld& xi : x) xi = Mul(xi, scale);
    x[static_cast<std::size_t>(k)] = 1;
    // Newton, the residual in long double and the correction solved in
    // double (its relative error u κ is what each step keeps of the last
    // error, on top of the quadratic convergence).
    for (int step = 0; step < steps; ++step) {
      form_residual(l);
      const cd ld_rounded = Rounded(l);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          M[static_cast<std::size_t>(i + j * n)] =
              j == k ? -Rounded(x[static_cast<std::size_t>(i)]) : cd(A(i, j)) - (i == j ? ld_rounded : cd(0.0));
      for (int i = 0; i < n; ++i) z[static_cast<std::size_t>(i)] = -Rounded(r[static_cast<std::size_t>(i)]);
      if (!SolveInPlace(M, n, z, 1)) return std::nullopt;
      l += cld(z[static_cast<std::size_t>(k)].real(), z[static_cast<std::size_t>(k)].imag());
      for (int i = 0; i < n; ++i)
        if (i != k) x[static_cast<std::size_t>(i)] += cld(z[static_cast<std::size_t>(i)].real(), z[static_cast<std::size_t>(i)].imag());
    }
    form_residual(l);
    ld xx = 0, rr = 0;
    for (int i = 0; i < n; ++i) {
      xx += std::norm(x[static_cast<std::size_t>(i)]);
      rr += std::norm(r[static_cast<std::size_t>(i)]);
    }
    const ld norm_x = std::sqrt(xx);
    out.values(e) = l;
    for (int i = 0; i < n; ++i) out.right(i, e) = x[static_cast<std::size_t>(i)] / norm_x;
    out.residual(e) = std::sqrt(rr) / norm_x + static_cast<ld>(n) * u_ld * (norm_a + std::abs(l));
  }
  // Y = X⁻¹: Y₀ in double, then one step of Newton–Schulz refinement,
  // Y = Y₀ + Y₀ (I − X Y₀), with I − X Y₀ formed in long double (its size,
  // u κ(X), squared is what remains).
  for (std::size_t i = 0; i < M.size(); ++i) M[i] = Rounded(out.right.data()[i]);
  std::vector<cd> Y0(M.size(), cd(0.0));
  for (int i = 0; i < n; ++i) Y0[static_cast<std::size_t>(i + i * n)] = 1.0;
  if (!SolveInPlace(M, n, Y0, n)) return std::nullopt;
  std::vector<cd> E(M.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      cld sum = i == j ? cld(1) : cld(0);
      for (int k = 0; k < n; ++k) {
        const cd y = Y0[static_cast<std::size_t>(k + j * n)];
        sum -= Mul(out.right(i, k), cld(y.real(), y.imag()));
      }
      E[static_cast<std::size_t>(i + j * n)] = Rounded(sum);
    }
  out.left.resize(n, n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      cd correction = 0.0;
      for (int k = 0; k < n; ++k)
        correction += Mul(Y0[static_cast<std::size_t>(i + k * n)], E[static_cast<std::size_t>(k + j * n)]);
      const cd y = Y0[static_cast<std::size_t>(i + j * n)];
      out.left(i, j) = cld(y.real(), y.imag()) + cld(correction.real(), correction.imag());
    }
  return out;
}

}  // namespace aerolin::analysis
