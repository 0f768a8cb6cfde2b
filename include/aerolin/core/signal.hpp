#pragma once
/// @file
/// A named, unit-tagged quantity: every state, input and output is one, so
/// tables, CSV headers, plots and the HUD describe themselves.

#include <string>
#include <string_view>

namespace aerolin::core {

/// The SI units aerolin's signals are expressed in (everything inside is SI,
/// angles in radians).
enum class Unit {
  kOne,             ///< dimensionless, "1" (throttle setting, u/U0)
  kRadian,          ///< "rad"
  kRadianPerSecond, ///< "rad/s"
  kMetre,           ///< "m"
  kMetrePerSecond,  ///< "m/s"
  kSecond,          ///< "s"
  kGravity,         ///< "g": a specific force (load factor) in multiples of
                    ///< the flight condition's gravity g (= g0 unless a file sets it)
};

/// Returns the unit's SI symbol: "1", "rad", "rad/s", "m", "m/s", "s", "g".
std::string_view ToString(Unit unit);

/// A signal's name (ASCII, as used in CSV headers and JSON keys), its SI unit
/// and a typographic symbol for tables and figures (UTF-8, e.g. "α").
struct Signal {
  std::string name;    ///< e.g. "alpha"
  Unit unit = Unit::kOne;
  std::string symbol;  ///< e.g. "α"
};

inline bool operator==(const Signal& a, const Signal& b) {
  return a.name == b.name && a.unit == b.unit;
}

}  // namespace aerolin::core
