#include "aerolin/model/conventions.hpp"

#include <gtest/gtest.h>

namespace aerolin::model {
namespace {

TEST(StateSignals, FollowTheIndexOrderOfEachAxis) {
  const std::vector<core::Signal>& lon = StateSignals(Axis::kLongitudinal);
  ASSERT_EQ(static_cast<int>(lon.size()), lon::kNumStates);
  EXPECT_EQ(lon[lon::kU].name, "u");
  EXPECT_EQ(lon[lon::kAlpha].name, "alpha");
  EXPECT_EQ(lon[lon::kQ].name, "q");
  EXPECT_EQ(lon[lon::kTheta].name, "theta");
  const std::vector<core::Signal>& lat = StateSignals(Axis::kLateral);
  ASSERT_EQ(static_cast<int>(lat.size()), lat::kNumStates);
  EXPECT_EQ(lat[lat::kBeta].name, "beta");
  EXPECT_EQ(lat[lat::kP].name, "p");
  EXPECT_EQ(lat[lat::kR].name, "r");
  EXPECT_EQ(lat[lat::kPhi].name, "phi");
  EXPECT_EQ(lat[lat::kPsi].name, "psi");
  EXPECT_EQ(&lon, &LongitudinalStateSignals());
  EXPECT_EQ(&lat, &LateralStateSignals());
}

TEST(JoinNames, ListsNamesOrSymbolsInOrderSeparatedByCommas) {
  EXPECT_EQ(JoinNames(LongitudinalStateSignals()), "u, alpha, q, theta");
  EXPECT_EQ(JoinSymbols(LongitudinalStateSignals()), "u, α, q, θ");
  EXPECT_EQ(JoinNames(LateralStateSignals()), "beta, p, r, phi, psi");
  EXPECT_EQ(JoinSymbols(LateralStateSignals()), "β, p, r, φ, ψ");
  EXPECT_EQ(JoinNames({}), "");
  EXPECT_EQ(JoinNames({{"nz", core::Unit::kGravity, "n_z"}}), "nz");
}

}  // namespace
}  // namespace aerolin::model
