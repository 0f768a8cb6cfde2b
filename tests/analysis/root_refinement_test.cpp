// Refined roots against a full eigen-solve of the same matrix: Eigen's real
// Schur form (AnalyzeRoots), which shares no code with the inverse
// iteration. Where RefineRoots accepts, every root must agree with the
// solve's to within its conditioning, with the same vector direction and
// slope; where two roots are about to join or split it must refuse.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>
#include <Eigen/LU>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/analysis/root_refinement.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/parameters.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;
constexpr double kEps = std::numeric_limits<double>::epsilon();

std::vector<std::string> BundledFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives"))
    if (e.path().extension() == ".toml" && e.path().filename().string().find("_coefficients") == std::string::npos)
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// One axis of `aircraft` as a function of one of its keys (the lateral axis
// without ψ), with dA by central differences.
MatrixFamily KeyFamily(const model::AircraftData& aircraft, const std::string& key, bool lon) {
  return [aircraft, key, lon](double v, SmallMatrix& A, SmallMatrix& dA) {
    auto at = [&](double x) {
      model::AircraftData a = aircraft;
      model::SetParameter(a, key, x);
      return lon ? Eigen::MatrixXd(model::BuildLongitudinal(a).A())
                 : Eigen::MatrixXd(model::BuildLateral(a).A().topLeftCorner(4, 4));
    };
    const double h = 1e-6 * std::max(1.0, std::abs(v));
    A = at(v);
    dA = (at(v + h) - at(v - h)) / (2 * h);
  };
}

struct Tally {
  int refined = 0, refused = 0;
};

// Walks `family` over `grid`, each point refined from the full solve of the
// point before, and checks every accepted refinement against the full solve
// of its own A.
void CheckAgainstSchur(const MatrixFamily& family, const std::vector<double>& grid, const std::string& what,
                       Tally& tally) {
  SmallMatrix A, dA;
  family(grid[0], A, dA);
  RootSet previous = AnalyzeRoots(A, dA, grid[0]);
  for (std::size_t k = 1; k < grid.size(); ++k) {
    family(grid[k], A, dA);
    const RootSet solved = AnalyzeRoots(A, dA, grid[k]);
    const std::optional<RootSet> refined = RefineRoots(previous, A, dA, grid[k]);
    previous = solved;
    if (!refined) {
      ++tally.refused;
      continue;
    }
    ++tally.refined;
    ASSERT_EQ(refined->values.size(), solved.values.size());
    EXPECT_EQ(refined->parameter, grid[k]);
    // Each root's condition number κ = ‖w‖‖v‖/|wᴴv| from the full solve's
    // left and right vectors; the two answers are each within a few ε‖A‖
    // (backward) of A, so within (2·kRefinedResidual + 10ε)·κ‖A‖ of each other.
    const SmallEigenDecomposition eig = DecomposeSmall(A, LeftVectors::kRequired);
    const double norm_A = A.norm();
    for (Eigen::Index i = 0; i < solved.values.size(); ++i) {
      const double kappa = eig.left.col(i).norm() * eig.right.col(i).norm() /
                           std::abs(eig.left.col(i).dot(eig.right.col(i)));
      const double bound = (2 * kRefinedResidual + 10 * kEps) * kappa * norm_A;
      EXPECT_LE(std::abs(refined->values(i) - solved.values(i)), bound)
          << what << " at " << grid[k] << ", root " << i << ": " << refined->values(i) << " vs "
          << solved.values(i);
      // A real root stays exactly real, a pair exactly conjugate.
      EXPECT_EQ(refined->values(i).imag() == 0.0, solved.values(i).imag() == 0.0) << what << " at " << grid[k];
      // The same direction: |vᴴv'| = 1 for unit vectors.
      EXPECT_NEAR(std::abs(refined->vectors.col(i).dot(solved.vectors.col(i))), 1.0, 1e-9 * kappa)
          << what << " at " << grid[k] << ", root " << i;
      EXPECT_NEAR(refined->vectors.col(i).norm(), 1.0, 1e-14);
      EXPECT_LE(std::abs(refined->slopes(i) - solved.slopes(i)), 1e-7 * kappa * (1.0 + std::abs(solved.slopes(i))))
          << what << " at " << grid[k] << ", root " << i << ": slope " << refined->slopes(i) << " vs "
          << solved.slopes(i);
    }
  }
}

