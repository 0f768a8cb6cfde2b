#pragma once
/// @file
/// Internal to aerolin_export: the one place that creates a MathGL canvas and
/// writes it to a file, so size checks, fonts and error reporting are shared
/// by every figure. Not installed; includes MathGL.

#include <mgl2/mgl.h>

#include <array>
#include <memory>
#include <string>

#include "aerolin/export/plot.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting::internal {

/// Title size relative to the current font (MathGL's negative-size convention).
inline constexpr double kTitleScale = -2.0;
/// Legend text as large as the tick labels (MathGL draws it smaller).
inline constexpr const char* kLegendOption = "size -1.4";

/// Returns an off-screen canvas of the requested size, white, lighting off,
/// with aerolin's fonts and line widths.
/// @throws std::invalid_argument naming `path` if the size is not positive or
///         the extension is unknown (checked before any drawing).
std::unique_ptr<mglGraph> MakeCanvas(const PlotOptions& options,
                                     const std::string& path);

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

/// Writes `graph` to `path` in the format of its extension.
/// @throws std::runtime_error naming `path`, with MathGL's message, if the
///         file was not written.
void WriteCanvas(mglGraph& graph, const std::string& path);

/// Converts UTF-8 text (aircraft names, Greek symbols) to the wide string
/// MathGL's text functions take; invalid bytes become U+FFFD.
std::wstring Widen(const std::string& utf8);

/// Returns "title" or "aircraft: title".
std::wstring FigureTitle(const PlotOptions& options, const std::string& title);

}  // namespace aerolin::exporting::internal
