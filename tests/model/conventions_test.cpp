#include "aerolin/model/conventions.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace aerolin::model {
namespace {

TEST(StateSignals, FollowTheIndexOrderOfEachAxis) {
  const std::pair<int, const char*> lon_names[] = {
      {lon::kU, "u"}, {lon::kAlpha, "alpha"}, {lon::kQ, "q"}, {lon::kTheta, "theta"}};
  const std::pair<int, const char*> lat_names[] = {
      {lat::kBeta, "beta"}, {lat::kP, "p"}, {lat::kR, "r"}, {lat::kPhi, "phi"}, {lat::kPsi, "psi"}};
  const std::vector<core::Signal>& lon = StateSignals(Axis::kLongitudinal);
  const std::vector<core::Signal>& lat = StateSignals(Axis::kLateral);
  ASSERT_EQ(static_cast<int>(lon.size()), lon::kNumStates);
  ASSERT_EQ(static_cast<int>(lat.size()), lat::kNumStates);
  for (const auto& [index, name] : lon_names) EXPECT_EQ(lon[index].name, name);
  for (const auto& [index, name] : lat_names) EXPECT_EQ(lat[index].name, name);
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
