#pragma once
/// @file
/// "The same matrix, bit for bit": the test for reusing a result only where
/// computing it again would give the same bits.

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace aerolin::core {

/// True if `x` and `y` (Eigen matrices or vectors with contiguous storage of
/// the same scalar type) have the same shape and the same bits in every
/// entry: +0 and −0 differ, and a NaN equals itself where its bits do.
template <class X, class Y>
bool SameBits(const X& x, const Y& y) {
  using Scalar = typename X::Scalar;
  static_assert(std::is_same_v<Scalar, typename Y::Scalar>, "SameBits compares matrices of one scalar type");
  static_assert(std::is_trivially_copyable_v<Scalar>);
  // (An empty dynamic matrix may have no storage at all: memcmp is not
  // given its null pointer, even for 0 bytes.)
  return x.rows() == y.rows() && x.cols() == y.cols() &&
         (x.size() == 0 || std::memcmp(x.data(), y.data(), sizeof(Scalar) * static_cast<std::size_t>(x.size())) == 0);
}

}  // namespace aerolin::core
