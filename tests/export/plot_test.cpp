#include "aerolin/export/plot.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>
#include <utility>

#include "export/plot_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::ClimbingTurn;
using testing::DecodePng;
using testing::LateralModes;
using testing::LongitudinalModes;
using testing::ReadFile;
using testing::ReadPngHeader;

// MathGL anti-aliases edges, so a glyph colour is matched within this many
// levels per channel; the face interiors are the exact colour.
constexpr int kColourTolerance = 12;
// A glyph face covers hundreds of pixels at 1200x900; a few dozen proves the
// faces were drawn without depending on the exact projection.
constexpr int kMinGlyphPixels = 40;
// The body halves are slivers (0.1 of the span) seen from above.
constexpr int kMinBodyPixels = 20;

// In this process's own directory, removed at exit.
std::string OutPath(const std::string& name) {
  static const testing::ScratchDirectory dir("aerolin_plot_test");
  return (dir.path / name).string();
}

int DistinctColours(const testing::RgbImage& image) {
  std::set<std::uint32_t> colours;
  for (std::size_t i = 0; i + 2 < image.rgb.size(); i += 3)
    colours.insert((image.rgb[i] << 16) | (image.rgb[i + 1] << 8) | image.rgb[i + 2]);
  return static_cast<int>(colours.size());
}

int NonWhitePixels(const testing::RgbImage& image) {
  const int total = image.width * image.height;
  return total - image.CountNear(255, 255, 255, 0);
}

TEST(ImageFormatOf, ReadsTheExtensionCaseInsensitively) {
  EXPECT_EQ(ImageFormatOf("a/b.png"), ImageFormat::kPng);
  EXPECT_EQ(ImageFormatOf("B.PNG"), ImageFormat::kPng);
  EXPECT_EQ(ImageFormatOf("c.svg"), ImageFormat::kSvg);
  EXPECT_EQ(ImageFormatOf("d.Eps"), ImageFormat::kEps);
  EXPECT_EQ(ImageFormatOf("e.PDF"), ImageFormat::kPdf);
}

TEST(ImageFormatOf, RejectsOtherExtensionsNamingThePath) {
  try {
    ImageFormatOf("out/figure.jpg");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "out/figure.jpg: unknown image format '.jpg' (expected .png, .svg, .eps or .pdf)");
  }
}

TEST(PlotTrajectory3D, WritesAPngOfTheRequestedSizeWithBothGlyphColours) {
  PlotOptions options;
  options.width_px = 1000;
  options.height_px = 700;
  options.aircraft = "Synthetic";
  const std::string path = OutPath("trajectory.png");
  PlotTrajectory3D(ClimbingTurn(), options, path);

  const testing::PngSize size = ReadPngHeader(path);
  EXPECT_EQ(size.width, 1000u);
  EXPECT_EQ(size.height, 700u);
  const testing::RgbImage image = DecodePng(path);
  EXPECT_GT(DistinctColours(image), 50) << "antialiased lines and text";
  EXPECT_GT(NonWhitePixels(image), 10000);
  EXPECT_GT(image.CountNear(255, 69, 0, kColourTolerance), kMinGlyphPixels)
      << "orangered wings";
  // The lime slivers are a few pixels wide, so nearly every pixel is blended
  // with its neighbours; nothing else in the figure is green-dominant.
  EXPECT_GT(image.CountGreenDominant(180, 120), kMinBodyPixels) << "lime body halves";
}

TEST(PlotTrajectory3D, DrawsAGlyphForALevelStraightFlight) {
  // A degenerate path (no climb, no turn) still gets a box and glyphs.
  sim::FlightLog log = ClimbingTurn();
  for (std::size_t k = 0; k < log.size(); ++k) {
    log.state[k].setZero();
    log.state[k][sim::kNorth] = 90.0 * log.time[k];
  }
  const std::string path = OutPath("straight.png");
  PlotTrajectory3D(log, {}, path);
  const testing::RgbImage image = DecodePng(path);
  EXPECT_EQ(image.width, 1200);
  EXPECT_EQ(image.height, 900);
  EXPECT_GT(image.CountNear(255, 69, 0, kColourTolerance), kMinGlyphPixels);
}

