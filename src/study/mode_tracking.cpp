#include "mode_tracking.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <Eigen/Eigenvalues>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/analysis/root_refinement.hpp"
#include "aerolin/core/complex_arithmetic.hpp"
#include "aerolin/core/parallel.hpp"
#include "aerolin/core/same_bits.hpp"

namespace aerolin::study::tracking {

using analysis::Mode;
using analysis::ModeFlag;
using analysis::ModeKind;
using analysis::SmallMatrix;
using analysis::SmallVectorC;
using cd = std::complex<double>;

const std::string kWashoutFilterName = "washout filter";

PointTaker Handing(const PointSink& sink) {
  return [&sink](std::span<TrackedPoint> chunk) { sink(chunk); };
}

PointTaker Keeping(std::vector<TrackedPoint>& points) {
  return [&points](std::span<TrackedPoint> chunk) {
    points.insert(points.end(), std::make_move_iterator(chunk.begin()), std::make_move_iterator(chunk.end()));
  };
}

PointwiseNames Spelled(const std::vector<analysis::RootName>& names) {
  PointwiseNames out;
  out.reserve(names.size());
  for (const analysis::RootName& n : names) out.push_back({n.lambda, &analysis::FullName(n.kind, n.flags)});
  return out;
}

namespace {

// A tracked root is real where |Im λ| <= kRealTolerance·max(scale, 1),
// scale the largest |root| of its point.
constexpr double kRealTolerance = 1e-12;

bool IsReal(cd z, double scale) { return std::abs(z.imag()) <= kRealTolerance * std::max(scale, 1.0); }

// Returns the label of the root nearest `lambda` among `free` labels (and
// removes it).
int TakeNearest(const SmallVectorC& roots, std::vector<int>& free, cd lambda) {
  auto best = std::min_element(free.begin(), free.end(), [&](int a, int b) {
    return std::abs(roots(a) - lambda) < std::abs(roots(b) - lambda);
  });
  const int label = *best;
  free.erase(best);
  return label;
}

// Groups the first point's roots by the modes `named` gives them; labels not
// claimed by a named mode get `extra` names in order (the washout filters):
// the free root nearest where it is, when known, else the first free one.
std::vector<Group> GroupsOf(const SmallVectorC& roots, const std::vector<Mode>& named,
                            const std::vector<ExtraRoot>& extra) {
  std::vector<int> free(static_cast<std::size_t>(roots.size()));
  for (std::size_t i = 0; i < free.size(); ++i) free[i] = static_cast<int>(i);
  std::vector<Group> groups;
  for (const Mode& m : named) {
    if (m.kind == ModeKind::kHeading) continue;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return g.kind == m.kind; });
    if (it == groups.end()) {
      groups.push_back({analysis::ToString(m.kind), m.kind, {}});
      it = groups.end() - 1;
    }
    it->labels.push_back(TakeNearest(roots, free, m.lambda));
    if (m.oscillatory) it->labels.push_back(TakeNearest(roots, free, std::conj(m.lambda)));
  }
  for (std::size_t i = 0; i < extra.size() && !free.empty(); ++i)
    groups.push_back({extra[i].name, std::nullopt,
                      {TakeNearest(roots, free, extra[i].near.value_or(roots(free[0])))}});
  return groups;
}

// One tracked mode of a point: one label, or a conjugate pair (Im > 0 first).
struct Unit {
  std::array<int, 2> labels{};
  int size = 1;
};

// A Signature: which groups each group's roots pair with, as `aerolin sweep`
// compares it between points: for each of a group's labels, "p" and the two groups of
// its pair then ",", or "r,"; two groups' structures are equal when these
// texts are anagrams. Kept as the count of each character, 4 bits each
// ('p', 'r', ',', then the digits 0–9: a group index is one digit, as there
// are at most kMaxSmallStates groups, and no count exceeds 4).
constexpr int kSignatureP = 0, kSignatureR = 1, kSignatureComma = 2, kSignatureDigit0 = 3;
void Count(std::uint64_t& signature, int character) { signature += std::uint64_t{1} << (4 * character); }

