#pragma once
/// @file
/// Page layout and axis-range arithmetic of the 2D figures (time histories,
/// s-plane), kept free of any plotting library so it can be tested.
/// Coordinates are fractions of the image: x from the left, y from the bottom.

#include <array>
#include <complex>
#include <optional>
#include <vector>

#include "aerolin/export/label_placement.hpp"

namespace aerolin::exporting {

/// A panel's axes box as fractions of the image [0, 1].
struct PanelRect {
  double x0, x1, y0, y1;
};

/// A grid of equal panels under a title strip, with room on each panel's left
/// and bottom for tick labels and axis labels.
struct GridLayout {
  int rows = 1;
  int cols = 1;
  double title_bottom = 0.93;  ///< the title strip spans [title_bottom, 1]
  double grid_bottom = 0.0;    ///< a free strip [0, grid_bottom] below the grid
  double left_margin = 0.07;   ///< per cell, fraction of the image width
  double right_margin = 0.015;
  double bottom_margin = 0.05;  ///< per cell, fraction of the image height
  double top_margin = 0.012;
  /// Returns the axes box of the cell in `row` (0 = top) and `col`.
  PanelRect Cell(int row, int col) const;
};

/// Returns the layout of the time-history figure: `rows` x `cols` panels.
GridLayout HistoryLayout(int rows, int cols);

/// Returns the layout of the s-plane figure: `views` (1 or 2) views side by
/// side under the title, above a legend strip [0, 0.25] of the image.
GridLayout SPlaneLayout(int views);

/// The Bode figure's page: the magnitude panel above the phase panel under
/// the title, and the legend in a strip of its own at the bottom, below the
/// phase panel's tick labels and frequency label, so it covers no curve and
/// no mode name whatever the curves do.
struct BodeLayout {
  PanelRect magnitude;
  PanelRect phase;
  PanelRect legend;  ///< the strip the legend box is drawn in (top left)
};

/// Returns the Bode page for a legend `legend_height` high (fraction of the
/// image height, clamped to [0, 0.4]). The magnitude panel takes 58 % of the
/// height the title and the legend leave.
BodeLayout BodeLayoutOf(double legend_height);

/// A closed interval of an axis.
struct AxisRange {
  double min;
  double max;
};

/// Returns the range spanning every finite value of `columns`, padded by
/// 8 % of its width on each side. A flat signal v (width below 1e-9 of its
/// magnitude) gets v ± max(0.1 |v|, 1) so its line sits mid-panel; no finite
/// value at all gives [−1, 1].
AxisRange PaddedRange(const std::vector<std::vector<double>>& columns);

/// Returns `range` with its top raised so that its old span fills the lower
/// 1 − `fraction` of the axis and a band `fraction` of the axis height
/// (0 <= fraction < 1) stays free at the top, for a legend.
AxisRange WithHeadroom(const AxisRange& range, double fraction);

/// The axes of one s-plane view.
struct SPlaneWindow {
  AxisRange re;  ///< Re λ [1/s]
  AxisRange im;  ///< Im λ [rad/s]
};

/// Returns a window showing every eigenvalue in `lambdas` (give both members
/// of each pair) and the imaginary axis, padded by 15 %.
SPlaneWindow FullSPlaneWindow(const std::vector<std::complex<double>>& lambdas);

/// Returns the window of the zoomed view: a square about the origin holding
/// every eigenvalue with |λ| < `fraction` of the largest |λ|, padded by 40 %;
/// nullopt when there are none besides λ = 0 (nothing to zoom on).
std::optional<SPlaneWindow> SlowModeWindow(
    const std::vector<std::complex<double>>& lambdas, double fraction = 0.2);

/// A view of the s-plane on the image: its window and its axes box [px].
struct SPlaneView {
  SPlaneWindow window;
  PixelBox box;
  /// Returns the pixel position of the point s = Re + i Im.
  std::array<double, 2> ToPixels(std::complex<double> s) const;
};

/// The light grid of an s-plane view, as MATLAB's sgrid draws it: rays of
/// constant damping ratio ζ from the origin into the left half-plane,
/// s = ωn (−ζ ± i √(1 − ζ²)), and circles of constant natural frequency ωn.
struct SPlaneGrid {
  std::vector<double> zetas;                ///< ζ of each ray [-]
  std::vector<double> natural_frequencies;  ///< ωn of each circle [rad/s]
};

/// Returns the grid of `window`: ζ = 0.2, 0.4, 0.6, 0.8 and about four
/// circles at a 1-2-5 step of ωn, all smaller than the farthest corner of
/// the window's left half.
SPlaneGrid SPlaneGridOf(const SPlaneWindow& window);

/// Returns where the upper ray of damping ratio `zeta` (0 < ζ < 1) leaves
/// `window`, pulled 5 % back towards the origin; nullopt if the ray does not
/// enter the window's upper-left quadrant.
std::optional<std::complex<double>> RayLabelPoint(double zeta, const SPlaneWindow& window);

/// Places the mode labels of one s-plane view: label k names the root
/// `named[k]` and is `sizes[k]` = {width, height} [px]; every root of
/// `marks` is a marker of half-size `marker_radius` [px] that no label may
/// cover, nor any box of `fixed_text` (the grid's labels). Labels stay inside
/// the view's box. See PlaceLabels.
std::vector<LabelPlacement> LayoutSPlaneLabels(
    const SPlaneView& view, const std::vector<std::complex<double>>& named,
    const std::vector<std::array<double, 2>>& sizes,
    const std::vector<std::complex<double>>& marks, double marker_radius,
    const std::vector<PixelBox>& fixed_text = {});

}  // namespace aerolin::exporting
