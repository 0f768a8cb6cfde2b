// Sweep: one key of the file varied over a grid, both axes' modes tracked.
#include "aerolin/study/tracked.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include <unsupported/Eigen/AutoDiff>
#include <fmt/format.h>

#include "aerolin/core/parallel.hpp"
#include "aerolin/core/same_bits.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/state_space.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/linearize.hpp"
#include "aerolin/study/trim.hpp"
#include "mode_tracking.hpp"

namespace aerolin::study {
namespace {

using analysis::SmallMatrix;
using tracking::AddNotes;
using tracking::AxisPlan;
using tracking::PendingChange;
using tracking::StepsOf;
using tracking::Handing;
using tracking::HeadingMode;
using tracking::Keeping;
using tracking::NameAxisPoint;
using tracking::SolveNext;
using tracking::PointwiseNames;
using tracking::Signature;
using tracking::Spelled;

model::StateSpace Longitudinal4(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(4, 0), model::LongitudinalStateSignals(), {});
}
model::StateSpace Lateral5(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(5, 0), model::LateralStateSignals(), {});
}

// The steps (from, to) of `plan`'s grid where its exactly real roots change:
// a pair splitting into two real roots, or two joining (none for a held axis).
std::vector<std::pair<double, double>> RealRootSteps(const AxisPlan& plan) {
  std::vector<std::pair<double, double>> steps;
  if (plan.held) return steps;
  auto real_roots = [&](std::size_t k) {
    std::uint32_t mask = 0;
    const analysis::SmallVectorC& roots = plan.roots(k);
    for (Eigen::Index l = 0; l < roots.size(); ++l)
      if (roots(l).imag() == 0.0) mask |= std::uint32_t{1} << l;
    return mask;
  };
  const std::vector<double>& at = plan.c.parameters;
  for (std::size_t k = 1; k < at.size(); ++k)
    if (real_roots(k) != real_roots(k - 1)) steps.emplace_back(at[k - 1], at[k]);
  return steps;
}

// One axis's A and ∂A/∂p at the first point, with their roots and names.
struct FixedAxis {
  SmallMatrix A, dA;
  analysis::RootSet roots;
  PointwiseNames names;
  bool valid = false;
  // True if (A, dA) are this axis's first-point matrices, bit for bit.
  bool Holds(const SmallMatrix& a, const SmallMatrix& da) const {
    return valid && core::SameBits(a, A) && core::SameBits(da, dA);
  }
};

// A held axis's roots at grid value v: its first point's.
void HeldRoots(const FixedAxis& fixed, double v, analysis::RootSet& out) {
  out = fixed.roots;
  out.parameter = v;
}

// What a tracked sweep needs of its parameter at a value v: both axes' A and
// ∂A/∂v (the longitudinal 4×4; the lateral (β, p, r, φ) block, since ψ is an
// integrator whose root is 0 at every value, as AnalyzeLateral treats it),
// and the speed U0 [m/s] the longitudinal names use there.
struct SweptAxes {
  // Fills the matrices at v; returns the speed U0 [m/s] there.
  std::function<double(double v, SmallMatrix& lon_A, SmallMatrix& lon_dA, SmallMatrix& lat_A, SmallMatrix& lat_dA)> at;
  // An axis closed through washout filters (their states after the
  // airframe's in its matrices): the filters' roots at the first point,
  // named as `aerolin modes` names them.
  std::vector<tracking::ExtraRoot> lon_filters, lat_filters;
  // An augmented axis (a closed loop, with or without filters): `aerolin
  // modes` names its modes by continuation from the open loop
  // (NameClosedAxis), not by each point's shapes, so its roots are named by
  // the continuation alone (as a locus's): no pointwise names.
  bool lon_closed = false, lat_closed = false;
};

