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
#include "aerolin/core/complex_arithmetic.hpp"
#include "aerolin/core/vector_isa.hpp"
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
// principal value, NextInto): an error of a few degrees in the sum changes
// nothing. So the arithmetic is single precision (eight lanes with AVX2;
// ω − Im r is formed in double, so a lightly damped root's factor keeps its
// size) and atan on [0, 1] is a rational-free approximation,
// atan a ≈ (π/4) a − a (a − 1)(0.2447 + 0.0663 a) (Rajan, Wang, Inkol &
// Joyal, "Efficient approximations for the arctangent function", IEEE
// Signal Processing Magazine 23(3), 2006; |error| ≤ 1.51e-3 rad in single
// precision, measured on 10⁶ points of [0, 1]): branch-free, so the loop
// vectorizes.
// GCC's default -ftrapping-math keeps the loop from vectorizing (it will
// not if-convert the division it duplicates into the selects' arms), so this
// one function is compiled without it: that only permits speculating the
// operations, never reassociating or contracting them, so every value is
// the scalar loop's to the bit. (GCC's attribute; clang has no per-function
// form and compiles it as before. GCC does not inline functions of other
// options into it, so single precision's |·| and copysign are the builtins
// themselves: std::fabs(float) is an inline C++ overload.)
#if defined(__GNUC__) && !defined(__clang__)
#define AEROLIN_NO_TRAPPING_MATH __attribute__((optimize("no-trapping-math")))
#else
#define AEROLIN_NO_TRAPPING_MATH
#endif
// atan a [rad] for a in [0, 1] (see above).
#define AEROLIN_ROUGH_ATAN(a) ((a) * (0.78539816f - ((a) - 1.0f) * (0.2447f + 0.0663f * (a))))
// The loops over frequencies are compiled twice, for AVX2 and for the
// baseline x86-64 (SSE2), the one run chosen by the processor
// (core/vector_isa.hpp): twice the lanes. AVX2 without FMA, so no product is
// contracted into a fused multiply-add and every value is the baseline's to
// the bit (FrequencyResponse.BaselineAndAvx2KernelsGiveTheSameBits).
AEROLIN_TWO_ISAS(AEROLIN_NO_TRAPPING_MATH, void, AddFactorPhase, "avx2", UseAvx2,
                 (std::complex<double> r, double sign, const double* omega, double* phase, std::size_t m),
                 (r, sign, omega, phase, m))
AEROLIN_NO_TRAPPING_MATH inline void AddFactorPhaseBody(std::complex<double> r, double sign, const double* omega, double* phase, std::size_t m) {
  const bool right = r.real() > 0.0;
  const auto x = static_cast<float>(std::abs(r.real()));
  const float offset = right ? 180.0f : 0.0f, flip = right ? -1.0f : 1.0f;  // the imaginary part is ±(ω − Im r)
  const auto s = static_cast<float>(sign), to_deg = static_cast<float>(core::kRadToDeg);
  for (std::size_t k = 0; k < m; ++k) {
    const float y = flip * static_cast<float>(omega[k] - r.imag()), ay = __builtin_fabsf(y);
    const bool steep = ay > x;
    const float hi = steep ? ay : x, lo = steep ? x : ay;
    const float ratio = lo / hi;  // 0/0 only on the factor's root: arg 0 there
    const float a = hi > 0.0f ? ratio : 0.0f;
    const float t = AEROLIN_ROUGH_ATAN(a);
    const float octant = steep ? 1.5707964f - t : t;
    const float angle = y < 0.0f ? -octant : octant;
    phase[k] += static_cast<double>(s * (angle * to_deg + offset));
  }
}

// Adds s₁ arg f₁ + s₂ arg f₂ [deg] of two factors as AddFactorPhase would
// (fᵢ = jω − rᵢ, or rᵢ − jω turned by 180° where Re rᵢ > 0), with one
// arctangent instead of two: of the product f₁' f₂', fᵢ' = fᵢ (conjugated
// where sᵢ = −1), whose argument is the sum since each lies in [−90°, 90°]
// (the real parts are ≥ 0), so the sum is in [−180°, 180°] and its
// principal value is the sum itself: only ±180° are on the cut, reached
// with both real parts 0, where the imaginary part of the product is a
// signed zero of the right sign (copysign keeps it). Accuracy as
// AddFactorPhase's. Used where no product can overflow or underflow (in
// single precision) to a lost argument (CanPairFactors).
AEROLIN_TWO_ISAS(AEROLIN_NO_TRAPPING_MATH, void, AddFactorPairPhase, "avx2", UseAvx2,
                 (std::complex<double> r1, double sign1, std::complex<double> r2, double sign2, const double* omega, double* phase, std::size_t m),
                 (r1, sign1, r2, sign2, omega, phase, m))
AEROLIN_NO_TRAPPING_MATH inline void AddFactorPairPhaseBody(std::complex<double> r1, double sign1, std::complex<double> r2, double sign2, const double* omega, double* phase, std::size_t m) {
  const bool right1 = r1.real() > 0.0, right2 = r2.real() > 0.0;
  const auto x1 = static_cast<float>(std::abs(r1.real())), x2 = static_cast<float>(std::abs(r2.real()));
  // fᵢ' = xᵢ + j gᵢ (ω − Im rᵢ): the flip of a right-half-plane root, the conjugate of a pole's.
  const auto g1 = static_cast<float>(sign1 * (right1 ? -1.0 : 1.0)), g2 = static_cast<float>(sign2 * (right2 ? -1.0 : 1.0));
  const auto offset = static_cast<float>(sign1 * (right1 ? 180.0 : 0.0) + sign2 * (right2 ? 180.0 : 0.0));
  const auto to_deg = static_cast<float>(core::kRadToDeg);
  const double i1 = r1.imag(), i2 = r2.imag();
  for (std::size_t k = 0; k < m; ++k) {
    const float y1 = g1 * static_cast<float>(omega[k] - i1), y2 = g2 * static_cast<float>(omega[k] - i2);
    const float re = x1 * x2 - y1 * y2, im = x1 * y2 + x2 * y1;
    const float ax = __builtin_fabsf(re), ay = __builtin_fabsf(im);
    const bool steep = ay > ax;
    const float hi = steep ? ay : ax, lo = steep ? ax : ay;
    const float ratio = lo / hi;  // 0/0 only where a factor is 0: arg 0 there
    const float a = hi > 0.0f ? ratio : 0.0f;
    const float t = AEROLIN_ROUGH_ATAN(a);
    const float octant = steep ? 1.5707964f - t : t;
    const float half = re < 0.0f ? 3.1415927f - octant : octant;
    phase[k] += static_cast<double>(__builtin_copysignf(half, im) * to_deg + offset);
  }
}