// Appends the tracked modes at one point, from its labelled roots, to `out`
// (sorted by ωn, descending, among themselves) and sets each group's
// structure in `signature`.
void NameUnits(const SmallVectorC& roots, const std::vector<Group>& groups, model::Axis axis,
               std::vector<TrackedMode>& out, Signature& signature) {
  const auto n = static_cast<int>(roots.size());
  // IsReal(z, max |root|), the max hypot formed only where needed (twice the
  // largest |Re| + |Im| is above every |root|).
  double parts_bound = 0;
  for (int i = 0; i < n; ++i)
    parts_bound = std::max(parts_bound, std::fabs(roots(i).real()) + std::fabs(roots(i).imag()));
  const double above = roots.allFinite() ? 2 * parts_bound : std::numeric_limits<double>::infinity();
  std::optional<double> scale;
  auto is_real = [&](cd z) {
    return core::WithinScaledBound(z.imag(), kRealTolerance, above, [&] {
      if (!scale) scale = roots.cwiseAbs().maxCoeff();
      return *scale;
    });
  };
  std::array<int, analysis::kMaxSmallStates> group_of;
  group_of.fill(-1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (int l : groups[g].labels) group_of[static_cast<std::size_t>(l)] = static_cast<int>(g);
  auto group_of_label = [&](int l) -> const Group& {
    return groups[static_cast<std::size_t>(group_of[static_cast<std::size_t>(l)])];
  };
  std::array<bool, analysis::kMaxSmallStates> used{};
  std::array<Unit, analysis::kMaxSmallStates> units;
  int unit_count = 0;
  for (int i = 0; i < n; ++i) {
    if (used[static_cast<std::size_t>(i)]) continue;
    used[static_cast<std::size_t>(i)] = true;
    Unit& u = units[static_cast<std::size_t>(unit_count++)];
    u = Unit{{i, -1}, 1};
    if (is_real(roots(i))) continue;
    // The nearest unused root to the conjugate, the first of equal
    // distances. A pair's members are exact conjugates (every solve here
    // gives them so): a distance of 0, which only exact equality gives and
    // no later root undercuts, found without forming the distances.
    int partner = -1;
    for (int k = 0; k < n && partner < 0; ++k)
      if (!used[static_cast<std::size_t>(k)] && roots(k) == std::conj(roots(i))) partner = k;
    const bool exact = partner >= 0;
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < n && !exact; ++k)
      if (!used[static_cast<std::size_t>(k)]) {
        const double d = std::abs(roots(k) - std::conj(roots(i)));
        if (d < best) {
          best = d;
          partner = k;
        }
      }
    if (partner < 0) continue;
    used[static_cast<std::size_t>(partner)] = true;
    u = roots(i).imag() > 0 ? Unit{{i, partner}, 2} : Unit{{partner, i}, 2};
  }

  // Roll subsidence and spiral as two real roots: the faster is roll, as
  // `aerolin modes` says. Continuation cannot carry their identities through
  // a coalescence into the lateral phugoid and out again (at the double root
  // the two are one), so the names follow speed, not the labels.
  std::optional<int> faster_roll_spiral;
  {
    std::array<int, 2> rs{};
    int rs_count = 0;
    for (int k = 0; k < unit_count; ++k) {
      const Unit& u = units[static_cast<std::size_t>(k)];
      if (u.size == 1) {
        const Group& g = group_of_label(u.labels[0]);
        if (g.labels.size() == 1 && (g.kind == ModeKind::kRollSubsidence || g.kind == ModeKind::kSpiral)) {
          if (rs_count < 2) rs[static_cast<std::size_t>(rs_count)] = u.labels[0];
          ++rs_count;
        }
      }
    }
    if (rs_count == 2)
      faster_roll_spiral = core::Modulus(roots(rs[0])) >= core::Modulus(roots(rs[1])) ? rs[0] : rs[1];
  }
  const std::size_t first = out.size();
  for (int k = 0; k < unit_count; ++k) {
    const Unit& u = units[static_cast<std::size_t>(k)];
    TrackedMode& t = out.emplace_back();
    t.axis = axis;
    t.lambda = roots(u.labels[0]);
    t.oscillatory = u.size == 2;
    if (!t.oscillatory) t.lambda.imag(0.0);
    t.wn = core::Modulus(t.lambda);  // a real root's without a hypot
    t.zeta = t.wn > 0 ? -t.lambda.real() / t.wn : 1.0;
    ModeFlag flags = ModeFlag::kNone;
    const Group& g0 = group_of_label(u.labels[0]);
    const std::string* origin = &g0.base;
    std::optional<ModeKind> kind = g0.kind;
    std::string custom;
    if (t.oscillatory) {
      const Group& g1 = group_of_label(u.labels[1]);
      if (&g0 != &g1) {
        const bool roll_spiral = (g0.kind == ModeKind::kRollSubsidence && g1.kind == ModeKind::kSpiral) ||
                                 (g0.kind == ModeKind::kSpiral && g1.kind == ModeKind::kRollSubsidence);
        if (roll_spiral) {
          kind = ModeKind::kRollSpiral;
          t.origin = "roll subsidence + spiral";
          origin = nullptr;
        } else {
          kind = std::nullopt;
          custom = g0.base + " + " + g1.base + " (coupled)";
          t.origin = custom;
          origin = nullptr;
        }
      }
      if (kind == ModeKind::kRollSpiral) flags |= ModeFlag::kLateralPhugoid;
    } else if (g0.labels.size() == 2 && kind) {
      if (*kind == ModeKind::kShortPeriod || *kind == ModeKind::kDutchRoll) flags |= ModeFlag::kOverdamped;
      if (*kind == ModeKind::kPhugoid) flags |= ModeFlag::kAperiodic;
      if (*kind == ModeKind::kRollSpiral) {
        // The pair split: the faster root is roll subsidence (as `aerolin modes` names them).
        const int other = g0.labels[0] == u.labels[0] ? g0.labels[1] : g0.labels[0];
        kind = core::Modulus(roots(u.labels[0])) >= core::Modulus(roots(other)) ? ModeKind::kRollSubsidence
                                                                                 : ModeKind::kSpiral;
      }
    }
    if (faster_roll_spiral && !t.oscillatory &&
        (kind == ModeKind::kRollSubsidence || kind == ModeKind::kSpiral) && g0.labels.size() == 1) {
      kind = u.labels[0] == *faster_roll_spiral ? ModeKind::kRollSubsidence : ModeKind::kSpiral;
      origin = &analysis::FullName(*kind, ModeFlag::kNone);
    }
    if (origin) t.origin = *origin;
    t.kind = kind;
    // The stability qualifiers `aerolin modes` gives (modes.cpp QualifyStability).
    const double sigma = t.lambda.real();
    if (std::abs(sigma) <= 1e-12) {
      flags |= ModeFlag::kNeutral;
    } else if (sigma > 0.0) {
      flags |= t.oscillatory ? ModeFlag::kUnstable : ModeFlag::kDivergent;
    }
    if (kind) {
      t.name = analysis::FullName(*kind, flags);
    } else {
      const std::string& q = analysis::Qualifier(flags);
      t.name = (custom.empty() ? g0.base : custom) + (q.empty() ? "" : " (" + q + ")");
    }
  }
  signature.assign(groups.size(), 0);
  for (int k = 0; k < unit_count; ++k) {
    const Unit& u = units[static_cast<std::size_t>(k)];
    for (int j = 0; j < u.size; ++j) {
      std::uint64_t& sg = signature[static_cast<std::size_t>(group_of[static_cast<std::size_t>(u.labels[static_cast<std::size_t>(j)])])];
      if (u.size == 2) {
        Count(sg, kSignatureP);
        Count(sg, kSignatureDigit0 + group_of[static_cast<std::size_t>(u.labels[0])]);
        Count(sg, kSignatureDigit0 + group_of[static_cast<std::size_t>(u.labels[1])]);
      } else {
        Count(sg, kSignatureR);
      }
      Count(sg, kSignatureComma);
    }
  }
  // By ωn, descending; equal ωn keep their order (a stable insertion sort:
  // at most kMaxSmallStates modes).
  for (std::size_t i = first + 1; i < out.size(); ++i)
    for (std::size_t j = i; j > first && out[j - 1].wn < out[j].wn; --j) std::swap(out[j - 1], out[j]);
}

