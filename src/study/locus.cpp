// Locus: the root locus of one feedback loop, δ = K·y, its modes tracked
// outward from K = 0.
#include "aerolin/study/tracked.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>
#include <stdexcept>
#include <string>
#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/parallel.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/model/state_space.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/loops.hpp"
#include "mode_tracking.hpp"

namespace aerolin::study {
namespace {

using analysis::Mode;
using analysis::ModeKind;
using analysis::SmallMatrix;
using analysis::SmallVectorC;
using tracking::AddNotes;
using tracking::ChunkedTrack;
using tracking::HeadingMode;

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
  const model::StateSpace lon = model::BuildWithOutputs(aircraft, model::Axis::kLongitudinal);
  const model::StateSpace lat = model::BuildWithOutputs(aircraft, model::Axis::kLateral);
  const ResolvedLoop resolved = ResolveLoop(aircraft, lon, lat, {o.input, o.output, std::nullopt, o.washout_tau});
  const bool lon_axis = resolved.axis == model::Axis::kLongitudinal;
  // The file's washout filters on the axis are states of `sys` (model::
  // BuildAugmented), after the airframe's; the locus's own washout after them.
  const model::StateSpace* sys = lon_axis ? &lon : &lat;
  const int row = resolved.output_row, column = resolved.input_column;
  Loop loop;
  loop.axis = lon_axis ? model::Axis::kLongitudinal : model::Axis::kLateral;
  const int n = sys->num_states();
  const int m = n + (o.washout_tau ? 1 : 0);
  if (const int filters = model::FilterStates(aircraft, loop.axis) + (o.washout_tau ? 1 : 0);
      filters > model::kMaxWashoutsPerAxis)
    throw std::invalid_argument(fmt::format(
        "the locus's washout would be the {} axis's {}th filter (the file's augmentation washes out {} loops): "
        "at most {} per axis (the modes are followed on at most {} states); study the loop without its "
        "washout, or on a file with fewer washed-out loops",
        lon_axis ? "longitudinal" : "lateral", filters, filters - 1, model::kMaxWashoutsPerAxis,
        4 + model::kMaxWashoutsPerAxis));
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
  loop.gain_unit = resolved.gain_unit;
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

namespace {

// The continuation grid of one direction, from K = 0 outward to each
// requested gain (`targets`, in outward order), with steps no longer than
// `step` so the continuation is fine; made a chunk at a time, so the grid is
// never held whole. A copy resumes where the original was.
class OutwardGrid {
 public:
  // A grid point, and the index of the target it reports (or -1) and that
  // target's value (a gain of -0 is reported as given, at K = 0).
  struct Point {
    double K;
    std::ptrdiff_t target;
    double value;
  };
  OutwardGrid(std::span<const double> sorted_gains, bool reversed, double direction, double step)
      : gains_(sorted_gains), reversed_(reversed), direction_(direction), step_(step) {}
  bool done() const { return done_; }
  // Appends up to `max` next grid points to `out` (cleared first).
  void Next(std::size_t max, std::vector<Point>& out) {
    out.clear();
    while (out.size() < max && !done_) {
      if (emitted_ == 0) {
        // K = 0 starts the grid, and reports itself if it is a target.
        const bool zero = !gains_.empty() && Target(0) == 0.0;
        Emit(out, 0.0, zero ? 0 : -1, zero ? Target(0) : 0.0);
        if (zero) ++next_;
        continue;
      }
      if (next_ < gains_.size()) {
        const double K = Target(next_);
        if (std::abs(K - back_) > step_) {
          Emit(out, back_ + direction_ * step_, -1, 0.0);
        } else {
          Emit(out, K, static_cast<std::ptrdiff_t>(next_), K);
          ++next_;
        }
        continue;
      }
      if (emitted_ < 2) {
        Emit(out, direction_ * step_, -1, 0.0);  // a grid of one point (K = 0 alone) gets a step
        continue;
      }
      done_ = true;
    }
  }
  double Target(std::size_t i) const { return reversed_ ? gains_[gains_.size() - 1 - i] : gains_[i]; }

