#pragma once
/// @file
/// Parameter sweeps and root loci whose modes are tracked by name: the roots
/// are followed by continuation (analysis/tracking.hpp) from the named modes
/// of the first point, so a root keeps its mode's name however it moves;
/// pairs that split into two real roots, and real roots that join into a
/// pair, are recorded with the parameter value where they do.

#include <complex>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/analysis/tracking.hpp"
#include "aerolin/model/as_written.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::study {

/// One tracked mode (a conjugate pair or one real root) at one point.
struct TrackedMode {
  std::string name;  ///< tracked full name, e.g. "short period (overdamped)"
  /// The mode it descends from at the first point, e.g. "short period";
  /// a stable key for a colour or a column across points.
  std::string origin;
  std::optional<analysis::ModeKind> kind;  ///< nullopt: the washout filter, or a coupled pair
  model::Axis axis = model::Axis::kLongitudinal;
  std::complex<double> lambda;  ///< eigenvalue [1/s] (Im > 0 member of a pair)
  bool oscillatory = false;
  double wn = 0;    ///< |λ| [rad/s]
  double zeta = 0;  ///< −Re λ/|λ| (±1 for a real root; 0 for the heading root λ = 0, as analysis::Mode)
  /// What `aerolin modes` calls this root at this point when it differs from
  /// `name` ("" when it agrees or when the point has no pointwise naming).
  std::string pointwise_name;
};

/// All tracked modes at one parameter value.
struct TrackedPoint {
  double value = 0;  ///< the parameter (key as written, or the gain)
  std::vector<TrackedMode> modes;
};

/// Where a mode changes structure (a pair splits into two real roots, or two
/// real roots join into a pair).
struct StructureChange {
  double value = 0;  ///< parameter value, located by bisection to 1e-9 of the step
  model::Axis axis = model::Axis::kLongitudinal;
  std::string from;  ///< name(s) before, e.g. "short period"
  std::string to;    ///< name(s) after, e.g. "short period (overdamped)"
};

/// A tracked sweep or locus.
struct TrackedStudy {
  std::string param;  ///< the key as written, or "gain"
  std::vector<TrackedPoint> points;
  std::vector<StructureChange> changes;
  int refinements = 0;  ///< continuation steps halved where a match was ambiguous
  /// Why tracked and pointwise names differ where they do (once per cause).
  std::vector<std::string> notes;
};

/// Options of Sweep.
struct SweepOptions {
  /// A numeric key the file gives, e.g. "longitudinal.Mq", or its last part
  /// alone ("Mq") when no other key of the file ends so (ResolveSweepKey).
  std::string param;
  double from = 0, to = 0;  ///< in the key's units as written
  int steps = 2;      ///< number of points, ≥ 2, from..to inclusive
  int threads = 0;    ///< 0: all cores
};

/// Returns the key of `file` that `param` names: the key written "section.key"
/// (as in the file), or a bare "key" that is the last part of exactly one of
/// the file's keys ("Ma" for longitudinal.Ma).
/// @throws std::invalid_argument if none matches (naming the section's keys
///         when the section exists) or a bare key ends several keys (naming
///         them all).
const model::WrittenKey& ResolveSweepKey(const model::AircraftFile& file, const std::string& param);

/// Returns the tracked modes of both axes at `steps` values of one key
/// (ResolveSweepKey; `param` of the result is the key as written in full).
/// A file with `[augmentation]` (file.longitudinal_augmentation,
/// lateral_augmentation) is swept as its closed loop A − B_K K with the gains
/// held: the robustness of a design to the key's error, and a control
/// derivative then enters A through B_K.
/// @throws std::invalid_argument if the key is not one `file` gives, does not
///         enter A (control derivatives, limits, informational keys such as
///         a dimensional file's altitude and mach, [mass] of a normalized
///         file; `file.omitted` lists keys left out with the reason), if a
///         value makes A non-finite (e.g. Zẇ = 1 of a normalized file), or
///         steps < 2; core::NumericalError from the eigen-solver.
TrackedStudy Sweep(const model::AircraftFile& file, const SweepOptions& options);

/// Receives a study's points in order, a chunk at a time, as they are finished.
using PointSink = std::function<void(std::span<const TrackedPoint>)>;

/// As above, handing the points to `sink` in order as they are finished (in
/// chunks of kSweepChunk) instead of keeping them: the returned study has no
/// points, and the memory used does not grow with `steps`. Every point's A is
/// checked before the first is handed over, so a value that has no A throws
/// before any output; core::NumericalError may come after some points.
TrackedStudy Sweep(const model::AircraftFile& file, const SweepOptions& options, const PointSink& sink);

