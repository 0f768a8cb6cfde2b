#include "aerolin/study/tracked.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <unsupported/Eigen/AutoDiff>
#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "aerolin/core/parallel.hpp"
#include "aerolin/analysis/eigen.hpp"
#include "aerolin/analysis/tracking.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::study {
namespace {

using analysis::Mode;
using analysis::ModeFlag;
using analysis::ModeKind;
using analysis::SmallMatrix;
using analysis::SmallVectorC;
using cd = std::complex<double>;

// What `aerolin modes` calls one root (or pair) of one point: a name spelt
// once per process (analysis::FullName, or kWashoutFilterName).
struct PointwiseName {
  cd lambda;
  const std::string* name;
};
using PointwiseNames = std::vector<PointwiseName>;

const std::string kWashoutFilterName = "washout filter";

PointwiseNames Spelled(const std::vector<analysis::RootName>& names) {
  PointwiseNames out;
  out.reserve(names.size());
  for (const analysis::RootName& n : names) out.push_back({n.lambda, &analysis::FullName(n.kind, n.flags)});
  return out;
}

// A mode at the first point: its name and the root labels it owns.
struct Group {
  std::string base;  // "short period", "washout filter"
  std::optional<ModeKind> kind;
  std::vector<int> labels;
};

bool IsReal(cd z, double scale) { return std::abs(z.imag()) <= 1e-12 * std::max(scale, 1.0); }

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
// claimed by a named mode get `extra` names in order (the washout filter).
std::vector<Group> GroupsOf(const SmallVectorC& roots, const std::vector<Mode>& named,
                            const std::vector<std::string>& extra) {
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
    groups.push_back({extra[i], std::nullopt, {TakeNearest(roots, free, roots(free[0]))}});
  return groups;
}

// One tracked mode of a point: one label, or a conjugate pair (Im > 0 first).
struct Unit {
  std::array<int, 2> labels{};
  int size = 1;
};

// Which groups each group's roots pair with, as `aerolin sweep` compares it
// between points: for each of a group's labels, "p" and the two groups of
// its pair then ",", or "r,"; two groups' structures are equal when these
// texts are anagrams. Kept as the count of each character, 4 bits each
// ('p', 'r', ',', then the digits 0–9: a group index is one digit, as there
// are at most kMaxSmallStates groups, and no count exceeds 4).
using Signature = std::vector<std::uint64_t>;
constexpr int kSignatureP = 0, kSignatureR = 1, kSignatureComma = 2, kSignatureDigit0 = 3;
void Count(std::uint64_t& signature, int character) { signature += std::uint64_t{1} << (4 * character); }

// Appends the tracked modes at one point, from its labelled roots, to `out`
// (sorted by ωn, descending, among themselves) and sets each group's
// structure in `signature`.
void NameUnits(const SmallVectorC& roots, const std::vector<Group>& groups, model::Axis axis,
               std::vector<TrackedMode>& out, Signature& signature) {
  const double scale = roots.cwiseAbs().maxCoeff();
  const auto n = static_cast<int>(roots.size());
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
    if (IsReal(roots(i), scale)) continue;
    int partner = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < n; ++k)
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
      faster_roll_spiral = std::abs(roots(rs[0])) >= std::abs(roots(rs[1])) ? rs[0] : rs[1];
  }
  const std::size_t first = out.size();
  for (int k = 0; k < unit_count; ++k) {
    const Unit& u = units[static_cast<std::size_t>(k)];
    TrackedMode& t = out.emplace_back();
    t.axis = axis;
    t.lambda = roots(u.labels[0]);
    t.oscillatory = u.size == 2;
    if (!t.oscillatory) t.lambda.imag(0.0);
    t.wn = std::abs(t.lambda);
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
        kind = std::abs(roots(u.labels[0])) >= std::abs(roots(other)) ? ModeKind::kRollSubsidence
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
  const SmallVectorC v = Eigen::EigenSolver<SmallMatrix>(A, false).eigenvalues();
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

// One axis of a study: the continuation of its roots from every grid point's
// roots (`sets`) and the groups (named modes) of the first point.
struct AxisPlan {
  analysis::Continuation c;
  std::vector<Group> groups;
  model::Axis axis;
};

AxisPlan PlanAxis(const analysis::MatrixFamily& family, const std::vector<analysis::RootSet>& sets,
                  const std::vector<Mode>& named_at_start, const std::vector<std::string>& extra,
                  model::Axis axis, int threads) {
  AxisPlan plan{analysis::Continue(family, sets, threads), {}, axis};
  plan.groups = GroupsOf(plan.c.roots[0], named_at_start, extra);
  return plan;
}

// Appends the axis' tracked modes at point k to `out`, each with what
// `aerolin modes` calls it there where that differs (`pointwise[k]`;
// pointwise empty, or an empty entry: none), then the `fixed` modes.
void NameAxisPoint(const AxisPlan& plan, std::size_t k, const std::vector<PointwiseNames>& pointwise,
                   const std::vector<TrackedMode>& fixed, std::vector<TrackedMode>& out,
                   Signature& signature) {
  const std::size_t first = out.size();
  NameUnits(plan.c.roots[k], plan.groups, plan.axis, out, signature);
  if (!pointwise.empty()) {
    for (std::size_t i = first; i < out.size(); ++i) {
      TrackedMode& t = out[i];
      const PointwiseName* nearest = nullptr;
      double best = std::numeric_limits<double>::infinity();
      for (const PointwiseName& m : pointwise[k]) {
        const double d = std::min(std::abs(m.lambda - t.lambda), std::abs(std::conj(m.lambda) - t.lambda));
        if (d < best) {
          best = d;
          nearest = &m;
        }
      }
      if (nearest && *nearest->name != t.name) t.pointwise_name = *nearest->name;
    }
  }
  out.insert(out.end(), fixed.begin(), fixed.end());
}

// The structure changes of one axis: where a group's signature differs
// between consecutive points, located by bisection (in parallel: each is
// independent). `modes_at(k)` gives the axis' modes at point k.
template <class ModesAt>
std::vector<StructureChange> ChangesOf(const AxisPlan& plan, const analysis::MatrixFamily& family,
                                       const std::vector<Signature>& signatures, ModesAt modes_at,
                                       int threads) {
  const std::vector<double>& grid = plan.c.parameters;
  std::vector<std::size_t> steps;
  for (std::size_t k = 1; k < grid.size(); ++k)
    if (signatures[k] != signatures[k - 1]) steps.push_back(k);
  std::vector<StructureChange> changes(steps.size());
  core::ParallelFor(steps.size(), threads, [&](std::size_t i) {
    const std::size_t k = steps[i];
    const double at = LocateChange(family, grid[k - 1], grid[k]);
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
    changes[i] = {at, plan.axis, before, after};
  });
  return changes;
}

// Continuation of one axis, its naming at every point and its structure
// changes (a locus: one axis per study).
struct AxisTrack {
  std::vector<std::vector<TrackedMode>> points;
  std::vector<StructureChange> changes;
  int refinements = 0;
};

AxisTrack TrackAxis(const analysis::MatrixFamily& family, const std::vector<analysis::RootSet>& sets,
                    const std::vector<Mode>& named_at_start, const std::vector<std::string>& extra,
                    model::Axis axis, const std::vector<PointwiseNames>& pointwise, int threads,
                    const std::vector<TrackedMode>& fixed) {
  const AxisPlan plan = PlanAxis(family, sets, named_at_start, extra, axis, threads);
  const std::size_t n = plan.c.parameters.size();
  AxisTrack out;
  out.refinements = plan.c.refinements;
  out.points.resize(n);
  std::vector<Signature> signatures(n);
  // Naming is independent per point once the roots are labelled: parallel.
  core::ParallelFor(n, threads, [&](std::size_t k) {
    out.points[k].reserve(plan.groups.size() + fixed.size() + 1);
    NameAxisPoint(plan, k, pointwise, fixed, out.points[k], signatures[k]);
  });
  out.changes = ChangesOf(plan, family, signatures,
                          [&](std::size_t k) { return std::span<const TrackedMode>(out.points[k]); }, threads);
  return out;
}

model::StateSpace Longitudinal4(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(4, 0), model::LongitudinalStateSignals(), {});
}
model::StateSpace Lateral5(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(5, 0), model::LateralStateSignals(), {});
}

