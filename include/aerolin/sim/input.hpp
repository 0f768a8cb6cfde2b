#pragma once
/// @file
/// What flies the aircraft: per slice, the controls to hold and the
/// disturbance acting over it. The numpad and scripted pilots (pilot/) and a
/// user's control table or function are all implementations of InputSource.

#include <Eigen/Core>
#include <functional>

#include "aerolin/sim/disturbance_profile.hpp"

namespace aerolin::sim {

/// Gives, for each slice k (covering [kΔt, (k+1)Δt]), the control vector and
/// the disturbance vector held over that slice (zero-order hold).
///
/// A run calls Reset() once, then InputForSlice() for k = 0, 1, 2, ... in
/// order; a stateful source (a pilot ramping its controls) may rely on that
/// order. The caller owns the output storage and sizes it once (num_controls
/// of the model, num_disturbances of its disturbance matrix E), so a source
/// need not allocate per slice.
class InputSource {
 public:
  virtual ~InputSource() = default;

  /// Writes slice `k`'s controls (data-file order, control units: rad or 1)
  /// and disturbance (the order and units of the model's E columns) into
  /// `controls` and `disturbance`, whose sizes the caller has set.
  /// @param dt slice length Δt [s]
  /// @throws std::invalid_argument if the sizes are not the source's.
  virtual void InputForSlice(long k, double dt,
                             Eigen::Ref<Eigen::VectorXd> controls,
                             Eigen::Ref<Eigen::VectorXd> disturbance) = 0;

  /// Returns to the state before slice 0 (a pilot's controls to 0).
  virtual void Reset() = 0;

  /// A disturbance known as a function of time, added to the held one and
  /// evaluated inside the slice (see DisturbanceProfile), or nullptr (the
  /// default). It must stay valid while the source is used.
  virtual const DisturbanceProfile* profile() const { return nullptr; }
};

/// Hands off: every control and disturbance is 0.
class HandsOff final : public InputSource {
 public:
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override;
  void Reset() override {}
};

/// A sampled control table: row k is held over slice k. Past the last row the
/// last row is held (a table of one row is a constant input). An optional
/// disturbance table works the same way; without one the disturbance is 0.
class SampledControls final : public InputSource {
 public:
  /// @param controls one row per slice, one column per control (data-file
  ///        order, control units).
  /// @param disturbances one row per slice, one column per disturbance
  ///        (E's order and units); 0 rows: no disturbance.
  /// @throws std::invalid_argument if `controls` has no row, or an entry of
  ///         either table is not finite.
  explicit SampledControls(Eigen::MatrixXd controls,
                           Eigen::MatrixXd disturbances = Eigen::MatrixXd());

  /// @throws std::invalid_argument if the table's column count differs from
  ///         the size of `controls` (or of `disturbance`, given a table); the
  ///         message names both.
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override;
  void Reset() override {}

  const Eigen::MatrixXd& controls() const { return controls_; }

 private:
  Eigen::MatrixXd controls_;
  Eigen::MatrixXd disturbances_;
};

/// Controls from a function of time, evaluated at each slice's start
/// t = kΔt [s] and held over the slice; the disturbance is 0.
class FunctionControls final : public InputSource {
 public:
  /// Writes the controls at time t [s] into its second argument (sized by the
  /// caller): the allocation-free form.
  using Writer = std::function<void(double t, Eigen::Ref<Eigen::VectorXd> controls)>;
  /// Returns the controls at time t [s] (convenient; may allocate per slice).
  using Function = std::function<Eigen::VectorXd(double t)>;

  explicit FunctionControls(Writer writer);
  explicit FunctionControls(Function function);

  /// @throws std::invalid_argument if a returned vector has the wrong size.
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override;
  void Reset() override {}

 private:
  Writer writer_;
};

}  // namespace aerolin::sim
