#pragma once
/// @file
/// The summary of a simulated flight, as text for people and as one JSON
/// object for programs.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/discrete_gust.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/turbulence.hpp"
#include "aerolin/sim/simulate.hpp"

namespace aerolin::exporting {

/// The Dryden turbulence a run flew through (SI).
struct TurbulenceDescription {
  sim::TurbulenceIntensity intensity = sim::TurbulenceIntensity::kModerate;
  double altitude = 0.0;                ///< height above ground h [m]
  std::uint64_t seed = 0;
  sim::DrydenParameters parameters;     ///< σ [m/s] and L [m]
  std::optional<double> sigma_p;        ///< [rad/s]; none without a span
  std::optional<double> span;           ///< wing span b [m]
};

/// The gusts of a run: turbulence and/or discrete gusts.
struct GustDescription {
  std::optional<TurbulenceDescription> turbulence;
  std::vector<sim::DiscreteGust> discrete;  ///< SI, as flown
};

/// What the run was, for the summary's header.
struct RunDescription {
  std::string aircraft;                ///< the aircraft's name
  std::optional<std::string> script;   ///< script path, if any
  std::optional<std::string> excite;   ///< excited mode (CLI spelling), if any
  std::optional<double> amplitude;     ///< excitation amplitude [ref. state unit]
  /// With gusts, the summary adds their description and the RMS of α, β, φ
  /// and, if the digest was given a LoadFactorRow, nz (without gusts, it is
  /// unchanged).
  std::optional<GustDescription> gusts;
  /// The text summary's speeds and lengths: m/s and m, or ft/s and ft
  /// (angles are in degrees either way; the JSON stays SI).
  core::UnitSystem units = core::UnitSystem::kSI;
};

/// The largest |value| of one state over a run, with its sign and time.
struct Excursion {
  std::string name;   ///< sim::FlightStateSignals() name
  core::Unit unit = core::Unit::kOne;  ///< the state's SI unit
  double value = 0;   ///< signed value at the largest |value|
  double time = 0;    ///< [s]
};

/// Returns the 12 states' largest excursions, in FlightStateIndex order.
std::vector<Excursion> MaxExcursions(const sim::FlightLog& log);

/// The normal load factor n_z [g] of one recorded row as a linear function
/// of that row: n_z = state·x + controls·δ + wind·d, with x the 12 flight
/// states (FlightStateIndex), δ the controls (data-file order, control units)
/// and d = (u_g, v_g, w_g, p_g) the wind [m/s, rad/s]. The coefficients are
/// the longitudinal model's output row (model/outputs.hpp):
/// @f[ n_z = \tfrac{U_0}{g}(q - \dot\alpha) - \sin\theta_0\,\theta,\quad
///     \dot\alpha = A_\alpha x + B_\alpha \delta + E_\alpha d, @f]
/// i.e. C_nz on (u, α, q, θ), D_nz on the longitudinal controls and
/// −(U0/g) E_α on the wind (E of model/gust.hpp). A perturbation from trim
/// (0 in trimmed flight), positive up.
struct LoadFactorRow {
  sim::FlightState state = sim::FlightState::Zero();  ///< [g per state unit]
  Eigen::VectorXd controls;  ///< [g per control unit], one per control
  Eigen::Vector4d wind = Eigen::Vector4d::Zero();  ///< [g per m/s or rad/s]
};

/// Returns the LoadFactorRow of `aircraft` (from model::BuildWithOutputs'
/// longitudinal n_z row and model::BuildGustInput's α row).
/// @throws std::invalid_argument as model::WithDerivedOutputs.
LoadFactorRow LoadFactorRowOf(const model::AircraftData& aircraft);

/// What a summary needs from the rows of a run, accumulated row by row in
/// memory independent of the run's length: the last row and each state's
/// largest excursion (the first row where |value| peaks). Record it during
/// a streaming sim::Simulate, or build it from a kept log with Of().
class FlightDigest final : public sim::FlightRecorder {
 public:
  FlightDigest();
  /// Returns the digest of every row of `log`.
  static FlightDigest Of(const sim::FlightLog& log);
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override;
  long rows() const { return rows_; }
  double final_time() const { return final_time_; }
  const sim::FlightState& final_state() const { return final_state_; }
  const Eigen::VectorXd& final_controls() const { return final_controls_; }
  /// The 12 states' largest excursions, in FlightStateIndex order.
  const std::vector<Excursion>& excursions() const { return excursions_; }
  /// The root mean square of state `i` over every row recorded (0 without rows).
  double rms(int i) const;
  /// From now on, also accumulates n_z = row(x, δ, d) at each Record, with
  /// d = `*wind` (zero if null): the caller keeps `*wind` at the wind held
  /// over the slice that ends at the recorded row, as for the CSV's u_g..p_g
  /// columns (FlightCsvRecorder). So each row's n_z uses the state at t and
  /// the controls and wind held during the slice ending at t (the left limit
  /// of α̇ at t; on the t = 0 row, the zero controls and wind before the
  /// first slice). Call before the first Record; `wind` must outlive this.
  /// (Record then throws std::invalid_argument if a row's controls are not
  /// as many as row.controls.)
  void TrackLoadFactor(LoadFactorRow row, const Eigen::Vector4d* wind = nullptr);
  /// The RMS of n_z [g] over every row recorded, if TrackLoadFactor was called.
  std::optional<double> rms_nz() const;