TEST(PlotTrajectory3D, WritesAWellFormedSvgWithGlyphFaces) {
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const std::string path = OutPath("trajectory.svg");
  PlotTrajectory3D(ClimbingTurn(), options, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(testing::XmlStructureProblem(svg), "");
  EXPECT_NE(svg.find("<svg width=\"800\" height=\"600\""), std::string::npos);
  // MathGL writes each filled polygon as a <path> inside <g fill="#rrggbb">.
  const std::regex wing_faces("<g fill=\"#ff4500\"[^>]*>\\s*<path");
  const std::regex body_faces("<g fill=\"#00ff00\"[^>]*>\\s*<path");
  EXPECT_TRUE(std::regex_search(svg, wing_faces));
  EXPECT_TRUE(std::regex_search(svg, body_faces));
}

TEST(PlotTrajectory3D, VerticalExaggerationChangesTheFigure) {
  // A doublet-like log: 5 km north with a ±10 m altitude wave, invisible at
  // equal scales.
  sim::FlightLog log = ClimbingTurn();
  for (std::size_t k = 0; k < log.size(); ++k) {
    const double t = log.time[k];
    log.state[k].setZero();
    log.state[k][sim::kNorth] = 85.0 * t;
    log.state[k][sim::kDown] = -10.0 * std::sin(0.2 * t);
    log.state[k][sim::kTheta] = 0.01 * std::cos(0.2 * t);
  }
  PlotOptions options;
  const std::string equal = OutPath("exaggeration_1.png");
  PlotTrajectory3D(log, options, equal);
  options.vertical_exaggeration = 20.0;
  const std::string stretched = OutPath("exaggeration_20.png");
  PlotTrajectory3D(log, options, stretched);

  const testing::RgbImage image = DecodePng(stretched);
  EXPECT_EQ(image.width, 1200);
  EXPECT_EQ(image.height, 900);
  EXPECT_GT(DistinctColours(image), 50);
  EXPECT_GT(image.CountNear(255, 69, 0, kColourTolerance), kMinGlyphPixels)
      << "orangered wings";
  EXPECT_NE(ReadFile(stretched), ReadFile(equal));
}

TEST(PlotTrajectory3D, RejectsAVerticalExaggerationBelowOne) {
  PlotOptions options;
  options.vertical_exaggeration = 0.5;
  try {
    PlotTrajectory3D(ClimbingTurn(), options, "x.png");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "x.png: vertical exaggeration must be a finite number >= 1, got 0.500000");
  }
  options.vertical_exaggeration = std::nan("");
  EXPECT_THROW(PlotTrajectory3D(ClimbingTurn(), options, "x.png"), std::invalid_argument);
}

TEST(PlotTrajectory3D, RejectsAnEmptyLogNamingThePath) {
  try {
    PlotTrajectory3D(sim::FlightLog{}, {}, "x.png");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "x.png: the flight log is empty");
  }
}

TEST(PlotTrajectory3D, RejectsANonPositiveSize) {
  PlotOptions options;
  options.width_px = 0;
  try {
    PlotTrajectory3D(ClimbingTurn(), options, "x.png");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "x.png: image size must be positive, got 0x900 px");
  }
}

// The figure is drawn in memory and written as every output is
// (core::AtomicOutput), so the message carries the errno text (it was
// MathGL's "couldn't open file", which says no why).
TEST(PlotTrajectory3D, ReportsAnUnwritablePathWithTheErrnoText) {
  const std::string path = "/nonexistent-dir/aerolin/trajectory.png";
  try {
    PlotTrajectory3D(ClimbingTurn(), {}, path);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot write (No such file or directory)");
  }
}