// The tracked modes of both axes at grid(0..n-1), continued from the named
// modes of the first point (`lon_named`, `lat_named`), handed to `take` a
// chunk at a time; an axis whose matrices at a point equal its `fixed` ones
// takes their roots and names. `check_rest`, if set, is called once the
// first two chunks' points are built (each build checks its A) and before
// any point is handed over, with the index of the first point not built
// yet: it checks the A of that point and every one after it.
TrackedStudy Track(const std::string& param, std::size_t n, const std::function<double(std::size_t)>& grid,
                   int threads, std::vector<analysis::Mode> lon_named, std::vector<analysis::Mode> lat_named,
                   const SweptAxes& axes, const FixedAxis& lon_fixed, const FixedAxis& lat_fixed,
                   const tracking::PointTaker& take,
                   const std::function<void(std::size_t first_unbuilt)>& check_rest) {
  analysis::MatrixFamily lon = [&](double v, SmallMatrix& A, SmallMatrix& dA) {
    SmallMatrix lat_A, lat_dA;
    axes.at(v, A, dA, lat_A, lat_dA);
  };
  analysis::MatrixFamily lat = [&](double v, SmallMatrix& A, SmallMatrix& dA) {
    SmallMatrix lon_A, lon_dA;
    axes.at(v, lon_A, lon_dA, A, dA);
  };
  tracking::ChunkedAxis lon_axis(std::move(lon_named), model::Axis::kLongitudinal, axes.lon_filters);
  tracking::ChunkedAxis lat_axis(std::move(lat_named), model::Axis::kLateral, axes.lat_filters);
  const std::vector<TrackedMode> heading{HeadingMode()};
  TrackedStudy study;
  study.param = param;
  // Structure changes found (in chunk order), each located by a bisection
  // (~20 solves) beside the chunk's naming where a step was seen before it,
  // else beside the next chunk's plan or after the last chunk: the values
  // are reported with the study, not with the points.
  struct Pending {
    const analysis::MatrixFamily* family;
    PendingChange change;
    bool located = false;
  };
  std::vector<Pending> pending;
  auto unlocated = [&] {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < pending.size(); ++i)
      if (!pending[i].located) out.push_back(i);
    return out;
  };
  auto locate = [&](Pending& p) {
    tracking::Locate(*p.family, p.change);
    p.located = true;
  };
  bool names_differ = false;
  // The last point of the chunk before (its modes, where its lateral modes
  // start, its signatures): the first step of a chunk starts there.
  TrackedPoint previous;
  std::size_t previous_lon_end = 0;
  Signature previous_lon, previous_lat;
  // One chunk's solved points: each axis's roots, with a slot in front for
  // the previous chunk's last point (ChunkedAxis::Next), pointwise names, and
  // which points have the axis's first-point matrices (and so its roots: an
  // axis held at every point is planned without its sets). Two of them, so
  // the next chunk is solved while this one is planned; their buffers kept
  // from chunk to chunk, and the sets by the thread for its next sweep: a
  // buffer is ~0.8 MB (512 sets of 1.5 kB), and allocated per sweep, glibc
  // mapped it and unmapped it again (above its mmap threshold), and faulting
  // its pages in ruled the wall time (a 1000-point Mq sweep on two threads
  // took 2.5 or 7.5 ms by whether it happened).
  struct Solved {
    std::size_t start = 0, m = 0, b = 0;
    std::vector<analysis::RootSet> lon_sets, lat_sets;
    std::vector<PointwiseNames> lon_names, lat_names;
    std::vector<char> lon_held, lat_held;
  };
  thread_local std::array<std::vector<analysis::RootSet>, 4> kept_sets;
  std::array<Solved, 2> solved;
  for (std::size_t j = 0; j < 2; ++j) {
    solved[j].lon_sets = std::move(kept_sets[2 * j]);
    solved[j].lat_sets = std::move(kept_sets[2 * j + 1]);
    if (j == 1 && n <= static_cast<std::size_t>(kSweepChunk)) continue;  // one chunk: one buffer
    solved[j].lon_sets.reserve(std::min<std::size_t>(n, kSweepChunk) + 1);
    solved[j].lat_sets.reserve(std::min<std::size_t>(n, kSweepChunk) + 1);
  }
  // Readies `c` for the chunk from `start`: [0] of its sets and names is the
  // previous chunk's last point (no names: it is not named again) when there
  // is one (every chunk after the first).
  auto prepare = [&](Solved& c, std::size_t start) {
    c.start = start;
    c.m = std::min<std::size_t>(kSweepChunk, n - start);
    c.b = start > 0 ? 1 : 0;
    c.lon_sets.resize(c.m + c.b);
    c.lat_sets.resize(c.m + c.b);
    c.lon_names.assign(c.m + c.b, {});
    c.lat_names.assign(c.m + c.b, {});
    c.lon_held.assign(c.m, 0);
    c.lat_held.assign(c.m, 0);
  };
  // Point i of `c`: one build of both axes' A and ∂A/∂p, one eigen-solve per
  // axis, whose roots serve the continuation (values, vectors, slopes) and
  // the pointwise `aerolin modes` names (NameLongitudinalRoots and
  // NameLateralRoots are AnalyzeLongitudinal's and AnalyzeLateral's naming
  // of the same decomposition). Points are solved in runs
  // (tracking::InRuns): the first of a run in full, the others refined from
  // the point before (SolveNext).
  auto solve_point = [&](Solved& c, std::size_t i, bool refine) {
    const std::size_t b = c.b;
    const double v = grid(c.start + i);
    SmallMatrix lon_A, lon_dA, lat_A, lat_dA;
    const double speed = axes.at(v, lon_A, lon_dA, lat_A, lat_dA);
    // The axis's roots and names at v: the first point's where they hold.
    // A point where the axis holds keeps no roots of its own (held[i]):
    // the chunk's plan needs none when every point holds (NextHeld), and
    // the point after, refining from it, or a plan from the sets (Next)
    // has them copied in first.
    auto solve = [&](const SmallMatrix& A, const SmallMatrix& dA, const FixedAxis& fixed,
                     std::vector<analysis::RootSet>& sets, PointwiseNames& names, auto&& name, bool filters,
                     std::vector<char>& held) {
      if (fixed.Holds(A, dA)) {
        names = fixed.names;
        held[i] = 1;
      } else {
        if (refine && held[i - 1]) HeldRoots(fixed, grid(c.start + i - 1), sets[b + i - 1]);
        SolveNext(refine ? &sets[b + i - 1] : nullptr, A, dA, v, sets[b + i]);
        if (!filters) names = Spelled(name(sets[b + i]));
      }
    };
    solve(
        lon_A, lon_dA, lon_fixed, c.lon_sets, c.lon_names[i + b],
        [&](const analysis::RootSet& s) { return analysis::NameLongitudinalRoots(s.values, s.vectors, speed); },
        axes.lon_closed, c.lon_held);
    solve(
        lat_A, lat_dA, lat_fixed, c.lat_sets, c.lat_names[i + b],
        [](const analysis::RootSet& s) { return analysis::NameLateralRoots(s.values, s.vectors); },
        axes.lat_closed, c.lat_held);
  };
  auto plan = [&](tracking::ChunkedAxis& axis, const analysis::MatrixFamily& family, const Solved& c,
                  std::vector<analysis::RootSet>& sets, const FixedAxis& fixed, const std::vector<char>& held,
                  int plan_threads) {
    if (std::all_of(held.begin(), held.end(), [](char h) { return h != 0; })) {
      std::vector<double> params(c.m);
      for (std::size_t i = 0; i < c.m; ++i) params[i] = grid(c.start + i);
      if (std::optional<AxisPlan> p = axis.NextHeld(family, fixed.roots, params)) return std::move(*p);
    }
    for (std::size_t i = 0; i < c.m; ++i)
      if (held[i]) HeldRoots(fixed, grid(c.start + i), sets[c.b + i]);
    return axis.Next(family, std::span<analysis::RootSet>(sets), plan_threads);
  };
  // Each axis's signatures and where the lateral modes start, at each point
  // of a chunk, kept from chunk to chunk.
  std::vector<Signature> lon_signatures, lat_signatures;
  std::vector<std::size_t> lon_end;
  prepare(solved[0], 0);
  tracking::InRuns(solved[0].m, threads, [&](std::size_t i, bool refine) { solve_point(solved[0], i, refine); });
  for (std::size_t chunk = 0, start = 0; start < n; ++chunk, start += kSweepChunk) {
    Solved& c = solved[chunk % 2];
    Solved& next = solved[(chunk + 1) % 2];
    const std::size_t m = c.m, b = c.b;
    const bool more = start + kSweepChunk < n;
    if (more) prepare(next, start + kSweepChunk);
    const std::size_t next_runs = more ? tracking::RunsOf(next.m) : 0;
    // Each axis's plan (its continuation: serial but for its matching) and
    // the chunk's names, formed from it.
    std::optional<AxisPlan> lon_plan_of, lat_plan_of;
    std::vector<TrackedPoint> points(m);
    lon_signatures.assign(m + b, {});
    lat_signatures.assign(m + b, {});
    lon_end.assign(m + b, 0);
    // The steps where an axis's exactly real roots change (a pair splitting
    // into two real roots, or two joining): the usual structure change,
    // seen before naming from the plan's roots alone, and located beside
    // it. (Any other step the names show is located later; one seen here
    // and not there is located for nothing.)
    std::vector<Pending> early;
    auto name_chunk = [&](const AxisPlan& lon_plan, const AxisPlan& lat_plan) {
      const std::vector<PointwiseNames>& lon_names = c.lon_names;
      const std::vector<PointwiseNames>& lat_names = c.lat_names;
      // Each axis named at the chunk's first point; a point where the axis
      // is named alike (the axis the key does not enter: every point) takes
      // that naming instead of naming its roots again.
      std::vector<TrackedMode> lon_first, lat_first;
      Signature lon_first_signature, lat_first_signature;
      NameAxisPoint(lon_plan, b, lon_names, {}, lon_first, lon_first_signature);
      NameAxisPoint(lat_plan, b, lat_names, heading, lat_first, lat_first_signature);
      auto name = [b](const AxisPlan& plan, std::size_t k, const std::vector<PointwiseNames>& names,
                      const std::vector<TrackedMode>& fixed, const std::vector<TrackedMode>& first,
                      const Signature& first_signature, std::vector<TrackedMode>& out, Signature& signature) {
        if (tracking::NamedAlike(plan, names, b, k)) {
          out.insert(out.end(), first.begin(), first.end());
          signature = first_signature;
        } else {
          NameAxisPoint(plan, k, names, fixed, out, signature);
        }
      };
      for (const auto& [plan, family] : {std::pair{&lon_plan, &lon}, std::pair{&lat_plan, &lat}})
        for (const auto& [from, to] : RealRootSteps(*plan)) early.push_back({family, {from, to, {}}});
      // Both axes named at each point: the point's modes are the
      // longitudinal ones, then the lateral ones and heading.
      core::ParallelFor(early.size() + m, threads, [&](std::size_t item) {
        if (item < early.size()) return locate(early[item]);
        const std::size_t i = item - early.size();
        const std::size_t k = i + b;
        TrackedPoint& point = points[i];
        point.value = grid(start + i);
        point.modes.reserve(lon_plan.groups.size() + lat_plan.groups.size() + heading.size() + 2);
        name(lon_plan, k, lon_names, {}, lon_first, lon_first_signature, point.modes, lon_signatures[k]);
        lon_end[k] = point.modes.size();
        name(lat_plan, k, lat_names, heading, lat_first, lat_first_signature, point.modes, lat_signatures[k]);
      });
    };
    // This chunk planned and named while the next chunk's runs are solved:
    // item 0 is the plan and the names, the others the next chunk's runs
    // (and changes still to locate), which a free thread takes (the plan's
    // thread too once it is done). The names are formed by the thread that
    // planned, beside the runs (a free thread joins them: the last chunk's).
    // Named after the plan's loop by both threads, a point's names cost the
    // thread that had not planned 1.8x what they cost the one that had
    // (0.65 against 0.36 us, the plan's data moved between the cores): a
    // 1000-point Mq sweep on two threads took 1.35-1.39 ms, now 1.25-1.27.
    // A bad A in the next chunk fails its run: the lowest failing run, the
    // lowest such value, is rethrown.
    const std::vector<std::size_t> to_locate = unlocated();
    const std::size_t locating = to_locate.size();
    const std::size_t items = 1 + locating + next_runs;
    core::ParallelFor(items, threads, [&](std::size_t item) {
      if (item > 0 && item <= locating) return locate(pending[to_locate[item - 1]]);
      if (item > 0)
        return tracking::InRun(next.m, item - 1 - locating,
                               [&](std::size_t k, bool refine) { solve_point(next, k, refine); });
      const int plan_threads = items > 1 ? 1 : threads;
      lon_plan_of = plan(lon_axis, lon, c, c.lon_sets, lon_fixed, c.lon_held, plan_threads);
      lat_plan_of = plan(lat_axis, lat, c, c.lat_sets, lat_fixed, c.lat_held, plan_threads);
      name_chunk(*lon_plan_of, *lat_plan_of);
    });
    // The first two chunks are built; the points after them are checked
    // before the first is handed over.
    if (start == 0 && check_rest) check_rest(more ? next.start + next.m : n);
    const AxisPlan& lon_plan = *lon_plan_of;
    const AxisPlan& lat_plan = *lat_plan_of;
    if (b) {
      lon_signatures[0] = std::move(previous_lon);
      lat_signatures[0] = std::move(previous_lat);
      lon_end[0] = previous_lon_end;
    }
    auto modes = [&](std::size_t k) -> const std::vector<TrackedMode>& {
      return k < b ? previous.modes : points[k - b].modes;
    };
    auto lon_modes = [&](std::size_t k) { return std::span<const TrackedMode>(modes(k)).first(lon_end[k]); };
    auto lat_modes = [&](std::size_t k) { return std::span<const TrackedMode>(modes(k)).subspan(lon_end[k]); };
    // Each change takes its value from the step located beside the naming
    // where one was seen; the others are located later.
    auto found = [&](const analysis::MatrixFamily& family, PendingChange p) {
      Pending change{&family, std::move(p)};
      for (const Pending& e : early)
        if (e.family == &family && e.change.from == change.change.from && e.change.to == change.change.to) {
          change.change.change.value = e.change.change.value;
          change.located = true;
          break;
        }
      pending.push_back(std::move(change));
    };
    for (PendingChange& p : StepsOf(lon_plan, lon_signatures, lon_modes)) found(lon, std::move(p));
    for (PendingChange& p : StepsOf(lat_plan, lat_signatures, lat_modes)) found(lat, std::move(p));
    for (const TrackedPoint& p : points)
      for (const TrackedMode& mode : p.modes) names_differ = names_differ || !mode.pointwise_name.empty();
    previous = points.back();  // before `take` moves from it
    take(points);
    previous_lon_end = lon_end.back();
    previous_lon = std::move(lon_signatures.back());
    previous_lat = std::move(lat_signatures.back());
  }
  const std::vector<std::size_t> to_locate = unlocated();
  core::ParallelFor(to_locate.size(), threads, [&](std::size_t i) { locate(pending[to_locate[i]]); });
  // The longitudinal changes, then the lateral ones, each in grid order.
  for (const bool lon_axis_changes : {true, false})
    for (Pending& p : pending)
      if ((p.family == &lon) == lon_axis_changes) study.changes.push_back(std::move(p.change.change));
  study.refinements = lon_axis.refinements() + lat_axis.refinements();
  for (std::size_t j = 0; j < 2; ++j) {
    kept_sets[2 * j] = std::move(solved[j].lon_sets);
    kept_sets[2 * j + 1] = std::move(solved[j].lat_sets);
  }
  AddNotes(study, names_differ, grid(n - 1) < grid(0));
  return study;
}

