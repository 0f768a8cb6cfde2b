#include "aerolin/export/plot_geometry.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "aerolin/core/units.hpp"

namespace aerolin::exporting {
namespace {

// Rotations and sums of a few doubles: exact to rounding.
constexpr double kTol = 1e-12;

Eigen::Vector3d Nose(const std::array<Triangle, kNumGlyphParts>& g) {
  return g[kRightWing][0];
}
Eigen::Vector3d RightTip(const std::array<Triangle, kNumGlyphParts>& g) {
  return g[kRightWing][1];
}

TEST(PaperPlaneInPlotFrame, LevelNorthPointsTheNoseNorthAtTheAircraft) {
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kNorth] = 100;
  x[sim::kEast] = 50;
  x[sim::kDown] = -30;  // 30 m up
  const auto g = PaperPlaneInPlotFrame(x, 0.0, 1.0);
  // Plot frame: (east, north, altitude).
  EXPECT_TRUE(Nose(g).isApprox(Eigen::Vector3d(50, 102, 30), kTol));
  EXPECT_TRUE(RightTip(g).isApprox(Eigen::Vector3d(51, 99, 30), kTol));
}

TEST(PaperPlaneInPlotFrame, HeadingEastPointsTheNoseEast) {
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kPsi] = core::kPi / 2;
  const auto g = PaperPlaneInPlotFrame(x, 0.0, 1.0);
  EXPECT_TRUE(Nose(g).isApprox(Eigen::Vector3d(2, 0, 0), 1e-9));
  // The right wing then points south.
  EXPECT_NEAR(RightTip(g).y(), -1.0, 1e-9);
}

TEST(PaperPlaneInPlotFrame, TrimPlusPerturbationPitchRaisesTheNose) {
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kTheta] = 0.1;
  const auto g = PaperPlaneInPlotFrame(x, 0.2, 1.0);
  EXPECT_NEAR(Nose(g).z(), 2.0 * std::sin(0.3), kTol);
  EXPECT_NEAR(Nose(g).y(), 2.0 * std::cos(0.3), kTol);
}

TEST(PaperPlaneInPlotFrame, RightBankLowersTheRightWing) {
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kPhi] = 0.5;
  const auto g = PaperPlaneInPlotFrame(x, 0.0, 1.0);
  EXPECT_NEAR(RightTip(g).z(), -std::sin(0.5), kTol);
  EXPECT_NEAR(g[kLeftWing][1].z(), std::sin(0.5), kTol);
}


std::vector<double> Times(int n, double dt) {
  std::vector<double> t;
  for (int k = 0; k <= n; ++k) t.push_back(k * dt);  // as the slicer records
  return t;
}


TEST(GlyphRows, TakesTheFirstRowAtEachMarkAndTheLastRow) {
  const std::vector<std::size_t> rows = GlyphRows(Times(600, 0.1), 10.0);
  EXPECT_EQ(rows, (std::vector<std::size_t>{0, 100, 200, 300, 400, 500, 600}));
}

TEST(GlyphRows, AddsTheFinalPositionOffTheGrid) {
  const std::vector<std::size_t> rows = GlyphRows(Times(65, 0.1), 2.0);
  EXPECT_EQ(rows, (std::vector<std::size_t>{0, 20, 40, 60, 65}));
}

TEST(GlyphRows, AutomaticIntervalGivesAboutTheTargetCount) {
  // 60 s / 8 = 7.5 → 10 s: 7 glyphs.
  EXPECT_EQ(GlyphRows(Times(600, 0.1), 0.0, 8).size(), 7u);
  EXPECT_TRUE(GlyphRows({}, 1.0).empty());
  EXPECT_EQ(GlyphRows({0.0}, 0.0), (std::vector<std::size_t>{0}));
}