TrackedMode HeadingMode() {
  TrackedMode h;
  h.name = h.origin = analysis::ToString(ModeKind::kHeading);
  h.kind = ModeKind::kHeading;
  h.axis = model::Axis::kLateral;
  h.zeta = 1.0;
  return h;
}

void AddNotes(TrackedStudy& study) {
  bool differs = false;
  for (const TrackedPoint& p : study.points)
    for (const TrackedMode& m : p.modes) differs = differs || !m.pointwise_name.empty();
  if (differs)
    study.notes.push_back(
        "where 'pointwise' differs, aerolin modes names the roots of that point alone from "
        "eigenvector content (alpha vs u/U0 for short period and phugoid, beta vs phi for the "
        "Dutch roll, |lambda| for roll vs spiral); the sweep follows each root continuously from "
        "the named modes of the first point, so the tracked name keeps the root's history");
  // In the direction of the sweep (or, for a locus, outward from K = 0).
  const bool descending = study.points.size() > 1 && study.points.back().value < study.points.front().value;
  std::stable_sort(study.changes.begin(), study.changes.end(),
                   [descending](const StructureChange& a, const StructureChange& b) {
                     return descending ? a.value > b.value : a.value < b.value;
                   });
}

}  // namespace

TrackedStudy Sweep(const model::AircraftFile& file, const SweepOptions& options) {
  const model::WrittenKey* key = file.Find(options.param);
  if (key == nullptr) {
    std::string hint;
    const std::string section = options.param.substr(0, options.param.find('.'));
    for (const model::WrittenKey& k : file.keys)
      if (k.path.rfind(section + ".", 0) == 0) hint += (hint.empty() ? "" : " ") + k.path;
    throw std::invalid_argument("parameter '" + options.param + "' is not a key of this file" +
                                (hint.empty() ? std::string(" (give section.key as written, e.g. longitudinal.Mq)")
                                              : " (its " + section + " keys: " + hint + ")"));
  }
  if (options.steps < 2) throw std::invalid_argument("a sweep needs at least 2 steps");
  if (!std::isfinite(options.from) || !std::isfinite(options.to))
    throw std::invalid_argument("sweep bounds must be finite");
  const double* field = model::FieldOf(file, key->path);
  const double to_si = key->to_si;
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
  auto matrices = [&file, field, to_si, key](double v) {
    auto m = model::MatricesOfFile<AD>(file, [&](const double& f) -> AD {
      if (&f == field) return AD(v * to_si, Eigen::Matrix<double, 1, 1>(to_si));
      return AD(f);
    });
    // A value that zeroes a divisor of the model (1 − Zα̇/U0 of the α row,
    // a mass, an inertia, U0) has no A: say which value, not "non-finite".
    auto finite = [](const auto& M) {
      for (int r = 0; r < M.rows(); ++r)
        for (int c = 0; c < M.cols(); ++c)
          if (!std::isfinite(M(r, c).value())) return false;
      return true;
    };
    if (!finite(m.longitudinal) || !finite(m.lateral))
      throw std::invalid_argument(fmt::format(
          "at {} = {:g} the system matrix A is not finite: that value zeroes a divisor of the "
          "model (1 - Zadot/U0 of the alpha equation, a mass, an inertia or U0); sweep a range "
          "that avoids it",
          key->path, v));
    return m;
  };
  // The top-left n×n of an AD matrix: values into A, derivatives into dA.
  auto split = [](const auto& M, SmallMatrix& A, SmallMatrix& dA, int n) {
    A.resize(n, n);
    dA.resize(n, n);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        A(r, c) = M(r, c).value();
        dA(r, c) = M(r, c).derivatives().size() ? M(r, c).derivatives()(0) : 0.0;
      }
  };
  {
    SmallMatrix A, dlon, dlat;
    const auto m = matrices(key->value);
    split(m.longitudinal, A, dlon, 4);
    split(m.lateral, A, dlat, 5);
    if (dlon.isZero(0.0) && dlat.isZero(0.0))
      throw std::invalid_argument(
          "parameter '" + key->path + "' does not enter this file's system matrices A" +
          (key->path.rfind("controls.", 0) == 0 &&
                   (key->path.ends_with(".min") || key->path.ends_with(".max"))
               ? std::string(" (a control's limits bound its deflection in simulations; the modes do "
                             "not depend on them)")
           : key->path.rfind("controls.", 0) == 0
               ? std::string(" (control derivatives act through B: close a loop with aerolin locus)")
               : key->path.rfind("mass.", 0) == 0
                     ? std::string(" ([mass] enters only raw or unprimed derivatives)")
                     : std::string(" (it is informational)")));
  }
  analysis::MatrixFamily lon = [&](double v, SmallMatrix& A, SmallMatrix& dA) {
    split(matrices(v).longitudinal, A, dA, 4);
  };
  // The lateral roots are tracked on the (β, p, r, φ) block: ψ is an integrator
  // whose root is 0 for every value (AnalyzeLateral does the same).
  analysis::MatrixFamily lat = [&](double v, SmallMatrix& A, SmallMatrix& dA) {
    split(matrices(v).lateral, A, dA, 4);
  };
  std::vector<double> grid(static_cast<std::size_t>(options.steps));
  for (int k = 0; k < options.steps; ++k)
    grid[static_cast<std::size_t>(k)] =
        k + 1 == options.steps ? options.to
                               : options.from + (options.to - options.from) * k / (options.steps - 1);
  const bool is_u0 = field == &file.written.condition.U0 || (file.coefficients && field == &file.coefficients->U0);
  const double U0 = file.written.condition.U0;
  // Each point once: one build of both axes' A and ∂A/∂p, one eigen-solve per
  // axis, whose roots serve the continuation (values, vectors, slopes) and
  // the pointwise `aerolin modes` names (NameLongitudinalRoots and
  // NameLateralRoots are AnalyzeLongitudinal's and AnalyzeLateral's naming of
  // the same decomposition).
  const std::size_t n = grid.size();
  std::vector<analysis::RootSet> lon_sets(n), lat_sets(n);
  std::vector<PointwiseNames> lon_names(n), lat_names(n);
  core::ParallelFor(n, options.threads, [&](std::size_t k) {
    const double v = grid[k];
    const auto m = matrices(v);
    SmallMatrix A, dA;
    split(m.longitudinal, A, dA, 4);
    lon_sets[k] = analysis::AnalyzeRoots(A, dA, v);
    lon_names[k] = Spelled(analysis::NameLongitudinalRoots(lon_sets[k].values, lon_sets[k].vectors,
                                                           is_u0 ? v * to_si : U0));
    split(m.lateral, A, dA, 4);
    lat_sets[k] = analysis::AnalyzeRoots(A, dA, v);
    lat_names[k] = Spelled(analysis::NameLateralRoots(lat_sets[k].values, lat_sets[k].vectors));
  });
  // The named modes of the first point, as `aerolin modes` gives them.
  auto file_at = [&](double v) {
    return model::MatricesOfFile<double>(file, [&](const double& f) { return &f == field ? v * to_si : f; });
  };
  const auto first = file_at(grid[0]);
  TrackedStudy study;
  study.param = key->path;
  study.points.resize(grid.size());
  const AxisPlan lon_plan =
      PlanAxis(lon, lon_sets, analysis::AnalyzeLongitudinal(Longitudinal4(first.longitudinal), is_u0 ? grid[0] * to_si : U0),
               {}, model::Axis::kLongitudinal, options.threads);
  const AxisPlan lat_plan = PlanAxis(lat, lat_sets, analysis::AnalyzeLateral(Lateral5(first.lateral)), {},
                                     model::Axis::kLateral, options.threads);
  // Both axes named at each point in one parallel pass: the point's modes
  // are the longitudinal ones, then the lateral ones and heading.
  const std::vector<TrackedMode> heading{HeadingMode()};
  std::vector<Signature> lon_signatures(n), lat_signatures(n);
  std::vector<std::size_t> lon_end(n);
  core::ParallelFor(n, options.threads, [&](std::size_t k) {
    TrackedPoint& point = study.points[k];
    point.value = grid[k];
    point.modes.reserve(lon_plan.groups.size() + lat_plan.groups.size() + heading.size() + 2);
    NameAxisPoint(lon_plan, k, lon_names, {}, point.modes, lon_signatures[k]);
    lon_end[k] = point.modes.size();
    NameAxisPoint(lat_plan, k, lat_names, heading, point.modes, lat_signatures[k]);
  });
  auto lon_modes = [&](std::size_t k) {
    return std::span<const TrackedMode>(study.points[k].modes).first(lon_end[k]);
  };
  auto lat_modes = [&](std::size_t k) {
    return std::span<const TrackedMode>(study.points[k].modes).subspan(lon_end[k]);
  };
  study.changes = ChangesOf(lon_plan, lon, lon_signatures, lon_modes, options.threads);
  for (StructureChange& c : ChangesOf(lat_plan, lat, lat_signatures, lat_modes, options.threads))
    study.changes.push_back(std::move(c));
  study.refinements = lon_plan.c.refinements + lat_plan.c.refinements;
  AddNotes(study);
  return study;
}

