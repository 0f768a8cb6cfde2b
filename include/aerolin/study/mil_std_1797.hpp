#pragma once
/// @file
/// MIL-STD-1797A (Notice 3) criteria for augmented aircraft, computed through
/// the command path (model/actuators.hpp: first-order actuators and a pure
/// delay) and the file's [augmentation]:
///
/// - pitch-attitude bandwidth ω_BW and phase delay τp from the nose-up
///   θ/δe (bank-angle ones from the right-roll φ/δa), with the delay
///   evaluated exactly as e^{−jωτ};
/// - Gibson's dropback DB/q_ss and pitch-rate overshoot q_pk/q_ss from a
///   simulated step-and-hold of the pitch command;
/// - CAP with n/α = (U0/g)(1/Tθ2), 1/Tθ2 the higher zero of θ/δe.
///
/// Which boundaries are graded (the sources are cited in docs/qualities.md):
/// CAP against the bands `aerolin qualities`
/// uses (analysis::RequirementLimits); the dropback region of Gibson's
/// criterion as two independent course scripts read it [V, secondary];
/// the bandwidth and roll boundaries are not verified in any retrieved
/// source, so ω_BW and τp are computed and not graded.
///
/// The command path is in series with the aircraft: pilot command → delay →
/// actuator → airframe (closed by its [augmentation], an ideal full-state
/// feedback as `aerolin augment` designed it). The linear criteria use the
/// unsaturated actuator; the dropback simulation applies its limits.

#include <Eigen/Core>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/transfer_function.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/actuators.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::study {

/// G(jω) evaluated exactly: a rational part (a factored transfer function)
/// times first-order lags 1/(τ s + 1) times e^{−jωτ_d}.
struct ExactResponse {
  analysis::TransferFunction rational;
  std::vector<double> lags;  ///< lag time constants [s], each > 0
  double delay = 0.0;        ///< τ_d [s], ≥ 0

  /// Returns G(jω) [output/input].
  std::complex<double> Value(double omega) const;
  /// Returns the continuous (unwrapped) phase of G(jω) [rad]: the factored
  /// form's (analysis::ContinuousPhase) − Σ atan(ωτ) − ωτ_d.
  double Phase(double omega) const;
};

/// Frequencies the bandwidth search scans [rad/s], and its grid density.
inline constexpr double kBandwidthOmegaMin = 1e-3;
inline constexpr double kBandwidthOmegaMax = 1e4;
/// Points per decade of the scan that brackets each crossing before it is
/// refined by bisection to full precision (a crossing pair closer than
/// ~0.6 % in frequency could be missed).
inline constexpr int kBandwidthPointsPerDecade = 400;

/// Bandwidth and phase delay of one attitude response (MIL-STD-1797A 4.2.1.2
/// guidance; Regan's BandwidthEst.m for the definition).
struct BandwidthResult {
  std::optional<double> omega_180;    ///< lowest ω with phase −180° [rad/s]
  std::optional<double> omega_phase;  ///< lowest ω with phase −135° [rad/s]
  /// Lowest ω ≤ ω180 at which |G| falls to 6 dB above |G(jω180)| [rad/s].
  std::optional<double> omega_gain;
  std::optional<double> bandwidth;    ///< ω_BW, the lesser of the two [rad/s]
  bool gain_limited = false;          ///< ω_BW is the gain one
  /// τp = −(Φ(2ω180) + π)/(2ω180) [s], Φ the unwrapped phase [rad].
  std::optional<double> phase_delay;
  std::string note;  ///< why something is missing ("" if nothing is)
};

/// Returns the bandwidth and phase delay of `g`, each crossing bracketed on a
/// log grid over [kBandwidthOmegaMin, kBandwidthOmegaMax] and refined by
/// bisection on the exact response. Without a −180° crossing, ω180, ω_gain
/// and τp are absent and `note` says why ("no −180° crossing: add an
/// actuator or delay" when `g` has neither).
BandwidthResult ComputeBandwidth(const ExactResponse& g);

/// A short-term pitch model for the dropback: ẋ = A x + b δ, q = c_q x
/// [rad/s], θ = ∫q; δ positive nose-up.
struct PitchModel {
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
  Eigen::RowVectorXd c_q;
};

/// The default nose-up step of the dropback test [deg] (every front end's).
inline constexpr double kDefaultDropbackStepDeg = 1.0;

/// How the step-and-hold is flown.
struct DropbackOptions {
  /// Nose-up command step [rad]; its size matters only when an actuator
  /// limit is reached.
  double command = kDefaultDropbackStepDeg * core::kDegToRad;
  /// Held until every state is within this fraction of its steady value;
  /// then released (and after release, flown until within it of rest).
  double steady_tolerance = 1e-7;
  double dt = 0.005;           ///< history sampling [s]
  double max_duration = 120.0; ///< longest hold (and after-release run) [s]
};

/// Where (DB/q_ss, q_pk/q_ss) lies against Gibson's satisfactory region.
enum class DropbackRegion {
  kSatisfactory,  ///< 0 ≤ DB/q_ss, 1 ≤ q_pk/q_ss ≤ 3, left of the line
  kBoundary,      ///< between the two readings of the line's upper end
  kSluggish,      ///< DB/q_ss < 0
  kAbrupt,        ///< right of the line: "abrupt, bobble tendency"
  kBobbling,      ///< q_pk/q_ss > 3: "continuous bobbling"
};
/// Returns "satisfactory", "on the boundary ...", "sluggish", ...
std::string ToString(DropbackRegion region);

