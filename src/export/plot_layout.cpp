#include "export/plot_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aerolin::exporting {

PanelRect GridLayout::Cell(int row, int col) const {
  const double cell_w = 1.0 / cols;
  const double cell_h = title_bottom / rows;
  const double x = col * cell_w;
  const double y = title_bottom - (row + 1) * cell_h;
  return {x + left_margin, x + cell_w - right_margin, y + bottom_margin,
          y + cell_h - top_margin};
}

GridLayout HistoryLayout(int rows, int cols) {
  GridLayout layout;
  layout.rows = std::max(rows, 1);
  layout.cols = std::max(cols, 1);
  return layout;
}

AxisRange PaddedRange(const std::vector<std::vector<double>>& columns) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (const std::vector<double>& column : columns)
    for (const double v : column)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!(lo <= hi)) return {-1.0, 1.0};
  constexpr double kFlatRelative = 1e-9;  // below this the signal is flat
  constexpr double kPad = 0.08;
  const double magnitude = std::max({1.0, std::abs(lo), std::abs(hi)});
  if (hi - lo < kFlatRelative * magnitude) {
    const double centre = 0.5 * (lo + hi);
    const double half = std::max(0.1 * std::abs(centre), 1.0);
    return {centre - half, centre + half};
  }
  const double pad = kPad * (hi - lo);
  return {lo - pad, hi + pad};
}

}  // namespace aerolin::exporting
