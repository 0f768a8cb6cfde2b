#pragma once
/// @file
/// The order in which Decompose (eigen.hpp) lists roots, for code that lists
/// roots it computed otherwise in the same order (root_refinement.hpp).

#include <complex>

namespace aerolin::analysis {

/// True if root a comes before root b, given their moduli |a| and |b| (each a
/// hypot, computed once per root by the caller): |λ| descending, then Re λ
/// ascending, then Im λ descending (each conjugate pair adjacent, Im > 0
/// first).
inline bool RootBefore(std::complex<double> a, double abs_a, std::complex<double> b, double abs_b) {
  if (abs_a != abs_b) return abs_a > abs_b;
  if (a.real() != b.real()) return a.real() < b.real();
  return a.imag() > b.imag();
}

}  // namespace aerolin::analysis