// Whether AddFactorPairPhase's single-precision products keep every
// argument over `omega`: with ω in [1e-15, 1e15], every root's parts within
// 1e15 in magnitude and its real part 0 (then the root itself 0: jω's size
// is ω) or at least 1e-15 in magnitude, every factor is between 1e-15 and
// 3e15 in size, so no product overflows or underflows (float's range is
// 1.2e-38 to 3.4e38). Elsewhere the factors are taken one at a time.
bool CanPairFactors(std::span<const double> omega, const std::vector<std::pair<std::complex<double>, double>>& f) {
  constexpr double kLow = 1e-15, kHigh = 1e15;
  // `omega` ascends (BodeCursor checked it).
  if (omega.empty() || !(omega.front() >= kLow && omega.back() <= kHigh)) return false;
  for (const auto& [r, sign] : f) {
    if (!(std::abs(r.real()) <= kHigh && std::abs(r.imag()) <= kHigh)) return false;
    if (r.real() == 0.0 ? r.imag() != 0.0 : !(std::abs(r.real()) >= kLow)) return false;
  }
  return true;
}

// The phases of a chunk [deg], from `principal` = arg G [rad] and
// `continuous` = the factored form's phase [deg]: principal[k] becomes arg G
// in (−180°, 180°], continuous[k] the principal value moved by the whole
// turns that bring it nearest the factored form's. Arithmetic alone, so the
// loop vectorizes (AVX2 version); the same operations, in the same order, as
// the point-by-point loop it replaced, so every value is that loop's. The
// turns are std::round's, inline (a call, or GCC's refusal to inline across
// this function's options, would keep the loop scalar): x − trunc(x) is
// exact (0 where |x| ≥ 2⁵², x being whole there), trunc keeps x's sign on a
// zero result as std::round does, and NaN and ±inf come back as they went in.
AEROLIN_TWO_ISAS(AEROLIN_NO_TRAPPING_MATH, void, UnwrapChunk, "avx2", UseAvx2,
                 (double* __restrict principal, double* __restrict continuous, std::size_t m),
                 (principal, continuous, m))
AEROLIN_NO_TRAPPING_MATH inline void UnwrapChunkBody(double* __restrict principal, double* __restrict continuous, std::size_t m) {
  constexpr double kTurn = 360.0;
  for (std::size_t k = 0; k < m; ++k) {
    const double p0 = principal[k] * core::kRadToDeg;
    const double p = p0 <= -180.0 ? p0 + kTurn : p0;
    principal[k] = p;
    const double x = (continuous[k] - p) / kTurn, t = std::trunc(x), f = x - t;
    const double turns = f >= 0.5 ? t + 1.0 : f <= -0.5 ? t - 1.0 : t;  // std::round(x)
    continuous[k] = p + kTurn * turns;
  }
}

// The modal form's terms: each real eigenvalue alone, each complex pair as
// one second-order term (FrequencyResponse::Sweep).
struct ModalReal {
  double x, c, a, rho;
};
struct ModalPair {
  double x, b, alpha, beta, p, q, a, rho;
};

// Adds every term's value and error estimate at the m frequencies w to re,
// im and error (FrequencyResponse::Sweep's block).
AEROLIN_TWO_ISAS(, void, ModalBlock, "avx2", UseAvx2,
                 (const std::vector<ModalReal>& reals, const std::vector<ModalPair>& pairs, const double* __restrict w, std::size_t m, double* __restrict re, double* __restrict im, double* __restrict error),
                 (reals, pairs, w, m, re, im, error))
inline void ModalBlockBody(const std::vector<ModalReal>& reals, const std::vector<ModalPair>& pairs, const double* __restrict w, std::size_t m, double* __restrict re, double* __restrict im, double* __restrict error) {
  // Term by term over the block, so the frequency loop vectorizes.
  // r/(x + jω) = r (x − jω)/(x² + ω²) for a real r.
  for (const ModalReal& t : reals)
    for (std::size_t k = 0; k < m; ++k) {
      const double q = 1.0 / (t.x * t.x + w[k] * w[k]);
      re[k] += t.c * t.x * q;
      im[k] -= t.c * w[k] * q;
      error[k] += t.a * (SqrtAbove(q) + t.rho * q);
    }
  // (β + jαω)/(P + jQ) with P = q − ω², Q = pω; 1/|jω − λ|² and
  // 1/|jω − λ̄|² are |jω − λ̄|²/(P² + Q²) and |jω − λ|²/(P² + Q²).
  for (const ModalPair& t : pairs)
    for (std::size_t k = 0; k < m; ++k) {
      const double P = t.q - w[k] * w[k], Q = t.p * w[k], aw = t.alpha * w[k];
      const double inv = 1.0 / (P * P + Q * Q);
      re[k] += (t.beta * P + aw * Q) * inv;
      im[k] += (aw * P - t.beta * Q) * inv;
      const double y1 = w[k] - t.b, y2 = w[k] + t.b;
      const double q1 = (t.x * t.x + y2 * y2) * inv, q2 = (t.x * t.x + y1 * y1) * inv;
      error[k] += t.a * (SqrtAbove(q1) + SqrtAbove(q2) + t.rho * (q1 + q2));
    }
}

// Frequencies the modal form evaluates at a time (stack arrays).
constexpr std::size_t kModalBlock = 64;

// The modal sum peeled at either end (FrequencyResponse::Sweep), for the
// frequencies where the sum itself cancels too much for its estimate. With
// tᵢ = rᵢ/(s − λᵢ), s = jω:
//   high: G = D + (C B)/s + Σ tᵢ λᵢ/s   (rᵢ/(s − λᵢ) = rᵢ/s + rᵢ λᵢ/(s (s − λᵢ)),
//         Σ rᵢ = C B), whose terms fall as 1/ω² where G does when C B = 0
//         (relative degree ≥ 2: φ/δa, u/δe at high ω);
//   low:  G = G(0) + Σ tᵢ s/λᵢ          (rᵢ/(s − λᵢ) = −rᵢ/λᵢ + rᵢ s/(λᵢ (s − λᵢ))),
//         whose terms vanish as ω where G → G(0) (q/δe's zero at s = 0).
// C B is formed from C and B (the constructor), not summed from the
// residues. Each form's error estimate, to first order: per term
// ra/|s − λ| times |λ|/ω (high) or ω/|λ| (low), and |r| |δλ| times the
// term's derivative in λ, plus C B's error/ω or G(0)'s; the form with the
// smaller relative estimate is taken, accepted where that is at most
// kModalTolerance ‖G‖∞ (‖G‖∞ ≤ |G|).
struct PeeledTerm {
  double lr, li;  // λ
  double rr, ri;  // r
  double mr, mi;  // μ = 1/λ
  // Error coefficients of 1/|s − λ| and 1/|s − λ|²: high (then /ω)
  // |λ| ra + |r| |δλ| and |r| |δλ| |λ|; low (then ×ω) |μ| (ra + |r| |δλ| |μ|)
  // and |r| |δλ| |μ|.
  double high1, high2, low1, low2;
};
struct PeeledConstants {
  double d, cb, cb_error, g0, g0_error;
  bool low;  // whether the low form is tried (G(0) known: no λ indistinguishable from 0)
};

