#pragma once
/// @file
/// The 1976 U.S. Standard Atmosphere (NOAA/NASA/USAF, 1976; identical to the
/// ICAO standard atmosphere below 32 km), lower three layers: troposphere
/// 0–11 km (lapse −6.5 K/km), isothermal 11–20 km (216.65 K), and 20–32 km
/// (+1 K/km), all in geopotential altitude H; the input is the geometric
/// altitude z (what an altimeter table lists), H = r0 z/(r0 + z),
/// r0 = 6 356 766 m. Valid from z = −5 km to H = 32 km (z ≈ 32.16 km).
/// Constants of the 1976 document: T0 = 288.15 K, p0 = 101 325 Pa,
/// g0 = 9.80665 m/s², M0 = 0.0289644 kg/mol, R* = 8.31432 J/(mol·K),
/// γ = 1.4.

namespace aerolin::model {

/// The state of the standard atmosphere at one altitude, SI.
struct AtmosphereState {
  double temperature = 0;     ///< T [K]
  double pressure = 0;        ///< p [Pa]
  double density = 0;         ///< ρ = p M0/(R* T) [kg/m³]
  double speed_of_sound = 0;  ///< a = √(γ R* T / M0) [m/s]
};

/// Lowest and highest geometric altitude StandardAtmosphere accepts [m].
inline constexpr double kStandardAtmosphereFloor = -5000.0;
inline constexpr double kStandardAtmosphereCeiling = 32161.9;  // H = 32 000 m

/// Returns the 1976 U.S. Standard Atmosphere at geometric altitude `z` [m].
/// @throws std::out_of_range if `z` is outside [kStandardAtmosphereFloor,
///         kStandardAtmosphereCeiling] or not finite.
AtmosphereState StandardAtmosphere(double z);

}  // namespace aerolin::model