// The feedback one axis of `file` closes through washout filters, held as
// a sweep holds its gains: u = −K z over z = (x, filters), the filters' rows
// ẇ = (y − w)/τ (y a state: C and D of y do not move with the airframe, so
// neither do K and these rows), as model::BuildAugmented closes them.
struct HeldFilters {
  Eigen::MatrixXd K;  // the axis's controls (file order) × (n + f)
  Eigen::MatrixXd F;  // f × (n + f)
  std::vector<core::Signal> states;  // z's
};

// The loop `loop` of `aug` measures an output whose C and D rows move with
// the swept airframe (nz, gamma, ay): refused.
[[noreturn]] void RefuseDerivedLoop(bool lon, const model::OutputFeedback& loop) {
  throw std::invalid_argument(
      "the " + std::string(lon ? "longitudinal" : "lateral") + " augmentation loops " + loop.input + ":" +
      loop.output +
      ", an output whose C and D rows move with the swept airframe: a sweep holds state gains and "
      "washed-out loops on states only (sweep the file the loop was designed on, or study the gain with "
      "aerolin locus --loop)");
}

// The column of `aug`'s input `name` among the axis's controls (B's columns, file order).
Eigen::Index ControlColumn(const model::AircraftFile& file, bool lon, const std::string& name) {
  Eigen::Index j = 0;
  for (const model::Control& c : file.written.controls) {
    if (!(lon ? c.longitudinal : c.lateral)) continue;
    if (c.name == name) return j;
    ++j;
  }
  throw std::invalid_argument("the " + std::string(lon ? "longitudinal" : "lateral") + " augmentation feeds back '" +
                              name + "', which has no column of B");
}