AEROLIN_TWO_ISAS(, void, PeeledBlock, "avx2", UseAvx2,
                 (const std::vector<PeeledTerm>& terms, const PeeledConstants& c, const double* __restrict w, std::size_t m, double* __restrict g_re, double* __restrict g_im, double* __restrict ok),
                 (terms, c, w, m, g_re, g_im, ok))
inline void PeeledBlockBody(const std::vector<PeeledTerm>& terms, const PeeledConstants& c, const double* __restrict w, std::size_t m, double* __restrict g_re, double* __restrict g_im, double* __restrict ok) {
  // S = C B + Σ tᵢ λᵢ, P = Σ tᵢ μᵢ; E their error sums (before /ω and ×ω).
  double s_re[kModalBlock], s_im[kModalBlock], p_re[kModalBlock], p_im[kModalBlock];
  double e_high[kModalBlock], e_low[kModalBlock];
  for (std::size_t k = 0; k < m; ++k) {
    s_re[k] = c.cb;
    s_im[k] = 0.0;
    p_re[k] = 0.0;
    p_im[k] = 0.0;
    e_high[k] = c.cb_error;
    e_low[k] = 0.0;
  }
  // (Both forms always: where the low one is not tried its sums are
  // formed and ignored, NaN where some λ is 0.)
  for (const PeeledTerm& t : terms)
    for (std::size_t k = 0; k < m; ++k) {
      // t = r (x − jy)/(x² + y²), s − λ = x + jy.
      const double x = -t.lr, y = w[k] - t.li;
      const double q = 1.0 / (x * x + y * y), sq = SqrtAbove(q);
      const double tr = (t.rr * x + t.ri * y) * q, ti = (t.ri * x - t.rr * y) * q;
      s_re[k] += tr * t.lr - ti * t.li;
      s_im[k] += tr * t.li + ti * t.lr;
      e_high[k] += t.high1 * sq + t.high2 * q;
      p_re[k] += tr * t.mr - ti * t.mi;
      p_im[k] += tr * t.mi + ti * t.mr;
      e_low[k] += t.low1 * sq + t.low2 * q;
    }
  for (std::size_t k = 0; k < m; ++k) {
    // S/s = −jS/ω; s P = jω P.
    const double inv = 1.0 / w[k];
    const double h_re = c.d + s_im[k] * inv, h_im = -s_re[k] * inv, h_error = e_high[k] * inv;
    const double l_re = c.g0 - w[k] * p_im[k], l_im = w[k] * p_re[k], l_error = c.g0_error + w[k] * e_low[k];
    const double h_max = std::max(std::fabs(h_re), std::fabs(h_im)), l_max = std::max(std::fabs(l_re), std::fabs(l_im));
    // The smaller of e/‖G‖∞, compared cross-multiplied (a NaN never wins).
    const bool low = c.low && l_error * h_max < h_error * l_max;
    g_re[k] = low ? l_re : h_re;
    g_im[k] = low ? l_im : h_im;
    const double e = low ? l_error : h_error, g = low ? l_max : h_max;
    ok[k] = e <= kModalTolerance * g ? 1.0 : 0.0;
  }
}

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
  h_max_ = H_.cwiseAbs().maxCoeff();
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
  // The pairs refined in extended precision (RefineEigenpairs), from which
  // Sweep's modal forms are made. Without a refinement (a zero pivot: A
  // defective to long double's precision) no modal form.
  const std::optional<RefinedEigenpairs> refined = RefineEigenpairs(Ab, Eigenpairs{eigen->values, V});
  if (!refined) return;
  using ld = long double;
  const Eigen::Index n = refined->values.size();
  lambda_extended_ = refined->values;
  // (C D) X and Y (D⁻¹ B), real times complex written out (a product of two
  // complex long doubles would call libgcc's __mulxc3), and their moduli.
  const Eigen::MatrixXd Cs = sys.C() * scale.asDiagonal(), Bs = scale.cwiseInverse().asDiagonal() * sys.B();
  CV_extended_.setZero(Cs.rows(), n);
  for (Eigen::Index o = 0; o < Cs.rows(); ++o)
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) CV_extended_(o, i) += static_cast<ld>(Cs(o, j)) * refined->right(j, i);
  WB_extended_.setZero(n, Bs.cols());
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index q = 0; q < Bs.cols(); ++q)
      for (Eigen::Index j = 0; j < n; ++j) WB_extended_(i, q) += static_cast<ld>(Bs(j, q)) * refined->left(i, j);
  auto modulus = [](std::complex<ld> z) { return static_cast<double>(std::sqrt(std::norm(z))); };
  CV_extended_abs_ = CV_extended_.unaryExpr(modulus);
  WB_extended_abs_ = WB_extended_.unaryExpr(modulus);
  // κᵢ = ‖xᵢ‖ ‖yᵢ‖ / |yᵢ xᵢ| (xᵢ unit, yᵢ xᵢ = 1) and the residuals of
  // the refined pairs: to first order a refined λᵢ is within κᵢ ρᵢ of an
  // eigenvalue.
  extended_condition_.resize(n);
  extended_residual_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    extended_condition_(i) = static_cast<double>(std::sqrt(refined->left.row(i).squaredNorm()));
    extended_residual_(i) = static_cast<double>(refined->residual(i));
  }
  // 1/|λᵢ − λⱼ| of the refined eigenvalues (the residues' first-order error
  // bound in Sweep; +inf for a repeated one).
  inverse_gap_.resize(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      inverse_gap_(i, j) =
          i == j ? 0.0 : static_cast<double>(1 / std::sqrt(std::norm(refined->values(i) - refined->values(j))));
  // C B, the high-frequency form's 1/s coefficient, in long double, and its
  // error: its rounding u |C B| and n u_ld |C| |B|.
  const ld u_ld = std::numeric_limits<ld>::epsilon() / 2;
  CB_.resize(sys.C().rows(), sys.B().cols());
  CB_error_.resize(CB_.rows(), CB_.cols());
  for (Eigen::Index o = 0; o < CB_.rows(); ++o)
    for (Eigen::Index q = 0; q < CB_.cols(); ++q) {
      ld sum = 0, magnitude = 0;
      for (Eigen::Index j = 0; j < n; ++j) {
        sum += static_cast<ld>(sys.C()(o, j)) * static_cast<ld>(sys.B()(j, q));
        magnitude += std::fabs(static_cast<ld>(sys.C()(o, j)) * static_cast<ld>(sys.B()(j, q)));
      }
      CB_(o, q) = static_cast<double>(sum);
      CB_error_(o, q) = kRoundOff * std::fabs(CB_(o, q)) + static_cast<double>(static_cast<ld>(n) * u_ld * magnitude);
    }
  modal_condition_ = condition;
}

