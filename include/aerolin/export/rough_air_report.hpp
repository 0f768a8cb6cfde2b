#pragma once
/// @file
/// Rough-air statistics (study::ExactRoughAirStatistics) as a table and as
/// one JSON document (schema aerolin.rms/1): the outputs of `aerolin rms`.

#include <ostream>
#include <string>
#include <string_view>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/study/rough_air.hpp"

namespace aerolin::exporting {

/// Writes the table: the turbulence (intensity, height, σ and L per
/// component, span), then per axis each output's RMS, rate RMS and N₀, or
/// why the axis has none; then how to read N₀ (Rice's formula).
void WriteRoughAirText(std::ostream& out, const model::AircraftData& aircraft,
                       const study::RoughAirStatistics& stats);

/// Returns the aerolin.rms/1 document, indented by 2, without a final
/// newline. Keys: schema, file, aircraft {name, source}, method,
/// turbulence {intensity, height_m, height_source ("given", "[condition]
/// altitude" or "default"), span_m (null without), airspeed_m_s,
/// sigma_u_m_s, sigma_v_m_s, sigma_w_m_s, sigma_p_rad_s, L_u_m, L_v_m, L_w_m},
/// dt_s, outputs [{name, unit, axis, rms, rate_rms (null for the gusts),
/// n0_per_s, gust_feedthrough}], not_stationary [{axis, reason}]. SI units
/// (nz and ay in g, the condition's gravity), names as the simulate CSV.
std::string RoughAirJson(const model::AircraftData& aircraft, std::string_view file,
                         const study::RoughAirStatistics& stats);

}  // namespace aerolin::exporting
