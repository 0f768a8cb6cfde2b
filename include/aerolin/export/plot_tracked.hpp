#pragma once
/// @file
/// Figures of tracked sweeps and root loci (MathGL; in aerolin_plot).

#include <string>
#include <vector>

#include "aerolin/study/tracked.hpp"

namespace aerolin::exporting {

/// Size of the tracked figures.
struct TrackedPlotOptions {
  int width_px = 1200;
  int height_px = 900;
  std::string title;  ///< e.g. the aircraft's name
};

/// Writes PREFIX_splane.png (each mode's path in the s-plane in its own
/// colour, arrows in the sweep direction, start and end values marked) and
/// PREFIX_wn_zeta.png (ωn and ζ of each mode against the parameter).
/// Returns the files written.
std::vector<std::string> PlotSweep(const study::TrackedStudy& study, const TrackedPlotOptions& options,
                                   const std::string& prefix);

/// Writes PREFIX_locus.png (branches coloured by mode, open-loop poles ×,
/// zeros ○, gain ticks) and PREFIX_zeta.png (ζ of each mode against K).
std::vector<std::string> PlotLocus(const study::LocusResult& locus, const TrackedPlotOptions& options,
                                   const std::string& prefix);

}  // namespace aerolin::exporting