namespace {

// Frequencies SolveLanes takes at once, and the largest order it takes.
constexpr int kLanes = 4;
constexpr int kGroups = 2;
constexpr int kBatch = kLanes * kGroups;  // frequencies per SolveLanes call
constexpr int kMaxLaneStates = 8;

// kLanes doubles, and a mask of kLanes lanes (all bits of a lane set or
// clear, as comparisons give): GCC's and clang's vector extensions, each
// operation the scalar one lane by lane (AVX2 or two SSE2 halves).
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));
typedef std::int64_t LaneMask __attribute__((vector_size(kLanes * sizeof(double))));

// Lane operations, as macros: a function taking or returning a 32-byte
// vector would change the ABI in SolveLanes' baseline version (GCC warns).
// A lane of a where m is set, of b where not.
#define AEROLIN_SELECT(m, a, b) \
  reinterpret_cast<Lanes>(((m) & reinterpret_cast<LaneMask>(a)) | (~(m) & reinterpret_cast<LaneMask>(b)))
// |x|: the sign bits cleared.
#define AEROLIN_MAGNITUDE(x) reinterpret_cast<Lanes>(reinterpret_cast<LaneMask>(x) & ~kSignBits)
// Finite (x − x is 0 for a finite x, NaN otherwise).
#define AEROLIN_FINITE(x) (((x) - (x)) == 0.0)
// 0 or a magnitude in [2⁻²⁵⁰, 2²⁵⁰]: core::Quotient's inline range.
#define AEROLIN_TAME(x)                                                                                  \
  ((AEROLIN_MAGNITUDE(x) == 0.0) | ((AEROLIN_MAGNITUDE(x) >= core::complex_arithmetic_detail::kTameLowest) & \
                                    (AEROLIN_MAGNITUDE(x) <= core::complex_arithmetic_detail::kTameHighest)))

// G(jωₗ) = d + c (jωₗ I − H)⁻¹ b at kBatch frequencies, lane by lane the
// operations of FrequencyResponse::Solve and Sweep's sum, in the same order
// on the same operands (a pivot swap, a skipped elimination and Quotient's
// two branches as selects), so each lane's value is Solve's to the bit. A
// lane stands only where every modulus comparison was decided from the
// squares (core::ModulusGreater's rule), every division was one Quotient
// computes inline, no pivot came near singular and G is finite; the others
// (bit l of the result clear) are left to Solve. H column-major n × n.
AEROLIN_TWO_ISAS(, unsigned, SolveLanes, "avx2", UseAvx2,
                 (const double* H, int n, double h_max, const double* b, const double* c, double d, const double* w, double* gr, double* gi),
                 (H, n, h_max, b, c, d, w, gr, gi))
