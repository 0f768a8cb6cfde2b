#include "aerolin/analysis/frequency_response.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <stdexcept>
#include <string>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;

// A pivot this small relative to ‖H‖ + |s| means s is an eigenvalue of A to
// working precision: the response is unbounded there.
constexpr double kSingularPivot = 1e-14;

// Unit round-off of double.
constexpr double kRoundOff = 0.5 * std::numeric_limits<double>::epsilon();

// An upper bound of √q within 6.1 % (q positive, finite): half the bit
// pattern, the exponent halved and the mantissa linear between powers of 4.
// Integer operations, so the error estimate's loop vectorizes (std::sqrt
// would not: it may set errno).
inline double SqrtAbove(double q) {
  return std::bit_cast<double>((std::bit_cast<std::uint64_t>(q) >> 1) + (std::uint64_t{0x1FF8} << 48));
}

// Adds sign · arg(jωₖ − r) [deg] to phase[k], continuous in ω: for Re r ≤ 0
// arg(jω − r) stays in the right half-plane or on the imaginary axis; for
// Re r > 0 it would cross atan2's cut on the negative real axis, so
// arg(r − jω) + 180° instead. Either way the argument's real part x ≥ 0.
// The sum only picks the whole turn nearest it (a multiple of 360° from the
// principal value), so atan on [0, 1] is an odd polynomial of degree 9
// (coefficients of Abramowitz & Stegun's 4.4.47-49 family; |error| < 1.5e-4
// rad, measured against atan on 10⁶ points) rather than atan2's last bit:
// branch-free. GCC's default -ftrapping-math keeps the loop from
// vectorizing (it will not if-convert the division it duplicates into the
// selects' arms), so this one function is compiled without it: that only
// permits speculating the operations, never reassociating or contracting
// them, so every value is the scalar loop's to the bit (checked on 5·10⁶
// random factors and frequencies, and by the byte-identical bode outputs).
// (GCC's attribute; clang has no per-function form and compiles it as before.)
#if defined(__GNUC__) && !defined(__clang__)
#define AEROLIN_NO_TRAPPING_MATH __attribute__((optimize("no-trapping-math")))
#else
#define AEROLIN_NO_TRAPPING_MATH
#endif
AEROLIN_NO_TRAPPING_MATH void AddFactorPhase(std::complex<double> r, double sign, const double* omega, double* phase,
                                             std::size_t m) {
  const bool right = r.real() > 0.0;
  const double x = std::abs(r.real()), offset = right ? 180.0 : 0.0;
  const double flip = right ? -1.0 : 1.0;  // the imaginary part is ±(ω − Im r)
  for (std::size_t k = 0; k < m; ++k) {
    const double y = flip * (omega[k] - r.imag()), ay = std::fabs(y);
    const bool steep = ay > x;
    const double hi = steep ? ay : x, lo = steep ? x : ay;
    const double ratio = lo / hi;  // 0/0 only on the factor's root: arg 0 there
    const double a = hi > 0.0 ? ratio : 0.0, s = a * a;
    const double t = a * (1.0 + s * (-0.3302995 + s * (0.1801410 + s * (-0.0851330 + s * 0.0208351))));
    const double octant = steep ? 1.5707963267948966 - t : t;
    const double angle = y < 0.0 ? -octant : octant;
    phase[k] += sign * (angle * core::kRadToDeg + offset);
  }
}

// Frequencies the modal form evaluates at a time (stack arrays).
constexpr std::size_t kModalBlock = 64;

// Returns the powers of 2 dᵢ that balance A (Parlett & Reinsch, "Balancing a
// matrix for calculation of eigenvalues and eigenvectors", Numer. Math. 13,
// 1969; LAPACK's dgebal without the permutations): D⁻¹ A D has each row's
// off-diagonal 1-norm close to its column's. Exact in floating point; the
// eigen-decomposition of the balanced matrix is more accurate where A is
// graded (u [m/s] beside α, q, θ [rad]).
Eigen::VectorXd Balance(Eigen::MatrixXd& A) {
  const Eigen::Index n = A.rows();
  Eigen::VectorXd d = Eigen::VectorXd::Ones(n);
  for (int sweep = 0, changed = 1; changed && sweep < 100; ++sweep) {
    changed = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double c0 = A.col(i).cwiseAbs().sum() - std::abs(A(i, i));
      const double r = A.row(i).cwiseAbs().sum() - std::abs(A(i, i));
      if (c0 == 0.0 || r == 0.0) continue;
      double c = c0, f = 1.0;
      while (c < r / 2.0 && f < 0x1p500) { f *= 2.0; c *= 4.0; }
      while (c > r * 2.0 && f > 0x1p-500) { f /= 2.0; c /= 4.0; }
      if ((c0 * f + r / f) < 0.95 * (c0 + r)) {
        changed = 1;
        d(i) *= f;
        A.row(i) /= f;
        A.col(i) *= f;
      }
    }
  }
  return d;
}

}  // namespace

