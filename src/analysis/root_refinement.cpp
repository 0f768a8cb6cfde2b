#include "aerolin/analysis/root_refinement.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <complex>
#include <limits>
#include <span>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/analysis/root_order.hpp"
#include "aerolin/core/complex_arithmetic.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;

// Iterations of the inverse iteration: the prediction is O(h²) off, each
// iteration about squares the relative error, and one more runs once a step
// is below kConverged·‖A‖ (the error is then of order δ²/gap, so the last
// LU, which gives the final x and the left vector, is at a λ whose error is
// far below the gap: x to working precision, w to ~δ²/gap²).
constexpr int kMaxIterations = 8;
constexpr double kConverged = 1e-6;
// Separation: two roots closer than this many times their error bounds, or
// than kMinSeparation·‖A‖, are refused (first-order bounds need separated
// roots).
constexpr double kSeparationFactor = 1e3;
constexpr double kMinSeparation = 1e-8;
constexpr double kTraceTolerance = 1e-10;
// A root's move from its prediction against the distance from the
// prediction to every other new root (the matching's ambiguity ratio is 1/4).
constexpr double kIdentityRatio = 0.125;

// One refined root; its right vector (unit 2-norm) is a column of the
// caller's RightVectors.
struct Refined {
  cd lambda;
  cd slope;
  double error_bound;  // κ·‖Ax − λx‖
};

// The refined roots' right vectors, column i root i's: raw storage, since an
// Eigen matrix of std::complex zeroes its whole capacity (8×8, 1 kB) when
// constructed, which cost more than a refinement's arithmetic (rep stos:
// 7 % of a sweep's time).
class RightVectors {
 public:
  explicit RightVectors(Eigen::Index n) : n_(n) {}
  Eigen::Map<Eigen::VectorXcd> col(Eigen::Index i) { return {data() + i * n_, n_}; }
  Eigen::Map<const Eigen::VectorXcd> col(Eigen::Index i) const { return {data() + i * n_, n_}; }

 private:
  // std::complex<double> is array-compatible with double[2] ([complex.numbers]).
  cd* data() { return reinterpret_cast<cd*>(raw_.data()); }
  const cd* data() const { return reinterpret_cast<const cd*>(raw_.data()); }
  Eigen::Index n_;
  alignas(16) std::array<double, 2 * kMaxSmallStates * kMaxSmallStates> raw_;
};