inline unsigned SolveLanesBody(const double* H, int n, double h_max, const double* b, const double* c, double d, const double* w, double* gr, double* gi) {
  using core::complex_arithmetic_detail::kLowest;
  using core::complex_arithmetic_detail::kMargin;
  // kGroups independent groups of kLanes, each step over all of them, so
  // one group's divisions overlap another's.
  Lanes omega[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    const double* wg = w + g * kLanes;
    omega[g] = Lanes{wg[0], wg[1], wg[2], wg[3]};
  }
  Lanes mr[kGroups][kMaxLaneStates][kMaxLaneStates], mi[kGroups][kMaxLaneStates][kMaxLaneStates];
  Lanes xr[kGroups][kMaxLaneStates], xi[kGroups][kMaxLaneStates];
  constexpr LaneMask kSignBits = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN};
  LaneMask ok[kGroups];
  const Lanes zero = {0.0, 0.0, 0.0, 0.0};
  // M = −H (imaginary parts −0), M_ii += jω; x = b̃ (imaginary parts +0).
  for (int g = 0; g < kGroups; ++g) {
    ok[g] = LaneMask{-1, -1, -1, -1};
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const double h = -H[i + j * n];
        mr[g][i][j] = Lanes{h, h, h, h};
        mi[g][i][j] = Lanes{-0.0, -0.0, -0.0, -0.0};
      }
      mr[g][i][i] += 0.0;
      mi[g][i][i] += omega[g];
      xr[g][i] = Lanes{b[i], b[i], b[i], b[i]};
      xi[g][i] = zero;
    }
  }
  // Quotient (ar + j ai)/(cr + j ci) lane by lane into (qr, qi); lanes of
  // `use` outside its inline range clear `ok`.
  auto quotient = [&](const Lanes& ar, const Lanes& ai, const Lanes& cr, const Lanes& ci, Lanes& qr, Lanes& qi,
                      const LaneMask& use, LaneMask& good) {
    const LaneMask first = AEROLIN_MAGNITUDE(cr) < AEROLIN_MAGNITUDE(ci);
    const Lanes p = AEROLIN_SELECT(first, cr, ci), q = AEROLIN_SELECT(first, ci, cr);
    const Lanes u = AEROLIN_SELECT(first, ar, ai), v = AEROLIN_SELECT(first, ai, ar);
    const Lanes ratio = p / q, denom = p * ratio + q;
    const Lanes t1 = v * ratio - u, t2 = u - v * ratio;
    const Lanes nr = u * ratio + v, ni = AEROLIN_SELECT(first, t1, t2);
    qr = nr / denom;
    qi = ni / denom;
    // p = 0 (the divisor's smaller part) included, as core::Quotient.
    const LaneMask inline_path = AEROLIN_TAME(ar) & AEROLIN_TAME(ai) & AEROLIN_TAME(cr) & AEROLIN_TAME(ci) & (q != 0.0);
    good &= ~use | inline_path;
  };
  for (int k = 0; k + 1 < n; ++k)
    for (int g = 0; g < kGroups; ++g) {
      auto& Mr = mr[g];
      auto& Mi = mi[g];
      auto& Xr = xr[g];
      auto& Xi = xi[g];
      const Lanes A = Mr[k + 1][k] * Mr[k + 1][k] + Mi[k + 1][k] * Mi[k + 1][k];
      const Lanes B = Mr[k][k] * Mr[k][k] + Mi[k][k] * Mi[k][k];
      const LaneMask greater = A > B * (1.0 + kMargin), smaller = A < B * (1.0 - kMargin);
      ok[g] &= AEROLIN_FINITE(A) & AEROLIN_FINITE(B) & ((A >= kLowest) | (B >= kLowest)) & (greater | smaller);
      const LaneMask swap = greater;
      for (int j = k; j < n; ++j) {
        const Lanes r0 = Mr[k][j], i0 = Mi[k][j], r1 = Mr[k + 1][j], i1 = Mi[k + 1][j];
        Mr[k][j] = AEROLIN_SELECT(swap, r1, r0);
        Mi[k][j] = AEROLIN_SELECT(swap, i1, i0);
        Mr[k + 1][j] = AEROLIN_SELECT(swap, r0, r1);
        Mi[k + 1][j] = AEROLIN_SELECT(swap, i0, i1);
      }
      {
        const Lanes r0 = Xr[k], i0 = Xi[k], r1 = Xr[k + 1], i1 = Xi[k + 1];
        Xr[k] = AEROLIN_SELECT(swap, r1, r0);
        Xi[k] = AEROLIN_SELECT(swap, i1, i0);
        Xr[k + 1] = AEROLIN_SELECT(swap, r0, r1);
        Xi[k + 1] = AEROLIN_SELECT(swap, i0, i1);
      }
      // Solve skips the elimination where M(k+1, k) is 0.
      const LaneMask use = ~((Mr[k + 1][k] == 0.0) & (Mi[k + 1][k] == 0.0));
      Lanes fr, fi;
      quotient(Mr[k + 1][k], Mi[k + 1][k], Mr[k][k], Mi[k][k], fr, fi, use, ok[g]);
      for (int j = k + 1; j < n; ++j) {
        const Lanes pr = fr * Mr[k][j] - fi * Mi[k][j], pi = fr * Mi[k][j] + fi * Mr[k][j];
        Mr[k + 1][j] = AEROLIN_SELECT(use, Mr[k + 1][j] - pr, Mr[k + 1][j]);
        Mi[k + 1][j] = AEROLIN_SELECT(use, Mi[k + 1][j] - pi, Mi[k + 1][j]);
      }
      const Lanes pr = fr * Xr[k] - fi * Xi[k], pi = fr * Xi[k] + fi * Xr[k];
      Xr[k + 1] = AEROLIN_SELECT(use, Xr[k + 1] - pr, Xr[k + 1]);
      Xi[k + 1] = AEROLIN_SELECT(use, Xi[k + 1] - pi, Xi[k + 1]);
    }
  const LaneMask all = {-1, -1, -1, -1};
  // Not near singular: |M(k, k)| > 10⁻¹⁴ (max|H| + |ω|), decided from the squares.
  Lanes T[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    const Lanes bound = kSingularPivot * (h_max + AEROLIN_MAGNITUDE(omega[g]));
    T[g] = bound * bound;
  }
  for (int k = n - 1; k >= 0; --k)
    for (int g = 0; g < kGroups; ++g) {
      auto& Mr = mr[g];
      auto& Mi = mi[g];
      auto& Xr = xr[g];
      auto& Xi = xi[g];
      const Lanes N = Mr[k][k] * Mr[k][k] + Mi[k][k] * Mi[k][k];
      ok[g] &= AEROLIN_FINITE(N) & AEROLIN_FINITE(T[g]) & ((N >= kLowest) | (T[g] >= kLowest)) &
               (N > T[g] * (1.0 + kMargin));
      Lanes sr = Xr[k], si = Xi[k];
      for (int j = k + 1; j < n; ++j) {
        sr -= Mr[k][j] * Xr[j] - Mi[k][j] * Xi[j];
        si -= Mr[k][j] * Xi[j] + Mi[k][j] * Xr[j];
      }
      quotient(sr, si, Mr[k][k], Mi[k][k], Xr[k], Xi[k], all, ok[g]);
    }
  unsigned standing = 0;
  for (int g = 0; g < kGroups; ++g) {
    Lanes yr = {d, d, d, d}, yi = zero;
    for (int j = 0; j < n; ++j) {
      yr += c[j] * xr[g][j];
      yi += c[j] * xi[g][j];
    }
    ok[g] &= AEROLIN_FINITE(yr) & AEROLIN_FINITE(yi);
    for (int l = 0; l < kLanes; ++l) {
      gr[g * kLanes + l] = yr[l];
      gi[g * kLanes + l] = yi[l];
      if (ok[g][l] != 0) standing |= 1u << (g * kLanes + l);
    }
  }
  return standing;
}
#undef AEROLIN_SELECT
#undef AEROLIN_MAGNITUDE
#undef AEROLIN_FINITE
#undef AEROLIN_TAME

}  // namespace

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
  // |s| is |Im s| exactly where Re s = 0 (hypot(0, y) = |y|); the modulus
  // comparisons and divisions are std::abs's and operator/'s to the bit,
  // without their calls where they can be spared (core/complex_arithmetic.hpp).
  const double scale = h_max_ + (s.real() == 0.0 ? std::fabs(s.imag()) : std::abs(s));
  for (Eigen::Index k = 0; k + 1 < n; ++k) {
    if (core::ModulusGreater(M(k + 1, k), M(k, k))) {
      M.row(k).tail(n - k).swap(M.row(k + 1).tail(n - k));
      std::swap(x(k), x(k + 1));
    }
    if (M(k + 1, k) == 0.0) continue;
    const cd f = core::Quotient(M(k + 1, k), M(k, k));
    M.row(k + 1).tail(n - k - 1) -= f * M.row(k).tail(n - k - 1);
    M(k + 1, k) = 0.0;
    x(k + 1) -= f * x(k);
  }
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    if (core::ModulusAtMost(M(k, k), kSingularPivot * scale))
      throw core::NumericalError("frequency response: sI - A is singular at s = " +
                                 std::to_string(s.real()) + (s.imag() < 0 ? " - " : " + ") +
                                 std::to_string(std::abs(s.imag())) + "i (a pole of the model)");
    cd sum = x(k);
    for (Eigen::Index j = k + 1; j < n; ++j) sum -= M(k, j) * x(j);
    x(k) = core::Quotient(sum, M(k, k));
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
  // The frequencies to solve in the Hessenberg form, kBatch at a time
  // (SolveLanes: Solve's values, each in a fifth of Solve's time); a lone
  // one, a lane that does not stand, or a model above kMaxLaneStates states
  // through Solve itself, in ascending order (so the first singular
  // frequency is the one reported, as before).
  const int n_states = static_cast<int>(H_.rows());
  const bool lanes = n_states >= 1 && n_states <= kMaxLaneStates;
  Eigen::VectorXd c_row;
  if (lanes) c_row = Ct_.row(output).transpose();
  const auto solve_lanes = SolveLanesChosen();  // AVX2 or the baseline, chosen once
  std::size_t pending[kBatch];
  int n_pending = 0;
  auto flush = [&] {
    if (n_pending == 0) return;
    if (n_pending == 1) {
      hessenberg(pending[0]);
      n_pending = 0;
      return;
    }
    double w[kBatch], gr[kBatch], gi[kBatch];
    for (int l = 0; l < kBatch; ++l) w[l] = omega[pending[std::min(l, n_pending - 1)]];
    const unsigned standing =
        solve_lanes(H_.data(), n_states, h_max_, Bt_.col(input).data(), c_row.data(), d, w, gr, gi);
    for (int l = 0; l < n_pending; ++l) {
      if (standing & (1u << l)) {
        out[pending[l]] = cd(gr[l], gi[l]);
        ++solved;
      } else {
        hessenberg(pending[l]);
      }
    }
    n_pending = 0;
  };
  auto fall_back = [&](std::size_t k) {
    if (!lanes) return hessenberg(k);
    pending[n_pending++] = k;
    if (n_pending == kBatch) flush();
  };
  if (!has_modal_form()) {
    for (std::size_t k = 0; k < omega.size(); ++k) fall_back(k);
    flush();
    return solved;
  }
  // The modal form of the eigenpairs refined in extended precision (the
  // constructor's): per eigenvalue λ̂ and r̂, the refined λ̃ and residue
  // r̃ = (C D xᵢ)(yᵢ D⁻¹ B) (formed in long double) rounded to double, with
  // their errors |δλ| = |λ̂ − λ̃| + κ ρ and |δr| = |r̂ − r̃| + b, where
  // b = Σⱼ≠ᵢ (|c xⱼ| |yᵢ b| κⱼ ρᵢ + |c xᵢ| |yⱼ b| κᵢ ρⱼ)/|λᵢ − λⱼ| is r̃'s own
  // first-order error (the refined vectors' components along the others, ρ
  // their residuals, κ their condition numbers). (The solver's own pairs
  // are off by up to 1e-13 where two eigenvalues are close: the lateral
  // model's spiral and heading.)
  using ld = long double;
  using cld = std::complex<ld>;
  const Eigen::Index n = lambda_extended_.size();
  auto modulus = [](cd z) { return std::sqrt(std::norm(z)); };  // no hypot: a bound's input
  auto rounded = [](cld z) { return cd(static_cast<double>(z.real()), static_cast<double>(z.imag())); };
  auto distance = [](cd a, cld b) {
    return static_cast<double>(std::sqrt(std::norm(cld(a.real(), a.imag()) - b)));
  };
  struct Term {
    cld exact_r;      // r̃
    double exact_error;  // b
    cd l, r;          // λ̂, r̂
    double l_error, r_error;  // |δλ|, |δr|
  };
  std::vector<Term> terms(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) {
    Term& t = terms[static_cast<std::size_t>(i)];
    const cld a = CV_extended_(output, i), b = WB_extended_(i, input);
    t.exact_r = {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
    double bound = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i) continue;
      const double along = CV_extended_abs_(output, j) * WB_extended_abs_(i, input) * extended_condition_(j) *
                               extended_residual_(i) +
                           CV_extended_abs_(output, i) * WB_extended_abs_(j, input) * extended_condition_(i) *
                               extended_residual_(j);
      if (along > 0.0) bound += along * inverse_gap_(i, j);
    }
    t.exact_error = bound;
    t.l = rounded(lambda_extended_(i));
    t.r = rounded(t.exact_r);
    t.l_error = distance(t.l, lambda_extended_(i)) + extended_condition_(i) * extended_residual_(i);
    t.r_error = distance(t.r, t.exact_r) + bound;
  }
  // Each real eigenvalue a term of its own, each complex pair (side by side,
  // conjugate to the bit: RefineEigenpairs keeps them so) one second-order
  // term, half the divisions: jω − λ = x + j(ω − b), r = c + j d, and with
  // r/(s − λ) + r̄/(s − λ̄) = (α s + β)/(s² + p s + q): α = 2 Re r,
  // β = −2 Re(r λ̄), p = −2 Re λ, q = |λ|². The pair's r is the first's; the
  // second's distance from its conjugate is added to the pair's |δr|; a real
  // term takes the real parts, the imaginary ones (0 but for rounding)
  // added to the errors. Per term, ra = |δr| + c u |r|, the residue's error
  // and the roundings of evaluating the term and the sum (c = n + 4); for the
  // error estimate (in units of u), a = ra/u and ρ = |r| |δλ|/ra (a pair's
  // the larger of its two). The peeled terms (PeeledBlock) are the same λ
  // and r each, a pair's second the first's conjugates.
  const double rounding = (static_cast<double>(n) + 4.0) * kRoundOff;
  struct PeeledInput {
    cd l, r;
    double ra, dl;
  };
  std::vector<ModalReal> reals;
  std::vector<ModalPair> pairs;
  std::vector<PeeledInput> peeled_inputs;
  reals.reserve(terms.size());
  pairs.reserve(terms.size() / 2);
  peeled_inputs.reserve(terms.size());
  for (Eigen::Index i = 0; i < n; ++i) {
    const Term& t = terms[static_cast<std::size_t>(i)];
    if (t.l.imag() != 0.0 && i + 1 < n && terms[static_cast<std::size_t>(i) + 1].l == std::conj(t.l)) {
      const Term& u = terms[static_cast<std::size_t>(i) + 1];
      const cd r = t.r, l = t.l, lc = std::conj(l);
      const double r_error = std::max(t.r_error, u.r_error + modulus(u.r - std::conj(r)));
      const double l_error = std::max(t.l_error, u.l_error), r_abs = modulus(r);
      const double ra = r_error + rounding * r_abs;
      pairs.push_back({-l.real(), l.imag(), 2.0 * r.real(), -2.0 * (r * lc).real(), -2.0 * l.real(), std::norm(l),
                       ra / kRoundOff, ra > 0.0 ? r_abs * l_error / ra : 0.0});
      for (const auto& [pl, pr] : {std::pair{l, r}, std::pair{lc, std::conj(r)}}) {
        peeled_inputs.push_back({pl, pr, ra, l_error});
      }
      ++i;
    } else {
      const double l_error = t.l_error + std::fabs(t.l.imag()), r_abs = std::fabs(t.r.real());
      const double ra = t.r_error + std::fabs(t.r.imag()) + rounding * r_abs;
      reals.push_back({-t.l.real(), t.r.real(), ra / kRoundOff, ra > 0.0 ? r_abs * l_error / ra : 0.0});
      peeled_inputs.push_back({cd(t.l.real(), 0.0), cd(t.r.real(), 0.0), ra, l_error});
    }
  }
  // Estimated error of the sum: Σ (ra,ᵢ/|jω − λᵢ| + |rᵢ| |δλᵢ|/|jω − λᵢ|²),
  // the residue's error and the roundings, and the eigenvalue's (|δλᵢ|
  // moving tᵢ = rᵢ/(jω − λᵢ) by |tᵢ| |δλᵢ|/|jω − λᵢ|), with
  // 1/|jω − λᵢ| ≤ √qᵢ, qᵢ = 1/|jω − λᵢ|². Accepted when at most
  // kModalTolerance |G| (compared squared).
  const double limit = kModalTolerance / kRoundOff;
  const double limit2 = limit * limit;
  // Where it is not, the peeled forms (PeeledBlock) are tried, then the
  // Hessenberg form. Their terms are made at the first such frequency, with
  // G(0) = D − Σ r̃ᵢ/λ̃ᵢ summed in long double and its error
  // u |G(0)| + |Im G(0)| + Σ (bᵢ/|λᵢ| + |r̃ᵢ| κᵢρᵢ/|λᵢ|²).
  std::vector<PeeledTerm> peeled;
  PeeledConstants constants{d, CB_(output, input), CB_error_(output, input), 0.0, 0.0, true};
  auto make_peeled = [&] {
    peeled.reserve(peeled_inputs.size());
    for (const auto& [l, r, ra, dl] : peeled_inputs) {
      const cd mu = 1.0 / l;
      const double ar = modulus(r), al = modulus(l), am = modulus(mu);
      peeled.push_back({l.real(), l.imag(), r.real(), r.imag(), mu.real(), mu.imag(), al * ra + ar * dl,
                        ar * dl * al, am * (ra + ar * dl * am), ar * dl * am});
    }
    cld g0 = static_cast<ld>(d);
    double g0_error = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const Term& t = terms[static_cast<std::size_t>(i)];
      const cld le = lambda_extended_(i);
      const double am = 1.0 / static_cast<double>(std::sqrt(std::norm(le)));
      const double dl = extended_condition_(i) * extended_residual_(i);
      g0 -= t.exact_r / le;
      g0_error += t.exact_error * am + static_cast<double>(std::sqrt(std::norm(t.exact_r))) * dl * am * am;
      // The low form wants G(0) known: no refined λ within 1000 times its
      // error of 0 (the lateral model's heading integrator is).
      if (!(static_cast<double>(std::sqrt(std::norm(le))) > 1e3 * dl)) constants.low = false;
    }
    constants.g0 = static_cast<double>(g0.real());
    constants.g0_error = kRoundOff * std::abs(constants.g0) + static_cast<double>(std::fabs(g0.imag())) + g0_error;
    if (!std::isfinite(constants.g0) || !std::isfinite(constants.g0_error)) constants.low = false;
  };
  double re[kModalBlock], im[kModalBlock], error[kModalBlock];
  double left_w[kModalBlock], peeled_re[kModalBlock], peeled_im[kModalBlock], peeled_ok[kModalBlock];
  std::size_t left[kModalBlock];
  for (std::size_t start = 0; start < omega.size(); start += kModalBlock) {
    const std::size_t m = std::min(kModalBlock, omega.size() - start);
    const double* w = omega.data() + start;
    for (std::size_t k = 0; k < m; ++k) {
      re[k] = d;
      im[k] = 0.0;
      error[k] = 0.0;
    }
    ModalBlock(reals, pairs, w, m, re, im, error);
    std::size_t n_left = 0;
    for (std::size_t k = 0; k < m; ++k) {
      // Negated so that a non-finite estimate (ω on a pole) is left too,
      // and the Hessenberg solve reports it.
      if (!(error[k] * error[k] <= limit2 * (re[k] * re[k] + im[k] * im[k]))) {
        left[n_left] = start + k;
        left_w[n_left++] = w[k];
      } else {
        out[start + k] = cd(re[k], im[k]);
      }
    }
    if (n_left == 0) continue;
    if (peeled.empty()) make_peeled();
    PeeledBlock(peeled, constants, left_w, n_left, peeled_re, peeled_im, peeled_ok);
    for (std::size_t k = 0; k < n_left; ++k) {
      if (peeled_ok[k] != 0.0)
        out[left[k]] = cd(peeled_re[k], peeled_im[k]);
      else
        fall_back(left[k]);
    }
  }
  flush();
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
  auto check = [](double w, std::size_t i, double before) {
    if (!std::isfinite(w) || w <= 0.0)
      throw std::invalid_argument("ComputeBode: frequencies must be finite and positive, got " +
                                  std::to_string(w));
    if (i > 0 && w <= before) throw std::invalid_argument("ComputeBode: frequencies must be ascending");
  };
  if (const std::span<const double> listed = omega.listed(); !listed.empty()) {
    for (std::size_t i = 0; i < listed.size(); ++i) check(listed[i], i, i > 0 ? listed[i - 1] : 0.0);
  } else {
    for (std::size_t i = 0; i < omega.size(); ++i) check(omega[i], i, i > 0 ? omega[i - 1] : 0.0);
  }
  // The factors of the continuous phase: each root (both of a pair) with
  // +1 for a zero, −1 for a pole.
  for (const Factor& z : tf_.zeros) {
    factors_.emplace_back(z.root, 1.0);
    if (z.second_order) factors_.emplace_back(std::conj(z.root), 1.0);
  }
  for (const Factor& p : tf_.poles) {
    factors_.emplace_back(p.root, -1.0);
    if (p.second_order) factors_.emplace_back(std::conj(p.root), -1.0);
  }
}