// A seeded random family A(p) = T (D + p E) T⁻¹ of order n: D block diagonal
// (real roots a and 2×2 rotation blocks a ± bi, a pair where (trial + i) is
// not a multiple of `real_every`), T = 2I + t_spread·U, E = e_spread·U (U
// uniform in [−1, 1]).
MatrixFamily RandomFamily(std::mt19937& rng, int n, int trial, int real_every, double t_spread, double e_spread) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n, n), T(n, n), E(n, n);
  int i = 0;
  while (i < n) {
    const double a = -0.1 - 2.0 * std::abs(u(rng)) - 0.5 * i;
    if (i + 1 < n && (trial + i) % real_every != 0) {  // a pair a ± bi
      const double b = 0.5 + std::abs(u(rng)) + 0.7 * i;
      D(i, i) = D(i + 1, i + 1) = a;
      D(i, i + 1) = b;
      D(i + 1, i) = -b;
      i += 2;
    } else {
      D(i, i) = a;
      ++i;
    }
  }
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      T(r, c) = (r == c ? 2.0 : 0.0) + t_spread * u(rng);
      E(r, c) = e_spread * u(rng);
    }
  const Eigen::MatrixXd Ti = T.inverse();
  return [=](double p, SmallMatrix& A, SmallMatrix& dA) {
    A = T * (D + p * E) * Ti;
    dA = T * E * Ti;
  };
}

TEST(RefineRoots, AgreesWithTheFullSolveOverEveryBundledAircraftsKeys) {
  Tally tally;
  for (const std::string& file : BundledFiles()) {
    const model::AircraftData aircraft = data::LoadAircraftFile(file).aircraft;
    const struct {
      const char* key;
      bool lon;
    } keys[] = {{"longitudinal.Mq", true}, {"longitudinal.Ma", true}, {"longitudinal.Zw", true},
                {"lateral.Nr", false},     {"lateral.Lp", false},     {"lateral.Nb", false}};
    for (const auto& k : keys) {
      const double v0 = model::GetParameter(aircraft, k.key);
      // value → 4 × value (structure changes: a pair splitting into real
      // roots, roots joining) in 200 steps.
      std::vector<double> grid;
      for (int i = 0; i <= 200; ++i) grid.push_back(v0 + 3.0 * v0 * i / 200.0);
      CheckAgainstSchur(KeyFamily(aircraft, k.key, k.lon), grid, file + " " + k.key, tally);
    }
  }
  // The refinement is the common case (the speed it exists for), the
  // refusals the exception.
  EXPECT_GT(tally.refined, 20 * tally.refused) << tally.refined << " refined, " << tally.refused << " refused";
}

// Every order the refinement takes (3 to 8 states: its fixed 4- and 5-state
// forms and its general one), real roots and pairs mixed: seeded random
// families A(p) = T (D + p E) T⁻¹ with D block diagonal (real roots and 2×2
// rotation blocks a ± bi), against the full solve as above.
TEST(RefineRoots, AgreesWithTheFullSolveOnRandomFamiliesOfEveryOrder) {
  std::mt19937 rng(23);
  Tally tally;
  for (int n = 3; n <= kMaxSmallStates; ++n)
    for (int trial = 0; trial < 6; ++trial) {
      const MatrixFamily family = RandomFamily(rng, n, trial, 3, 0.5, 0.2);
      std::vector<double> grid;
      for (int k = 0; k <= 40; ++k) grid.push_back(0.01 * k);
      CheckAgainstSchur(family, grid, "n = " + std::to_string(n) + ", trial " + std::to_string(trial), tally);
    }
  EXPECT_GT(tally.refined, 20 * tally.refused) << tally.refined << " refined, " << tally.refused << " refused";
}

