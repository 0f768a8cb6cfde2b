#include "aerolin/analysis/augmentation.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

// LAPACKE with std::complex for its complex type (no C99 <complex.h> in C++).
#define LAPACK_COMPLEX_CPP
#include <lapacke.h>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/error.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;

// ‖M − Mᵀ‖_F ≤ this · ‖M‖_F counts as symmetric: weights typed with a few
// significant digits are exactly symmetric; rounding in a product of
// matrices leaves ~1e-16.
constexpr double kSymmetryTolerance = 1e-10;
// λ_min(Q) ≥ −this · max(1, λ_max) counts as PSD (rounding of a PSD
// matrix's eigenvalues is ~1e-16 · ‖Q‖).
constexpr double kSemidefiniteTolerance = 1e-12;
// λ_min(R) ≤ this · λ_max(R) is singular for the Riccati equation, which
// inverts R: beyond 1e12 the gain carries fewer than four correct digits.
constexpr double kDefiniteTolerance = 1e-12;
// The PBH tests: σ_min([A − λI, B̂]) ≤ this · s counts as rank deficient,
// with s = max(‖A‖, 1) and B̂'s columns scaled to s, in balanced state
// units. An exactly uncoupled mode gives ~1e-16; a coupling of 1e-9 of the
// inputs' full influence moves the mode no more than none would.
constexpr double kRankTolerance = 1e-9;
// |Re λ| ≤ this · max(1, |λ|) is on the imaginary axis (the heading
// integrator's λ is 0 to rounding, ~1e-17).
constexpr double kAxisTolerance = 1e-9;
// Two requested poles closer than this · max(1, |λ|) are the same pole
// (multiplicity), and a complex pole's partner must be its conjugate to
// this precision.
constexpr double kSamePoleTolerance = 1e-9;

