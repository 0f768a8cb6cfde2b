// Window tests: run aerolin-fly under Xvfb (CTest wraps this executable in
// `xvfb-run -a`) and inspect its screenshots. Not a *_test.cpp file, so the
// display-free suite aerolin_viz_tests does not pick it up.

#include <gtest/gtest.h>
#include <unistd.h>

#include <SFML/Graphics.hpp>
#include <SFML/Graphics/Image.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "aerolin/viz/font.hpp"
#include "aerolin/viz/hud.hpp"
#include "aerolin/viz/scene.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kFly = std::string(AEROLIN_BINARY_DIR) + "/aerolin-fly";
const std::string kP2V7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";
const std::string kScript = std::string(AEROLIN_SOURCE_DIR) + "/tests/viz/fixtures/elevator_doublet.txt";

struct FlyRun {
  int status;
  std::string out;
};

FlyRun RunFly(const std::string& args, const fs::path& dir) {
  const fs::path out = dir / "stdout.txt";
  const std::string cmd = "'" + kFly + "' " + args + " > '" + out.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  return {status, text.str()};
}

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("aerolin_window_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

bool IsOrangered(sf::Color c) { return c.r > 200 && c.g > 30 && c.g < 130 && c.b < 70; }
bool IsLime(sf::Color c) { return c.g > 190 && c.r < 120 && c.b < 120; }
bool IsInk(sf::Color c) { return c.r < 90 && c.g < 90 && c.b < 110; }

// The 747 file declares Class III, Category B: its mode panel (top right)
// shows the short period in Level 1 green, the roll mode in Level 2 amber and
// the Dutch roll in Level 3 orange (levels derived by hand in
// tests/analysis/flying_qualities_test.cpp); the P2V-7 has no Level 3 mode.
int CountInPanel(const sf::Image& image, sf::Color want) {
  int n = 0;
  const unsigned w = image.getSize().x;
  for (unsigned y = 12; y < 170; ++y)
    for (unsigned x = w - 442; x < w - 12; ++x) {
      const sf::Color c = image.getPixel(x, y);
      if (std::abs(c.r - want.r) <= 12 && std::abs(c.g - want.g) <= 12 && std::abs(c.b - want.b) <= 12) ++n;
    }
  return n;
}

TEST(FlyWindow, ModePanelColoursModesByFlyingQualitiesLevel) {
  const sf::Color level1(30, 130, 40), level2(175, 125, 0), level3(215, 90, 0);
  const fs::path dir = FreshDir("levels");
  const std::string b747 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/boeing747_cruise_40kft.toml";
  const fs::path png = dir / "b747.png";
  const FlyRun run = RunFly("'" + b747 + "' --script '" + kScript + "' --duration 2 --screenshot '" +
                                png.string() + "' --log-dir '" + dir.string() + "'",
                            dir);
  ASSERT_EQ(run.status, 0) << run.out;
  sf::Image image;
  ASSERT_TRUE(image.loadFromFile(png.string()));
  EXPECT_GT(CountInPanel(image, level1), 20);
  EXPECT_GT(CountInPanel(image, level2), 20);
  EXPECT_GT(CountInPanel(image, level3), 20);
  const fs::path p2v7 = dir / "p2v7.png";
  const FlyRun run2 = RunFly("'" + kP2V7 + "' --script '" + kScript + "' --duration 2 --screenshot '" +
                                 p2v7.string() + "' --log-dir '" + dir.string() + "'",
                             dir);
  ASSERT_EQ(run2.status, 0) << run2.out;
  ASSERT_TRUE(image.loadFromFile(p2v7.string()));
  EXPECT_GT(CountInPanel(image, level2), 20);  // Dutch roll, Category B
  EXPECT_EQ(CountInPanel(image, level3), 0);
  fs::remove_all(dir);
}

TEST(FlyWindow, ScriptedScreenshotShowsGlyphHudAndLogsTheFlight) {
  const fs::path dir = FreshDir("shot");
  const fs::path png = dir / "final.png";
  const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + kScript + "' --duration 20 --screenshot '" +
                             png.string() + "' --log-dir '" + dir.string() + "' --log-name w",
                         dir);
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.out.find("flight log: " + (dir / "w-1.csv").string()), std::string::npos) << run.out;

  sf::Image image;
  ASSERT_TRUE(image.loadFromFile(png.string()));
  ASSERT_EQ(image.getSize().x, 1280u);
  ASSERT_EQ(image.getSize().y, 800u);

  // Not blank: a drawn scene has many distinct colours.
  std::set<sf::Uint32> colours;
  for (unsigned y = 0; y < 800; y += 3)
    for (unsigned x = 0; x < 1280; x += 3) colours.insert(image.getPixel(x, y).toInteger());
  EXPECT_GT(colours.size(), 200u);

  // The glyph's colours appear around the projected aircraft position.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(run.out, m, std::regex(R"(aircraft at (-?\d+), (-?\d+) px)"))) << run.out;
  const int ax = std::stoi(m[1]), ay = std::stoi(m[2]);
  ASSERT_TRUE(ax >= 0 && ax < 1280 && ay >= 0 && ay < 800) << ax << "," << ay;
  int orange = 0, lime = 0;
  constexpr int kRadius = 48;  // [px] the glyph spans 64 px nose to tail
  for (int y = std::max(0, ay - kRadius); y < std::min(800, ay + kRadius); ++y)
    for (int x = std::max(0, ax - kRadius); x < std::min(1280, ax + kRadius); ++x) {
      const sf::Color c = image.getPixel(x, y);
      orange += IsOrangered(c);
      lime += IsLime(c);
    }
  EXPECT_GT(orange, 40) << "around " << ax << "," << ay;
  EXPECT_GT(lime, 2) << "around " << ax << "," << ay;
  // ... and nowhere far from it (the glyph is drawn where the math says).
  int far_orange = 0;
  for (unsigned y = 0; y < 800; y += 2)
    for (unsigned x = 0; x < 1280; x += 2)
      if (std::abs(int(x) - ax) > 120 || std::abs(int(y) - ay) > 120)
        far_orange += IsOrangered(image.getPixel(x, y));
  EXPECT_LT(far_orange, 10);

  // HUD text regions: the state panel (top left) and status strip (bottom).
  int panel_ink = 0, strip_ink = 0;
  for (unsigned y = 20; y < 380; ++y)
    for (unsigned x = 20; x < 330; ++x) panel_ink += IsInk(image.getPixel(x, y));
  for (unsigned y = 745; y < 790; ++y)
    for (unsigned x = 20; x < 900; ++x) strip_ink += IsInk(image.getPixel(x, y));
  EXPECT_GT(panel_ink, 1500);
  EXPECT_GT(strip_ink, 800);

  // The log holds every slice: header + t = 0 + 200 slices.
  std::ifstream csv(dir / "w-1.csv");
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, 202);
  EXPECT_TRUE(fs::exists(dir / "w-1.script.txt"));
  fs::remove_all(dir);
}