// Scalar arithmetic of the inverse iteration, for S = double (a real root)
// and S = std::complex<double> (a pair's Im > 0 member), written out: the
// complex product as its four real products (GCC's operator* checks each
// result for NaN and calls __muldc3 then; a non-finite result is refused
// below whichever way it is formed), the reciprocal of a pivot by
// core::Quotient (operator/'s value, inline).
double Mul(double a, double b) { return a * b; }
cd Mul(cd a, cd b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
// conj(a)·b
double ConjMul(double a, double b) { return a * b; }
cd ConjMul(cd a, cd b) {
  return {a.real() * b.real() + a.imag() * b.imag(), a.real() * b.imag() - a.imag() * b.real()};
}
double Conj(double a) { return a; }
cd Conj(cd a) { return std::conj(a); }
double Abs2(double a) { return a * a; }
double Abs2(cd a) { return a.real() * a.real() + a.imag() * a.imag(); }
// |Re a| + |Im a|: within √2 of |a|, without a hypot (pivots, convergence).
double Abs1(double a) { return std::fabs(a); }
double Abs1(cd a) { return std::fabs(a.real()) + std::fabs(a.imag()); }
double Quotient(double a, double b) { return a / b; }
cd Quotient(cd a, cd b) { return core::Quotient(a, b); }

// The same arithmetic on two values at once, one in each lane of an SSE2
// vector (the refinement in lanes, below): V2 for real roots, VC for pairs'
// members; IEEE arithmetic is lane-wise and nothing is fused.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define AEROLIN_REFINE_IN_LANES 1
using V2 = double __attribute__((vector_size(16)));
using M2 = long long __attribute__((vector_size(16)));  // lane masks: all ones or 0

V2 Splat(double v) { return V2{v, v}; }
V2 Fabs(V2 v) { return reinterpret_cast<V2>(reinterpret_cast<M2>(v) & ~reinterpret_cast<M2>(Splat(-0.0))); }
V2 Sqrt(V2 v) { return reinterpret_cast<V2>(_mm_sqrt_pd(reinterpret_cast<__m128d>(v))); }
bool BothFinite(V2 v) { return std::isfinite(v[0]) && std::isfinite(v[1]); }

// Two complex numbers, lane l's (re[l], im[l]); the operations
// std::complex<double> performs, part by part.
struct VC {
  V2 re, im;
};
VC& operator+=(VC& a, VC b) {
  a.re += b.re;
  a.im += b.im;
  return a;
}
VC& operator-=(VC& a, VC b) {
  a.re -= b.re;
  a.im -= b.im;
  return a;
}
VC Mul(VC a, VC b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
VC ConjMul(VC a, VC b) { return {a.re * b.re + a.im * b.im, a.re * b.im - a.im * b.re}; }
VC Conj(VC a) { return {a.re, -a.im}; }
VC operator-(VC a) { return {-a.re, -a.im}; }
VC Times(double a, VC b) { return {a * b.re, a * b.im}; }  // double · complex
V2 Conj(V2 a) { return a; }
V2 Times(double a, V2 b) { return a * b; }
V2 Mul(V2 a, V2 b) { return a * b; }
V2 ConjMul(V2 a, V2 b) { return a * b; }
V2 Abs2(V2 a) { return a * a; }
V2 Abs2(VC a) { return a.re * a.re + a.im * a.im; }
V2 Abs1(V2 a) { return Fabs(a); }
V2 Abs1(VC a) { return Fabs(a.re) + Fabs(a.im); }
VC Scaled(VC a, V2 d) { return {a.re / d, a.im / d}; }  // complex / double
V2 Scaled(V2 a, V2 d) { return a / d; }
#endif

// Step k of the factorization, pivot row k in place and its reciprocal in
// inverse[k]: L's multipliers in column k below the diagonal, the rows
// below updated.
template <class T, int kCap>
[[gnu::always_inline]] inline void Eliminate(T (&lu)[kCap][kCap], const T (&inverse)[kCap], int n, int k) {
  for (int i = k + 1; i < n; ++i) {
    const T l = Mul(lu[i][k], inverse[k]);
    lu[i][k] = l;
    for (int j = k + 1; j < n; ++j) lu[i][j] -= Mul(l, lu[k][j]);
  }
}

// The triangular solves of a factorization in ShiftedLu's form (L unit lower
// triangular below the diagonal, U on and above it, the pivots'
// reciprocals), for a scalar or lanes T: y = U⁻¹ L⁻¹ (P b), row i of P b
// being b_row(i).
template <class T, int kCap, class Row>
[[gnu::always_inline]] inline void LuSolve(const T (&lu)[kCap][kCap], const T (&inverse)[kCap], int n, Row b_row,
                                           T* y) {
  for (int i = 0; i < n; ++i) {
    T t = b_row(i);
    for (int j = 0; j < i; ++j) t -= Mul(lu[i][j], y[j]);
    y[i] = t;
  }
  for (int i = n - 1; i >= 0; --i) {
    T t = y[i];
    for (int j = i + 1; j < n; ++j) t -= Mul(lu[i][j], y[j]);
    y[i] = Mul(t, inverse[i]);
  }
}
// (P M)ᴴ = Uᴴ Lᴴ: Uᴴ z = b, then Lᴴ t = z, in z (the caller permutes back).
template <class T, int kCap>
[[gnu::always_inline]] inline void LuSolveAdjoint(const T (&lu)[kCap][kCap], const T (&inverse)[kCap], int n,
                                                  const T* b, T* z) {
  for (int i = 0; i < n; ++i) {
    T t = b[i];
    for (int j = 0; j < i; ++j) t -= ConjMul(lu[j][i], z[j]);
    z[i] = Mul(t, Conj(inverse[i]));
  }
  for (int i = n - 1; i >= 0; --i) {
    T t = z[i];
    for (int j = i + 1; j < n; ++j) t -= ConjMul(lu[j][i], z[j]);
    z[i] = t;
  }
}

// LU with partial pivoting of M = A − λI (n ≤ kMaxSmallStates; N = n when
// known at compile time, 0 otherwise), P M = L U with L unit lower
// triangular: row i of P M is row perm[i] of M; L's multipliers below the
// diagonal and U on and above it in lu, each pivot's reciprocal in inverse.
template <int N, class S>
struct ShiftedLu {
  static constexpr int kCap = N > 0 ? N : kMaxSmallStates;
  const int n;  // N where fixed
  S lu[kCap][kCap];
  S inverse[kCap];
  int perm[kCap];

  explicit ShiftedLu(int size) : n(N > 0 ? N : size) {}

  // Factors A − λI; false (and nothing usable) if a pivot is exactly 0.
  bool Factor(const double (&a)[kCap][kCap], S lambda) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) lu[i][j] = S(a[i][j]);
      lu[i][i] -= lambda;
      perm[i] = i;
    }
    for (int k = 0; k < n; ++k) {
      int p = k;
      double best = Abs1(lu[k][k]);
      for (int i = k + 1; i < n; ++i)
        if (const double m = Abs1(lu[i][k]); m > best) {
          best = m;
          p = i;
        }
      if (!(best > 0)) return false;
      if (p != k) {
        for (int j = 0; j < n; ++j) std::swap(lu[k][j], lu[p][j]);
        std::swap(perm[k], perm[p]);
      }
      inverse[k] = Quotient(S(1), lu[k][k]);
      Eliminate(lu, inverse, n, k);
    }
    return true;
  }
  // y = (A − λI)⁻¹ b.
  void Solve(const S* b, S* y) const {
    LuSolve(lu, inverse, n, [&](int i) { return b[perm[i]]; }, y);
  }
  // w = (A − λI)⁻ᴴ b: (P M)ᴴ = Uᴴ Lᴴ, so Uᴴ z = b, Lᴴ t = z, w = Pᵀ t.
  void SolveAdjoint(const S* b, S* w) const {
    S z[kCap];
    LuSolveAdjoint(lu, inverse, n, b, z);
    for (int i = 0; i < n; ++i) w[perm[i]] = z[i];
  }
};

