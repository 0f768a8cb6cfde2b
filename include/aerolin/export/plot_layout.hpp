#pragma once
/// @file
/// Page layout and axis-range arithmetic of the 2D figures (time histories,
/// s-plane), kept free of any plotting library so it can be tested.
/// Coordinates are fractions of the image: x from the left, y from the bottom.

#include <array>
#include <complex>
#include <optional>
#include <vector>

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

/// Returns label heights for points at `anchors` (x, y) such that no two
/// labels closer than `min_dx` horizontally are closer than `min_dy`
/// vertically: each label starts at its anchor's height and is pushed down
/// past any earlier (higher) label it would overlap. Same order as `anchors`.
std::vector<double> SpreadLabels(const std::vector<std::array<double, 2>>& anchors,
                                 double min_dx, double min_dy);

}  // namespace aerolin::exporting