std::string Format(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

// "-2", "-2 + 3j", "-2 − 3j".
std::string FormatPole(cd l) {
  if (l.imag() == 0.0) return Format(l.real());
  return Format(l.real()) + (l.imag() < 0 ? " − " : " + ") + Format(std::abs(l.imag())) + "j";
}

// "λ = -2 /s", "λ = -2 ± 3j /s" (a pair).
std::string FormatLambda(cd l) {
  if (l.imag() == 0.0) return "λ = " + Format(l.real()) + " /s";
  return "λ = " + Format(l.real()) + " ± " + Format(std::abs(l.imag())) + "j /s";
}

std::string Size(const Eigen::MatrixXd& M) {
  return std::to_string(M.rows()) + "×" + std::to_string(M.cols());
}

void CheckFinite(const Eigen::MatrixXd& M, const char* name) {
  if (!M.allFinite()) throw std::invalid_argument(std::string(name) + " has a non-finite entry");
}

void CheckSizes(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) {
  if (A.rows() == 0 || A.rows() != A.cols())
    throw std::invalid_argument("A must be square and not empty, got " + Size(A));
  if (B.rows() != A.rows() || B.cols() == 0)
    throw std::invalid_argument("B must have A's " + std::to_string(A.rows()) +
                                " rows and at least one column, got " + Size(B));
  CheckFinite(A, "A");
  CheckFinite(B, "B");
}

std::string InputList(const DesignLabels& labels) {
  if (labels.inputs.empty()) return "the inputs";
  std::string s;
  for (const std::string& n : labels.inputs) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// "the spiral (λ = 0.01 /s)" or "the mode λ = 0.01 /s".
std::string ModeText(cd lambda, const DesignLabels& labels) {
  const cd shown(lambda.real(), std::abs(lambda.imag()));
  const std::string name = labels.mode_name ? labels.mode_name(lambda) : std::string();
  if (name.empty()) return "the mode " + FormatLambda(shown);
  return "the " + name + " (" + FormatLambda(shown) + ")";
}

// Sorted: real part ascending, then imaginary part descending.
Eigen::VectorXcd Sorted(Eigen::VectorXcd v) {
  std::sort(v.data(), v.data() + v.size(), [](cd a, cd b) {
    return a.real() != b.real() ? a.real() < b.real() : a.imag() > b.imag();
  });
  return v;
}

// Power-of-2 state scales d (x̃ = x / d... see Balance): LAPACK dgebal on
// |M| without its diagonal, as scipy's solve_continuous_are, job 'S'.
Eigen::VectorXd GebalScales(Eigen::MatrixXd M) {
  M = M.cwiseAbs();
  M.diagonal().setZero();
  const lapack_int n = static_cast<lapack_int>(M.rows());
  lapack_int ilo = 0, ihi = 0;
  Eigen::VectorXd scale(n);
  const lapack_int info =
      LAPACKE_dgebal(LAPACK_COL_MAJOR, 'S', n, M.data(), n, &ilo, &ihi, scale.data());
  if (info != 0) throw core::NumericalError("balancing (dgebal) failed, info " + std::to_string(info));
  return scale;
}

// State scales for the PBH tests: x̃ = P x with P = diag(p) balances A.
Eigen::VectorXd StateBalance(const Eigen::MatrixXd& A) {
  const Eigen::VectorXd s = GebalScales(A);
  // dgebal returns D with D⁻¹ A D balanced; P = D⁻¹.
  return s.cwiseInverse();
}

// σ_min of M (complex).
double SmallestSingularValue(const Eigen::MatrixXcd& M) {
  Eigen::JacobiSVD<Eigen::MatrixXcd> svd(M);
  return svd.singularValues()(svd.singularValues().size() - 1);
}

// True if the mode λ of A is not moved by B (PBH: rank [A − λI, B] < n), in
// the balanced coordinates `p`.
bool Uncontrollable(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::VectorXd& p,
                    cd lambda) {
  const Eigen::Index n = A.rows();
  const Eigen::MatrixXd At = p.asDiagonal() * A * p.cwiseInverse().asDiagonal();
  Eigen::MatrixXd Bt = p.asDiagonal() * B;
  const double s = std::max(At.norm(), 1.0);
  for (Eigen::Index j = 0; j < Bt.cols(); ++j) {
    const double c = Bt.col(j).norm();
    if (c > 0) Bt.col(j) *= s / c;
  }
  Eigen::MatrixXcd M(n, n + Bt.cols());
  M << At.cast<cd>() - lambda * Eigen::MatrixXcd::Identity(n, n), Bt.cast<cd>();
  return SmallestSingularValue(M) <= kRankTolerance * s;
}

// True if the mode λ of A is not seen by Q (PBH: rank [A − λI; Q] < n).
bool Unobservable(const Eigen::MatrixXd& A, const Eigen::MatrixXd& Q, const Eigen::VectorXd& p,
                  cd lambda) {
  const Eigen::Index n = A.rows();
  const Eigen::MatrixXd At = p.asDiagonal() * A * p.cwiseInverse().asDiagonal();
  Eigen::MatrixXd Qt = p.cwiseInverse().asDiagonal() * Q * p.cwiseInverse().asDiagonal();
  const double s = std::max(At.norm(), 1.0);
  const double q = Qt.norm();
  if (q > 0) Qt *= s / q;
  Eigen::MatrixXcd M(2 * n, n);
  M << At.cast<cd>() - lambda * Eigen::MatrixXcd::Identity(n, n), Qt.cast<cd>();
  return SmallestSingularValue(M) <= kRankTolerance * s;
}

bool Symmetric(const Eigen::MatrixXd& M) {
  return (M - M.transpose()).norm() <= kSymmetryTolerance * M.norm();
}

void CheckWeights(const Eigen::MatrixXd& Q, const Eigen::MatrixXd& R, const Eigen::MatrixXd& N,
                  Eigen::Index n, Eigen::Index m) {
  if (Q.rows() != n || Q.cols() != n)
    throw std::invalid_argument("Q must be " + std::to_string(n) + "×" + std::to_string(n) +
                                " (A's size), got " + Size(Q));
  if (R.rows() != m || R.cols() != m)
    throw std::invalid_argument("R must be " + std::to_string(m) + "×" + std::to_string(m) +
                                " (B's columns), got " + Size(R));
  if (N.size() != 0 && (N.rows() != n || N.cols() != m))
    throw std::invalid_argument("N must be " + std::to_string(n) + "×" + std::to_string(m) +
                                " (B's size), got " + Size(N));
  CheckFinite(Q, "Q");
  CheckFinite(R, "R");
  CheckFinite(N, "N");
  if (!Symmetric(Q)) throw std::invalid_argument("Q is not symmetric (Q ≠ Qᵀ)");
  if (!Symmetric(R)) throw std::invalid_argument("R is not symmetric (R ≠ Rᵀ)");
  const Eigen::VectorXd r = DecomposeSymmetric(R).values;
  if (r(0) <= kDefiniteTolerance * std::abs(r(r.size() - 1)))
    throw std::invalid_argument(
        "R is not positive definite (smallest eigenvalue " + Format(r(0)) + ", largest " +
        Format(r(r.size() - 1)) + "): every input needs a positive weight");
  const Eigen::VectorXd q = DecomposeSymmetric(Q).values;
  if (q(0) < -kSemidefiniteTolerance * std::max(1.0, std::abs(q(q.size() - 1))))
    throw std::invalid_argument("Q is not positive semidefinite (smallest eigenvalue " +
                                Format(q(0)) + ")");
  if (N.size() != 0) {
    const Eigen::MatrixXd Qh = Q - N * R.llt().solve(N.transpose());
    const Eigen::VectorXd qh =
        DecomposeSymmetric(0.5 * (Qh + Qh.transpose())).values;
    if (qh(0) < -kSemidefiniteTolerance * std::max(1.0, Q.norm()))
      throw std::invalid_argument("Q − N R⁻¹ Nᵀ is not positive semidefinite (smallest eigenvalue " +
                                  Format(qh(0)) + "): the cross weight N is too large");
  }
}

lapack_logical StableEigenvalue(const double* re, const double* /*im*/) { return *re < 0.0; }

}  // namespace

LqrResult Lqr(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& Q,
              const Eigen::MatrixXd& R, const Eigen::MatrixXd& N, const DesignLabels& labels) {
  CheckSizes(A, B);
  const Eigen::Index n = A.rows(), m = B.cols();
  CheckWeights(Q, R, N, n, m);
  const Eigen::MatrixXd Nm = N.size() != 0 ? N : Eigen::MatrixXd::Zero(n, m);
  const Eigen::LLT<Eigen::MatrixXd> Rllt(R);
  const Eigen::MatrixXd Ah = A - B * Rllt.solve(Nm.transpose());
  Eigen::MatrixXd Qh = Q - Nm * Rllt.solve(Nm.transpose());
  Qh = (0.5 * (Qh + Qh.transpose())).eval();
  const Eigen::MatrixXd G = B * Rllt.solve(B.transpose());

  // Stabilizability and the imaginary-axis condition, by mode, so the error
  // can say which mode: the Hamiltonian would only say that it failed.
  const Eigen::VectorXd p = StateBalance(Ah);
  const Eigen::VectorXcd open = Eigenvalues(Ah);
  for (Eigen::Index i = 0; i < n; ++i) {
    const cd l = open(i);
    if (l.imag() < 0) continue;  // one test per conjugate pair
    const bool on_axis = std::abs(l.real()) <= kAxisTolerance * std::max(1.0, std::abs(l));
    if ((l.real() >= 0 || on_axis) && Uncontrollable(Ah, B, p, l))
      throw std::invalid_argument(
          "(A, B) is not stabilizable: " + ModeText(l, labels) + " is " +
          (on_axis ? "on the imaginary axis" : "unstable") + " and cannot be moved by " +
          InputList(labels) + " (PBH test); add an input that moves it, or leave its states out");
    if (on_axis && Unobservable(Ah, Qh, p, l))
      throw std::invalid_argument(
          ModeText(l, labels) + " is on the imaginary axis and Q does not weight it, so the "
          "Riccati equation has no stabilizing solution: weight its state in Q, or leave the "
          "state out of the design");
  }

  // The Hamiltonian, balanced by S = diag(P, P⁻¹) (a change of state units,
  // so still Hamiltonian): H_b = S H S⁻¹.
  Eigen::MatrixXd H(2 * n, 2 * n);
  H << Ah, -G, -Qh, -Ah.transpose();
  const Eigen::VectorXd gebal = GebalScales(H);
  Eigen::VectorXd sca(2 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    // dgebal's D⁻¹ H D: S = D⁻¹; the symplectic S takes the geometric mean.
    const double e = std::round((std::log2(gebal(i)) - std::log2(gebal(n + i))) / 2.0);
    sca(i) = std::exp2(-e);
    sca(n + i) = std::exp2(e);
  }
  Eigen::MatrixXd Hb = sca.asDiagonal() * H * sca.cwiseInverse().asDiagonal();

  const lapack_int nn = static_cast<lapack_int>(2 * n);
  lapack_int sdim = 0;
  Eigen::VectorXd wr(nn), wi(nn);
  Eigen::MatrixXd U(nn, nn);
  const lapack_int info = LAPACKE_dgees(LAPACK_COL_MAJOR, 'V', 'S', StableEigenvalue, nn, Hb.data(),
                                        nn, &sdim, wr.data(), wi.data(), U.data(), nn);
  if (info != 0)
    throw core::NumericalError("the ordered Schur form of the Hamiltonian failed (dgees info " +
                               std::to_string(info) + ")");
  if (sdim != static_cast<lapack_int>(n))
    throw core::NumericalError("the Hamiltonian has " + std::to_string(sdim) +
                               " stable eigenvalues, not " + std::to_string(n) +
                               ": eigenvalues on the imaginary axis, no stabilizing solution");
  // U = S⁻¹ U_b: X = U21 U11⁻¹ = P U_b21 U_b11⁻¹ P with P = diag(sca(0..n−1)).
  const Eigen::MatrixXd U11 = U.topLeftCorner(n, n);
  const Eigen::MatrixXd U21 = U.bottomLeftCorner(n, n);
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(U11.transpose());
  if (lu.rcond() < std::numeric_limits<double>::epsilon() * 100)
    throw core::NumericalError("U11 of the Hamiltonian's stable subspace is singular (rcond " +
                               Format(lu.rcond()) + "): no stabilizing solution");
  const Eigen::VectorXd P = sca.head(n);
  Eigen::MatrixXd X = P.asDiagonal() * lu.solve(U21.transpose()).transpose() * P.asDiagonal();
  X = (0.5 * (X + X.transpose())).eval();  // eval: X is on both sides

  LqrResult out;
  out.X = X;
  out.K = Rllt.solve(B.transpose() * X + Nm.transpose());
  const Eigen::MatrixXd XB = X * B + Nm;
  const Eigen::MatrixXd quad = XB * Rllt.solve(XB.transpose());
  const Eigen::MatrixXd res = A.transpose() * X + X * A - quad + Q;
  const double scale = (A.transpose() * X).norm() + (X * A).norm() + quad.norm() + Q.norm();
  out.residual = scale > 0 ? res.norm() / scale : res.norm();
  if (!(out.residual <= kMaxRiccatiResidual))
    throw core::NumericalError("the Riccati solution's relative residual " +
                               Format(out.residual) + " exceeds " + Format(kMaxRiccatiResidual) +
                               ": the problem is too ill-conditioned (rescale the weights)");
  out.closed_loop = Sorted(Eigenvalues(A - B * out.K));
  return out;
}

namespace {

// An orthonormal basis (columns) of the null space of the complex M (r×n),
// with at least `min_dim` columns: the right singular vectors of the
// smallest singular values.
template <typename Matrix>
Matrix NullSpace(const Matrix& M, Eigen::Index n, Eigen::Index min_dim, double scale) {
  if (M.rows() == 0) return Matrix::Identity(n, n);
  Eigen::JacobiSVD<Matrix> svd(M, Eigen::ComputeFullV);
  const Eigen::VectorXd& s = svd.singularValues();
  Eigen::Index rank = 0;
  for (Eigen::Index i = 0; i < s.size(); ++i)
    if (s(i) > kRankTolerance * scale) ++rank;
  rank = std::min(rank, n - min_dim);
  return svd.matrixV().rightCols(n - rank);
}

// σ_max / σ_min of the complex M (infinite when M is singular).
double ConditionNumber(const Eigen::MatrixXcd& M) {
  const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(M);
  return svd.singularValues()(0) / svd.singularValues()(svd.singularValues().size() - 1);
}

// Removes the phase of v so its largest component is real and positive.
Eigen::VectorXcd Dephased(const Eigen::VectorXcd& v) {
  Eigen::Index k = 0;
  v.cwiseAbs().maxCoeff(&k);
  if (std::abs(v(k)) == 0.0) return v;
  return v * std::conj(v(k) / std::abs(v(k)));
}

}  // namespace

PlacementResult Place(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                      const std::vector<std::complex<double>>& poles, const DesignLabels& labels,
                      const std::vector<Eigen::VectorXcd>& shapes) {
  CheckSizes(A, B);
  const Eigen::Index n = A.rows();
  if (static_cast<Eigen::Index>(poles.size()) != n)
    throw std::invalid_argument("expected " + std::to_string(n) + " poles (one per state), got " +
                                std::to_string(poles.size()));
  for (const cd& l : poles)
    if (!std::isfinite(l.real()) || !std::isfinite(l.imag()))
      throw std::invalid_argument("a requested pole is not finite");

  // Conjugate pairs: each complex pole's partner, by position.
  std::vector<Eigen::Index> partner(n, -1);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (poles[i].imag() == 0.0 || partner[i] >= 0) continue;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i || partner[j] >= 0 || poles[j].imag() == 0.0) continue;
      if (std::abs(poles[j] - std::conj(poles[i])) <=
          kSamePoleTolerance * std::max(1.0, std::abs(poles[i]))) {
        partner[i] = j;
        partner[j] = i;
        break;
      }
    }
    if (partner[i] < 0)
      throw std::invalid_argument("complex poles must come in conjugate pairs: " +
                                  FormatPole(poles[i]) + " has no partner " +
                                  FormatPole(std::conj(poles[i])));
  }

  // rank(B) and its QR: B = [U0 U1] [Z; 0].
  Eigen::JacobiSVD<Eigen::MatrixXd> bsvd(B);
  Eigen::Index rank_b = 0;
  for (Eigen::Index i = 0; i < bsvd.singularValues().size(); ++i)
    if (bsvd.singularValues()(i) > kRankTolerance * bsvd.singularValues()(0)) ++rank_b;
  if (rank_b < B.cols())
    throw std::invalid_argument("B has rank " + std::to_string(rank_b) + " with " +
                                std::to_string(B.cols()) + " inputs (" + InputList(labels) +
                                "): two inputs act alike; leave one out");
  const Eigen::Index m = rank_b;
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::Index count = 0;
    for (Eigen::Index j = 0; j < n; ++j)
      if (std::abs(poles[j] - poles[i]) <= kSamePoleTolerance * std::max(1.0, std::abs(poles[i])))
        ++count;
    if (count > m)
      throw std::invalid_argument("the pole " + FormatPole(poles[i]) + " is requested " +
                                  std::to_string(count) + " times, more than rank(B) = " +
                                  std::to_string(m) + " (" + InputList(labels) +
                                  "): a pole may repeat at most once per independent input");
  }

  // Uncontrollable modes stay where they are: each must be requested there.
  const Eigen::VectorXd p = StateBalance(A);
  const Eigen::VectorXcd open = Eigenvalues(A);
  for (Eigen::Index i = 0; i < n; ++i) {
    const cd l = open(i);
    if (l.imag() < 0 || !Uncontrollable(A, B, p, l)) continue;
    const bool kept = std::any_of(poles.begin(), poles.end(), [&](cd q) {
      return std::abs(q - l) <= kPlacementTolerance * std::max(1.0, std::abs(l));
    });
    if (!kept)
      throw std::invalid_argument(ModeText(l, labels) + " cannot be moved by " + InputList(labels) +
                                  " (PBH test): request its pole where it is, or add an input "
                                  "that moves it");
  }

  Eigen::HouseholderQR<Eigen::MatrixXd> qr(B);
  const Eigen::MatrixXd Qb = qr.householderQ() * Eigen::MatrixXd::Identity(n, n);
  const Eigen::MatrixXd U0 = Qb.leftCols(m), U1 = Qb.rightCols(n - m);
  const Eigen::MatrixXd Z = qr.matrixQR().topRows(m).triangularView<Eigen::Upper>();
  const double scale = std::max(A.norm(), 1.0);

  // Each pole's admissible eigenvector subspace S_j = null(U1ᵀ (A − λ_j I)).
  std::vector<Eigen::MatrixXcd> S(n);
  Eigen::MatrixXcd X(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const Eigen::MatrixXcd M =
        U1.transpose().cast<cd>() * (A.cast<cd>() - poles[j] * Eigen::MatrixXcd::Identity(n, n));
    // A real pole gets a real basis (the SVD of a real matrix).
    S[j] = poles[j].imag() == 0.0 ? NullSpace<Eigen::MatrixXd>(M.real(), n, m, scale).cast<cd>()
                                  : NullSpace<Eigen::MatrixXcd>(M, n, m, scale);
  }
  // Start: a pole with a shape takes the admissible vector nearest to it
  // (and keeps it); the k-th occurrence of any other pole the k-th basis
  // vector.
  if (!shapes.empty() && static_cast<Eigen::Index>(shapes.size()) != n)
    throw std::invalid_argument("expected " + std::to_string(n) + " shapes (one per pole), got " +
                                std::to_string(shapes.size()));
  std::vector<bool> fixed(n, false);
  for (Eigen::Index j = 0; j < n; ++j) {
    if (partner[j] >= 0 && partner[j] < j) continue;
    Eigen::Index occurrence = 0;
    for (Eigen::Index i = 0; i < j; ++i)
      if (std::abs(poles[i] - poles[j]) <= kSamePoleTolerance * std::max(1.0, std::abs(poles[j])))
        ++occurrence;
    X.col(j) = S[j].col(occurrence % S[j].cols());
    if (!shapes.empty() && shapes[j].size() == n) {
      Eigen::VectorXcd x = S[j] * (S[j].adjoint() * shapes[j]);
      if (poles[j].imag() == 0.0) x = Dephased(x).real().cast<cd>();
      if (x.norm() > kRankTolerance * shapes[j].norm()) {
        X.col(j) = x / x.norm();
        fixed[j] = true;
      }
    }
    if (partner[j] >= 0) {
      X.col(partner[j]) = X.col(j).conjugate();
      fixed[partner[j]] = fixed[j];
    }
  }
  // Shapes that leave X singular (two poles near one shape) are let go:
  // σ_max/σ_min of X, from the complex SVD the null spaces already use
  // (a complex LU here only for this test would be compiled for it alone).
  if (ConditionNumber(X) > 1.0 / kRankTolerance) std::fill(fixed.begin(), fixed.end(), false);

  // KNV method 0 over the vectors not fixed: sweeps until no vector moves
  // (single input: the S_j are lines and nothing moves, unless an
  // uncontrollable mode's pole widens its S_j).
  constexpr int kMaxSweeps = 100;
  constexpr double kConverged = 1e-12;  // 1 − |cos| of a vector's change
  bool free = false;
  for (Eigen::Index j = 0; j < n; ++j) free = free || (!fixed[j] && S[j].cols() > 1);
  if (free) {
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      double moved = 0.0;
      for (Eigen::Index j = 0; j < n; ++j) {
        if ((partner[j] >= 0 && partner[j] < j) || fixed[j]) continue;
        // y: the unit vector orthogonal to the other n − 1 vectors, the null
        // space of their adjoints (unique to a phase, which the projection
        // below carries and the closed loop X Λ X⁻¹ does not see).
        Eigen::MatrixXcd others(n - 1, n);
        for (Eigen::Index i = 0, c = 0; i < n; ++i)
          if (i != j) others.row(c++) = X.col(i).adjoint();
        const Eigen::JacobiSVD<Eigen::MatrixXcd> osvd(others, Eigen::ComputeFullV);
        Eigen::VectorXcd y = osvd.matrixV().col(n - 1);
        if (poles[j].imag() == 0.0) y = Dephased(y).real().cast<cd>();
        Eigen::VectorXcd x = S[j] * (S[j].adjoint() * y);
        if (poles[j].imag() == 0.0) x = x.real().cast<cd>();
        const double norm = x.norm();
        if (norm <= kRankTolerance) continue;  // y ⟂ S_j: keep the vector
        x /= norm;
        moved = std::max(moved, 1.0 - std::abs(X.col(j).dot(x)));
        X.col(j) = x;
        if (partner[j] >= 0) X.col(partner[j]) = x.conjugate();
      }
      if (moved < kConverged) break;
    }
  }

  Eigen::VectorXcd lambda(n);
  for (Eigen::Index j = 0; j < n; ++j) lambda(j) = poles[j];
  const Eigen::PartialPivLU<Eigen::MatrixXcd> xlu(X);
  const Eigen::MatrixXd closed =
      (X * lambda.asDiagonal() * xlu.inverse()).real();  // conjugate pairs: real to rounding
  PlacementResult out;
  out.K = Z.triangularView<Eigen::Upper>().solve(U0.transpose() * (A - closed));
  out.eigenvector_condition = ConditionNumber(X);
  out.gain_norm = SpectralNorm(out.K);
  out.requested = lambda;

  // Match the achieved poles to the requested ones (greedy, nearest first).
  const Eigen::VectorXcd got = Eigenvalues(A - B * out.K);
  out.achieved.resize(n);
  std::vector<bool> used(n, false);
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::Index best = -1;
    for (Eigen::Index i = 0; i < n; ++i)
      if (!used[i] && (best < 0 || std::abs(got(i) - lambda(j)) < std::abs(got(best) - lambda(j))))
        best = i;
    used[best] = true;
    out.achieved(j) = got(best);
    out.max_pole_error = std::max(out.max_pole_error, std::abs(got(best) - lambda(j)));
    if (std::abs(got(best) - lambda(j)) > kPlacementTolerance * std::max(1.0, std::abs(lambda(j))))
      throw core::NumericalError("pole placement missed " + FormatPole(lambda(j)) +
                                 " (got " + FormatPole(got(best)) +
                                 "; eigenvector condition " + Format(out.eigenvector_condition) +
                                 "): the requested poles are too hard to reach with " +
                                 InputList(labels));
  }
  return out;
}

double SpectralNorm(const Eigen::MatrixXd& M) {
  return M.size() == 0 ? 0.0 : Eigen::JacobiSVD<Eigen::MatrixXd>(M).singularValues()(0);
}

}  // namespace aerolin::analysis
