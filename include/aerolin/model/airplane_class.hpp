#pragma once
/// @file
/// The airplane class and flight-phase category of MIL-F-8785C (§1.3, §1.4):
/// what a data file may declare (`[aircraft] class`, `[condition] category`)
/// and what the flying-qualities grading (analysis/flying_qualities.hpp)
/// selects its table rows by.

#include <array>
#include <string_view>

namespace aerolin::model {

/// Airplane class (MIL-F-8785C §1.3). Class II is split where the tables
/// differ: II-C carrier-based, II-L land-based.
enum class AircraftClass {
  kI,    ///< small, light
  kII_C, ///< medium weight, low-to-medium manoeuvrability, carrier-based
  kII_L, ///< medium weight, low-to-medium manoeuvrability, land-based
  kIII,  ///< large, heavy, low-to-medium manoeuvrability
  kIV,   ///< high manoeuvrability
};

/// Flight-phase category (MIL-F-8785C §1.4).
enum class FlightPhaseCategory {
  kA,  ///< non-terminal; rapid manoeuvring, precision tracking
  kB,  ///< non-terminal; gradual manoeuvres
  kC,  ///< terminal: take-off, approach, landing
};

/// Every class, in table order.
inline constexpr std::array<AircraftClass, 5> kAircraftClasses = {
    AircraftClass::kI, AircraftClass::kII_C, AircraftClass::kII_L, AircraftClass::kIII,
    AircraftClass::kIV};
/// Every category, in order.
inline constexpr std::array<FlightPhaseCategory, 3> kFlightPhaseCategories = {
    FlightPhaseCategory::kA, FlightPhaseCategory::kB, FlightPhaseCategory::kC};

/// Returns "I", "II-C", "II-L", "III", "IV".
std::string_view ToString(AircraftClass aircraft_class);
/// Returns "A", "B", "C".
std::string_view ToString(FlightPhaseCategory category);

/// Parses "I", "II-C", "II-L", "III", "IV" (ASCII case-insensitive).
/// @throws std::invalid_argument listing the classes. Plain "II" is rejected
///         with the hint to choose II-C (carrier-based) or II-L (land-based),
///         because the Dutch-roll, roll-mode and short-period frequency
///         tables differ between them.
AircraftClass ParseAircraftClass(std::string_view text);

/// Parses "A", "B", "C" (ASCII case-insensitive).
/// @throws std::invalid_argument listing the categories.
FlightPhaseCategory ParseFlightPhaseCategory(std::string_view text);

}  // namespace aerolin::model