std::span<const BodePoint> BodeCursor::Next(std::size_t max) {
  chunk_.clear();
  return NextInto(chunk_, max);
}

std::span<const BodePoint> BodeCursor::NextInto(std::vector<BodePoint>& out, std::size_t max) {
  const std::size_t m = std::min(max, omega_.size() - next_);
  chunk_omega_.resize(m);
  if (const std::span<const double> listed = omega_.listed(); !listed.empty())
    std::copy_n(listed.begin() + static_cast<std::ptrdiff_t>(next_), m, chunk_omega_.begin());
  else
    for (std::size_t i = 0; i < m; ++i) chunk_omega_[i] = omega_[next_ + i];
  chunk_values_.resize(m);
  response_.Sweep(chunk_omega_, input_, output_, chunk_values_);
  const std::vector<cd>& values = chunk_values_;
  // Continuous phase of the factored form [deg], factor by factor (two at a
  // time where the products allow) over the chunk (the loops vectorize).
  continuous_.assign(m, tf_.gain < 0.0 ? 180.0 : 0.0);
  const double* w = chunk_omega_.data();
  double* continuous = continuous_.data();
  std::size_t f = 0;
  if (CanPairFactors(chunk_omega_, factors_))
    for (; f + 1 < factors_.size(); f += 2)
      AddFactorPairPhase(factors_[f].first, factors_[f].second, factors_[f + 1].first, factors_[f + 1].second, w,
                         continuous, m);
  for (; f < factors_.size(); ++f) AddFactorPhase(factors_[f].first, factors_[f].second, w, continuous, m);
  // The library's |G| and arg G first, a function a pass (they fix the
  // printed digits), then the phase arithmetic over the chunk at once.
  magnitude_.resize(m);
  principal_.resize(m);
  double* magnitude = magnitude_.data();
  double* principal = principal_.data();
  for (std::size_t i = 0; i < m; ++i) magnitude[i] = std::abs(values[i]);
  for (std::size_t i = 0; i < m; ++i) principal[i] = std::arg(values[i]);
  UnwrapChunk(principal, continuous, m);
  constexpr double kTurn = 360.0;
  // Whole turns so the first point lies in (−360, 0].
  if (next_ == 0 && m > 0) turns_ = std::ceil(continuous[0] / kTurn);  // φ₀ − 360·turns ∈ (−360, 0]
  const double taken = kTurn * turns_;
  const std::size_t first = out.size();
  out.resize(first + m);
  const std::span<BodePoint> chunk(out.data() + first, m);
  for (std::size_t i = 0; i < m; ++i) {
    BodePoint& b = chunk[i];
    b.omega = w[i];
    b.value = values[i];
    b.magnitude = magnitude[i];
    b.magnitude_db = magnitude[i] > 0.0 ? 20.0 * std::log10(magnitude[i])
                                        : -std::numeric_limits<double>::infinity();
    b.phase_principal_deg = principal[i];
    b.phase_deg = continuous[i] - taken;
  }
  next_ += m;
  return chunk;
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

void ResonanceScan::Add(const BodePoint& point) { Add(std::span<const BodePoint>(&point, 1)); }

void ResonanceScan::Add(std::span<const BodePoint> points) {
  const std::size_t m = points.size();
  if (m == 0) return;
  if (count_ == 0) front_ = points.front();
  back_ = points.back();
  // Each bracket: the points before the first at or above its ω set lo in
  // turn (the last of them stays), that first one sets hi.
  // (ω ascends: the first at or above by bisection.)
  auto first_at_or_above = [&](double w) {
    return static_cast<std::size_t>(
        std::partition_point(points.begin(), points.end(), [w](const BodePoint& p) { return p.omega < w; }) -
        points.begin());
  };
  for (Bracket* b : {&low_, &high_}) {
    if (b->hi) continue;
    const std::size_t j = first_at_or_above(b->omega);
    if (j < m) b->hi = points[j];
    if (j > 0) b->lo = points[j - 1];
  }
  // The sequence so far ends with window_ (its last min(count_, 3) points)
  // and goes on with `points`; each point after the second is the newest of
  // a window whose middle is a candidate: an interior local maximum of |G|
  // in [ωn/2, 2ωn], the nearest ωn (log distance) winning, the first on ties.
  auto at = [&](std::ptrdiff_t i) -> const BodePoint& {  // i ≥ −3: i < 0 in window_
    return i < 0 ? window_[3 + i] : points[static_cast<std::size_t>(i)];
  };
  if (wn_ > 0.0) {
    const double lo = 0.5 * wn_, hi = 2.0 * wn_;
    // The newest of the window at i, its middle at i − 1, from the third point on;
    // only a middle in [ωn/2, 2ωn] can be a candidate: i from the first point
    // at or above ωn/2 (its predecessor, the middle then, may be in range too)
    // to one past the first at or above 2ωn (a superset; the test below decides).
    const std::ptrdiff_t first = std::max<std::ptrdiff_t>(
        {0, 2 - static_cast<std::ptrdiff_t>(count_), static_cast<std::ptrdiff_t>(first_at_or_above(lo))});
    const auto end = std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(m),
                                              static_cast<std::ptrdiff_t>(first_at_or_above(hi)) + 2);
    for (std::ptrdiff_t i = first; i < end; ++i) {
      const BodePoint& mid = at(i - 1);
      const double w = mid.omega;
      if (w < lo || w > hi) continue;
      if (!(mid.magnitude_db > at(i - 2).magnitude_db && mid.magnitude_db >= at(i).magnitude_db)) continue;
      if (!best_ || std::abs(std::log(w / wn_)) < std::abs(std::log((*best_)[1].omega / wn_)))
        best_ = std::array<BodePoint, 3>{at(i - 2), mid, at(i)};
    }
  }
  // The last three points, oldest first.
  if (m >= 3) {
    std::copy(points.end() - 3, points.end(), window_);
  } else {
    BodePoint last[3];
    for (std::ptrdiff_t i = 0; i < 3; ++i) last[i] = at(static_cast<std::ptrdiff_t>(m) - 3 + i);
    std::copy(last, last + 3, window_);
  }
  count_ += m;
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
  scan.Add(bode);
  return scan.Result();
}

