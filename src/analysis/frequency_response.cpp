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

// Adds s₁ arg f₁ + s₂ arg f₂ [deg] of two factors as AddFactorPhase would
// (fᵢ = jω − rᵢ, or rᵢ − jω turned by 180° where Re rᵢ > 0), with one
// arctangent instead of two: of the product f₁' f₂', fᵢ' = fᵢ (conjugated
// where sᵢ = −1), whose argument is the sum since each lies in [−90°, 90°]
// (the real parts are ≥ 0), so the sum is in [−180°, 180°] and its
// principal value is the sum itself: only ±180° are on the cut, reached
// with both real parts 0, where the imaginary part of the product is a
// signed zero of the right sign (copysign keeps it). Accuracy as
// AddFactorPhase's: the same polynomial on [0, 1]. Used where no product
// can overflow or underflow to a lost argument (CanPairFactors).
AEROLIN_TWO_ISAS(AEROLIN_NO_TRAPPING_MATH, void, AddFactorPairPhase, "avx2", UseAvx2,
                 (std::complex<double> r1, double sign1, std::complex<double> r2, double sign2, const double* omega, double* phase, std::size_t m),
                 (r1, sign1, r2, sign2, omega, phase, m))
AEROLIN_NO_TRAPPING_MATH inline void AddFactorPairPhaseBody(std::complex<double> r1, double sign1, std::complex<double> r2, double sign2, const double* omega, double* phase, std::size_t m) {
  const bool right1 = r1.real() > 0.0, right2 = r2.real() > 0.0;
  const double x1 = std::abs(r1.real()), x2 = std::abs(r2.real());
  // fᵢ' = xᵢ + j gᵢ (ω − Im rᵢ): the flip of a right-half-plane root, the conjugate of a pole's.
  const double g1 = sign1 * (right1 ? -1.0 : 1.0), g2 = sign2 * (right2 ? -1.0 : 1.0);
  const double offset = sign1 * (right1 ? 180.0 : 0.0) + sign2 * (right2 ? 180.0 : 0.0);
  const double i1 = r1.imag(), i2 = r2.imag();
  for (std::size_t k = 0; k < m; ++k) {
    const double y1 = g1 * (omega[k] - i1), y2 = g2 * (omega[k] - i2);
    const double re = x1 * x2 - y1 * y2, im = x1 * y2 + x2 * y1;
    const double ax = std::fabs(re), ay = std::fabs(im);
    const bool steep = ay > ax;
    const double hi = steep ? ay : ax, lo = steep ? ax : ay;
    const double ratio = lo / hi;  // 0/0 only where a factor is 0: arg 0 there
    const double a = hi > 0.0 ? ratio : 0.0, s = a * a;
    const double t = a * (1.0 + s * (-0.3302995 + s * (0.1801410 + s * (-0.0851330 + s * 0.0208351))));
    const double octant = steep ? 1.5707963267948966 - t : t;
    const double half = re < 0.0 ? 3.141592653589793 - octant : octant;
    phase[k] += std::copysign(half, im) * core::kRadToDeg + offset;
  }
}

// Whether AddFactorPairPhase's products keep every argument over `omega`:
// with ω in [1e-100, 1e100] and the roots' parts within 1e100 in magnitude
// no product overflows, and one underflows to a wrong argument only where
// both factors of a pair are below 1e-154 (both roots that close to jω, so
// G is 0 there to working precision).
bool CanPairFactors(std::span<const double> omega, const std::vector<std::pair<std::complex<double>, double>>& f) {
  constexpr double kLow = 1e-100, kHigh = 1e100;
  // `omega` ascends (BodeCursor checked it).
  if (omega.empty() || !(omega.front() >= kLow && omega.back() <= kHigh)) return false;
  for (const auto& [r, sign] : f)
    if (!(std::abs(r.real()) <= kHigh && std::abs(r.imag()) <= kHigh)) return false;
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
  // The terms: each real eigenvalue alone, each complex pair (Eigen gives
  // λ and λ̄ side by side) as one second-order term, half the divisions.
  // Per term: jω − λ = x + j(ω − b), r = c + j d; per pair, with
  // r/(s − λ) + r̄/(s − λ̄) = (α s + β)/(s² + p s + q): α = 2 Re r,
  // β = −2 Re(r λ̄), p = −2 Re λ, q = |λ|². For the error estimate, a = κ |r|
  // (the larger κ of a pair) and ρ/u.
  const Eigen::Index n = lambda_.size();
  std::vector<ModalReal> reals;
  std::vector<ModalPair> pairs;
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
    ModalBlock(reals, pairs, w, m, re, im, error);
    for (std::size_t k = 0; k < m; ++k) {
      // Negated so that a non-finite estimate (ω on a pole) falls back too,
      // and the Hessenberg solve reports it.
      if (!(error[k] * error[k] <= limit2 * (re[k] * re[k] + im[k] * im[k])))
        fall_back(start + k);
      else
        out[start + k] = cd(re[k], im[k]);
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
  for (Bracket* b : {&low_, &high_}) {
    if (b->hi) continue;
    std::size_t j = 0;
    while (j < m && points[j].omega < b->omega) ++j;
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
    // The newest of the window at i, its middle at i − 1, from the third point on.
    const std::ptrdiff_t first = std::max<std::ptrdiff_t>(0, 2 - static_cast<std::ptrdiff_t>(count_));
    for (std::ptrdiff_t i = first; i < static_cast<std::ptrdiff_t>(m); ++i) {
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
  return std::exp(std::log(lo.omega) + t * std::log(hi.omega / lo.omega));
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