std::optional<HeldFilters> HeldFiltersOf(const model::AircraftFile& file, bool lon,
                                         const std::optional<model::AxisAugmentation>& aug) {
  if (!aug || std::none_of(aug->output_loops.begin(), aug->output_loops.end(),
                           [](const model::OutputFeedback& l) { return l.washout_s.has_value(); }))
    return std::nullopt;
  const model::Axis axis = lon ? model::Axis::kLongitudinal : model::Axis::kLateral;
  HeldFilters h;
  h.states = model::StateSignals(axis);
  const auto n = static_cast<Eigen::Index>(h.states.size());
  Eigen::Index m = 0;
  for (const model::Control& c : file.written.controls) m += (lon ? c.longitudinal : c.lateral) ? 1 : 0;
  Eigen::Index f = 0;
  for (const model::OutputFeedback& l : aug->output_loops) f += l.washout_s ? 1 : 0;
  if (f > model::kMaxWashoutsPerAxis)
    throw std::invalid_argument(fmt::format("the {} augmentation has {} washed-out loops: {}",
                                            lon ? "longitudinal" : "lateral", f, model::WashoutLimitText()));
  h.K = Eigen::MatrixXd::Zero(m, n + f);
  h.F = Eigen::MatrixXd::Zero(f, n + f);
  for (std::size_t i = 0; i < aug->inputs.size(); ++i)
    h.K.row(ControlColumn(file, lon, aug->inputs[i])).head(n) += aug->gain.row(static_cast<Eigen::Index>(i));
  Eigen::Index w = n;
  for (const model::OutputFeedback& l : aug->output_loops) {
    Eigen::Index y = 0;
    while (y < n && h.states[static_cast<std::size_t>(y)].name != l.output) ++y;
    if (y == n) RefuseDerivedLoop(lon, l);
    // δ = K_loop (y − w): u = −K z with K(y) = −K_loop, K(w) = +K_loop.
    const Eigen::Index j = ControlColumn(file, lon, l.input);
    h.K(j, y) -= l.gain;
    if (!l.washout_s) continue;
    h.K(j, w) += l.gain;
    h.F(w - n, y) = 1.0 / *l.washout_s;
    h.F(w - n, w) = -1.0 / *l.washout_s;
    const core::Signal& s = h.states[static_cast<std::size_t>(y)];
    h.states.push_back({s.name + "_washout", s.unit, s.symbol + "_w"});
    ++w;
  }
  return h;
}

