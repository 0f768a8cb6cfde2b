#pragma once
// The units the text and JSON writers show a signal in (internal to export).
// Inside, everything is SI and radians; `--units imperial` shows speeds in
// ft/s and lengths in ft, and the simulate summary shows angles in degrees.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::exporting {

/// A displayed unit: value shown = SI value × per_si.
struct DisplayUnit {
  double per_si = 1.0;
  std::string name;
};

/// `unit` as shown in `system`: m/s → ft/s and m → ft for kImperial; with
/// `degrees`, rad → deg and rad/s → deg/s; anything else as its SI symbol.
inline DisplayUnit DisplayUnitOf(core::Unit unit, core::UnitSystem system, bool degrees = false) {
  const bool imperial = system == core::UnitSystem::kImperial;
  switch (unit) {
    case core::Unit::kMetre:
      if (imperial) return {1.0 / core::kMetresPerFoot, "ft"};
      break;
    case core::Unit::kMetrePerSecond:
      if (imperial) return {1.0 / core::kMetresPerFoot, "ft/s"};
      break;
    case core::Unit::kRadian:
      if (degrees) return {core::kRadToDeg, "deg"};
      break;
    case core::Unit::kRadianPerSecond:
      if (degrees) return {core::kRadToDeg, "deg/s"};
      break;
    default:
      break;
  }
  return {1.0, std::string(core::ToString(unit))};
}

/// `formatted` (a number as printed) without its minus sign if it shows no
/// nonzero digit ("-0", "-0.000", "-0e+00" → "0", ...): a value that rounds
/// to zero is printed as zero. "-nan" and "-inf" are kept.
inline std::string WithoutNegativeZero(std::string formatted) {
  if (formatted.size() > 1 && formatted[0] == '-') {
    const std::size_t exponent = formatted.find_first_of("eE");
    const std::string mantissa = formatted.substr(1, exponent == std::string::npos ? std::string::npos : exponent - 1);
    if (mantissa.find_first_not_of("0.") == std::string::npos) formatted.erase(0, 1);
  }
  return formatted;
}

/// As WithoutNegativeZero for a number printed with an explicit sign
/// ("{:+}"): "-0.0" becomes "+0.0".
inline std::string SignedWithoutNegativeZero(std::string formatted) {
  const std::string unsigned_form = WithoutNegativeZero(formatted);
  return unsigned_form != formatted ? "+" + unsigned_form : formatted;
}

/// `v`, or +0 if `v` is −0 (so that no output shows "-0").
inline double NoNegativeZero(double v) { return v == 0.0 ? 0.0 : v; }

/// `m` (row i the derivative of rows[i], column j per cols[j]) in the units
/// `system` shows them in: entry (i, j) × the row's factor / the column's,
/// with −0 as +0. For the text and JSON matrix writers.
inline Eigen::MatrixXd InDisplayUnits(const Eigen::MatrixXd& m, const std::vector<core::Signal>& rows,
                                      const std::vector<core::Signal>& cols, core::UnitSystem system) {
  Eigen::MatrixXd out(m.rows(), m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    const double row_scale = DisplayUnitOf(rows[i].unit, system).per_si;
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      out(i, j) = NoNegativeZero(m(i, j) * row_scale / DisplayUnitOf(cols[j].unit, system).per_si);
  }
  return out;
}

}  // namespace aerolin::exporting
