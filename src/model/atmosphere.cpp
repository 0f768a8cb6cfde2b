#include "aerolin/model/atmosphere.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "aerolin/core/units.hpp"

namespace aerolin::model {
namespace {

// 1976 U.S. Standard Atmosphere constants, as the document defines them.
constexpr double kEarthRadius = 6356766.0;      // r0 [m], for geopotential altitude
constexpr double kG0 = core::kStandardGravity;  // [m/s²]
constexpr double kMolarMass = 0.0289644;        // M0 [kg/mol]
constexpr double kGasConstant = 8.31432;        // R* [J/(mol·K)]
constexpr double kGamma = 1.4;
constexpr double kAirR = kGasConstant / kMolarMass;  // [J/(kg·K)]
constexpr double kGMR = kG0 * kMolarMass / kGasConstant;  // g0 M0 / R* [K/m]

// Layer b: base geopotential altitude H_b [m], base temperature T_b [K], lapse L_b [K/m].
struct Layer {
  double H, T, lapse;
};
constexpr Layer kLayers[] = {{0.0, 288.15, -0.0065}, {11000.0, 216.65, 0.0}, {20000.0, 216.65, 0.001}};
constexpr double kTop = 32000.0;

// Pressure at H within layer `l` from its base pressure (hydrostatic equation, ideal gas):
// p = p_b (T_b/T)^(g0 M0/(R* L_b)) with a lapse L_b, p_b exp(−g0 M0 (H − H_b)/(R* T_b)) without.
double PressureIn(const Layer& l, double p_base, double H) {
  if (l.lapse == 0.0) return p_base * std::exp(-kGMR * (H - l.H) / l.T);
  const double T = l.T + l.lapse * (H - l.H);
  return p_base * std::pow(l.T / T, kGMR / l.lapse);
}

}  // namespace

AtmosphereState StandardAtmosphere(double z) {
  const double H = kEarthRadius * z / (kEarthRadius + z);
  if (!std::isfinite(z) || z < kStandardAtmosphereFloor || H > kTop + 1e-6)
    throw std::out_of_range("altitude " + std::to_string(z) +
                            " m is outside the standard atmosphere's range (-5000 m to 32 km)");
  double p = 101325.0;
  std::size_t i = 0;
  // Walk up the layer bases to the layer holding H (the troposphere also extends below 0).
  while (i + 1 < std::size(kLayers) && H > kLayers[i + 1].H) {
    p = PressureIn(kLayers[i], p, kLayers[i + 1].H);
    ++i;
  }
  const Layer& l = kLayers[i];
  AtmosphereState s;
  s.temperature = l.T + l.lapse * (H - l.H);
  s.pressure = PressureIn(l, p, H);
  s.density = s.pressure / (kAirR * s.temperature);
  s.speed_of_sound = std::sqrt(kGamma * kAirR * s.temperature);
  return s;
}

}  // namespace aerolin::model
