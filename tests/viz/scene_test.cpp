#include "aerolin/viz/scene.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "aerolin/core/frames.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/viz/flight_session.hpp"

namespace aerolin::viz {
namespace {

TEST(SceneLayout, AutoVerticalExaggerationMakesAPhugoidVisibleAndLeavesClimbsAlone) {
  Bounds phugoid;  // ±6 m over 4 km heading north
  phugoid.Extend({0.0, 0.0, -6.0});
  phugoid.Extend({30.0, 4000.0, 6.0});
  EXPECT_EQ(AutoVerticalExaggeration(phugoid), 50.0);  // 600 m drawn ≤ 1000 m < 1200 m
  Bounds level;
  level.Extend({0.0, 0.0, 0.0});
  level.Extend({0.0, 4000.0, 0.0});
  EXPECT_EQ(AutoVerticalExaggeration(level), 100.0);  // Δz floored at 1 m
  Bounds climb;
  climb.Extend({0.0, 0.0, 0.0});
  climb.Extend({0.0, 4000.0, 2000.0});
  EXPECT_EQ(AutoVerticalExaggeration(climb), 1.0);
  EXPECT_EQ(AutoVerticalExaggeration(Bounds{}), 1.0);
}


// The chase view of a 747 ten minutes out (≈140 km flown): the grid follows
// the aircraft. Its ground lies within two steps of the flight's lowest point
// and the square under the aircraft spans tens of pixels on screen, so the
// lines move past as it flies; the flight-wide grid the chase view used to
// draw has 20 km squares 20 km down (the aircraft "left the grid" within
// seconds: the ground sank and its lines grew apart as the path grew).
TEST(SceneLayout, TheChaseViewsGroundGridFollowsTheAircraft) {
  const data::LoadResult loaded = data::LoadAircraftFile(
      std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/boeing747_cruise_40kft.toml");
  SessionOptions options;
  options.start_on = Excitation::kDutchRoll;
  FlightSession session(loaded.aircraft, options);
  for (int k = 0; k < 6000; ++k) session.Step(pilot::KeySet{});
  const sim::FlightState& x = session.state();
  const Eigen::Vector3d aircraft = core::NedToPlot(x[sim::kNorth], x[sim::kEast], x[sim::kDown]);
  Bounds bounds = session.path().bounds();
  bounds.Extend(aircraft);
  ASSERT_GT(aircraft.head<2>().norm(), 100e3);

  OrbitCamera camera;  // as the window's chase view: 450 m behind, 24° up
  camera.target = aircraft;
  camera.distance = 450.0;
  camera.elevation = 0.42;
  camera.fov_y = 0.75;
  camera.azimuth = std::atan2(-std::cos(x[sim::kPsi]), -std::sin(x[sim::kPsi]));
  const Projector projector(camera, 800, 600);

  const GroundGrid follow = LayoutFollowGrid(bounds, aircraft, camera.distance);
  EXPECT_EQ(follow.step, 100.0);
  for (int i = 0; i < 2; ++i) {
    EXPECT_LE(follow.min[i], aircraft[i] - kFollowGridSteps * follow.step);
    EXPECT_GE(follow.max[i], aircraft[i] + kFollowGridSteps * follow.step);
    EXPECT_EQ(std::fmod(follow.min[i], follow.step), 0.0);
  }
  EXPECT_LT(follow.ground_z, bounds.min.z());
  EXPECT_GE(follow.ground_z, bounds.min.z() - 2 * follow.step);

  // The foot of the aircraft and the next grid line ahead, on screen.
  auto square_px = [&](const GroundGrid& g) {
    const Eigen::Vector3d foot(aircraft.x(), aircraft.y(), g.ground_z);
    const auto a = projector.Project(foot);
    const auto b = projector.Project(foot + Eigen::Vector3d(g.step, 0.0, 0.0));
    const auto c = projector.Project(foot + Eigen::Vector3d(0.0, g.step, 0.0));
    EXPECT_TRUE(a && b && c);
    if (!a || !b || !c) return std::pair{0.0, 0.0};
    EXPECT_TRUE(a->x > 0 && a->x < 800 && a->y > 0 && a->y < 600) << a->x << ", " << a->y;
    return std::pair{std::max(std::hypot(b->x - a->x, b->y - a->y), std::hypot(c->x - a->x, c->y - a->y)),
                     a->y};
  };
  const auto [follow_px, follow_y] = square_px(follow);
  std::cout << "chase view, 747 at t = 600 s: a grid square spans " << follow_px << " px\n";
  EXPECT_GT(follow_px, 10.0);
  EXPECT_LT(follow_px, 300.0);
  // The flight-wide grid: squares of kilometres, far below.
  const GroundGrid wide = LayoutGrid(bounds, kMinGridExtent);
  EXPECT_GE(wide.step, 10e3);
  EXPECT_LT(wide.ground_z, bounds.min.z() - 5e3);
}

TEST(SceneLayout, AutoAttitudeExaggerationScalesTheLargestPerturbationToAbout20Degrees) {
  constexpr double kDeg = 3.14159265358979323846 / 180.0;
  EXPECT_EQ(AutoAttitudeExaggeration(0.0), 20.0);          // trim: 1° floor, 20°
  EXPECT_EQ(AutoAttitudeExaggeration(0.02), 20.0);         // 1.15° -> 22.9°
  EXPECT_EQ(AutoAttitudeExaggeration(2.0 * kDeg), 10.0);   // 20°
  EXPECT_EQ(AutoAttitudeExaggeration(3.0 * kDeg), 5.0);    // 15°
  EXPECT_EQ(AutoAttitudeExaggeration(10.0 * kDeg), 2.0);   // 20°
  EXPECT_EQ(AutoAttitudeExaggeration(25.0 * kDeg), 1.0);
  EXPECT_EQ(AutoAttitudeExaggeration(std::nan("")), 1.0);
}

TEST(SceneLayout, AutoHeadingExaggerationScalesTheHeadingOnItsOwnUpTo100) {
  constexpr double kDeg = 3.14159265358979323846 / 180.0;
  EXPECT_EQ(AutoHeadingExaggeration(0.0), 100.0);         // 0.25° floor, 25°
  EXPECT_EQ(AutoHeadingExaggeration(0.17 * kDeg), 100.0);  // the A-7A's Dutch roll: 17°
  EXPECT_EQ(AutoHeadingExaggeration(0.3 * kDeg), 50.0);    // 15°
  EXPECT_EQ(AutoHeadingExaggeration(0.97 * kDeg), 20.0);   // 19.4°
  EXPECT_EQ(AutoHeadingExaggeration(25.0 * kDeg), 1.0);
  EXPECT_EQ(AutoHeadingExaggeration(std::nan("")), 1.0);
  EXPECT_LE(AutoHeadingExaggeration(0.0), kMaxAttitudeExaggeration);
  // Bank and pitch keep their own factor, from the larger of |φ| and |θ|.
  const GlyphExaggeration dutch_roll = AutoGlyphExaggeration({2.0 * kDeg, 0.1 * kDeg, 0.3 * kDeg});
  EXPECT_EQ(dutch_roll.attitude, 10.0);
  EXPECT_EQ(dutch_roll.heading, 50.0);
  const GlyphExaggeration turn = AutoGlyphExaggeration({1.0 * kDeg, 0.0, 30.0 * kDeg});
  EXPECT_EQ(turn.attitude, 20.0);  // a large heading no longer hides the bank
  EXPECT_EQ(turn.heading, 1.0);
}

// Every excited mode shows in its own terms on every bundled aircraft at the
// default amplitude: within the 8 s of a screenshot, the glyph's exaggerated
// pitch (short period) and bank (roll, Dutch roll) swing by 10° or more
// (true: 1.1°, which the glyph does not show), and the Dutch roll's yaw by
// 10° or more too (true: 0.17° to 0.97°; with the bank's factor it was 3° to
// 19°, so the Dutch roll read as a bank oscillation only).
TEST(SceneLayout, EveryExcitedModeMovesTheGlyphByTenDegreesInItsOwnTerms) {
  constexpr double kDeg = 3.14159265358979323846 / 180.0;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(AEROLIN_SOURCE_DIR) +
                                                          "/data/derivatives"))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  files.push_back(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml");
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    const data::LoadResult loaded = data::LoadAircraftFile(file);
    for (const Excitation e : {Excitation::kShortPeriod, Excitation::kDutchRoll, Excitation::kRoll}) {
      SCOPED_TRACE(file + " " + ToString(e));
      SessionOptions options;
      options.start_on = e;
      FlightSession session(loaded.aircraft, options);
      for (int k = 0; k < 80; ++k) session.Step(pilot::KeySet{});
      const Eigen::Vector3d peak = session.attitude_peak();  // |φ|, |θ|, |ψ|
      const GlyphExaggeration glyph = AutoGlyphExaggeration(peak);
      const double k = glyph.attitude;
      std::cout << std::filesystem::path(file).stem().string() << " " << ToString(e) << ": peak phi "
                << peak[0] / kDeg << " theta " << peak[1] / kDeg << " psi " << peak[2] / kDeg
                << " deg, x" << k << ", heading x" << glyph.heading << "\n";
      EXPECT_LE(k * std::max(peak[0], peak[1]), 25.0 * kDeg);
      EXPECT_LE(glyph.heading * peak[2], 25.0 * kDeg);
      if (e == Excitation::kShortPeriod) {
        EXPECT_GE(k * peak[1], 10.0 * kDeg);
      } else if (e == Excitation::kRoll) {
        EXPECT_GE(k * peak[0], 10.0 * kDeg);
      } else {
        // The Dutch roll's largest attitude motion is its bank on every
        // bundled aircraft; its yaw wag is a third (747, NT-33A, 737) to a
        // seventh (A-7A: 0.17°) of it, drawn with its own factor.
        EXPECT_GE(k * peak[0], 10.0 * kDeg);
        EXPECT_GE(glyph.heading * peak[2], 10.0 * kDeg);
      }
    }
  }
}

}  // namespace
}  // namespace aerolin::viz