FrequencyResponse::FrequencyResponse(const model::StateSpace& sys, ResponseMethod method) {
  if (sys.num_states() == 0)
    throw std::invalid_argument("FrequencyResponse: the model has no state");
  const Eigen::HessenbergDecomposition<Eigen::MatrixXd> hess(sys.A());
  const Eigen::MatrixXd Q = hess.matrixQ();
  H_ = hess.matrixH();
  Bt_ = Q.transpose() * sys.B();
  Ct_ = sys.C() * Q;
  D_ = sys.D();
  if (method == ResponseMethod::kHessenberg) return;
  // The modal form, where A is diagonalizable with eigenvectors well enough
  // conditioned that its error estimate can ever be met (u κ ≤ tolerance).
  // Of the balanced matrix Ab = D⁻¹ A D: G = (C D)(sI − Ab)⁻¹(D⁻¹ B) + D.
  Eigen::MatrixXd Ab = sys.A();
  const Eigen::VectorXd scale = Balance(Ab);
  std::optional<Eigenpairs> eigen = EigenpairsAsSolved(Ab);
  if (!eigen) return;
  Eigen::MatrixXcd V = std::move(eigen->vectors);
  for (Eigen::Index j = 0; j < V.cols(); ++j) {
    const double norm = V.col(j).norm();
    if (!(norm > 0.0)) return;
    V.col(j) /= norm;
  }
  const Eigen::PartialPivLU<Eigen::MatrixXcd> lu(V);
  const Eigen::MatrixXcd W = lu.inverse();
  const double condition = V.norm() * W.norm();
  if (!std::isfinite(condition) || kRoundOff * condition > kModalTolerance) return;
  lambda_ = eigen->values;
  CV_ = (sys.C() * scale.asDiagonal()).cast<cd>() * V;
  WB_ = W * (scale.cwiseInverse().asDiagonal() * sys.B()).cast<cd>();
  // κᵢ = ‖xᵢ‖ ‖yᵢ‖ / |yᵢ xᵢ| with xᵢ = V eᵢ (unit) and yᵢ = eᵢᵀ V⁻¹ (yᵢ xᵢ = 1).
  eigen_condition_ = W.rowwise().norm();
  // The eigenvalues' errors are about κᵢ ‖Ab xᵢ − λᵢ xᵢ‖ (xᵢ unit): the
  // residual as computed, at least the round-off of forming it, u ‖Ab‖.
  const Eigen::MatrixXcd residual = Ab.cast<cd>() * V - V * lambda_.asDiagonal();
  eigen_residual_ = residual.colwise().norm().transpose().array() + kRoundOff * Ab.norm();
  modal_condition_ = condition;
}

void FrequencyResponse::Solve(std::complex<double> s, int input, Eigen::MatrixXcd& M,
                              Eigen::VectorXcd& x) const {
  if (input < 0 || input >= Bt_.cols())
    throw std::invalid_argument("FrequencyResponse: input " + std::to_string(input) +
                                " out of range (" + std::to_string(Bt_.cols()) + " inputs)");
  const Eigen::Index n = H_.rows();
  // M = sI − H, upper Hessenberg; eliminate the one sub-diagonal entry of each
  // column, swapping with the row below when that entry is larger: O(n²).
  M = -H_.cast<cd>();
  M.diagonal().array() += s;
  x = Bt_.col(input).cast<cd>();
  const double scale = H_.cwiseAbs().maxCoeff() + std::abs(s);
  for (Eigen::Index k = 0; k + 1 < n; ++k) {
    if (std::abs(M(k + 1, k)) > std::abs(M(k, k))) {
      M.row(k).tail(n - k).swap(M.row(k + 1).tail(n - k));
      std::swap(x(k), x(k + 1));
    }
    if (M(k + 1, k) == 0.0) continue;
    const cd f = M(k + 1, k) / M(k, k);
    M.row(k + 1).tail(n - k - 1) -= f * M.row(k).tail(n - k - 1);
    M(k + 1, k) = 0.0;
    x(k + 1) -= f * x(k);
  }
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    if (std::abs(M(k, k)) <= kSingularPivot * scale)
      throw core::NumericalError("frequency response: sI - A is singular at s = " +
                                 std::to_string(s.real()) + (s.imag() < 0 ? " - " : " + ") +
                                 std::to_string(std::abs(s.imag())) + "i (a pole of the model)");
    cd sum = x(k);
    for (Eigen::Index j = k + 1; j < n; ++j) sum -= M(k, j) * x(j);
    x(k) = sum / M(k, k);
  }
}

