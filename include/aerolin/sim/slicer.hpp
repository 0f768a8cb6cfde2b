#pragma once
/// @file
/// Advances the flight model one slice [t, t + Δt] at a time with the
/// controls held constant (zero-order hold), the seed program's scheme.

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string_view>

#include "aerolin/sim/disturbance_profile.hpp"
#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/flight_model.hpp"

namespace aerolin::sim {

/// How a slice is integrated.
enum class Integrator {
  /// Dormand–Prince 5(4) (Boost.Odeint runge_kutta_dopri5), error-controlled
  /// steps, the last derivative reused across slices (FSAL); all 12 states.
  kRk45,
  /// Exact zero-order-hold propagation of the 9 linear states,
  /// @f$ [x_{k+1}; \delta] = e^{M \Delta t} [x_k; \delta] @f$ with
  /// @f$ M = [A\ B\ E; 0\ 0\ 0] @f$ (exponential cached per Δt; δ and the
  /// disturbance d held); the position is
  /// the 4-point Gauss–Legendre quadrature of the exact NED velocity over the
  /// slice (error O(Δt⁹), no step control). A model with washout filters
  /// propagates them with the linear states, A and B extended
  /// (FlightModel::ExtendedLinearA, ExtendedLinearB). A model with actuators
  /// (FlightModel::has_actuators) is flown by kRk45 instead: its limits are
  /// not linear (Slicer::integrator() says which is flown).
  kExact,
};

/// Parses "rk45" / "exact"; nullopt otherwise.
std::optional<Integrator> ParseIntegrator(std::string_view text);
std::string_view ToString(Integrator integrator);

/// Slice length and integrator settings.
struct SliceOptions {
  double dt = 0.1;  ///< slice length Δt [s] (the seed's 0.1 s)
  Integrator integrator = Integrator::kRk45;
  /// RK45 relative and absolute tolerances (odeint's error checker: each
  /// component's local error ≤ atol + rtol·(|x| + Δh·|ẋ|)).
  double rtol = 1e-6;
  double atol = 1e-9;
};

/// Cost of one slice.
struct SliceStats {
  int steps = 0;     ///< accepted RK steps (1 for the exact propagator)
  int rejected = 0;  ///< rejected RK steps
};

/// Steps the flight model slice by slice. Holds the current state, the slice
/// index k (t = k·Δt), and, for RK45, the stepper with its step-size and FSAL
/// derivative carried over from slice to slice. After construction,
/// Advance() does not allocate.
///
/// A model with actuators or washout filters also carries the auxiliary
/// state (FlightModel::AddActuators: the surfaces' positions, the filters'
/// states) beside the 12 flight states: one RK45 stepper integrates both as
/// one fixed-size vector under one error control, and Reset() sets it to
/// the auxiliary start given (0 by default: the surfaces at trim, the filters
/// at rest; a start on a closed loop's mode gives the filters' part of its
/// eigenvector, ModeInitialState). A model without them never touches it:
/// its flight is the 12-state one, bit for bit.
class Slicer {
 public:
  /// Starts at `x0` with the auxiliary state `aux0`.
  /// @throws std::invalid_argument if dt, rtol or atol is not positive and
  ///         finite, or as Reset for `aux0`.
  Slicer(FlightModel model, const SliceOptions& options,
         const FlightState& x0 = FlightState::Zero(),
         const AuxiliaryState& aux0 = AuxiliaryState::Zero());
  ~Slicer();
  Slicer(Slicer&&) noexcept;
  Slicer& operator=(Slicer&&) noexcept;

  /// Advances the state over [kΔt, (k+1)Δt] with `controls` (data-file order,
  /// control units) held, and increments k.
  /// @throws std::invalid_argument if controls.size() != num_controls.
  /// @throws core::NumericalError if RK45 cannot meet the tolerance (step
  ///         size underflow or too many rejections).
  SliceStats Advance(const Eigen::Ref<const Eigen::VectorXd>& controls);
  /// As Advance(controls), with the disturbance `disturbance` (the model's
  /// E columns' order and units) held over the slice too.
  /// @throws std::invalid_argument also if disturbance.size() !=
  ///         num_disturbances.
  SliceStats Advance(const Eigen::Ref<const Eigen::VectorXd>& controls,
                     const Eigen::Ref<const Eigen::VectorXd>& disturbance);
  /// As above, with a known disturbance g(t) added to the held one (t the
  /// flight time, kΔt at the slice start): RK45 evaluates it at every stage,
  /// the exact integrator holds its mean over the slice. nullptr: none.
  /// The per-slice cost grows by one evaluation of g and one E·g product per
  /// RK stage; nothing is allocated.
  /// @throws std::invalid_argument also if profile->size() !=
  ///         num_disturbances.
  SliceStats Advance(const Eigen::Ref<const Eigen::VectorXd>& controls,
                     const Eigen::Ref<const Eigen::VectorXd>& disturbance,
                     const DisturbanceProfile* profile);

  /// Restarts at state `x0`, k = 0, the auxiliary state `aux0`; forgets the
  /// RK step size and FSAL data.
  /// @throws std::invalid_argument if `aux0` is not finite or is not 0 in a
  ///         slot the model does not use (FlightModel::num_auxiliary_states).
  void Reset(const FlightState& x0, const AuxiliaryState& aux0 = AuxiliaryState::Zero());

  const FlightState& state() const;
  long slice_index() const;
  double time() const { return static_cast<double>(slice_index()) * dt(); }
  double dt() const;
  const SliceOptions& options() const;
  const FlightModel& model() const;
  /// The integrator flown: options().integrator, except kRk45 for a model
  /// with actuators.
  Integrator integrator() const;
  /// The auxiliary state at time() (FlightModel::num_auxiliary_states()
  /// slots used; all 0 for a model without actuators or washout filters).
  AuxiliaryState auxiliary_state() const;

 private:
  SliceStats AdvanceWith(const Eigen::Ref<const Eigen::VectorXd>& controls,
                         const Eigen::Ref<const Eigen::VectorXd>* disturbance,
                         const DisturbanceProfile* profile);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aerolin::sim
