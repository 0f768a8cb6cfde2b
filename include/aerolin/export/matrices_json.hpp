#pragma once
/// @file
/// An aircraft's state-space matrices as one JSON document (schema
/// aerolin.matrices/1), the output of `aerolin matrices --json`.

#include <string>
#include <string_view>

#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::exporting {

/// Returns the aerolin.matrices/1 document, indented by 2, without a final
/// newline. Keys: schema, file, aircraft (name), longitudinal and lateral
/// {states[], inputs[] ({name, unit}), A, B (arrays of rows)}; SI units, or
/// with `units == kImperial` u in ft/s (as WriteMatricesText; its unit then
/// reads "ft/s").
std::string MatricesJson(const model::AircraftData& aircraft, const model::StateSpace& longitudinal,
                         const model::StateSpace& lateral, std::string_view file,
                         core::UnitSystem units = core::UnitSystem::kSI);

}  // namespace aerolin::exporting
