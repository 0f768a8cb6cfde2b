#pragma once
// The figure writers of the figure commands (`plot`, `bode --plot`,
// `qualities --plot`, `sweep --plot`, `locus --plot`, `rms --plot`,
// `identify --plot`), reached through this
// table so that every command source is compiled once for both programs:
//  - `aerolin-plot` links figures_in_process.cpp: each pointer is the MathGL
//    writer of the same name in aerolin/export (the aerolin_plot library);
//  - `aerolin` links figures_delegated.cpp: every pointer is null, and a
//    command asked for a figure hands itself to `aerolin-plot`
//    (ReplaceWithPlotter), so `aerolin` never loads MathGL's ~59 shared
//    libraries.
// Each pointer has the type of the function it names (decltype), so a
// signature is written once, in aerolin/export.

#include "aerolin/export/plot.hpp"
#include "aerolin/export/plot_identify.hpp"
#include "aerolin/export/plot_rough_air.hpp"
#include "aerolin/export/plot_tracked.hpp"

namespace aerolin::cli::figures {

/// True in the program that draws (aerolin-plot), false in aerolin.
bool InProcess();

// The writers, listed once: X(name) for each exporting::name.
#define AEROLIN_CLI_FIGURE_WRITERS(X)                                            \
  X(PlotTrajectory3D) X(PlotGroundTrack) X(PlotTimeHistories) X(PlotSPlane)    \
  X(PlotShortPeriodChart) X(PlotDutchRollChart) X(PlotDropbackChart) X(PlotBode) \
  X(SweepFigurePaths) X(PlotSweep) X(LocusFigurePaths) X(PlotLocus)                \
  X(RoughAirFigurePaths) X(PlotRoughAir) X(IdentifyFigurePaths) X(PlotIdentify)

// One constant pointer per writer, named as the function it points to so a
// call reads as one: figures::PlotBode(diagram, options, path). Null unless
// InProcess().
#define AEROLIN_CLI_DECLARE_FIGURE_WRITER(name) extern const decltype(&exporting::name) name;
AEROLIN_CLI_FIGURE_WRITERS(AEROLIN_CLI_DECLARE_FIGURE_WRITER)
#undef AEROLIN_CLI_DECLARE_FIGURE_WRITER

}  // namespace aerolin::cli::figures
