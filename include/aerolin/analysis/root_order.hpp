#pragma once
/// @file
/// The order in which Decompose (eigen.hpp) lists roots, for code that lists
/// roots it computed otherwise in the same order (root_refinement.hpp).

#include <complex>

#include "aerolin/core/complex_arithmetic.hpp"

namespace aerolin::analysis {

/// Between roots of equal moduli: Re λ ascending, then Im λ descending.
inline bool RootBeforeAtEqualModuli(std::complex<double> a, std::complex<double> b) {
  if (a.real() != b.real()) return a.real() < b.real();
  return a.imag() > b.imag();
}

/// True if root a comes before root b, given their moduli |a| and |b| (each a
/// hypot, computed once per root by the caller): |λ| descending, then Re λ
/// ascending, then Im λ descending (each conjugate pair adjacent, Im > 0
/// first).
inline bool RootBefore(std::complex<double> a, double abs_a, std::complex<double> b, double abs_b) {
  if (abs_a != abs_b) return abs_a > abs_b;
  return RootBeforeAtEqualModuli(a, b);
}

/// The same order without the moduli: decided from the squared moduli where
/// they differ clearly (core::CompareModuli), by hypot only near a tie.
inline bool RootBefore(std::complex<double> a, std::complex<double> b) {
  if (const int c = core::CompareModuli(a, b)) return c > 0;
  return RootBeforeAtEqualModuli(a, b);
}

}  // namespace aerolin::analysis
