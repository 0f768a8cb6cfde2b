#pragma once
/// @file
/// One live or scripted flight as the window drives it: the flight step of
/// `sim::Simulate` (sim::Flight) fed by the numpad pilot (live keys or a
/// script), the key recorder, the decimated path, the previous and newest
/// slice states for interpolation, and the incremental flight log. No SFML:
/// the window feeds it key sets, a test feeds it keys or a script.

#include <Eigen/Core>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/simulation_summary.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/pilot/pilot.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/gust_input.hpp"
#include "aerolin/sim/nonlinear_shadow.hpp"
#include "aerolin/sim/slicer.hpp"
#include "aerolin/sim/turbulence.hpp"
#include "aerolin/study/flight_setup.hpp"
#include "aerolin/study/rough_air.hpp"
#include "aerolin/viz/flight_log_writer.hpp"
#include "aerolin/viz/path_decimator.hpp"

namespace aerolin::viz {

/// The five excitations of keys 1–5.
enum class Excitation { kShortPeriod, kPhugoid, kDutchRoll, kRoll, kSpiral };
/// Returns "short-period", "phugoid", "dutch-roll", "roll", "spiral" (the
/// spelling of `aerolin simulate --excite`).
std::string ToString(Excitation e);
/// The five spellings of ToString, in key order 1–5.
const std::vector<std::string>& ExcitationNames();
/// Parses the spelling of ToString; nullopt otherwise.
std::optional<Excitation> ParseExcitation(const std::string& text);

/// What the session needs besides the aircraft.
struct SessionOptions {
  sim::SliceOptions slice;   ///< Δt and integrator, as `aerolin simulate`
  pilot::PilotSettings pilot;  ///< numpad rates and limits
  /// Fly this script (it must outlive the session) instead of live keys.
  const pilot::PilotScript* script = nullptr;
  /// Directory for the flight logs; empty: no log is written.
  std::string log_dir;
  /// Stem of the log files: <log_dir>/<stem>-<segment>.csv / .script.txt
  /// (CheckLogStem; when logs of this stem exist, the session logs under
  /// FreeLogStem's `<stem>_2`, `<stem>_3`, ... and never replaces them).
  std::string log_stem = "flight";
  std::string aircraft_path;  ///< only quoted in the replay hint
  double flush_interval = 1.0;  ///< [s] of wall time between log flushes
  /// Start the first segment on this mode instead of at trim.
  std::optional<Excitation> start_on;
  /// Excitation amplitude of the mode's reference state [m/s, rad or rad/s]
  /// (as `aerolin simulate --amplitude`); nullopt: sim::DefaultExcitationAmplitude.
  std::optional<double> amplitude;
  /// Fly the first segment in Dryden turbulence of this intensity.
  std::optional<sim::TurbulenceIntensity> turbulence;
  /// Height above ground for turbulence [m] (`--altitude`); nullopt:
  /// study::TurbulenceHeight's rule (the file's `[condition] altitude` when
  /// above 0, else study::kDefaultTurbulenceHeight).
  std::optional<double> turbulence_altitude;
  /// `--altitude` as the user typed it (file's length unit), quoted in the
  /// replay command; empty when the altitude comes from the file.
  std::string altitude_argument;
  /// Turbulence random seed (`aerolin simulate --seed`).
  std::uint64_t seed = study::kDefaultTurbulenceSeed;
  /// Start with the bare airframe: the file's `[augmentation]` off (the G
  /// key switches it on; `aerolin simulate --bare`).
  bool bare = false;
  /// Fly the nonlinear model beside the linear flight from the start (the N
  /// key; `aerolin-fly --nonlinear`).
  bool nonlinear = false;
};

class FlightSession {
 public:
  /// @throws std::invalid_argument as sim::Slicer / pilot::Pilot, or if the
  ///         aircraft lacks the `start_on` mode.
  /// @throws std::runtime_error if the log directory cannot be written.
  FlightSession(const model::AircraftData& aircraft, const SessionOptions& options);
  ~FlightSession();

