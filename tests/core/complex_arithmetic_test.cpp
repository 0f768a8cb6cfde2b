#include "aerolin/core/complex_arithmetic.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace aerolin::core {
namespace {

using cd = std::complex<double>;

// The same bits, NaN payloads aside (any NaN equals any NaN).
bool SameBits(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) || std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
}

// Doubles of every kind: zeros of both signs, subnormals, tiny, ordinary,
// huge, infinities and NaN, and values with the same magnitude as another.
class Operands {
 public:
  explicit Operands(unsigned seed) : rng_(seed) {}
  double Next() {
    const double sign = coin_(rng_) ? -1.0 : 1.0;
    switch (kind_(rng_)) {
      case 0: return sign * 0.0;
      case 1: return sign * std::numeric_limits<double>::denorm_min() * static_cast<double>(1 + small_(rng_));
      case 2: return sign * std::ldexp(unit_(rng_), exponent_(rng_));  // any magnitude
      case 3: return sign * std::ldexp(unit_(rng_), ordinary_(rng_));    // 2⁻³⁰..2³⁰
      case 4: return sign * std::numeric_limits<double>::infinity();
      case 5: return std::numeric_limits<double>::quiet_NaN();
      case 6: return sign * std::ldexp(1.0, ordinary_(rng_));           // powers of 2: ties
      default: return sign * std::ldexp(unit_(rng_), edge_(rng_));      // near 2^±250, 2^±500
    }
  }

 private:
  std::mt19937_64 rng_;
  std::bernoulli_distribution coin_{0.5};
  std::discrete_distribution<int> kind_{{2, 1, 10, 30, 1, 1, 4, 6}};
  std::uniform_int_distribution<int> small_{0, 1000}, exponent_{-1080, 1030}, ordinary_{-30, 30};
  std::uniform_int_distribution<int> edge_{-260, -240};
  std::uniform_real_distribution<double> unit_{0.5, 1.0};
};