// A 737-like elevator doublet at ×30: the path sags 150 m, then climbs to
// +144 m at the far end, which the top-right legend covered (its 60 s glyph
// and tag were under it). The legend moves to a corner covering no pixel of
// the path or a glyph, at 1200 x 900 and at 800 x 600.
TEST(PlaceTrajectoryLegend, KeepsOffAPathThatClimbsIntoTheTopRightCorner) {
  sim::FlightLog log;
  log.control_names = {"elevator"};
  log.control_units = {"rad"};
  for (int k = 0; k <= 600; ++k) {
    const double t = 0.1 * k;
    sim::FlightState x = sim::FlightState::Zero();
    x[sim::kNorth] = 250.0 * t;
    x[sim::kDown] = -(150.0 * ((t - 25.0) / 25.0) * ((t - 25.0) / 25.0) - 150.0);
    x[sim::kTheta] = 0.002 * (t - 25.0);
    log.time.push_back(t);
    log.state.push_back(x);
    log.controls.push_back(Eigen::VectorXd::Zero(1));
  }
  for (const auto& [width, height] : {std::pair{1200, 900}, std::pair{800, 600}}) {
    PlotOptions options;
    options.width_px = width;
    options.height_px = height;
    options.vertical_exaggeration = 30.0;
    const TrajectoryLegend legend = PlaceTrajectoryLegend(log, options);
    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
    EXPECT_NE(legend.corner, 3);  // tried first: it covered the climb
    EXPECT_EQ(legend.covered, 0);
    EXPECT_GT(legend.box[2] - legend.box[0], width / 5);  // a legend was found
    EXPECT_GT(legend.box[3] - legend.box[1], 20);
  }
}

TEST(PlotGroundTrack, WritesAPngOfTheRequestedSizeWithThePathColour) {
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const std::string path = OutPath("track.png");
  PlotGroundTrack(ClimbingTurn(), options, path);
  const testing::PngSize size = ReadPngHeader(path);
  EXPECT_EQ(size.width, 800u);
  EXPECT_EQ(size.height, 600u);
  // The ground track and the altitude profile, in the path's dark blue.
  EXPECT_GT(DecodePng(path).CountNear(0x1F, 0x4E, 0x9C, kColourTolerance), 400);
  EXPECT_THROW(PlotGroundTrack(sim::FlightLog{}, options, path), std::invalid_argument);
}

// A "nonlinear" flight beside ClimbingTurn: the same times, the path drawn
// 200 m further east and 50 m higher, α twice as large.
sim::FlightLog BesideClimbingTurn() {
  sim::FlightLog log = ClimbingTurn();
  for (sim::FlightState& x : log.state) {
    x[sim::kEast] += 200.0;
    x[sim::kDown] -= 50.0;
    x[sim::kAlpha] *= 2.0;
  }
  return log;
}

// The same rows at other times (not a flight beside ClimbingTurn).
const sim::FlightLog& BesideWithTimeShifted() {
  static const sim::FlightLog log = [] {
    sim::FlightLog l = BesideClimbingTurn();
    for (double& t : l.time) t += 0.05;
    return l;
  }();
  return log;
}

// The nonlinear path's magenta (kNonlinearPathColour), anti-aliased.
int NonlinearPixels(const testing::RgbImage& image) {
  return image.CountNear(0xC5, 0x1B, 0x7D, kColourTolerance);
}

// ClimbingTurn alone and with BesideClimbingTurn beside, drawn at 800 x 600
// by `draw(log, options, path, beside)` into NAME_alone.png and
// NAME_both.png: the nonlinear magenta pixels of each.
struct BesideDrawn {
  int alone = 0, both = 0;
  std::string both_path;
};
template <typename Draw>
BesideDrawn DrawAloneAndBeside(const std::string& name, Draw draw) {
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const sim::FlightLog nonlinear = BesideClimbingTurn();
  BesideDrawn d{0, 0, OutPath(name + "_both.png")};
  const std::string alone = OutPath(name + "_alone.png");
  draw(ClimbingTurn(), options, alone, nullptr);
  draw(ClimbingTurn(), options, d.both_path, &nonlinear);
  d.alone = NonlinearPixels(DecodePng(alone));
  d.both = NonlinearPixels(DecodePng(d.both_path));
  return d;
}

