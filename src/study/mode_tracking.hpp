#pragma once
// Mode tracking for sweeps and loci, internal to module study: the roots of a
// matrix family, continued from the named modes of its first point
// (analysis/tracking.hpp), named at every point as `aerolin modes` would,
// with the points where a mode changes structure. Sweep (sweep.cpp) and
// Locus (locus.cpp) build the families and the first point's names.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>
#include <boost/container/static_vector.hpp>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/analysis/tracking.hpp"
#include "aerolin/study/tracked.hpp"

namespace aerolin::study::tracking {

// Receives a study's points in order, a chunk at a time, as PointSink does,
// and may move from them: the study keeps none of them after the call (a
// study that returns its points takes them without copying their names).
using PointTaker = std::function<void(std::span<TrackedPoint>)>;
// The points handed to `sink` (which sees them read-only).
PointTaker Handing(const PointSink& sink);
// The points moved to the end of `points`.
PointTaker Keeping(std::vector<TrackedPoint>& points);

// What `aerolin modes` calls one root (or pair) of one point: a name spelt
// once per process (analysis::FullName, or kWashoutFilterName).
struct PointwiseName {
  std::complex<double> lambda;
  const std::string* name;
};
// One point's, at most one per root (in place: a sweep spells one per point
// and axis).
using PointwiseNames = boost::container::static_vector<PointwiseName, analysis::kMaxSmallStates>;

extern const std::string kWashoutFilterName;  // "washout filter"

// The names analysis::NameLongitudinalRoots / NameLateralRoots give, spelt.
PointwiseNames Spelled(const std::vector<analysis::RootName>& names);

// A root at the first point that no named mode claims (a washout filter's,
// ψ's when it is fed back): its name and, when known, where it is (the
// root nearest takes the name; else the first root left, in label order).
struct ExtraRoot {
  std::string name;
  std::optional<std::complex<double>> near = std::nullopt;
};

// A mode at the first point: its name and the root labels it owns.
struct Group {
  std::string base;  // "short period", "washout filter"
  std::optional<analysis::ModeKind> kind;
  std::vector<int> labels;
};

// Each group's structure at one point: which groups its roots pair with (see
// mode_tracking.cpp); two points' structures of a group are equal when these are.
// (One entry per group: at most one group per root; in place, as above.)
using Signature = boost::container::static_vector<std::uint64_t, analysis::kMaxSmallStates>;

// One axis of a study: the continuation of its roots from every grid point's
// roots (`sets`) and the groups (named modes) of the first point.
struct AxisPlan {
  analysis::Continuation c;
  std::vector<Group> groups;
  model::Axis axis;
  // The same roots at every point (ChunkedAxis::NextHeld): c.roots holds
  // them once.
  bool held = false;
  // The roots at point k, in label order.
  const analysis::SmallVectorC& roots(std::size_t k) const { return c.roots[held ? 0 : k]; }
};

// Appends the axis' tracked modes at point k to `out`, each with what
// `aerolin modes` calls it there where that differs (`pointwise[k]`;
// pointwise empty, or an empty entry: none), then the `fixed` modes.
void NameAxisPoint(const AxisPlan& plan, std::size_t k, const std::vector<PointwiseNames>& pointwise,
                   const std::vector<TrackedMode>& fixed, std::vector<TrackedMode>& out,
                   Signature& signature);

// True if the axis' naming at point k is its naming at point `a`: the same
// labelled roots and pointwise names, bit for bit (NameAxisPoint is a
// function of these alone), as an axis the parameter does not enter has at
// every point.
bool NamedAlike(const AxisPlan& plan, const std::vector<PointwiseNames>& pointwise, std::size_t a, std::size_t k);

// A structure change of one axis between grid values `from` and `to`
// (consecutive points), its value not yet located.
struct PendingChange {
  double from = 0.0, to = 0.0;
  StructureChange change;
};

// Where a group's signature differs between consecutive points of one axis:
// the change with the names of the groups that changed, before and after.
// `modes_at(k)` gives the axis' modes at point k.
std::vector<PendingChange> StepsOf(const AxisPlan& plan, const std::vector<Signature>& signatures,
                                   const std::function<std::span<const TrackedMode>(std::size_t)>& modes_at);

// The change's value: where the number of complex pairs of the axis' A
// changes between from and to, by bisection.
void Locate(const analysis::MatrixFamily& family, PendingChange& pending);

// The structure changes of one axis: StepsOf, each located (in parallel:
// each is independent).
std::vector<StructureChange> ChangesOf(
    const AxisPlan& plan, const analysis::MatrixFamily& family, const std::vector<Signature>& signatures,
    const std::function<std::span<const TrackedMode>(std::size_t)>& modes_at, int threads);

// One axis of a study continued chunk by chunk (a sweep hands its points over
// as they are finished): each chunk's roots are continued from the last point
// of the one before, put back in label order, so the labels, refinements and
// structure changes are those of one continuation over the whole grid
// (analysis::Continue matches every step in label order).
class ChunkedAxis {
 public:
  // `extra`: the labels the named modes do not claim, in order (the washout
  // filters).
  ChunkedAxis(std::vector<analysis::Mode> named_at_start, model::Axis axis, std::vector<ExtraRoot> extra = {})
      : named_(std::move(named_at_start)), extra_(std::move(extra)), axis_(axis) {}
  // Continues the next grid points' roots (in grid order) in `sets`, the
  // caller's buffer: when boundary(), sets[0] is a free slot, where the
  // previous chunk's last point goes (the plan's point 0), and the next grid
  // points follow. A sweep keeps this buffer from chunk to chunk (a locus one
  // per half): allocating and freeing ~0.7 MB per chunk made glibc map or
  // trim the pages again each time, and page faults ruled a sweep's wall time
  // (docs/performance.md).
  AxisPlan Next(const analysis::MatrixFamily& family, std::span<analysis::RootSet> sets, int threads);
  // The plan Next gives a chunk whose every point has the roots `held` (bit
  // for bit: an axis the parameter does not enter), at grid values
  // `params`, without reading a set per point (a sweep's other axis: its
  // sets, written on every thread, cost more to read back than to name);
  // its roots are held once (AxisPlan::held).
  // Next's continuation keeps such roots in their labels at every step when
  // it keeps them over one step from `held` to itself (the step's match
  // depends on the set alone, the slopes being 0), which is checked once
  // (`held` and `family` are the same at every call: one axis's first point);
  // nullopt when it does not, or when the chunk before ended on other
  // roots: call Next then.
  std::optional<AxisPlan> NextHeld(const analysis::MatrixFamily& family, const analysis::RootSet& held,
                                   std::span<const double> params);
  bool boundary() const { return last_.has_value(); }
  int refinements() const { return refinements_; }