int ComplexPairs(const SmallMatrix& A) {
  const SmallVectorC v = analysis::EigenvaluesSmall(A);
  const double scale = v.cwiseAbs().maxCoeff();
  int pairs = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!IsReal(v(i), scale) && v(i).imag() > 0) ++pairs;
  return pairs;
}

// Locates a change in the number of complex pairs between a and b by bisection.
double LocateChange(const analysis::MatrixFamily& family, double a, double b) {
  SmallMatrix A, dA;
  family(a, A, dA);
  const int at_a = ComplexPairs(A);
  for (int i = 0; i < 60 && std::abs(b - a) > 1e-9 * std::max(1.0, std::abs(a)); ++i) {
    const double mid = 0.5 * (a + b);
    family(mid, A, dA);
    (ComplexPairs(A) == at_a ? a : b) = mid;
  }
  return 0.5 * (a + b);
}

std::string Join(std::span<const TrackedMode> modes, const std::string& origin_part) {
  std::string s;
  for (const TrackedMode& m : modes)
    if (m.origin.find(origin_part) != std::string::npos) {
      if (s.find(m.name) != std::string::npos) continue;
      s += (s.empty() ? "" : " and ") + m.name;
    }
  return s;
}

}  // namespace

void NameAxisPoint(const AxisPlan& plan, std::size_t k, const std::vector<PointwiseNames>& pointwise,
                   const std::vector<TrackedMode>& fixed, std::vector<TrackedMode>& out,
                   Signature& signature) {
  const std::size_t first = out.size();
  NameUnits(plan.roots(k), plan.groups, plan.axis, out, signature);
  if (!pointwise.empty()) {
    for (std::size_t i = first; i < out.size(); ++i) {
      TrackedMode& t = out[i];
      // The nearest pointwise root, the first of equal distances. The names
      // are of the same solve's roots, so one is usually t.lambda or its
      // conjugate exactly: distance 0 (a − b is 0 only where a = b, with
      // gradual underflow), which no later root undercuts, found without
      // the hypot of every distance.
      const PointwiseName* nearest = nullptr;
      for (const PointwiseName& m : pointwise[k])
        if (m.lambda == t.lambda || std::conj(m.lambda) == t.lambda) {
          nearest = &m;
          break;
        }
      if (!nearest) {
        double best = std::numeric_limits<double>::infinity();
        for (const PointwiseName& m : pointwise[k]) {
          const double d = std::min(std::abs(m.lambda - t.lambda), std::abs(std::conj(m.lambda) - t.lambda));
          if (d < best) {
            best = d;
            nearest = &m;
          }
        }
      }
      if (nearest && *nearest->name != t.name) t.pointwise_name = *nearest->name;
    }
  }
  out.insert(out.end(), fixed.begin(), fixed.end());
}

