#include "aerolin/export/plot_identify.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "aerolin/core/units.hpp"
#include "export/plot_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::DecodePng;
using testing::ReadFile;

constexpr int kColourTolerance = 12;
constexpr std::array<int, 3> kBlue = {0x1F, 0x77, 0xB4};    // identified
constexpr std::array<int, 3> kOrange = {0xFF, 0x7F, 0x0E};  // start

// A pixel test: the thick curves by their colour; the thin and dashed lines,
// whose anti-aliased pixels are lighter, by their hue.
using Pixel = std::array<int, 3>;
std::function<bool(Pixel)> Near(const std::array<int, 3>& c) {
  return [c](Pixel p) {
    return std::abs(p[0] - c[0]) <= kColourTolerance && std::abs(p[1] - c[1]) <= kColourTolerance &&
           std::abs(p[2] - c[2]) <= kColourTolerance;
  };
}
// ±2σ (D62728) and its blends with white: red well above green ≈ blue (not the orange F7F0E).
bool Reddish(Pixel p) { return p[0] > p[1] + 60 && std::abs(p[1] - p[2]) < 25; }
bool Grey(Pixel p) {  // the residual (7F7F7F), lighter where anti-aliased; not the grid (D0D0D0)
  return std::abs(p[0] - p[1]) <= 6 && std::abs(p[1] - p[2]) <= 6 && p[0] >= 60 && p[0] <= 200;
}

// "σ = 0.573 deg" as the figure writes it.
std::string fmt_sigma(double value, const std::string& unit) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "σ = %.3g %s", value, unit.c_str());
  return buffer;
}

std::string OutPath(const std::string& name) {
  static const testing::ScratchDirectory dir("aerolin_plot_identify_test");
  return (dir.path / name).string();
}

// α and q over 20 s: the identified response a sine, the start model's half
// of it, the residual a slower sine of amplitude 1.5σ (σ = 0.01 rad, 0.02 rad/s).
study::IdentifyResponses Responses() {
  study::IdentifyResponses r;
  const std::vector<core::Signal> signals = {{"alpha", core::Unit::kRadian, "α"},
                                             {"q", core::Unit::kRadianPerSecond, "q"}};
  for (std::size_t o = 0; o < signals.size(); ++o) {
    study::OutputResponse out;
    out.signal = signals[o];
    out.sigma = 0.01 * static_cast<double>(o + 1);
    for (int k = 0; k <= 400; ++k) {
      const double t = 0.05 * k, model = 0.1 * std::sin(0.8 * t);
      const double residual = out.sigma * 1.5 * std::sin(1.3 * t);
      for (study::ResponseSeries* s : {&out.measured, &out.identified, &out.start, &out.residual}) s->t.push_back(t);
      out.identified.value.push_back(model);
      out.start.value.push_back(0.5 * model);
      out.residual.value.push_back(residual);
      out.measured.value.push_back(model + residual);
    }
    r.outputs.push_back(out);
  }
  return r;
}

// The rows of the pixels in rows [y0, y1), columns [x0, x1) that pass `is`.
template <class Is>
std::vector<int> RowsOf(const testing::RgbImage& image, Is is, int x0, int x1, int y0, int y1) {
  std::vector<int> rows;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const std::size_t i = 3 * (static_cast<std::size_t>(y) * image.width + x);
      if (is(Pixel{image.rgb[i], image.rgb[i + 1], image.rgb[i + 2]})) rows.push_back(y);
    }
  return rows;
}

// Each output's row: the models on the left, not on the right; the ±2σ lines
// on the right, not on the left, and the residual between them.
TEST(PlotIdentify, ModelsLeftResidualsBetweenTwoSigmaRight) {
  for (const auto& [w, h] : {std::pair{1200, 900}, std::pair{800, 600}}) {
    PlotOptions options;
    options.width_px = w;
    options.height_px = h;
    const std::string path = OutPath("responses_" + std::to_string(w) + ".png");
    PlotIdentify(Responses(), study::IdentifyMethod::kOutputError, options, path);
    const testing::RgbImage image = DecodePng(path);
    ASSERT_EQ(image.width, w);
    ASSERT_EQ(image.height, h);
    // The first output's row: between the title and the middle of the image.
    const int y0 = h / 12, y1 = h / 2 - h / 20;
    EXPECT_GT(RowsOf(image, Near(kBlue), 0, w / 2, y0, y1).size(), 200u) << w;
    EXPECT_GT(RowsOf(image, Near(kOrange), 0, w / 2, y0, y1).size(), 50u) << w;
    EXPECT_TRUE(RowsOf(image, Reddish, 0, w / 2, y0, y1).empty()) << w;
    EXPECT_TRUE(RowsOf(image, Near(kBlue), w / 2, w, y0, y1).empty()) << w;
    EXPECT_TRUE(RowsOf(image, Near(kOrange), w / 2, w, y0, y1).empty()) << w;
    std::vector<int> red = RowsOf(image, Reddish, w / 2, w, y0, y1);
    ASSERT_GT(red.size(), 100u) << w;
    std::sort(red.begin(), red.end());
    const int top = red.front(), bottom = red.back();
    // The residual (±1.5σ) between the ±2σ lines, and reaching near them:
    // grey near the lines, clear of the box's frame and ticks (7 % of its
    // height beyond the lines) and the text, whose anti-aliased edges are grey too.
    const int margin = (bottom - top) / 40;
    const std::vector<int> grey = RowsOf(image, Grey, w / 2 + w / 7, w - w / 50, top - margin, bottom + margin + 1);
    ASSERT_GT(grey.size(), 100u) << w;
    const auto [lo, hi] = std::minmax_element(grey.begin(), grey.end());
    EXPECT_GT(*lo, top) << w;
    EXPECT_LT(*hi, bottom) << w;
    EXPECT_NEAR(static_cast<double>(*hi - *lo) / (bottom - top), 0.75, 0.1) << w;
  }
}

// The SVG names the outputs with their σ in the shown unit (deg, deg/s), the
// legend, and what the start model is.
TEST(PlotIdentify, SvgLabelsSigmaAndLegend) {
  const std::string path = OutPath("responses.svg");
  study::IdentifyResponses r = Responses();
  r.bucket = 3;
  PlotIdentify(r, study::IdentifyMethod::kOutputError, {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(testing::XmlStructureProblem(svg), "");
  for (const std::string& text : {fmt_sigma(0.01 * core::kRadToDeg, "deg"), fmt_sigma(0.02 * core::kRadToDeg, "deg/s"),
                                 std::string("identified model"), std::string("start model"),
                                 std::string("the free keys' start values"),
                                 std::string("3 samples a bucket: its least and greatest drawn")})
    EXPECT_NE(svg.find(text), std::string::npos) << text;
}

TEST(PlotIdentify, RejectsNoResponsesNamingThePath) {
  try {
    PlotIdentify({}, study::IdentifyMethod::kOutputError, {}, OutPath("empty.png"));
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("empty.png"), std::string::npos) << e.what();
  }
}

TEST(IdentifyFigurePaths, OneFilePerFormat) {
  EXPECT_EQ(IdentifyFigurePaths("out/p2v7", "svg"), std::vector<std::string>{"out/p2v7_identify.svg"});
}

}  // namespace
}  // namespace aerolin::exporting
