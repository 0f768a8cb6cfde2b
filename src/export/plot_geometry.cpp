#include "aerolin/export/plot_geometry.hpp"

#include "aerolin/core/frames.hpp"
#include "aerolin/core/nice_number.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace aerolin::exporting {

std::vector<Eigen::Vector3d> ExaggerateAltitude(
    std::vector<Eigen::Vector3d> points, double vertical_exaggeration) {
  for (Eigen::Vector3d& p : points) p = ExaggerateAltitude(p, vertical_exaggeration);
  return points;
}

std::array<Triangle, kNumGlyphParts> PaperPlaneInPlotFrame(
    const sim::FlightState& state, double theta0, double scale,
    double vertical_exaggeration) {
  const Eigen::Matrix3d R = core::BodyToEarth(
      state[sim::kPsi], theta0 + state[sim::kTheta], state[sim::kPhi]);
  const Eigen::Vector3d position = ExaggerateAltitude(
      core::NedToPlot(state[sim::kNorth], state[sim::kEast], state[sim::kDown]),
      vertical_exaggeration);
  std::array<Triangle, kNumGlyphParts> parts = PaperPlaneBody(scale);
  // NedToPlot only permutes and negates, so NedToPlot(a) + NedToPlot(b) is
  // bit-identical to NedToPlot(a + b): K = 1 draws exactly the old glyph.
  for (Triangle& t : parts)
    for (Eigen::Vector3d& v : t) v = position + core::NedToPlot(R * v);
  return parts;
}

std::vector<std::size_t> GlyphRows(const std::vector<double>& time,
                                   double interval, int target_count) {
  std::vector<std::size_t> rows;
  if (time.empty()) return rows;
  const double t0 = time.front();
  const double duration = time.back() - t0;
  if (interval <= 0.0) {
    if (duration <= 0.0 || target_count < 1) {
      if (time.size() == 1) return {0};
      return {0, time.size() - 1};
    }
    interval = core::NiceCeil(duration / target_count);
  }
  // At most kMaxGlyphs marks: a smaller interval is widened to that many
  // (a glyph every few pixels is a smear, and a tiny interval must not loop).
  if (duration > 0.0) interval = std::max(interval, duration / kMaxGlyphs);
  if (!(interval > 0.0) || !std::isfinite(interval)) {
    if (time.size() == 1) return {0};
    return {0, time.size() - 1};
  }
  // Samples at multiples of dt carry rounding error; a row within this
  // fraction of the interval before a mark counts as on it.
  constexpr double kOnMarkFraction = 1e-6;
  rows.push_back(0);
  double next_mark = t0 + interval;
  for (std::size_t k = 1; k < time.size(); ++k) {
    if (time[k] >= next_mark - kOnMarkFraction * interval) {
      rows.push_back(k);
      // The first mark after time[k], in one step (not one mark at a time).
      const double marks = std::floor((time[k] - t0) / interval + kOnMarkFraction);
      next_mark = std::max(next_mark + interval, t0 + (marks + 1.0) * interval);
    }
  }
  if (rows.back() != time.size() - 1) rows.push_back(time.size() - 1);
  return rows;
}

PlotBox EqualScaleBox(const std::vector<Eigen::Vector3d>& points,
                      double margin, double min_fraction) {
  if (points.empty())
    throw std::invalid_argument("EqualScaleBox: no points");
  PlotBox box{points.front(), points.front()};
  for (const Eigen::Vector3d& p : points) {
    box.min = box.min.cwiseMin(p);
    box.max = box.max.cwiseMax(p);
  }
  box.min.array() -= margin;
  box.max.array() += margin;
  const double longest = std::max(box.extent().maxCoeff(), 1e-9);
  const double shortest_allowed = min_fraction * longest;
  for (int i = 0; i < 3; ++i) {
    const double grow = shortest_allowed - box.extent()[i];
    if (grow > 0.0) {
      box.min[i] -= 0.5 * grow;
      box.max[i] += 0.5 * grow;
    }
  }
  return box;
}

double CoarsestTickStep(double lo, double hi, int min_ticks) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi))
    throw std::invalid_argument(fmt::format("an axis needs a finite range lo < hi, got [{:g}, {:g}]",
                                            lo, hi));
  constexpr double kSlack = 1e-9;  // a tick on an end counts
  const auto count = [&](double step) {
    return std::floor(hi / step + kSlack) - std::ceil(lo / step - kSlack) + 1.0;
  };
  // Step down 10, 5, 2, 1, 0.5, ... from the span; a step of span / min_ticks
  // always fits min_ticks, so this ends within a few steps.
  double step = core::NiceCeil(hi - lo);
  while (count(step) < min_ticks) step = core::NiceFloor(step * (1.0 - 1e-6));
  return step;
}