 private:
  std::vector<analysis::Mode> named_;
  std::vector<ExtraRoot> extra_;
  model::Axis axis_;
  std::vector<Group> groups_;
  std::optional<analysis::RootSet> last_;  // in label order
  int refinements_ = 0;
  std::optional<bool> held_keeps_labels_;  // NextHeld's one-step check, once
};

// One axis continued and named chunk by chunk (a locus hands its points over
// as they are finished): the tracked modes of each point, as one
// continuation over the whole grid gives them, and the structure changes,
// the step from the previous chunk's last point included. A copy taken
// between chunks resumes from there (a locus names its negative gains going
// back from a copy).
class ChunkedTrack {
 public:
  ChunkedTrack(std::vector<analysis::Mode> named_at_start, std::vector<ExtraRoot> extra, model::Axis axis,
               std::vector<TrackedMode> fixed)
      : axis_(std::move(named_at_start), axis, std::move(extra)), fixed_(std::move(fixed)) {}
  // Returns the modes of each of the next grid points (their roots in
  // `sets`, in grid order), each with what `aerolin modes` calls it where
  // `pointwise` (empty, or one entry per point) says otherwise, then the
  // fixed modes. `sets` is the caller's buffer, kept from chunk to chunk (a
  // new ~0.8 MB block a chunk can be mapped and faulted in each time: an
  // exact-size copy per chunk took 140 000 page faults and 45 % more time on
  // a 10⁵-gain locus): when boundary(), sets[0] is a free slot and the next
  // grid points follow.
  std::vector<std::vector<TrackedMode>> Next(const analysis::MatrixFamily& family, std::span<analysis::RootSet> sets,
                                             std::vector<PointwiseNames> pointwise, int threads);
  // True after the first chunk: the next plan starts from its last point.
  bool boundary() const { return axis_.boundary(); }
  const std::vector<StructureChange>& changes() const { return changes_; }
  int refinements() const { return axis_.refinements(); }