Eigen::VectorXcd FrequencyResponse::Evaluate(std::complex<double> s, int input) const {
  Eigen::MatrixXcd M;
  Eigen::VectorXcd x;
  Solve(s, input, M, x);
  return Ct_.cast<cd>() * x + D_.col(input).cast<cd>();
}

std::vector<std::complex<double>> FrequencyResponse::Sweep(const std::vector<double>& omega,
                                                           int input, int output) const {
  std::vector<cd> out(omega.size());
  Sweep(omega, input, output, out);
  return out;
}

std::size_t FrequencyResponse::Sweep(std::span<const double> omega, int input, int output,
                                     std::span<std::complex<double>> out) const {
  if (input < 0 || input >= Bt_.cols())
    throw std::invalid_argument("FrequencyResponse: input " + std::to_string(input) +
                                " out of range (" + std::to_string(Bt_.cols()) + " inputs)");
  if (output < 0 || output >= Ct_.rows())
    throw std::invalid_argument("FrequencyResponse: output " + std::to_string(output) +
                                " out of range (" + std::to_string(Ct_.rows()) + " outputs)");
  if (out.size() != omega.size())
    throw std::invalid_argument("FrequencyResponse: " + std::to_string(omega.size()) +
                                " frequencies but room for " + std::to_string(out.size()) + " values");
  const double d = D_(output, input);
  std::size_t solved = 0;
  Eigen::MatrixXcd M;  // Hessenberg workspace, sized on first use
  Eigen::VectorXcd x;
  auto hessenberg = [&](std::size_t k) {
    Solve(cd(0.0, omega[k]), input, M, x);
    cd y = d;
    for (Eigen::Index j = 0; j < x.size(); ++j) y += Ct_(output, j) * x(j);
    out[k] = y;
    ++solved;
  };
  if (!has_modal_form()) {
    for (std::size_t k = 0; k < omega.size(); ++k) hessenberg(k);
    return solved;
  }
  // The terms: each real eigenvalue alone, each complex pair (Eigen gives
  // λ and λ̄ side by side) as one second-order term, half the divisions.
  // Per term: jω − λ = x + j(ω − b), r = c + j d; per pair, with
  // r/(s − λ) + r̄/(s − λ̄) = (α s + β)/(s² + p s + q): α = 2 Re r,
  // β = −2 Re(r λ̄), p = −2 Re λ, q = |λ|². For the error estimate, a = κ |r|
  // (the larger κ of a pair) and ρ/u.
  const Eigen::Index n = lambda_.size();
  struct Real {
    double x, c, a, rho;
  };
  struct Pair {
    double x, b, alpha, beta, p, q, a, rho;
  };
  std::vector<Real> reals;
  std::vector<Pair> pairs;
  for (Eigen::Index i = 0; i < n; ++i) {
    const cd r = CV_(output, i) * WB_(i, input);
    const cd l = lambda_(i);
    if (l.imag() != 0.0 && i + 1 < n && lambda_(i + 1) == std::conj(l)) {
      const double kappa = std::max(eigen_condition_(i), eigen_condition_(i + 1));
      const double rho = std::max(eigen_residual_(i), eigen_residual_(i + 1));
      pairs.push_back({-l.real(), l.imag(), 2.0 * r.real(), -2.0 * (r * std::conj(l)).real(), -2.0 * l.real(),
                       std::norm(l), kappa * std::abs(r), rho / kRoundOff});
      ++i;
    } else {
      // A real eigenvalue of a real A: its residue is real but for rounding.
      reals.push_back({-l.real(), r.real(), eigen_condition_(i) * std::abs(r), eigen_residual_(i) / kRoundOff});
    }
  }
  // Estimated error of the sum: Σ κᵢ |tᵢ| (u + |δλᵢ|/|jω − λᵢ|), tᵢ = rᵢ/(jω − λᵢ):
  // the residue's error (u κᵢ |rᵢ|) and the eigenvalue's (|δλᵢ| = κᵢ times
  // the residual, moving tᵢ by |tᵢ| |δλᵢ|/|jω − λᵢ|), with |tᵢ| = |rᵢ| √qᵢ,
  // qᵢ = 1/|jω − λᵢ|² (a pair's κ and ρ the larger of its two). Accepted
  // when at most kModalTolerance |G| (compared squared).
  const double limit = kModalTolerance / kRoundOff;
  const double limit2 = limit * limit;
  double re[kModalBlock], im[kModalBlock], error[kModalBlock];
  for (std::size_t start = 0; start < omega.size(); start += kModalBlock) {
    const std::size_t m = std::min(kModalBlock, omega.size() - start);
    const double* w = omega.data() + start;
    for (std::size_t k = 0; k < m; ++k) {
      re[k] = d;
      im[k] = 0.0;
      error[k] = 0.0;
    }
    // Term by term over the block, so the frequency loop vectorizes.
    // r/(x + jω) = r (x − jω)/(x² + ω²) for a real r.
    for (const Real& t : reals)
      for (std::size_t k = 0; k < m; ++k) {
        const double q = 1.0 / (t.x * t.x + w[k] * w[k]);
        re[k] += t.c * t.x * q;
        im[k] -= t.c * w[k] * q;
        error[k] += t.a * (SqrtAbove(q) + t.rho * q);
      }
    // (β + jαω)/(P + jQ) with P = q − ω², Q = pω; 1/|jω − λ|² and
    // 1/|jω − λ̄|² are |jω − λ̄|²/(P² + Q²) and |jω − λ|²/(P² + Q²).
    for (const Pair& t : pairs)
      for (std::size_t k = 0; k < m; ++k) {
        const double P = t.q - w[k] * w[k], Q = t.p * w[k], aw = t.alpha * w[k];
        const double inv = 1.0 / (P * P + Q * Q);
        re[k] += (t.beta * P + aw * Q) * inv;
        im[k] += (aw * P - t.beta * Q) * inv;
        const double y1 = w[k] - t.b, y2 = w[k] + t.b;
        const double q1 = (t.x * t.x + y2 * y2) * inv, q2 = (t.x * t.x + y1 * y1) * inv;
        error[k] += t.a * (SqrtAbove(q1) + SqrtAbove(q2) + t.rho * (q1 + q2));
      }
    for (std::size_t k = 0; k < m; ++k) {
      // Negated so that a non-finite estimate (ω on a pole) falls back too,
      // and the Hessenberg solve reports it.
      if (!(error[k] * error[k] <= limit2 * (re[k] * re[k] + im[k] * im[k])))
        hessenberg(start + k);
      else
        out[start + k] = cd(re[k], im[k]);
    }
  }
  return solved;
}