// Two roots at once (the lanes: each with its own pivot rows, parting where
// one lane ends an iteration before the other or a pivot is out of the
// inline quotient's range) against each root alone: the same answer and the
// same bits, on random 4- and 5-state families (pairs and real roots mixed,
// small and large steps: two iterations or three, and refusals) and every
// bundled aircraft's keys across their structure changes.
TEST(RefineRoots, InLanesIsOneAtATimeBitForBit) {
  auto same = [](const auto& x, const auto& y) {
    return x.rows() == y.rows() && x.cols() == y.cols() &&
           std::memcmp(x.data(), y.data(), sizeof(*x.data()) * static_cast<std::size_t>(x.size())) == 0;
  };
  int compared = 0, accepted = 0;
  auto compare = [&](const MatrixFamily& family, const std::vector<double>& grid, const std::string& what) {
    SmallMatrix A, dA;
    family(grid[0], A, dA);
    RootSet previous = AnalyzeRoots(A, dA, grid[0]);
    for (std::size_t k = 1; k < grid.size(); ++k) {
      family(grid[k], A, dA);
      RefineRootsInLanes(true);
      const std::optional<RootSet> lanes = RefineRoots(previous, A, dA, grid[k]);
      RefineRootsInLanes(false);
      const std::optional<RootSet> alone = RefineRoots(previous, A, dA, grid[k]);
      RefineRootsInLanes(true);
      ++compared;
      ASSERT_EQ(lanes.has_value(), alone.has_value()) << what << " at " << grid[k];
      if (lanes) {
        ++accepted;
        EXPECT_EQ(lanes->parameter, alone->parameter);
        EXPECT_TRUE(same(lanes->values, alone->values)) << what << " at " << grid[k];
        EXPECT_TRUE(same(lanes->vectors, alone->vectors)) << what << " at " << grid[k];
        EXPECT_TRUE(same(lanes->slopes, alone->slopes)) << what << " at " << grid[k];
        ASSERT_EQ(lanes->carried.has_value(), alone->carried.has_value()) << what << " at " << grid[k];
        if (lanes->carried) {
          EXPECT_EQ(lanes->carried->to, alone->carried->to) << what << " at " << grid[k];
        }
      }
      previous = AnalyzeRoots(A, dA, grid[k]);
    }
  };
  std::mt19937 rng(71);
  for (int n = 4; n <= 5; ++n)
    for (int trial = 0; trial < 12; ++trial) {
      const MatrixFamily family = RandomFamily(rng, n, trial, 4, 0.8, 0.5);
      for (const double step : {1e-3, 1e-2, 5e-2, 0.2}) {
        std::vector<double> grid;
        for (int k = 0; k <= 30; ++k) grid.push_back(step * k);
        compare(family, grid, "n = " + std::to_string(n) + ", trial " + std::to_string(trial));
      }
    }
  for (const std::string& file : BundledFiles()) {
    const model::AircraftData aircraft = data::LoadAircraftFile(file).aircraft;
    for (const auto& [key, lon] : {std::pair{"longitudinal.Mq", true}, {"longitudinal.Ma", true},
                                   {"lateral.Nr", false}, {"lateral.Lp", false}}) {
      const double v0 = model::GetParameter(aircraft, key);
      std::vector<double> grid;
      for (int i = 0; i <= 100; ++i) grid.push_back(v0 + 3.0 * v0 * i / 100.0);
      compare(KeyFamily(aircraft, key, lon), grid, file + " " + key);
    }
  }
  EXPECT_GT(accepted, compared / 2) << accepted << " of " << compared;
  EXPECT_LT(accepted, compared) << "no refusal among " << compared;
}

