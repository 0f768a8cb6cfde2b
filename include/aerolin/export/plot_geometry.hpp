#pragma once
/// @file
/// The drawing math behind the plot files, kept free of any plotting library
/// so it can be tested: the paper-plane glyph, where glyphs go along a path,
/// the equal-scale box around a trajectory, and the vertical exaggeration.
///
/// **Plot frame.** Figures are drawn in core/frames.hpp's plot frame
/// (east, north, altitude) [m], right-handed with altitude up.

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <utility>
#include <vector>

#include "aerolin/export/glyph.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::exporting {

/// Returns `p` (plot frame [m]) with its altitude multiplied by
/// `vertical_exaggeration` K [-]: (east, north, K·altitude). K = 1 returns
/// `p` unchanged.
inline Eigen::Vector3d ExaggerateAltitude(const Eigen::Vector3d& p,
                                          double vertical_exaggeration) {
  return {p.x(), p.y(), vertical_exaggeration * p.z()};
}

/// Returns each point of `points` passed through ExaggerateAltitude.
std::vector<Eigen::Vector3d> ExaggerateAltitude(
    std::vector<Eigen::Vector3d> points, double vertical_exaggeration);

/// Returns the glyph's triangles in the plot frame (east, north, altitude)
/// [m] for the aircraft in `state`: rotated by Rz(ψ) Ry(θ0 + θ) Rx(φ),
/// translated to (north, east, down). `theta0` [rad] is the trim pitch
/// attitude, `scale` [m] the glyph scale of PaperPlaneBody (glyph.hpp).
///
/// With `vertical_exaggeration` K > 1 only the glyph's position is
/// exaggerated (ExaggerateAltitude); its shape is built in true proportions,
/// so a glyph on an exaggerated path still shows the true attitude.
std::array<Triangle, kNumGlyphParts> PaperPlaneInPlotFrame(
    const sim::FlightState& state, double theta0, double scale,
    double vertical_exaggeration = 1.0);

/// The most glyph marks GlyphRows places on one path.
inline constexpr int kMaxGlyphs = 200;

/// Returns the rows of a log at which glyphs are drawn: the first row, the
/// first row at or after each multiple of `interval` [s] from the start, and
/// the last row; ascending, no duplicates. `interval` <= 0 picks a nice
/// interval giving about `target_count` glyphs; an interval shorter than
/// duration / kMaxGlyphs is widened to that (at most kMaxGlyphs + 2 rows, in
/// O(rows of the log)); a non-finite one gives the first and last rows only.
/// Empty `time` → empty.
std::vector<std::size_t> GlyphRows(const std::vector<double>& time,
                                   double interval, int target_count = 8);

/// An axis-aligned box in the plot frame [m].
struct PlotBox {
  Eigen::Vector3d min;
  Eigen::Vector3d max;
  Eigen::Vector3d extent() const { return max - min; }
};

/// Returns the box to draw a path in with the same scale on all three axes:
/// the path's bounds grown by `margin` [m] on every side, then each axis
/// widened about its centre to at least `min_fraction` of the longest one,
/// so a level or straight flight still gets a readable box.
/// @throws std::invalid_argument if `points` is empty.
PlotBox EqualScaleBox(const std::vector<Eigen::Vector3d>& points,
                      double margin, double min_fraction);

/// Returns the coarsest 1-2-5 step (true units) that puts at least
/// `min_ticks` ticks on an axis spanning [lo, hi] (true units, lo < hi),
/// counting the multiples of the step that actually fall in the range.
/// @throws std::invalid_argument if the range is empty or not finite.
double CoarsestTickStep(double lo, double hi, int min_ticks);

/// One labelled tick of an axis drawn in exaggerated units.
struct AxisTick {
  double position;  ///< where the tick is drawn, in plot units (K × value)
  double value;     ///< the true value the tick reads [m]
};

/// Returns the ticks of an axis whose plot coordinate is `vertical_exaggeration`
/// K times the true value: one at every multiple of `step` (true units, > 0)
/// whose plotted position K·value lies in [plot_min, plot_max], ascending.
/// The labels therefore read true metres however large K is.
/// @throws std::invalid_argument if `step` or K is not finite and > 0.
std::vector<AxisTick> ExaggeratedAxisTicks(double plot_min, double plot_max,
                                           double vertical_exaggeration,
                                           double step);

/// A corner of the 3D box: bit 0 set for x max, bit 1 for y max, bit 2 for z
/// max (corner 0 is the (min, min, min) corner, 7 the (max, max, max) one).
using BoxEdge = std::array<int, 2>;  ///< the two corners of an edge, lower index first

/// Returns the edges of the 3D box to draw so that none passes in front of
/// what is inside the box: the twelve edges less the three meeting at the
/// corner nearest the viewer. `screen` holds the eight corners as projected
/// [px] (indexed as BoxEdge's corners), seen from above the ground plane
/// (the top face towards the viewer, as the trajectory figure's view). Of
/// the two corners that project inside the box's outline (the nearest and
/// the farthest), the nearest is the top one (z max). All twelve when no top
/// corner is inside the outline (a view straight along an axis).
std::vector<BoxEdge> BoxEdgesBehindContents(const std::array<std::array<double, 2>, 8>& screen);

/// The axes of a ground-track map drawn at equal scales in a box of given
/// pixel size. The map is east right, north up, or, when the track is longer
/// north–south than east–west, turned 90° clockwise (north right, east
/// down: a rotation, so turns keep their sense and are not mirrored), so the
/// long dimension runs along the wide box.
struct GroundTrackAxes {
  bool north_right = false;  ///< x = north, y = −east (else x = east, y = north)
  AxisRange x;               ///< plotted x [m]
  AxisRange y;               ///< plotted y [m]
  /// Returns the plotted (x, y) [m] of a point at `east`, `north` [m].
  std::array<double, 2> ToMap(double east, double north) const {
    return north_right ? std::array<double, 2>{north, -east} : std::array<double, 2>{east, north};
  }
};

/// Returns the axes of the ground track of `path` (plot frame: east, north,
/// altitude [m]) in a box of `width_px` x `height_px`: the track's bounds
/// padded by `margin_fraction` of the longer extent (at least 1 m) on every
/// side, then the shorter axis widened about its centre until one metre is
/// the same number of pixels on both axes.
/// @throws std::invalid_argument if `path` is empty or a size is not positive.
GroundTrackAxes GroundTrackAxesOf(const std::vector<Eigen::Vector3d>& path, double width_px,
                                  double height_px, double margin_fraction = 0.05);

/// Returns the horizontal distance flown [m] at each point of `path` (plot
/// frame), summed along the ground track from 0 at the first point.
std::vector<double> GroundDistance(const std::vector<Eigen::Vector3d>& path);

/// Returns the path of a log in the plot frame [m], one point per row.
std::vector<Eigen::Vector3d> PathInPlotFrame(const sim::FlightLog& log);

}  // namespace aerolin::exporting