TEST(FlyWindow, ChaseCameraCentresTheAircraftBesideTheHud) {
  const fs::path dir = FreshDir("chase");
  const fs::path png = dir / "chase.png";
  const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + kScript + "' --duration 20 --no-log" +
                             " --camera chase --width 800 --height 600 --screenshot '" + png.string() + "'",
                         dir);
  ASSERT_EQ(run.status, 0) << run.out;
  sf::Image image;
  ASSERT_TRUE(image.loadFromFile(png.string()));
  ASSERT_EQ(image.getSize().x, 800u);
  ASSERT_EQ(image.getSize().y, 600u);
  // Chase looks at the aircraft, and the scene is centred between the state
  // panel and the 214 px right column (attitude indicator); an 800×600
  // window opens with compact panels, whose state panel ends at 262 px (the
  // full one at 342 px put the aircraft at 464 px):
  // x = (262 + 800 - 214) / 2, y = 600 / 2.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(run.out, m, std::regex(R"(aircraft at (-?\d+), (-?\d+) px)"))) << run.out;
  EXPECT_NEAR(std::stoi(m[1]), 424, 2);
  EXPECT_NEAR(std::stoi(m[2]), 300, 2);
  int orange = 0;
  for (int y = 300 - 48; y < 300 + 48; ++y)
    for (int x = 424 - 48; x < 424 + 48; ++x) orange += IsOrangered(image.getPixel(x, y));
  EXPECT_GT(orange, 40);
  fs::remove_all(dir);
}