// A sweep's A matrices in place (no allocation a point): an axis's states
// (the lateral's 5, ψ included) and at most model::kMaxWashoutsPerAxis
// washout filters (the loader and HeldFiltersOf refuse more).
constexpr int kMaxSweptStates = 5 + model::kMaxWashoutsPerAxis;
template <class T>
using MatrixOf = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxSweptStates, kMaxSweptStates>;

// Both axes' closed-loop A of a sweep, with any washout filters' states
// after the airframe's.
template <class T>
struct SweptMatrices {
  MatrixOf<T> longitudinal, lateral;
};

// A − B_K K of one axis of `file` with the file's gain `aug` held (its
// inputs by name among the axis's controls, B's columns in file order), in
// T; with washout filters, A_z − B_z K over z, the feedback `held`.
template <class MA, class MB>
MatrixOf<typename MA::Scalar> CloseHeld(const MA& A, const MB& B, const model::AircraftFile& file, bool lon,
                                        const std::optional<model::AxisAugmentation>& aug,
                                        const std::optional<HeldFilters>& held) {
  using T = typename MA::Scalar;
  if (held) {
    const Eigen::Index n = A.rows(), N = held->K.cols();
    MatrixOf<T> Az(N, N);
    for (Eigen::Index r = 0; r < N; ++r)
      for (Eigen::Index c = 0; c < N; ++c) {
        if (r >= n) {
          Az(r, c) = T(held->F(r - n, c));
          continue;
        }
        T a = c < n ? T(A(r, c)) : T(0.0);
        for (Eigen::Index j = 0; j < B.cols(); ++j)
          if (held->K(j, c) != 0.0) a -= B(r, j) * held->K(j, c);
        Az(r, c) = a;
      }
    return Az;
  }
  MatrixOf<T> Ac = A;
  if (!aug) return Ac;
  if (!aug->output_loops.empty()) RefuseDerivedLoop(lon, aug->output_loops.front());
  for (std::size_t i = 0; i < aug->inputs.size(); ++i) {
    const Eigen::Index j = ControlColumn(file, lon, aug->inputs[i]);
    for (Eigen::Index r = 0; r < Ac.rows(); ++r)
      for (Eigen::Index c = 0; c < Ac.cols(); ++c)
        Ac(r, c) -= B(r, j) * aug->gain(static_cast<Eigen::Index>(i), c);
  }
  return Ac;
}

// MatricesOfFile with the file's [augmentation] closed, its gains (and its
// washout filters' feedback, `lon_held`, `lat_held`) held (constants: a
// sweep moves the airframe, not the design).
template <class T>
SweptMatrices<T> ClosedMatricesOfFile(const model::AircraftFile& file, model::FieldValue<T> value,
                                      const std::optional<HeldFilters>& lon_held,
                                      const std::optional<HeldFilters>& lat_held) {
  const model::AxisMatrices<T> m = model::MatricesOfFile<T>(file, value);
  if (!file.longitudinal_augmentation && !file.lateral_augmentation) return {m.longitudinal, m.lateral};
  const model::AxisInputMatrices<T> b = model::InputMatricesOfFile<T>(file, value);
  return {CloseHeld(m.longitudinal, b.longitudinal, file, true, file.longitudinal_augmentation, lon_held),
          CloseHeld(m.lateral, b.lateral, file, false, file.lateral_augmentation, lat_held)};
}

}  // namespace

