#include "aerolin/export/plot_tracked.hpp"

#include <gtest/gtest.h>


#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/export/plot_colours.hpp"
#include "plot_test_support.hpp"

namespace aerolin::exporting {
namespace {

const std::vector<std::string> kAircraft = {
    "a7a_clean_m025_sl.toml",      "boeing747_cruise_40kft.toml", "boeing747_cruise_40kft_coefficients.toml",
    "navion_cruise_sl.toml",       "nt33a_power_approach_sl.toml", "p2v7.toml"};

// The README's yaw damper: rudder:r through a 1.5 s washout, K from 0 to 3.
study::LocusResult YawDamper(const std::string& file) {
  const model::AircraftData a =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + file).aircraft;
  study::LocusOptions o;
  o.input = "rudder";
  o.output = "r";
  o.washout_tau = 1.5;
  for (int k = 0; k <= 60; ++k) o.gains.push_back(3.0 * k / 60);
  return study::Locus(a, o);
}

// The view PlotLocus draws: the s-plane panel {0.08, 0.70, 0.10, 0.90} of
// the image, over every branch's roots.
SPlaneView ViewOf(const std::vector<TrackedBranch>& branches, int width, int height) {
  std::vector<std::complex<double>> all;
  for (const TrackedBranch& b : branches) all.insert(all.end(), b.root.begin(), b.root.end());
  return {FullSPlaneWindow(all), {0.08 * width, 0.70 * width, 0.10 * height, 0.90 * height}};
}

// Every branch a pair's or a real root's path: conjugates restored, one
// branch per drawn slot; the roots of each point are the study's.
TEST(TrackedBranches, HoldEveryRootOfEveryPointOnce) {
  const study::LocusResult locus = YawDamper("p2v7.toml");
  const std::vector<TrackedBranch> branches = TrackedBranches(locus.study, true);
  for (const study::TrackedPoint& p : locus.study.points) {
    std::size_t expected = 0;
    for (const study::TrackedMode& m : p.modes)
      if (m.kind != analysis::ModeKind::kHeading) expected += m.oscillatory ? 2 : 1;
    std::size_t found = 0;
    for (const TrackedBranch& b : branches)
      for (std::size_t k = 0; k < b.value.size(); ++k)
        if (b.value[k] == p.value) {
          ++found;
          const bool named = std::any_of(p.modes.begin(), p.modes.end(), [&](const study::TrackedMode& m) {
            return m.origin == b.origin && (m.lambda == b.root[k] || std::conj(m.lambda) == b.root[k]);
          });
          EXPECT_TRUE(named) << "K = " << p.value << " " << b.origin;
        }
    EXPECT_EQ(found, expected) << "K = " << p.value;
  }
}

// The gain labels of every bundled aircraft's yaw-damper locus at the
// default size and at 800x600: each found a clear place; none overlaps
// another, a pole, a zero, a branch's start or end marker, any branch or
// either axis; all stay inside the panel; and the labels are there to
// read (the Dutch roll's branch has at least one). Text sizes over-estimate
// MathGL's (17 px per character, 25 px high at 900 px image height;
// measured at 1200x900: "K=1" 49 x 24.4, "K=2.5" 68 x 24.4).
TEST(LayoutGainLabels, NoOverlapOnEveryBundledYawDamperLocus) {
  constexpr double kMarkerRadius = 7.0;  // plot_tracked.cpp kMarkerRadiusPx
  for (const std::string& file : kAircraft) {
    const study::LocusResult locus = YawDamper(file);
    const std::vector<TrackedBranch> branches = TrackedBranches(locus.study, true);
    std::vector<std::complex<double>> marks(locus.open_loop_poles.begin(), locus.open_loop_poles.end());
    marks.insert(marks.end(), locus.zeros.begin(), locus.zeros.end());
    for (const TrackedBranch& b : branches) {
      marks.push_back(b.root.front());
      marks.push_back(b.root.back());
    }
    for (const auto& [width, height] : {std::pair{1200, 900}, std::pair{800, 600}}) {
      std::ostringstream where_text;
      where_text << file << " " << width << "x" << height;
      const std::string where = where_text.str();
      const double scale = height / 900.0;
      const SPlaneView view = ViewOf(branches, width, height);
      const std::vector<GainLabel> wanted = GainLabelsWanted(branches, view, 2.0 * 25.0 * scale);
      std::vector<std::array<double, 2>> sizes;
      bool dutch_roll = false;
      for (const GainLabel& g : wanted) {
        const double K = branches[g.branch].value[g.point];
        std::ostringstream text;
        text << "K=" << std::setprecision(4) << K;
        sizes.push_back({17.0 * scale * text.str().size(), 25.0 * scale});
        dutch_roll = dutch_roll || branches[g.branch].origin == "dutch roll";
        EXPECT_GE(branches[g.branch].root[g.point].imag(), 0.0) << where;
        EXPECT_NEAR(std::remainder(K, 0.5), 0.0, 1e-12) << where << ": a round gain";
      }
      EXPECT_TRUE(dutch_roll) << where;
      EXPECT_GE(wanted.size(), 4u) << where;
      const std::vector<LabelPlacement> placed = LayoutGainLabels(view, branches, wanted, sizes, marks, kMarkerRadius);
      ASSERT_EQ(placed.size(), wanted.size());
      std::vector<Polyline> lines;
      for (const TrackedBranch& b : branches) {
        Polyline line;
        for (const std::complex<double>& z : b.root) line.push_back(view.ToPixels(z));
        lines.push_back(line);
      }
      const SPlaneWindow& w = view.window;
      lines.push_back({view.ToPixels({w.re.min, 0.0}), view.ToPixels({w.re.max, 0.0})});
      lines.push_back({view.ToPixels({0.0, w.im.min}), view.ToPixels({0.0, w.im.max})});
      for (std::size_t i = 0; i < placed.size(); ++i) {
        std::ostringstream label;
        label << where << " label " << i << " (" << branches[wanted[i].branch].origin << ")";
        EXPECT_TRUE(placed[i].clear) << label.str();
        EXPECT_TRUE(Contains(view.box, placed[i].box)) << label.str();
        for (std::size_t j = 0; j < i; ++j) EXPECT_FALSE(Overlaps(placed[i].box, placed[j].box)) << label.str() << "/" << j;
        for (const std::complex<double>& m : marks)
          EXPECT_FALSE(Overlaps(placed[i].box, MarkerBox(view.ToPixels(m), kMarkerRadius))) << label.str() << " over " << m;
        EXPECT_EQ(SegmentsHitting(placed[i].box, lines), 0) << label.str() << " over a branch or an axis";
      }
    }
  }
}

// Labels on one branch keep the requested spacing from each other and from
// the branch's start; K = 0 (the open-loop pole, marked x) gets none.
TEST(GainLabelsWanted, SpacedAlongEachBranchAndNotAtTheOpenLoopPole) {
  const study::LocusResult locus = YawDamper("navion_cruise_sl.toml");
  const std::vector<TrackedBranch> branches = TrackedBranches(locus.study, true);
  const SPlaneView view = ViewOf(branches, 1200, 900);
  constexpr double kSpacing = 60.0;
  const std::vector<GainLabel> wanted = GainLabelsWanted(branches, view, kSpacing);
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const TrackedBranch& b = branches[wanted[i].branch];
    EXPECT_NE(b.value[wanted[i].point], 0.0);
    const auto at = view.ToPixels(b.root[wanted[i].point]);
    const auto start = view.ToPixels(b.root.front());
    EXPECT_GE(std::hypot(at[0] - start[0], at[1] - start[1]), kSpacing);
    for (std::size_t j = 0; j < i; ++j) {
      if (wanted[j].branch != wanted[i].branch) continue;
      const auto other = view.ToPixels(b.root[wanted[j].point]);
      EXPECT_GE(std::hypot(at[0] - other[0], at[1] - other[1]), kSpacing);
    }
  }
}