// ----- locus

namespace {

struct Loop {
  model::Axis axis;
  Eigen::MatrixXd A;  // open loop, with washout if any
  Eigen::VectorXd b;  // input column
  Eigen::RowVectorXd c;  // filtered output row
  double d = 0;          // feedthrough of the output (a derived output's D)
  int psi = -1;          // index of ψ if the axis is lateral
  std::string gain_unit;
};

Loop MakeLoop(const model::AircraftData& aircraft, const LocusOptions& o) {
  const model::Control* control = nullptr;
  for (const model::Control& c : aircraft.controls)
    if (c.name == o.input) control = &c;
  if (control == nullptr) {
    std::string names;
    for (const model::Control& c : aircraft.controls) names += (names.empty() ? "" : ", ") + c.name;
    throw std::invalid_argument("unknown input '" + o.input + "' (this aircraft's controls: " + names + ")");
  }
  const model::StateSpace lon = model::BuildLongitudinal(aircraft);
  const model::StateSpace lat = model::BuildLateral(aircraft);
  // The output is looked up among the model's outputs (C, D): states today,
  // and any derived output the builders add to C and D.
  const model::StateSpace* sys = nullptr;
  int row = -1;
  for (const model::StateSpace* s : {&lon, &lat})
    for (int i = 0; i < s->num_outputs(); ++i)
      if (s->outputs()[static_cast<std::size_t>(i)].name == o.output) {
        sys = s;
        row = i;
      }
  if (sys == nullptr)
    throw std::invalid_argument("unknown output '" + o.output +
                                "' (states: u alpha q theta | beta p r phi psi)");
  int column = -1;
  for (int j = 0; j < sys->num_inputs(); ++j)
    if (sys->inputs()[static_cast<std::size_t>(j)].name == o.input) column = j;
  const bool lon_axis = sys == &lon;
  if (column < 0)
    throw std::invalid_argument("input '" + o.input + "' does not act on the " +
                                (lon_axis ? "longitudinal" : "lateral") + " axis of output '" +
                                o.output + "'");
  if (o.washout_tau && !(*o.washout_tau > 0.0))
    throw std::invalid_argument("washout time constant must be > 0");
  Loop loop;
  loop.axis = lon_axis ? model::Axis::kLongitudinal : model::Axis::kLateral;
  const int n = sys->num_states();
  const int m = n + (o.washout_tau ? 1 : 0);
  loop.A = Eigen::MatrixXd::Zero(m, m);
  loop.A.topLeftCorner(n, n) = sys->A();
  loop.b = Eigen::VectorXd::Zero(m);
  loop.b.head(n) = sys->B().col(column);
  loop.c = Eigen::RowVectorXd::Zero(m);
  loop.c.head(n) = sys->C().row(row);
  loop.d = sys->D()(row, column);
  if (o.washout_tau) {
    // ẋ_w = −a x_w + y, y_f = y − a x_w, a = 1/τ (so y_f = s/(s + a) y).
    const double a = 1.0 / *o.washout_tau;
    loop.A(n, n) = -a;
    loop.A.block(n, 0, 1, n) = sys->C().row(row);
    loop.c(n) = -a;
    loop.b(n) = sys->D()(row, column);  // y's feedthrough enters the filter state too
  }
  if (!lon_axis) loop.psi = model::lat::kPsi;
  const core::Signal& out_signal = sys->outputs()[static_cast<std::size_t>(row)];
  loop.gain_unit = std::string(core::ToString(control->unit)) + "/(" +
                   std::string(core::ToString(out_signal.unit)) + ")";
  return loop;
}

// The closed loop as Locus continues it, on the states that feed back: ψ is
// dropped unless the loop feeds ψ back. δ = K (c x + d δ)  ⇒
// δ = K/(1 − K d) · c x, so A(K) = A₀ + K/(1 − K d)·b c and
// dA/dK = b c/(1 − K d)²; b c is formed once, not per gain.
struct ClosedLoop {
  Loop loop;
  Eigen::MatrixXd bc;
  bool drop_psi = false;
  std::vector<int> keep;

