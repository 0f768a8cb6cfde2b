#pragma once
/// @file
/// An aircraft's state-space matrices as one JSON document (schema
/// aerolin.matrices/2), the output of `aerolin matrices --json`.

#include <optional>
#include <string>
#include <string_view>

#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conversions.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::exporting {

/// Returns the aerolin.matrices/2 document, indented by 2, without a final
/// newline. Keys: schema, file, aircraft (name), longitudinal and lateral
/// {states[], inputs[] ({name, unit}), A, B (arrays of rows)}; SI units, or
/// with `units == kImperial` u in ft/s (as WriteMatricesText; its unit then
/// reads "ft/s").
///
/// With `dimensional` (a coefficient or AVL file's data::LoadResult::
/// from_coefficients) also "dimensional_derivatives", the numbers
/// WriteDimensionalDerivativesText prints, unrounded:
/// {"longitudinal": [{"name": "Xu", "value": -1982.1, "unit": "N s/m"}, ...],
///  "lateral": [...], "controls": [{"name", "per": "rad" | "unit",
///  "derivatives": [{"name": "X", ...}]}]}; a section given dimensionally in
/// the file is absent (as in the text). Values are SI; with
/// `dimensional_units` kImperial (the file's unit system, as the text takes
/// it) each row also has "value_imperial" and "unit_imperial", the text's
/// second column. aerolin.matrices/1 was the same document without this key.
std::string MatricesJson(const model::AircraftData& aircraft, const model::StateSpace& longitudinal,
                         const model::StateSpace& lateral, std::string_view file,
                         core::UnitSystem units = core::UnitSystem::kSI,
                         const std::optional<model::AircraftAsWritten>& dimensional = std::nullopt,
                         core::UnitSystem dimensional_units = core::UnitSystem::kSI);

}  // namespace aerolin::exporting