  /// Sets the keys held over the next slice(s) of a live flight (ignored when
  /// the session flies a script).
  void Hold(pilot::KeySet keys);
  /// Flies one slice (sim::Flight::Step with the pilot's input), then records
  /// the keys held, the log row and the path.
  /// @throws core::NumericalError if the flight stopped (the integrator
  ///         failed or the state diverged; see sim::Flight::Step).
  void Step();
  /// Hold(keys), then Step().
  void Step(pilot::KeySet keys) {
    Hold(keys);
    Step();
  }

  /// Starts a new flight (and log segment) at trim.
  void ResetToTrim();
  /// Switches turbulence to `intensity` (nullopt: off) and starts a new
  /// flight (and log segment) at trim, as `aerolin simulate --turbulence`
  /// flies it (same seed: the same gusts), at turbulence_height().
  void SetTurbulence(std::optional<sim::TurbulenceIntensity> intensity);
  std::optional<sim::TurbulenceIntensity> turbulence() const { return turbulence_; }
  /// Height above ground turbulence is flown at [m] and where it came from
  /// (study::TurbulenceHeight of the session's `turbulence_altitude`).
  const study::TurbulenceHeightChoice& turbulence_height() const { return turbulence_height_; }
  /// The Dryden generator flying now, or nullptr with turbulence off.
  const sim::DrydenTurbulence* dryden() const { return prepared_->turbulence(); }
  /// The gusts held over the last slice flown: u_g, v_g, w_g [m/s], p_g
  /// [rad/s] (zeros with turbulence off or before the first slice).
  Eigen::Vector4d wind() const;
  /// The rough-air statistics of the turbulence flying now, exactly
  /// (study::ExactRoughAirStatistics at the session's Δt and height, as
  /// `aerolin rms` gives them); nullptr with turbulence off, and for an
  /// aircraft with a washout filter (the statistics carry the airframe only).
  const study::RoughAirStatistics* exact_rough_air() const { return exact_ ? &*exact_ : nullptr; }
  /// The running statistics of the current segment's rows (its t = 0 row
  /// and one per slice), as `aerolin simulate`'s summary accumulates them:
  /// rms(α, β, φ, ...) and rms_nz() with the gust of each row's slice.
  const exporting::FlightDigest& running_statistics() const { return *digest_; }
  /// True if the data file closes a feedback (`[augmentation]`): the G key
  /// has something to switch.
  bool augmentable() const { return model::IsAugmented(file_aircraft_); }
  /// True while the file's augmentation flies (false for the bare airframe
  /// and for a file without one).
  bool augmentation_on() const { return model::IsAugmented(aircraft_); }
  /// The aircraft as loaded, with its augmentation.
  const model::AircraftData& file_aircraft() const { return file_aircraft_; }
  /// Flies the file's augmentation (`on`) or the bare airframe: the modes are
  /// analysed again and a new flight (and log segment) starts as the current
  /// one did, at trim or on the mode it was excited on (the new model's mode
  /// shape; at trim when the new model has no such mode). Returns false, and
  /// changes nothing, if the file has no augmentation.
  bool SetAugmentation(bool on);
  /// Counts the changes of the flying aircraft's modes (SetAugmentation):
  /// the HUD grades its mode table again when it changes.
  int modes_generation() const { return modes_generation_; }

  /// Multiplies the amplitude of the next excitation (keys 1–5) by `factor`
  /// relative to the session's amplitude (or the default); clamped to
  /// [1/16, 16].
  void SetAmplitudeFactor(double factor);
  double amplitude_factor() const { return amplitude_factor_; }
  /// Amplitude of the mode's reference state the current segment started
  /// with [m/s, rad or rad/s], if it started on a mode.
  std::optional<double> excite_amplitude() const { return excite_amplitude_; }

  /// Starts a new flight (and log segment) on the mode; returns false, and
  /// changes nothing, if the aircraft has no such mode.
  bool Excite(Excitation e);

