#include "aerolin/sim/sincos_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace aerolin::sim {
namespace {

// The header's bound, 2 ulp(|f(a)| + 1/128) for f = sin, cos, against long
// double (x87: 64-bit significand, so its sinl/cosl are ~2¹¹ times finer
// than the doubles compared).
double Bound(long double exact) {
  const double x = static_cast<double>(std::abs(exact)) + SinCosTable::kStep / 2.0;
  return 2.0 * (std::nextafter(x, 1e300) - x);
}

void ExpectWithinBound(double a) {
  double s = 0.0, c = 0.0;
  SinCosTable::Get()(a, s, c);
  const long double sl = std::sin(static_cast<long double>(a)), cl = std::cos(static_cast<long double>(a));
  ASSERT_LE(std::abs(static_cast<long double>(s) - sl), Bound(sl)) << "sin " << a;
  ASSERT_LE(std::abs(static_cast<long double>(c) - cl), Bound(cl)) << "cos " << a;
}

std::vector<double> Angles() {
  std::vector<double> a;
  // Every table angle, the half-way points (ties round to even), and their
  // neighbours one ulp either side; the range's ends; tiny and zero angles.
  for (int k = -512; k <= 512; ++k)
    for (const double base : {k / 64.0, (k + 0.5) / 64.0})
      for (const double x : {base, std::nextafter(base, -1e9), std::nextafter(base, 1e9)}) a.push_back(x);
  for (const double x : {0.0, -0.0, 1e-300, -1e-300, 5e-324, 1e-9, -1e-9, 1.0 / 128.0, 3.0 / 256.0})
    a.push_back(x);
  std::mt19937 rng(22);
  std::uniform_real_distribution<double> in_range(-SinCosTable::kRange, SinCosTable::kRange);
  for (int i = 0; i < 200000; ++i) a.push_back(in_range(rng));
  return a;
}

TEST(SinCosTable, WithinTwoUlpOfTheLongDoubleValues) {
  for (const double a : Angles()) ExpectWithinBound(a);
}

// Not a vacuous bound: 2 ulp of 1 for values near ±1, and far below an ulp
// of 1 for values near 0 (where an absolute error of u would break it).
TEST(SinCosTable, TheBoundIsTwoUlp) {
  EXPECT_EQ(Bound(1.0L), 2.0 * std::numeric_limits<double>::epsilon());
  EXPECT_EQ(Bound(0.0L), std::ldexp(1.0, -58));
}

// Beyond the table, and for non-finite angles, libm's values themselves.
TEST(SinCosTable, BeyondTheRangeIsLibm) {
  for (const double a : {std::nextafter(SinCosTable::kRange, 1e9), -std::nextafter(SinCosTable::kRange, 1e9), 12.3,
                         -1e6, 1e300}) {
    double s = 0.0, c = 0.0;
    SinCosTable::Get()(a, s, c);
    EXPECT_EQ(s, std::sin(a)) << a;
    EXPECT_EQ(c, std::cos(a)) << a;
  }
  for (const double a : {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    double s = 0.0, c = 0.0;
    SinCosTable::Get()(a, s, c);
    EXPECT_TRUE(std::isnan(s) && std::isnan(c)) << a;
  }
}

}  // namespace
}  // namespace aerolin::sim