/// The line from (DB/q_ss, q_pk/q_ss) = (0.3 s, 1.0) to (x, 3.0), with x read
/// as 0.055 s by one script and 0.06 s by the other [V, secondary].
inline constexpr double kDropbackLineBase = 0.3;
inline constexpr double kDropbackLineTopLow = 0.055;
inline constexpr double kDropbackLineTopHigh = 0.06;
inline constexpr double kDropbackMaxOvershoot = 3.0;

/// Returns the region of (`dropback_ratio` [s], `overshoot` [-]).
DropbackRegion ClassifyDropback(double dropback_ratio, double overshoot);

/// Gibson's dropback and pitch-rate overshoot from the simulated history.
struct DropbackResult {
  double q_ss = 0.0;        ///< pitch rate at release [rad/s]
  double q_peak = 0.0;      ///< largest pitch rate during the hold [rad/s]
  double overshoot = 0.0;   ///< q_pk/q_ss [-]
  double hold_time = 0.0;   ///< command held [s]
  /// θ's peak after release minus its final value (θ(release) − final when
  /// θ does not rise above its final value after release) [rad].
  double dropback = 0.0;
  double dropback_ratio = 0.0;   ///< DB/q_ss [s]
  /// (θ(release) − θ_final)/q_ss [s]: Tθ2 − 2ζ/ω for a second-order q/δ.
  double release_ratio = 0.0;
  bool limited = false;          ///< an actuator position or rate limit was reached
  DropbackRegion region = DropbackRegion::kSatisfactory;
  /// The history (for a chart): time from the pilot's step [s] (the delay
  /// shifts it exactly), q [rad/s], θ [rad].
  std::vector<double> time, q, theta;
};

/// Flies a step-and-hold of `options.command` through `actuator` (limits
/// applied exactly: a rate-limited ramp, then the first-order lag) and the
/// delay `delay` [s] (an exact shift), each piece propagated exactly by a
/// matrix exponential; releases when steady. The delay shifts the history
/// and changes neither ratio.
/// @throws std::invalid_argument if the model is not stable, q_ss is not
///         positive, or it does not settle within options.max_duration.
DropbackResult ComputeDropback(const PitchModel& model, const std::optional<model::Actuator>& actuator,
                               double delay, const DropbackOptions& options = {});

/// CAP with n/α from 1/Tθ2, graded with `aerolin qualities`' CAP bands.
struct CapTheta2 {
  double inverse_t_theta2 = 0.0;  ///< 1/Tθ2 [1/s], the higher real zero of θ/δe
  double n_alpha = 0.0;           ///< (U0/g)(1/Tθ2) [g/rad]
  double omega_sp = 0.0;          ///< short-period ωn [rad/s]
  double cap = 0.0;               ///< ωsp²/(n/α) [1/(s²·g)]
};

/// The criteria of one aircraft (bare or augmented).
struct MilStd1797Result {
  std::optional<BandwidthResult> pitch;  ///< nose-up θ/δe; absent: no elevator
  std::optional<BandwidthResult> roll;   ///< right-roll φ/δa; absent: no aileron
  std::optional<DropbackResult> dropback;
  std::string dropback_note;             ///< why no dropback ("" if computed)
  std::optional<CapTheta2> cap;
  std::string cap_note;                  ///< why no CAP from 1/Tθ2
  /// Nose-up sign of the elevator read from the model: sign of M_δe's
  /// column entry in q̇ (−1 for aerolin's trailing-edge-down-positive files).
  double elevator_sign = 0.0;
  double aileron_sign = 0.0;  ///< likewise for p's entry of the aileron
};

/// Returns the criteria of `aircraft` (closed by its [augmentation] if any)
/// through `path` (the actuators of "elevator" and "aileron" and the delay).
/// @throws core::NumericalError as the modal analysis.
MilStd1797Result AssessMilStd1797(const model::AircraftData& aircraft, const model::CommandPath& path,
                                  const DropbackOptions& dropback = {});

/// Returns `aircraft.command_path` overridden by command-line actuators
/// ("NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]]", NAME a control in radians) and
/// `delay` [s], through model::Override; `file` names the aircraft in messages.
/// @throws std::invalid_argument naming the bad spec, what is expected and
///         the file's control surfaces (or the model:: rule broken).
model::CommandPath ResolveCommandPath(const model::AircraftData& aircraft, const std::string& file,
                                      const std::vector<std::string>& actuators, std::optional<double> delay);

/// Returns the dropback step `step_deg` [deg] in radians.
/// @throws std::invalid_argument unless 0 < step_deg ≤ kMaxDropbackStepDeg.
double DropbackStep(double step_deg);
/// Largest dropback step accepted [deg]: beyond it the small-perturbation
/// model the step flies is meaningless.
inline constexpr double kMaxDropbackStepDeg = 30.0;

/// Returns the level of `cap` [1/(s²·g)] on the CAP bands `aerolin
/// qualities` grades with (analysis::RequirementLimits).
analysis::Level GradeCap(double cap, analysis::AircraftClass aircraft_class,
                         analysis::FlightPhaseCategory category);

}  // namespace aerolin::study