// The nonlinear aircraft beside (--nonlinear, the N key): a translucent
// violet glyph drawn where the linear one is (they start together; 0.3 rad of
// Dutch roll parts them by degrees and metres in 8 s), under the linear
// glyph, whose colours stay where the printed position says. In the
// overview (altitude ×20) their 6 m of Δh put the violet glyph ~30 px under
// the linear one. Its violet blends with the sky into a colour no other part
// of the scene has.
bool IsGhostViolet(sf::Color c) { return c.r > c.g + 12 && c.b > c.r + 25 && c.b > 170; }

TEST(FlyWindow, NonlinearAircraftFliesBesideAsATranslucentVioletGlyph) {
  const fs::path dir = FreshDir("nonlinear");
  const fs::path png = dir / "beside.png";
  const FlyRun run = RunFly("'" + kP2V7 + "' --excite dutch-roll --amplitude 0.3 --nonlinear" +
                                " --duration 8 --time-scale 8 --no-log --screenshot '" + png.string() + "'",
                            dir);
  ASSERT_EQ(run.status, 0) << run.out;
  sf::Image image;
  ASSERT_TRUE(image.loadFromFile(png.string()));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(run.out, m, std::regex(R"(aircraft at (-?\d+), (-?\d+) px)"))) << run.out;
  const int ax = std::stoi(m[1]), ay = std::stoi(m[2]);
  int violet = 0, far_violet = 0, orange = 0;
  constexpr int kRadius = 64;  // [px] the two glyphs, 64 px each, side by side
  const int w = static_cast<int>(image.getSize().x), h = static_cast<int>(image.getSize().y);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const sf::Color c = image.getPixel(x, y);
      const bool near = std::abs(x - ax) < kRadius && std::abs(y - ay) < kRadius;
      if (IsGhostViolet(c)) (near ? violet : far_violet) += 1;
      if (near) orange += IsOrangered(c);
    }
  EXPECT_GT(violet, 100) << "around " << ax << "," << ay;
  EXPECT_GT(orange, 40) << "the linear glyph stays on top";
  // Far from the aircraft only its violet trail (10 s, thin) may show.
  EXPECT_LT(far_violet, 4 * violet);

  // Without --nonlinear no violet is drawn.
  const fs::path plain = dir / "plain.png";
  ASSERT_EQ(RunFly("'" + kP2V7 + "' --excite dutch-roll --amplitude 0.3 --duration 8 --time-scale 8 --no-log" +
                       " --screenshot '" + plain.string() + "'",
                   dir).status, 0);
  ASSERT_TRUE(image.loadFromFile(plain.string()));
  int plain_violet = 0;
  for (unsigned y = 0; y < image.getSize().y; ++y)
    for (unsigned x = 0; x < image.getSize().x; ++x) plain_violet += IsGhostViolet(image.getPixel(x, y));
  EXPECT_LT(plain_violet, violet / 10);
  fs::remove_all(dir);
}

// What N refuses in the window, --nonlinear refuses before the flight.
TEST(FlyWindow, NonlinearWithTurbulenceIsAUsageError) {
  const fs::path dir = FreshDir("nonlinear_refused");
  const FlyRun run = RunFly("'" + kP2V7 + "' --nonlinear --turbulence light --duration 1 --no-log",
                            dir);
  EXPECT_EQ(WEXITSTATUS(run.status), 2) << run.out;
  EXPECT_NE(run.out.find("error: --nonlinear: the nonlinear model flies no turbulence or gusts "
                         "yet: fly them with the linear model (drop --turbulence)"),
            std::string::npos)
      << run.out;
  fs::remove_all(dir);
}

