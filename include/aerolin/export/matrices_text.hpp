#pragma once
/// @file
/// An aircraft's state-space matrices as labelled text tables, the output of
/// `aerolin matrices`.

#include <ostream>
#include <string_view>

#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::exporting {

/// Writes the header and the longitudinal and lateral A and B, rows labelled
/// dx/dt, columns labelled with their signal and unit: SI, or with `units ==
/// kImperial` u in ft/s (the u row and column scaled, A' = T A T⁻¹ and
/// B' = T B with T = diag(1/0.3048 on u, 1 elsewhere); the roots are the same).
void WriteMatricesText(std::ostream& out, const model::AircraftData& aircraft,
                       const model::StateSpace& longitudinal, const model::StateSpace& lateral,
                       std::string_view file, core::UnitSystem units = core::UnitSystem::kSI);

}  // namespace aerolin::exporting
