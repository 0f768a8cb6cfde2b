#include "aerolin/export/label_placement.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace aerolin::exporting {
namespace {

const PixelBox kPanel{0.0, 1000.0, 0.0, 800.0};

TEST(Overlaps, InteriorsOnly) {
  const PixelBox a{0, 10, 0, 10};
  EXPECT_TRUE(Overlaps(a, {9, 20, 9, 20}));
  EXPECT_FALSE(Overlaps(a, {10, 20, 0, 10}));  // touching edges
  EXPECT_FALSE(Overlaps(a, {0, 10, 11, 20}));
  EXPECT_TRUE(Contains(a, {0, 10, 0, 10}));
  EXPECT_FALSE(Contains(a, {-1, 5, 0, 5}));
}

TEST(PlaceLabels, ALoneLabelGoesRightOfItsPointAtTheGap) {
  const auto placed = PlaceLabels({{{500, 400}, 80, 20}}, {}, kPanel, 5.0);
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_TRUE(placed[0].clear);
  EXPECT_FALSE(placed[0].leader);
  EXPECT_NEAR(placed[0].box.x0, 505.0, 1e-9);
  EXPECT_NEAR(placed[0].box.y0, 390.0, 1e-9);  // centred on the point
  EXPECT_NEAR(placed[0].box.y1, 410.0, 1e-9);
}

TEST(PlaceLabels, GoesLeftWhenTheRightIsTakenOrOutside) {
  const auto blocked = PlaceLabels({{{500, 400}, 80, 20}}, {{510, 600, 380, 420}}, kPanel, 5.0);
  EXPECT_NEAR(blocked[0].box.x1, 495.0, 1e-9);
  const auto edge = PlaceLabels({{{980, 400}, 80, 20}}, {}, kPanel, 5.0);
  EXPECT_NEAR(edge[0].box.x1, 975.0, 1e-9);
  EXPECT_TRUE(Contains(kPanel, edge[0].box));
}

// Two labels on one point (the spiral and heading roots at 800x600): the
// second goes elsewhere; none covers the marker.
TEST(PlaceLabels, SeparatesLabelsOfCoincidentPoints) {
  const std::array<double, 2> p{400, 300};
  const PixelBox marker = MarkerBox(p, 7.0);
  const auto placed = PlaceLabels({{p, 60, 20}, {p, 70, 20}, {p, 50, 20}}, {marker}, kPanel, 10.0);
  ASSERT_EQ(placed.size(), 3u);
  for (std::size_t i = 0; i < placed.size(); ++i) {
    EXPECT_TRUE(placed[i].clear);
    EXPECT_FALSE(Overlaps(placed[i].box, marker));
    for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(Overlaps(placed[i].box, placed[j].box));
  }
}

// A label that cannot be placed anywhere says so instead of pretending.
TEST(PlaceLabels, ReportsALabelWithNoFreePlace) {
  const auto placed = PlaceLabels({{{50, 50}, 200, 20}}, {}, {0, 100, 0, 100}, 5.0);
  EXPECT_FALSE(placed[0].clear);
}

// Property on fixed pseudo-random scenes with room to spare: every label is
// clear of the others and of every marker, inside the panel, and a label
// off the first ring has a leader.
TEST(PlaceLabels, ClearOfEverythingOnRandomScenes) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> x(150.0, 850.0), y(100.0, 700.0), w(30.0, 120.0);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<LabelRequest> labels;
    std::vector<PixelBox> markers;
    for (int k = 0; k < 10; ++k) {
      const std::array<double, 2> p{x(rng), y(rng)};
      labels.push_back({p, w(rng), 18.0});
      markers.push_back(MarkerBox(p, 6.0));
    }
    const auto placed = PlaceLabels(labels, markers, kPanel, 9.0);
    ASSERT_EQ(placed.size(), labels.size()) << trial;
    for (std::size_t i = 0; i < placed.size(); ++i) {
      ASSERT_TRUE(placed[i].clear) << trial << " " << i;
      EXPECT_TRUE(Contains(kPanel, placed[i].box));
      for (const PixelBox& m : markers) EXPECT_FALSE(Overlaps(placed[i].box, m)) << trial;
      for (std::size_t j = 0; j < i; ++j)
        EXPECT_FALSE(Overlaps(placed[i].box, placed[j].box)) << trial << " " << i << "/" << j;
      // Off the first ring means farther than gap + a little from the point.
      const double dx = std::max({placed[i].box.x0 - labels[i].anchor[0],
                                  labels[i].anchor[0] - placed[i].box.x1, 0.0});
      const double dy = std::max({placed[i].box.y0 - labels[i].anchor[1],
                                  labels[i].anchor[1] - placed[i].box.y1, 0.0});
      if (std::hypot(dx, dy) > 9.0 + 1e-6 + 18.0) {
        EXPECT_TRUE(placed[i].leader) << trial;
      }
    }
  }
}

TEST(SegmentsHitting, CountsASegmentCrossingWithNoVertexInside) {
  const PixelBox box{10, 20, 10, 20};
  EXPECT_EQ(SegmentsHitting(box, {{{0, 15}, {30, 15}}}), 1);   // straight through
  EXPECT_EQ(SegmentsHitting(box, {{{0, 0}, {30, 5}}}), 0);     // passes below
  EXPECT_EQ(SegmentsHitting(box, {{{12, 12}, {14, 14}}}), 1);  // wholly inside
  EXPECT_EQ(SegmentsHitting(box, {{{0, 25}, {25, 0}}}), 1);    // across a corner
  EXPECT_EQ(SegmentsHitting(box, {{{0, 0}, {5, 0}, {5, 30}}}), 0);
}

// Data in three corners of the panel (a decaying oscillation starting top
// left, a ramp ending top right, a dip bottom right): the legend goes bottom
// left, the only corner no line crosses.
TEST(EmptiestCorner, PicksTheOnlyEmptyCorner) {
  std::vector<Polyline> lines(3);
  for (int k = 0; k <= 200; ++k) {
    const double t = k / 200.0;  // 0..1 across the panel
    lines[0].push_back({1000.0 * t, 400.0 + 380.0 * std::exp(-8.0 * t) * std::cos(30.0 * t)});
    lines[1].push_back({1000.0 * t, 400.0 + 390.0 * std::pow(t, 6)});
    lines[2].push_back({1000.0 * t, 400.0 - 390.0 * std::pow(t, 8)});
  }
  const double w = 200.0, h = 120.0, inset = 8.0;
  for (const Corner c : {Corner::kTopRight, Corner::kTopLeft, Corner::kBottomRight})
    EXPECT_GT(SegmentsHitting(CornerBox(kPanel, c, w, h, inset), lines), 0);
  EXPECT_EQ(EmptiestCorner(kPanel, w, h, inset, lines), Corner::kBottomLeft);
  EXPECT_EQ(SegmentsHitting(CornerBox(kPanel, Corner::kBottomLeft, w, h, inset), lines), 0);
}

TEST(EmptiestCorner, PrefersTopRightWhenAllAreEmpty) {
  const std::vector<Polyline> flat = {{{0, 400}, {1000, 400}}};
  EXPECT_EQ(EmptiestCorner(kPanel, 200, 100, 8, flat), Corner::kTopRight);
  const PixelBox box = CornerBox(kPanel, Corner::kTopRight, 200, 100, 8);
  EXPECT_DOUBLE_EQ(box.x1, 992.0);
  EXPECT_DOUBLE_EQ(box.y1, 792.0);
  EXPECT_DOUBLE_EQ(box.width(), 200.0);
}

}  // namespace
}  // namespace aerolin::exporting