// Regression: an interval of 1e-20 s stepped the next mark 1e-20 at a time
// (1e19 steps per row, or forever once t + 1e-20 == t): never returned.
TEST(GlyphRows, BoundsTheNumberOfGlyphsForATinyInterval) {
  const std::vector<double> t = Times(6000, 0.1);
  for (const double interval : {1e-20, 1e-9, 1e-3}) {
    const std::vector<std::size_t> rows = GlyphRows(t, interval);
    EXPECT_LE(rows.size(), static_cast<std::size_t>(kMaxGlyphs) + 2) << interval;
    EXPECT_GE(rows.size(), static_cast<std::size_t>(kMaxGlyphs) / 2) << interval;
    EXPECT_EQ(rows.front(), 0u);
    EXPECT_EQ(rows.back(), t.size() - 1);
    EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
    EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end()) << "duplicate row";
  }
  // Widened to duration / kMaxGlyphs = 3 s: every 30th row.
  const std::vector<std::size_t> rows = GlyphRows(t, 1e-9);
  EXPECT_EQ(rows[1], 30u);
  EXPECT_EQ(rows[2], 60u);
}

TEST(GlyphRows, NonFiniteIntervalGivesTheEnds) {
  const std::vector<double> t = Times(100, 0.1);
  for (const double interval : {std::nan(""), HUGE_VAL})
    EXPECT_EQ(GlyphRows(t, interval), (std::vector<std::size_t>{0, 100})) << interval;
}

TEST(EqualScaleBox, PadsAndWidensShortAxes) {
  const PlotBox box = EqualScaleBox(
      {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(10, 1000, 5)}, 10.0, 0.3);
  EXPECT_NEAR(box.min.y(), -10, kTol);
  EXPECT_NEAR(box.max.y(), 1010, kTol);
  // x: [−10, 20] widened about its centre 5 to 0.3 · 1020 = 306.
  EXPECT_NEAR(box.extent().x(), 306, kTol);
  EXPECT_NEAR(0.5 * (box.min.x() + box.max.x()), 5, kTol);
  EXPECT_NEAR(box.extent().z(), 306, kTol);
  EXPECT_THROW(EqualScaleBox({}, 1.0, 0.3), std::invalid_argument);
}

TEST(ExaggerateAltitude, ScalesOnlyTheAltitude) {
  const Eigen::Vector3d p(3.0, -4.0, 2.5);
  EXPECT_EQ(ExaggerateAltitude(p, 1.0), p);
  EXPECT_EQ(ExaggerateAltitude(p, 20.0), Eigen::Vector3d(3.0, -4.0, 50.0));
  const std::vector<Eigen::Vector3d> path = ExaggerateAltitude(
      std::vector<Eigen::Vector3d>{Eigen::Vector3d(0, 0, -1), Eigen::Vector3d(1, 2, 0.5)}, 4.0);
  ASSERT_EQ(path.size(), 2u);
  EXPECT_EQ(path[0], Eigen::Vector3d(0, 0, -4));
  EXPECT_EQ(path[1], Eigen::Vector3d(1, 2, 2));
}

TEST(PaperPlaneInPlotFrame, ExaggerationMovesTheGlyphButKeepsItsShape) {
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kNorth] = 100.0;
  x[sim::kEast] = -20.0;
  x[sim::kDown] = -8.0;  // 8 m up
  x[sim::kTheta] = 0.15;
  x[sim::kPhi] = -0.3;
  x[sim::kPsi] = 0.7;
  constexpr double kK = 20.0;
  const auto plain = PaperPlaneInPlotFrame(x, 0.05, 2.0);
  const auto stretched = PaperPlaneInPlotFrame(x, 0.05, 2.0, kK);
  // Same triangles, lifted from altitude 8 m to 20 × 8 m: the shape (every
  // vertex relative to the aircraft) is the true, unstretched one.
  const Eigen::Vector3d lift(0.0, 0.0, (kK - 1.0) * 8.0);
  for (int part = 0; part < kNumGlyphParts; ++part)
    for (int v = 0; v < 3; ++v)
      EXPECT_LT((stretched[part][v] - (plain[part][v] + lift)).norm(), kTol)
          << "part " << part << " vertex " << v;
  // K = 1 is bit-identical to the default (today's figure is unchanged).
  const auto one = PaperPlaneInPlotFrame(x, 0.05, 2.0, 1.0);
  for (int part = 0; part < kNumGlyphParts; ++part)
    for (int v = 0; v < 3; ++v) EXPECT_EQ(one[part][v], plain[part][v]);
}

