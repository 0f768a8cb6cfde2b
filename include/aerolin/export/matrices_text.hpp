#pragma once
/// @file
/// An aircraft's state-space matrices as labelled text tables, the output of
/// `aerolin matrices`.

#include <ostream>
#include <string_view>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::exporting {

/// Writes the header and the longitudinal and lateral A and B, rows labelled
/// dx/dt, columns labelled with their signal and unit (SI).
void WriteMatricesText(std::ostream& out, const model::AircraftData& aircraft,
                       const model::StateSpace& longitudinal, const model::StateSpace& lateral,
                       std::string_view file);

}  // namespace aerolin::exporting
