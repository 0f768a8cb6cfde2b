#pragma once
/// @file
/// The modal analysis of an aircraft as text tables, the output of
/// `aerolin modes`.

#include <ostream>
#include <string_view>
#include <vector>

#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::exporting {

/// Writes the header (name, source, trim), each axis's mode table and mode
/// shapes, the classical approximations against the exact roots, and a
/// legend. Speeds in m/s (kSI) or ft/s (kImperial); `file` is shown as given.
void WriteModesText(std::ostream& out, const model::AircraftData& aircraft,
                    const analysis::ModalAnalysis& modes,
                    const std::vector<analysis::Approximation>& approximations,
                    std::string_view file, core::UnitSystem speed_units);

}  // namespace aerolin::exporting
