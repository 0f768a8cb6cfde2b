#pragma once
/// @file
/// A named, unit-tagged quantity: every state, input and output is one, so
/// tables and plots describe themselves.

#include <string>

namespace aerolin::core {

/// A signal's name (ASCII, as used in CSV headers), its SI unit and a
/// typographic symbol for tables.
struct Signal {
  std::string name;    ///< e.g. "alpha"
  std::string unit;    ///< SI unit, e.g. "rad", "m/s", "rad/s", "1"
  std::string symbol;  ///< e.g. "α"
};

inline bool operator==(const Signal& a, const Signal& b) {
  return a.name == b.name && a.unit == b.unit;
}

}  // namespace aerolin::core