  /// Switches the nonlinear aircraft beside the linear one on or off (the N
  /// key). On: sim::NonlinearShadow flies the nonlinear model of aircraft()
  /// from the pilot's controls, one slice per slice flown, starting at the
  /// linear flight's current state (sim::NonlinearStateOf), so both coincide
  /// now; a new segment (R, 1–5, T, G) restarts it at the segment's start.
  /// Off drops it. While nonlinear_refusal() says why it cannot fly, the
  /// switch stays as asked but no shadow flies. Returns nonlinear_on().
  bool SetNonlinear(bool on);
  /// True while the switch is on (whether or not a shadow flies).
  bool nonlinear_wanted() const { return nonlinear_wanted_; }
  /// True while a nonlinear shadow flies (the switch on, not refused, not
  /// stopped).
  bool nonlinear_on() const { return shadow_.has_value(); }
  /// Why the nonlinear model cannot fly the current segment, or nullopt:
  /// turbulence (study::Validate's refusal of a windy nonlinear flight), or
  /// the file's augmentation flying closed loop (the nonlinear model is the
  /// bare airframe).
  std::optional<std::string> nonlinear_refusal() const;
  /// Why the nonlinear flight of this segment stopped (its integrator
  /// failed or its state diverged: it departed), with when, "integrator
  /// failed at t = T s: ..." or, e.g., "state
  /// diverged at t = 6.6 s: alpha0 + alpha reached 90 deg: body velocity
  /// undefined", or nullopt.
  const std::optional<std::string>& nonlinear_stopped() const { return nonlinear_stopped_; }
  /// The nonlinear flight's state in the linear state's form
  /// (sim::PerturbationOf) at the newest slice and the one before; only
  /// while nonlinear_on().
  const sim::FlightState& nonlinear_state() const { return nonlinear_state_; }
  const sim::FlightState& nonlinear_previous_state() const { return nonlinear_previous_; }
  /// The shadow flying (its partings and validity monitor), or nullptr.
  const sim::NonlinearShadow* shadow() const { return shadow_ ? &*shadow_ : nullptr; }
  /// The nonlinear model flown beside (of aircraft()), or nullptr.
  const sim::NonlinearModel* nonlinear_model() const {
    return nonlinear_model_ ? &*nonlinear_model_ : nullptr;
  }
  /// Flushes the log files if `flush_interval` has passed (or `force`).
  void MaybeFlush(bool force = false);

  const sim::FlightState& state() const { return flight_->state(); }
  const sim::FlightState& previous_state() const { return previous_; }
  double time() const { return flight_->time(); }
  long slice_index() const { return flight_->slice_index(); }
  double dt() const { return flight_->dt(); }
  const pilot::Pilot& pilot() const { return input_->pilot(); }
  const sim::FlightModel& model() const { return flight_->model(); }
  /// The actuators' positions at time() (sim::Slicer::auxiliary_state).
  sim::AuxiliaryState auxiliary_state() const { return flight_->slicer().auxiliary_state(); }
  const PathDecimator& path() const { return path_; }
  const std::vector<analysis::Mode>& modes() const { return modes_; }
  /// The aircraft flying: as loaded, or its bare airframe while the
  /// augmentation is off (its class and category colour the mode panel).
  const model::AircraftData& aircraft() const { return aircraft_; }
  /// Wall time of the last slice and running mean / max [s].
  double slice_cost_last() const { return 1e-6 * timing_.last_us; }
  double slice_cost_mean() const { return 1e-6 * timing_.mean_us(); }
  double slice_cost_max() const { return 1e-6 * timing_.max_us; }
  /// Paths of the current segment's log files (empty if not logging).
  std::string csv_path() const;
  std::string script_path() const;
  /// The command that replays the current segment with `aerolin simulate`.
  std::string ReplayCommand() const;
  /// Largest |φ|, |θ|, |ψ| [rad] (perturbations from trim) since the current
  /// segment started, its start state included: what the window's automatic
  /// attitude exaggeration (AutoAttitudeExaggeration) scales to.
  const Eigen::Vector3d& attitude_peak() const { return attitude_peak_; }
  /// One slice of the wing-tip trail: the aircraft's scene position [m] (true
  /// altitude) and its attitude perturbations φ, θ, ψ [rad].
  struct TrailPoint {
    Eigen::Vector3d position = Eigen::Vector3d::Zero();
    double phi = 0.0, theta = 0.0, psi = 0.0;
  };
  /// Seconds of flight the trail keeps.
  static constexpr double kTrailSeconds = 10.0;
  /// The current segment's last kTrailSeconds, one point per slice (and its
  /// start), oldest first: the window draws the wing tips' trail from it.
  const std::deque<TrailPoint>& trail() const { return trail_; }
  /// The nonlinear flight's trail, as trail() (empty while no shadow flies).
  const std::deque<TrailPoint>& nonlinear_trail() const { return nonlinear_trail_; }
  /// The excitation the current segment started with, if any.
  std::optional<Excitation> excitation() const { return excitation_; }