TEST(FlyWindow, FramesDirGetsOneFramePerInterval) {
  const fs::path dir = FreshDir("frames");
  const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + kScript +
                             "' --duration 2 --frame-every 0.5 --no-log --frames-dir '" +
                             (dir / "frames").string() + "' --width 640 --height 400",
                         dir);
  ASSERT_EQ(run.status, 0) << run.out;
  int frames = 0;
  for (const auto& e : fs::directory_iterator(dir / "frames")) frames += e.path().extension() == ".png";
  EXPECT_EQ(frames, 5);  // t = 0, 0.5, 1, 1.5, 2
  sf::Image image;
  ASSERT_TRUE(image.loadFromFile((dir / "frames" / "frame-00000.png").string()));
  ASSERT_TRUE(image.loadFromFile((dir / "frames" / "frame-00004.png").string()));
  EXPECT_EQ(image.getSize().x, 640u);
  fs::remove_all(dir);
}

// The drawn path's largest distance [px] from its best straight line, over
// the scene area clear of the HUD (a straight 3D line projects straight, so a
// level flight stays within the line width; a visible wave does not).
// Path pixels are the path's blues (kPathOld … kPath).
double PathWave(const sf::Image& image) {
  const int w = static_cast<int>(image.getSize().x), h = static_cast<int>(image.getSize().y);
  std::vector<std::pair<double, double>> columns;  // (x, mean y of path pixels)
  for (int x = 360; x < w - 280; ++x) {
    double sum = 0;
    int n = 0;
    for (int y = 40; y < h - 120; ++y) {
      if (x > w - 450 && y < 240) continue;  // the mode table
      const sf::Color c = image.getPixel(x, y);
      if (c.b > 150 && c.r < 140 && c.b - c.r > 80 && c.b - c.g > 45) sum += y, ++n;
    }
    if (n > 0) columns.push_back({double(x), sum / n});
  }
  if (columns.size() < 50) return -1.0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : columns) sx += x, sy += y, sxx += x * x, sxy += x * y;
  const double n = double(columns.size());
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), icpt = (sy - slope * sx) / n;
  double worst = 0;
  for (const auto& [x, y] : columns) worst = std::max(worst, std::abs(y - (slope * x + icpt)));
  return worst;
}

TEST(FlyWindow, ExcitedPhugoidVisiblyWavesInTheOverview) {
  const fs::path dir = FreshDir("phugoid");
  const std::string hands_off = std::string(AEROLIN_SOURCE_DIR) + "/tests/viz/fixtures/hands_off.txt";
  double wave[2] = {0, 0};
  const char* scales[2] = {"auto", "1"};
  for (int i = 0; i < 2; ++i) {
    const fs::path png = dir / (std::string("phugoid_") + scales[i] + ".png");
    const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + hands_off +
                                  "' --duration 90 --excite phugoid --no-log --vertical-exaggeration " +
                                  scales[i] + " --screenshot '" + png.string() + "'",
                              dir);
    ASSERT_EQ(run.status, 0) << run.out;
    sf::Image image;
    ASSERT_TRUE(image.loadFromFile(png.string()));
    ASSERT_EQ(image.getSize().x, 1280u);
    wave[i] = PathWave(image);
  }
  // Auto exaggeration: a wave of tens of pixels; true scale: a straight
  // line within its width, so the measure discriminates.
  std::cout << "path wave: auto " << wave[0] << " px, x1 " << wave[1] << " px\n";
  // Measured 23.9 px and 1.5 px (P2V-7, 90 s, ×50 auto).
  EXPECT_GT(wave[0], 15.0) << "auto";
  EXPECT_GT(wave[0], 8.0 * wave[1]);
  EXPECT_GE(wave[1], 0.0);
  EXPECT_LT(wave[1], 4.0) << "x1";
  fs::remove_all(dir);
}

