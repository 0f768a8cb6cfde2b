#include "aerolin/analysis/root_refinement.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>

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
      for (int i = k + 1; i < n; ++i) {
        const S l = Mul(lu[i][k], inverse[k]);
        lu[i][k] = l;
        for (int j = k + 1; j < n; ++j) lu[i][j] -= Mul(l, lu[k][j]);
      }
    }
    return true;
  }
  // y = (A − λI)⁻¹ b.
  void Solve(const S* b, S* y) const {
    for (int i = 0; i < n; ++i) {
      S t = b[perm[i]];
      for (int j = 0; j < i; ++j) t -= Mul(lu[i][j], y[j]);
      y[i] = t;
    }
    for (int i = n - 1; i >= 0; --i) {
      S t = y[i];
      for (int j = i + 1; j < n; ++j) t -= Mul(lu[i][j], y[j]);
      y[i] = Mul(t, inverse[i]);
    }
  }
  // w = (A − λI)⁻ᴴ b: (P M)ᴴ = Uᴴ Lᴴ, so Uᴴ z = b, Lᴴ t = z, w = Pᵀ t.
  void SolveAdjoint(const S* b, S* w) const {
    S z[kCap];
    for (int i = 0; i < n; ++i) {
      S t = b[i];
      for (int j = 0; j < i; ++j) t -= ConjMul(lu[j][i], z[j]);
      z[i] = Mul(t, Conj(inverse[i]));
    }
    for (int i = n - 1; i >= 0; --i) {
      S t = z[i];
      for (int j = i + 1; j < n; ++j) t -= ConjMul(lu[j][i], z[j]);
      z[i] = t;
    }
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

// Refines the root predicted at `lambda` with right vector `x0`, with
// scalar S (double for a real root, complex for a pair's Im > 0 member), N
// the order where fixed (4 and 5: the loops unrolled; 0: any n ≤
// kMaxSmallStates).
template <int N, class S, class V>
bool Refine(const SmallMatrix& A, const SmallMatrix& dA, S lambda, const V& x0, double norm_A, Refined& out,
            Eigen::Map<Eigen::VectorXcd> right) {
  constexpr int kCap = Iteration<N, S>::kCap;
  const int n = N > 0 ? N : static_cast<int>(A.rows());
  Iteration<N, S> st;
  if (!Start(lambda, x0, n, st)) return false;
  double a[kCap][kCap];
  CopyA(A, n, a);
  return Iterate(a, n, dA, norm_A, st, out, right);
}

template <class S, class V>
bool RefineAny(const SmallMatrix& A, const SmallMatrix& dA, S lambda, const V& x0, double norm_A, Refined& out,
               Eigen::Map<Eigen::VectorXcd> right) {
  switch (A.rows()) {
    case 4: return Refine<4>(A, dA, lambda, x0, norm_A, out, right);
    case 5: return Refine<5>(A, dA, lambda, x0, norm_A, out, right);
    default: return Refine<0>(A, dA, lambda, x0, norm_A, out, right);
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
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto si = static_cast<std::size_t>(i);
    if (done[si]) continue;
    const cd l = previous.values(i);
    if (l.imag() == 0.0) {
      Refined& r = refined[si];
      const double predicted = l.real() + h * previous.slopes(i).real();
      if (!RefineAny(A, dA, predicted, previous.vectors.col(i).real(), norm_A, r, right.col(i))) return false;
      done[si] = true;
      continue;
    }
    Eigen::Index k = 0;
    while (k < n && !(k != i && !done[static_cast<std::size_t>(k)] && previous.values(k) == std::conj(l))) ++k;
    if (k == n) return false;
    const auto sk = static_cast<std::size_t>(k);
    const Eigen::Index upper = l.imag() > 0 ? i : k, lower = upper == i ? k : i;
    Refined& r = refined[static_cast<std::size_t>(upper)];
    const cd predicted = previous.values(upper) + h * previous.slopes(upper);
    if (!RefineAny(A, dA, predicted, previous.vectors.col(upper), norm_A, r, right.col(upper))) return false;
    if (!(r.lambda.imag() > 0)) return false;
    Refined& c = refined[static_cast<std::size_t>(lower)];
    c.lambda = std::conj(r.lambda);
    right.col(lower) = right.col(upper).conjugate();
    c.slope = std::conj(r.slope);
    c.error_bound = r.error_bound;
    done[si] = done[sk] = true;
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

std::optional<RootSet> RefineRoots(const RootSet& previous, const SmallMatrix& A, const SmallMatrix& dA, double p) {
  std::optional<RootSet> out{std::in_place};
  if (!RefineRoots(previous, A, dA, p, *out)) out.reset();
  return out;
}

}  // namespace aerolin::analysis