std::vector<AxisTick> ExaggeratedAxisTicks(double plot_min, double plot_max,
                                           double vertical_exaggeration,
                                           double step) {
  const double k = vertical_exaggeration;
  if (!(step > 0.0) || !std::isfinite(step) || !(k > 0.0) || !std::isfinite(k))
    throw std::invalid_argument(
        "ExaggeratedAxisTicks: expected a finite step > 0 and exaggeration > 0, got step " +
        std::to_string(step) + " and exaggeration " + std::to_string(k));
  std::vector<AxisTick> ticks;
  // Integer multiples, not repeated sums, so values such as 3 × 0.2 carry
  // one rounding only; the slack keeps a tick that lands on an end.
  constexpr double kSlack = 1e-9;
  const double first = std::ceil(plot_min / (k * step) - kSlack);
  const double last = std::floor(plot_max / (k * step) + kSlack);
  for (double n = first; n <= last; n += 1.0) {
    double value = n * step;
    if (value == 0.0) value = 0.0;  // ceil(-0.3) is −0, which prints "-0"
    ticks.push_back({k * value, value});
  }
  return ticks;
}

std::vector<BoxEdge> BoxEdgesBehindContents(const std::array<std::array<double, 2>, 8>& screen) {
  // The outline: the convex hull of the projected corners (monotone chain).
  std::array<int, 8> order = {0, 1, 2, 3, 4, 5, 6, 7};
  std::sort(order.begin(), order.end(), [&](int a, int b) { return screen[a] < screen[b]; });
  const auto cross = [&](int o, int a, int b) {
    return (screen[a][0] - screen[o][0]) * (screen[b][1] - screen[o][1]) -
           (screen[a][1] - screen[o][1]) * (screen[b][0] - screen[o][0]);
  };
  std::vector<int> hull;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t base = hull.size();
    for (int k = 0; k < 8; ++k) {
      const int i = pass == 0 ? order[k] : order[7 - k];
      while (hull.size() >= base + 2 && cross(hull[hull.size() - 2], hull.back(), i) <= 0.0) hull.pop_back();
      hull.push_back(i);
    }
    hull.pop_back();  // the last point starts the other chain
  }
  int nearest = -1;
  for (int c = 4; c < 8; ++c)  // the top corners
    if (std::find(hull.begin(), hull.end(), c) == hull.end()) nearest = c;
  std::vector<BoxEdge> edges;
  for (int a = 0; a < 8; ++a)
    for (int bit = 0; bit < 3; ++bit) {
      const int b = a | (1 << bit);
      if (b != a && a != nearest && b != nearest) edges.push_back({a, b});
    }
  return edges;
}

std::vector<Eigen::Vector3d> PathInPlotFrame(const sim::FlightLog& log) {
  std::vector<Eigen::Vector3d> path;
  path.reserve(log.size());
  for (const sim::FlightState& x : log.state)
    path.push_back(core::NedToPlot(x[sim::kNorth], x[sim::kEast], x[sim::kDown]));
  return path;
}

GroundTrackAxes GroundTrackAxesOf(const std::vector<Eigen::Vector3d>& path, double width_px,
                                  double height_px, double margin_fraction) {
  if (path.empty()) throw std::invalid_argument("GroundTrackAxesOf: the path is empty");
  if (!(width_px > 0.0) || !(height_px > 0.0))
    throw std::invalid_argument("GroundTrackAxesOf: the box size must be positive");
  double e0 = path.front().x(), e1 = e0, n0 = path.front().y(), n1 = n0;
  for (const Eigen::Vector3d& p : path) {
    e0 = std::min(e0, p.x());
    e1 = std::max(e1, p.x());
    n0 = std::min(n0, p.y());
    n1 = std::max(n1, p.y());
  }
  GroundTrackAxes axes;
  axes.north_right = (n1 - n0) > (e1 - e0);
  AxisRange x = axes.north_right ? AxisRange{n0, n1} : AxisRange{e0, e1};
  AxisRange y = axes.north_right ? AxisRange{-e1, -e0} : AxisRange{n0, n1};
  const double margin =
      std::max(margin_fraction * std::max(x.max - x.min, y.max - y.min), 1.0);
  x = {x.min - margin, x.max + margin};
  y = {y.min - margin, y.max + margin};
  // Metres per pixel on each axis; widen the axis with fewer.
  const double mx = (x.max - x.min) / width_px, my = (y.max - y.min) / height_px;
  if (mx > my) {
    const double c = 0.5 * (y.min + y.max), half = 0.5 * mx * height_px;
    y = {c - half, c + half};
  } else {
    const double c = 0.5 * (x.min + x.max), half = 0.5 * my * width_px;
    x = {c - half, c + half};
  }
  axes.x = x;
  axes.y = y;
  return axes;
}

std::vector<double> GroundDistance(const std::vector<Eigen::Vector3d>& path) {
  std::vector<double> distance;
  distance.reserve(path.size());
  double total = 0.0;
  for (std::size_t k = 0; k < path.size(); ++k) {
    if (k > 0) total += std::hypot(path[k].x() - path[k - 1].x(), path[k].y() - path[k - 1].y());
    distance.push_back(total);
  }
  return distance;
}

}  // namespace aerolin::exporting
