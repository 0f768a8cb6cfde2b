#pragma once
/// @file
/// Complex arithmetic for hot loops: the values and decisions of the standard
/// library's, bit for bit, without its out-of-line calls where they can be
/// avoided.
///  - ModulusGreater(a, b) is std::abs(a) > std::abs(b) and ModulusAtMost(z,
///    bound) is std::abs(z) <= bound, decided from the squared moduli where
///    those differ by more than any rounding could (a relative 1e-12, against
///    a few units of round-off in the squares and ≤ 1 ulp in hypot), by
///    std::abs (hypot) where they do not, or where a square could overflow or
///    lose its precision to underflow. CompareModuli(a, b) is the sign of
///    std::abs(a) − std::abs(b) (as `x != y ? (x > y ? 1 : -1) : 0`) by the
///    same rule, and 0 without a hypot where the parts have equal magnitudes
///    (a conjugate pair: hypot depends on the parts' magnitudes alone).
///  - Modulus(z) is std::abs(z), its hypot skipped where a part is 0 (hypot
///    is then the other part's magnitude, exactly): a real root's |λ|.
///  - WithinScaledBound(im, k, above, scale) is |im| <= k·max(scale(), 1),
///    scale() (a hypot) formed only where im and an upper bound of it do not
///    decide: a root's "is it real" test.
///  - Quotient(a, b) is a / b as GCC's std::complex<double> division gives it:
///    libgcc's __divdc3 (GCC 12: Smith's method, with scaling of extreme
///    operands and a recovery of infinities), computed inline where every
///    part of both operands is 0 or of magnitude in [2⁻²⁵⁰, 2²⁵⁰] and the
///    divisor is not 0. There __divdc3's scalings (by 2⁵² or ½, exact)
///    change no rounding, since every product and sum it forms stays normal
///    (or is 0), and its recovery of infinities is not reached, so the same
///    operations in the same order give the same bits. Elsewhere, and with
///    other compilers (whose runtimes divide otherwise), the division itself.
/// Checked against std::abs and operator/ on millions of operands of every
/// magnitude, zeros, subnormals and non-finite values
/// (tests/core/complex_arithmetic_test.cpp).

#include <algorithm>
#include <cmath>
#include <complex>

namespace aerolin::core {

namespace complex_arithmetic_detail {

// The squared moduli decide when they are finite, the larger at least 2⁻⁹⁰⁰
// (so its error is relative, a smaller one's absolute error being below
// 2⁻¹⁰⁷³), and they differ by more than this relative margin.
inline constexpr double kMargin = 1e-12;
inline constexpr double kLowest = 0x1p-900;
// Quotient's inline range: each part 0 or of magnitude in [kTameLowest, kTameHighest].
inline constexpr double kTameLowest = 0x1p-250, kTameHighest = 0x1p250;

inline double SquaredModulus(std::complex<double> z) { return z.real() * z.real() + z.imag() * z.imag(); }

// 0 or a magnitude in [2⁻²⁵⁰, 2²⁵⁰] (false for NaN and ±inf).
inline bool Tame(double x) {
  const double a = std::fabs(x);
  return a == 0.0 || (a >= kTameLowest && a <= kTameHighest);
}

// 1 if |a| > |b| and -1 if |a| < |b| where the squared moduli decide (see
// above), 0 where they do not.
inline int SquaresDecide(std::complex<double> a, std::complex<double> b) {
  const double A = SquaredModulus(a), B = SquaredModulus(b);
  if (std::isfinite(A) && std::isfinite(B) && std::max(A, B) >= kLowest) {
    if (A > B * (1.0 + kMargin)) return 1;
    if (A < B * (1.0 - kMargin)) return -1;
  }
  return 0;
}

}  // namespace complex_arithmetic_detail

/// std::abs(a) > std::abs(b), exactly as computed by std::abs.
inline bool ModulusGreater(std::complex<double> a, std::complex<double> b) {
  if (const int decided = complex_arithmetic_detail::SquaresDecide(a, b)) return decided > 0;
  return std::abs(a) > std::abs(b);
}

/// std::abs(z) <= bound, exactly as computed by std::abs.
inline bool ModulusAtMost(std::complex<double> z, double bound) {
  using namespace complex_arithmetic_detail;
  const double N = SquaredModulus(z), T = bound * bound;
  if (bound >= 0.0 && std::isfinite(N) && std::isfinite(T) && std::max(N, T) >= kLowest) {
    if (N > T * (1.0 + kMargin)) return false;
    if (N < T * (1.0 - kMargin)) return true;
  }
  return std::abs(z) <= bound;
}

/// std::abs(z), bit for bit.
inline double Modulus(std::complex<double> z) {
  if (z.imag() == 0.0) return std::fabs(z.real());
  if (z.real() == 0.0) return std::fabs(z.imag());
  return std::abs(z);
}

/// With x = std::abs(a) and y = std::abs(b): x != y ? (x > y ? 1 : -1) : 0.
inline int CompareModuli(std::complex<double> a, std::complex<double> b) {
  if (std::fabs(a.real()) == std::fabs(b.real()) && std::fabs(a.imag()) == std::fabs(b.imag())) return 0;
  if (const int decided = complex_arithmetic_detail::SquaresDecide(a, b)) return decided;
  const double x = std::abs(a), y = std::abs(b);
  return x != y ? (x > y ? 1 : -1) : 0;
}

/// |im| <= k·max(s, 1) for k > 0 and a scale s ≥ 0 (a modulus, or the
/// largest of several) given by scale() and known to be at most `above`:
/// decided by im and `above` where they can (im = 0 is within; |im| above
/// k·max(above, 1) is not, the bound not decreasing with s), scale() formed
/// (a hypot, say) only where they cannot or `above` is not finite (pass
/// infinity where the scale may be NaN: a non-finite root).
template <class Scale>
bool WithinScaledBound(double im, double k, double above, Scale scale) {
  const double magnitude = std::fabs(im);
  if (std::isfinite(above)) {
    if (magnitude == 0.0) return true;
    if (magnitude > k * std::max(above, 1.0)) return false;
  }
  return magnitude <= k * std::max(scale(), 1.0);
}

/// a / b, bit for bit as std::complex<double>'s operator/ gives it.
inline std::complex<double> Quotient(std::complex<double> a, std::complex<double> b) {
#if defined(__GNUC__) && !defined(__clang__)
  using complex_arithmetic_detail::Tame;
  const double ar = a.real(), ai = a.imag(), c = b.real(), d = b.imag();
  if (Tame(ar) && Tame(ai) && Tame(c) && Tame(d) && (c != 0.0 || d != 0.0)) {
    // Where the divisor's smaller part is 0 the ratio is ±0 and __divdc3
    // takes its second form (c (a/d) + b and the like): its products are
    // then zeros of the same sign as these, so the values are the same.
    if (std::fabs(c) < std::fabs(d)) {
      const double ratio = c / d, denom = c * ratio + d;
      return {(ar * ratio + ai) / denom, (ai * ratio - ar) / denom};
    }
    const double ratio = d / c, denom = d * ratio + c;
    return {(ai * ratio + ar) / denom, (ai - ar * ratio) / denom};
  }
#endif
  return a / b;
}

}  // namespace aerolin::core