TEST(PlotGroundTrack, DrawsTheNonlinearFlightBesideInItsOwnColour) {
  const BesideDrawn drawn = DrawAloneAndBeside("track", PlotGroundTrack);
  EXPECT_EQ(drawn.alone, 0);
  // Dashed on the map and on the profile: hundreds of pixels at 800 x 600.
  EXPECT_GT(drawn.both, 300);
  // The linear track is still drawn (its dark blue, as without).
  EXPECT_GT(DecodePng(drawn.both_path).CountNear(0x1F, 0x4E, 0x9C, kColourTolerance), 400);
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const sim::FlightLog linear = ClimbingTurn();
  const sim::FlightLog nonlinear = BesideClimbingTurn();
  const std::string svg = OutPath("track_both.svg");
  PlotGroundTrack(linear, options, svg, &nonlinear);
  const std::string text = ReadFile(svg);
  EXPECT_NE(text.find(">nonlinear model's ground track<"), std::string::npos);
  EXPECT_NE(text.find(">linear model's ground track<"), std::string::npos);
  EXPECT_NE(text.find("(linear and nonlinear models)"), std::string::npos);
  // A departed nonlinear flight ends first (sim::NonlinearShadow): drawn to
  // its end. A log at other times, or longer than the linear one, is refused.
  sim::FlightLog shorter = nonlinear;
  shorter.time.pop_back();
  shorter.state.pop_back();
  shorter.controls.pop_back();
  EXPECT_NO_THROW(PlotGroundTrack(linear, options, svg, &shorter));
  sim::FlightLog shifted = shorter;
  shifted.time[1] += 1e-3;
  EXPECT_THROW(PlotGroundTrack(linear, options, svg, &shifted), std::invalid_argument);
  sim::FlightLog longer = nonlinear;
  longer.time.push_back(linear.time.back() + 1.0);
  longer.state.push_back(longer.state.back());
  longer.controls.push_back(longer.controls.back());
  EXPECT_THROW(PlotGroundTrack(linear, options, svg, &longer), std::invalid_argument);
}

TEST(PlotTrajectory3D, DrawsTheNonlinearPathBesideAndKeepsTheLegendOffBoth) {
  const BesideDrawn drawn = DrawAloneAndBeside("trajectory", PlotTrajectory3D);
  EXPECT_EQ(drawn.alone, 0);
  EXPECT_GT(drawn.both, 200);
  // The legend covers no pixel of either path, glyph or tag.
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const sim::FlightLog nonlinear = BesideClimbingTurn();
  EXPECT_EQ(PlaceTrajectoryLegend(ClimbingTurn(), options, &nonlinear).covered, 0);
}

TEST(PlotTimeHistories, DrawsEachNonlinearStateDashedOverItsLinearOne) {
  PlotOptions options;
  options.width_px = 800;
  options.height_px = 600;
  const sim::FlightLog linear = ClimbingTurn();
  const sim::FlightLog nonlinear = BesideClimbingTurn();
  const std::string alone = OutPath("history_alone.svg"), both = OutPath("history_both.svg");
  PlotTimeHistories(linear, options, alone);
  PlotTimeHistories(linear, options, both, {}, &nonlinear);
  EXPECT_EQ(ReadFile(alone).find("nonlinear"), std::string::npos);
  EXPECT_NE(ReadFile(both).find("linear model solid, nonlinear model dashed"), std::string::npos);
  // The nonlinear α and altitude (first series: blue) part from the linear
  // ones, so their dashes are hundreds of blue pixels more at 800 x 600.
  const std::string png_alone = OutPath("history_alone.png"), png = OutPath("history_both.png");
  PlotTimeHistories(linear, options, png_alone);
  PlotTimeHistories(linear, options, png, {}, &nonlinear);
  const auto blue = [](const std::string& path) {
    return DecodePng(path).CountNear(0x1F, 0x77, 0xB4, kColourTolerance);
  };
  EXPECT_GT(blue(png), blue(png_alone) + 300);
  EXPECT_THROW(PlotTimeHistories(linear, options, png, {}, &BesideWithTimeShifted()),
               std::invalid_argument);
}

