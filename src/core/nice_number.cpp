#include "aerolin/core/nice_number.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace aerolin::core {
namespace {

// A relative slack so that rounding noise (2.0000000001, 4.9999999999)
// still lands on the nice number it is meant to be.
constexpr double kSlack = 1e-9;

double Decade(const char* what, double x) {
  (void)what;
  if (!(x > 0.0) || !std::isfinite(x)) {
    // Worded for a user (it can surface through a figure's tick spacing):
    // no function name, the number in %g style.
    char text[64];
    std::snprintf(text, sizeof text, "%g", x);
    throw std::invalid_argument(std::string("a tick spacing must be a finite number > 0, got ") +
                                text);
  }
  return std::pow(10.0, std::floor(std::log10(x)));
}

}  // namespace

double NiceCeil(double x) {
  const double decade = Decade("NiceCeil", x);
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= x * (1.0 - kSlack)) return m * decade;
  return 10.0 * decade;
}

double NiceFloor(double x) {
  const double decade = Decade("NiceFloor", x);
  for (const double m : {10.0, 5.0, 2.0, 1.0})
    if (m * decade <= x * (1.0 + kSlack)) return m * decade;
  return 0.1 * decade;  // log10 rounded up across a decade boundary
}

double NiceNearest(double x) {
  const double decade = Decade("NiceNearest", x);
  const double m = x / decade;
  return (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * decade;
}

}  // namespace aerolin::core