bool NamedAlike(const AxisPlan& plan, const std::vector<PointwiseNames>& pointwise, std::size_t a, std::size_t k) {
  if (!core::SameBits(plan.roots(a), plan.roots(k))) return false;
  if (pointwise.empty()) return true;
  const PointwiseNames& p = pointwise[a];
  const PointwiseNames& q = pointwise[k];
  return p.size() == q.size() && std::equal(p.begin(), p.end(), q.begin(), [](const PointwiseName& u, const PointwiseName& v) {
           return u.name == v.name && std::memcmp(&u.lambda, &v.lambda, sizeof(cd)) == 0;
         });
}

std::vector<PendingChange> StepsOf(const AxisPlan& plan, const std::vector<Signature>& signatures,
                                   const std::function<std::span<const TrackedMode>(std::size_t)>& modes_at) {
  const std::vector<double>& grid = plan.c.parameters;
  std::vector<PendingChange> steps;
  for (std::size_t k = 1; k < grid.size(); ++k) {
    if (signatures[k] == signatures[k - 1]) continue;
    // One event per step: the names of the groups that changed, before and after.
    std::string before, after;
    auto add = [](std::string& list, const std::string& names) {
      if (!names.empty() && list.find(names) == std::string::npos)
        list += (list.empty() ? "" : " and ") + names;
    };
    for (std::size_t g = 0; g < plan.groups.size(); ++g) {
      if (signatures[k][g] == signatures[k - 1][g]) continue;
      add(before, Join(modes_at(k - 1), plan.groups[g].base));
      add(after, Join(modes_at(k), plan.groups[g].base));
    }
    steps.push_back({grid[k - 1], grid[k], {0.0, plan.axis, before, after}});
  }
  return steps;
}