TEST(PlotTimeHistories, WritesAPngOfTheRequestedSizeThatIsNotBlank) {
  PlotOptions options;
  options.width_px = 900;
  options.height_px = 1000;
  const std::string path = OutPath("history.png");
  PlotTimeHistories(ClimbingTurn(), options, path);
  const testing::PngSize size = ReadPngHeader(path);
  EXPECT_EQ(size.width, 900u);
  EXPECT_EQ(size.height, 1000u);
  const testing::RgbImage image = DecodePng(path);
  EXPECT_GT(DistinctColours(image), 50);
  // The first two series colours (u, β ... in blue; θ, ψ ... in red).
  EXPECT_GT(image.CountNear(0x1F, 0x77, 0xB4, kColourTolerance), 500);
  EXPECT_GT(image.CountNear(0xD6, 0x27, 0x28, kColourTolerance), 500);
}

TEST(PlotTimeHistories, WindAddsTheGustPanelsAndMustMatchTheLog) {
  const sim::FlightLog log = ClimbingTurn();
  std::vector<Eigen::Vector4d> wind(log.size());
  for (std::size_t k = 0; k < wind.size(); ++k)
    wind[k] = Eigen::Vector4d(0.0, 0.0, std::sin(0.5 * log.time[k]), 0.01 * std::cos(log.time[k]));
  const std::string calm = OutPath("history_calm.png"), gusty = OutPath("history_gusty.png");
  PlotTimeHistories(log, {}, calm);
  PlotTimeHistories(log, {}, gusty, wind);
  // w_g is the third series of the gust panel (green), which the wind puts
  // in the bottom-left cell; without it that cell is the position panel
  // (blue and red only).
  auto bottom_left_green = [](const testing::RgbImage& image) {
    int n = 0;
    for (int y = image.height * 4 / 5; y < image.height; ++y)
      for (int x = 0; x < image.width / 2; ++x) {
        const std::uint8_t* px = &image.rgb[3 * (static_cast<std::size_t>(y) * image.width + x)];
        if (std::abs(px[0] - 0x2C) <= kColourTolerance && std::abs(px[1] - 0xA0) <= kColourTolerance &&
            std::abs(px[2] - 0x2C) <= kColourTolerance)
          ++n;
      }
    return n;
  };
  EXPECT_EQ(bottom_left_green(DecodePng(calm)), 0);
  EXPECT_GT(bottom_left_green(DecodePng(gusty)), 300);
  wind.pop_back();
  EXPECT_THROW(PlotTimeHistories(log, {}, gusty, wind), std::invalid_argument);
}