// The inverse iteration's state before an iteration: λ, x (unit 2-norm),
// the iterations done and whether a step has converged.
template <int N, class S>
struct Iteration {
  static constexpr int kCap = N > 0 ? N : kMaxSmallStates;
  S lambda;
  S x[kCap];
  int it = 0;
  bool converged = false;
};

// A as a plain array (the iteration's loops index it directly).
template <int kCap>
void CopyA(const SmallMatrix& A, int n, double (&a)[kCap][kCap]) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[i][j] = A(i, j);
}

// The iteration's start: λ the prediction, x0 normalized; false if x0 has
// no finite, nonzero norm.
template <int N, class S, class V>
bool Start(S lambda, const V& x0, int n, Iteration<N, S>& st) {
  st.lambda = lambda;
  double nx2 = 0;
  for (int i = 0; i < n; ++i) {
    st.x[i] = S(x0(i));
    nx2 += Abs2(st.x[i]);
  }
  const double nx = std::sqrt(nx2);
  if (!(nx > 0) || !std::isfinite(nx)) return false;
  for (int i = 0; i < n; ++i) st.x[i] /= nx;
  return true;
}

// The root's residual, left vector, slope and error bound from the last
// iteration's LU (at the λ before its update) and the final λ and x.
template <int N, class S, int kCap>
bool Finish(const ShiftedLu<N, S>& lu, const double (&a)[kCap][kCap], const SmallMatrix& dA, double norm_A,
            S lambda, const S (&x)[kCap], Refined& out, Eigen::Map<Eigen::VectorXcd> right) {
  const int n = lu.n;
  double r2 = 0;
  for (int i = 0; i < n; ++i) {
    S r = -Mul(lambda, x[i]);
    for (int j = 0; j < n; ++j) r += a[i][j] * x[j];
    r2 += Abs2(r);
  }
  const double residual = std::sqrt(r2);
  if (!(residual <= kRefinedResidual * norm_A)) return false;
  // The left vector: one solve with (A − λI)ᴴ at the last LU's λ, whose
  // error is far below the gap to the other roots, from x (any start with a
  // component along w would do).
  S w[kCap];
  lu.SolveAdjoint(x, w);
  S wx = S(0), w_dAx = S(0);
  double nw2 = 0;
  for (int i = 0; i < n; ++i) {
    S dAx = S(0);
    for (int j = 0; j < n; ++j) dAx += dA(i, j) * x[j];
    wx += ConjMul(w[i], x[i]);
    w_dAx += ConjMul(w[i], dAx);
    nw2 += Abs2(w[i]);
  }
  const double nw = std::sqrt(nw2), abs_wx = std::sqrt(Abs2(wx));
  if (!(abs_wx > 0) || !std::isfinite(nw)) return false;
  out.lambda = cd(lambda);
  for (int i = 0; i < n; ++i) right(i) = cd(x[i]);
  out.slope = cd(Quotient(w_dAx, wx));
  out.error_bound = nw / abs_wx * residual;  // κ‖r‖ (‖x‖ = 1)
  return std::isfinite(out.error_bound) && std::isfinite(out.slope.real()) && std::isfinite(out.slope.imag());
}

