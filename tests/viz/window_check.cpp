// Window tests: run aerolin-fly under Xvfb (CTest wraps this executable in
// `xvfb-run -a`) and inspect its screenshots. Not a *_test.cpp file, so the
// display-free suite aerolin_viz_tests does not pick it up.

#include <gtest/gtest.h>
#include <unistd.h>

#include <SFML/Graphics/Image.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

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
  // Chase looks at the aircraft, and the scene is centred in the area right
  // of the 342 px state panel: x = (800 + 342) / 2, y = 600 / 2.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(run.out, m, std::regex(R"(aircraft at (-?\d+), (-?\d+) px)"))) << run.out;
  EXPECT_NEAR(std::stoi(m[1]), 571, 2);
  EXPECT_NEAR(std::stoi(m[2]), 300, 2);
  int orange = 0;
  for (int y = 300 - 48; y < 300 + 48; ++y)
    for (int x = 571 - 48; x < 571 + 48; ++x) orange += IsOrangered(image.getPixel(x, y));
  EXPECT_GT(orange, 40);
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
