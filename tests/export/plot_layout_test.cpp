#include "aerolin/export/plot_layout.hpp"

#include <gtest/gtest.h>

#include <random>

namespace aerolin::exporting {
namespace {

constexpr double kTol = 1e-12;

TEST(GridLayout, CellsTileTheAreaBelowTheTitleTopToBottom) {
  GridLayout layout = HistoryLayout(4, 2);
  const PanelRect top_left = layout.Cell(0, 0);
  const PanelRect bottom_right = layout.Cell(3, 1);
  EXPECT_NEAR(top_left.y1, layout.title_bottom - layout.top_margin, kTol);
  EXPECT_NEAR(top_left.x0, layout.left_margin, kTol);
  EXPECT_NEAR(bottom_right.y0, layout.bottom_margin, kTol);
  EXPECT_NEAR(bottom_right.x1, 1.0 - layout.right_margin, kTol);
  EXPECT_LT(layout.Cell(1, 0).y1, top_left.y0);  // rows do not overlap
  layout.grid_bottom = 0.2;
  EXPECT_NEAR(layout.Cell(3, 0).y0, 0.2 + layout.bottom_margin, kTol);
}

TEST(PaddedRange, PadsByEightPercent) {
  const AxisRange r = PaddedRange({{0.0, 10.0}, {5.0}});
  EXPECT_NEAR(r.min, -0.8, kTol);
  EXPECT_NEAR(r.max, 10.8, kTol);
}

TEST(PaddedRange, CentresAFlatSignal) {
  const AxisRange zero = PaddedRange({{0.0, 0.0}});
  EXPECT_NEAR(zero.min, -1.0, kTol);
  EXPECT_NEAR(zero.max, 1.0, kTol);
  const AxisRange big = PaddedRange({{50.0, 50.0}});
  EXPECT_NEAR(big.min, 45.0, kTol);
  EXPECT_NEAR(big.max, 55.0, kTol);
  const AxisRange none = PaddedRange({{}, {std::nan("")}});
  EXPECT_EQ(none.min, -1.0);
  EXPECT_EQ(none.max, 1.0);
}

TEST(FullSPlaneWindow, HoldsEveryRootAndTheImaginaryAxis) {
  const SPlaneWindow w = FullSPlaneWindow({{-2.0, 3.0}, {-2.0, -3.0}, {-0.5, 0.0}});
  EXPECT_LT(w.re.min, -2.0);
  EXPECT_GT(w.re.max, 0.0);
  EXPECT_LT(w.im.min, -3.0);
  EXPECT_GT(w.im.max, 3.0);
}

TEST(SlowModeWindow, ZoomsOnRootsMuchCloserToTheOrigin) {
  const auto w = SlowModeWindow({{-1.3, 2.0}, {-0.01, 0.12}, {0.004, 0.0}, {0.0, 0.0}});
  ASSERT_TRUE(w.has_value());
  EXPECT_NEAR(w->re.max, 1.4 * std::abs(std::complex<double>(-0.01, 0.12)), kTol);
  EXPECT_FALSE(SlowModeWindow({{-1.0, 1.0}, {-0.8, 0.0}}).has_value());
  EXPECT_FALSE(SlowModeWindow({{-1.0, 1.0}, {0.0, 0.0}}).has_value());
}

TEST(SpreadLabels, PushesOverlappingLabelsDown) {
  const std::vector<double> y =
      SpreadLabels({{0.0, 1.0}, {0.1, 1.0}, {5.0, 1.0}, {0.05, 0.99}}, 1.0, 0.5);
  EXPECT_DOUBLE_EQ(y[0], 1.0);   // highest, leftmost: stays
  EXPECT_DOUBLE_EQ(y[1], 0.5);   // same height, close: below the first
  EXPECT_DOUBLE_EQ(y[2], 1.0);   // far to the right: stays
  EXPECT_DOUBLE_EQ(y[3], 0.0);   // below both
}

// Regression: 1.0 - 0.1 = 0.9 is 0.09999999999999998 below 1.0, still
// "closer than 0.1", so the old loop pushed the label to 0.9 again forever
// (aerolin plot hung on the Navion and the A-7A).
TEST(SpreadLabels, TerminatesWhenRoundingLeavesAPushedLabelOverlapping) {
  const std::vector<double> y = SpreadLabels({{0.0, 1.0}, {0.0, 1.0}, {0.0, 1.0}}, 1.0, 0.1);
  EXPECT_DOUBLE_EQ(y[0], 1.0);
  EXPECT_DOUBLE_EQ(y[1], 1.0 - 0.1);
  EXPECT_DOUBLE_EQ(y[2], (1.0 - 0.1) - 0.1);
}

// A step far below the spacing of doubles near the anchors (a degenerate
// window): y - min_dy == y, so no push can separate the labels; they stay.
TEST(SpreadLabels, TerminatesWhenTheStepIsBelowRounding) {
  const std::vector<double> y = SpreadLabels({{0.0, 1.0}, {0.0, 1.0}}, 1.0, 1e-300);
  EXPECT_EQ(y, (std::vector<double>{1.0, 1.0}));
}

// Property, on fixed pseudo-random anchors: every label is at or below its
// anchor, and two labels closer than min_dx horizontally are at least min_dy
// apart (up to rounding of one subtraction).
TEST(SpreadLabels, SeparatesEveryClosePairOnRandomAnchors) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> coord(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<std::array<double, 2>> anchors(12);
    for (auto& a : anchors) a = {coord(rng), 0.2 * coord(rng)};
    const double min_dx = 0.5, min_dy = 0.05;
    const std::vector<double> y = SpreadLabels(anchors, min_dx, min_dy);
    for (std::size_t i = 0; i < y.size(); ++i) {
      EXPECT_LE(y[i], anchors[i][1]);
      for (std::size_t j = 0; j < i; ++j)
        if (std::abs(anchors[i][0] - anchors[j][0]) < min_dx)
          EXPECT_GE(std::abs(y[i] - y[j]), min_dy * (1.0 - 1e-12)) << trial << " " << i << " " << j;
    }
  }
}

}  // namespace
}  // namespace aerolin::exporting
