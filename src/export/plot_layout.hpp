#pragma once
/// @file
/// Page layout and axis-range arithmetic of the 2D figures (time histories,
/// s-plane), kept free of any plotting library so it can be tested.
/// Coordinates are fractions of the image: x from the left, y from the bottom.

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

}  // namespace aerolin::exporting