// Rayleigh-quotient inverse iteration from `st` (y = (A − λI)⁻¹x, λ +=
// yᴴx/‖y‖², x = y/‖y‖) until one iteration after a step below
// kConverged·‖A‖, then Finish. False if it does not converge or the
// residual is too large.
template <int N, class S, int kCap>
bool Iterate(const double (&a)[kCap][kCap], int n, const SmallMatrix& dA, double norm_A, Iteration<N, S> st,
             Refined& out, Eigen::Map<Eigen::VectorXcd> right) {
  ShiftedLu<N, S> lu(n);
  S y[kCap];
  constexpr double kShift = 4 * std::numeric_limits<double>::epsilon();
  bool last = false;
  for (; st.it < kMaxIterations && !last; ++st.it) {
    last = st.converged;
    if (!lu.Factor(a, st.lambda)) {
      // λ is an eigenvalue to the last bit and A − λI exactly singular in
      // floating point: shift by a few ε‖A‖ (the solve then amplifies the
      // eigenvector by ~1/ε, and the update below takes the shift back).
      st.lambda += S(kShift * norm_A);
      if (!lu.Factor(a, st.lambda)) return false;
    }
    lu.Solve(st.x, y);
    double ny2 = 0;
    S yx = S(0);
    for (int i = 0; i < n; ++i) {
      ny2 += Abs2(y[i]);
      yx += ConjMul(y[i], st.x[i]);
    }
    if (!(ny2 > 0) || !std::isfinite(ny2)) return false;
    const S delta = yx / ny2;  // yᴴx/‖y‖²
    st.lambda += delta;
    const double ny = std::sqrt(ny2);
    for (int i = 0; i < n; ++i) st.x[i] = y[i] / ny;
    if (!std::isfinite(Abs1(st.lambda))) return false;
    st.converged = st.converged || Abs1(delta) <= kConverged * norm_A;
  }
  if (!last) return false;
  return Finish(lu, a, dA, norm_A, st.lambda, st.x, out, right);
}

// Two roots of the same A refined at once, one in each lane of an SSE2
// vector (x86-64 with GCC; elsewhere one after the other): IEEE arithmetic
// is lane-wise and no product is fused, so each lane's operations are its
// scalar refinement's, in the same order, and its bits the same. Where the
// lanes part (an exactly zero pivot, a pivot outside
// core::Quotient's inline range, one lane's last iteration before the
// other's), each lane goes on alone from where it is (Iterate); each lane
// has its own pivot rows.
#ifdef AEROLIN_REFINE_IN_LANES
// The lanes' type for scalar S, and packing.
template <class S>
struct LanesOf;
template <>
struct LanesOf<double> {
  using type = V2;
  static V2 Real(double v) { return Splat(v); }
  static V2 Pack(double a, double b) { return V2{a, b}; }
  static double Lane(V2 v, int l) { return v[l]; }
};
template <>
struct LanesOf<cd> {
  using type = VC;
  static VC Real(double v) { return {Splat(v), Splat(0.0)}; }
  static VC Pack(cd a, cd b) { return {V2{a.real(), b.real()}, V2{a.imag(), b.imag()}}; }
  static cd Lane(VC v, int l) { return {v.re[l], v.im[l]}; }
};

// 1/p as Quotient(S(1), p) gives it, lane by lane; false where a lane's
// quotient is not core::Quotient's inline one (the scalar path divides).
// core::Quotient's formula written again for lanes: should it change,
// RefineRoots.InLanesIsOneAtATimeBitForBit (lanes against one at a time,
// bit for bit) fails until this follows.
[[gnu::always_inline]] inline bool Reciprocal(V2 p, V2& out) {
  out = Splat(1.0) / p;
  return true;
}
[[gnu::always_inline]] inline bool Reciprocal(VC p, VC& out) {
  using core::complex_arithmetic_detail::kTameHighest;
  using core::complex_arithmetic_detail::kTameLowest;
  const V2 c = p.re, d = p.im, ac = Fabs(c), ad = Fabs(d);
  const M2 tame_c = (ac == 0.0) | ((ac >= kTameLowest) & (ac <= kTameHighest));
  const M2 tame_d = (ad == 0.0) | ((ad >= kTameLowest) & (ad <= kTameHighest));
  const M2 ok = tame_c & tame_d & ((c != 0.0) | (d != 0.0));
  if (!(ok[0] && ok[1])) return false;
  const V2 ar = Splat(1.0), ai = Splat(0.0);
  const M2 first = ac < ad;
  VC q1{}, q2{};
  if (first[0] || first[1]) {
    const V2 ratio = c / d, denom = c * ratio + d;
    q1 = {(ar * ratio + ai) / denom, (ai * ratio - ar) / denom};
  }
  if (!first[0] || !first[1]) {
    const V2 ratio = d / c, denom = d * ratio + c;
    q2 = {(ai * ratio + ar) / denom, (ai - ar * ratio) / denom};
  }
  out = {first ? q1.re : q2.re, first ? q1.im : q2.im};
  return true;
}

// v where the mask is set, w elsewhere, lane by lane.
V2 Select(M2 mask, V2 v, V2 w) { return mask ? v : w; }
VC Select(M2 mask, VC v, VC w) { return {mask ? v.re : w.re, mask ? v.im : w.im}; }

// ShiftedLu's factorization in two lanes, each with its own pivot rows.
template <int N, class S>
struct ShiftedLuLanes {
  using L = typename LanesOf<S>::type;
  static constexpr int kCap = N;
  L lu[kCap][kCap];
  L inverse[kCap];
  int perm[2][kCap];  // lane l's
  bool same_perm = true;