TEST(ComplexArithmetic, QuotientIsTheLibraryDivisionBitForBit) {
  Operands next(20261127);
  std::size_t inline_cases = 0;
  for (int i = 0; i < 2'000'000; ++i) {
    const cd a(next.Next(), next.Next()), b(next.Next(), next.Next());
    const cd ours = Quotient(a, b), theirs = a / b;
    ASSERT_TRUE(SameBits(ours.real(), theirs.real()) && SameBits(ours.imag(), theirs.imag()))
        << "(" << a << ") / (" << b << "): " << ours << " vs " << theirs;
    const auto tame = [](double x) { return x == 0.0 || (std::fabs(x) >= 0x1p-250 && std::fabs(x) <= 0x1p250); };
    inline_cases += tame(a.real()) && tame(a.imag()) && tame(b.real()) && tame(b.imag()) && b != 0.0;
  }
  // Most operands took the inline path (the test checks it, not the call).
  EXPECT_GT(inline_cases, 500'000u);
}

TEST(ComplexArithmetic, QuotientOfOrdinaryOperandsAcrossTheScalingThresholds) {
  // __divdc3 scales by 2⁵² a divisor part below DBL_EPSILON and operands
  // with a zero or tiny part; inline, no scaling: the same bits.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-250, 249);
  for (int i = 0; i < 1'000'000; ++i) {
    const double s = std::ldexp(1.0, exponent(rng));
    const cd a(i % 5 == 0 ? 0.0 : unit(rng) * s, i % 7 == 0 ? -0.0 : unit(rng));
    // A divisor with a zero part: __divdc3's second form of each branch.
    const cd b(i % 3 == 0 ? 0.0 : unit(rng) * std::ldexp(1.0, exponent(rng)),
               i % 11 == 0 ? -0.0 : unit(rng) * std::ldexp(1.0, exponent(rng)));
    const cd ours = Quotient(a, b), theirs = a / b;
    ASSERT_TRUE(SameBits(ours.real(), theirs.real()) && SameBits(ours.imag(), theirs.imag()))
        << "(" << a << ") / (" << b << "): " << ours << " vs " << theirs;
  }
}

// (And Modulus, CompareModuli and WithinScaledBound against the formulas with std::abs.)
TEST(ComplexArithmetic, ModulusComparisonsAreStdAbsDecisions) {
  Operands next(42);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> wiggle(-4e-16, 4e-16);
  std::size_t near_ties = 0;
  for (int i = 0; i < 2'000'000; ++i) {
    const cd a(next.Next(), next.Next());
    cd b(next.Next(), next.Next());
    if (i % 4 == 0) {  // |b| within a few ulp of |a|: the hypot fallback
      b = a * std::polar(1.0 + wiggle(rng), 0.3 * i);
      ++near_ties;
    }
    ASSERT_EQ(ModulusGreater(a, b), std::abs(a) > std::abs(b)) << a << " vs " << b;
    ASSERT_EQ(ModulusGreater(b, a), std::abs(b) > std::abs(a)) << b << " vs " << a;
    const double x = std::abs(a), y = std::abs(b);
    ASSERT_TRUE(SameBits(Modulus(a), x)) << a;
    ASSERT_TRUE(SameBits(Modulus(cd(a.real(), 0.0)), std::abs(cd(a.real(), 0.0)))) << a;
    ASSERT_TRUE(SameBits(Modulus(cd(-0.0, a.imag())), std::abs(cd(-0.0, a.imag())))) << a;
    ASSERT_EQ(CompareModuli(a, b), x != y ? (x > y ? 1 : -1) : 0) << a << " vs " << b;
    for (const double k : {1e-6, 1e-12}) {  // a root's real test, the scale bounded by 2(|Re| + |Im|)
      const double parts = std::fabs(a.real()) + std::fabs(a.imag());
      const double above = std::isfinite(parts) ? 2 * parts : std::numeric_limits<double>::infinity();
      ASSERT_EQ(WithinScaledBound(a.imag(), k, above, [&] { return x; }),
                std::fabs(a.imag()) <= k * std::max(x, 1.0))
          << a << " k = " << k;
    }
    const double xc = std::abs(std::conj(a));  // a conjugate: the parts' magnitudes equal
    ASSERT_EQ(CompareModuli(std::conj(a), a), xc != x ? (xc > x ? 1 : -1) : 0) << a;
    const double bound = std::abs(b) * (1.0 + wiggle(rng));
    ASSERT_EQ(ModulusAtMost(a, bound), std::abs(a) <= bound) << a << " vs " << bound;
    ASSERT_EQ(ModulusAtMost(a, std::abs(a)), std::abs(a) <= std::abs(a)) << a;
  }
  EXPECT_GT(near_ties, 400'000u);
}

TEST(ComplexArithmetic, ModulusComparisonsOfEqualModuli) {
  // Exact ties both ways round: neither greater, each at most the other.
  const std::vector<cd> z = {{3.0, 4.0}, {4.0, -3.0}, {-5.0, 0.0}, {0.0, 5.0}};
  for (const cd& a : z)
    for (const cd& b : z) {
      EXPECT_FALSE(ModulusGreater(a, b)) << a << " " << b;
      EXPECT_EQ(CompareModuli(a, b), 0) << a << " " << b;
      EXPECT_TRUE(ModulusAtMost(a, std::abs(b))) << a << " " << b;
    }
  EXPECT_FALSE(ModulusGreater(cd(0.0, 0.0), cd(-0.0, 0.0)));
  EXPECT_TRUE(ModulusGreater(cd(1e-300, 0.0), cd(0.0, 0.0)));
  EXPECT_TRUE(ModulusGreater(cd(1e200, 1e200), cd(1e200, 0.0)));  // squares overflow: hypot decides
  EXPECT_EQ(CompareModuli(cd(1e200, 1e200), cd(1e200, 0.0)), 1);
  EXPECT_EQ(CompareModuli(cd(1e200, 0.0), cd(-1e200, -1e200)), -1);
  EXPECT_EQ(CompareModuli(cd(-2.5, 0.1), cd(2.5, -0.1)), 0);  // a conjugate pair, negated: no hypot needed
}

}  // namespace
}  // namespace aerolin::core
