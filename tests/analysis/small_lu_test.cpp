// SmallLu against Eigen's PartialPivLU, bit for bit: the factors, the
// pivots and both solves, on random complex and real matrices of the sizes
// root refinement uses (fixed 4 and 5, dynamic up to 8) and on the ones that
// test a pivot search: equal moduli with different parts (3 + 4i against 5),
// moduli one ulp apart, zero columns, subnormal, huge and mixed magnitudes,
// exactly singular matrices.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "aerolin/analysis/small_lu.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;

template <class T>
bool SameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Equal to the bit, or both NaN in the same parts (a NaN's payload is not
// compared).
bool Same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || SameBits(a, b); }
bool Same(cd a, cd b) { return Same(a.real(), b.real()) && Same(a.imag(), b.imag()); }

template <class M>
std::string Describe(const M& m) {
  std::ostringstream s;
  s.precision(17);
  s << m;
  return s.str();
}

// Compares SmallLu with PartialPivLU on `a`, solving for `b`; returns "" or
// what differs.
template <class Matrix>
std::string Compare(const Matrix& a) {
  using Vector = Eigen::Matrix<typename Matrix::Scalar, Matrix::RowsAtCompileTime, 1, Eigen::ColMajor,
                               Matrix::MaxRowsAtCompileTime, 1>;
  const Eigen::Index n = a.rows();
  Eigen::PartialPivLU<Matrix> reference(n);
  reference.compute(a);
  SmallLu<Matrix> lu(n);
  lu.compute(a);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i)
      if (!Same(lu.matrixLU()(i, j), reference.matrixLU()(i, j)))
        return "LU(" + std::to_string(i) + "," + std::to_string(j) + ") of\n" + Describe(a);
  for (Eigen::Index i = 0; i < n; ++i)
    if (lu.permutationP().indices()(i) != reference.permutationP().indices()(i))
      return "pivot " + std::to_string(i) + " of\n" + Describe(a);
  Vector b(n);
  for (Eigen::Index i = 0; i < n; ++i) b(i) = a(i, (i + 1) % n) + typename Matrix::Scalar(1.0 + static_cast<double>(i));
  const Vector x = lu.solve(b), x_ref = reference.solve(b);
  const Vector w = lu.adjoint().solve(b), w_ref = reference.adjoint().solve(b);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (!Same(x(i), x_ref(i))) return "solve " + std::to_string(i) + " of\n" + Describe(a);
    if (!Same(w(i), w_ref(i))) return "adjoint solve " + std::to_string(i) + " of\n" + Describe(a);
  }
  return "";
}

// A random part: 0 sometimes, else a magnitude 10^[lo, hi] with either sign.
struct Parts {
  std::mt19937_64 rng{20261127};
  double Part(double lo, double hi) {
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_real_distribution<double> e(lo, hi), sign(-1.0, 1.0);
    if (kind(rng) == 0) return 0.0;
    return (sign(rng) < 0 ? -1.0 : 1.0) * std::pow(10.0, e(rng));
  }
  cd Entry(double lo, double hi) { return {Part(lo, hi), Part(lo, hi)}; }
};

template <class Matrix>
void RandomMatrices(Eigen::Index n, int count, double lo, double hi, Parts& parts) {
  for (int c = 0; c < count; ++c) {
    Matrix a(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<typename Matrix::Scalar, cd>)
          a(i, j) = parts.Entry(lo, hi);
        else
          a(i, j) = parts.Part(lo, hi);
      }
    const std::string diff = Compare(a);
    ASSERT_EQ(diff, "") << "n = " << n << ", magnitudes 1e" << lo << "..1e" << hi;
  }
}

using C4 = Eigen::Matrix<cd, 4, 4>;
using C5 = Eigen::Matrix<cd, 5, 5>;
using CDynamic = Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 8, 8>;
using R4 = Eigen::Matrix<double, 4, 4>;
using R5 = Eigen::Matrix<double, 5, 5>;
using RDynamic = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 8, 8>;

// Magnitudes 10^[lo, hi] of the random matrices' parts: moderate, wide,
// the whole range, subnormal-adjacent and huge (squares overflow).
constexpr std::pair<double, double> kMagnitudes[] = {{-1.0, 1.0}, {-8.0, 8.0}, {-300.0, 300.0}, {-320.0, -300.0},
                                                     {150.0, 160.0}};

// Fixed 4 and 5 and dynamic 1..8, each range of magnitudes.
template <class Fixed4, class Fixed5, class Dynamic>
void AllSizes(Parts& parts) {
  for (const auto& [lo, hi] : kMagnitudes) {
    RandomMatrices<Fixed4>(4, 20000, lo, hi, parts);
    RandomMatrices<Fixed5>(5, 10000, lo, hi, parts);
    for (Eigen::Index n = 1; n <= 8; ++n) RandomMatrices<Dynamic>(n, 2000, lo, hi, parts);
  }
}

