#include "aerolin/export/plot_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aerolin::exporting {

PanelRect GridLayout::Cell(int row, int col) const {
  const double cell_w = 1.0 / cols;
  const double cell_h = (title_bottom - grid_bottom) / rows;
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

SPlaneWindow FullSPlaneWindow(const std::vector<std::complex<double>>& lambdas) {
  double re_min = 0.0, re_max = 0.0, im_max = 0.0;
  for (const std::complex<double>& l : lambdas) {
    re_min = std::min(re_min, l.real());
    re_max = std::max(re_max, l.real());
    im_max = std::max(im_max, std::abs(l.imag()));
  }
  constexpr double kPad = 0.15;
  const double span = std::max(re_max - re_min, 1e-6);
  // Leave room right of the imaginary axis even for a stable set, so the
  // stability boundary is not drawn on the frame.
  const double re_hi = re_max + std::max(kPad * span, 0.1 * span);
  const double re_lo = re_min - kPad * span;
  const double im_half = im_max > 0.0 ? (1.0 + kPad) * im_max : 0.5 * span;
  return {{re_lo, re_hi}, {-im_half, im_half}};
}

std::optional<SPlaneWindow> SlowModeWindow(
    const std::vector<std::complex<double>>& lambdas, double fraction) {
  double largest = 0.0;
  for (const std::complex<double>& l : lambdas) largest = std::max(largest, std::abs(l));
  double slow = 0.0;
  for (const std::complex<double>& l : lambdas)
    if (std::abs(l) < fraction * largest) slow = std::max(slow, std::abs(l));
  if (!(slow > 0.0)) return std::nullopt;
  const double r = 1.4 * slow;
  return SPlaneWindow{{-r, r}, {-r, r}};
}

std::vector<double> SpreadLabels(const std::vector<std::array<double, 2>>& anchors,
                                 double min_dx, double min_dy) {
  std::vector<std::size_t> order(anchors.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Highest first, so labels are pushed downwards only; ties by x.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (anchors[a][1] != anchors[b][1]) return anchors[a][1] > anchors[b][1];
    return anchors[a][0] < anchors[b][0];
  });
  // One pass per label over the placed labels it may overlap, highest first:
  // a push only moves a label down, so a label passed stays clear, and the
  // work is bounded by construction (O(n² log n) for n labels). Rounding
  // (y - min_dy == y for a tiny min_dy) can leave two labels closer than
  // min_dy but never loops.
  std::vector<double> y(anchors.size());
  std::vector<std::size_t> placed;
  std::vector<std::size_t> near;
  for (const std::size_t i : order) {
    near.clear();
    for (const std::size_t j : placed)
      if (std::abs(anchors[i][0] - anchors[j][0]) < min_dx) near.push_back(j);
    std::sort(near.begin(), near.end(), [&](std::size_t a, std::size_t b) { return y[a] > y[b]; });
    double yi = anchors[i][1];
    for (const std::size_t j : near)
      if (std::abs(yi - y[j]) < min_dy) yi = std::min(yi, y[j] - min_dy);
    y[i] = yi;
    placed.push_back(i);
  }
  return y;
}

}  // namespace aerolin::exporting