 private:
  ChunkedAxis axis_;
  std::vector<TrackedMode> fixed_;
  std::vector<StructureChange> changes_;
  std::vector<TrackedMode> previous_;  // the last point's modes
  Signature previous_signature_;
};

// A sweep or locus solves the eigenvalue problem in full at every
// kSolveRun-th point of a chunk (and wherever analysis::RefineRoots refuses);
// the points between are refined from the point before. A divisor of
// kSweepChunk, so a sweep's runs start at the same grid points whatever the
// chunk.
inline constexpr std::size_t kSolveRun = 32;
static_assert(kSweepChunk % kSolveRun == 0);

// Sets `out` to the roots of A (A and dA/dp at p): refined from `previous`,
// the roots at the grid point before (not `out`), where
// analysis::RefineRoots accepts, else (or with no `previous`) solved in full
// by analysis::AnalyzeRoots. In place: a sweep's sets are kept from chunk to
// chunk, and constructing one zeroes its 1.5 kB of complex storage.
void SolveNext(const analysis::RootSet* previous, const analysis::SmallMatrix& A, const analysis::SmallMatrix& dA,
               double p, analysis::RootSet& out);

// Calls `point(k, refine)` for k in [0, n) on `threads` threads, in runs of
// kSolveRun consecutive points, each run in order on one thread: `refine`
// is false at the first point of a run (solve it in full), true elsewhere
// (refine it from point k − 1, which that call has finished). A run starts
// at a multiple of kSolveRun, so every point's roots are the same whatever
// the threads.
void InRuns(std::size_t n, int threads, const std::function<void(std::size_t k, bool refine)>& point);

// The runs of InRuns over n points, and run r's points, in order on this
// thread (for a loop that shares its threads with other work).
inline std::size_t RunsOf(std::size_t n) { return (n + kSolveRun - 1) / kSolveRun; }
void InRun(std::size_t n, std::size_t r, const std::function<void(std::size_t k, bool refine)>& point);

// The roots of `family` at `params` (one chunk's grid points, in grid
// order), on `threads` threads: InRuns, each point by SolveNext from the
// point before where it refines.
std::vector<analysis::RootSet> SolveInRuns(const analysis::MatrixFamily& family, std::span<const double> params,
                                           int threads);
// As above into `sets` (params.size() of them).
void SolveInRuns(const analysis::MatrixFamily& family, std::span<const double> params, int threads,
                 std::span<analysis::RootSet> sets);

// The heading mode: ψ's root, 0 at every point.
TrackedMode HeadingMode();

// Adds the note on tracked vs pointwise names (where they differ) and sorts
// the changes in the direction of the study.
void AddNotes(TrackedStudy& study);
// As above for a study whose points were handed over: `names_differ` if a
// point had a pointwise name, `descending` if the values decrease.
void AddNotes(TrackedStudy& study, bool names_differ, bool descending);

}  // namespace aerolin::study::tracking
