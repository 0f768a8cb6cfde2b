#include "aerolin/viz/slice_clock.hpp"

#include <gtest/gtest.h>

namespace aerolin::viz {
namespace {

constexpr double kFrame = 1.0 / 60.0;  // [s] display period

// Runs `frames` frames of wall time kFrame; at most `max_per_frame` slices
// run per frame (the frame budget). Returns the slices run.
long RunFrames(SliceClock& clock, int frames, int max_per_frame) {
  long run = 0;
  for (int f = 0; f < frames; ++f) {
    clock.AdvanceWall(kFrame);
    for (int n = 0; n < max_per_frame && clock.SliceDue(); ++n) {
      clock.ConsumeSlice();
      ++run;
    }
    clock.EndFrame();
    EXPECT_GE(clock.Alpha(), 0.0);
    EXPECT_LE(clock.Alpha(), 1.0);
  }
  return run;
}

TEST(SliceClock, TenSecondsAtSixtyFpsRunOneHundredSlices) {
  SliceClock clock(0.1);
  EXPECT_EQ(RunFrames(clock, 600, 1000), 100);
  EXPECT_EQ(clock.overruns(), 0u);
}

TEST(SliceClock, TimeScaleMultipliesSimulatedTimeAndIsClamped) {
  SliceClock clock(0.1);
  clock.SetTimeScale(2.0);
  EXPECT_EQ(RunFrames(clock, 600, 1000), 200);
  clock.SetTimeScale(100.0);
  EXPECT_DOUBLE_EQ(clock.time_scale(), kMaxTimeScale);
  clock.SetTimeScale(0.01);
  EXPECT_DOUBLE_EQ(clock.time_scale(), kMinTimeScale);
  clock.StepTimeScale(true);
  EXPECT_DOUBLE_EQ(clock.time_scale(), 0.5);
}

TEST(SliceClock, FallingBehindCountsOverrunsAndLosesNoSimulatedTime) {
  // 10 ms slices want 1.67 slices per frame; a budget of 1 slice per frame
  // falls behind, then a generous budget catches up completely.
  SliceClock clock(0.01);
  long run = RunFrames(clock, 300, 1);
  EXPECT_EQ(run, 300);
  EXPECT_GT(clock.overruns(), 100u);
  EXPECT_NEAR(clock.owed(), 5.0 - 3.0, 0.011);
  clock.SetPaused(true);  // a paused window still catches up what is owed
  run += RunFrames(clock, 10, 1000);
  EXPECT_EQ(run, 500);
  EXPECT_LT(clock.owed(), 0.01);
}

TEST(SliceClock, PausedClockAccruesNothing) {
  SliceClock clock(0.1);
  clock.SetPaused(true);
  EXPECT_EQ(RunFrames(clock, 600, 1000), 0);
  EXPECT_DOUBLE_EQ(clock.Alpha(), 0.0);
}

TEST(SliceClock, AlphaIsOwedFractionOfASlice) {
  SliceClock clock(0.1);
  clock.AdvanceWall(0.025);
  EXPECT_NEAR(clock.Alpha(), 0.25, 1e-12);
  EXPECT_THROW(SliceClock(0.0), std::invalid_argument);
}

TEST(Interpolate, IsLinearBetweenSliceStates) {
  const Eigen::Vector3d a(0, 10, -2), b(1, 20, 2);
  EXPECT_TRUE(Interpolate(a, b, 0.0).isApprox(a));
  EXPECT_TRUE(Interpolate(a, b, 1.0).isApprox(b));
  EXPECT_TRUE(Interpolate(a, b, 0.25).isApprox(Eigen::Vector3d(0.25, 12.5, -1)));
}

TEST(KeyLatch, TapShorterThanASliceCountsForOneSlice) {
  KeyLatch<8> keys;
  keys.Press(3);
  keys.Release(3);
  EXPECT_TRUE(keys.Active(3));
  keys.SliceDone();
  EXPECT_FALSE(keys.Active(3));
  keys.Press(1);
  keys.SliceDone();
  EXPECT_TRUE(keys.Active(1));  // still held
  keys.ReleaseAll();
  EXPECT_FALSE(keys.Active(1));
}

}  // namespace
}  // namespace aerolin::viz