  // False where a lane's pivot is exactly 0 or its reciprocal is not
  // core::Quotient's inline one: nothing usable.
  bool Factor(const double (&a)[kCap][kCap], L lambda) {
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) lu[i][j] = LanesOf<S>::Real(a[i][j]);
      lu[i][i] -= lambda;
      perm[0][i] = perm[1][i] = i;
    }
    same_perm = true;
    for (int k = 0; k < N; ++k) {
      int p[2] = {k, k};
      V2 best = Abs1(lu[k][k]);
      for (int i = k + 1; i < N; ++i) {
        const V2 m = Abs1(lu[i][k]);
        const M2 greater = m > best;
        best = greater ? m : best;
        if (greater[0]) p[0] = i;
        if (greater[1]) p[1] = i;
      }
      if (!(best[0] > 0) || !(best[1] > 0)) return false;
      if (p[0] == p[1]) {
        if (p[0] != k) {
          for (int j = 0; j < N; ++j) std::swap(lu[k][j], lu[p[0]][j]);
          std::swap(perm[0][k], perm[0][p[0]]);
          std::swap(perm[1][k], perm[1][p[0]]);
        }
      } else {
        same_perm = false;
        for (int l = 0; l < 2; ++l) {
          if (p[l] == k) continue;
          const M2 lane = l == 0 ? M2{-1, 0} : M2{0, -1};
          for (int j = 0; j < N; ++j) {
            const L row_k = lu[k][j];
            lu[k][j] = Select(lane, lu[p[l]][j], row_k);
            lu[p[l]][j] = Select(lane, row_k, lu[p[l]][j]);
          }
          std::swap(perm[l][k], perm[l][p[l]]);
        }
      }
      if (!Reciprocal(lu[k][k], inverse[k])) return false;
      Eliminate(lu, inverse, N, k);
    }
    return true;
  }
  void Solve(const L* b, L* y) const {
    if (same_perm)
      LuSolve(lu, inverse, N, [&](int i) { return b[perm[0][i]]; }, y);
    else
      LuSolve(lu, inverse, N, [&](int i) { return Select(M2{-1, 0}, b[perm[0][i]], b[perm[1][i]]); }, y);
  }
  // ShiftedLu::SolveAdjoint, lane by lane.
  void SolveAdjoint(const L* b, L* w) const {
    L z[kCap];
    LuSolveAdjoint(lu, inverse, N, b, z);
    for (int i = 0; i < N; ++i) w[perm[0][i]] = z[i];
    if (!same_perm)
      for (int i = 0; i < N; ++i) w[perm[1][i]] = Select(M2{0, -1}, z[i], w[perm[1][i]]);
  }
  // Lane l's factorization, as ShiftedLu would have it.
  ShiftedLu<N, S> Lane(int l) const {
    ShiftedLu<N, S> out(N);
    for (int i = 0; i < N; ++i) {
      for (int j = 0; j < N; ++j) out.lu[i][j] = LanesOf<S>::Lane(lu[i][j], l);
      out.inverse[i] = LanesOf<S>::Lane(inverse[i], l);
      out.perm[i] = perm[l][i];
    }
    return out;
  }
};

// Finish for both lanes, ended on the same iteration.
template <int N, class S>
bool FinishPair(const ShiftedLuLanes<N, S>& lu, const double (&a)[N][N], const SmallMatrix& dA, double norm_A,
                typename LanesOf<S>::type lambda, const typename LanesOf<S>::type (&x)[N], Refined& out0,
                Eigen::Map<Eigen::VectorXcd> right0, Refined& out1, Eigen::Map<Eigen::VectorXcd> right1) {
  using Lanes = LanesOf<S>;
  using L = typename Lanes::type;
  V2 r2 = Splat(0.0);
  for (int i = 0; i < N; ++i) {
    L r = -Mul(lambda, x[i]);
    for (int j = 0; j < N; ++j) r += Times(a[i][j], x[j]);
    r2 += Abs2(r);
  }
  const V2 residual = Sqrt(r2);
  const double most = kRefinedResidual * norm_A;
  if (!(residual[0] <= most) || !(residual[1] <= most)) return false;
  L w[N];
  lu.SolveAdjoint(x, w);
  L wx = Lanes::Real(0.0), w_dAx = Lanes::Real(0.0);
  V2 nw2 = Splat(0.0);
  for (int i = 0; i < N; ++i) {
    L dAx = Lanes::Real(0.0);
    for (int j = 0; j < N; ++j) dAx += Times(dA(i, j), x[j]);
    wx += ConjMul(w[i], x[i]);
    w_dAx += ConjMul(w[i], dAx);
    nw2 += Abs2(w[i]);
  }
  const V2 nw = Sqrt(nw2), abs_wx = Sqrt(Abs2(wx));
  if (!(abs_wx[0] > 0) || !(abs_wx[1] > 0) || !BothFinite(nw)) return false;
  for (int l = 0; l < 2; ++l) {
    Refined& out = l == 0 ? out0 : out1;
    Eigen::Map<Eigen::VectorXcd> right = l == 0 ? right0 : right1;
    out.lambda = cd(Lanes::Lane(lambda, l));
    for (int i = 0; i < N; ++i) right(i) = cd(Lanes::Lane(x[i], l));
    out.slope = cd(Quotient(Lanes::Lane(w_dAx, l), Lanes::Lane(wx, l)));
    out.error_bound = nw[l] / abs_wx[l] * residual[l];  // κ‖r‖ (‖x‖ = 1)
    if (!(std::isfinite(out.error_bound) && std::isfinite(out.slope.real()) && std::isfinite(out.slope.imag())))
      return false;
  }
  return true;
}

