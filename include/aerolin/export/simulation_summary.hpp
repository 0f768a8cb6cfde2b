#pragma once
/// @file
/// The summary of a simulated flight, as text for people and as one JSON
/// object for programs.

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "aerolin/sim/simulate.hpp"

namespace aerolin::exporting {

/// What the run was, for the summary's header.
struct RunDescription {
  std::string aircraft;                ///< the aircraft's name
  std::optional<std::string> script;   ///< script path, if any
  std::optional<std::string> excite;   ///< excited mode (CLI spelling), if any
  std::optional<double> amplitude;     ///< excitation amplitude [ref. state unit]
};

/// The largest |value| of one state over a run, with its sign and time.
struct Excursion {
  std::string name;   ///< FlightStateNames() entry
  std::string unit;   ///< "m/s", "rad", "rad/s" or "m"
  double value = 0;   ///< signed value at the largest |value|
  double time = 0;    ///< [s]
};

/// Returns the 12 states' largest excursions, in FlightStateIndex order.
std::vector<Excursion> MaxExcursions(const sim::FlightLog& log);

/// Returns the SI unit of each flight state, in FlightStateIndex order.
const std::vector<std::string>& FlightStateUnits();

/// Returns the summary as one JSON object with keys: aircraft, script,
/// excite, amplitude, duration_s, dt_s, integrator, rtol, atol, slices,
/// rk_steps, rk_rejected, slice_cost_us {mean, max}, final {t, state{...},
/// altitude_change_m, controls{...}}, max_excursions {name: {value, t}},
/// validity [{name, limit, peak, peak_t, exceeded, first_exceeded_t}],
/// valid, stopped (null or the message). SI units, radians.
nlohmann::json SimulationSummaryJson(const sim::SimulationResult& result,
                                     const sim::SimulationOptions& options,
                                     const RunDescription& run);

/// Writes the summary as aligned text: run, final state and max excursion
/// per state, validity flags, solver cost.
void WriteSimulationSummary(std::ostream& out,
                            const sim::SimulationResult& result,
                            const sim::SimulationOptions& options,
                            const RunDescription& run);

}  // namespace aerolin::exporting
