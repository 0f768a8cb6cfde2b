#include "aerolin/sim/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace aerolin::sim {

long NumSlices(double duration, double dt) {
  const long n = std::lround(duration / dt);
  if (!(duration > 0.0) || !std::isfinite(duration) || n < 1 ||
      std::abs(static_cast<double>(n) * dt - duration) >
          1e-9 * std::max(1.0, duration))
    throw std::invalid_argument("duration " + std::to_string(duration) +
                                " s is not a positive whole number of " +
                                std::to_string(dt) + " s slices");
  return n;
}

SimulationResult Simulate(const FlightModel& model, const FlightState& x0, InputSource& input,
                          const SimulationOptions& options, SliceTiming* timing) {
  const long n = NumSlices(options.duration, options.slice.dt);
  Flight flight(model, options.slice, options.validity, x0);
  input.Reset();

  SimulationResult result;
  FlightLog& log = result.log;
  log.control_names = model.control_names();
  log.control_units = model.control_units();
  log.time.reserve(static_cast<std::size_t>(n) + 1);
  log.state.reserve(static_cast<std::size_t>(n) + 1);
  log.controls.reserve(static_cast<std::size_t>(n) + 1);
  log.time.push_back(0.0);
  log.state.push_back(x0);
  log.controls.push_back(flight.controls());
  for (long k = 0; k < n && !flight.stopped(); ++k) {
    const StepOutcome outcome = flight.Step(input, timing);
    result.rk_steps += outcome.stats.steps;
    result.rk_rejected += outcome.stats.rejected;
    if (!outcome.flown) break;
    ++result.slices;
    log.time.push_back(flight.time());
    log.state.push_back(flight.state());
    log.controls.push_back(flight.controls());
  }
  result.stopped = flight.stopped();
  result.validity = flight.monitor().flags();
  return result;
}

SimulationResult Simulate(const FlightModel& model, const FlightState& x0,
                          const SimulationOptions& options, SliceTiming* timing) {
  HandsOff hands_off;
  return Simulate(model, x0, hands_off, options, timing);
}

}  // namespace aerolin::sim