  explicit ClosedLoop(Loop l) : loop(std::move(l)), bc(loop.b * loop.c) {
    drop_psi = loop.psi >= 0 && loop.c(loop.psi) == 0.0;
    for (int i = 0; i < loop.A.rows(); ++i)
      if (!(drop_psi && i == loop.psi)) keep.push_back(i);
  }

  void operator()(double K, SmallMatrix& A, SmallMatrix& dA) const {
    const double s = 1.0 - K * loop.d;
    const double a = K / s, da = 1.0 / (s * s);
    const auto nk = static_cast<Eigen::Index>(keep.size());
    A.resize(nk, nk);
    dA.resize(nk, nk);
    for (Eigen::Index r = 0; r < nk; ++r)
      for (Eigen::Index c = 0; c < nk; ++c) {
        const int i = keep[static_cast<std::size_t>(r)], j = keep[static_cast<std::size_t>(c)];
        A(r, c) = loop.A(i, j) + a * bc(i, j);
        dA(r, c) = da * bc(i, j);
      }
  }
};

}  // namespace

Eigen::MatrixXd ClosedLoopMatrix(const model::AircraftData& aircraft, const LocusOptions& options,
                                 double gain) {
  const Loop loop = MakeLoop(aircraft, options);
  return loop.A + (gain / (1.0 - gain * loop.d)) * (loop.b * loop.c);
}

