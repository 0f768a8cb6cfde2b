#pragma once
/// @file
/// The rough-air figure (`aerolin rms --plot PREFIX`, MathGL; in
/// aerolin_plot): the RMS response against height above ground for the
/// three MIL-F-8785C intensities, from study::RoughAirHeightProfile.

#include <array>
#include <string>
#include <vector>

#include "aerolin/export/plot.hpp"
#include "aerolin/study/rough_air.hpp"

namespace aerolin::exporting {

/// The file PlotRoughAir writes for `prefix` in `format` (an extension,
/// e.g. "svg"): PREFIX_rms_height.FORMAT, as a one-element list.
std::vector<std::string> RoughAirFigurePaths(const std::string& prefix, const std::string& format = "png");

/// The outputs the figure draws, one panel each: the longitudinal row nz
/// [g], α and θ [deg]; the lateral row ay [g], β and φ [deg] (names as the
/// simulate CSV).
inline constexpr std::array<const char*, 6> kRoughAirFigureOutputs = {"nz", "alpha", "theta",
                                                                      "ay", "beta",  "phi"};

/// Writes the rough-air figure to `path`: one panel per output of
/// kRoughAirFigureOutputs, its RMS (x, angles in degrees) against height
/// above ground (y, logarithmic, metres) for light, moderate and severe
/// turbulence (one colour and dash each), a dashed line at the height of
/// `requested` (the table `aerolin rms` printed) and, under the panels, the
/// legend and what stays fixed (the aircraft's condition, the controls, Δt).
/// An axis without stationary statistics says why in its panels.
/// @throws std::invalid_argument if `profile` is empty, the size is not
///         positive or the extension is unknown (message names `path`);
///         std::runtime_error if the file cannot be written.
void PlotRoughAir(const study::RoughAirProfile& profile, const study::RoughAirStatistics& requested,
                  const PlotOptions& options, const std::string& path);

}  // namespace aerolin::exporting
