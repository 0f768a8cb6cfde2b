#include "aerolin/study/start_on_mode.hpp"

#include <gtest/gtest.h>

#include "aerolin/model/build.hpp"
#include "aerolin/sim/excitation.hpp"
#include "sim/p2v7_fixture.hpp"

namespace aerolin::study {
namespace {

using analysis::ModeKind;

TEST(StartOnMode, StartsOnTheModesShapeWithTheDefaultAmplitude) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const std::optional<ModeStart> start = StartOnMode(aircraft, ModeKind::kDutchRoll);
  ASSERT_TRUE(start);
  EXPECT_EQ(start->mode, ModeKind::kDutchRoll);
  EXPECT_EQ(start->axis, model::Axis::kLateral);
  EXPECT_EQ(start->amplitude, 0.02);
  EXPECT_TRUE(start->state.head<4>().isZero());  // lateral only
  EXPECT_TRUE(start->state.tail<3>().isZero());  // at the origin
  const std::vector<analysis::Mode> lat =
      analysis::AnalyzeLateral(model::BuildLateral(aircraft));
  const analysis::Mode& mode = *analysis::FindMode(lat, ModeKind::kDutchRoll);
  EXPECT_EQ(start->state[sim::kBeta + mode.reference_state], 0.02);
}

TEST(StartOnMode, UsesTheGivenAmplitudeOnTheLongitudinalBlock) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const std::optional<ModeStart> start = StartOnMode(aircraft, ModeKind::kPhugoid, 1.5);
  ASSERT_TRUE(start);
  EXPECT_EQ(start->axis, model::Axis::kLongitudinal);
  EXPECT_EQ(start->amplitude, 1.5);
  EXPECT_TRUE(start->state.segment<5>(sim::kBeta).isZero());
  EXPECT_EQ(start->state.head<4>().cwiseAbs().maxCoeff() > 0.0, true);
}

// A hand-made lateral mode list without a roll subsidence or spiral.
TEST(StartOnMode, RollAndSpiralFallBackToTheRollSpiralOscillation) {
  analysis::Mode coupled;
  coupled.kind = ModeKind::kRollSpiral;
  coupled.shape = Eigen::VectorXcd::Zero(5);
  coupled.shape[1] = 1.0;  // p
  coupled.shape[3] = std::complex<double>(0.5, 0.5);
  coupled.reference_state = 1;
  const std::vector<analysis::Mode> lat = {coupled};
  for (ModeKind asked : {ModeKind::kRollSubsidence, ModeKind::kSpiral, ModeKind::kRollSpiral}) {
    const std::optional<ModeStart> start = StartOnMode({}, lat, asked, 90.0);
    ASSERT_TRUE(start);
    EXPECT_EQ(start->mode, ModeKind::kRollSpiral);
    EXPECT_EQ(start->state[sim::kP], 0.02);
    EXPECT_EQ(start->state[sim::kPhi], 0.01);
  }
  EXPECT_FALSE(StartOnMode({}, lat, ModeKind::kDutchRoll, 90.0));
  EXPECT_FALSE(StartOnMode({}, lat, ModeKind::kShortPeriod, 90.0));
}

}  // namespace
}  // namespace aerolin::study
