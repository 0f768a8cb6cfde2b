#pragma once
/// @file
/// One flight, one slice at a time: the step that `Simulate` loops over and
/// the flight window's session calls, so both fly the same way.

#include <Eigen/Core>
#include <optional>
#include <string>

#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/input.hpp"
#include "aerolin/sim/slicer.hpp"
#include "aerolin/sim/validity.hpp"

namespace aerolin::sim {

/// Wall-clock cost of Slicer::Advance per slice (the solver only, the seed's
/// measure). Opt-in: results do not depend on it, and it differs run to run.
struct SliceTiming {
  double last_us = 0.0;  ///< the last slice [µs]
  double sum_us = 0.0;   ///< all timed slices [µs]
  double max_us = 0.0;   ///< the slowest slice [µs]
  long count = 0;        ///< slices timed
  /// Mean over the timed slices [µs] (0 before the first).
  double mean_us() const { return count > 0 ? sum_us / static_cast<double>(count) : 0.0; }
};

/// What one Flight::Step did.
struct StepOutcome {
  /// True if the slice was flown and its end state is valid (finite, not
  /// diverged); false if the flight stopped (see Flight::stopped()).
  bool flown = false;
  SliceStats stats;  ///< integrator steps of this slice
};

/// A flight in progress: the slicer, the validity monitor, and the storage
/// the input source writes each slice's controls and disturbance into. After
/// construction, Step() allocates nothing (unless the input source does, or
/// the flight stops and formats its message).
class Flight {
 public:
  /// Starts at `x0` (t = 0), the auxiliary state at `aux0` (Slicer), and
  /// checks x0 with the monitor (a non-finite or diverged x0 stops the
  /// flight before its first slice).
  /// @throws std::invalid_argument as Slicer.
  Flight(FlightModel model, const SliceOptions& slice, const ValidityThresholds& validity,
         const FlightState& x0 = FlightState::Zero(),
         const AuxiliaryState& aux0 = AuxiliaryState::Zero());

  /// Flies slice k = slice_index(): asks `input` for slice k's controls and
  /// disturbance, advances with them held (plus the input's profile(), if
  /// any, evaluated inside the slice), checks the new state. If the
  /// integrator cannot meet its tolerance (core::NumericalError) or the new
  /// state diverged, the flight stops: flown = false, stopped() says why, and
  /// state() is not a valid flight state any more. A stopped flight does not
  /// step again (flown = false, nothing asked of `input`).
  /// With `timing`, the wall time of the integration is added to it.
  /// @throws std::invalid_argument as the input source or Slicer::Advance.
  StepOutcome Step(InputSource& input, SliceTiming* timing = nullptr);

  /// Starts again at `x0` and `aux0`, t = 0, with fresh validity flags.
  /// Does not reset any input source (the caller owns it).
  /// @throws std::invalid_argument as Slicer::Reset.
  void Reset(const FlightState& x0, const AuxiliaryState& aux0 = AuxiliaryState::Zero());

  /// Controls held over the last slice flown (zeros before the first) [data
  /// file order, control units].
  const Eigen::VectorXd& controls() const { return controls_; }
  /// Disturbance held over the last slice flown (zeros before the first).
  const Eigen::VectorXd& disturbance() const { return disturbance_; }
  /// Why the flight stopped ("...; run stopped"), or nullopt while it flies.
  const std::optional<std::string>& stopped() const { return stopped_; }
  const ValidityMonitor& monitor() const { return monitor_; }
  const Slicer& slicer() const { return slicer_; }
  const FlightState& state() const { return slicer_.state(); }
  long slice_index() const { return slicer_.slice_index(); }
  double time() const { return slicer_.time(); }
  double dt() const { return slicer_.dt(); }
  const FlightModel& model() const { return slicer_.model(); }
  /// Writes the surfaces' deflections at time(): the actuators' positions,
  /// the ideal controls' commands δ_pilot − K x with controls() (data-file
  /// order, control units; FlightModel::SurfaceDeflections). Allocates
  /// nothing once `out` has num_controls entries.
  void SurfaceDeflections(Eigen::VectorXd& out) const {
    model().SurfaceDeflections(state(), slicer_.auxiliary_state(), controls_, out);
  }

 private:
  void Start(const FlightState& x0);

  Slicer slicer_;
  ValidityThresholds thresholds_;
  ValidityMonitor monitor_;
  Eigen::VectorXd controls_;
  Eigen::VectorXd disturbance_;
  std::optional<std::string> stopped_;
};

}  // namespace aerolin::sim