// A swept value beyond this (SI) overflows the model rather than zeroing a
// divisor: the loader's bound on every value of a file (data/read_checks.cpp).
constexpr double kFarOutside = 1e100;

const model::WrittenKey& ResolveSweepKey(const model::AircraftFile& file, const std::string& param) {
  if (const model::WrittenKey* key = file.Find(param)) return *key;
  if (param.find('.') == std::string::npos) {
    // A bare key: the keys whose last part it is ("Ma" -> longitudinal.Ma).
    std::vector<const model::WrittenKey*> matches;
    for (const model::WrittenKey& k : file.keys) {
      const std::size_t dot = k.path.rfind('.');
      if (dot != std::string::npos && k.path.compare(dot + 1, std::string::npos, param) == 0)
        matches.push_back(&k);
    }
    if (matches.size() == 1) return *matches.front();
    if (matches.size() > 1) {
      std::string which;
      for (const model::WrittenKey* k : matches) which += (which.empty() ? "" : ", ") + k->path;
      throw std::invalid_argument("parameter '" + param + "' is a key of several sections of this file (" +
                                  which + "): give section.key");
    }
  }
  std::string hint;
  const std::string section = param.substr(0, param.find('.'));
  for (const model::WrittenKey& k : file.keys)
    if (k.path.rfind(section + ".", 0) == 0) hint += (hint.empty() ? "" : " ") + k.path;
  throw std::invalid_argument("parameter '" + param + "' is not a key of this file" +
                              (hint.empty() ? std::string(" (give section.key as written, e.g. longitudinal.Mq)")
                                            : " (its " + section + " keys: " + hint + ")"));
}