TEST(PlotTimeHistories, WritesAWellFormedSvg) {
  const std::string path = OutPath("history.svg");
  PlotTimeHistories(ClimbingTurn(), {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(testing::XmlStructureProblem(svg), "");
  EXPECT_NE(svg.find("<svg width=\"1200\" height=\"900\""), std::string::npos);
}

// Text is text: the labels are <text> elements (searchable, editable), no
// glyph outline is left, and the throttle reads as a setting.
TEST(PlotTimeHistories, SvgLabelsAreTextElements) {
  const std::string path = OutPath("history_text.svg");
  PlotTimeHistories(ClimbingTurn(), {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(testing::XmlStructureProblem(svg), "");
  EXPECT_EQ(svg.find("<use"), std::string::npos);
  EXPECT_EQ(svg.find("<defs><g id="), std::string::npos);
  for (const char* label : {">time, s</text>", ">speed, m/s</text>", ">sideslip, deg</text>",
                            ">throttle (setting)</text>", ">control, deg or setting</text>",
                            ">time histories</text>", ">α</text>"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_EQ(svg.find("(-)"), std::string::npos);
}

// Controls that stay at zero while others move share one legend line (the
// AVL 737's slat and flap): a row each made the legend's band so tall that
// a 1° aileron pulse filled a twentieth of the panel at 800 x 600.
TEST(PlotTimeHistories, ControlsThatStayAtZeroShareOneLegendLine) {
  sim::FlightLog log = ClimbingTurn();
  log.control_names = {"slat", "flap", "aileron", "rudder"};
  log.control_units = {"rad", "rad", "rad", "rad"};
  for (Eigen::VectorXd& u : log.controls) u[0] = u[1] = 0.0;
  const std::string path = OutPath("history_flat_controls.svg");
  PlotTimeHistories(log, {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_NE(svg.find(">slat, flap = 0 throughout</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">slat</text>"), std::string::npos);
  EXPECT_NE(svg.find(">aileron</text>"), std::string::npos);
  EXPECT_NE(svg.find(">rudder</text>"), std::string::npos);
}

// A lateral motion in a flight that stayed wings level: the lateral panels
// say "no motion" and carry no legend; the others are drawn as usual.
TEST(PlotTimeHistories, MarksThePanelsOfAMotionThatDidNotHappen) {
  sim::FlightLog log = ClimbingTurn();
  for (sim::FlightState& x : log.state)
    for (const int i : {sim::kBeta, sim::kP, sim::kR, sim::kPhi, sim::kPsi}) x[i] = 0.0;
  const std::string path = OutPath("history_still.svg");
  PlotTimeHistories(log, {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_NE(svg.find(">no motion: β = 0 throughout</text>"), std::string::npos);
  EXPECT_NE(svg.find(">no motion: ϕ, ψ = 0 throughout</text>"), std::string::npos);
  EXPECT_NE(svg.find(">no motion: p, r = 0 throughout</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">no motion: u"), std::string::npos);  // u moves
  EXPECT_EQ(svg.find(">β</text>"), std::string::npos);      // no legend entry
  EXPECT_NE(svg.find(">u</text>"), std::string::npos);
}

TEST(PlotSPlane, SvgNamesEachModeInTextAndDrawsTheSGrid) {
  const std::string path = OutPath("splane_text.svg");
  PlotSPlane(LongitudinalModes(), LateralModes(), {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(svg.find("<use"), std::string::npos);
  for (const char* label : {">Re λ, 1/s</text>", ">Im λ, rad/s</text>", ">short period</text>",
                            ">ζ = 0.4</text>"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_NE(svg.find("#c8c8c8"), std::string::npos);  // the grid's light grey
}

TEST(PlotSPlane, WritesAPngWithTheShortPeriodDutchRollAndRollColours) {
  const std::string path = OutPath("splane.png");
  PlotSPlane(LongitudinalModes(), LateralModes(), {}, path);
  const testing::RgbImage image = DecodePng(path);
  EXPECT_EQ(image.width, 1200);
  EXPECT_EQ(image.height, 900);
  // Short period (blue), dutch roll (red), roll subsidence (orange) markers.
  EXPECT_GT(image.CountNear(0x1F, 0x77, 0xB4, kColourTolerance), 50);
  EXPECT_GT(image.CountNear(0xD6, 0x27, 0x28, kColourTolerance), 50);
  EXPECT_GT(image.CountNear(0xFF, 0x7F, 0x0E, kColourTolerance), 50);
}

TEST(PlotSPlane, SvgHasTheMarkerColourOfEachModeKindPlotted) {
  const std::string path = OutPath("splane.svg");
  PlotSPlane(LongitudinalModes(), LateralModes(), {}, path);
  const std::string svg = ReadFile(path);
  EXPECT_EQ(testing::XmlStructureProblem(svg), "");
  // MathGL draws text as glyph outlines, so names are not searchable; the
  // marker colours of every mode kind are.
  for (const char* colour : {"#1f77b4", "#17becf", "#d62728", "#ff7f0e", "#9467bd", "#7f7f7f"})
    EXPECT_NE(svg.find(colour), std::string::npos) << colour;
}

TEST(PlotSPlane, RejectsNoModes) {
  EXPECT_THROW(PlotSPlane({}, {}, {}, OutPath("none.png")), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::exporting
