#pragma once
/// @file
/// The one-call facade: fly a model from an initial state under an input
/// source for a given duration, recording every slice end.

#include <optional>
#include <string>
#include <vector>

#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/input.hpp"
#include "aerolin/sim/slicer.hpp"
#include "aerolin/sim/validity.hpp"

namespace aerolin::sim {

/// Everything that shapes a run.
struct SimulationOptions {
  SliceOptions slice;      ///< Δt, integrator, tolerances
  double duration = 60.0;  ///< [s], a whole number of slices
  ValidityThresholds validity;
  /// The auxiliary state at t = 0 beside the flight's x0 (Slicer): 0, or a
  /// start on a closed loop's mode's washout filter states
  /// (study::Prepare sets it from the start).
  AuxiliaryState auxiliary0 = AuxiliaryState::Zero();
};

/// A finished (or stopped) run.
struct SimulationResult {
  FlightLog log;  ///< t = 0 and every slice end
  /// alpha, beta, phi, u/U0 over the run (see ValidityMonitor).
  std::vector<ValidityFlag> validity;
  /// Set if the run stopped early (divergence, or RK45 could not meet its
  /// tolerance); the log ends at the last finite state.
  std::optional<std::string> stopped;
  long slices = 0;       ///< slices flown and logged (log.size() − 1)
  long rk_steps = 0;     ///< accepted integrator steps, all slices
  long rk_rejected = 0;  ///< rejected RK45 steps, all slices
  /// The integrator flown where it is not the one asked for (RK45 for a
  /// model with actuators asked to fly kExact: Slicer::integrator()).
  std::optional<Integrator> integrator_flown;
};

/// Flies `model` from `x0` for `options.duration` with the controls and
/// disturbances of `input` (Reset() first, then slices 0, 1, 2, ...): a loop
/// over Flight::Step, logging every slice end until the end or a stop.
/// With `timing`, the wall time of each slice's integration is accumulated
/// into it (opt-in: the result itself is deterministic).
/// @throws std::invalid_argument if the duration is not a positive whole
///         number of slices (tolerance 1e-9 s·max(1, T)), or as Slicer or the
///         input source (e.g. a control table of the wrong width).
SimulationResult Simulate(const FlightModel& model, const FlightState& x0, InputSource& input,
                          const SimulationOptions& options, SliceTiming* timing = nullptr);

/// Receives the rows of a run as they are computed: t = 0 first (x0, zero
/// controls), then every slice end (the controls held over that slice), the
/// rows of FlightLog. Lets a caller stream a flight of any length to a file
/// and accumulate what it needs in memory independent of the duration.
class FlightRecorder {
 public:
  virtual ~FlightRecorder() = default;
  /// Called once before the first row with the model's control names (data
  /// file order), e.g. to write a header. Does nothing by default.
  virtual void Begin(const std::vector<std::string>& control_names) { (void)control_names; }
  /// Called once before Begin, and only for a flight whose surfaces differ
  /// from the pilot's commands (FlightModel::flies_surfaces(): an
  /// augmentation or actuators): at each Record, `*surfaces` holds the
  /// surfaces' deflections at that row (Flight::SurfaceDeflections; data-file
  /// order, control units). It outlives the run. Does nothing by default.
  virtual void WatchSurfaces(const Eigen::VectorXd* surfaces) { (void)surfaces; }
  virtual void Record(double t, const FlightState& x, const Eigen::VectorXd& controls) = 0;
};

/// Flies as Simulate, handing every row to `recorder` instead of keeping
/// it: the result's log holds the control names and units and no rows, so
/// memory does not grow with the duration.
/// @throws as Simulate, and whatever `recorder` throws (the run stops).
SimulationResult Simulate(const FlightModel& model, const FlightState& x0, InputSource& input,
                          const SimulationOptions& options, FlightRecorder& recorder,
                          SliceTiming* timing = nullptr);

/// Flies `model` from `x0` hands off (every control and disturbance 0).
SimulationResult Simulate(const FlightModel& model, const FlightState& x0,
                          const SimulationOptions& options, SliceTiming* timing = nullptr);

/// Returns the number of slices in `duration` [s] for slice length `dt` [s]
/// (at most kMaxSlices).
/// @throws std::invalid_argument as Simulate.
long NumSlices(double duration, double dt);

/// The most slices one run may have (10^12: over three years at 0.1 s).
inline constexpr long kMaxSlices = 1000000000000L;

}  // namespace aerolin::sim
