#pragma once
/// @file
/// The gain of a root locus that maximizes the damping ratio ζ of one mode:
/// the best of the locus's listed gains, then a 1-D maximization (Brent's
/// method) between that gain's neighbours, where every evaluation follows the
/// mode by the locus's own continuation (from the best listed gain to K), so
/// the root maximized is the one the locus calls that mode.

#include <complex>
#include <span>
#include <utility>
#include <string>
#include <vector>

#include "aerolin/study/tracked.hpp"

namespace aerolin::study {

/// True if the tracked mode `m` is (part of) the mode `mode`, a display name
/// such as "dutch roll": its origin contains `mode` or its tracked name
/// starts with it (so "dutch roll (overdamped)" and "dutch roll + washout
/// filter (coupled)" are the Dutch roll, and "roll-spiral oscillation
/// (lateral phugoid)" is not the phugoid).
bool IsMode(const TrackedMode& m, const std::string& mode);

/// The best of the listed gains: the point and mode of largest ζ among the
/// modes IsMode accepts (the first such point on ties).
struct GridBest {
  bool found = false;
  std::size_t index = 0;  ///< into study.points
  double gain = 0;
  TrackedMode mode;       ///< the mode there (its name, λ, ωn, ζ)
};

/// Returns the listed gain of largest ζ of `mode` (found = false if no point
/// has such a mode).
GridBest BestListedGain(const TrackedStudy& study, const std::string& mode);

/// What MaximizeDamping concluded.
enum class DampingOptimumKind {
  kRefined,     ///< an interior maximum, refined between the best gain's neighbours
  /// ζ rises to 1 where the pair becomes two real roots between the best
  /// gain and a neighbour; `gain` is that split, located by bisection
  kBecomesReal,
  kAtRangeEnd,  ///< the best listed gain is the first or last: ζ may rise beyond it
  kOverdamped,  ///< the best listed gain's mode is a real root (ζ = 1): nothing to refine
  kReal,        ///< the mode is a real root at every listed gain (ζ = ±1)
  kAbsent,      ///< no mode of that name in the locus
};

/// Options of MaximizeDamping.
struct MaximizeOptions {
  /// Brent's tolerance on K, relative to |K| (plus a quarter of it absolute);
  /// at most 2⁻²⁵ (the square root of double precision is all a maximum of a
  /// smooth function can be located to).
  double relative_tolerance = 1e-6;
  int max_evaluations = 100;
};

/// The result of MaximizeDamping.
struct DampingOptimum {
  DampingOptimumKind kind = DampingOptimumKind::kAbsent;
  std::string mode;  ///< the requested display name
  GridBest grid;     ///< the best listed gain (found = false when kAbsent)
  /// kRefined, kBecomesReal: the gain [the locus's gain unit] and the mode's
  /// root there (kBecomesReal: the double root where the pair splits, ζ = 1);
  /// otherwise the best listed gain's.
  double gain = 0;
  std::complex<double> lambda;  ///< eigenvalue [1/s] (Im ≥ 0 member)
  double wn = 0;                ///< |λ| [rad/s]
  double zeta = 0;              ///< −Re λ/|λ|
  std::string name;             ///< kRefined: the locus's name of that root at `gain`; otherwise the best listed gain's
  /// kRefined, kBecomesReal: the interval searched (the best gain's neighbours).
  double bracket_low = 0, bracket_high = 0;
  int evaluations = 0;            ///< kRefined, kBecomesReal: tracked evaluations of ζ(K) by Brent
  double relative_tolerance = 0;  ///< kRefined, kBecomesReal: the tolerance used
  /// kOverdamped: the first and last listed gains of the run of gains around
  /// the best where the mode's ζ is 1 too.
  double overdamped_from = 0, overdamped_to = 0;
  /// Listed gains, other than the best, where ζ has a local maximum (ζ above
  /// both neighbours): the maximization refines the global one only.
  std::vector<double> other_local_maxima;
};

/// What MaximizeDamping needs of a locus's listed gains, gathered as the
/// points are handed over (the sink of a streamed Locus): the best listed
/// gain and its neighbours, the run of gains around it where ζ stays equal,
/// the other local maxima of ζ, and the largest |K|; nothing per point.
class DampingScan {
 public:
  /// `mode`: a display name, see IsMode.
  explicit DampingScan(std::string mode) : mode_(std::move(mode)) {}
  /// Takes the next points of the locus, in its order.
  void Add(std::span<const TrackedPoint> points);

  const std::string& mode() const { return mode_; }
  /// The best listed gain (BestListedGain of the points so far).
  const GridBest& best() const { return best_; }
  std::size_t size() const { return count_; }  ///< points taken
  bool oscillatory_somewhere() const { return oscillatory_; }
  /// Listed gains of the best's neighbours (valid when it has them).
  double before_best() const { return before_best_; }
  double after_best() const { return after_best_; }
  /// The first and last listed gains of the run of points, the best's
  /// among them, where the mode's ζ equals the best's.
  double run_from() const { return run_from_; }
  double run_to() const { return run_to_; }
  /// Listed gains, other than the best, where ζ is above both neighbours.
  std::vector<double> other_local_maxima() const;
  double largest_gain() const { return largest_; }  ///< max |K| (1e-12 at least)

 private:
  std::string mode_;
  GridBest best_;
  std::size_t count_ = 0;
  bool oscillatory_ = false;
  double before_best_ = 0, after_best_ = 0, run_from_ = 0, run_to_ = 0;
  // The last two points' ζ (NaN: the mode is not there) and gains, the run
  // of equal ζ ending at the last point, and the local maxima found.
  double zeta_[2] = {0, 0}, gain_[2] = {0, 0};
  double equal_since_ = 0;
  bool run_open_ = false;
  std::vector<std::pair<std::size_t, double>> maxima_;
  double largest_ = 1e-12;
};

/// Returns the gain of `locus` (made by Locus(aircraft, options)) that
/// maximizes ζ of `mode` (a display name, see IsMode). Each evaluation of
/// ζ(K) continues the roots of the closed loop (LocusFamily, ψ dropped as
/// Locus drops it) from the best listed gain K_b to K in steps no longer than
/// the locus's own continuation steps, and takes the root that continues the
/// mode's root at K_b. The result's name is the one Locus gives at the refined
/// gain.
/// @throws std::invalid_argument as Locus, or if the tolerance is not in
///         (0, 0.1]; core::NumericalError from the eigen-solver, or if the
///         continuation and Locus disagree on the mode's root at the refined
///         gain.
DampingOptimum MaximizeDamping(const model::AircraftData& aircraft, const LocusOptions& options,
                               const LocusResult& locus, const std::string& mode,
                               const MaximizeOptions& maximize = {});
/// As above from the scan of the locus's points (every point of
/// Locus(aircraft, options) added in order): a streamed locus need not keep
/// them. The refined gain is named by a streamed Locus that keeps the one
/// point it needs.
DampingOptimum MaximizeDamping(const model::AircraftData& aircraft, const LocusOptions& options,
                               const DampingScan& scan, const MaximizeOptions& maximize = {});

}  // namespace aerolin::study
