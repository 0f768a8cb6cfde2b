#pragma once
/// @file
/// sin and cos of one angle together, from a table of libm's values at the
/// multiples of 1/64 rad and short Taylor series for the rest: the exact
/// slicer's position quadrature needs 20 of them per slice (slicer.cpp).

#include <array>
#include <cmath>

namespace aerolin::sim {

/// sin a and cos a from the nearest table angle a_k = k/64 rad:
///   sin a = S_k + (S_k (cos δ − 1) + C_k sin δ),
///   cos a = C_k + (C_k (cos δ − 1) − S_k sin δ),  δ = a − a_k, |δ| ≤ 1/128,
/// with S_k, C_k libm's sin and cos of a_k and sin δ, cos δ − 1 by their
/// Taylor series to δ⁵ and δ⁶.
///
/// Error. δ is exact (a·64 and its rounding k are exact; a and a_k are within
/// a factor 2 of each other unless k = 0, so a − a_k is exact by Sterbenz'
/// lemma). Both series alternate with decreasing terms, so their truncation
/// is below the first omitted term: |δ|⁷/7! ≤ 3.5e-19 and |δ|⁸/8! ≤ 3.4e-22,
/// ≤ 0.004 u (u = 2⁻⁵³ ≈ 1.1e-16). The correction in parentheses is ≤ 1/128
/// and rounds to ≤ ~3 u of that (0.03 u); the last addition rounds to ½ ulp
/// of the result; S_k and C_k carry libm's error (< 1 ulp). So each result
/// is within 1.5 ulp of max(|result|, |S_k| or |C_k|) + 0.04 u of the true
/// value, and |S_k| ≤ |sin a| + 1/128: within 2 ulp(|sin a| + 1/128)
/// (tests/sim/sincos_table_test.cpp checks it against long double).
/// Beyond |a| ≤ kRange, and for a non-finite a, libm's sin and cos.
class SinCosTable {
 public:
  static constexpr double kStep = 1.0 / 64.0;  ///< table spacing [rad]
  static constexpr double kRange = 8.0;        ///< largest |a| tabulated [rad]

  /// The one table (2 × 1025 values, built on first use).
  static const SinCosTable& Get();

  /// Writes sin a and cos a (a [rad]).
  void operator()(double a, double& s, double& c) const {
    if (!(std::abs(a) <= kRange)) {
      s = std::sin(a);
      c = std::cos(a);
      return;
    }
    // Round a·64 to an integer: adding and subtracting 1.5·2⁵² leaves the
    // nearest integer (|a·64| ≤ 512 ≪ 2⁵¹); exact, as is δ.
    constexpr double kRound = 6755399441055744.0;
    const double n = (a * (1.0 / kStep) + kRound) - kRound;
    const double d = a - n * kStep;
    const Entry& e = entries_[static_cast<int>(n) + kHalf];
    const double d2 = d * d;
    const double sin_d = d * (1.0 + d2 * (-1.0 / 6.0 + d2 * (1.0 / 120.0)));
    const double cos_d_minus_1 = d2 * (-0.5 + d2 * (1.0 / 24.0 + d2 * (-1.0 / 720.0)));
    s = e.s + (e.s * cos_d_minus_1 + e.c * sin_d);
    c = e.c + (e.c * cos_d_minus_1 - e.s * sin_d);
  }

 private:
  SinCosTable();
  static constexpr int kHalf = static_cast<int>(kRange / kStep);  // 512
  struct Entry {
    double s, c;
  };
  std::array<Entry, 2 * kHalf + 1> entries_;
};

}  // namespace aerolin::sim
