#include "aerolin/core/same_bits.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

#include <Eigen/Core>

namespace aerolin::core {
namespace {

TEST(SameBits, SeesEveryBitAndTheShape) {
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 8, 8> a(3, 2), b(3, 2);
  a << 1, 2, 3, 4, 5, 6;
  b = a;
  EXPECT_TRUE(SameBits(a, b));
  b(2, 1) = std::nextafter(6.0, 7.0);  // one ulp
  EXPECT_FALSE(SameBits(a, b));
  b(2, 1) = 6.0;
  b(0, 0) = 1.0;
  EXPECT_TRUE(SameBits(a, b));
  // +0 and -0 are equal numbers with different bits; a NaN is not equal to
  // itself as a number, but has its own bits.
  a(1, 1) = 0.0;
  b(1, 1) = -0.0;
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(SameBits(a, b));
  a(1, 1) = b(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(SameBits(a, b));
  // The same entries in another shape are another matrix.
  const Eigen::MatrixXd c = Eigen::Map<const Eigen::MatrixXd>(a.data(), 2, 3);
  EXPECT_EQ(std::memcmp(a.data(), c.data(), sizeof(double) * 6), 0);
  EXPECT_FALSE(SameBits(a, c));
}

TEST(SameBits, ComparesComplexVectorsPartByPart) {
  Eigen::VectorXcd x(2), y(2);
  x << std::complex<double>(1, 2), std::complex<double>(3, -4);
  y = x;
  EXPECT_TRUE(SameBits(x, y));
  y(1) = std::conj(y(1));
  EXPECT_FALSE(SameBits(x, y));
  EXPECT_FALSE(SameBits(x, Eigen::VectorXcd(x.head(1))));
  EXPECT_TRUE(SameBits(Eigen::VectorXcd(), Eigen::VectorXcd()));
}

}  // namespace
}  // namespace aerolin::core