analysis::MatrixFamily LocusFamily(const model::AircraftData& aircraft, const LocusOptions& options) {
  auto closed = std::make_shared<const ClosedLoop>(MakeLoop(aircraft, options));
  return [closed](double K, SmallMatrix& A, SmallMatrix& dA) { (*closed)(K, A, dA); };
}

LocusResult Locus(const model::AircraftData& aircraft, const LocusOptions& options) {
  if (options.gains.empty()) throw std::invalid_argument("no gains given");
  const ClosedLoop closed(MakeLoop(aircraft, options));
  const Loop& loop = closed.loop;
  LocusResult result;
  result.axis = loop.axis;
  result.gain_unit = loop.gain_unit;
  const bool drop_psi = closed.drop_psi;
  const analysis::MatrixFamily family = [&closed](double K, SmallMatrix& A, SmallMatrix& dA) {
    closed(K, A, dA);
  };
  // Open-loop names (K = 0): the aircraft's modes, plus the washout root.
  const analysis::ModalAnalysis open = analysis::AnalyzeModes(aircraft);
  std::vector<Mode> named = open.modes(loop.axis);
  std::vector<Mode> tracked_named;
  for (const Mode& m : named)
    if (m.kind != ModeKind::kHeading) tracked_named.push_back(m);
  std::vector<std::string> extra;
  if (!drop_psi && loop.psi >= 0) extra.push_back("heading");
  if (options.washout_tau) extra.push_back("washout filter");
  // Grid: from K = 0 outward to each requested gain, with at least 50 steps
  // over the range so the continuation is fine; reported points are the gains.
  std::vector<double> gains = options.gains;
  std::sort(gains.begin(), gains.end());
  gains.erase(std::unique(gains.begin(), gains.end()), gains.end());
  const double span = std::max({std::abs(gains.front()), std::abs(gains.back()), 1e-12});
  const double step = span / 50.0;
  TrackedStudy& study = result.study;
  study.param = "gain";
  for (double K : gains) study.points.push_back({K, {}});
  std::vector<TrackedMode> fixed;
  if (drop_psi) fixed.push_back(HeadingMode());
  // `aerolin modes`' names of one gain's roots. Without a washout these are
  // the closed-loop A's roots named as AnalyzeLongitudinal / AnalyzeLateral
  // name them. With one, the filter's root is named first: every eigenvector
  // obeys (λ + 1/τ)·x_w = y (the filter state's row), so the filter-state
  // content |x_w/τ| / |y| = (1/τ)/|λ + 1/τ| is largest for the root nearest
  // −1/τ. If that root is real it is "washout filter", and the other roots
  // are named by their aircraft states (the vectors' first four rows) alone;
  // if it is a pair, the filter has joined an aircraft mode, no root is the
  // filter's alone, and the point has no pointwise names.
  const bool psi_fed_back = !drop_psi && loop.psi >= 0;
  auto pointwise = [&](const analysis::RootSet& s) -> PointwiseNames {
    auto named = [&](const SmallVectorC& values, const analysis::SmallMatrixC& vectors) {
      return loop.axis == model::Axis::kLongitudinal
                 ? Spelled(analysis::NameLongitudinalRoots(values, vectors, aircraft.condition.U0))
                 : Spelled(analysis::NameLateralRoots(values, vectors));
    };
    if (!options.washout_tau) return named(s.values, s.vectors);
    const double a = 1.0 / *options.washout_tau;
    Eigen::Index filter = 0;
    for (Eigen::Index i = 1; i < s.values.size(); ++i)
      if (std::abs(s.values(i) + a) < std::abs(s.values(filter) + a)) filter = i;
    if (std::abs(s.values(filter).imag()) >
        analysis::kRealRootTolerance * std::max(std::abs(s.values(filter)), 1.0))
      return {};  // the filter's content is largest in a pair: no root is the filter's alone
    SmallVectorC values(4);
    analysis::SmallMatrixC vectors(4, 4);
    for (Eigen::Index i = 0, j = 0; i < s.values.size(); ++i) {
      if (i == filter) continue;
      values(j) = s.values(i);
      vectors.col(j++) = s.vectors.col(i).head(4);
    }
    PointwiseNames names = named(values, vectors);
    names.push_back({s.values(filter).real(), &kWashoutFilterName});
    return names;
  };
  for (int direction : {+1, -1}) {
    std::vector<double> targets;
    for (double K : gains)
      if ((direction > 0 && K >= 0) || (direction < 0 && K < 0)) targets.push_back(K);
    if (direction < 0) std::reverse(targets.begin(), targets.end());
    if (targets.empty()) continue;
    std::vector<double> grid{0.0};
    std::vector<int> report;  // grid index of each target
    for (double K : targets) {
      if (K == 0.0) {
        report.push_back(0);
        continue;
      }
      while (std::abs(K - grid.back()) > step) grid.push_back(grid.back() + direction * step);
      grid.push_back(K);
      report.push_back(static_cast<int>(grid.size()) - 1);
    }
    if (grid.size() < 2) grid.push_back(direction * step);
    std::vector<analysis::RootSet> sets(grid.size());
    std::vector<PointwiseNames> names(psi_fed_back ? 0 : grid.size());
    core::ParallelFor(grid.size(), options.threads, [&](std::size_t k) {
      sets[k] = analysis::AnalyzeRoots(family, grid[k]);
      if (!psi_fed_back) names[k] = pointwise(sets[k]);
    });
    AxisTrack t = TrackAxis(family, sets, tracked_named, extra, loop.axis, names, options.threads, fixed);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      auto it = std::find_if(study.points.begin(), study.points.end(),
                             [&](const TrackedPoint& p) { return p.value == targets[i]; });
      it->modes = t.points[static_cast<std::size_t>(report[i])];
    }
    for (const StructureChange& c : t.changes) study.changes.push_back(c);
    study.refinements += t.refinements;
  }
  AddNotes(study);
  SmallMatrix A0, dA0;
  family(0.0, A0, dA0);
  const Eigen::VectorXcd poles =
      analysis::Decompose(Eigen::MatrixXd(A0), analysis::LeftVectors::kIfDiagonalizable).values;
  result.open_loop_poles.assign(poles.begin(), poles.end());
  if (drop_psi) result.open_loop_poles.push_back(0.0);
  // Zeros of y/δ: finite generalized eigenvalues of ([A b; c d], [I 0; 0 0]).
  const auto n = loop.A.rows();
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(n + 1, n + 1), Q = Eigen::MatrixXd::Zero(n + 1, n + 1);
  P.topLeftCorner(n, n) = loop.A;
  P.topRightCorner(n, 1) = loop.b;
  P.bottomLeftCorner(1, n) = loop.c;
  P(n, n) = loop.d;
  Q.topLeftCorner(n, n).setIdentity();
  Eigen::GeneralizedEigenSolver<Eigen::MatrixXd> ges(P, Q);
  for (Eigen::Index i = 0; i < ges.alphas().size(); ++i) {
    const double beta = ges.betas()(i);
    if (std::abs(beta) > 1e-9 * std::max(1.0, std::abs(ges.alphas()(i))))
      result.zeros.push_back(ges.alphas()(i) / beta);
  }
  return result;
}

}  // namespace aerolin::study
