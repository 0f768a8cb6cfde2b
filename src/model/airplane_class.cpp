#include "aerolin/model/airplane_class.hpp"

#include <cctype>
#include <stdexcept>
#include <string>

#include "aerolin/core/messages.hpp"

namespace aerolin::model {
namespace {

std::string Upper(std::string_view text) {
  std::string s(text);
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

std::string_view ToString(AircraftClass aircraft_class) {
  switch (aircraft_class) {
    case AircraftClass::kI: return "I";
    case AircraftClass::kII_C: return "II-C";
    case AircraftClass::kII_L: return "II-L";
    case AircraftClass::kIII: return "III";
    case AircraftClass::kIV: return "IV";
  }
  return "?";
}

std::string_view ToString(FlightPhaseCategory category) {
  switch (category) {
    case FlightPhaseCategory::kA: return "A";
    case FlightPhaseCategory::kB: return "B";
    case FlightPhaseCategory::kC: return "C";
  }
  return "?";
}

AircraftClass ParseAircraftClass(std::string_view text) {
  const std::string s = Upper(text);
  for (AircraftClass c : kAircraftClasses)
    if (s == ToString(c)) return c;
  if (s == "II")
    throw std::invalid_argument(
        "aircraft class 'II' is ambiguous (use 'II-C' for carrier-based or 'II-L' for "
        "land-based: MIL-F-8785C's tables differ between them)");
  throw std::invalid_argument("unknown aircraft class '" + core::Printable(text) +
                              "' (expected one of I, II-C, II-L, III, IV)");
}

FlightPhaseCategory ParseFlightPhaseCategory(std::string_view text) {
  const std::string s = Upper(text);
  for (FlightPhaseCategory c : kFlightPhaseCategories)
    if (s == ToString(c)) return c;
  throw std::invalid_argument("unknown flight-phase category '" + core::Printable(text) +
                              "' (expected one of A, B, C)");
}

}  // namespace aerolin::model
