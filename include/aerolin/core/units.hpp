#pragma once
/// @file
/// The one unit-conversion table of aerolin. Everything inside the library is
/// SI (m, kg, s, N, rad); data files declare their unit system and are
/// converted once, on load, through `ToSI`.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aerolin/core/signal.hpp"

namespace aerolin::core {

/// Unit systems a data file may declare with `units = "..."`.
enum class UnitSystem {
  kSI,        ///< m, kg, s, N
  kImperial,  ///< ft, slug, s, lbf
};

/// Parses "SI" / "imperial" in any case ("si", "Imperial"); nullopt otherwise.
std::optional<UnitSystem> ParseUnitSystem(std::string_view text);
std::string_view ToString(UnitSystem system);

/// A physical dimension as integer exponents of length, mass, time
/// (angles are dimensionless and always radians).
struct Dimension {
  int length = 0;
  int mass = 0;
  int time = 0;
};

/// Factors from a unit system's base units to SI.
struct BaseFactors {
  double length;  ///< metres per length unit
  double mass;    ///< kilograms per mass unit
};
BaseFactors FactorsOf(UnitSystem system);

/// Returns the factor that converts a value of dimension `dim` expressed in
/// `system` to SI: value_SI = value * ToSIFactor(system, dim).
double ToSIFactor(UnitSystem system, Dimension dim);

/// Converts a value of dimension `dim` from `system` to SI.
inline double ToSI(double value, UnitSystem system, Dimension dim) {
  return value * ToSIFactor(system, dim);
}

/// Standard gravity g0 [m/s²] (CGPM 1901).
inline constexpr double kStandardGravity = 9.80665;
/// One foot [m] (international foot, 1959).
inline constexpr double kMetresPerFoot = 0.3048;
/// One slug [kg] = 1 lbf·s²/ft.
inline constexpr double kKilogramsPerSlug = 14.593902937206364;
/// One knot [m/s] (the international nautical mile, 1852 m, per hour).
inline constexpr double kMetresPerSecondPerKnot = 1852.0 / 3600.0;
inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kRadToDeg = 180.0 / kPi;
inline constexpr double kDegToRad = kPi / 180.0;

// Named dimensions used by the derivative tables (length L, mass M, time T).
inline constexpr Dimension kDimensionless{0, 0, 0};
inline constexpr Dimension kLength{1, 0, 0};
inline constexpr Dimension kSpeed{1, 0, -1};
inline constexpr Dimension kAcceleration{1, 0, -2};
inline constexpr Dimension kMass{0, 1, 0};
inline constexpr Dimension kInertia{2, 1, 0};
inline constexpr Dimension kForce{1, 1, -2};
inline constexpr Dimension kMoment{2, 1, -2};

/// Dimension arithmetic: product and quotient.
constexpr Dimension operator*(Dimension a, Dimension b) {
  return {a.length + b.length, a.mass + b.mass, a.time + b.time};
}
constexpr Dimension operator/(Dimension a, Dimension b) {
  return {a.length - b.length, a.mass - b.mass, a.time - b.time};
}
/// Dimension of T^n, e.g. PerSecond(1) = 1/s.
constexpr Dimension PerSecond(int n) { return {0, 0, -n}; }

/// A unit a signal's value may be typed or recorded in, and its factor to the
/// signal's SI unit: value_SI = value * to_si.
struct UnitSpelling {
  std::string_view spelling;  ///< e.g. "deg/s"
  double to_si;               ///< e.g. π/180
};

/// The units accepted for a value whose SI unit is `unit`, the SI symbol
/// first: rad, deg; rad/s, deg/s; m, ft; m/s, ft/s, kt; s, ms; 1 (a
/// dimensionless signal); g. The one table that `augment`'s typed values and
/// `identify`'s column map both read.
std::span<const UnitSpelling> SpellingsOf(Unit unit);

/// The factor to SI of `spelling` for a value of SI unit `unit`, or nullopt if
/// it is not one of SpellingsOf(unit) (case-sensitive: "ms" is not "Ms").
std::optional<double> ToSIFactor(Unit unit, std::string_view spelling);

}  // namespace aerolin::core
