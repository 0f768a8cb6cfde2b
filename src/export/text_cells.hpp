#pragma once
// The cells of aerolin's text tables (internal to export): numbers to four
// significant digits, eigenvalues as "re ± imi", columns padded by code
// point. `modes` and `augment` print their mode tables with these, so a
// mode reads the same in both.

#include <cmath>
#include <complex>
#include <fmt/format.h>
#include <string>

#include "display_units.hpp"

namespace aerolin::exporting {

// Numbers that print as zero are printed without a sign (no "-0", "-0.000").
inline std::string Fixed(double v, int digits) {
  return WithoutNegativeZero(fmt::format("{:.{}f}", v, digits));
}

// Four significant digits, switching to exponent form for tiny values.
inline std::string Sig(double v) {
  if (v != 0.0 && std::abs(v) < 1e-3) return fmt::format("{:.3e}", v);
  return WithoutNegativeZero(fmt::format("{:.4g}", v));
}

inline std::string Eigenvalue(std::complex<double> l) {
  std::string s = Sig(l.real());
  if (l.imag() != 0.0) s += " ± " + Sig(l.imag()) + "i";
  return s;
}

/// The number of code points of UTF-8 `s` (α and ± count as one column).
inline std::size_t CodePoints(const std::string& s) {
  std::size_t points = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++points;
  return points;
}

inline std::string Pad(const std::string& s, std::size_t width) {
  // Width in code points, so that α and ± count as one column.
  const std::size_t points = CodePoints(s);
  return points >= width ? s + " " : s + std::string(width - points, ' ');
}

}  // namespace aerolin::exporting