namespace {

// Sweep, handing each chunk's points to `take`.
TrackedStudy SweepTaking(const model::AircraftFile& file, const SweepOptions& options,
                         const tracking::PointTaker& take) {
  const model::WrittenKey* key = &ResolveSweepKey(file, options.param);
  if (options.steps < 2) throw std::invalid_argument("a sweep needs at least 2 steps");
  if (!std::isfinite(options.from) || !std::isfinite(options.to))
    throw std::invalid_argument("sweep bounds must be finite");
  // --from -1e308 --to 1e308: each bound is finite, their difference is not,
  // and every value of the grid would be NaN.
  if (!std::isfinite(options.to - options.from))
    throw std::invalid_argument(fmt::format(
        "the range from {:g} to {:g} is too wide: its step overflows (the difference of the "
        "bounds exceeds the largest number, {:g}); sweep a narrower range",
        options.from, options.to, std::numeric_limits<double>::max()));
  const double* field = model::FieldOf(file, key->path);
  const double to_si = key->to_si;
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
  // Washout filters (a loop through s/(s + 1/τ) on a state): their feedback
  // held with the gains, their states after the airframe's.
  const std::optional<HeldFilters> lon_held = HeldFiltersOf(file, true, file.longitudinal_augmentation);
  const std::optional<HeldFilters> lat_held = HeldFiltersOf(file, false, file.lateral_augmentation);
  auto matrices = [&file, field, to_si, key, &lon_held, &lat_held](double v) {
    auto m = ClosedMatricesOfFile<AD>(
        file,
        [&](const double& f) -> AD {
          if (&f == field) return AD(v * to_si, Eigen::Matrix<double, 1, 1>(to_si));
          return AD(f);
        },
        lon_held, lat_held);
    // A value that zeroes a divisor of the model (1 − Zα̇/U0 of the α row,
    // a mass, an inertia, U0) has no A: say which value, not "non-finite".
    auto finite = [](const auto& M) {
      return std::all_of(M.data(), M.data() + M.size(), [](const AD& x) { return std::isfinite(x.value()); });
    };
    if (!finite(m.longitudinal) || !finite(m.lateral))
      throw std::invalid_argument(fmt::format(
          "at {} = {:g} the system matrix A is not finite: {}; sweep a range that avoids it",
          key->path, v,
          std::abs(v * to_si) > kFarOutside
              ? "that value is far outside the physical range (the model overflows)"
              : "that value zeroes a divisor of the model (1 - Zadot/U0 of the alpha equation, "
                "a mass, an inertia or U0)"));
    return m;
  };
  // The rows and columns `keep` of an AD matrix: values into A, derivatives
  // into dA.
  auto split = [](const auto& M, SmallMatrix& A, SmallMatrix& dA, const std::vector<Eigen::Index>& keep) {
    const auto n = static_cast<Eigen::Index>(keep.size());
    A.resize(n, n);
    dA.resize(n, n);
    for (Eigen::Index c = 0; c < n; ++c) {
      const AD* column = M.data() + keep[static_cast<std::size_t>(c)] * M.rows();
      for (Eigen::Index r = 0; r < n; ++r) {
        const AD& x = column[keep[static_cast<std::size_t>(r)]];
        A(r, c) = x.value();
        dA(r, c) = x.derivatives()(0);
      }
    }
  };
  // Every state of each axis; the ones tracked: the lateral without ψ (an
  // integrator whose root is 0 at every value), the filters' after the airframe's.
  auto indices = [](const std::optional<HeldFilters>& held, Eigen::Index n, Eigen::Index skip) {
    std::vector<Eigen::Index> keep;
    for (Eigen::Index i = 0; i < (held ? held->K.cols() : n); ++i)
      if (i != skip) keep.push_back(i);
    return keep;
  };
  const std::vector<Eigen::Index> lon_all = indices(lon_held, 4, -1), lat_all = indices(lat_held, 5, -1);
  const std::vector<Eigen::Index> lon_keep = lon_all, lat_keep = indices(lat_held, 5, model::lat::kPsi);
  {
    SmallMatrix A, dlon, dlat;
    const auto m = matrices(key->value);
    split(m.longitudinal, A, dlon, lon_all);
    split(m.lateral, A, dlat, lat_all);
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
  const auto n = static_cast<std::size_t>(options.steps);
  auto grid = [&options, n](std::size_t k) {
    return k + 1 == n ? options.to
                      : options.from + (options.to - options.from) * static_cast<int>(k) / (options.steps - 1);
  };
  auto file_at = [&](double v) {
    return ClosedMatricesOfFile<double>(
        file, [&](const double& f) { return &f == field ? v * to_si : f; }, lon_held, lat_held);
  };
  // A value with no A is a usage error before any point is handed over: A
  // in doubles at values [from, to), and where it is not finite, `matrices`
  // says why (the lowest such value). The first value here (the first
  // point's names and matrices come from it); the rest of the first two
  // chunks as Track builds their points (the same `matrices`, the same
  // message), before the first point is handed over; the later values here,
  // then (building a point's A again in doubles costs about a tenth of the
  // point's solve: a 1000-point sweep, two chunks, needs no such pass).
  auto check = [&](std::size_t from, std::size_t to) {
    core::ParallelFor(to - from, options.threads, [&](std::size_t i) {
      const auto m = file_at(grid(from + i));
      if (!m.longitudinal.allFinite() || !m.lateral.allFinite()) matrices(grid(from + i));
    });
  };
  check(0, 1);
  const std::function<void(std::size_t)> check_rest = [&](std::size_t first_unbuilt) { check(first_unbuilt, n); };
  const bool is_u0 = field == &file.written.condition.U0 || (file.coefficients && field == &file.coefficients->U0);
  const double U0 = file.written.condition.U0;
  SweptAxes axes;
  axes.at = [&](double v, SmallMatrix& lon_A, SmallMatrix& lon_dA, SmallMatrix& lat_A, SmallMatrix& lat_dA) {
    const auto mats = matrices(v);
    split(mats.longitudinal, lon_A, lon_dA, lon_keep);
    split(mats.lateral, lat_A, lat_dA, lat_keep);
    return is_u0 ? v * to_si : U0;
  };
  // The named modes of the first point, as `aerolin modes` gives them: an
  // augmented axis's closed loop named by CloseAxis's rule (NameClosedAxis:
  // its roots continued from the open loop, every gain 0).
  const auto first = file_at(grid(0));
  const double first_U0 = is_u0 ? grid(0) * to_si : U0;
  auto named = [&](model::Axis axis, const std::optional<HeldFilters>& held, const Eigen::MatrixXd& closed,
                   std::vector<tracking::ExtraRoot>& filters) {
    const bool lon = axis == model::Axis::kLongitudinal;
    if (!(lon ? file.longitudinal_augmentation : file.lateral_augmentation))
      return lon ? analysis::AnalyzeLongitudinal(Longitudinal4(closed), first_U0)
                 : analysis::AnalyzeLateral(Lateral5(closed));
    const model::AxisMatrices<double> bare = model::MatricesOfFile<double>(
        file, [&](const double& f) { return &f == field ? grid(0) * to_si : f; });
    const Eigen::MatrixXd bare_A = lon ? Eigen::MatrixXd(bare.longitudinal) : Eigen::MatrixXd(bare.lateral);
    const Eigen::Index n = bare_A.rows(), N = held ? held->K.cols() : n;
    Eigen::MatrixXd open = Eigen::MatrixXd::Zero(N, N);
    open.topLeftCorner(n, n) = bare_A;
    if (held) open.bottomRows(N - n) = held->F;
    const std::vector<analysis::Mode> open_modes = lon ? analysis::AnalyzeLongitudinal(Longitudinal4(bare_A), first_U0)
                                                       : analysis::AnalyzeLateral(Lateral5(bare_A));
    ClosedAxis c = NameClosedAxis(model::StateSpace(closed, Eigen::MatrixXd::Zero(N, 0),
                                                    held ? held->states : model::StateSignals(axis), {}),
                                  open, axis, first_U0, open_modes);
    if (!c.modes)
      throw std::invalid_argument(fmt::format("at {} = {:g} the {} closed loop's modes cannot be named: {}", key->path,
                                              grid(0), model::AxisName(axis), c.not_named));
    for (const analysis::FilterRoot& f : c.filters) filters.push_back({analysis::FilterRootName(f.state), f.lambda});
    return std::move(*c.modes);
  };
  axes.lon_closed = file.longitudinal_augmentation.has_value();
  axes.lat_closed = file.lateral_augmentation.has_value();
  std::vector<analysis::Mode> lon_named = named(model::Axis::kLongitudinal, lon_held, first.longitudinal, axes.lon_filters);
  std::vector<analysis::Mode> lat_named = named(model::Axis::kLateral, lat_held, first.lateral, axes.lat_filters);
  // An axis the key does not enter (the lateral one of a longitudinal key):
  // where a point's A and ∂A/∂p equal the first point's bit for bit, its
  // roots, slopes and pointwise names are the first point's (AnalyzeRoots and
  // the naming are deterministic functions of A, ∂A/∂p and, for the
  // longitudinal names, U0), so they are copied instead of solved again:
  // the report is byte-identical and the axis costs a comparison per point.
  FixedAxis lon_fixed, lat_fixed;
  {
    const auto mats = matrices(grid(0));
    split(mats.longitudinal, lon_fixed.A, lon_fixed.dA, lon_keep);
    if (!is_u0) {
      lon_fixed.roots = analysis::AnalyzeRoots(lon_fixed.A, lon_fixed.dA, grid(0));
      if (!axes.lon_closed)
        lon_fixed.names = Spelled(
            analysis::NameLongitudinalRoots(lon_fixed.roots.values, lon_fixed.roots.vectors, U0));
      lon_fixed.valid = true;
    }
    split(mats.lateral, lat_fixed.A, lat_fixed.dA, lat_keep);
    lat_fixed.roots = analysis::AnalyzeRoots(lat_fixed.A, lat_fixed.dA, grid(0));
    if (!axes.lat_closed)
      lat_fixed.names = Spelled(analysis::NameLateralRoots(lat_fixed.roots.values, lat_fixed.roots.vectors));
    lat_fixed.valid = true;
  }
  return Track(key->path, n, grid, options.threads, std::move(lon_named), std::move(lat_named), axes, lon_fixed,
               lat_fixed, take, check_rest);
}

}  // namespace

TrackedStudy Sweep(const model::AircraftFile& file, const SweepOptions& options, const PointSink& sink) {
  return SweepTaking(file, options, Handing(sink));
}

TrackedStudy Sweep(const model::AircraftFile& file, const SweepOptions& options) {
  std::vector<TrackedPoint> points;
  TrackedStudy study = SweepTaking(file, options, Keeping(points));
  study.points = std::move(points);
  return study;
}

namespace {

TrackedStudy SweepTrimSpeedTaking(const model::AircraftData& aircraft, const TrimSpeedSweepOptions& options,
                                  const tracking::PointTaker& take) {
  if (model::IsAugmented(aircraft))
    throw std::invalid_argument(
        "the file closes a feedback ([augmentation]): the nonlinear model a trim-speed sweep "
        "linearizes is the bare airframe; sweep the file without [augmentation]");
  if (options.steps < 2) throw std::invalid_argument("a sweep needs at least 2 steps");
  const double to_si = options.to_si;
  if (!(std::isfinite(options.from * to_si) && std::isfinite(options.to * to_si) && options.from > 0 &&
        options.to > 0))
    throw std::invalid_argument(fmt::format(
        "a trim-speed sweep needs speeds above 0 (from {:g} to {:g} was given)", options.from, options.to));
  const auto n = static_cast<std::size_t>(options.steps);
  auto grid = [&options, n](std::size_t k) {
    return k + 1 == n ? options.to
                      : options.from + (options.to - options.from) * static_cast<int>(k) / (options.steps - 1);
  };
  auto request = [&](double v) {
    TrimRequest r;
    r.speed = v * to_si;
    r.altitude = options.altitude;
    r.gamma = options.gamma;
    return r;
  };
  // Every speed trimmed first: one without a trim is an error before any output.
  core::ParallelFor(n, options.threads, [&](std::size_t k) {
    try {
      Trim(aircraft, request(grid(k)));
    } catch (const TrimError& e) {
      throw TrimError(fmt::format("at trim speed {:g}: {}", grid(k), e.what()));
    }
  });
  // Both axes' A of the linearization at v (the lateral block without ψ).
  auto matrices_at = [&](double v, Eigen::MatrixXd& lon, Eigen::MatrixXd& lat) {
    const model::AircraftData linear = Linearize(aircraft, request(v)).aircraft;
    lon = model::BuildLongitudinal(linear).A();
    lat = model::BuildLateral(linear).A().topLeftCorner(4, 4);
    return linear.condition.U0;
  };
  SweptAxes axes;
  axes.at = [&](double v, SmallMatrix& lon_A, SmallMatrix& lon_dA, SmallMatrix& lat_A, SmallMatrix& lat_dA) {
    Eigen::MatrixXd lon, lat, lon_up, lat_up, lon_down, lat_down;
    const double speed = matrices_at(v, lon, lat);
    const double h = kTrimSpeedStep * v;
    matrices_at(v + h, lon_up, lat_up);
    matrices_at(v - h, lon_down, lat_down);
    lon_A = lon;
    lat_A = lat;
    lon_dA = (lon_up - lon_down) / (2 * h);
    lat_dA = (lat_up - lat_down) / (2 * h);
    return speed;
  };
  FixedAxis lon_fixed, lat_fixed;  // both axes move with the speed: none is fixed
  const model::AircraftData first = Linearize(aircraft, request(grid(0))).aircraft;
  return Track("trim speed", n, grid, options.threads,
               analysis::AnalyzeLongitudinal(model::BuildLongitudinal(first), first.condition.U0),
               analysis::AnalyzeLateral(model::BuildLateral(first)), axes, lon_fixed, lat_fixed, take, {});
}

}  // namespace

TrackedStudy SweepTrimSpeed(const model::AircraftData& aircraft, const TrimSpeedSweepOptions& options,
                            const PointSink& sink) {
  return SweepTrimSpeedTaking(aircraft, options, Handing(sink));
}

TrackedStudy SweepTrimSpeed(const model::AircraftData& aircraft, const TrimSpeedSweepOptions& options) {
  std::vector<TrackedPoint> points;
  TrackedStudy study = SweepTrimSpeedTaking(aircraft, options, Keeping(points));
  study.points = std::move(points);
  return study;
}

}  // namespace aerolin::study
