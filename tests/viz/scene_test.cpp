#include "aerolin/viz/scene.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace aerolin::viz
