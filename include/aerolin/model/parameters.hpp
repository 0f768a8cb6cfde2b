#pragma once
/// @file
/// The parameter table: every numeric key a data file may hold, by its
/// section and key as written (`longitudinal.Ma`, `condition.U0`,
/// `controls.<name>.M`, `mass.Ix`), with the `AircraftData` member it sets
/// and its dimension, so that a sweep or a binding can get and set a
/// parameter by its key.
///
/// Values are those AircraftData holds: SI, derivatives normalized (÷ mass or
/// inertia; a raw file's value is value × `divisor`), per radian. Keys of the
/// velocity forms are views of the angle-form member: `longitudinal.Mw` reads
/// Ma/U0 and writes Ma = value·U0 with the current U0 (Etkin & Reid §4.9).
/// `condition.theta0_deg` is θ0 in degrees, as its key says. The `mass` keys
/// set AircraftData::mass, which the derivatives no longer depend on (see
/// conversions.hpp to re-normalize).

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conversions.hpp"

namespace aerolin::model {

/// One row of the parameter table.
struct Parameter {
  std::string_view section;   ///< "condition", "mass", "geometry", "longitudinal", "lateral" or "controls"
  std::string_view key;       ///< as written in the file, e.g. "Ma"; for controls the key
                              ///< inside [controls.<name>]
  core::Dimension dimension;  ///< of the value as AircraftData holds it (normalized, SI)
  Divisor divisor;            ///< raw form: the file's value is value × this (kNone otherwise)
  std::string_view member;    ///< the member it sets, e.g. "longitudinal.Ma", "longitudinal.Ma / U0"
  /// Reads the value; `control` is the control for the "controls" section,
  /// nullptr otherwise. nullopt if an optional member (altitude, mach,
  /// min, max, a mass key) is absent.
  std::optional<double> (*get)(const AircraftData& aircraft, const Control* control);
  /// Writes the value (same `control` rule).
  void (*set)(AircraftData& aircraft, Control* control, double value);
};

/// Returns the whole table: condition, mass, longitudinal (α- then w-form),
/// lateral (β- then v-form), then the per-control keys.
std::span<const Parameter> Parameters();

/// Returns the row of `section`.`key` ("controls" for a control's key), or
/// nullptr.
const Parameter* FindParameter(std::string_view section, std::string_view key);

/// Returns the value of `path`, a key as written with its section:
/// "longitudinal.Ma", "condition.U0", "controls.elevator.M".
/// @throws std::invalid_argument naming `path` if the key or the control is
///         unknown, or the optional member is absent.
double GetParameter(const AircraftData& aircraft, std::string_view path);

/// Sets the value of `path` (see GetParameter); rebuild the models after.
/// @throws std::invalid_argument naming `path` if the key or the control is
///         unknown, or `value` is not finite.
void SetParameter(AircraftData& aircraft, std::string_view path, double value);

}  // namespace aerolin::model