TEST(RefineRoots, AContinuationOfRefinedSetsLabelsEveryRootAsOfFullSolves) {
  // As a sweep solves them (every 32nd point in full, the others refined
  // from the point before where accepted) against every point solved in
  // full: the same labels, the same halved steps, each root within 1e-9.
  int carried = 0, refined_sets = 0;
  for (const std::string& file : BundledFiles()) {
    const model::AircraftData aircraft = data::LoadAircraftFile(file).aircraft;
    for (const auto& [key, lon] : {std::pair{"longitudinal.Mq", true}, std::pair{"longitudinal.Ma", true},
                                   std::pair{"lateral.Nr", false}, std::pair{"lateral.Lp", false}}) {
      const MatrixFamily family = KeyFamily(aircraft, key, lon);
      const double v0 = model::GetParameter(aircraft, key);
      std::vector<RootSet> full, refined;
      SmallMatrix A, dA;
      for (int i = 0; i <= 150; ++i) {
        const double v = v0 + 3.0 * v0 * i / 150.0;
        family(v, A, dA);
        full.push_back(AnalyzeRoots(A, dA, v));
        std::optional<RootSet> r = i % 32 != 0 ? RefineRoots(refined.back(), A, dA, v) : std::nullopt;
        refined_sets += r.has_value();
        carried += r && r->carried;
        refined.push_back(r ? std::move(*r) : full.back());
      }
      const Continuation a = Continue(family, full, 1), b = Continue(family, refined, 1);
      const std::string where = file + " " + key;
      EXPECT_EQ(a.refinements, b.refinements) << where;
      EXPECT_EQ(a.unresolved, b.unresolved) << where;
      ASSERT_EQ(a.roots.size(), b.roots.size());
      for (std::size_t k = 0; k < a.roots.size(); ++k)
        for (Eigen::Index l = 0; l < a.roots[k].size(); ++l)
          EXPECT_LE(std::abs(a.roots[k](l) - b.roots[k](l)), 1e-9 * std::max(1.0, std::abs(a.roots[k](l))))
              << where << " point " << k << " label " << l;
    }
  }
  // Most refined sets carry their match (the matching skipped).
  EXPECT_GT(carried, refined_sets / 2) << carried << " of " << refined_sets;
}

// A family with a double root at p = 1: the block [[0, 1], [−p, −2]] has
// roots −1 ± √(1 − p), two real roots joining into a pair there.
void Coalescing(double p, SmallMatrix& A, SmallMatrix& dA) {
  A = SmallMatrix::Zero(4, 4);
  dA = SmallMatrix::Zero(4, 4);
  A(0, 1) = 1.0;
  A(1, 0) = -p;
  A(1, 1) = -2.0;
  A(2, 2) = -0.3;
  A(2, 3) = 2.0;
  A(3, 2) = -2.0;
  A(3, 3) = -0.3;
  A(2, 0) = 0.1;  // coupling, so the matrix is not block-diagonal
  A(0, 3) = 0.05;
  dA(1, 0) = -1.0;
}

int ComplexPairs(const RootSet& s) {
  int pairs = 0;
  for (Eigen::Index i = 0; i < s.values.size(); ++i) pairs += s.values(i).imag() > 0;
  return pairs;
}

TEST(RefineRoots, RefusesWhereRootsJoinOrSplit) {
  // Every step accepted matches the full solve, root for root (a real root
  // real, a pair a pair); the steps near the double root are refused.
  std::vector<double> grid;
  for (int i = 0; i <= 400; ++i) grid.push_back(0.5 + i / 400.0);
  Tally tally;
  CheckAgainstSchur(Coalescing, grid, "coalescing", tally);
  EXPECT_GT(tally.refused, 0);
  EXPECT_GT(tally.refined, 300);
  // Fine and coarse steps across the point where the two real roots join
  // (moved from p = 1 by the coupling): the step whose ends have another
  // number of pairs (by the full solve) is refused, whatever its size.
  for (const double step : {1e-2, 1e-3, 1e-4, 1e-6}) {
    int crossings = 0;
    SmallMatrix A, dA;
    Coalescing(0.9, A, dA);
    RootSet before = AnalyzeRoots(A, dA, 0.9);
    for (double p = 0.9 + step; p < 1.1; p += step) {
      Coalescing(p, A, dA);
      const RootSet solved = AnalyzeRoots(A, dA, p);
      if (ComplexPairs(solved) != ComplexPairs(before)) {
        ++crossings;
        EXPECT_FALSE(RefineRoots(before, A, dA, p)) << "step " << step << " onto " << p;
      }
      before = solved;
    }
    EXPECT_EQ(crossings, 1) << "step " << step;
  }
}

