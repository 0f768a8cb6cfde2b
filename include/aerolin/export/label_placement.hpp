#pragma once
/// @file
/// Where text goes on a figure so that it hides nothing: labels next to the
/// points they name (s-plane roots) and a legend in the emptiest corner of a
/// panel. Free of any plotting library so it can be tested. Coordinates are
/// pixels of the image, x to the right and y up.

#include <array>
#include <vector>

namespace aerolin::exporting {

/// An axis-aligned rectangle [px], x0 <= x1, y0 <= y1.
struct PixelBox {
  double x0, x1, y0, y1;
  double width() const { return x1 - x0; }
  double height() const { return y1 - y0; }
};

/// True if the interiors of `a` and `b` intersect (touching edges do not).
bool Overlaps(const PixelBox& a, const PixelBox& b);

/// True if `inner` lies inside `outer` (edges included).
bool Contains(const PixelBox& outer, const PixelBox& inner);

/// The square of half-side `radius` [px] around `centre`: what a marker covers.
PixelBox MarkerBox(const std::array<double, 2>& centre, double radius);

/// A label to place: the point it names and the size of its text [px].
struct LabelRequest {
  std::array<double, 2> anchor;  ///< the named point [px]
  double width;                  ///< text width [px], > 0
  double height;                 ///< text height [px], > 0
};

/// Where a label went.
struct LabelPlacement {
  PixelBox box;         ///< the text's box [px]
  bool leader = false;  ///< away from its point: draw a line from the anchor
  bool clear = true;    ///< false if no free place was found (box overlaps)
};

/// Returns a place for each label of `labels` (same order): a box beside its
/// anchor that overlaps no other label, no box of `obstacles` (markers, fixed
/// text) and lies inside `bounds`.
///
/// Candidates are tried nearest first: rings at distance gap, gap + h,
/// gap + 2h, ... from the anchor (h the label's height, at most
/// `max_rings` rings), and on each ring 16 directions, right and left of the
/// point before above and below. A label off the first ring gets a leader
/// line. The most crowded labels (most other anchors nearby) are placed
/// first. A label with no free candidate takes the one overlapping least and
/// is marked `clear = false`, so a caller or a test can tell.
std::vector<LabelPlacement> PlaceLabels(const std::vector<LabelRequest>& labels,
                                        const std::vector<PixelBox>& obstacles,
                                        const PixelBox& bounds, double gap,
                                        int max_rings = 8);

/// A corner of a panel.
enum class Corner { kTopRight, kTopLeft, kBottomRight, kBottomLeft };

/// A polyline [px]: one plotted series.
using Polyline = std::vector<std::array<double, 2>>;

/// Returns how many segments of `lines` cross or touch `box` (a segment
/// wholly inside counts too).
int SegmentsHitting(const PixelBox& box, const std::vector<Polyline>& lines);

/// Returns the corner of `panel` where a box of `width` x `height` [px]
/// (inset by `inset` from the panel's edges) is hit by the fewest segments of
/// `lines`; ties keep the order top right, top left, bottom right, bottom
/// left. A corner with zero hits hides no data.
Corner EmptiestCorner(const PixelBox& panel, double width, double height, double inset,
                      const std::vector<Polyline>& lines);

/// The box that EmptiestCorner scores for `corner`.
PixelBox CornerBox(const PixelBox& panel, Corner corner, double width, double height,
                   double inset);

}  // namespace aerolin::exporting