FrequencyGrid FrequencyGrid::LogSpaced(double from, double to, int points) {
  if (!(from > 0.0) || !(to > from) || !std::isfinite(to) || points < 2)
    throw std::invalid_argument("LogSpace: need 0 < from < to and at least 2 points, got " +
                                std::to_string(from) + ", " + std::to_string(to) + ", " +
                                std::to_string(points));
  FrequencyGrid grid;
  grid.from_ = from;
  grid.to_ = to;
  grid.log_from_ = std::log10(from);
  grid.log_to_ = std::log10(to);
  grid.count_ = static_cast<std::size_t>(points);
  return grid;
}

FrequencyGrid FrequencyGrid::Listed(std::vector<double> omega) {
  FrequencyGrid grid;
  grid.listed_ = std::move(omega);
  return grid;
}

double FrequencyGrid::operator[](std::size_t k) const {
  if (!listed_.empty()) return listed_[k];
  if (k == 0) return from_;
  if (k + 1 == count_) return to_;
  const int i = static_cast<int>(k), points = static_cast<int>(count_);
  const double a = log_from_, b = log_to_;
  return std::pow(10.0, a + (b - a) * i / (points - 1));
}

std::vector<double> LogSpace(double from, double to, int points) {
  const FrequencyGrid grid = FrequencyGrid::LogSpaced(from, to, points);
  std::vector<double> out(grid.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = grid[k];
  return out;
}

BodeCursor::BodeCursor(const FrequencyResponse& response, const TransferFunction& tf, int input, int output,
                       const FrequencyGrid& omega)
    : response_(response), tf_(tf), input_(input), output_(output), omega_(omega) {
  if (omega.size() == 0) throw std::invalid_argument("ComputeBode: no frequency");
  // Every frequency is checked before any point is computed.
  for (std::size_t i = 0; i < omega.size(); ++i) {
    const double w = omega[i];
    if (!std::isfinite(w) || w <= 0.0)
      throw std::invalid_argument("ComputeBode: frequencies must be finite and positive, got " +
                                  std::to_string(w));
    if (i > 0 && w <= omega[i - 1]) throw std::invalid_argument("ComputeBode: frequencies must be ascending");
  }
}

std::span<const BodePoint> BodeCursor::Next(std::size_t max) {
  const std::size_t m = std::min(max, omega_.size() - next_);
  chunk_omega_.resize(m);
  for (std::size_t i = 0; i < m; ++i) chunk_omega_[i] = omega_[next_ + i];
  chunk_values_.resize(m);
  response_.Sweep(chunk_omega_, input_, output_, chunk_values_);
  const std::vector<cd>& values = chunk_values_;
  // Continuous phase of the factored form [deg], factor by factor over the
  // chunk (the loops vectorize).
  std::vector<double> continuous(m, tf_.gain < 0.0 ? 180.0 : 0.0);
  for (const Factor& z : tf_.zeros) {
    AddFactorPhase(z.root, 1.0, chunk_omega_.data(), continuous.data(), m);
    if (z.second_order) AddFactorPhase(std::conj(z.root), 1.0, chunk_omega_.data(), continuous.data(), m);
  }
  for (const Factor& p : tf_.poles) {
    AddFactorPhase(p.root, -1.0, chunk_omega_.data(), continuous.data(), m);
    if (p.second_order) AddFactorPhase(std::conj(p.root), -1.0, chunk_omega_.data(), continuous.data(), m);
  }
  chunk_.resize(m);
  constexpr double kTurn = 360.0;
  for (std::size_t i = 0; i < m; ++i) {
    BodePoint& b = chunk_[i];
    b = BodePoint{};
    b.omega = chunk_omega_[i];
    b.value = values[i];
    b.magnitude = std::abs(values[i]);
    b.magnitude_db = b.magnitude > 0.0 ? 20.0 * std::log10(b.magnitude)
                                       : -std::numeric_limits<double>::infinity();
    b.phase_principal_deg = std::arg(values[i]) * core::kRadToDeg;
    if (b.phase_principal_deg <= -180.0) b.phase_principal_deg += kTurn;  // (−180, 180]
    b.phase_deg = b.phase_principal_deg +
                  kTurn * std::round((continuous[i] - b.phase_principal_deg) / kTurn);
    // Whole turns so the first point lies in (−360, 0].
    if (next_ + i == 0) turns_ = std::ceil(b.phase_deg / kTurn);  // φ₀ − 360·turns ∈ (−360, 0]
    b.phase_deg -= kTurn * turns_;
  }
  next_ += m;
  return chunk_;
}

std::vector<BodePoint> ComputeBode(const FrequencyResponse& response, const TransferFunction& tf,
                                   int input, int output, const std::vector<double>& omega) {
  const FrequencyGrid grid = FrequencyGrid::Listed(omega);
  BodeCursor cursor(response, tf, input, output, grid);
  std::vector<BodePoint> points;
  points.reserve(omega.size());
  for (std::span<const BodePoint> chunk = cursor.Next(); !chunk.empty(); chunk = cursor.Next())
    points.insert(points.end(), chunk.begin(), chunk.end());
  return points;
}

std::pair<double, double> DefaultFrequencyRange(const std::vector<Mode>& modes) {
  double slow = std::numeric_limits<double>::infinity(), fast = 0.0;
  for (const Mode& m : modes)
    if (m.natural_frequency > 0.0) {
      slow = std::min(slow, m.natural_frequency);
      fast = std::max(fast, m.natural_frequency);
    }
  if (!(fast > 0.0))
    throw std::invalid_argument("DefaultFrequencyRange: no mode with a positive frequency");
  return {slow / 10.0, fast * 10.0};
}

void ResonanceScan::Add(const BodePoint& point) {
  if (count_ == 0) front_ = point;
  back_ = point;
  window_[0] = window_[1];
  window_[1] = window_[2];
  window_[2] = point;
  ++count_;
  for (Bracket* b : {&low_, &high_}) {
    if (b->hi) continue;
    if (point.omega < b->omega) b->lo = point;
    else b->hi = point;
  }
  if (count_ < 3 || !(wn_ > 0.0)) return;
  // The middle of the window is a candidate: an interior local maximum of
  // |G| in [ωn/2, 2ωn], the nearest ωn (log distance) winning, the first on ties.
  const BodePoint& mid = window_[1];
  const double w = mid.omega;
  if (w < 0.5 * wn_ || w > 2.0 * wn_) return;
  if (!(mid.magnitude_db > window_[0].magnitude_db && mid.magnitude_db >= window_[2].magnitude_db)) return;
  if (!best_ || std::abs(std::log(w / wn_)) < std::abs(std::log((*best_)[1].omega / wn_)))
    best_ = std::array<BodePoint, 3>{window_[0], window_[1], window_[2]};
}

std::optional<Resonance> ResonanceScan::Result() const {
  if (count_ < 3 || !(wn_ > 0.0) || !best_) return std::nullopt;
  const std::array<BodePoint, 3>& p = *best_;
  // Parabola through (log ω, dB) of the three samples.
  const double x0 = std::log(p[0].omega), x1 = std::log(p[1].omega), x2 = std::log(p[2].omega);
  const double y0 = p[0].magnitude_db, y1 = p[1].magnitude_db, y2 = p[2].magnitude_db;
  const double d01 = (y1 - y0) / (x1 - x0), d12 = (y2 - y1) / (x2 - x1);
  const double curvature = (d12 - d01) / (x2 - x0);
  Resonance r{p[1].omega, y1, 0.0};
  if (curvature < 0.0) {
    // y = y1 + slope (x − x1) + curvature (x − x0)(x − x1)... vertex of the
    // Newton form y0 + d01 (x − x0) + curvature (x − x0)(x − x1).
    const double xv = 0.5 * (x0 + x1) - d01 / (2.0 * curvature);
    if (xv > x0 && xv < x2) {
      r.omega = std::exp(xv);
      r.magnitude_db = y0 + d01 * (xv - x0) + curvature * (xv - x0) * (xv - x1);
    }
  }
  // Prominence over the trend line between ωn/2 and 2ωn (log-linear interpolation).
  auto db_at = [this](const Bracket& b) {
    if (b.omega <= front_.omega) return front_.magnitude_db;
    if (b.omega >= back_.omega) return back_.magnitude_db;
    const BodePoint& hi = *b.hi;
    const BodePoint& lo = *b.lo;
    const double t = std::log(b.omega / lo.omega) / std::log(hi.omega / lo.omega);
    return lo.magnitude_db + t * (hi.magnitude_db - lo.magnitude_db);
  };
  const double wl = low_.omega, wh = high_.omega;
  const double t = std::log(r.omega / wl) / std::log(wh / wl);
  r.prominence_db = r.magnitude_db - (db_at(low_) + t * (db_at(high_) - db_at(low_)));
  return r;
}

std::optional<Resonance> FindResonance(const std::vector<BodePoint>& bode,
                                       double natural_frequency) {
  ResonanceScan scan(natural_frequency);
  for (const BodePoint& p : bode) scan.Add(p);
  return scan.Result();
}

BandwidthScan::BandwidthScan(std::optional<double> dc_gain) {
  defined_ = dc_gain && *dc_gain != 0.0 && std::isfinite(*dc_gain);
  if (defined_) level_db_ = 20.0 * std::log10(std::abs(*dc_gain)) - 20.0 * std::log10(std::sqrt(2.0));
}

void BandwidthScan::Add(const BodePoint& point) {
  if (!defined_) return;
  // The run of points below the level that ends at the last point, and the
  // sample before it: the crossing lies between the two.
  if (!(point.magnitude_db < level_db_)) {
    crossing_ = false;
  } else if (any_ && !(last_.magnitude_db < level_db_)) {
    crossing_ = true;
    above_ = last_;
    below_ = point;
  }
  last_ = point;
  any_ = true;
}

std::optional<double> BandwidthScan::Result() const {
  // Below the level from the first point (no crossing), or not below it at
  // the last: no bandwidth within the sweep.
  if (!defined_ || !any_ || !crossing_) return std::nullopt;
  const BodePoint& lo = above_;
  const BodePoint& hi = below_;
  const double t = (level_db_ - lo.magnitude_db) / (hi.magnitude_db - lo.magnitude_db);
  return std::exp(std::log(lo.omega) + t * std::log(hi.omega / lo.omega));
}

std::optional<double> Bandwidth(const std::vector<BodePoint>& bode,
                                std::optional<double> dc_gain) {
  BandwidthScan scan(dc_gain);
  for (const BodePoint& p : bode) scan.Add(p);
  return scan.Result();
}

}  // namespace aerolin::analysis

