#pragma once
/// @file
/// One live or scripted flight as the window drives it: the engine's slicer,
/// numpad pilot and key recorder, the decimated path, the previous and newest
/// slice states for interpolation, and the incremental flight log. No SFML:
/// the window feeds it key sets, a test feeds it a script.

#include <Eigen/Core>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/pilot.hpp"
#include "aerolin/sim/pilot_script.hpp"
#include "aerolin/sim/slicer.hpp"
#include "aerolin/viz/flight_log_writer.hpp"
#include "aerolin/viz/path_decimator.hpp"

namespace aerolin::viz {

/// The five excitations of keys 1–5.
enum class Excitation { kShortPeriod, kPhugoid, kDutchRoll, kRoll, kSpiral };
/// Returns "short-period", "phugoid", "dutch-roll", "roll", "spiral" (the
/// spelling of `aerolin simulate --excite`).
std::string ToString(Excitation e);
/// Parses the spelling of ToString; nullopt otherwise.
std::optional<Excitation> ParseExcitation(const std::string& text);

/// What the session needs besides the aircraft.
struct SessionOptions {
  sim::SliceOptions slice;   ///< Δt and integrator, as `aerolin simulate`
  sim::PilotSettings pilot;  ///< numpad rates and limits
  /// Directory for the flight logs; empty: no log is written.
  std::string log_dir;
  /// Stem of the log files: <log_dir>/<stem>-<segment>.csv / .script.txt.
  std::string log_stem = "flight";
  std::string aircraft_path;  ///< only quoted in the replay hint
  double flush_interval = 1.0;  ///< [s] of wall time between log flushes
  /// Start the first segment on this mode instead of at trim.
  std::optional<Excitation> start_on;
};

class FlightSession {
 public:
  /// @throws std::invalid_argument as sim::Slicer / sim::Pilot.
  /// @throws std::runtime_error if the log directory cannot be written.
  FlightSession(const model::AircraftData& aircraft, const SessionOptions& options);
  ~FlightSession();

  /// Flies one slice with `keys` held (and `overrides` from a script's `set`
  /// lines): pilot → controls → slicer, then records keys, log row and path.
  /// @throws core::NumericalError as sim::Slicer::Advance.
  void Step(sim::KeySet keys, std::span<const sim::ControlOverride> overrides = {});
  /// Flies slice k of `script` (k = slice_index()).
  void StepScript(const sim::PilotScript& script);

  /// Starts a new flight (and log segment) at trim.
  void ResetToTrim();
  /// Starts a new flight (and log segment) on the mode; returns false, and
  /// changes nothing, if the aircraft has no such mode.
  bool Excite(Excitation e);

  /// Flushes the log files if `flush_interval` has passed (or `force`).
  void MaybeFlush(bool force = false);

  const sim::FlightState& state() const { return slicer_.state(); }
  const sim::FlightState& previous_state() const { return previous_; }
  double time() const { return slicer_.time(); }
  long slice_index() const { return slicer_.slice_index(); }
  double dt() const { return slicer_.dt(); }
  const sim::Pilot& pilot() const { return pilot_; }
  const sim::FlightModel& model() const { return slicer_.model(); }
  const PathDecimator& path() const { return path_; }
  const std::vector<analysis::Mode>& modes() const { return modes_; }
  /// Wall time of the last slice and running mean / max [s].
  double slice_cost_last() const { return cost_last_; }
  double slice_cost_mean() const { return cost_count_ ? cost_sum_ / cost_count_ : 0.0; }
  double slice_cost_max() const { return cost_max_; }
  /// Paths of the current segment's log files (empty if not logging).
  std::string csv_path() const;
  std::string script_path() const;
  /// The command that replays the current segment with `aerolin simulate`.
  std::string ReplayCommand() const;
  /// The excitation the current segment started with, if any.
  std::optional<Excitation> excitation() const { return excitation_; }

 private:
  void StartSegment(const sim::FlightState& x0, std::optional<Excitation> e);
  /// The state that starts on mode `e` and the `aerolin simulate --excite`
  /// spelling of the mode used, or nullopt if the aircraft lacks it.
  std::optional<std::pair<sim::FlightState, std::string>> ExcitedState(Excitation e) const;
  void AfterSlice(sim::KeySet keys);

  model::AircraftData aircraft_;
  SessionOptions options_;
  sim::Slicer slicer_;
  sim::Pilot pilot_;
  std::vector<analysis::Mode> modes_;
  std::vector<analysis::Mode> lateral_modes_;
  std::vector<analysis::Mode> longitudinal_modes_;
  sim::FlightState previous_ = sim::FlightState::Zero();
  PathDecimator path_;
  std::unique_ptr<sim::KeyRecorder> recorder_;
  std::unique_ptr<FlightLogWriter> log_;
  std::optional<Excitation> excitation_;
  std::string excite_spelling_;  // of the mode actually excited
  int segment_ = 0;
  std::chrono::steady_clock::time_point last_flush_;
  sim::KeySet held_scratch_;
  std::vector<sim::ControlOverride> overrides_scratch_;
  double cost_last_ = 0.0, cost_sum_ = 0.0, cost_max_ = 0.0;
  long cost_count_ = 0;
};

}  // namespace aerolin::viz
