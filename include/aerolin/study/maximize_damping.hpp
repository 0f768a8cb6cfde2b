#pragma once
/// @file
/// The gain of a root locus that maximizes the damping ratio ζ of one mode:
/// the best of the locus's listed gains, then a 1-D maximization (Brent's
/// method) between that gain's neighbours, where every evaluation follows the
/// mode by the locus's own continuation (from the best listed gain to K), so
/// the root maximized is the one the locus calls that mode.

#include <complex>
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

}  // namespace aerolin::study
