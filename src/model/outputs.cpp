#include "aerolin/model/outputs.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "aerolin/model/build.hpp"

namespace aerolin::model {

const std::vector<core::Signal>& DerivedOutputSignals(Axis axis) {
  using core::Unit;
  static const std::vector<core::Signal> longitudinal = {{"nz", Unit::kGravity, "n_z"},
                                                         {"gamma", Unit::kRadian, "γ"}};
  static const std::vector<core::Signal> lateral = {{"ay", Unit::kGravity, "a_y"}};
  return axis == Axis::kLongitudinal ? longitudinal : lateral;
}

StateSpace WithDerivedOutputs(const StateSpace& model, Axis axis,
                              const FlightCondition& condition) {
  const bool longitudinal = axis == Axis::kLongitudinal;
  const int n = longitudinal ? lon::kNumStates : lat::kNumStates;
  bool axis_states = model.num_states() >= n;
  for (int i = 0; axis_states && i < n; ++i)
    axis_states = model.states()[static_cast<std::size_t>(i)].name == StateSignals(axis)[static_cast<std::size_t>(i)].name;
  if (!axis_states)
    throw std::invalid_argument("WithDerivedOutputs: the " +
                                std::string(longitudinal ? "longitudinal" : "lateral") +
                                " model has " + std::to_string(n) + " states (then any filter states), got " +
                                std::to_string(model.num_states()));
  // Filter states after the airframe's (BuildAugmented): not outputs, and
  // their columns of the airframe's rows of C are zero.
  const int N = model.num_states();
  if (!(condition.g > 0.0) || !(condition.U0 > 0.0))
    throw std::invalid_argument("WithDerivedOutputs: U0 and g must be positive");
  const std::vector<core::Signal>& derived = DerivedOutputSignals(axis);
  const Eigen::Index extra = static_cast<Eigen::Index>(derived.size());
  const Eigen::MatrixXd& A = model.A();
  const Eigen::MatrixXd& B = model.B();
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(n + extra, N);
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(n + extra, model.num_inputs());
  C.topLeftCorner(n, n).setIdentity();
  const double U0 = condition.U0, W0 = condition.W0, g = condition.g;
  const double k = U0 / g;
  if (longitudinal) {
    // nz = (U0/g)(q − α̇) − sin θ0 θ, α̇ = A_α x + B_α δ (outputs.hpp).
    C.row(lon_out::kNz) = -k * A.row(lon::kAlpha);
    C(lon_out::kNz, lon::kQ) += k;
    C(lon_out::kNz, lon::kTheta) -= std::sin(condition.theta0);
    // B.row of a model without inputs would offset B's null data pointer.
    if (model.num_inputs() > 0) D.row(lon_out::kNz) = -k * B.row(lon::kAlpha);
    // γ = θ − Δα_true, Δα_true = (U0² α − W0 u)/(U0² + W0²).
    const double V2 = U0 * U0 + W0 * W0;
    C(lon_out::kGamma, lon::kTheta) = 1.0;
    C(lon_out::kGamma, lon::kAlpha) = -U0 * U0 / V2;
    C(lon_out::kGamma, lon::kU) = W0 / V2;
  } else {
    // ay = (U0/g)(β̇ + r) − (W0/g) p − cos θ0 φ, β̇ = A_β x + B_β δ.
    C.row(lat_out::kAy) = k * A.row(lat::kBeta);
    C(lat_out::kAy, lat::kR) += k;
    C(lat_out::kAy, lat::kP) -= W0 / g;
    C(lat_out::kAy, lat::kPhi) -= std::cos(condition.theta0);
    if (model.num_inputs() > 0) D.row(lat_out::kAy) = k * B.row(lat::kBeta);
  }
  std::vector<core::Signal> outputs(model.states().begin(), model.states().begin() + n);
  outputs.insert(outputs.end(), derived.begin(), derived.end());
  return StateSpace(A, B, std::move(C), std::move(D), model.states(), model.inputs(),
                    std::move(outputs));
}

StateSpace BuildWithOutputs(const AircraftData& aircraft, Axis axis) {
  return WithDerivedOutputs(BuildAugmented(aircraft, axis),
                            axis, aircraft.condition);
}

}  // namespace aerolin::model
