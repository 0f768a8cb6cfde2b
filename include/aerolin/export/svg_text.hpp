#pragma once
/// @file
/// Real text in SVG figures. MathGL's SVG writer draws every character as a
/// path (a glyph outline), so a figure's labels cannot be searched, selected
/// or edited. aerolin removes those glyph paths and writes each text MathGL
/// drew as an SVG `<text>` element at the same place, size, angle and
/// colour (mathgl_canvas.cpp collects them from MathGL's primitives). This
/// header is the library-free part: MathGL's TeX-like markup to SVG text, and
/// the edit of MathGL's SVG.

#include <cstdint>
#include <string>
#include <vector>

namespace aerolin::exporting {

/// Returns the SVG content (UTF-8, XML-escaped) of a MathGL text: "\name"
/// Greek letters become their Unicode characters ("\lambda" → λ; "\phi" →
/// ϕ, the symbol MathGL draws), "\b{...}" and "\i{...}" bold and italic
/// `<tspan>`s, "_x" / "_{..}" and "^x" / "^{..}" sub- and superscript
/// `<tspan>`s. An unknown command keeps its name without the backslash.
std::string MathTextToSvg(const std::wstring& text);

/// One text as drawn: the start of its baseline [px, SVG frame: from the top
/// left, y down], the baseline's angle [deg, clockwise in the SVG frame], the
/// font size [px] and colour 0xRRGGBB.
struct SvgTextItem {
  double x, y;
  double angle_deg;
  double font_px;
  std::uint32_t rgb;
  std::wstring text;  ///< MathGL markup, converted by MathTextToSvg
  /// The width MathGL drew the text at [px]; > 0 sets SVG's textLength, so
  /// viewers that honour it (browsers, Inkscape) match MathGL's layout.
  double length_px = 0.0;
};

/// Returns `svg` (as MathGL's WriteSVG writes it) without its glyph outlines
/// (the `<defs>` of glyph paths and the `<g transform=...>` lines that place
/// them) and with one `<text>` element per item before the closing `</svg>`,
/// in a condensed serif (DejaVu Serif Condensed, else the viewer's serif):
/// librsvg, which draws aerolin's PDFs, ignores textLength, and the
/// condensed face keeps each text within MathGL's width.
/// @throws std::invalid_argument if `svg` has no closing `</svg>`.
std::string ReplaceGlyphsWithText(const std::string& svg, const std::vector<SvgTextItem>& items);

}  // namespace aerolin::exporting
