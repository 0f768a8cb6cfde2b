#pragma once
/// @file
/// sin and cos of one angle together, from a table of libm's values at the
/// multiples of 1/64 rad and short Taylor series for the rest: the exact
/// slicer's position quadrature needs 20 of them per slice (slicer.cpp).

#include <array>
#include <cmath>
#include <cstddef>

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
    std::array<double, 1> as{a}, ss, cs;
    (*this)(as, ss, cs);
    s = ss[0];
    c = cs[0];
  }

  /// Writes sin aₙ and cos aₙ of N angles (a [rad]); the same values one by
  /// one would give, with the series for all N in one loop the compiler
  /// vectorizes.
  template <std::size_t N>
  void operator()(const std::array<double, N>& a, std::array<double, N>& s, std::array<double, N>& c) const {
    std::array<double, N> d, table_s, table_c;
    bool in_range = true;
    for (std::size_t n = 0; n < N; ++n) in_range &= std::abs(a[n]) <= kRange;  // false for NaN
    if (in_range) {
      std::array<double, N> k;
      for (std::size_t n = 0; n < N; ++n) {
        k[n] = Nearest(a[n]);
        d[n] = a[n] - k[n] * kStep;
      }
      for (std::size_t n = 0; n < N; ++n) {
        const Entry& e = entries_[static_cast<int>(k[n]) + kHalf];
        table_s[n] = e.s;
        table_c[n] = e.c;
      }
    } else {
      for (std::size_t n = 0; n < N; ++n) {
        if (!(std::abs(a[n]) <= kRange)) {  // libm's; the series' terms 0
          d[n] = 0.0;
          table_s[n] = std::sin(a[n]);
          table_c[n] = std::cos(a[n]);
          continue;
        }
        const double k = Nearest(a[n]);
        d[n] = a[n] - k * kStep;
        const Entry& e = entries_[static_cast<int>(k) + kHalf];
        table_s[n] = e.s;
        table_c[n] = e.c;
      }
    }
    for (std::size_t n = 0; n < N; ++n) {
      const double d2 = d[n] * d[n];
      const double sin_d = d[n] * (1.0 + d2 * (-1.0 / 6.0 + d2 * (1.0 / 120.0)));
      const double cos_d_minus_1 = d2 * (-0.5 + d2 * (1.0 / 24.0 + d2 * (-1.0 / 720.0)));
      s[n] = table_s[n] + (table_s[n] * cos_d_minus_1 + table_c[n] * sin_d);
      c[n] = table_c[n] + (table_c[n] * cos_d_minus_1 - table_s[n] * sin_d);
    }
  }

 private:
  SinCosTable();
  // The table index of a, |a| ≤ kRange: a·64 rounded to an integer (adding
  // and subtracting 1.5·2⁵² leaves the nearest, |a·64| ≤ 512 ≪ 2⁵¹); exact,
  // as is δ = a − k/64.
  static double Nearest(double a) {
    constexpr double kRound = 6755399441055744.0;
    return (a * (1.0 / kStep) + kRound) - kRound;
  }
  static constexpr int kHalf = static_cast<int>(kRange / kStep);  // 512
  struct Entry {
    double s, c;
  };
  std::array<Entry, 2 * kHalf + 1> entries_;
};

}  // namespace aerolin::sim
