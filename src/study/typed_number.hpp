#pragma once
// A number typed on a command line or in a spec string (internal to study:
// augment.cpp's poles and maxima, mil_std_1797.cpp's --actuator, loops.cpp's gains).

#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace aerolin::study::detail {

/// Returns the finite number filling `text`, else nullopt.
inline std::optional<double> TypedNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace aerolin::study::detail
