#include "aerolin/analysis/tracking.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>

#include "aerolin/core/parallel.hpp"
#include "aerolin/core/same_bits.hpp"
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

// Label order: root l of the result is root perm[l] of `s`.
using Permutation = std::array<int, kMaxSmallStates>;

RootSet Permuted(const RootSet& s, const Permutation& perm) {
  RootSet out;
  out.parameter = s.parameter;
  const Eigen::Index n = s.values.size();
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

// Every permutation of 0..n−1 in lexicographic order (std::next_permutation's),
// for the n ≤ kTabulated the families here have: enumerated once per process.
constexpr std::size_t kTabulated = 6;
const std::vector<Permutation>& PermutationsOf(std::size_t n) {
  static const std::array<std::vector<Permutation>, kTabulated + 1> table = [] {
    std::array<std::vector<Permutation>, kTabulated + 1> t;
    for (std::size_t m = 0; m <= kTabulated; ++m) {
      Permutation perm{};
      std::iota(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(m), 0);
      do t[m].push_back(perm);
      while (std::next_permutation(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(m)));
    }
    return t;
  }();
  return table[n];
}

// The assignment minimizing Σ cost(i, perm[i]), the sum taken in row order,
// with the best and second-best sums: OptimalAssignment without allocation.
// Permutations are tried in lexicographic order, the first of equal sums kept.
Permutation Assign(const SmallMatrix& cost, double& best_cost, double& second) {
  const auto n = static_cast<std::size_t>(cost.rows());
  Permutation best_perm{};  // the identity unless a sum is below +inf (as before: NaN sums never win)
  std::iota(best_perm.begin(), best_perm.begin() + static_cast<std::ptrdiff_t>(n), 0);
  best_cost = std::numeric_limits<double>::infinity();
  second = std::numeric_limits<double>::infinity();
  auto consider = [&](const Permutation& perm) {
    double c = 0.0;
    for (std::size_t i = 0; i < n; ++i) c += cost(static_cast<Eigen::Index>(i), perm[i]);
    if (c < best_cost) {
      second = best_cost;
      best_cost = c;
      best_perm = perm;
    } else if (c < second) {
      second = c;
    }
  };
  if (n <= kTabulated) {
    for (const Permutation& perm : PermutationsOf(n)) consider(perm);
    return best_perm;
  }
  Permutation perm{};
  std::iota(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(n), 0);
  do consider(perm);
  while (std::next_permutation(perm.begin(), perm.begin() + static_cast<std::ptrdiff_t>(n)));
  return best_perm;
}

struct Match {
  Permutation perm{};  // root i of `from` goes to root perm[i] of `to`
  bool ambiguous = false;
  // True if the result is the same whatever order `from`'s roots are in: the
  // optimum is the only assignment within rounding of its cost (a reordering
  // of the rows changes only the order of the sum's terms), and every complex
  // root of `from` has exactly one conjugate partner.
  bool order_independent = false;
};

Match MatchRoots(const RootSet& from, const RootSet& to) {
  const Eigen::Index n = from.values.size();
  const double h = to.parameter - from.parameter;
  const double scale = std::max({from.values.cwiseAbs().maxCoeff(), to.values.cwiseAbs().maxCoeff(), 1e-9});
  const SmallVectorC predicted = from.values + h * from.slopes;
  SmallMatrix cost(n, n), distance(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      const double overlap = std::abs(from.vectors.col(i).dot(to.vectors.col(j)));
      distance(i, j) = std::abs(to.values(j) - predicted(i));
      cost(i, j) = distance(i, j) / scale + kOverlapWeight * (1.0 - overlap);
    }
  Match m;
  double best = 0.0, second = 0.0;
  m.perm = Assign(cost, best, second);
  // Summing n ≤ 8 terms in another order moves the sum by at most
  // 2(n − 1)ε Σ|terms|; the terms are ≥ −0.1·ε (overlap ≤ 1 + ε), so
  // 1e-12·(1 + best) bounds it with a wide margin.
  m.order_independent = second - best > 1e-12 * (1.0 + std::abs(best));
  for (Eigen::Index i = 0; i < n && !m.ambiguous; ++i) {
    const int j = m.perm[static_cast<std::size_t>(i)];
    const double error = distance(i, j);
    double gap = std::numeric_limits<double>::infinity();
    for (Eigen::Index k = 0; k < n; ++k)
      if (k != j) gap = std::min(gap, distance(i, k));
    if (error > kAmbiguityRatio * gap) m.ambiguous = true;
  }
  // Conjugate partners stay partners (or both turn real).
  for (Eigen::Index i = 0; i < n && !m.ambiguous; ++i) {
    if (IsReal(from.values(i), scale)) continue;
    int partners_of_i = 0;
    for (Eigen::Index k = 0; k < n; ++k) {
      if (k == i || std::abs(from.values(k) - std::conj(from.values(i))) > 1e-9 * scale) continue;
      if (++partners_of_i > 1) break;  // the first partner decides (below)
      const std::complex<double> a = to.values(m.perm[static_cast<std::size_t>(i)]);
      const std::complex<double> b = to.values(m.perm[static_cast<std::size_t>(k)]);
      const bool partners = std::abs(a - std::conj(b)) <= 1e-9 * scale && !IsReal(a, scale);
      if (!partners && !(IsReal(a, scale) && IsReal(b, scale))) m.ambiguous = true;
    }
    // The first partner found decides; with two candidates the row order
    // would choose which.
    if (partners_of_i > 1) m.order_independent = false;
  }
  return m;
}

}  // namespace