TEST(CoarsestTickStep, IsTheCoarsestOneTwoFiveStepGivingTheMinimumCount) {
  // [−40.5, 40.5] m: 20 gives −40, −20, 0, 20, 40; 50 gives only 0.
  EXPECT_DOUBLE_EQ(CoarsestTickStep(-40.5, 40.5, 3), 20.0);
  // [−27.5, 27.5] m: 20 gives −20, 0, 20.
  EXPECT_DOUBLE_EQ(CoarsestTickStep(-27.5, 27.5, 3), 20.0);
  // [0.1, 0.35]: 0.1 gives 0.1, 0.2, 0.3.
  EXPECT_NEAR(CoarsestTickStep(0.1, 0.35, 3), 0.1, kTol);
  // Ends count: [0, 10] with step 5 is 0, 5, 10.
  EXPECT_DOUBLE_EQ(CoarsestTickStep(0.0, 10.0, 3), 5.0);
  EXPECT_THROW(CoarsestTickStep(1.0, 1.0, 3), std::invalid_argument);
}

TEST(ExaggeratedAxisTicks, PlacesTrueValuesAtKTimesTheirValue) {
  // A box of ±825 plot units at K = 30 spans ±27.5 m of true altitude.
  const std::vector<AxisTick> ticks = ExaggeratedAxisTicks(-825.0, 825.0, 30.0, 20.0);
  ASSERT_EQ(ticks.size(), 3u);
  const double values[] = {-20.0, 0.0, 20.0};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(ticks[i].value, values[i]);
    EXPECT_DOUBLE_EQ(ticks[i].position, 30.0 * values[i]);
  }
  EXPECT_FALSE(std::signbit(ticks[1].value)) << "zero prints as 0, not -0";
}

TEST(ExaggeratedAxisTicks, KeepsTicksOnTheEndsAndFractionalSteps) {
  // [0, 12] plot units at K = 10 is [0, 1.2] m: ticks 0, 0.2, ..., 1.2.
  const std::vector<AxisTick> ticks = ExaggeratedAxisTicks(0.0, 12.0, 10.0, 0.2);
  ASSERT_EQ(ticks.size(), 7u);
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_NEAR(ticks[i].value, 0.2 * static_cast<double>(i), kTol);
    EXPECT_NEAR(ticks[i].position, 10.0 * ticks[i].value, kTol);
  }
  // K = 1: ordinary ticks.
  const std::vector<AxisTick> plain = ExaggeratedAxisTicks(-5.0, 5.0, 1.0, 5.0);
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_DOUBLE_EQ(plain[0].position, -5.0);
  EXPECT_DOUBLE_EQ(plain[2].value, 5.0);
}

