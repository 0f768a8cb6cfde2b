#include "aerolin/sim/simulate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "aerolin/core/error.hpp"

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

SimulationResult Simulate(const FlightModel& model, const FlightState& x0,
                          const PilotScript* script,
                          const SimulationOptions& options) {
  const double dt = options.slice.dt;
  const long n = NumSlices(options.duration, dt);
  Slicer slicer(model, options.slice, x0);
  Pilot pilot(model.controls(), dt, options.pilot);
  ValidityMonitor monitor(options.validity, model.U0(), model.alpha0());

  SimulationResult result;
  FlightLog& log = result.log;
  log.control_names = model.control_names();
  log.control_units = model.control_units();
  log.time.reserve(static_cast<std::size_t>(n) + 1);
  log.state.reserve(static_cast<std::size_t>(n) + 1);
  log.controls.reserve(static_cast<std::size_t>(n) + 1);
  log.time.push_back(0.0);
  log.state.push_back(x0);
  log.controls.push_back(Eigen::VectorXd::Zero(model.num_controls()));
  if (!monitor.Check(0.0, x0)) {
    result.stopped = monitor.divergence();
    result.validity = monitor.flags();
    return result;
  }

  KeySet keys;
  std::vector<ControlOverride> overrides;
  overrides.reserve(script ? script->sets.size() : 0);
  double cost_sum_us = 0.0;
  long timed = 0;
  using Clock = std::chrono::steady_clock;
  for (long k = 0; k < n; ++k) {
    if (script) script->InputForSlice(k, dt, keys, overrides);
    const Eigen::VectorXd& controls = pilot.Update(keys, overrides);
    SliceStats stats;
    const Clock::time_point start = Clock::now();
    try {
      stats = slicer.Advance(controls);
    } catch (const core::NumericalError& e) {
      result.stopped = std::string(e.what()) + "; run stopped";
      break;
    }
    const double cost_us =
        std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    cost_sum_us += cost_us;
    ++timed;
    result.slice_cost_max_us = std::max(result.slice_cost_max_us, cost_us);
    result.rk_steps += stats.steps;
    result.rk_rejected += stats.rejected;
    const double t = static_cast<double>(k + 1) * dt;
    if (!monitor.Check(t, slicer.state())) {
      result.stopped = monitor.divergence();
      break;
    }
    ++result.slices;
    log.time.push_back(t);
    log.state.push_back(slicer.state());
    log.controls.push_back(controls);
  }
  if (timed > 0)
    result.slice_cost_mean_us = cost_sum_us / static_cast<double>(timed);
  result.validity = monitor.flags();
  return result;
}

}  // namespace aerolin::sim