bool SameRoots(const RootSet& a, const RootSet& b) {
  return core::SameBits(a.values, b.values) && core::SameBits(a.vectors, b.vectors) &&
         core::SameBits(a.slopes, b.slopes);
}

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
  if (cost.rows() != cost.cols() || cost.rows() > kMaxSmallStates)
    throw std::invalid_argument("OptimalAssignment: needs a square cost of size <= 8, got " +
                                std::to_string(cost.rows()) + "x" + std::to_string(cost.cols()));
  double best_cost = 0.0, second = 0.0;
  const Permutation perm = Assign(cost, best_cost, second);
  if (best) *best = best_cost;
  if (runner_up) *runner_up = second;
  return {perm.begin(), perm.begin() + cost.rows()};
}

Continuation Continue(const MatrixFamily& family, std::span<const double> grid, int threads,
                      int max_halvings) {
  // Every grid point's roots are independent: compute them in parallel.
  std::vector<RootSet> sets(grid.size());
  core::ParallelFor(grid.size(), threads,
                    [&](std::size_t k) { sets[k] = AnalyzeRoots(family, grid[k]); });
  return Continue(family, sets, threads, max_halvings);
}

Continuation Continue(const MatrixFamily& family, std::span<const RootSet> sets, int threads,
                      int max_halvings, VectorsKept kept) {
  Continuation out;
  for (const RootSet& s : sets) out.parameters.push_back(s.parameter);
  if (sets.empty()) return out;
  out.roots.reserve(sets.size());
  out.vectors.reserve(kept == VectorsKept::kEveryPoint ? sets.size() : 1);

  // Each step matched between the roots as solved (each point in its own
  // order), in parallel: steps[k] takes sets[k - 1] to sets[k].
  std::vector<Match> steps(sets.size());
  // An axis the parameter does not enter (a sweep's other axis) has the same
  // roots, vectors and zero slopes at every point: MatchRoots then predicts
  // λ + h·0 = λ whatever the step h, so its result depends on the set alone
  // and is computed once for a run of such points.
  const bool first_fixed = sets[0].slopes.isZero(0.0);
  const Match fixed_match = first_fixed ? MatchRoots(sets[0], sets[0]) : Match{};
  auto same_as_first = [&](const RootSet& s) {
    return first_fixed && SameRoots(s, sets[0]);
  };
  // A set refined from the one before carries the match MatchRoots would
  // find (RefineRoots proves it); taken where the set before is the one it
  // was refined from.
  auto carried = [](const RootSet& from, const RootSet& to, Match& m) {
    if (!to.carried || to.carried->from_parameter != from.parameter || !core::SameBits(to.carried->from, from.values))
      return false;
    m.perm = to.carried->to;
    m.ambiguous = false;
    m.order_independent = true;
    return true;
  };
  // The steps that need MatchRoots, matched in parallel; the others (an
  // axis the parameter does not enter, a carried match: a comparison each)
  // on this thread, and all of them here when they are too few to be worth
  // waking a worker (tens of µs).
  std::vector<std::size_t> to_match;
  for (std::size_t k = 0; k + 1 < sets.size(); ++k) {
    if (same_as_first(sets[k]) && same_as_first(sets[k + 1]))
      steps[k + 1] = fixed_match;
    else if (!carried(sets[k], sets[k + 1], steps[k + 1]))
      to_match.push_back(k);
  }
  constexpr std::size_t kWorthAWorker = 16;
  core::ParallelFor(to_match.size(), to_match.size() >= kWorthAWorker ? threads : 1, [&](std::size_t i) {
    const std::size_t k = to_match[i];
    steps[k + 1] = MatchRoots(sets[k], sets[k + 1]);
  });

  // The labelled step, as the sequential continuation does it: from the
  // previous point's roots in label order, with halving where ambiguous.
  // Returns the permutation of `to`'s roots into label order.
  auto advance = [&](auto&& self, const RootSet& from, const RootSet& to, int depth) -> Permutation {
    const Match m = MatchRoots(from, to);
    if (m.ambiguous && depth < max_halvings) {
      ++out.refinements;
      const RootSet mid_solved = AnalyzeRoots(family, 0.5 * (from.parameter + to.parameter));
      const RootSet mid = Permuted(mid_solved, self(self, from, mid_solved, depth + 1));
      return self(self, mid, to, depth + 1);
    }
    if (m.ambiguous) out.unresolved.push_back(to.parameter);
    return m.perm;
  };
  // Labels, in parameter order: label l is root at[l] of sets[k]. Where a
  // step's match is unambiguous and independent of the order of the
  // previous roots, composing it with the previous labels gives exactly the
  // labelled step's result (the same costs, the same unique optimum), so
  // only the other steps are redone in label order.
  const Eigen::Index n = sets[0].values.size();
  Permutation at{};
  std::iota(at.begin(), at.begin() + n, 0);
  auto store = [&](const RootSet& s, bool with_vectors) {
    SmallVectorC& values = out.roots.emplace_back(n);
    for (Eigen::Index l = 0; l < n; ++l) values(l) = s.values(at[static_cast<std::size_t>(l)]);
    if (!with_vectors) return;
    SmallMatrixC& vectors = out.vectors.emplace_back(s.vectors.rows(), n);
    for (Eigen::Index l = 0; l < n; ++l) vectors.col(l) = s.vectors.col(at[static_cast<std::size_t>(l)]);
  };
  auto vectors_at = [&](std::size_t k) { return kept == VectorsKept::kEveryPoint || k + 1 == sets.size(); };
  store(sets[0], vectors_at(0));
  for (std::size_t k = 1; k < sets.size(); ++k) {
    const Match& step = steps[k];
    if (!step.ambiguous && step.order_independent) {
      for (Eigen::Index l = 0; l < n; ++l)
        at[static_cast<std::size_t>(l)] = step.perm[static_cast<std::size_t>(at[static_cast<std::size_t>(l)])];
    } else {
      at = advance(advance, Permuted(sets[k - 1], at), sets[k], 0);
    }
    store(sets[k], vectors_at(k));
  }
  return out;
}

}  // namespace aerolin::analysis