TEST(RefineRoots, RefusesWhatItCannotRefine) {
  SmallMatrix A, dA;
  Coalescing(0.5, A, dA);
  const RootSet before = AnalyzeRoots(A, dA, 0.5);
  Coalescing(0.51, A, dA);
  EXPECT_TRUE(RefineRoots(before, A, dA, 0.51).has_value());
  SmallMatrix bad = A;
  bad(1, 1) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(RefineRoots(before, bad, dA, 0.51));
  SmallMatrix bigger = SmallMatrix::Identity(5, 5);
  EXPECT_FALSE(RefineRoots(before, bigger, SmallMatrix::Zero(5, 5), 0.51));
  // A complex root without its exact conjugate is no set of a real matrix.
  RootSet broken = before;
  for (Eigen::Index i = 0; i < 4; ++i)
    if (broken.values(i).imag() > 0) broken.values(i) += cd(1e-9, 0.0);
  EXPECT_FALSE(RefineRoots(broken, A, dA, 0.51));
  // A far step (0.5 to 0.9): the real roots −0.293 and −1.707 move to
  // −0.684 and −1.316, much more than 1/8 of their distance from the
  // predictions: the identity is not the obvious match, refused.
  Coalescing(0.9, A, dA);
  EXPECT_FALSE(RefineRoots(before, A, dA, 0.9));
}

// The in-place form (a sweep's reused buffer of sets): the same set, bit for
// bit, whatever the buffer held (here a set with a carried match, then one
// without); where refused the buffer is untouched; refining a set into itself
// is refused.
TEST(RefineRoots, IntoABufferIsTheReturnedSetBitForBit) {
  SmallMatrix A, dA;
  Coalescing(0.5, A, dA);
  const RootSet before = AnalyzeRoots(A, dA, 0.5);
  Coalescing(0.51, A, dA);
  const std::optional<RootSet> returned = RefineRoots(before, A, dA, 0.51);
  ASSERT_TRUE(returned.has_value());
  ASSERT_TRUE(returned->carried.has_value());
  auto same = [](const auto& x, const auto& y) {
    return x.rows() == y.rows() && x.cols() == y.cols() &&
           std::memcmp(x.data(), y.data(), sizeof(*x.data()) * static_cast<std::size_t>(x.size())) == 0;
  };
  for (const RootSet& held : {*returned, AnalyzeRoots(SmallMatrix::Identity(5, 5), SmallMatrix::Zero(5, 5), 7.0)}) {
    RootSet buffer = held;
    ASSERT_TRUE(RefineRoots(before, A, dA, 0.51, buffer));
    EXPECT_EQ(buffer.parameter, 0.51);
    EXPECT_TRUE(same(buffer.values, returned->values));
    EXPECT_TRUE(same(buffer.vectors, returned->vectors));
    EXPECT_TRUE(same(buffer.slopes, returned->slopes));
    ASSERT_TRUE(buffer.carried.has_value());
    EXPECT_EQ(buffer.carried->to, returned->carried->to);
    EXPECT_TRUE(same(buffer.carried->from, before.values));
  }
  // Refused (the far step above): the buffer keeps what it held.
  RootSet buffer = *returned;
  Coalescing(0.9, A, dA);
  EXPECT_FALSE(RefineRoots(before, A, dA, 0.9, buffer));
  EXPECT_TRUE(same(buffer.values, returned->values));
  EXPECT_EQ(buffer.parameter, 0.51);
  RootSet self = before;
  Coalescing(0.51, A, dA);
  EXPECT_FALSE(RefineRoots(self, A, dA, 0.51, self));
  EXPECT_TRUE(same(self.values, before.values));
}

}  // namespace
}  // namespace aerolin::analysis