BandwidthScan::BandwidthScan(std::optional<double> dc_gain) {
  defined_ = dc_gain && *dc_gain != 0.0 && std::isfinite(*dc_gain);
  if (defined_) level_db_ = 20.0 * std::log10(std::abs(*dc_gain)) - 20.0 * std::log10(std::sqrt(2.0));
}

void BandwidthScan::Add(const BodePoint& point) { Add(std::span<const BodePoint>(&point, 1)); }

void BandwidthScan::Add(std::span<const BodePoint> points) {
  if (!defined_ || points.empty()) return;
  // The run of points below the level that ends at the last point, and the
  // sample before it: the crossing lies between the two. Only the chunk's
  // last point not below the level matters (each such point ends any run).
  auto below = [this](const BodePoint& p) { return p.magnitude_db < level_db_; };
  std::size_t j = points.size();
  while (j > 0 && below(points[j - 1])) --j;
  if (j == points.size()) {
    crossing_ = false;  // the last point is not below
  } else if (j > 0) {
    crossing_ = true;
    above_ = points[j - 1];
    below_ = points[j];
  } else if (any_ && !below(last_)) {  // all below: a crossing from the previous point
    crossing_ = true;
    above_ = last_;
    below_ = points.front();
  }
  last_ = points.back();
  any_ = true;
}