void Locate(const analysis::MatrixFamily& family, PendingChange& pending) {
  pending.change.value = LocateChange(family, pending.from, pending.to);
}

std::vector<StructureChange> ChangesOf(const AxisPlan& plan, const analysis::MatrixFamily& family,
                                       const std::vector<Signature>& signatures,
                                       const std::function<std::span<const TrackedMode>(std::size_t)>& modes_at,
                                       int threads) {
  std::vector<PendingChange> steps = StepsOf(plan, signatures, modes_at);
  core::ParallelFor(steps.size(), threads, [&](std::size_t i) { Locate(family, steps[i]); });
  std::vector<StructureChange> changes;
  changes.reserve(steps.size());
  for (PendingChange& p : steps) changes.push_back(std::move(p.change));
  return changes;
}

void SolveNext(const analysis::RootSet* previous, const SmallMatrix& A, const SmallMatrix& dA, double p,
               analysis::RootSet& out) {
  if (previous && analysis::RefineRoots(*previous, A, dA, p, out)) return;
  out = analysis::AnalyzeRoots(A, dA, p);
}

void InRun(std::size_t n, std::size_t r, const std::function<void(std::size_t k, bool refine)>& point) {
  for (std::size_t k = r * kSolveRun; k < std::min(n, (r + 1) * kSolveRun); ++k) point(k, k % kSolveRun != 0);
}

void InRuns(std::size_t n, int threads, const std::function<void(std::size_t k, bool refine)>& point) {
  core::ParallelFor(RunsOf(n), threads, [&](std::size_t r) { InRun(n, r, point); });
}

std::vector<analysis::RootSet> SolveInRuns(const analysis::MatrixFamily& family, std::span<const double> params,
                                           int threads) {
  std::vector<analysis::RootSet> sets(params.size());
  SolveInRuns(family, params, threads, sets);
  return sets;
}

void SolveInRuns(const analysis::MatrixFamily& family, std::span<const double> params, int threads,
                 std::span<analysis::RootSet> sets) {
  InRuns(params.size(), threads, [&](std::size_t k, bool refine) {
    SmallMatrix A, dA;
    family(params[k], A, dA);
    SolveNext(refine ? &sets[k - 1] : nullptr, A, dA, params[k], sets[k]);
  });
}

TrackedMode HeadingMode() {
  TrackedMode h;
  h.name = h.origin = analysis::ToString(ModeKind::kHeading);
  h.kind = ModeKind::kHeading;
  h.axis = model::Axis::kLateral;
  h.zeta = 0.0;  // no damping ratio: 0 as analysis::Mode (`modes --json`) gives λ = 0
  return h;
}

AxisPlan ChunkedAxis::Next(const analysis::MatrixFamily& family, std::span<analysis::RootSet> sets, int threads) {
  if (last_) sets[0] = std::move(*last_);
  // Only the last point's vectors: the next chunk starts there.
  AxisPlan plan{analysis::Continue(family, sets, threads, analysis::kMaxHalvings,
                                    analysis::VectorsKept::kLastPoint), {}, axis_};
  if (!last_) groups_ = GroupsOf(plan.c.roots[0], named_, extra_);
  plan.groups = groups_;
  refinements_ += plan.c.refinements;
  // The last point's roots in label order: Continue stores each label's root
  // and vector as solved, so each is found exactly among the solved ones.
  const analysis::RootSet& solved = sets.back();
  const SmallVectorC& values = plan.c.roots.back();
  const analysis::SmallMatrixC& vectors = plan.c.vectors.back();
  const Eigen::Index n = values.size();
  analysis::RootSet last;
  last.parameter = solved.parameter;
  last.values.resize(n);
  last.slopes.resize(n);
  last.vectors.resize(solved.vectors.rows(), n);
  std::array<bool, analysis::kMaxSmallStates> taken{};
  for (Eigen::Index l = 0; l < n; ++l) {
    Eigen::Index i = 0;
    while (i < n && (taken[static_cast<std::size_t>(i)] || solved.values(i) != values(l) ||
                     solved.vectors.col(i) != vectors.col(l)))
      ++i;
    if (i == n) throw std::logic_error("ChunkedAxis: a continued root is none of the solved roots");
    taken[static_cast<std::size_t>(i)] = true;
    last.values(l) = solved.values(i);
    last.slopes(l) = solved.slopes(i);
    last.vectors.col(l) = solved.vectors.col(i);
  }
  last_ = std::move(last);
  return plan;
}

