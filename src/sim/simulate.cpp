#include "aerolin/sim/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace aerolin::sim {

long NumSlices(double duration, double dt) {
  const double slices = duration / dt;
  if (!(slices <= static_cast<double>(kMaxSlices)))
    throw std::invalid_argument(fmt::format(
        "duration {:g} s is more than {:g} slices of {:g} s", duration,
        static_cast<double>(kMaxSlices), dt));
  const long n = std::lround(slices);
  if (!(duration > 0.0) || !std::isfinite(duration) || n < 1 ||
      std::abs(static_cast<double>(n) * dt - duration) >
          1e-9 * std::max(1.0, duration))
    throw std::invalid_argument(fmt::format(
        "duration {:g} s is not a positive whole number of {:g} s slices", duration, dt));
  return n;
}

namespace {

// Keeps every row in the result's log (the non-streaming Simulate).
class LogRecorder final : public FlightRecorder {
 public:
  LogRecorder(FlightLog& log, long slices) : log_(log) {
    log_.time.reserve(static_cast<std::size_t>(slices) + 1);
    log_.state.reserve(static_cast<std::size_t>(slices) + 1);
    log_.controls.reserve(static_cast<std::size_t>(slices) + 1);
  }
  void Record(double t, const FlightState& x, const Eigen::VectorXd& controls) override {
    log_.time.push_back(t);
    log_.state.push_back(x);
    log_.controls.push_back(controls);
  }

 private:
  FlightLog& log_;
};

}  // namespace

SimulationResult Simulate(const FlightModel& model, const FlightState& x0, InputSource& input,
                          const SimulationOptions& options, FlightRecorder& recorder,
                          SliceTiming* timing) {
  const long n = NumSlices(options.duration, options.slice.dt);
  Flight flight(model, options.slice, options.validity, x0, options.auxiliary0);
  input.Reset();

  SimulationResult result;
  result.log.control_names = model.control_names();
  result.log.control_units = model.control_units();
  // The surfaces as flown, for the recorders that show them.
  const bool surfaces_differ = model.flies_surfaces();
  Eigen::VectorXd surfaces = Eigen::VectorXd::Zero(model.num_controls());
  if (surfaces_differ) {
    recorder.WatchSurfaces(&surfaces);
    flight.SurfaceDeflections(surfaces);
  }
  if (flight.slicer().integrator() != options.slice.integrator)
    result.integrator_flown = flight.slicer().integrator();
  recorder.Begin(result.log.control_names);
  recorder.Record(0.0, x0, flight.controls());
  for (long k = 0; k < n && !flight.stopped(); ++k) {
    const StepOutcome outcome = flight.Step(input, timing);
    result.rk_steps += outcome.stats.steps;
    result.rk_rejected += outcome.stats.rejected;
    if (!outcome.flown) break;
    ++result.slices;
    if (surfaces_differ) flight.SurfaceDeflections(surfaces);
    recorder.Record(flight.time(), flight.state(), flight.controls());
  }
  result.stopped = flight.stopped();
  result.validity = flight.monitor().flags();
  return result;
}

SimulationResult Simulate(const FlightModel& model, const FlightState& x0, InputSource& input,
                          const SimulationOptions& options, SliceTiming* timing) {
  FlightLog log;
  LogRecorder recorder(log, NumSlices(options.duration, options.slice.dt));
  SimulationResult result = Simulate(model, x0, input, options, recorder, timing);
  log.control_names = std::move(result.log.control_names);
  log.control_units = std::move(result.log.control_units);
  result.log = std::move(log);
  return result;
}

SimulationResult Simulate(const FlightModel& model, const FlightState& x0,
                          const SimulationOptions& options, SliceTiming* timing) {
  HandsOff hands_off;
  return Simulate(model, x0, hands_off, options, timing);
}

}  // namespace aerolin::sim