namespace aerolin::analysis {
namespace {

std::string NameList(const std::vector<core::Signal>& signals) {
  std::string out;
  for (const core::Signal& s : signals) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

int IndexOf(const std::vector<core::Signal>& signals, const std::string& name) {
  for (std::size_t i = 0; i < signals.size(); ++i)
    if (signals[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

Channel ResolveChannel(const model::AircraftData& aircraft, const ModalAnalysis& modes,
                       const std::string& input, const std::vector<std::string>& outputs) {
  if (outputs.empty()) throw std::invalid_argument("no output given");
  const model::StateSpace lon =
      model::WithDerivedOutputs(modes.longitudinal_model, model::Axis::kLongitudinal, aircraft.condition);
  const model::StateSpace lat =
      model::WithDerivedOutputs(modes.lateral_model, model::Axis::kLateral, aircraft.condition);
  const model::Control* control = nullptr;
  std::string controls;
  for (const model::Control& c : aircraft.controls) {
    controls += (controls.empty() ? "" : ", ") + c.name;
    if (c.name == input) control = &c;
  }
  if (control == nullptr)
    throw std::invalid_argument("unknown control '" + input + "' (this aircraft has: " +
                                controls + ")");
  std::optional<model::Axis> axis;
  for (const std::string& name : outputs) {
    model::Axis this_axis;
    if (IndexOf(lon.outputs(), name) >= 0)
      this_axis = model::Axis::kLongitudinal;
    else if (IndexOf(lat.outputs(), name) >= 0)
      this_axis = model::Axis::kLateral;
    else
      throw std::invalid_argument("unknown output '" + name + "' (longitudinal: " +
                                  NameList(lon.outputs()) + "; lateral: " +
                                  NameList(lat.outputs()) + ")");
    if (axis && *axis != this_axis)
      throw std::invalid_argument("outputs '" + outputs.front() + "' and '" + name +
                                  "' belong to different axes (one figure shows one axis)");
    axis = this_axis;
  }
  const bool longitudinal = *axis == model::Axis::kLongitudinal;
  if (longitudinal ? !control->longitudinal : !control->lateral)
    throw std::invalid_argument("control '" + input + "' does not enter the " +
                                std::string(longitudinal ? "longitudinal" : "lateral") +
                                " model (output '" + outputs.front() + "'): its transfer "
                                "function is zero");
  const model::StateSpace& sys = longitudinal ? lon : lat;
  Channel channel{*axis, sys, IndexOf(sys.inputs(), input), {}};
  for (const std::string& name : outputs) channel.outputs.push_back(IndexOf(sys.outputs(), name));
  return channel;
}

TransferFunction ChannelTransferFunction(const Channel& channel, const ModalAnalysis& modes,
                                         std::size_t k) {
  return ComputeTransferFunction(channel.system, channel.input, channel.outputs.at(k),
                                 modes.modes(channel.axis), modes.filters_of(channel.axis));
}

BodeChannel::BodeChannel(const Channel& channel, const ModalAnalysis& modes)
    : axis_(channel.axis),
      input_signal_(channel.system.inputs()[static_cast<std::size_t>(channel.input)]),
      input_(channel.input),
      outputs_(channel.outputs),
      response_(channel.system) {
  const std::vector<Mode>& axis_modes = modes.modes(channel.axis);
  for (const Mode& m : axis_modes) {
    if (m.natural_frequency > 0.0) marks_.push_back({m.kind, m.full_name(), m.natural_frequency});
    if (m.oscillatory && (m.kind == ModeKind::kShortPeriod || m.kind == ModeKind::kDutchRoll))
      resonant_.push_back({m.kind, m.full_name(), m.natural_frequency});
  }
  std::sort(marks_.begin(), marks_.end(),
            [](const ModeMark& a, const ModeMark& b) { return a.natural_frequency < b.natural_frequency; });
  for (std::size_t k = 0; k < outputs_.size(); ++k) tfs_.push_back(ChannelTransferFunction(channel, modes, k));
}

BodeSweep::BodeSweep(const Channel& channel, const ModalAnalysis& modes, FrequencyGrid omega,
                     bool keep_points)
    : BodeSweep(std::make_shared<const BodeChannel>(channel, modes), std::move(omega), keep_points) {}

BodeSweep::BodeSweep(std::shared_ptr<const BodeChannel> channel, FrequencyGrid omega, bool keep_points)
    : omega_(std::move(omega)), channel_(std::move(channel)) {
  const BodeChannel& c = *channel_;
  summary_.axis = c.axis();
  summary_.input = c.input_signal();
  summary_.modes = c.marks();
  for (std::size_t k = 0; k < c.outputs().size(); ++k) {
    BodeCurve curve;
    curve.tf = c.transfer_functions()[k];
    // The resonances of the short period and Dutch roll, and the bandwidth,
    // found in one pass over the curve's points.
    std::vector<ResonanceScan> resonances;
    for (const ModeMark& m : c.resonant()) resonances.emplace_back(m.natural_frequency);
    BandwidthScan bandwidth(curve.tf.dc_gain);
    BodeCursor cursor(c.response(), curve.tf, c.input(), c.outputs()[k], omega_);
    if (keep_points) kept_.emplace_back().reserve(omega_.size());
    for (std::span<const BodePoint> chunk = cursor.Next(); !chunk.empty(); chunk = cursor.Next()) {
      for (const BodePoint& p : chunk) {
        for (ResonanceScan& r : resonances) r.Add(p);
        bandwidth.Add(p);
      }
      if (keep_points) kept_.back().insert(kept_.back().end(), chunk.begin(), chunk.end());
    }
    for (std::size_t i = 0; i < c.resonant().size(); ++i)
      if (const std::optional<Resonance> r = resonances[i].Result())
        curve.resonances.push_back({c.resonant()[i].kind, c.resonant()[i].name, *r});
    curve.bandwidth = bandwidth.Result();
    summary_.curves.push_back(std::move(curve));
  }
}

void BodeSweep::ForEachChunk(std::span<const std::size_t> curves,
                             const std::function<void(std::span<const std::span<const BodePoint>>)>& f) const {
  std::vector<BodeCursor> cursors;
  cursors.reserve(curves.size());
  for (std::size_t k : curves)
    cursors.emplace_back(channel_->response(), summary_.curves.at(k).tf, channel_->input(), channel_->outputs()[k],
                         omega_);
  std::vector<std::span<const BodePoint>> chunk(curves.size());
  while (!cursors.empty()) {
    for (std::size_t i = 0; i < cursors.size(); ++i) chunk[i] = cursors[i].Next();
    if (chunk.front().empty()) break;
    f(chunk);
  }
}

BodeDiagram BodeSweep::Diagram() && {
  if (kept_.empty()) return static_cast<const BodeSweep&>(*this).Diagram();
  BodeDiagram diagram = std::move(summary_);
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) diagram.curves[k].points = std::move(kept_[k]);
  return diagram;
}

BodeDiagram BodeSweep::Diagram() const& {
  BodeDiagram diagram = summary_;
  if (!kept_.empty()) {
    for (std::size_t k = 0; k < diagram.curves.size(); ++k) diagram.curves[k].points = kept_[k];
    return diagram;
  }
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const std::size_t curve[] = {k};
    ForEachChunk(curve, [&](std::span<const std::span<const BodePoint>> chunk) {
      diagram.curves[k].points.insert(diagram.curves[k].points.end(), chunk[0].begin(), chunk[0].end());
    });
  }
  return diagram;
}

BodeDiagram ComputeBodeDiagram(const Channel& channel, const ModalAnalysis& modes,
                               std::vector<double> omega, int points) {
  return ComputeBodeDiagram(std::make_shared<const BodeChannel>(channel, modes), modes, std::move(omega),
                            points);
}

BodeDiagram ComputeBodeDiagram(std::shared_ptr<const BodeChannel> channel, const ModalAnalysis& modes,
                               std::vector<double> omega, int points) {
  FrequencyGrid grid = FrequencyGrid::Listed(std::move(omega));
  if (grid.size() == 0) {
    const auto [from, to] = DefaultFrequencyRange(modes.modes(channel->axis()));
    grid = FrequencyGrid::LogSpaced(from, to, points);
  }
  return BodeSweep(std::move(channel), std::move(grid), true).Diagram();
}

}  // namespace aerolin::analysis