TEST(SmallLu, RandomComplexMatricesArePartialPivLUsBitForBit) {
  Parts parts;
  AllSizes<C4, C5, CDynamic>(parts);
}

TEST(SmallLu, RealMatricesArePartialPivLUsBitForBit) {
  Parts parts;
  AllSizes<R4, R5, RDynamic>(parts);
}

// Columns whose candidates tie or nearly tie in modulus: the pivot must be
// the first of equal moduli (3 + 4i, 4 − 3i, −5, 5i all have modulus 5 with
// different squares' rounding) and the larger of moduli an ulp apart.
TEST(SmallLu, PivotsAmongEqualAndNearlyEqualModuli) {
  const cd five[] = {{3, 4}, {4, -3}, {-5, 0}, {0, 5}, {-3, -4}, {5, 0}};
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> pick(0, 5), coin(0, 3);
  const double ulp = std::nextafter(5.0, 6.0);
  for (int c = 0; c < 20000; ++c) {
    C4 a;
    for (Eigen::Index j = 0; j < 4; ++j)
      for (Eigen::Index i = 0; i < 4; ++i) {
        cd z = five[pick(rng)];
        if (coin(rng) == 0) z *= ulp / 5.0;  // a modulus an ulp or so above 5
        if (coin(rng) == 0) z = cd(std::nextafter(z.real(), 10.0), z.imag());
        if (coin(rng) == 0) z *= 1e-160;     // squares below the normal range
        a(i, j) = z;
      }
    ASSERT_EQ(Compare(a), "");
  }
}

// Real columns full of ties (entries from −2..2): the first of equal |·|.
TEST(SmallLu, RealPivotsAmongTies) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int> entry(-2, 2);
  for (int c = 0; c < 20000; ++c) {
    R4 a;
    for (Eigen::Index i = 0; i < 16; ++i) a(i) = entry(rng);
    ASSERT_EQ(Compare(a), "");
    R5 b;
    for (Eigen::Index i = 0; i < 25; ++i) b(i) = 0.5 * entry(rng);
    ASSERT_EQ(Compare(b), "");
  }
}

TEST(SmallLu, SingularAndZeroColumnsAsPartialPivLU) {
  C4 a = C4::Zero();
  EXPECT_EQ(Compare(a), "");
  a << cd(1, 2), cd(0, 0), cd(3, 0), cd(1, 1),  //
      cd(2, 4), cd(0, 0), cd(-1, 0), cd(0, 1),  //
      cd(0, 0), cd(0, 0), cd(2, 2), cd(1, 0),   //
      cd(-1, -2), cd(0, 0), cd(5, 0), cd(2, 0);
  EXPECT_EQ(Compare(a), "");  // a zero column: no division, the update still runs
  a.col(1) = a.col(0) * cd(2, -1);
  EXPECT_EQ(Compare(a), "");  // two dependent columns: an exact zero pivot
  a(0, 0) = cd(-0.0, 0.0);
  a(1, 0) = cd(0.0, -0.0);
  a(2, 0) = cd(-0.0, -0.0);
  a(3, 0) = cd(0.0, 0.0);
  EXPECT_EQ(Compare(a), "");  // signed zeros in the zero column
}

// The comparison itself can fail: an entry one ulp off is seen in the
// factors; and the pivot is the largest modulus, not the largest real part.
TEST(SmallLu, TheBitComparisonSeesAnUlp) {
  C4 a;
  a << cd(1, 0), cd(2, 0), cd(3, 0), cd(4, 0),  //
      cd(0.5, 3), cd(1, 1), cd(2, 0), cd(1, 0),  //
      cd(2, 0), cd(0, 1), cd(1, 1), cd(3, 0),    //
      cd(0, 0), cd(1, 0), cd(0, 2), cd(1, 1);
  SmallLu<C4> lu(4);
  lu.compute(a);
  EXPECT_TRUE(SameBits(lu.matrixLU()(0, 0), a(1, 0)));  // |0.5 + 3i| is column 0's largest
  C4 off = a;
  off(3, 3) = cd(std::nextafter(1.0, 2.0), 1.0);
  const Eigen::PartialPivLU<C4> moved(off);
  bool differs = false;
  for (Eigen::Index i = 0; i < 16; ++i) differs = differs || !Same(lu.matrixLU()(i), moved.matrixLU()(i));
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace aerolin::analysis