 private:
  void Emit(std::vector<Point>& out, double K, std::ptrdiff_t target, double value) {
    out.push_back({K, target, value});
    back_ = K;
    ++emitted_;
  }
  std::span<const double> gains_;
  bool reversed_;
  double direction_, step_;
  double back_ = 0.0;
  std::size_t next_ = 0, emitted_ = 0;
  bool done_ = false;
};

}  // namespace

LocusResult DescribeLocus(const model::AircraftData& aircraft, const LocusOptions& options) {
  const ClosedLoop closed(MakeLoop(aircraft, options));
  const Loop& loop = closed.loop;
  LocusResult result;
  result.axis = loop.axis;
  result.gain_unit = loop.gain_unit;
  result.study.param = "gain";
  SmallMatrix A0, dA0;
  closed(0.0, A0, dA0);
  const Eigen::VectorXcd poles =
      analysis::Decompose(Eigen::MatrixXd(A0), analysis::LeftVectors::kIfDiagonalizable).values;
  result.open_loop_poles.assign(poles.begin(), poles.end());
  if (closed.drop_psi) result.open_loop_poles.push_back(0.0);
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

namespace {

// Locus, handing each chunk's points to `take`.
TrackedStudy LocusTaking(const model::AircraftData& aircraft, const LocusOptions& options,
                         const tracking::PointTaker& take) {
  if (options.gains.empty()) throw std::invalid_argument("no gains given");
  const ClosedLoop closed(MakeLoop(aircraft, options));
  const Loop& loop = closed.loop;
  const bool drop_psi = closed.drop_psi;
  const analysis::MatrixFamily family = [&closed](double K, SmallMatrix& A, SmallMatrix& dA) {
    closed(K, A, dA);
  };
  // Open-loop names (K = 0): the aircraft's modes (its augmentation closed:
  // a washout filter on the other axis too), plus the washout root.
  const analysis::ModalAnalysis open = AnalyzeClosedLoop(aircraft);
  std::vector<Mode> tracked_named;
  for (const Mode& m : open.modes(loop.axis))
    if (m.kind != ModeKind::kHeading) tracked_named.push_back(m);
  // The file's washout filters on this axis start at their roots in the
  // file's closed loop, named as `aerolin modes` names them; then the
  // locus's own washout, at its pole −1/τ (K = 0 feeds it back nothing).
  const std::vector<analysis::FilterRoot> file_filters = open.filters_of(loop.axis);
  std::vector<tracking::ExtraRoot> extra;
  auto near = [&](std::complex<double> at) {
    return file_filters.empty() ? std::nullopt : std::optional<std::complex<double>>(at);
  };
  if (!drop_psi && loop.psi >= 0) extra.push_back({"heading", near(0.0)});
  for (const analysis::FilterRoot& f : file_filters) extra.push_back({analysis::FilterRootName(f.state), f.lambda});
  if (options.washout_tau) extra.push_back({"washout filter", near(-1.0 / *options.washout_tau)});
  // Reported points are the gains, sorted; the continuation runs from K = 0
  // outward to each, with at least 50 steps over the range.
  // (A list already sorted without repeats, as FROM:TO:N gives, is not copied.)
  std::vector<double> sorted;
  std::span<const double> gains = options.gains;
  if (!std::is_sorted(gains.begin(), gains.end()) ||
      std::adjacent_find(gains.begin(), gains.end()) != gains.end()) {
    sorted = options.gains;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    gains = sorted;
  }
  // A gain far outside the physical range (1e300, or with a washout of
  // 1e-300 s) overflows A(K): say so before anything is handed over, not "A
  // has a non-finite entry". Each half checks its gains in increasing order
  // before it is continued (below).
  auto check_finite = [&](std::span<const double> some) {
    SmallMatrix A, dA;
    for (double K : some) {
      closed(K, A, dA);
      if (!A.allFinite())
        throw std::invalid_argument(fmt::format(
            "at K = {:g} the closed-loop system matrix is not finite: the gain{} is far outside "
            "the physical range{}; give smaller gains",
            K, options.washout_tau ? fmt::format(" times the washout's 1/TAU = {:g} 1/s", 1.0 / *options.washout_tau) : "",
            loop.d != 0.0 ? fmt::format(" or makes 1 - K d vanish (d = {:g})", loop.d) : ""));
    }
  };
  const double span = std::max({std::abs(gains.front()), std::abs(gains.back()), 1e-12});
  const double step = span / 50.0;
  std::vector<TrackedMode> fixed;
  if (drop_psi) fixed.push_back(HeadingMode());
  // No point has pointwise names: `aerolin modes` names a closed loop's
  // modes by continuation from the open loop (study::NameClosedAxis), as the
  // locus follows them from K = 0, not from each point's shapes.
  // One chunk of grid points continued and named on `threads` threads;
  // `reported` receives the points of its targets in grid (outward) order.
  // Each half's roots go to its own buffer, kept from chunk to chunk (the
  // halves' first chunks are solved side by side), with a free slot in
  // front after a first chunk (ChunkedTrack::Next), and by the thread for
  // its next locus: ~0.8 MB each, allocated per locus, glibc mapped them and
  // unmapped them again, and a 1000-gain locus's page faults cost 11 % of its
  // one-thread time (`BM_Locus1000/1` 1.61 -> 1.81 ms, as the sweep's
  // buffers, sweep.cpp).
  thread_local std::array<std::vector<analysis::RootSet>, 2> kept_sets;
  std::vector<analysis::RootSet> below_sets = std::move(kept_sets[0]), above_sets = std::move(kept_sets[1]);
  auto run_chunk = [&](ChunkedTrack& track, std::vector<analysis::RootSet>& sets,
                       const std::vector<OutwardGrid::Point>& chunk, int threads, std::vector<TrackedPoint>& reported) {
    std::vector<double> gains_of_chunk(chunk.size());
    for (std::size_t k = 0; k < chunk.size(); ++k) gains_of_chunk[k] = chunk[k].K;
    const std::size_t b = track.boundary() ? 1 : 0;
    // Room for the slot from the start: a full chunk's buffer, grown by one
    // at the first boundary, would double (+0.8 MB).
    if (sets.capacity() < b + chunk.size()) sets.reserve(chunk.size() + 1);
    sets.resize(b + chunk.size());
    tracking::SolveInRuns(family, gains_of_chunk, threads, std::span<analysis::RootSet>(sets).subspan(b));
    std::vector<std::vector<TrackedMode>> modes = track.Next(family, std::span<analysis::RootSet>(sets), {}, threads);
    reported.clear();
    for (std::size_t k = 0; k < chunk.size(); ++k)
      if (chunk[k].target >= 0) reported.push_back({chunk[k].value, std::move(modes[k])});
  };
  TrackedStudy study;
  study.param = "gain";
  auto hand_over = [&](std::span<TrackedPoint> points) {
    if (!points.empty()) take(points);
  };
  const std::size_t negatives = static_cast<std::size_t>(
      std::lower_bound(gains.begin(), gains.end(), 0.0) - gains.begin());
  const std::span<const double> below = gains.first(negatives);
  const std::span<const double> above = gains.subspan(negatives);
  // The two halves are continued from K = 0 independently (a chunk's result
  // depends on its tracker and grid alone), so the K > 0 half's first chunk
  // is computed beside the K < 0 half's first pass, each on its share of the
  // threads, and kept until its turn: the points are still handed over in
  // order, and a failure of that chunk is raised there, after the K < 0
  // points, as when it ran in turn. (A range across K = 0, as -2:2, thus
  // runs its halves side by side; a one-sided range gains nothing.)
  std::vector<OutwardGrid::Point> chunk;
  std::optional<OutwardGrid> above_grid;
  std::optional<ChunkedTrack> above_track;
  std::vector<OutwardGrid::Point> above_chunk;
  std::vector<TrackedPoint> above_first;
  std::exception_ptr above_failure;
  bool above_first_done = false;
  if (!above.empty()) {
    above_grid.emplace(above, false, 1.0, step);
    above_track.emplace(tracked_named, extra, loop.axis, fixed);
    above_grid->Next(static_cast<std::size_t>(kSweepChunk), above_chunk);
  }
  const int all_threads = core::Threads(options.threads);
  // Only where the K < 0 half is one chunk: a longer first pass beside the
  // K > 0 half's first chunk gained little and grew the peak memory at the
  // gain cap (two threads' heaps: 16 -> 19 MB at 10^5 gains, over
  // LocusCommand.PeakRssOfTheCapIsThatOfAThousandGains' bound).
  const bool below_in_one_chunk = [&] {
    if (below.empty()) return false;
    OutwardGrid probe(below, true, -1.0, step);
    std::vector<OutwardGrid::Point> points;
    probe.Next(static_cast<std::size_t>(kSweepChunk), points);
    return probe.done();
  }();
  const bool side_by_side = below_in_one_chunk && !above.empty() && all_threads > 1;
  const int below_threads = side_by_side ? (all_threads + 1) / 2 : options.threads;
  const int above_threads = side_by_side ? all_threads / 2 : options.threads;
  auto first_above = [&] {
    try {
      run_chunk(*above_track, above_sets, above_chunk, above_threads, above_first);
    } catch (...) {
      above_failure = std::current_exception();
    }
    above_first_done = true;
  };
  // K < 0 first (the points are handed over sorted), continued from K = 0
  // outward: once to the end, keeping the tracker and the grid at the start
  // of each chunk, then chunk by chunk back from the end, each continued
  // again from its copy, its points handed over in reverse. The last chunk
  // (the grid ends within it) is named in the first pass and handed over
  // from there: continued again from its copy it would give the same points
  // (a chunk's result depends on the tracker at its start and its grid alone).
  std::optional<OutwardGrid> below_grid;
  std::optional<ChunkedTrack> below_track;
  std::vector<std::pair<ChunkedTrack, OutwardGrid>> starts;
  std::vector<TrackedPoint> last;  // the last chunk's points, named, when it was seen to be last
  std::exception_ptr below_failure;
  auto first_pass = [&] {
    try {
      below_grid.emplace(below, true, -1.0, step);
      below_track.emplace(tracked_named, extra, loop.axis, fixed);
      std::vector<TrackedPoint> reported;
      while (true) {
        starts.emplace_back(*below_track, *below_grid);
        below_grid->Next(static_cast<std::size_t>(kSweepChunk), chunk);
        if (chunk.empty()) {
          starts.pop_back();
          break;
        }
        const bool is_last = below_grid->done();
        run_chunk(*below_track, below_sets, chunk, below_threads, reported);
        if (is_last) {
          starts.pop_back();
          last = std::move(reported);
        }
      }
    } catch (...) {
      below_failure = std::current_exception();
    }
  };
  // Every gain is checked before any is continued, as the halves' failures
  // are raised in turn: the first non-finite gain in increasing order (the
  // K < 0 half's checked first), then the K < 0 half's failure, then the
  // K > 0 half's after the K < 0 points are handed over.
  if (side_by_side) {
    core::ParallelFor(2, 2, [&](std::size_t half) {
      if (half == 0) {
        check_finite(below);
        first_pass();
      } else {
        check_finite(above);
        first_above();
      }
    });
  } else {
    check_finite(gains);
    if (!below.empty()) first_pass();
  }
  if (below_failure) std::rethrow_exception(below_failure);
  if (!below.empty()) {
    study.changes.insert(study.changes.end(), below_track->changes().begin(), below_track->changes().end());
    study.refinements += below_track->refinements();
    std::reverse(last.begin(), last.end());
    hand_over(last);
    std::vector<TrackedPoint> reported;
    for (auto it = starts.rbegin(); it != starts.rend(); ++it) {
      it->second.Next(static_cast<std::size_t>(kSweepChunk), chunk);
      run_chunk(it->first, below_sets, chunk, options.threads, reported);
      std::reverse(reported.begin(), reported.end());
      hand_over(reported);
    }
  }
  if (!above.empty()) {
    std::vector<TrackedPoint> reported;
    if (!above_first_done) first_above();
    if (above_failure) std::rethrow_exception(above_failure);
    hand_over(above_first);
    for (above_grid->Next(static_cast<std::size_t>(kSweepChunk), chunk); !chunk.empty();
         above_grid->Next(static_cast<std::size_t>(kSweepChunk), chunk)) {
      run_chunk(*above_track, above_sets, chunk, options.threads, reported);
      hand_over(reported);
    }
    study.changes.insert(study.changes.end(), above_track->changes().begin(), above_track->changes().end());
    study.refinements += above_track->refinements();
  }
  AddNotes(study, false, false);
  kept_sets[0] = std::move(below_sets);
  kept_sets[1] = std::move(above_sets);
  return study;
}

}  // namespace

TrackedStudy Locus(const model::AircraftData& aircraft, const LocusOptions& options, const PointSink& sink) {
  return LocusTaking(aircraft, options, tracking::Handing(sink));
}

LocusResult Locus(const model::AircraftData& aircraft, const LocusOptions& options) {
  LocusResult result = DescribeLocus(aircraft, options);
  std::vector<TrackedPoint> points;
  result.study = LocusTaking(aircraft, options, tracking::Keeping(points));
  result.study.points = std::move(points);
  return result;
}

}  // namespace aerolin::study