std::optional<double> BandwidthScan::Result() const {
  // Below the level from the first point (no crossing), or not below it at
  // the last: no bandwidth within the sweep.
  if (!defined_ || !any_ || !crossing_) return std::nullopt;
  const BodePoint& lo = above_;
  const BodePoint& hi = below_;
  const double t = (level_db_ - lo.magnitude_db) / (hi.magnitude_db - lo.magnitude_db);
  // log(ω_hi/ω_lo), as the difference of the logs where the ratio overflows
  // (a listed grid from 1e-200 to 1e200 rad/s): 0 · inf would be NaN.
  const double ratio = hi.omega / lo.omega;
  const double span = std::isfinite(ratio) ? std::log(ratio) : std::log(hi.omega) - std::log(lo.omega);
  return std::exp(std::log(lo.omega) + t * span);
}

std::optional<double> Bandwidth(const std::vector<BodePoint>& bode,
                                std::optional<double> dc_gain) {
  BandwidthScan scan(dc_gain);
  scan.Add(bode);
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
    // With keep_points the cursor writes into the kept points (reserved:
    // each chunk stays where it is written).
    auto next = [&] { return keep_points ? cursor.NextInto(kept_.back()) : cursor.Next(); };
    for (std::span<const BodePoint> chunk = next(); !chunk.empty(); chunk = next()) {
      for (ResonanceScan& r : resonances) r.Add(chunk);
      bandwidth.Add(chunk);
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