std::optional<AxisPlan> ChunkedAxis::NextHeld(const analysis::MatrixFamily& family, const analysis::RootSet& held,
                                              std::span<const double> params) {
  if (params.empty() || !held.slopes.isZero(0.0) || (last_ && !analysis::SameRoots(*last_, held)))
    return std::nullopt;
  if (!held_keeps_labels_) {
    std::array<analysis::RootSet, 2> step{held, held};
    step[1].parameter = held.parameter + 1.0;
    const analysis::Continuation c =
        analysis::Continue(family, step, 1, analysis::kMaxHalvings, analysis::VectorsKept::kLastPoint);
    held_keeps_labels_ = c.refinements == 0 && c.unresolved.empty() && core::SameBits(c.roots[0], held.values) &&
                         core::SameBits(c.roots[1], held.values);
  }
  if (!*held_keeps_labels_) return std::nullopt;
  AxisPlan plan{{}, {}, axis_, true};
  if (last_) plan.c.parameters.push_back(last_->parameter);
  plan.c.parameters.insert(plan.c.parameters.end(), params.begin(), params.end());
  plan.c.roots.push_back(held.values);
  plan.c.vectors.push_back(held.vectors);
  if (!last_) groups_ = GroupsOf(plan.c.roots[0], named_, extra_);
  plan.groups = groups_;
  analysis::RootSet last;
  last.parameter = params.back();
  last.values = held.values;
  last.slopes = held.slopes;
  last.vectors = held.vectors;
  last_ = std::move(last);
  return plan;
}

std::vector<std::vector<TrackedMode>> ChunkedTrack::Next(const analysis::MatrixFamily& family,
                                                          std::span<analysis::RootSet> sets,
                                                          std::vector<PointwiseNames> pointwise, int threads) {
  const std::size_t b = boundary() ? 1 : 0;  // the plan's point 0 is the previous chunk's last
  const std::size_t m = sets.size() - b;
  const AxisPlan plan = axis_.Next(family, sets, threads);
  if (!pointwise.empty() && b) pointwise.insert(pointwise.begin(), PointwiseNames{});
  std::vector<std::vector<TrackedMode>> points(m);
  std::vector<Signature> signatures(m + b);
  core::ParallelFor(m, threads, [&](std::size_t i) {
    points[i].reserve(plan.groups.size() + fixed_.size() + 1);
    NameAxisPoint(plan, i + b, pointwise, fixed_, points[i], signatures[i + b]);
  });
  if (b) signatures[0] = std::move(previous_signature_);
  auto modes_at = [&](std::size_t k) {
    return std::span<const TrackedMode>(k < b ? previous_ : points[k - b]);
  };
  for (StructureChange& c : ChangesOf(plan, family, signatures, modes_at, threads)) changes_.push_back(std::move(c));
  if (m > 0) {
    previous_ = points.back();
    previous_signature_ = std::move(signatures.back());
  }
  return points;
}

void AddNotes(TrackedStudy& study) {
  bool differs = false;
  for (const TrackedPoint& p : study.points)
    for (const TrackedMode& m : p.modes) differs = differs || !m.pointwise_name.empty();
  AddNotes(study, differs,
           study.points.size() > 1 && study.points.back().value < study.points.front().value);
}

void AddNotes(TrackedStudy& study, bool differs, bool descending) {
  if (differs)
    study.notes.push_back(
        "where 'pointwise' differs, aerolin modes names the roots of that point alone from "
        "eigenvector content (alpha vs u/U0 for short period and phugoid, beta vs phi for the "
        "Dutch roll, |lambda| for roll vs spiral); the sweep follows each root continuously from "
        "the named modes of the first point, so the tracked name keeps the root's history");
  // In the direction of the sweep (or, for a locus, outward from K = 0).
  std::stable_sort(study.changes.begin(), study.changes.end(),
                   [descending](const StructureChange& a, const StructureChange& b) {
                     return descending ? a.value > b.value : a.value < b.value;
                   });
}

}  // namespace aerolin::study::tracking