// Turbulence without --altitude flies at study::TurbulenceHeight's height
// and says so: p2v7.toml gives no [condition] altitude (this used to be a
// usage error), navion_cruise_sl.toml says 0, a sea-level atmosphere (this
// used to fly at the ground).
TEST(FlyWindow, TurbulenceWithoutAnAltitudeFliesAtTheDefaultHeightAndSaysSo) {
  const fs::path dir = FreshDir("turbulence_altitude");
  const std::string navion = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/navion_cruise_sl.toml";
  for (const auto& [file, why] :
       {std::pair{kP2V7, std::string("the file gives no [condition] altitude")},
        std::pair{navion, std::string("the file's [condition] altitude 0 is a sea-level atmosphere")}}) {
    const FlyRun run = RunFly("'" + file + "' --turbulence light --no-log --script '" + kScript +
                                  "' --duration 1 --screenshot '" + (dir / "t.png").string() + "'",
                              dir);
    EXPECT_EQ(run.status, 0) << run.out;
    EXPECT_NE(run.out.find("turbulence height: 304.8 m above ground (default: " + why +
                           "; --altitude H to change)"),
              std::string::npos)
        << run.out;
  }
  fs::remove_all(dir);
}

// The scene's labels (ticks, axis titles, altitude title) never overlap
// each other, a HUD panel, or the edge, at 1280×800 and 800×600, from the
// overview and from close by; a window with more room keeps more of them.
TEST(SceneLabels, NeverOverlapEachOtherThePanelsOrTheEdge) {
  sf::Font font;
  ASSERT_TRUE(font.loadFromFile(aerolin::viz::FindFont("DejaVuSans.ttf")));
  std::vector<Eigen::Vector3d> path;
  for (int k = 0; k <= 900; ++k)  // a 90 s phugoid heading north, ×50
    path.push_back({0.0, 90.0 * k * 0.1, 50.0 * 16.0 * std::sin(0.144 * k * 0.1)});
  aerolin::viz::Bounds bounds;
  for (const auto& p : path) bounds.Extend(p);
  std::size_t drawn_large = 0;
  for (const auto& [w, h] : {std::pair{1280, 800}, std::pair{800, 600}}) {
    for (const double distance_factor : {1.0, 0.25}) {
      SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + " distance x" +
                   std::to_string(distance_factor));
      sf::RenderTexture target;
      ASSERT_TRUE(target.create(w, h));
      aerolin::viz::OrbitCamera camera;
      camera.azimuth = -2.3;
      camera.elevation = 0.42;
      camera.fov_y = 0.75;
      camera = aerolin::viz::FitToBounds(aerolin::viz::DrawnBounds(bounds), camera,
                                         double(w) / h, 600.0);
      camera.distance *= distance_factor;
      const aerolin::viz::Projector projector(camera, w, h);
      aerolin::viz::SceneView view;
      view.path = &path;
      view.bounds = bounds;
      view.aircraft = path.back();
      view.vertical_exaggeration = 50.0;
      aerolin::viz::SceneRenderer scene(font);
      const sf::FloatRect panel(12, 12, 330, 433);  // the state panel
      scene.SetKeepOut({panel});
      scene.Draw(target, projector, view);
      const auto& labels = scene.labels();
      if (distance_factor == 1.0) {
        EXPECT_GE(labels.size(), w == 1280 ? 8u : 6u);
      }
      if (w == 1280 && distance_factor == 1.0) drawn_large = labels.size();
      if (w == 800 && distance_factor == 1.0) {
        EXPECT_LE(labels.size(), drawn_large);
      }
      for (std::size_t i = 0; i < labels.size(); ++i) {
        const sf::FloatRect& a = labels[i];
        EXPECT_TRUE(a.left >= 0 && a.top >= 0 && a.left + a.width <= w && a.top + a.height <= h)
            << "label " << i << " leaves the view";
        EXPECT_FALSE(a.intersects(panel)) << "label " << i << " under the panel";
        for (std::size_t j = i + 1; j < labels.size(); ++j)
          EXPECT_FALSE(a.intersects(labels[j])) << "labels " << i << " and " << j;
      }
    }
  }
}

