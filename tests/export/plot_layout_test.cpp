#include "aerolin/export/plot_layout.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <optional>
#include <string>
#include <utility>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/load_aircraft.hpp"

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

TEST(SPlaneGridOf, RaysAndCirclesInsideTheWindowsReach) {
  const SPlaneWindow w{{-1.2, 0.2}, {-2.0, 2.0}};
  const SPlaneGrid grid = SPlaneGridOf(w);
  EXPECT_EQ(grid.zetas, (std::vector<double>{0.2, 0.4, 0.6, 0.8}));
  // Reach √(1.2² + 2²) = 2.33: a step of 1 (NiceCeil(2.33 / 4) = 1) gives 1, 2.
  EXPECT_EQ(grid.natural_frequencies, (std::vector<double>{1.0, 2.0}));
}

TEST(RayLabelPoint, LiesOnTheRayJustInsideTheWindow) {
  const SPlaneWindow w{{-1.0, 0.2}, {-2.0, 2.0}};
  for (const double zeta : {0.2, 0.4, 0.6, 0.8}) {
    const auto p = RayLabelPoint(zeta, w);
    ASSERT_TRUE(p.has_value());
    // On the ray: arg s = π − acos ζ, i.e. cos(π − arg) = ζ.
    EXPECT_NEAR(-p->real() / std::abs(*p), zeta, 1e-12);
    // 5 % inside the edge it leaves through (left edge for large ζ).
    const double t_left = w.re.min / p->real(), t_top = w.im.max / p->imag();
    EXPECT_NEAR(std::min(t_left, t_top), 1.0 / 0.95, 1e-12);
  }
  EXPECT_FALSE(RayLabelPoint(0.5, {{0.1, 1.0}, {-1.0, 1.0}}).has_value());
  EXPECT_FALSE(RayLabelPoint(1.0, w).has_value());
}

TEST(SPlaneView, MapsTheWindowCornersToTheBoxCorners) {
  const SPlaneView view{{{-2.0, 1.0}, {-3.0, 3.0}}, {100.0, 400.0, 50.0, 650.0}};
  const auto lo = view.ToPixels({-2.0, -3.0});
  const auto hi = view.ToPixels({1.0, 3.0});
  const auto origin = view.ToPixels({0.0, 0.0});
  EXPECT_DOUBLE_EQ(lo[0], 100.0);
  EXPECT_DOUBLE_EQ(lo[1], 50.0);
  EXPECT_DOUBLE_EQ(hi[0], 400.0);
  EXPECT_DOUBLE_EQ(hi[1], 650.0);
  EXPECT_DOUBLE_EQ(origin[0], 300.0);
  EXPECT_DOUBLE_EQ(origin[1], 350.0);
}

// The mode labels of the s-plane figure of every bundled aircraft, at the
// default size and at 800x600: no label overlaps another label or any root's
// marker, every label stays inside its view, and each found a free place.
// The views, windows, markers and labelled roots are those plot_splane.cpp
// draws; the text sizes are an over-estimate of MathGL's (11 px per
// character, 22 px high at 900 px image height; measured: 10.4 and 21).
TEST(LayoutSPlaneLabels, NoOverlapOnAnyBundledAircraft) {
  constexpr double kMarkerRadius = 7.0;  // plot_splane.cpp kMarkerRadiusPx
  const std::vector<std::string> files = {"a7a_clean_m025_sl.toml", "boeing747_cruise_40kft.toml",
                                          "navion_cruise_sl.toml", "nt33a_power_approach_sl.toml",
                                          "p2v7.toml"};
  for (const std::string& file : files) {
    const analysis::ModalAnalysis modes = analysis::AnalyzeModes(
        data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + file)
            .aircraft);
    std::vector<const analysis::Mode*> roots;
    std::vector<std::complex<double>> lambdas;
    for (const auto* list : {&modes.longitudinal, &modes.lateral})
      for (const analysis::Mode& m : *list) {
        roots.push_back(&m);
        lambdas.push_back(m.lambda);
        lambdas.push_back(std::conj(m.lambda));
      }
    const std::optional<SPlaneWindow> zoom = SlowModeWindow(lambdas);
    const GridLayout layout = SPlaneLayout(zoom ? 2 : 1);
    for (const auto& [width, height] : {std::pair{1200, 900}, std::pair{800, 600}}) {
      const double scale = height / 900.0;
      for (int v = 0; v < (zoom ? 2 : 1); ++v) {
        const SPlaneWindow w = v == 0 ? FullSPlaneWindow(lambdas) : *zoom;
        const PanelRect cell = layout.Cell(0, v);
        const SPlaneView view{w, {cell.x0 * width, cell.x1 * width, cell.y0 * height,
                                  cell.y1 * height}};
        const auto inside = [](const SPlaneWindow& win, std::complex<double> l) {
          return l.real() >= win.re.min && l.real() <= win.re.max && l.imag() >= win.im.min &&
                 l.imag() <= win.im.max;
        };
        std::vector<std::complex<double>> marks, named;
        std::vector<std::array<double, 2>> sizes;
        for (const analysis::Mode* m : roots) {
          if (!inside(w, m->lambda)) continue;
          marks.push_back(m->lambda);
          if (m->oscillatory) marks.push_back(std::conj(m->lambda));
          if (v == 0 && zoom && inside(*zoom, m->lambda)) continue;  // named in the zoom
          named.push_back({m->lambda.real(), std::abs(m->lambda.imag())});
          sizes.push_back({11.0 * scale * m->full_name().size(), 22.0 * scale});
        }
        const std::vector<LabelPlacement> placed =
            LayoutSPlaneLabels(view, named, sizes, marks, kMarkerRadius);
        ASSERT_EQ(placed.size(), named.size());
        const std::string where = file + " " + std::to_string(width) + " view " + std::to_string(v);
        for (std::size_t i = 0; i < placed.size(); ++i) {
          EXPECT_TRUE(placed[i].clear) << where << " label " << i;
          EXPECT_TRUE(Contains(view.box, placed[i].box)) << where << " label " << i;
          for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(Overlaps(placed[i].box, placed[j].box)) << where << " " << i << "/" << j;
          for (const std::complex<double>& m : marks)
            EXPECT_FALSE(Overlaps(placed[i].box, MarkerBox(view.ToPixels(m), kMarkerRadius)))
                << where << " label " << i << " over the root " << m;
        }
      }
    }
  }
}

}  // namespace
}  // namespace aerolin::exporting

namespace aerolin::exporting {
namespace {

bool Disjoint(const PanelRect& a, const PanelRect& b) {
  return a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
}

// The Bode legend's strip lies below the phase panel and its tick and
// frequency labels (0.07 of the height), so it covers no curve at any height.
TEST(BodeLayoutOf, TheLegendStripIsBelowBothPanelsAndTheirLabels) {
  for (const double h : {0.0, 0.05, 0.12, 0.3}) {
    const BodeLayout l = BodeLayoutOf(h);
    EXPECT_NEAR(l.legend.y1 - l.legend.y0, h, 1e-12);
    EXPECT_TRUE(Disjoint(l.legend, l.phase));
    EXPECT_TRUE(Disjoint(l.legend, l.magnitude));
    EXPECT_TRUE(Disjoint(l.phase, l.magnitude));
    EXPECT_GE(l.phase.y0 - l.legend.y1, 0.07 - 1e-12) << h;
    EXPECT_GT(l.phase.y1, l.phase.y0 + 0.1) << h;
    EXPECT_LT(l.magnitude.y1, 0.93);  // under the title
  }
}

}  // namespace
}  // namespace aerolin::exporting
