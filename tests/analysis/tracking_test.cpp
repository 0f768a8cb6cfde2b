// Root continuation: the labelled result must not depend on the order in
// which each point's eigen-solve returned its roots (the steps are matched
// in parallel on the solved order and composed afterwards), nor on the
// number of threads; and the assignment is the exhaustive optimum.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "aerolin/analysis/tracking.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/parameters.hpp"

namespace aerolin::analysis {
namespace {

// The P2V-7's longitudinal A as a function of Mq [1/s], with dA/dMq by
// central differences (A is affine in Mq, so the difference is exact up to
// round-off; the slopes only steer the matching).
MatrixFamily MqFamily(const model::AircraftData& aircraft) {
  return [aircraft](double mq, SmallMatrix& A, SmallMatrix& dA) {
    auto at = [&](double v) {
      model::AircraftData a = aircraft;
      model::SetParameter(a, "longitudinal.Mq", v);
      return Eigen::MatrixXd(model::BuildLongitudinal(a).A());
    };
    const double h = 1e-6;
    A = at(mq);
    dA = (at(mq + h) - at(mq - h)) / (2 * h);
  };
}

// The same roots in another order (a permutation drawn from `rng`).
RootSet Shuffled(const RootSet& s, std::mt19937& rng) {
  std::vector<int> p(static_cast<std::size_t>(s.values.size()));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), rng);
  RootSet out = s;
  for (Eigen::Index i = 0; i < s.values.size(); ++i) {
    out.values(i) = s.values(p[static_cast<std::size_t>(i)]);
    out.slopes(i) = s.slopes(p[static_cast<std::size_t>(i)]);
    out.vectors.col(i) = s.vectors.col(p[static_cast<std::size_t>(i)]);
  }
  return out;
}

void ExpectBitIdentical(const Continuation& a, const Continuation& b) {
  ASSERT_EQ(a.roots.size(), b.roots.size());
  EXPECT_EQ(a.refinements, b.refinements);
  EXPECT_EQ(a.unresolved, b.unresolved);
  for (std::size_t k = 0; k < a.roots.size(); ++k) {
    ASSERT_EQ(a.roots[k].size(), b.roots[k].size());
    for (Eigen::Index l = 0; l < a.roots[k].size(); ++l) {
      EXPECT_EQ(a.roots[k](l), b.roots[k](l)) << "point " << k << ", label " << l;
      EXPECT_TRUE(a.vectors[k].col(l) == b.vectors[k].col(l)) << "point " << k << ", label " << l;
    }
  }
}

TEST(Continue, LabelsDoNotDependOnTheSolvedOrderOfEachPointNorOnThreads) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const MatrixFamily family = MqFamily(load.aircraft);
  // Fine (200 points) and coarse (12 points: steps are halved where the
  // match is ambiguous) grids across the short period's split into two real
  // roots near Mq = −4.26.
  for (int points : {200, 12}) {
    std::vector<double> grid(static_cast<std::size_t>(points));
    for (int k = 0; k < points; ++k) grid[static_cast<std::size_t>(k)] = -0.992 + (-10.0 + 0.992) * k / (points - 1);
    std::vector<RootSet> sets(grid.size());
    for (std::size_t k = 0; k < grid.size(); ++k) sets[k] = AnalyzeRoots(family, grid[k]);
    const Continuation reference = Continue(family, sets, 1);
    // Labels are the first point's order; every later point reordered.
    std::mt19937 rng(12345);
    std::vector<RootSet> shuffled = sets;
    for (std::size_t k = 1; k < shuffled.size(); ++k) shuffled[k] = Shuffled(sets[k], rng);
    SCOPED_TRACE(points);
    ExpectBitIdentical(reference, Continue(family, shuffled, 1));
    ExpectBitIdentical(reference, Continue(family, shuffled, 2));
    ExpectBitIdentical(reference, Continue(family, std::span<const double>(grid), 2));
    if (points == 12) {
      EXPECT_GT(reference.refinements, 0) << "the coarse grid should need halving";
    }
    // The grid crosses the short period's split: no real root at the first
    // point, two (the overdamped short period) at the last.
    auto reals = [](const SmallVectorC& r) { return (r.imag().array() == 0.0).count(); };
    EXPECT_EQ(reals(reference.roots.front()), 0);
    EXPECT_EQ(reals(reference.roots.back()), 2);
  }
}

// SameRoots compares values, vectors and slopes bit for bit, whatever the
// parameters: a change of one bit in any of them is seen.
TEST(SameRoots, SeesOneBitOfAnyRootVectorOrSlopeButNotTheParameter) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const RootSet a = AnalyzeRoots(MqFamily(load.aircraft), -0.992);
  RootSet b = a;
  b.parameter = 7.0;
  EXPECT_TRUE(SameRoots(a, b));
  auto next = [](std::complex<double> z) { return std::complex<double>(std::nextafter(z.real(), 1e300), z.imag()); };
  RootSet c = a;
  c.values(1) = next(c.values(1));
  EXPECT_FALSE(SameRoots(a, c));
  c = a;
  c.vectors(2, 1) = next(c.vectors(2, 1));
  EXPECT_FALSE(SameRoots(a, c));
  c = a;
  c.slopes(3) = next(c.slopes(3));
  EXPECT_FALSE(SameRoots(a, c));
}

TEST(OptimalAssignment, IsTheExhaustiveOptimumWithItsRunnerUp) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int n = 1; n <= 7; ++n) {
    Eigen::MatrixXd cost(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) cost(i, j) = u(rng);
    // Oracle: every permutation, costs sorted.
    std::vector<int> p(static_cast<std::size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    std::vector<std::pair<double, std::vector<int>>> all;
    do {
      double c = 0;
      for (int i = 0; i < n; ++i) c += cost(i, p[static_cast<std::size_t>(i)]);
      all.push_back({c, p});
    } while (std::next_permutation(p.begin(), p.end()));
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    double best = 0, runner_up = 0;
    EXPECT_EQ(OptimalAssignment(cost, &best, &runner_up), all[0].second) << "n = " << n;
    EXPECT_EQ(best, all[0].first);
    if (n > 1) {
      EXPECT_EQ(runner_up, all[1].first);
    }
  }
  EXPECT_THROW(OptimalAssignment(Eigen::MatrixXd::Zero(9, 9)), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::analysis