std::string Describe(const sf::FloatRect& r) {
  return "(" + std::to_string(int(r.left)) + "," + std::to_string(int(r.top)) + " " +
         std::to_string(int(r.width)) + "x" + std::to_string(int(r.height)) + ")";
}

// The HUD's panels never cover one another, with the validity warnings, the
// pause banner, turbulence and a status message all showing. Warnings stack
// above the status strip; at 800×600 the gap between the state panel and the
// mode table (~15 px) is too narrow for the pause banner too, which joins
// them (a warning used to be centred in that gap and covered the aircraft's
// name and the mode table's header).
TEST(HudPanels, NeverOverlapWithWarningsAtAnySize) {
  sf::Font sans, mono;
  ASSERT_TRUE(sans.loadFromFile(aerolin::viz::FindFont("DejaVuSans.ttf")));
  ASSERT_TRUE(mono.loadFromFile(aerolin::viz::FindFont("DejaVuSansMono.ttf")));
  aerolin::viz::HudState h;
  h.aircraft = "North American Navion, sea level cruise (Teper CR-96008)";
  h.controls = {{"elevator", aerolin::core::Unit::kRadian, 0.0, 0.1, "8 nose down \xc2\xb7 5 nose up"},
                {"aileron", aerolin::core::Unit::kRadian, 0.0, 0.1, "4 roll left \xc2\xb7 6 roll right"},
                {"rudder", aerolin::core::Unit::kRadian, 0.0, 0.1, "9 yaw right \xc2\xb7 7 yaw left"}};
  for (const char* name : {"short period", "phugoid", "roll subsidence", "dutch roll", "spiral"})
    h.modes.push_back({name, 1.0, 0.5, 6.0, std::nullopt, true, 1});
  h.qualities = "MIL-F-8785C I, cat. B";
  h.turbulence = "moderate";
  h.turbulence_sigma = {1.5, 1.5, 1.5};
  h.message = "saved snapshot-000020.0.png";
  const std::vector<std::string> warnings = {
      "\xcf\x86 = -31.1\xc2\xb0 beyond \xc2\xb1" "30\xc2\xb0: left the small-perturbation range",
      "\xce\xb2 = +10.4\xc2\xb0 beyond \xc2\xb1" "10\xc2\xb0: left the small-perturbation range"};
  for (const auto& [w, hgt] : {std::pair{1280u, 800u}, std::pair{800u, 600u}}) {
    for (const bool paused : {false, true}) {
      for (std::size_t n = 1; n <= warnings.size(); ++n) {
        // At 800×600 the pause banner and two warnings do not all fit
        // between the state panel and the strip; one warning with the
        // pause banner, or two without it, do.
        if (w == 800 && paused && n == 2) continue;
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(hgt) + (paused ? " paused" : "") +
                     " warnings " + std::to_string(n));
        h.paused = paused;
        h.warnings.assign(warnings.begin(), warnings.begin() + n);
        sf::RenderTexture target;
        ASSERT_TRUE(target.create(w, hgt));
        aerolin::viz::HudRenderer hud(sans, mono);
        hud.Draw(target, h);
        const auto& panels = hud.panels();
        ASSERT_GE(panels.size(), 5u + n);
        for (std::size_t i = 0; i < panels.size(); ++i) {
          const sf::FloatRect& a = panels[i];
          EXPECT_TRUE(a.left >= 0 && a.top >= 0 && a.left + a.width <= w && a.top + a.height <= hgt)
              << "panel " << i << " leaves the window";
          for (std::size_t j = i + 1; j < panels.size(); ++j)
            EXPECT_FALSE(a.intersects(panels[j]))
                << "panels " << i << " " << Describe(a) << " and " << j << " " << Describe(panels[j])
                << " overlap";
        }
      }
    }
  }
}

