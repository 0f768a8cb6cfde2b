#include "aerolin/analysis/tracking.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

#include "aerolin/core/parallel.hpp"
#include "aerolin/analysis/eigen.hpp"

namespace aerolin::analysis {
namespace {

// Weight of the eigenvector term against the distance term (distance is in
// units of the spectrum's size, so 0.1 lets direction decide only between
// roots closer than a tenth of the spectrum).
constexpr double kOverlapWeight = 0.1;
// A match is ambiguous when a root's predicted position is more than this
// fraction of the way from its match to the next-nearest new root.
constexpr double kAmbiguityRatio = 0.25;

RootSet Permuted(const RootSet& s, const std::vector<int>& perm) {
  RootSet out;
  out.parameter = s.parameter;
  const auto n = static_cast<Eigen::Index>(perm.size());
  out.values.resize(n);
  out.slopes.resize(n);
  out.vectors.resize(s.vectors.rows(), n);
  for (Eigen::Index i = 0; i < n; ++i) {
    out.values(i) = s.values(perm[static_cast<std::size_t>(i)]);
    out.slopes(i) = s.slopes(perm[static_cast<std::size_t>(i)]);
    out.vectors.col(i) = s.vectors.col(perm[static_cast<std::size_t>(i)]);
  }
  return out;
}

bool IsReal(std::complex<double> z, double scale) { return std::abs(z.imag()) <= 1e-12 * scale; }

struct Match {
  std::vector<int> perm;
  bool ambiguous = false;
};

Match MatchRoots(const RootSet& from, const RootSet& to) {
  const Eigen::Index n = from.values.size();
  const double h = to.parameter - from.parameter;
  const double scale = std::max({from.values.cwiseAbs().maxCoeff(), to.values.cwiseAbs().maxCoeff(), 1e-9});
  const SmallVectorC predicted = from.values + h * from.slopes;
  SmallMatrix cost(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const double overlap = std::abs(from.vectors.col(i).dot(to.vectors.col(j)));
      cost(i, j) = std::abs(to.values(j) - predicted(i)) / scale + kOverlapWeight * (1.0 - overlap);
    }
  Match m;
  m.perm = OptimalAssignment(cost);
  for (Eigen::Index i = 0; i < n && !m.ambiguous; ++i) {
    const int j = m.perm[static_cast<std::size_t>(i)];
    const double error = std::abs(to.values(j) - predicted(i));
    double gap = std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < n; ++k)
      if (k != j) gap = std::min(gap, std::abs(to.values(k) - predicted(i)));
    if (error > kAmbiguityRatio * gap) m.ambiguous = true;
  }
  // Conjugate partners stay partners (or both turn real).
  for (Eigen::Index i = 0; i < n && !m.ambiguous; ++i) {
    if (IsReal(from.values(i), scale)) continue;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (k == i || std::abs(from.values(k) - std::conj(from.values(i))) > 1e-9 * scale) continue;
      const std::complex<double> a = to.values(m.perm[static_cast<std::size_t>(i)]);
      const std::complex<double> b = to.values(m.perm[static_cast<std::size_t>(k)]);
      const bool partners = std::abs(a - std::conj(b)) <= 1e-9 * scale && !IsReal(a, scale);
      if (!partners && !(IsReal(a, scale) && IsReal(b, scale))) m.ambiguous = true;
      break;
    }
  }
  return m;
}

}  // namespace

RootSet AnalyzeRoots(const SmallMatrix& A, const SmallMatrix& dA, double p) {
  const SmallEigenDecomposition eig = DecomposeSmall(A, LeftVectors::kIfDiagonalizable);
  RootSet s;
  s.parameter = p;
  s.values = eig.values;
  s.vectors = eig.right;
  s.slopes = SmallVectorC::Zero(eig.values.size());
  if (eig.left.size() > 0) {
    const SmallMatrixC dAc = dA.cast<std::complex<double>>();
    for (Eigen::Index i = 0; i < eig.values.size(); ++i)
      s.slopes(i) = eig.left.col(i).dot(dAc * eig.right.col(i));  // wᴴv = 1 (Decompose)
  }
  return s;
}

RootSet AnalyzeRoots(const MatrixFamily& family, double p) {
  SmallMatrix A, dA;
  family(p, A, dA);
  return AnalyzeRoots(A, dA, p);
}

std::vector<int> OptimalAssignment(const Eigen::Ref<const Eigen::MatrixXd>& cost, double* best,
                                   double* runner_up) {
  if (cost.rows() != cost.cols() || cost.rows() > 8)
    throw std::invalid_argument("OptimalAssignment: needs a square cost of size <= 8, got " +
                                std::to_string(cost.rows()) + "x" + std::to_string(cost.cols()));
  std::vector<int> perm(static_cast<std::size_t>(cost.rows()));
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<int> best_perm = perm;
  double best_cost = std::numeric_limits<double>::infinity();
  double second = std::numeric_limits<double>::infinity();
  do {
    double c = 0.0;
    for (std::size_t i = 0; i < perm.size(); ++i) c += cost(static_cast<Eigen::Index>(i), perm[i]);
    if (c < best_cost) {
      second = best_cost;
      best_cost = c;
      best_perm = perm;
    } else if (c < second) {
      second = c;
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  if (best) *best = best_cost;
  if (runner_up) *runner_up = second;
  return best_perm;
}

Continuation Continue(const MatrixFamily& family, std::span<const double> grid, int threads,
                      int max_halvings) {
  // Every grid point's roots are independent: compute them in parallel.
  std::vector<RootSet> sets(grid.size());
  core::ParallelFor(grid.size(), threads,
                    [&](std::size_t k) { sets[k] = AnalyzeRoots(family, grid[k]); });
  return Continue(family, sets, max_halvings);
}

Continuation Continue(const MatrixFamily& family, std::span<const RootSet> sets, int max_halvings) {
  Continuation out;
  for (const RootSet& s : sets) out.parameters.push_back(s.parameter);
  if (sets.empty()) return out;
  out.roots.reserve(sets.size());
  out.vectors.reserve(sets.size());

  // Matching, in parameter order.
  auto advance = [&](auto&& self, const RootSet& from, const RootSet& to, int depth) -> RootSet {
    const Match m = MatchRoots(from, to);
    if (m.ambiguous && depth < max_halvings) {
      ++out.refinements;
      const RootSet mid = self(self, from, AnalyzeRoots(family, 0.5 * (from.parameter + to.parameter)),
                               depth + 1);
      return self(self, mid, to, depth + 1);
    }
    if (m.ambiguous) out.unresolved.push_back(to.parameter);
    return Permuted(to, m.perm);
  };
  RootSet current = sets[0];
  out.roots.push_back(current.values);
  out.vectors.push_back(current.vectors);
  for (std::size_t k = 1; k < sets.size(); ++k) {
    current = advance(advance, current, sets[k], 0);
    out.roots.push_back(current.values);
    out.vectors.push_back(current.vectors);
  }
  return out;
}

}  // namespace aerolin::analysis
