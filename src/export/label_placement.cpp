#include "aerolin/export/label_placement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "aerolin/core/units.hpp"

namespace aerolin::exporting {

bool Overlaps(const PixelBox& a, const PixelBox& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

bool Contains(const PixelBox& outer, const PixelBox& inner) {
  return inner.x0 >= outer.x0 && inner.x1 <= outer.x1 && inner.y0 >= outer.y0 &&
         inner.y1 <= outer.y1;
}

PixelBox MarkerBox(const std::array<double, 2>& centre, double radius) {
  return {centre[0] - radius, centre[0] + radius, centre[1] - radius, centre[1] + radius};
}

namespace {

double OverlapArea(const PixelBox& a, const PixelBox& b) {
  const double w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const double h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  return w > 0.0 && h > 0.0 ? w * h : 0.0;
}

// The box of a `w` x `h` label whose nearest edge lies `d` from `anchor` in
// direction `angle` [rad]: the box centre is pushed out by d plus the half
// extent of the box along that direction, so the gap is d on every side.
PixelBox CandidateBox(const std::array<double, 2>& anchor, double w, double h, double d,
                      double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  // Distance from the box centre to its edge along (c, s).
  const double half_extent =
      std::min(std::abs(c) > 1e-12 ? 0.5 * w / std::abs(c) : 1e300,
               std::abs(s) > 1e-12 ? 0.5 * h / std::abs(s) : 1e300);
  const double r = d + half_extent;
  const double cx = anchor[0] + r * c, cy = anchor[1] + r * s;
  return {cx - 0.5 * w, cx + 0.5 * w, cy - 0.5 * h, cy + 0.5 * h};
}

}  // namespace

std::vector<LabelPlacement> PlaceLabels(const std::vector<LabelRequest>& labels,
                                        const std::vector<PixelBox>& obstacles,
                                        const PixelBox& bounds, double gap, int max_rings) {
  // Directions [deg], in order of preference: beside the point (text reads
  // on from it), then the diagonals, then above and below, then between.
  static constexpr std::array<double, 16> kDirectionsDeg = {
      0, 180, 30, 150, -30, -150, 60, 120, -60, -120, 90, -90, 15, 165, -15, -165};

  // Crowded first: the number of other anchors within three label heights.
  std::vector<std::size_t> order(labels.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<int> crowding(labels.size(), 0);
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = 0; j < labels.size(); ++j)
      if (i != j && std::hypot(labels[i].anchor[0] - labels[j].anchor[0],
                               labels[i].anchor[1] - labels[j].anchor[1]) <
                        3.0 * std::max(labels[i].height, labels[j].height))
        ++crowding[i];
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return crowding[a] > crowding[b]; });

  std::vector<LabelPlacement> placed(labels.size());
  std::vector<PixelBox> taken = obstacles;
  for (const std::size_t i : order) {
    const LabelRequest& label = labels[i];
    bool found = false;
    double best_cost = std::numeric_limits<double>::infinity();
    LabelPlacement best{};
    for (int ring = 0; ring < std::max(max_rings, 1) && !found; ++ring) {
      const double d = gap + ring * label.height;
      for (const double deg : kDirectionsDeg) {
        const PixelBox box = CandidateBox(label.anchor, label.width, label.height, d,
                                          deg * core::kDegToRad);
        double cost = 0.0;
        for (const PixelBox& t : taken) cost += OverlapArea(box, t);
        // Outside the panel counts as overlap with everything beyond it.
        const double inside = OverlapArea(box, bounds);
        cost += box.width() * box.height() - inside;
        if (cost <= 0.0) {
          placed[i] = {box, ring > 0, true};
          found = true;
          break;
        }
        if (cost < best_cost) {
          best_cost = cost;
          best = {box, ring > 0, false};
        }
      }
    }
    if (!found) placed[i] = best;
    taken.push_back(placed[i].box);
  }
  return placed;
}

namespace {

// Liang–Barsky: does the segment p–q meet the closed box?
bool SegmentHitsBox(const std::array<double, 2>& p, const std::array<double, 2>& q,
                    const PixelBox& b) {
  double t0 = 0.0, t1 = 1.0;
  const double dx = q[0] - p[0], dy = q[1] - p[1];
  const std::array<std::array<double, 2>, 4> checks = {{{-dx, p[0] - b.x0},
                                                        {dx, b.x1 - p[0]},
                                                        {-dy, p[1] - b.y0},
                                                        {dy, b.y1 - p[1]}}};
  for (const auto& [denominator, distance] : checks) {
    if (denominator == 0.0) {
      if (distance < 0.0) return false;
      continue;
    }
    const double t = distance / denominator;
    if (denominator < 0.0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace

int SegmentsHitting(const PixelBox& box, const std::vector<Polyline>& lines) {
  int hits = 0;
  for (const Polyline& line : lines) {
    if (line.size() == 1 && SegmentHitsBox(line[0], line[0], box)) ++hits;
    for (std::size_t k = 1; k < line.size(); ++k)
      if (std::isfinite(line[k - 1][1]) && std::isfinite(line[k][1]) &&
          SegmentHitsBox(line[k - 1], line[k], box))
        ++hits;
  }
  return hits;
}

PixelBox CornerBox(const PixelBox& panel, Corner corner, double width, double height,
                   double inset) {
  const bool right = corner == Corner::kTopRight || corner == Corner::kBottomRight;
  const bool top = corner == Corner::kTopRight || corner == Corner::kTopLeft;
  const double x0 = right ? panel.x1 - inset - width : panel.x0 + inset;
  const double y0 = top ? panel.y1 - inset - height : panel.y0 + inset;
  return {x0, x0 + width, y0, y0 + height};
}

Corner EmptiestCorner(const PixelBox& panel, double width, double height, double inset,
                      const std::vector<Polyline>& lines) {
  Corner best = Corner::kTopRight;
  int fewest = std::numeric_limits<int>::max();
  for (const Corner c :
       {Corner::kTopRight, Corner::kTopLeft, Corner::kBottomRight, Corner::kBottomLeft}) {
    const int hits = SegmentsHitting(CornerBox(panel, c, width, height, inset), lines);
    if (hits < fewest) {
      fewest = hits;
      best = c;
    }
  }
  return best;
}

}  // namespace aerolin::exporting