// Iterate for two roots from their starts (lane 0 from s0, lane 1 from s1):
// true if both are refined (out0, out1), false if either is refused.
template <int N, class S>
bool IteratePair(const double (&a)[N][N], const SmallMatrix& dA, double norm_A, const Iteration<N, S>& s0,
                 const Iteration<N, S>& s1, Refined& out0, Eigen::Map<Eigen::VectorXcd> right0, Refined& out1,
                 Eigen::Map<Eigen::VectorXcd> right1) {
  using Lanes = LanesOf<S>;
  using L = typename Lanes::type;
  ShiftedLuLanes<N, S> lu;
  L lambda = Lanes::Pack(s0.lambda, s1.lambda);
  L x[N], y[N];
  for (int i = 0; i < N; ++i) x[i] = Lanes::Pack(s0.x[i], s1.x[i]);
  int it = s0.it;
  bool converged[2] = {s0.converged, s1.converged}, last[2] = {false, false};
  // Lane l's state, to go on alone.
  auto state = [&](int l) {
    Iteration<N, S> st;
    st.lambda = Lanes::Lane(lambda, l);
    for (int i = 0; i < N; ++i) st.x[i] = Lanes::Lane(x[i], l);
    st.it = it;
    st.converged = converged[l];
    return st;
  };
  const double converged_step = kConverged * norm_A;
  for (;;) {
    if (it >= kMaxIterations) return false;
    last[0] = converged[0];
    last[1] = converged[1];
    if (!lu.Factor(a, lambda))
      return Iterate(a, N, dA, norm_A, state(0), out0, right0) && Iterate(a, N, dA, norm_A, state(1), out1, right1);
    lu.Solve(x, y);
    V2 ny2 = Splat(0.0);
    L yx = Lanes::Real(0.0);
    for (int i = 0; i < N; ++i) {
      ny2 += Abs2(y[i]);
      yx += ConjMul(y[i], x[i]);
    }
    if (!(ny2[0] > 0) || !(ny2[1] > 0) || !BothFinite(ny2)) return false;
    const L delta = Scaled(yx, ny2);
    lambda += delta;
    const V2 ny = Sqrt(ny2);
    for (int i = 0; i < N; ++i) x[i] = Scaled(y[i], ny);
    if (!BothFinite(Abs1(lambda))) return false;
    const V2 step = Abs1(delta);
    converged[0] = converged[0] || step[0] <= converged_step;
    converged[1] = converged[1] || step[1] <= converged_step;
    ++it;
    if (last[0] || last[1]) break;
  }
  if (last[0] && last[1]) return FinishPair(lu, a, dA, norm_A, lambda, x, out0, right0, out1, right1);
  for (int l = 0; l < 2; ++l) {
    Refined& out = l == 0 ? out0 : out1;
    Eigen::Map<Eigen::VectorXcd> right = l == 0 ? right0 : right1;
    const Iteration<N, S> st = state(l);
    const bool ok = last[l] ? Finish(lu.Lane(l), a, dA, norm_A, st.lambda, st.x, out, right)
                            : Iterate(a, N, dA, norm_A, st, out, right);
    if (!ok) return false;
  }
  return true;
}
#endif

std::atomic<bool> in_lanes{true};

