#pragma once
/// @file
/// The identification figure (`aerolin identify --plot PREFIX`, MathGL; in
/// aerolin_plot): per measured output, the flight against the identified
/// model's response and the start model's, and the residuals with ±2σ.

#include <string>
#include <vector>

#include "aerolin/export/plot.hpp"
#include "aerolin/study/identify.hpp"

namespace aerolin::exporting {

/// The file PlotIdentify writes for `prefix` in `format` (an extension,
/// e.g. "svg"): PREFIX_identify.FORMAT, as a one-element list.
std::vector<std::string> IdentifyFigurePaths(const std::string& prefix, const std::string& format = "png");

/// Writes the identification figure of `responses` (study::IdentifyResult::
/// responses) to `path`: one row per output (angles and rates in degrees),
/// on the left the measured output (grey), the identified model's response
/// (blue) and the start model's (orange, dashed), on the right the residual
/// (measured − identified, grey) with ±2σ (red, dashed; σ the residual RMS);
/// under the panels the legend and what the start model is.
/// @throws std::invalid_argument if `responses` has no output or an output
///         no sample, or the size or extension is bad (message names `path`);
///         std::runtime_error if the file cannot be written.
void PlotIdentify(const study::IdentifyResponses& responses, study::IdentifyMethod method,
                  const PlotOptions& options, const std::string& path);

}  // namespace aerolin::exporting
