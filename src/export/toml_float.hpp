#pragma once
// TOML numbers written by the export writers (internal to export).

#include <fmt/format.h>

#include <string>

namespace aerolin::exporting {

/// Shortest round-trip form (the file reads back the same double), always a
/// TOML float: "0.0", "12.0", "-1.5", "1e-05".
inline std::string TomlFloat(double v) {
  std::string s = fmt::format("{}", v == 0.0 ? 0.0 : v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace aerolin::exporting