// Refines the real roots `reals` and the pairs' Im > 0 members `uppers` of
// `previous` (each predicted λ + h·dλ/dp) into refined and right; false if
// any is refused. N the order where fixed (4 and 5: the loops unrolled, and
// two roots of a kind at a time (IteratePair) where the lanes are built in;
// 0: any n ≤ kMaxSmallStates, one at a time).
template <int N>
bool RefineWith(const SmallMatrix& A, const SmallMatrix& dA, double norm_A, const RootSet& previous, double h,
                std::span<const Eigen::Index> reals, std::span<const Eigen::Index> uppers,
                std::array<Refined, kMaxSmallStates>& refined, RightVectors& right) {
  constexpr int kCap = N > 0 ? N : kMaxSmallStates;
  const int n = N > 0 ? N : static_cast<int>(A.rows());
  double a[kCap][kCap];
  CopyA(A, n, a);
  auto refine_all = [&]<class S>(std::span<const Eigen::Index> roots, auto&& start) {
    std::size_t q = 0;
#ifdef AEROLIN_REFINE_IN_LANES
    if constexpr (N > 0)
    for (const bool lanes = in_lanes.load(std::memory_order_relaxed); lanes && q + 1 < roots.size(); q += 2) {
      const Eigen::Index i0 = roots[q], i1 = roots[q + 1];
      Iteration<N, S> s0, s1;
      if (!start(i0, s0) || !start(i1, s1)) return false;
      if (!IteratePair(a, dA, norm_A, s0, s1, refined[static_cast<std::size_t>(i0)], right.col(i0),
                       refined[static_cast<std::size_t>(i1)], right.col(i1)))
        return false;
    }
#endif
    for (; q < roots.size(); ++q) {
      Iteration<N, S> st;
      if (!start(roots[q], st) ||
          !Iterate(a, n, dA, norm_A, st, refined[static_cast<std::size_t>(roots[q])], right.col(roots[q])))
        return false;
    }
    return true;
  };
  return refine_all.template operator()<double>(
             reals,
             [&](Eigen::Index i, Iteration<N, double>& st) {
               return Start(previous.values(i).real() + h * previous.slopes(i).real(), previous.vectors.col(i).real(),
                            n, st);
             }) &&
         refine_all.template operator()<cd>(uppers, [&](Eigen::Index i, Iteration<N, cd>& st) {
           return Start(previous.values(i) + h * previous.slopes(i), previous.vectors.col(i), n, st);
         });
}

bool RefineEach(const SmallMatrix& A, const SmallMatrix& dA, double norm_A, const RootSet& previous, double h,
                std::span<const Eigen::Index> reals, std::span<const Eigen::Index> uppers,
                std::array<Refined, kMaxSmallStates>& refined, RightVectors& right) {
  switch (A.rows()) {
    case 4: return RefineWith<4>(A, dA, norm_A, previous, h, reals, uppers, refined, right);
    case 5: return RefineWith<5>(A, dA, norm_A, previous, h, reals, uppers, refined, right);
    default: return RefineWith<0>(A, dA, norm_A, previous, h, reals, uppers, refined, right);
  }
}

// True if the continuation's matching (MatchRoots in tracking.cpp) of
// `previous` to the refined roots pairs previous root i with refined root
// i, unambiguously and whatever the order of the previous roots — given the
// acceptance test's each root moved at most 1/8 of the way from its
// prediction to any other new root. MatchRoots' cost of i → j is
// dᵢⱼ/s + 0.1(1 − oᵢⱼ) (dᵢⱼ the distance from i's prediction to new root j,
// s the largest |λ| of both sets, oᵢⱼ = |vᵢᴴvⱼ| ≤ 1), so cost(i, j) −
// cost(i, i) ≥ (7/8)dᵢⱼ/s − 0.1(1 − oᵢᵢ); where that exceeds 1e-9 for
// every j ≠ i (with s bounded above by |Re| + |Im|, no hypot), the identity
// beats every other assignment by more than 2e-9, far above the 1e-12
// MatchRoots asks for order independence; its ambiguity test (1/4 of the
// gap) passes with a factor 2 to spare; conjugate partners stay exact
// partners; and previous roots more than 2e-9·s apart give each complex
// root exactly one partner.
bool CarriesTheMatch(const RootSet& previous, const std::array<Refined, kMaxSmallStates>& refined,
                     const RightVectors& right, double h) {
  const Eigen::Index n = previous.values.size();
  double s = 1e-9;
  for (Eigen::Index i = 0; i < n; ++i)
    s = std::max({s, Abs1(previous.values(i)), Abs1(refined[static_cast<std::size_t>(i)].lambda)});
  constexpr double kMargin = 1e-9;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (std::norm(previous.values(i) - previous.values(j)) <= (2 * kMargin * s) * (2 * kMargin * s)) return false;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double overlap = std::sqrt(std::norm(previous.vectors.col(i).dot(right.col(i))));
    const double needed = (0.1 * (1.0 - overlap) + kMargin) * s * (8.0 / 7.0);
    const cd predicted = previous.values(i) + h * previous.slopes(i);
    for (Eigen::Index j = 0; j < n; ++j)
      if (j != i && !(std::norm(refined[static_cast<std::size_t>(j)].lambda - predicted) > needed * needed))
        return false;
  }
  return true;
}

}  // namespace