TEST(PlotLocus, WritesBothFiguresAtTheRequestedSize) {
  const testing::ScratchDirectory dir("aerolin_plot_tracked_test");
  const study::LocusResult locus = YawDamper("navion_cruise_sl.toml");
  TrackedPlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  options.title = "Navion yaw damper";
  const std::vector<std::string> files = PlotLocus(locus, options, (dir.path / "navion").string());
  ASSERT_EQ(files.size(), 2u);
  for (const std::string& f : files) {
    const testing::PngSize size = testing::ReadPngHeader(f);
    EXPECT_EQ(size.width, 800u) << f;
    EXPECT_EQ(size.height, 600u) << f;
  }
}

// The gain --maximize reports is marked: in the ζ figure a rhomb at (K, ζ)
// changes the plot panel (left of the legend) only around that point; the
// curves and axes are otherwise the same pixels.
TEST(PlotLocus, MarksTheMaximizingGainInTheZetaFigure) {
  const testing::ScratchDirectory dir("aerolin_plot_tracked_test");
  const study::LocusResult locus = YawDamper("p2v7.toml");
  TrackedPlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const std::string plain = PlotLocus(locus, options, (dir.path / "plain").string())[1];
  options.marked = MarkedGain{1.69393, {-0.2132, 0.7241}, 0.282527, "dutch roll"};
  const std::string marked = PlotLocus(locus, options, (dir.path / "marked").string())[1];
  const testing::RgbImage a = testing::DecodePng(plain), b = testing::DecodePng(marked);
  ASSERT_EQ(a.rgb.size(), b.rgb.size());
  // The panel spans x in [0.08, 0.70] of the width; the legend is right of it.
  int changed = 0, x_min = b.width, x_max = -1, y_min = b.height, y_max = -1;
  for (int y = 0; y < b.height; ++y)
    for (int x = 0; x < static_cast<int>(0.72 * b.width); ++x) {
      const std::size_t i = 3 * (static_cast<std::size_t>(y) * b.width + x);
      if (std::abs(a.rgb[i] - b.rgb[i]) + std::abs(a.rgb[i + 1] - b.rgb[i + 1]) +
              std::abs(a.rgb[i + 2] - b.rgb[i + 2]) > 60) {
        ++changed;
        x_min = std::min(x_min, x), x_max = std::max(x_max, x);
        y_min = std::min(y_min, y), y_max = std::max(y_max, y);
      }
    }
  EXPECT_GT(changed, 40) << "no rhomb drawn";
  // One marker: the changed pixels fit in a small box (a few percent of the panel).
  EXPECT_LT(x_max - x_min, 0.08 * b.width) << x_min << ".." << x_max;
  EXPECT_LT(y_max - y_min, 0.10 * b.height) << y_min << ".." << y_max;
  // ζ = 0.28 sits in the lower half of the ζ axis [-0.1, 1.1]; K = 1.69 in the middle of [0, 3].
  EXPECT_GT(0.5 * (y_min + y_max), 0.5 * b.height);
  const double panel_x = (0.5 * (x_min + x_max) / b.width - 0.08) / (0.70 - 0.08);
  EXPECT_NEAR(panel_x, 1.69393 / 3.0, 0.15);
}

}  // namespace
}  // namespace aerolin::exporting