/// Options of SweepTrimSpeed.
struct TrimSpeedSweepOptions {
  double from = 0, to = 0;  ///< airspeed V, in the unit `to_si` converts (the file's speed unit)
  double to_si = 1.0;       ///< m/s per unit of from and to
  int steps = 2;            ///< number of points, ≥ 2, from..to inclusive
  double altitude = 0.0;    ///< h [m] of every trim
  double gamma = 0.0;       ///< flight-path angle γ [rad] of every trim
  int threads = 0;          ///< 0: all cores
};
/// Relative step of the central difference that gives ∂A/∂V in a trim-speed
/// sweep: h = kTrimSpeedStep × V.
inline constexpr double kTrimSpeedStep = 1e-4;
/// Returns the tracked modes of both axes of the linearizations of
/// `aircraft`'s nonlinear model (study/linearize.hpp) trimmed at `steps`
/// airspeeds (straight flight at `altitude` and `gamma`): the modes against
/// the trim speed, each point what `aerolin linearize --speed V` then `aerolin
/// modes` gives. ∂A/∂V, which the continuation uses to predict a step, is a
/// central difference of two more linearizations (kTrimSpeedStep). `param`
/// of the result is "trim speed"; point values are in the unit of `from`.
/// Every speed is trimmed before the first point is handed to `sink`, so a
/// speed without a trim throws before any output.
/// @throws std::invalid_argument if `aircraft` is augmented, steps < 2, or a
///         bound is not a finite speed > 0; TrimError (naming the speed) if a
///         speed has no trim; core::NumericalError from the eigen-solver.
TrackedStudy SweepTrimSpeed(const model::AircraftData& aircraft, const TrimSpeedSweepOptions& options,
                            const PointSink& sink);
/// As above, keeping every point in the result.
TrackedStudy SweepTrimSpeed(const model::AircraftData& aircraft, const TrimSpeedSweepOptions& options);
/// Points a streamed Sweep solves, continues and names at a time.
inline constexpr int kSweepChunk = 512;

/// Options of Locus.
struct LocusOptions {
  std::string input;   ///< a control of the file, e.g. "rudder"
  std::string output;  ///< a state of that control's axis, e.g. "r"
  std::optional<double> washout_tau;  ///< τ [s] of s/(s + 1/τ) on the output
  std::vector<double> gains;          ///< K values to report (any order, any sign)
  int threads = 0;
};

/// A locus: the tracked closed-loop modes plus the loop's poles and zeros.
struct LocusResult {
  TrackedStudy study;   ///< param = "gain"; points in the order of `gains` (sorted)
  model::Axis axis = model::Axis::kLongitudinal;
  std::vector<std::complex<double>> open_loop_poles;  ///< eigenvalues at K = 0 (incl. washout)
  std::vector<std::complex<double>> zeros;            ///< finite zeros of y/δ (with washout)
  /// Unit of K: control unit per unit of the output, e.g. "rad/(rad/s)".
  std::string gain_unit;
};

/// Returns the root locus of δ_input = K·y_output (sign as given) closed on
/// the input's axis, through the washout filter if `washout_tau` is set
/// (its state x_w: ẋ_w = −x_w/τ + y, y_f = y − x_w/τ, δ = K·y_f).
/// Tracking starts at K = 0 from the named open-loop modes.
/// @throws std::invalid_argument if the control or state is unknown, the
///         control does not act on the state's axis, τ ≤ 0, or gains is empty.
LocusResult Locus(const model::AircraftData& aircraft, const LocusOptions& options);

/// Returns what Locus returns but its study: the axis, the gain unit, the
/// open-loop poles and the zeros of the loop.
/// @throws std::invalid_argument as Locus, on the loop (the gains are
///         Locus's to check).
LocusResult DescribeLocus(const model::AircraftData& aircraft, const LocusOptions& options);

/// As Locus, handing the points to `sink` in the order of the sorted gains,
/// at most kSweepChunk at a time, instead of keeping them: the returned study
/// (Locus's `study`) has no points, and the memory used does not grow with
/// the number of gains. The gains are checked before the first point is
/// handed over. The continuation runs outward from K = 0, so gains below 0
/// are continued twice but for the last chunk (to the most negative first,
/// keeping a copy of the continuation at each chunk, then back chunk by
/// chunk, naming the points): they cost more time than gains at or above 0
/// (1.2–1.4 times the instructions at 1 000–3 000 gains, P2V-7 pitch damper).
TrackedStudy Locus(const model::AircraftData& aircraft, const LocusOptions& options, const PointSink& sink);

/// Returns the closed-loop A of `Locus` at gain K (for tests and figures).
Eigen::MatrixXd ClosedLoopMatrix(const model::AircraftData& aircraft, const LocusOptions& options,
                                 double gain);

/// Returns the closed loop of `Locus` as the matrix family of K that Locus
/// continues: A(K) on the states it tracks (ψ dropped unless the loop feeds ψ
/// back) and dA/dK.
/// @throws std::invalid_argument as Locus.
analysis::MatrixFamily LocusFamily(const model::AircraftData& aircraft, const LocusOptions& options);

}  // namespace aerolin::study
