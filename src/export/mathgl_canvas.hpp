#pragma once
/// @file
/// Internal to aerolin_export: the one place that creates a MathGL canvas and
/// writes it to a file, so size checks, fonts and error reporting are shared
/// by every figure. Not installed; includes MathGL.

#include <mgl2/mgl.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "aerolin/export/plot.hpp"
#include "aerolin/export/label_placement.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting::internal {

/// Title size relative to the current font (MathGL's negative-size convention).
inline constexpr double kTitleScale = -2.0;

/// Returns an off-screen canvas of the requested size, white, lighting off,
/// with aerolin's fonts and line widths.
/// @throws std::invalid_argument naming `path` if the size is not positive or
///         the extension is unknown (checked before any drawing).
std::unique_ptr<mglGraph> MakeCanvas(const PlotOptions& options,
                                     const std::string& path);

/// Returns how much larger than MathGL would draw it text is set on an image
/// smaller than the default size (PlotOptions): MathGL scales text with the
/// image, which leaves tick labels and legends at 800 × 600 too small to
/// read; below the default, text shrinks only as the square root of the
/// image's scale r = min(width/1200, height/900), i.e. times 1/√r (1.22 at
/// 800 × 600). 1 at the default size and above. The figures whose text was
/// smallest apply it (time histories, ground track, Bode, 3D trajectory).
double SmallImageTextScale(mglGraph& graph);

/// Makes `rect` (fractions of the image, see plot_layout.hpp) the axes box of
/// the following 2D drawing, with MathGL font size `font_size`. MathGL scales
/// text with the panel's area in a way that differs between tick labels and
/// axis labels, so each figure sets a size tuned (by eye) for its layout.
void InPanel(mglGraph& graph, const PanelRect& rect, double font_size);

/// Returns {width, height} [px] of `text` as Putsw draws it in the current
/// panel and font size, times `scale` (MathGL's relative size, 1 = as is).
/// The height is the ink of a line (ascender to descender), about 0.7 of
/// MathGL's line height. Measured with MathGL's own glyph widths; the pixels
/// per font unit are calibrated against rendered PNGs (see the .cpp).
std::array<double, 2> TextSizePx(mglGraph& graph, const std::wstring& text,
                                 double scale = 1.0);

/// Where Putsw puts the baseline of left-aligned (":L") text whose ink box
/// of height `height` [px] starts at `box_bottom` [px]: the ink reaches
/// about 0.13 of the height below the anchor (descenders).
inline double BaselineForInkBox(double box_bottom, double height) {
  return box_bottom + 0.13 * height;
}

/// The current panel's data ranges and where they land on the image [px,
/// from the bottom left, as label_placement.hpp counts].
struct PanelMap {
  AxisRange x, y;
  PixelBox box;
  std::array<double, 2> ToPixels(double xv, double yv) const {
    return {box.x0 + (xv - x.min) / (x.max - x.min) * box.width(),
            box.y0 + (yv - y.min) / (y.max - y.min) * box.height()};
  }
  mglPoint ToData(double px, double py) const {
    return mglPoint(x.min + (px - box.x0) / box.width() * (x.max - x.min),
                    y.min + (py - box.y0) / box.height() * (y.max - y.min));
  }
};

/// Returns the map of the panel whose ranges were just set to `x`, `y`
/// (SetRanges), measured with MathGL's CalcScr.
PanelMap MapPanel(mglGraph& graph, const AxisRange& x, const AxisRange& y);

/// One entry of a legend drawn by DrawLegend: a line sample in `pen` (none
/// if empty) and its text.
struct LegendEntry {
  std::wstring text;
  std::string pen;
};

/// Returns the size [px] of the legend DrawLegend draws for `entries` in
/// the current panel and font.
std::array<double, 2> LegendSizePx(mglGraph& graph, const std::vector<LegendEntry>& entries);

/// Draws `entries` as a legend filling `box` [px] of the panel `map`: a white
/// box with a light grey frame, one row per entry (line sample, text).
void DrawLegend(mglGraph& graph, const PanelMap& map, const PixelBox& box,
                const std::vector<LegendEntry>& entries);

/// Returns the width [px] of the widest tick label of an axis spanning
/// [lo, hi] with ticks at the multiples of `step` printed with "%g".
double WidestTickLabelPx(mglGraph& graph, double lo, double hi, double step);

/// Draws the current panel's frame as the 2D figures do: the light dotted
/// grid, the black box, and the x and y axes with horizontal tick labels.
/// (plot_bode, plot_history, plot_rough_air, plot_track and plot_tracked
/// still spell the same five calls out.)
void DrawFrame(mglGraph& graph);

/// Writes the y axis label `text` (along the axis) left of horizontal tick
/// labels at most `widest_tick_px` wide, so the two never overlap. Call after
/// Axis() in the panel.
void LabelYClearOfTicks(mglGraph& graph, const std::wstring& text, double widest_tick_px);

/// Writes `graph` to `path` in the format of its extension.
/// @throws std::runtime_error naming `path`, with MathGL's message, if the
///         file was not written.
void WriteCanvas(mglGraph& graph, const std::string& path);

/// Converts UTF-8 text (aircraft names, Greek symbols) to the wide string
/// MathGL's text functions take; invalid bytes become U+FFFD.
std::wstring Widen(const std::string& utf8);

/// Returns "title" or "aircraft: title".
std::wstring FigureTitle(const PlotOptions& options, const std::string& title);

/// Returns MathGL's (negative) relative size for the title `text`, drawn
/// on the whole image at `size` (negative, e.g. kTitleScale): `size` if the
/// title fits 96 % of the image's width, else smaller until it does (the
/// F-16's long name with "linear and nonlinear models" ran off both edges).
double TitleSizeToFit(mglGraph& graph, const std::wstring& text, double size);

/// Returns the title subject of a flight figure (trajectory, track,
/// history): `subject`, followed by " (linear and nonlinear models)" when a
/// nonlinear flight is drawn beside (`beside`), else by " (FLOWN_BY)" when
/// options.flown_by is set.
std::string FlightSubject(const PlotOptions& options, const std::string& subject, bool beside);

/// Checks the second flight of a flight figure (plot.hpp): null, or one row
/// per row of `log` at the same times, up to its own end (a departed
/// nonlinear flight ends first: sim::NonlinearShadow::departed).
/// @throws std::invalid_argument naming `path` and both row counts.
void CheckBesideFlight(const sim::FlightLog& log, const sim::FlightLog* nonlinear,
                       const std::string& path);

/// Returns `values` as MathGL data (one row), for Plot, Region and ticks.
inline mglData Data(const std::vector<double>& values) {
  mglData d(static_cast<long>(values.size()));
  for (std::size_t i = 0; i < values.size(); ++i) d.a[i] = values[i];
  return d;
}

}  // namespace aerolin::exporting::internal
