#include "aerolin/export/plot_rough_air.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aerolin/core/units.hpp"
#include "export/plot_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::DecodePng;
using testing::ReadFile;

constexpr int kColourTolerance = 12;
// Light, moderate, severe as the figure draws them (tab10 green, orange, red).
constexpr std::array<std::array<int, 3>, 3> kColours = {{{0x2C, 0xA0, 0x2C}, {0xFF, 0x7F, 0x0E}, {0xD6, 0x27, 0x28}}};

std::string OutPath(const std::string& name) {
  static const testing::ScratchDirectory dir("aerolin_plot_rough_air_test");
  return (dir.path / name).string();
}

core::Signal SignalOf(const std::string& name) {
  const bool angle = name == "alpha" || name == "theta" || name == "beta" || name == "phi";
  return {name, angle ? core::Unit::kRadian : core::Unit::kGravity, name};
}

// Statistics whose every drawn output has RMS `rms` (in the figure's unit:
// degrees for angles, g otherwise); the lateral axis not stationary if asked.
study::RoughAirStatistics Uniform(double rms, bool lateral_stationary = true) {
  study::RoughAirStatistics s;
  s.turbulence.intensity = sim::TurbulenceIntensity::kModerate;
  s.turbulence.height = 304.8;
  s.height_source = study::HeightSource::kDefault;
  s.airspeed = 50.0;
  s.dt = 0.1;
  s.longitudinal.axis = model::Axis::kLongitudinal;
  s.lateral.axis = model::Axis::kLateral;
  for (const char* name : kRoughAirFigureOutputs) {
    study::OutputStatistics o;
    o.signal = SignalOf(name);
    o.rms = o.signal.unit == core::Unit::kRadian ? rms / core::kRadToDeg : rms;
    const bool lon = std::string(name) == "nz" || std::string(name) == "alpha" || std::string(name) == "theta";
    if (lon) s.longitudinal.outputs.push_back(o);
    else if (lateral_stationary) s.lateral.outputs.push_back(o);
  }
  if (!lateral_stationary) s.lateral.not_stationary = "spiral is unstable (λ = +0.0123 1/s)";
  return s;
}

// Light, moderate and severe at RMS 1, 2 and 3 at every height: three
// vertical lines.
study::RoughAirProfile Steps(bool lateral_stationary = true) {
  study::RoughAirProfile p;
  for (int k = 0; k <= 40; ++k) p.heights.push_back(3.048 * std::pow(8000.0, k / 40.0));
  for (int i = 0; i < 3; ++i)
    p.statistics[static_cast<std::size_t>(i)].assign(p.heights.size(), Uniform(i + 1.0, lateral_stationary));
  return p;
}

// The median column of the pixels of colour `c` in the image's rows
// [y0, y1) and columns [x0, x1); -1 if none.
double MedianColumn(const testing::RgbImage& image, const std::array<int, 3>& c, int x0, int x1, int y0, int y1) {
  std::vector<int> columns;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const std::size_t i = 3 * (static_cast<std::size_t>(y) * image.width + x);
      if (std::abs(image.rgb[i] - c[0]) <= kColourTolerance && std::abs(image.rgb[i + 1] - c[1]) <= kColourTolerance &&
          std::abs(image.rgb[i + 2] - c[2]) <= kColourTolerance)
        columns.push_back(x);
    }
  if (columns.empty()) return -1;
  std::nth_element(columns.begin(), columns.begin() + columns.size() / 2, columns.end());
  return columns[columns.size() / 2];
}

// RMS 1, 2, 3 land at equal steps from the axis's zero: the x axis is linear
// from 0 in each panel (the top-left panel, nz, is measured).
TEST(PlotRoughAir, RmsAxisIsLinearFromZero) {
  for (const auto& [w, h] : {std::pair{1200, 900}, std::pair{800, 600}}) {
    PlotOptions options;
    options.width_px = w;
    options.height_px = h;
    const std::string path = OutPath("steps_" + std::to_string(w) + ".png");
    PlotRoughAir(Steps(), Uniform(2.0), options, path);
    const testing::RgbImage image = DecodePng(path);
    ASSERT_EQ(image.width, w);
    ASSERT_EQ(image.height, h);
    // The top-left panel: the left third, between the title and the middle.
    const int x1 = w / 3, y0 = h / 10, y1 = h * 4 / 10;
    const double l = MedianColumn(image, kColours[0], 0, x1, y0, y1);
    const double m = MedianColumn(image, kColours[1], 0, x1, y0, y1);
    const double s = MedianColumn(image, kColours[2], 0, x1, y0, y1);
    ASSERT_GT(l, 0) << w;
    ASSERT_GT(m, l) << w;
    ASSERT_GT(s, m) << w;
    EXPECT_NEAR(s - m, m - l, 3.0) << w;
    // Each of the six panels draws all three.
    for (int row = 0; row < 2; ++row)
      for (int col = 0; col < 3; ++col)
        for (const auto& c : kColours)
          EXPECT_GT(MedianColumn(image, c, col * w / 3, (col + 1) * w / 3, h / 10 + row * h * 4 / 10,
                                 h / 10 + (row + 1) * h * 4 / 10 - h / 20),
                    0)
              << w << " panel " << row << "," << col;
  }
}

// The SVG names each panel's output, the legend's intensities and the
// table's height with its source; a lateral axis without stationary
// statistics says why in its panels and draws no lateral curve.
TEST(PlotRoughAir, SvgLabelsAndAnAxisWithoutStatistics) {
  const std::string path = OutPath("unstable.svg");
  PlotRoughAir(Steps(false), Uniform(2.0, false), {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(testing::XmlStructureProblem(svg), "");
  for (const char* text : {"moderate (the table", "severe", "304.8 m (1000 ft), default", "no stationary RMS:",
                           "spiral is unstable"})
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  std::size_t count = 0;
  for (std::size_t at = svg.find("no stationary RMS:"); at != std::string::npos;
       at = svg.find("no stationary RMS:", at + 1))
    ++count;
  EXPECT_EQ(count, 3u);  // the three lateral panels
  const std::string png = OutPath("unstable.png");
  PlotRoughAir(Steps(false), Uniform(2.0, false), {}, png);
  const testing::RgbImage image = DecodePng(png);
  for (const auto& c : kColours) {
    EXPECT_GT(MedianColumn(image, c, 0, image.width, image.height / 10, image.height * 4 / 10), 0);
    EXPECT_EQ(MedianColumn(image, c, 0, image.width, image.height / 2, image.height * 8 / 10), -1);
  }
}

TEST(PlotRoughAir, RejectsAnEmptyProfileNamingThePath) {
  try {
    PlotRoughAir({}, Uniform(1.0), {}, OutPath("empty.png"));
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("empty.png"), std::string::npos) << e.what();
  }
}

TEST(RoughAirFigurePaths, OneFilePerFormat) {
  EXPECT_EQ(RoughAirFigurePaths("out/navion", "svg"), std::vector<std::string>{"out/navion_rms_height.svg"});
}

}  // namespace
}  // namespace aerolin::exporting