// Compact and hidden panels (Tab; an 800×600 window opens compact): the
// panels drawn stay in the window, off each other and off the scene's
// central area, with warnings, the pause banner, turbulence and a long
// status message showing; the message wraps within the width left of the
// right column (before, one line ran off the right edge at 800 px).
TEST(HudPanels, CompactAndHiddenPanelsKeepOffTheSceneAndWrapTheMessage) {
  sf::Font sans, mono;
  ASSERT_TRUE(sans.loadFromFile(aerolin::viz::FindFont("DejaVuSans.ttf")));
  ASSERT_TRUE(mono.loadFromFile(aerolin::viz::FindFont("DejaVuSansMono.ttf")));
  aerolin::viz::HudState h;
  h.aircraft = "North American Navion, sea level cruise (Teper CR-96008)";
  for (const char* name : {"elevator", "throttle", "aileron", "rudder"})
    h.controls.push_back({name, aerolin::core::Unit::kRadian, 0.0, 0.1, "8 nose down \xc2\xb7 5 nose up"});
  for (const char* name : {"short period", "phugoid", "roll subsidence", "dutch roll", "spiral"})
    h.modes.push_back({name, 1.0, 0.5, 6.0, std::nullopt, true, 1});
  h.qualities = "MIL-F-8785C I, cat. B";
  h.turbulence = "moderate";
  h.turbulence_height_source = "default";
  h.turbulence_altitude = 304.8;
  h.turbulence_sigma = {1.5, 1.5, 1.5};
  h.message = "turbulence moderate at 305 m above ground (default); new log "
              "/home/pilot/.local/share/aerolin/flights/flight-20261126-010203.csv";
  h.warnings = {"\xcf\x86 = -31.1\xc2\xb0 beyond \xc2\xb1" "30\xc2\xb0: left the small-perturbation range"};
  sf::Text text;
  text.setFont(sans);
  text.setCharacterSize(14);
  for (const auto& [w, hgt] : {std::pair{800u, 600u}, std::pair{1280u, 800u}}) {
    for (const auto mode : {aerolin::viz::PanelMode::kCompact, aerolin::viz::PanelMode::kHidden}) {
      for (const bool paused : {false, true}) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(hgt) + " " +
                     std::string(aerolin::viz::ToString(mode)) + (paused ? " paused" : ""));
        h.panels = mode;
        h.paused = paused;
        sf::RenderTexture target;
        ASSERT_TRUE(target.create(w, hgt));
        aerolin::viz::HudRenderer hud(sans, mono);
        hud.Draw(target, h);
        const auto& panels = hud.panels();
        // Strip, warning (and pause) always; state, modes, attitude, turbulence when shown.
        ASSERT_GE(panels.size(), (mode == aerolin::viz::PanelMode::kHidden ? 2u : 5u) + paused);
        const aerolin::viz::HudLayout layout = aerolin::viz::LayoutHud(h, w, hgt, mode, 3);
        const aerolin::viz::HudRect c = layout.SceneCentre(float(hgt));
        const sf::FloatRect centre(c.left, c.top, c.width, c.height);
        for (std::size_t i = 0; i < panels.size(); ++i) {
          const sf::FloatRect& a = panels[i];
          EXPECT_TRUE(a.left >= 0 && a.top >= 0 && a.left + a.width <= w && a.top + a.height <= hgt)
              << "panel " << i << " leaves the window";
          EXPECT_FALSE(a.intersects(centre)) << "panel " << i << " " << Describe(a)
                                             << " covers the scene's centre " << Describe(centre);
          for (std::size_t j = i + 1; j < panels.size(); ++j)
            EXPECT_FALSE(a.intersects(panels[j]))
                << "panels " << i << " " << Describe(a) << " and " << j << " " << Describe(panels[j])
                << " overlap";
        }
        // The message's lines, measured in the font drawn, end left of the
        // right column (hidden: the window's edge).
        const float right = mode == aerolin::viz::PanelMode::kHidden ? w - 12.0f
                                                                     : layout.right_column.left;
        const auto lines = aerolin::viz::WrapText(h.message, right - 8 - 22, [&](const std::string& s) {
          text.setString(sf::String::fromUtf8(s.begin(), s.end()));
          return text.getLocalBounds().width;
        });
        EXPECT_GE(lines.size(), w == 800 ? 2u : 1u);
        for (const std::string& line : lines) {
          text.setString(sf::String::fromUtf8(line.begin(), line.end()));
          EXPECT_LE(22 + text.getLocalBounds().left + text.getLocalBounds().width, right) << line;
        }
      }
    }
  }
}

