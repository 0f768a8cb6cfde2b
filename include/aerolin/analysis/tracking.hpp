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
#include <complex>
#include <functional>
#include <span>
#include <vector>

namespace aerolin::analysis {

/// A(p) and dA/dp at one value p; both n×n, n the same for every p.
using MatrixFamily = std::function<void(double p, Eigen::MatrixXd& A, Eigen::MatrixXd& dA)>;

/// The roots of A(p) at one value, with what matching needs.
struct RootSet {
  double parameter = 0;
  Eigen::VectorXcd values;   ///< λᵢ
  Eigen::MatrixXcd vectors;  ///< right vectors, unit 2-norm
  Eigen::VectorXcd slopes;   ///< dλᵢ/dp (0 where A is defective to working precision)
};

/// Returns the roots of A(p) with their slopes dλ/dp = wᴴ(dA/dp)v/(wᴴv).
/// @throws core::NumericalError if the eigen-solver fails.
RootSet AnalyzeRoots(const MatrixFamily& family, double p);

/// Returns the assignment minimizing Σ cost(i, perm[i]) over all permutations
/// of n ≤ 8 columns, by exhaustive search (n! ≤ 40 320): the families here
/// have 4 to 7 roots, for which the search costs less than setting up the
/// Hungarian algorithm and is obviously optimal. `runner_up`, if not null,
/// receives the cost of the best assignment that differs from the optimum.
/// @throws std::invalid_argument if cost is not square or n > 8.
std::vector<int> OptimalAssignment(const Eigen::MatrixXd& cost, double* best = nullptr,
                                   double* runner_up = nullptr);

/// The continuation of every root over a grid of parameter values.
struct Continuation {
  std::vector<double> parameters;        ///< the grid, as given
  std::vector<Eigen::VectorXcd> roots;   ///< roots[k](i): root i (labels of the first point) at parameters[k]
  std::vector<Eigen::MatrixXcd> vectors; ///< right vectors, columns in label order
  int refinements = 0;                   ///< points inserted where a match was ambiguous
  std::vector<double> unresolved;        ///< where the finest step was still ambiguous
};

/// Follows every root of `family` along `grid` (any order, monotonic), labels
/// being the order of AnalyzeRoots at grid[0]. The roots of each grid point
/// are computed on `threads` threads (0: std::thread::hardware_concurrency);
/// matching is sequential, with up to `max_halvings` bisections of a step.
/// @throws core::NumericalError as AnalyzeRoots.
Continuation Continue(const MatrixFamily& family, std::span<const double> grid, int threads = 0,
                      int max_halvings = 10);

}  // namespace aerolin::analysis
