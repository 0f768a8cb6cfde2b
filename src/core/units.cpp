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

}  // namespace aerolin::core