bool RefineRoots(const RootSet& previous, const SmallMatrix& A, const SmallMatrix& dA, double p, RootSet& out) {
  const Eigen::Index n = A.rows();
  if (&out == &previous || n == 0 || n != A.cols() || previous.values.size() != n || previous.vectors.rows() != n ||
      previous.slopes.size() != n || !A.allFinite() || !dA.allFinite())
    return false;
  const double norm_A = A.norm();
  if (!(norm_A > 0)) return false;
  const double h = p - previous.parameter;

  // Each root of the previous point, or each pair's Im > 0 member with its
  // exact conjugate (Decompose and this function both give exact pairs).
  std::array<Refined, kMaxSmallStates> refined;
  RightVectors right(n);
  std::array<bool, kMaxSmallStates> done{};
  std::array<Eigen::Index, kMaxSmallStates> reals{}, uppers{}, lowers{};
  int real_count = 0, pair_count = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto si = static_cast<std::size_t>(i);
    if (done[si]) continue;
    const cd l = previous.values(i);
    done[si] = true;
    if (l.imag() == 0.0) {
      reals[static_cast<std::size_t>(real_count++)] = i;
      continue;
    }
    Eigen::Index k = 0;
    while (k < n && !(k != i && !done[static_cast<std::size_t>(k)] && previous.values(k) == std::conj(l))) ++k;
    if (k == n) return false;
    done[static_cast<std::size_t>(k)] = true;
    uppers[static_cast<std::size_t>(pair_count)] = l.imag() > 0 ? i : k;
    lowers[static_cast<std::size_t>(pair_count++)] = l.imag() > 0 ? k : i;
  }
  if (!RefineEach(A, dA, norm_A, previous, h, std::span(reals).first(static_cast<std::size_t>(real_count)),
                  std::span(uppers).first(static_cast<std::size_t>(pair_count)), refined, right))
    return false;
  for (int q = 0; q < pair_count; ++q) {
    const Eigen::Index upper = uppers[static_cast<std::size_t>(q)], lower = lowers[static_cast<std::size_t>(q)];
    const Refined& r = refined[static_cast<std::size_t>(upper)];
    if (!(r.lambda.imag() > 0)) return false;
    Refined& c = refined[static_cast<std::size_t>(lower)];
    c.lambda = std::conj(r.lambda);
    right.col(lower) = right.col(upper).conjugate();
    c.slope = std::conj(r.slope);
    c.error_bound = r.error_bound;
  }

  // Acceptance: separated roots, none missing, each the obvious continuation
  // of its predecessor.
  cd trace_sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Refined& ri = refined[static_cast<std::size_t>(i)];
    trace_sum += ri.lambda;
    const cd predicted = previous.values(i) + h * previous.slopes(i);
    // Squared distances (std::norm), no hypot: the margins dwarf rounding.
    const double moved2 = std::norm(ri.lambda - predicted);
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i) continue;
      const Refined& rj = refined[static_cast<std::size_t>(j)];
      const double needed = kSeparationFactor * (ri.error_bound + rj.error_bound) + kMinSeparation * norm_A;
      if (!(std::norm(ri.lambda - rj.lambda) > needed * needed)) return false;
      if (!(moved2 <= kIdentityRatio * kIdentityRatio * std::norm(rj.lambda - predicted))) return false;
    }
  }
  if (!core::ModulusAtMost(trace_sum - cd(A.trace()), kTraceTolerance * norm_A * static_cast<double>(n)))
    return false;

  // Decompose's order (a stable insertion sort of n ≤ 8 indices).
  std::array<Eigen::Index, kMaxSmallStates> order{};
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index j = k;
    while (j > 0 && RootBefore(refined[static_cast<std::size_t>(k)].lambda,
                               refined[static_cast<std::size_t>(order[static_cast<std::size_t>(j - 1)])].lambda)) {
      order[static_cast<std::size_t>(j)] = order[static_cast<std::size_t>(j - 1)];
      --j;
    }
    order[static_cast<std::size_t>(j)] = k;
  }
  if (CarriesTheMatch(previous, refined, right, h)) {
    CarriedRoots& c = out.carried ? *out.carried : out.carried.emplace();
    for (Eigen::Index k = 0; k < n; ++k) c.to[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = static_cast<int>(k);
    c.from_parameter = previous.parameter;
    c.from = previous.values;
  } else {
    out.carried.reset();
  }
  out.parameter = p;
  out.values.resize(n);
  out.slopes.resize(n);
  out.vectors.resize(n, n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index i = order[static_cast<std::size_t>(k)];
    const Refined& r = refined[static_cast<std::size_t>(i)];
    out.values(k) = r.lambda;
    out.slopes(k) = r.slope;
    out.vectors.col(k) = right.col(i);
  }
  return true;
}

void RefineRootsInLanes(bool on) { in_lanes.store(on, std::memory_order_relaxed); }

std::optional<RootSet> RefineRoots(const RootSet& previous, const SmallMatrix& A, const SmallMatrix& dA, double p) {
  std::optional<RootSet> out{std::in_place};
  if (!RefineRoots(previous, A, dA, p, *out)) out.reset();
  return out;
}

}  // namespace aerolin::analysis
