#pragma once
/// @file
/// The one-call facade: fly a model from an initial state under a scripted
/// pilot for a given duration, recording every slice end.

#include <optional>
#include <string>
#include <vector>

#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/pilot.hpp"
#include "aerolin/sim/pilot_script.hpp"
#include "aerolin/sim/slicer.hpp"
#include "aerolin/sim/validity.hpp"

namespace aerolin::sim {

/// Everything that shapes a run.
struct SimulationOptions {
  SliceOptions slice;      ///< Δt, integrator, tolerances
  double duration = 60.0;  ///< [s], a whole number of slices
  PilotSettings pilot;     ///< numpad rates and default limits
  ValidityThresholds validity;
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
  /// Wall time of Slicer::Advance per slice (solver only, the seed's measure)
  /// [µs]: mean and max over the run.
  double slice_cost_mean_us = 0.0;
  double slice_cost_max_us = 0.0;
};

/// Flies `model` from `x0` for `options.duration`, the pilot keys and `set`
/// lines coming from `script` (nullptr: hands off). Per slice k: the pilot
/// turns slice k's input into controls, the slicer advances with them held,
/// the validity monitor checks the new state.
/// @throws std::invalid_argument if the duration is not a positive whole
///         number of slices (tolerance 1e-9 s·max(1, T)), or as Slicer/Pilot.
SimulationResult Simulate(const FlightModel& model, const FlightState& x0,
                          const PilotScript* script,
                          const SimulationOptions& options);

/// Returns the number of slices in `duration` [s] for slice length `dt` [s].
/// @throws std::invalid_argument as Simulate.
long NumSlices(double duration, double dt);

}  // namespace aerolin::sim