TEST(ExaggeratedAxisTicks, RejectsANonPositiveStepOrExaggeration) {
  EXPECT_THROW(ExaggeratedAxisTicks(0.0, 1.0, 1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(ExaggeratedAxisTicks(0.0, 1.0, 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(ExaggeratedAxisTicks(0.0, 1.0, std::nan(""), 1.0), std::invalid_argument);
}

// Orthographic projections of the unit box seen from above, from four
// sides: the edges left out are exactly the three at the corner nearest the
// eye (the largest dot product with the direction to the eye).
TEST(BoxEdgesBehindContents, LeavesOutTheThreeEdgesAtTheNearestCorner) {
  for (const Eigen::Vector3d& eye : {Eigen::Vector3d(0.6, -0.8, 0.5), Eigen::Vector3d(-0.6, -0.8, 0.5),
                                    Eigen::Vector3d(-0.7, 0.6, 0.9), Eigen::Vector3d(0.5, 0.7, 0.3)}) {
    const Eigen::Vector3d d = eye.normalized();
    // Screen axes: right = z × d (horizontal), up = d × right.
    const Eigen::Vector3d right = Eigen::Vector3d::UnitZ().cross(d).normalized();
    const Eigen::Vector3d up = d.cross(right);
    std::array<std::array<double, 2>, 8> screen;
    int nearest = 0;
    double best = -1e9;
    for (int c = 0; c < 8; ++c) {
      const Eigen::Vector3d p(c & 1 ? 2.0 : 0.0, c & 2 ? 3.0 : 0.0, c & 4 ? 1.0 : 0.0);
      screen[c] = {400.0 * p.dot(right), 400.0 * p.dot(up)};
      if (p.dot(d) > best) best = p.dot(d), nearest = c;
    }
    const std::vector<BoxEdge> edges = BoxEdgesBehindContents(screen);
    ASSERT_EQ(edges.size(), 9u) << eye.transpose();
    for (const BoxEdge& e : edges) {
      EXPECT_NE(e[0], nearest) << eye.transpose();
      EXPECT_NE(e[1], nearest) << eye.transpose();
      EXPECT_EQ(__builtin_popcount(e[0] ^ e[1]), 1);  // an edge: one coordinate differs
    }
  }
}

// A 5 km flight north drifting 250 m east (the A-7A's aileron step), drawn
// 1000 x 400 px: the map turns (north across), one metre is the same number
// of pixels on both axes, every point is inside, and the drift spans at
// least 45 px (250 m at 5.5 km / 1000 px).
TEST(GroundTrackAxesOf, EqualScalesLongAxisAcrossDriftVisible) {
  std::vector<Eigen::Vector3d> path;
  for (int k = 0; k <= 100; ++k) {
    const double n = 50.0 * k;
    path.push_back({250.0 * std::pow(k / 100.0, 2), n, 0.0});  // east, north, altitude
  }
  const double w = 1000.0, h = 400.0;
  const GroundTrackAxes axes = GroundTrackAxesOf(path, w, h);
  EXPECT_TRUE(axes.north_right);
  EXPECT_NEAR((axes.x.max - axes.x.min) / w, (axes.y.max - axes.y.min) / h, 1e-12);
  for (const Eigen::Vector3d& p : path) {
    const auto m = axes.ToMap(p.x(), p.y());
    EXPECT_GE(m[0], axes.x.min);
    EXPECT_LE(m[0], axes.x.max);
    EXPECT_GE(m[1], axes.y.min);
    EXPECT_LE(m[1], axes.y.max);
  }
  const double px_per_m = w / (axes.x.max - axes.x.min);
  EXPECT_GE(250.0 * px_per_m, 45.0);
  // Turned, not mirrored: (east, north) -> (x, y) is a rotation (det +1).
  const auto o = axes.ToMap(0, 0), e = axes.ToMap(1, 0), n = axes.ToMap(0, 1);
  const double det = (e[0] - o[0]) * (n[1] - o[1]) - (e[1] - o[1]) * (n[0] - o[0]);
  EXPECT_DOUBLE_EQ(det, 1.0);
}

TEST(GroundTrackAxesOf, NorthUpForAnEastWestFlight) {
  const std::vector<Eigen::Vector3d> path = {{0, 0, 0}, {3000, 100, 0}};
  const GroundTrackAxes axes = GroundTrackAxesOf(path, 800, 600);
  EXPECT_FALSE(axes.north_right);
  EXPECT_NEAR((axes.x.max - axes.x.min) / 800, (axes.y.max - axes.y.min) / 600, 1e-12);
  EXPECT_EQ(axes.ToMap(3000, 100), (std::array<double, 2>{3000, 100}));
  // A single point still gets a box (1 m margin at least).
  const GroundTrackAxes point = GroundTrackAxesOf({{5, 5, 0}}, 100, 100);
  EXPECT_GT(point.x.max - point.x.min, 0.0);
  EXPECT_THROW(GroundTrackAxesOf({}, 100, 100), std::invalid_argument);
  EXPECT_THROW(GroundTrackAxesOf(path, 0, 100), std::invalid_argument);
}

TEST(GroundDistance, SumsTheHorizontalLegsOnly) {
  const std::vector<double> d = GroundDistance({{0, 0, 0}, {3, 4, 100}, {3, 4, -50}, {3, 10, 0}});
  EXPECT_EQ(d, (std::vector<double>{0.0, 5.0, 5.0, 11.0}));
}

}  // namespace
}  // namespace aerolin::exporting
