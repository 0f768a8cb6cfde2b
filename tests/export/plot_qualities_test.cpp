// The flying-qualities charts (plot.hpp: PlotShortPeriodChart,
// PlotDutchRollChart), decoded and inspected.

#include <gtest/gtest.h>

#include <string>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/export/plot.hpp"
#include "export/plot_test_support.hpp"

namespace aerolin::exporting {
namespace {

using analysis::SecondOrderRoots;
using testing::DecodePng;
using testing::ReadFile;

// The fills of Levels 1, 2, 3 and "worse" (plot_qualities.cpp), exact inside
// a region; the tolerance absorbs the anti-aliased edges only.
constexpr int kTolerance = 4;
// Each region covers at least several per cent of the 800x600 plot area in
// the default axes (n/α 1-100, ωn 0.1-100; ωn 0-3, ζ 0-0.8): far more than
// the text and lines drawn in those colours' neighbourhood could.
constexpr int kMinRegionPixels = 3000;

analysis::ModalSummary Summary() {
  analysis::ModalSummary m;
  m.short_period = SecondOrderRoots::Pair({-1.0, 2.0});  // ωn² = 5, CAP = 0.5 at n/α 10
  m.phugoid = SecondOrderRoots::Pair({-0.01, 0.15});
  m.dutch_roll = SecondOrderRoots::Pair({-0.1, 1.0});
  m.dutch_roll_phi_beta = 1.0;
  m.roll = -1.0;
  m.spiral = -0.01;
  m.n_alpha = 10.0;
  return m;
}

void ExpectFourLevelFills(const std::string& path) {
  const testing::RgbImage image = DecodePng(path);
  ASSERT_EQ(image.width, 800);
  ASSERT_EQ(image.height, 600);
  EXPECT_GT(image.CountNear(0xC7, 0xE9, 0xC0, kTolerance), kMinRegionPixels) << "Level 1";
  EXPECT_GT(image.CountNear(0xFF, 0xF3, 0xB0, kTolerance), kMinRegionPixels) << "Level 2";
  EXPECT_GT(image.CountNear(0xFD, 0xD0, 0xA2, kTolerance), kMinRegionPixels) << "Level 3";
  EXPECT_GT(image.CountNear(0xF4, 0xB4, 0xB4, kTolerance), kMinRegionPixels) << "worse than 3";
  EXPECT_GT(image.CountNear(0, 0, 0, 8), 200) << "the point, axes and text";
}

TEST(PlotQualityCharts, ShortPeriodAndDutchRollShadeEveryLevel) {
  const analysis::ModalSummary m = Summary();
  const analysis::QualitiesGrade g =
      analysis::Grade(m, analysis::AircraftClass::kIII, analysis::FlightPhaseCategory::kA);
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  options.aircraft = "test";
  // Per process: several test runs on one machine must not share the files.
  const testing::ScratchDirectory scratch("aerolin_fq");
  const std::string dir = scratch.path.string();
  const std::string sp = dir + "/aerolin_fq_sp.png";
  const std::string dr = dir + "/aerolin_fq_dr.png";
  PlotShortPeriodChart(m, g, options, sp);
  PlotDutchRollChart(m, g, options, dr);
  ExpectFourLevelFills(sp);
  ExpectFourLevelFills(dr);
  const std::string svg = dir + "/aerolin_fq_dr.svg";
  PlotDutchRollChart(m, g, options, svg);
  const std::string text = ReadFile(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
  EXPECT_LT(text.size(), 2'000'000u) << "regions are polygons, not a pixel field";
}

TEST(PlotQualityCharts, RejectsAGradeWithoutTheModeNamingThePath) {
  analysis::QualitiesGrade empty{analysis::AircraftClass::kI, analysis::FlightPhaseCategory::kB, 0.0, {}};
  try {
    PlotDutchRollChart(Summary(), empty, {}, "x.png");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("x.png"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace aerolin::exporting