// --screenshot creates its folder (as --frames-dir does), so a documented
// `--screenshot out/window/x.png` runs as typed in a fresh clone.
TEST(FlyWindow, ScreenshotCreatesItsFolder) {
  const fs::path dir = FreshDir("screenshot_folder");
  const fs::path png = dir / "out" / "window" / "x.png";
  const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + kScript + "' --duration 1 --no-log --screenshot '" +
                                png.string() + "'",
                            dir);
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_TRUE(fs::is_regular_file(png)) << run.out;
  fs::remove_all(dir);
}

// --frames-dir is checked before the flight: a path under a regular file
// cannot be created, so the run stops with a usage error and no window.
TEST(FlyWindow, AnUnusableFramesDirIsAUsageErrorBeforeTheFlight) {
  const fs::path dir = FreshDir("frames_bad");
  std::ofstream(dir / "file") << "x";
  const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + kScript +
                                "' --duration 2 --no-log --frames-dir '" +
                                (dir / "file" / "frames").string() + "'",
                            dir);
  EXPECT_EQ(WEXITSTATUS(run.status), 2) << run.out;
  EXPECT_NE(run.out.find("--frames-dir"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("cannot create"), std::string::npos) << run.out;
  fs::remove_all(dir);
}

// Without --log-dir the logs go to $XDG_DATA_HOME/aerolin/flights (created),
// else ~/.local/share/aerolin/flights, and never into the current directory.
TEST(FlyWindow, FlightLogsDefaultToTheUserDataDirectory) {
  const fs::path dir = FreshDir("xdg");
  for (const std::string& env : {"XDG_DATA_HOME='" + (dir / "xdg").string() + "'",
                                 "XDG_DATA_HOME= HOME='" + (dir / "home").string() + "'"}) {
    const fs::path cwd = dir / "cwd";
    fs::create_directories(cwd);
    const std::string cmd = "cd '" + cwd.string() + "' && env " + env + " '" + kFly + "' '" +
                            kP2V7 + "' --script '" + kScript +
                            "' --duration 1 --log-name f --width 400 --height 300 > '" +
                            (dir / "out.txt").string() + "' 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << env;
    const fs::path flights = env.rfind("XDG_DATA_HOME='", 0) == 0
                                 ? dir / "xdg" / "aerolin" / "flights"
                                 : dir / "home" / ".local" / "share" / "aerolin" / "flights";
    EXPECT_TRUE(fs::is_regular_file(flights / "f-1.csv")) << env;
    EXPECT_TRUE(fs::is_regular_file(flights / "f-1.script.txt")) << env;
    EXPECT_TRUE(fs::is_empty(cwd)) << env;
  }
  fs::remove_all(dir);
}

TEST(FlyWindow, MissingScriptDurationIsAUsageError) {
  const fs::path dir = FreshDir("usage");
  const FlyRun run = RunFly("'" + kP2V7 + "' --script '" + kScript + "'", dir);
  EXPECT_EQ(WEXITSTATUS(run.status), 2) << run.out;
  EXPECT_NE(run.out.find("--duration"), std::string::npos) << run.out;
  fs::remove_all(dir);
}

}  // namespace
