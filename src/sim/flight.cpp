#include "aerolin/sim/flight.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "aerolin/core/error.hpp"

namespace aerolin::sim {

Flight::Flight(FlightModel model, const SliceOptions& slice, const ValidityThresholds& validity,
               const FlightState& x0, const AuxiliaryState& aux0)
    : slicer_(std::move(model), slice, x0, aux0),
      thresholds_(validity),
      monitor_(validity, slicer_.model().U0(), slicer_.model().alpha0()),
      controls_(Eigen::VectorXd::Zero(slicer_.model().num_controls())),
      disturbance_(Eigen::VectorXd::Zero(slicer_.model().num_disturbances())) {
  Start(x0);
}

void Flight::Start(const FlightState& x0) {
  controls_.setZero();
  disturbance_.setZero();
  stopped_.reset();
  if (!monitor_.Check(0.0, x0)) stopped_ = monitor_.divergence();
}

void Flight::Reset(const FlightState& x0, const AuxiliaryState& aux0) {
  slicer_.Reset(x0, aux0);
  monitor_ = ValidityMonitor(thresholds_, slicer_.model().U0(), slicer_.model().alpha0());
  Start(x0);
}

StepOutcome Flight::Step(InputSource& input, SliceTiming* timing) {
  StepOutcome outcome;
  if (stopped_) return outcome;
  input.InputForSlice(slicer_.slice_index(), slicer_.dt(), controls_, disturbance_);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = timing ? Clock::now() : Clock::time_point();
  try {
    outcome.stats = slicer_.Advance(controls_, disturbance_, input.profile());
  } catch (const core::NumericalError& e) {
    // RK45 stalls where the kinematics blow up (an angle nearing 90°, the
    // speed nearing 0): name that cause, at the slice end, as the exact
    // integrator does when it lands beyond it.
    constexpr double kStallMargin = 0.2;  // rad (11°), and 20 % of U0
    const std::optional<std::string> cause =
        monitor_.UndefinedKinematics(slicer_.state(), kStallMargin);
    if (cause) {
      monitor_.StopFor(slicer_.time() + slicer_.dt(), *cause);
      stopped_ = monitor_.divergence();
    } else {
      stopped_ = std::string(e.what()) + "; run stopped";
    }
    return outcome;
  }
  if (timing) {
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    timing->last_us = us;
    timing->sum_us += us;
    timing->max_us = std::max(timing->max_us, us);
    ++timing->count;
  }
  if (!monitor_.Check(slicer_.time(), slicer_.state())) {
    stopped_ = monitor_.divergence();
    return outcome;
  }
  outcome.flown = true;
  return outcome;
}

}  // namespace aerolin::sim