 private:
  /// Flushes the current log segment (its replay command as it was flown)
  /// and closes it; nothing without a log.
  void EndSegment();
  void StartSegment(const sim::FlightState& x0, std::optional<Excitation> e,
                    const sim::AuxiliaryState& aux0 = sim::AuxiliaryState::Zero());
  /// The state that starts on mode `e` and the `aerolin simulate --excite`
  /// spelling of the mode used, or nullopt if the aircraft lacks it.
  struct Start {
    sim::FlightState state;
    std::string spelling;  // `aerolin simulate --excite` spelling of the mode used
    double amplitude;      // of its reference state
    sim::AuxiliaryState auxiliary;  // the washout filters' start (a closed loop's mode), else 0
  };
  std::optional<Start> ExcitedState(Excitation e) const;
  /// Builds the flight (study::Prepare: the model and the gust input) for
  /// the current turbulence.
  void BuildFlight();
  /// The flight request of the session's current settings (Δt, turbulence).
  study::FlightSpec Spec() const;
  sim::InputSource& source() { return prepared_->input(); }

  model::AircraftData file_aircraft_;  // as loaded, with its [augmentation]
  model::AircraftData aircraft_;       // flying: file_aircraft_ or its bare airframe
  int modes_generation_ = 0;
  SessionOptions options_;
  std::optional<sim::Flight> flight_;           // rebuilt when turbulence changes
  std::unique_ptr<pilot::NumpadInput> input_;  // LiveKeys or ScriptedPilot
  std::optional<study::PreparedFlight> prepared_;  // the model and input_ + gusts
  std::optional<sim::TurbulenceIntensity> turbulence_;
  study::TurbulenceHeightChoice turbulence_height_;
  double amplitude_factor_ = 1.0;
  std::optional<double> excite_amplitude_;
  std::string amplitude_spelling_;  // --amplitude of the replay, or empty
  pilot::LiveKeys* live_ = nullptr;            // input_ when flying live
  analysis::ModalAnalysis analysis_;
  std::vector<analysis::Mode> modes_;  // longitudinal then lateral
  sim::FlightState previous_ = sim::FlightState::Zero();
  Eigen::Vector3d attitude_peak_ = Eigen::Vector3d::Zero();
  std::deque<TrailPoint> trail_;
  void AppendTrail(const sim::FlightState& x);
  static void AppendTrail(std::deque<TrailPoint>& trail, const sim::FlightState& x, double dt);
  /// Starts the nonlinear shadow at the linear flight's current state (when
  /// wanted and not refused), or drops it.
  void StartShadow();
  /// Records the linear flight's newest row into the shadow; stops it (and
  /// says why) if the nonlinear flight fails or diverges.
  void RecordShadow();
  class LastState;  // the recorder that keeps the shadow's newest row
  bool nonlinear_wanted_ = false;
  std::optional<sim::NonlinearModel> nonlinear_model_;  // of aircraft_
  std::unique_ptr<LastState> nonlinear_row_;
  std::optional<sim::NonlinearShadow> shadow_;
  std::optional<std::string> nonlinear_stopped_;
  sim::FlightState nonlinear_state_ = sim::FlightState::Zero();
  sim::FlightState nonlinear_previous_ = sim::FlightState::Zero();
  std::deque<TrailPoint> nonlinear_trail_;
  PathDecimator path_;
  std::unique_ptr<pilot::KeyRecorder> recorder_;
  std::unique_ptr<FlightLogWriter> log_;
  Eigen::VectorXd log_surfaces_;  // the log's surface columns of the row being written
  std::optional<Excitation> excitation_;
  std::string excite_spelling_;  // of the mode actually excited
  int segment_ = 0;
  std::chrono::steady_clock::time_point last_flush_;
  sim::SliceTiming timing_;
  std::optional<study::RoughAirStatistics> exact_;  // with turbulence on
  std::unique_ptr<exporting::FlightDigest> digest_;  // of the current segment
  Eigen::Vector4d digest_wind_ = Eigen::Vector4d::Zero();  // the gust of the row's slice
};

}  // namespace aerolin::viz