 private:
  long rows_ = 0;
  double final_time_ = 0.0;
  sim::FlightState final_state_ = sim::FlightState::Zero();
  Eigen::VectorXd final_controls_;
  std::vector<Excursion> excursions_;
  sim::FlightState sum_squares_ = sim::FlightState::Zero();
  std::optional<LoadFactorRow> nz_row_;
  const Eigen::Vector4d* nz_wind_ = nullptr;
  double nz_sum_squares_ = 0.0;
};

/// Returns the summary as the text of one JSON object (indented by 2, no
/// final newline) with keys: aircraft, script, excite, amplitude, duration_s,
/// dt_s, integrator, rtol, atol, slices, rk_steps, rk_rejected, slice_cost_us
/// ({mean, max} [µs] from `timing`, null without), final {t, state{...},
/// altitude_change_m, controls{...}}, max_excursions {name: {value, t}},
/// validity [{name, limit, peak, peak_t, exceeded, first_exceeded_t}],
/// valid, stopped (null or the message); with gusts (RunDescription::gusts)
/// also turbulence (null, or {intensity, altitude_m, seed, sigma_u, sigma_v,
/// sigma_w [m/s], L_u, L_v, L_w [m], sigma_p [rad/s] or null, span_m or
/// null}), gusts [{axis, amplitude_mps, length_m, t0_s}] and rms {alpha,
/// beta, phi [rad], nz [g] (null unless the digest tracked the load factor)}
/// over every row. SI units, radians; times as
/// SliceGridTime (on the --dt grid); no −0.
std::string SimulationSummaryJson(const sim::SimulationResult& result,
                                  const sim::SimulationOptions& options,
                                  const RunDescription& run,
                                  const sim::SliceTiming* timing = nullptr);
/// As above, for a streamed run: the rows' part comes from `digest` (the
/// result's log holds no rows). @pre digest.rows() > 0.
std::string SimulationSummaryJson(const sim::SimulationResult& result, const FlightDigest& digest,
                                  const sim::SimulationOptions& options,
                                  const RunDescription& run,
                                  const sim::SliceTiming* timing = nullptr);

/// Writes the summary as aligned text: run, final state and largest
/// magnitude |x| per state (angles in deg, rates in deg/s, speeds and lengths
/// in RunDescription::units), validity flags, solver steps, and with `timing`
/// the wall-clock cost per slice. Times on the --dt grid; no "-0".
void WriteSimulationSummary(std::ostream& out,
                            const sim::SimulationResult& result,
                            const sim::SimulationOptions& options,
                            const RunDescription& run,
                            const sim::SliceTiming* timing = nullptr);
/// As above, for a streamed run (see the JSON overload).
void WriteSimulationSummary(std::ostream& out, const sim::SimulationResult& result,
                            const FlightDigest& digest, const sim::SimulationOptions& options,
                            const RunDescription& run,
                            const sim::SliceTiming* timing = nullptr);

}  // namespace aerolin::exporting