namespace aerolin::exporting {
namespace {

// Arrows follow the locus's order, increasing K: each arrow's head is the
// later of two consecutive roots of its branch, on every bundled aircraft's
// yaw damper (the README's figure pointed them back to the open loop).
TEST(BranchArrows, PointFromEachRootToTheNextInTheStudysOrder) {
  for (const std::string& file : kAircraft) {
    const study::LocusResult locus = YawDamper(file);
    for (const TrackedBranch& b : TrackedBranches(locus.study, true)) {
      const std::vector<BranchArrow> arrows = BranchArrows(b);
      EXPECT_FALSE(arrows.empty() && b.root.front() != b.root.back()) << file << " " << b.origin;
      for (const BranchArrow& a : arrows) {
        std::size_t k = 1;
        while (k < b.root.size() && !(b.root[k - 1] == a.tail && b.root[k] == a.head)) ++k;
        ASSERT_LT(k, b.root.size()) << file << ": an arrow that is no segment of " << b.origin;
        EXPECT_GT(b.value[k], b.value[k - 1]) << file << " " << b.origin;  // towards larger K
      }
    }
  }
}

// One colour per mode: a branch named after a mode takes that mode's colour
// from the one table, whatever the aircraft and the order of the branches;
// roots of no mode kind (washout, coupled pairs) take colours no mode uses.
TEST(OriginColour, EveryModeTakesItsKindsColourOnEveryAircraft) {
  std::vector<std::uint32_t> kinds;
  for (const analysis::ModeKind k :
       {analysis::ModeKind::kShortPeriod, analysis::ModeKind::kPhugoid, analysis::ModeKind::kDutchRoll,
        analysis::ModeKind::kRollSubsidence, analysis::ModeKind::kSpiral, analysis::ModeKind::kRollSpiral,
        analysis::ModeKind::kHeading})
    kinds.push_back(ModeColour(k));
  std::vector<std::uint32_t> sorted = kinds;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::unique(sorted.begin(), sorted.end()), sorted.end());  // all different
  EXPECT_EQ(OriginColour("short period", 3), ModeColour(analysis::ModeKind::kShortPeriod));
  EXPECT_EQ(OriginColour("dutch roll", 0), ModeColour(analysis::ModeKind::kDutchRoll));
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(std::count(kinds.begin(), kinds.end(), OriginColour("washout filter", i)), 0);
  EXPECT_EQ(MglColour(0x1F77B4), "{x1F77B4}");
  for (const std::string& file : kAircraft)
    for (const TrackedBranch& b : TrackedBranches(YawDamper(file).study, true))
      if (const auto kind = analysis::ParseModeKind(b.origin)) {
        EXPECT_EQ(OriginColour(b.origin, 0), ModeColour(*kind)) << file << " " << b.origin;
      }
}

// The P2V-7's N_r swept from -0.3 to -0.1 in 5 points.
study::TrackedStudy P2v7NrSweep() {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  study::SweepOptions o;
  o.param = "lateral.Nr";
  o.from = -0.3;
  o.to = -0.1;
  o.steps = 5;
  return study::Sweep(load.file, o);
}

// The ζ curves leave a real root out (a gap), where every real root of a
// study would lie on ζ = ±1 and the last drawn would hide the others (the
// F-16's spiral over its roll subsidence and short period), and keep each
// oscillatory point's ζ as it is. Oracle: the root itself (Im λ = 0).
TEST(DrawnZeta, LeavesOutRealRootsAndKeepsEveryOscillation) {
  int real = 0, oscillatory = 0;
  for (const TrackedBranch& b : TrackedBranches(P2v7NrSweep(), false)) {
    const std::vector<double> z = DrawnZeta(b);
    ASSERT_EQ(z.size(), b.zeta.size());
    for (std::size_t i = 0; i < z.size(); ++i) {
      if (b.root[i].imag() == 0.0) {
        EXPECT_TRUE(std::isnan(z[i])) << b.origin;
        EXPECT_EQ(std::abs(b.zeta[i]), 1.0) << b.origin;  // the convention that overlapped
        ++real;
      } else {
        EXPECT_EQ(z[i], b.zeta[i]) << b.origin;
        ++oscillatory;
      }
    }
  }
  EXPECT_EQ(real, 2 * 5);         // roll subsidence and spiral at each point
  EXPECT_EQ(oscillatory, 3 * 5);  // short period, phugoid, Dutch roll
}

// --format: PlotSweep writes its two figures in the asked format.
TEST(PlotSweep, WritesTheAskedFormat) {
  const testing::ScratchDirectory dir("aerolin_plot_sweep_format_test");
  TrackedPlotOptions options;
  options.format = "svg";
  const std::vector<std::string> files = PlotSweep(P2v7NrSweep(), options, (dir.path / "p").string());
  ASSERT_EQ(files, SweepFigurePaths((dir.path / "p").string(), "svg"));
  for (const std::string& f : files) {
    std::ifstream in(f);
    std::string head(5, '\0');
    in.read(head.data(), 5);
    EXPECT_EQ(head.substr(0, 5) == "<?xml" || head.substr(0, 4) == "<svg", true) << f;
  }
}

}  // namespace
}  // namespace aerolin::exporting
