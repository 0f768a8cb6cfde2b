#pragma once
/// @file
/// The modal analysis of an aircraft as one JSON document (schema
/// aerolin.modes/2), the output of `aerolin modes --json`.

#include <string>
#include <string_view>
#include <vector>

#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::exporting {

/// Returns the aerolin.modes/2 document, indented by 2, without a final
/// newline. Keys: schema, file, aircraft {name, source}, units {speed, time,
/// angle}, condition {U0, theta0_deg, g_m_s2}, longitudinal and lateral
/// {states, modes[]}, approximations[]. Each mode: name, qualifier,
/// eigenvalue_per_s {re, im}, oscillatory, natural_frequency_rad_s,
/// damping_ratio, damped_period_s, time_to_half_s, time_to_double_s,
/// time_constant_s, cycles_to_half (null where undefined), stable,
/// dominant_states, shape_reference, shape[] {state, magnitude, phase_deg}.
/// Each approximation: mode, method, eigenvalue_per_s, exact_eigenvalue_per_s,
/// error_percent {natural_frequency, damping_ratio, time_constant}
/// (analysis::CompareApproximation; null where it does not apply). Version 2:
/// error_percent was one number (ωn or λ error) in aerolin.modes/1.
///
/// Speeds (U0, the u component of shapes) are in m/s for
/// `speed_units == kSI`, in ft/s for kImperial; everything else is SI.
/// `file` is the data file's path as given (informational).
std::string ModesJson(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                      const std::vector<analysis::Approximation>& approximations,
                      std::string_view file, core::UnitSystem speed_units);

}  // namespace aerolin::exporting
