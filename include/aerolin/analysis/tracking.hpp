#pragma once
/// @file
/// Root continuation: follows every eigenvalue of a matrix family A(p) from
/// one parameter value to the next, so that a root keeps its identity (and
/// hence its mode's name) across a sweep or a root locus.
///
/// Each step predicts every root with its sensitivity (λ + h·dλ/dp, from the
/// left and right eigenvectors), matches the predictions to the new roots by
/// an optimal assignment over eigenvalue distance and eigenvector overlap,
/// checks that conjugate partners stay partners, and halves the step where
/// the match is ambiguous (two candidates nearly as good, a root moving by
/// more than its distance to a neighbour).

#include <Eigen/Core>
#include <array>
#include <complex>
#include <optional>
#include <functional>
#include <span>
#include <vector>

#include "aerolin/analysis/eigen.hpp"

namespace aerolin::analysis {

/// A(p) and dA/dp at one value p; both n×n, n ≤ kMaxSmallStates and the
/// same for every p. (Allocation-free storage: a sweep solves thousands.)
using MatrixFamily = std::function<void(double p, SmallMatrix& A, SmallMatrix& dA)>;

/// How a set refined from the set before (RefineRoots) continues it: root i
/// of `from` is root to[i] of this set, which is the match Continue's
/// matching would find, unambiguous and independent of the roots' order
/// (root_refinement.hpp proves it from the refinement's acceptance test), so
/// Continue takes it without matching.
struct CarriedRoots {
  std::array<int, kMaxSmallStates> to{};
  double from_parameter = 0;
  SmallVectorC from;  ///< the roots of the set before, as they were refined from
};

/// The roots of A(p) at one value, with what matching needs.
struct RootSet {
  double parameter = 0;
  SmallVectorC values;   ///< λᵢ, in DecomposeSmall's order
  SmallMatrixC vectors;  ///< right vectors, unit 2-norm
  SmallVectorC slopes;   ///< dλᵢ/dp (0 where A is defective to working precision)
  std::optional<CarriedRoots> carried;  ///< set by RefineRoots where it proves the match
};

/// Returns the roots of A at parameter p with their slopes
/// dλ/dp = wᴴ(dA/dp)v/(wᴴv), from one DecomposeSmall of A.
/// @throws core::NumericalError if the eigen-solver fails.
RootSet AnalyzeRoots(const SmallMatrix& A, const SmallMatrix& dA, double p);
/// As above with A(p), dA/dp from `family`.
RootSet AnalyzeRoots(const MatrixFamily& family, double p);

/// True if `a` and `b` hold the same roots, vectors and slopes, bit for bit
/// (their parameters and carried matches may differ).
bool SameRoots(const RootSet& a, const RootSet& b);

/// Returns the assignment minimizing Σ cost(i, perm[i]) over all permutations
/// of n ≤ 8 columns, by exhaustive search (n! ≤ 40 320): the families here
/// have 4 to 7 roots, for which the search costs less than setting up the
/// Hungarian algorithm and is obviously optimal. `runner_up`, if not null,
/// receives the cost of the best assignment that differs from the optimum.
/// @throws std::invalid_argument if cost is not square or n > 8.
std::vector<int> OptimalAssignment(const Eigen::Ref<const Eigen::MatrixXd>& cost,
                                   double* best = nullptr, double* runner_up = nullptr);

/// Bisections of one step where its match is ambiguous, by default.
inline constexpr int kMaxHalvings = 10;

/// Which right vectors a Continuation keeps.
enum class VectorsKept {
  kEveryPoint,  ///< vectors[k] for every point k
  kLastPoint,   ///< vectors holds the last point's alone (a chunked caller's next start)
};

/// The continuation of every root over a grid of parameter values.
struct Continuation {
  std::vector<double> parameters;        ///< the grid, as given
  std::vector<SmallVectorC> roots;       ///< roots[k](i): root i (labels of the first point) at parameters[k]
  /// Right vectors, columns in label order: vectors[k] at parameters[k]
  /// (VectorsKept::kEveryPoint), or the last point's alone (kLastPoint).
  std::vector<SmallMatrixC> vectors;
  int refinements = 0;                   ///< points inserted where a match was ambiguous
  std::vector<double> unresolved;        ///< where the finest step was still ambiguous
};

/// Follows every root of `family` along `grid` (any order, monotonic), labels
/// being the order of AnalyzeRoots at grid[0]. The roots of each grid point
/// are computed on `threads` threads (0: std::thread::hardware_concurrency);
/// matching as below, with up to `max_halvings` bisections of a step.
/// @throws core::NumericalError as AnalyzeRoots.
Continuation Continue(const MatrixFamily& family, std::span<const double> grid, int threads = 0,
                      int max_halvings = kMaxHalvings);

/// As above from the roots of every grid point already computed (`sets[k]`
/// at grid value sets[k].parameter, e.g. by a caller that solves each point
/// once for several purposes); `family` is called only where a step is
/// halved. Each step is first matched on `threads` threads between the
/// points' roots in their solved order; the sequential pass then composes
/// those matches, redoing in label order only the steps that are ambiguous
/// or whose optimum the order of the terms could change (within rounding of
/// the runner-up), so the result is exactly that of matching every step in
/// label order. `kept`: which right vectors the result keeps (a sweep's
/// chunk needs only its last point's: each point's 8×8 complex storage is
/// 1 kB).
Continuation Continue(const MatrixFamily& family, std::span<const RootSet> sets, int threads = 0,
                      int max_halvings = kMaxHalvings, VectorsKept kept = VectorsKept::kEveryPoint);

}  // namespace aerolin::analysis
