#include "aerolin/core/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace aerolin::core {

std::optional<UnitSystem> ParseUnitSystem(std::string_view text) {
  // ASCII case folding: the same spellings as the CLI's `--units si`.
  auto equals = [text](std::string_view name) {
    return std::equal(text.begin(), text.end(), name.begin(), name.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
  };
  if (equals("SI")) return UnitSystem::kSI;
  if (equals("imperial")) return UnitSystem::kImperial;
  return std::nullopt;
}

std::string_view ToString(UnitSystem system) {
  return system == UnitSystem::kSI ? "SI" : "imperial";
}

BaseFactors FactorsOf(UnitSystem system) {
  switch (system) {
    case UnitSystem::kSI:
      return {1.0, 1.0};
    case UnitSystem::kImperial:
      return {kMetresPerFoot, kKilogramsPerSlug};
  }
  return {1.0, 1.0};
}

double ToSIFactor(UnitSystem system, Dimension dim) {
  const BaseFactors f = FactorsOf(system);
  // Time is the second in both systems.
  return std::pow(f.length, dim.length) * std::pow(f.mass, dim.mass);
}

std::span<const UnitSpelling> SpellingsOf(Unit unit) {
  static constexpr UnitSpelling one[] = {{"1", 1.0}};
  static constexpr UnitSpelling radian[] = {{"rad", 1.0}, {"deg", kDegToRad}};
  static constexpr UnitSpelling radian_per_second[] = {{"rad/s", 1.0}, {"deg/s", kDegToRad}};
  static constexpr UnitSpelling metre[] = {{"m", 1.0}, {"ft", kMetresPerFoot}};
  static constexpr UnitSpelling metre_per_second[] = {
      {"m/s", 1.0}, {"ft/s", kMetresPerFoot}, {"kt", kMetresPerSecondPerKnot}};
  static constexpr UnitSpelling second[] = {{"s", 1.0}, {"ms", 1e-3}};
  static constexpr UnitSpelling gravity[] = {{"g", 1.0}};
  switch (unit) {
    case Unit::kOne: return one;
    case Unit::kRadian: return radian;
    case Unit::kRadianPerSecond: return radian_per_second;
    case Unit::kMetre: return metre;
    case Unit::kMetrePerSecond: return metre_per_second;
    case Unit::kSecond: return second;
    case Unit::kGravity: return gravity;
  }
  return {};
}

std::optional<double> ToSIFactor(Unit unit, std::string_view spelling) {
  for (const UnitSpelling& s : SpellingsOf(unit))
    if (s.spelling == spelling) return s.to_si;
  return std::nullopt;
}

}  // namespace aerolin::core
