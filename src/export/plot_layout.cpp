#include "aerolin/export/plot_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "aerolin/core/nice_number.hpp"

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

GridLayout SPlaneLayout(int views) {
  GridLayout layout = HistoryLayout(1, views);
  layout.title_bottom = 0.93;
  layout.bottom_margin = 0.08;
  layout.top_margin = 0.04;  // room for each view's caption
  layout.grid_bottom = 0.25;
  layout.left_margin = 0.085;  // horizontal tick labels, then the axis label
  return layout;
}

BodeLayout BodeLayoutOf(double legend_height) {
  constexpr double kTitleBottom = 0.93;
  constexpr double kMagnitudeShare = 0.58;
  constexpr double kLeft = 0.09, kRight = 0.97;
  constexpr double kBottomMargin = 0.01;
  // Below a panel's axes: the tick labels and, under the phase panel, the
  // frequency label.
  constexpr double kTickAndLabelBand = 0.07;
  const double h = std::clamp(legend_height, 0.0, 0.4);
  BodeLayout layout;
  layout.legend = {kLeft, kRight, kBottomMargin, kBottomMargin + h};
  const double grid_top = kTitleBottom - 0.01;
  const double bottom = layout.legend.y1;
  const double split = grid_top - kMagnitudeShare * (grid_top - bottom);
  layout.magnitude = {kLeft, kRight, split + 0.04, grid_top};
  layout.phase = {kLeft, kRight, bottom + kTickAndLabelBand, split - 0.02};
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

AxisRange WithHeadroom(const AxisRange& range, double fraction) {
  const double f = std::clamp(fraction, 0.0, 0.9);
  return {range.min, range.min + (range.max - range.min) / (1.0 - f)};
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

std::array<double, 2> SPlaneView::ToPixels(std::complex<double> s) const {
  const double fx = (s.real() - window.re.min) / (window.re.max - window.re.min);
  const double fy = (s.imag() - window.im.min) / (window.im.max - window.im.min);
  return {box.x0 + fx * box.width(), box.y0 + fy * box.height()};
}

SPlaneGrid SPlaneGridOf(const SPlaneWindow& window) {
  SPlaneGrid grid;
  grid.zetas = {0.2, 0.4, 0.6, 0.8};
  // The farthest point of the window's left half from the origin.
  const double re = std::min(window.re.min, 0.0);
  const double im = std::max(std::abs(window.im.min), std::abs(window.im.max));
  const double reach = std::hypot(re, im);
  if (!(reach > 0.0)) return grid;
  constexpr int kCircles = 4;
  const double step = core::NiceCeil(reach / kCircles);
  for (double wn = step; wn < reach; wn += step) grid.natural_frequencies.push_back(wn);
  return grid;
}

std::optional<std::complex<double>> RayLabelPoint(double zeta, const SPlaneWindow& window) {
  if (!(zeta > 0.0 && zeta < 1.0) || !(window.re.min < 0.0) || !(window.im.max > 0.0))
    return std::nullopt;
  const std::complex<double> direction(-zeta, std::sqrt(1.0 - zeta * zeta));
  // The ray t·direction leaves through the left edge or the top edge.
  const double t = std::min(window.re.min / direction.real(), window.im.max / direction.imag());
  return 0.95 * t * direction;
}

std::vector<LabelPlacement> LayoutSPlaneLabels(
    const SPlaneView& view, const std::vector<std::complex<double>>& named,
    const std::vector<std::array<double, 2>>& sizes,
    const std::vector<std::complex<double>>& marks, double marker_radius,
    const std::vector<PixelBox>& fixed_text) {
  std::vector<PixelBox> obstacles = fixed_text;
  for (const std::complex<double>& m : marks)
    obstacles.push_back(MarkerBox(view.ToPixels(m), marker_radius));
  std::vector<LabelRequest> requests;
  for (std::size_t k = 0; k < named.size(); ++k)
    requests.push_back({view.ToPixels(named[k]), sizes[k][0], sizes[k][1]});
  // The gap keeps a label a little off its marker's edge.
  return PlaceLabels(requests, obstacles, view.box, marker_radius + 3.0);
}

}  // namespace aerolin::exporting
