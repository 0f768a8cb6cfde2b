#pragma once
/// @file
/// The one table of mode colours: every figure that draws a mode (the
/// s-plane, the sweep and locus figures) takes its colour from here, so the
/// short period is the same blue in every figure and for every aircraft, and
/// figures of several aircraft can be compared side by side. Free of any
/// plotting library.

#include <cstdint>
#include <optional>
#include <string>

#include "aerolin/analysis/modes.hpp"

namespace aerolin::exporting {

/// The colour of a mode of kind `kind`, 0xRRGGBB (matplotlib's tab10, which
/// stays distinguishable for colour-blind readers and on paper).
/// | mode | colour |
/// |:--|:--|
/// | short period | blue 1F77B4 |
/// | phugoid | cyan 17BECF |
/// | Dutch roll | red D62728 |
/// | roll subsidence | orange FF7F0E |
/// | spiral | purple 9467BD |
/// | roll–spiral oscillation | brown 8C564B |
/// | heading | grey 7F7F7F |
std::uint32_t ModeColour(analysis::ModeKind kind);

/// The colour of the k-th root in a figure that is of no mode kind (a
/// washout filter's root, a coupled pair): colours no mode kind uses
/// (green, pink, olive), cycling.
std::uint32_t OtherRootColour(std::size_t k);

/// The colour of a tracked branch whose first point's mode is named `origin`
/// ("short period", "washout filter", ...): ModeColour of the kind that
/// names it (analysis::ParseModeKind), else OtherRootColour(`other_index`).
std::uint32_t OriginColour(const std::string& origin, std::size_t other_index);

/// `rgb` as MathGL writes a colour in a pen: "{xRRGGBB}".
std::string MglColour(std::uint32_t rgb);

}  // namespace aerolin::exporting
