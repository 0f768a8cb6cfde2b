#include "aerolin/sim/flight_model.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::sim {

int FilterSlot(const model::AircraftData& aircraft, model::Axis axis) {
  // As FlightModel lays its slots out: one per actuated control, in file order.
  int slot = 0;
  for (const model::Control& c : aircraft.controls)
    if (aircraft.command_path.actuators.count(c.name) > 0) ++slot;
  if (axis == model::Axis::kLateral) slot += model::FilterStates(aircraft, model::Axis::kLongitudinal);
  return slot;
}

FlightModel::FlightModel(const model::AircraftData& aircraft)
    : U0_(aircraft.condition.U0),
      theta0_(aircraft.condition.theta0),
      alpha0_(std::atan2(aircraft.condition.W0, aircraft.condition.U0)),
      controls_(aircraft.controls) {
  // Each axis closed with its washout filters (model::BuildAugmented: the
  // 4- and 5-state builders' model without them): the airframe's block is
  // the flight's A and B, the filters' rows and columns the auxiliary
  // state's (scattered below, once the actuators' slots are known).
  const model::StateSpace lon = model::BuildAugmented(aircraft, model::Axis::kLongitudinal);
  const model::StateSpace lat = model::BuildAugmented(aircraft, model::Axis::kLateral);
  A_lon_ = lon.A().topLeftCorner<4, 4>();
  A_lat_ = lat.A().topLeftCorner<5, 5>();
  A_.setZero();
  A_.topLeftCorner<4, 4>() = A_lon_;
  A_.bottomRightCorner<5, 5>() = A_lat_;
  // The sub-models list their inputs in data-file order, keeping only the
  // controls of their axis; scatter their B columns back to file order.
  const auto m = static_cast<Eigen::Index>(controls_.size());
  B_ = Eigen::MatrixXd::Zero(kNumLinearStates, m);
  std::vector<Eigen::Index> lon_columns, lat_columns;  // each axis's inputs' control columns
  for (std::size_t c = 0; c < controls_.size(); ++c) {
    const auto col = static_cast<Eigen::Index>(c);
    if (controls_[c].longitudinal) {
      B_.col(col).head<4>() = lon.B().col(static_cast<Eigen::Index>(lon_columns.size())).head<4>();
      lon_columns.push_back(col);
    }
    if (controls_[c].lateral) {
      B_.col(col).tail<5>() = lat.B().col(static_cast<Eigen::Index>(lat_columns.size())).head<5>();
      lat_columns.push_back(col);
    }
  }
  // The feedback the builders closed, δ = M δ_pilot − K z over z = (x, w)
  // (model::AugmentedFeedbackOf), scattered to file order; the filter
  // states' columns are kept aside until their slots are known.
  K_ = Eigen::MatrixXd::Zero(m, kNumLinearStates);
  const int lon_filters = model::FilterStates(aircraft, model::Axis::kLongitudinal);
  num_filters_ = lon_filters + model::FilterStates(aircraft, model::Axis::kLateral);
  Eigen::MatrixXd filter_gain = Eigen::MatrixXd::Zero(m, num_filters_);
  auto scatter = [&](const std::optional<model::AxisAugmentation>& aug, model::Axis axis, int first_state,
                     const std::vector<Eigen::Index>& columns, int first_filter) {
    if (!aug) return;
    const model::ClosedFeedback f = model::AugmentedFeedbackOf(aircraft, axis);
    const Eigen::Index n = first_state == kU ? 4 : 5;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      K_.row(columns[i]).segment(first_state, n) = f.gain.row(row).head(n);
      filter_gain.row(columns[i]).segment(first_filter, f.gain.cols() - n) = f.gain.row(row).tail(f.gain.cols() - n);
    }
    if (f.command.isIdentity(0.0)) return;
    if (command_.size() == 0) command_ = Eigen::MatrixXd::Identity(m, m);
    for (std::size_t i = 0; i < columns.size(); ++i)
      for (std::size_t j = 0; j < columns.size(); ++j)
        command_(columns[i], columns[j]) = f.command(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  };
  scatter(aircraft.longitudinal_augmentation, model::Axis::kLongitudinal, kU, lon_columns, 0);
  scatter(aircraft.lateral_augmentation, model::Axis::kLateral, kBeta, lat_columns, lon_filters);
  constexpr double kNone = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < controls_.size(); ++c) {
    const auto it = aircraft.command_path.actuators.find(controls_[c].name);
    if (it == aircraft.command_path.actuators.end()) continue;
    const model::Actuator& actuator = it->second;
    const auto col = static_cast<Eigen::Index>(c);
    if (command_.size() != 0)
      throw std::invalid_argument(
          "the [actuators] entry of " + controls_[c].name + " with an [augmentation] loop on an "
          "acceleration (nz, ay), which feeds the deflection back through itself: such an actuated "
          "loop is not flown yet (fly it without [actuators], or --bare)");
    actuators_.push_back({col, 1.0 / actuator.time_constant, actuator.position_limit.value_or(kNone),
                          actuator.rate_limit.value_or(kNone), K_.row(col),
                          Eigen::Matrix<double, 1, kMaxAuxiliaryStates>::Zero()});
  }
  if (num_auxiliary_states() > kMaxAuxiliaryStates)
    throw std::invalid_argument("FlightModel: " + std::to_string(actuators_.size()) + " actuators and " +
                                std::to_string(num_filters_) + " washout filters; the flight carries at most " +
                                std::to_string(kMaxAuxiliaryStates) + " such states");
  // The filters' slots: their rows and columns of each axis's closed loop.
  const int first = first_filter_slot();
  assert(first == FilterSlot(aircraft, model::Axis::kLongitudinal));
  K_aux_ = Eigen::MatrixXd::Zero(m, kMaxAuxiliaryStates);
  K_aux_.middleCols(first, num_filters_) = filter_gain;
  x_from_aux_.setZero();
  aux_from_x_.setZero();
  aux_from_aux_.setZero();
  aux_from_controls_ = Eigen::Matrix<double, kMaxAuxiliaryStates, Eigen::Dynamic>::Zero(kMaxAuxiliaryStates, m);
  auto place = [&](const model::StateSpace& closed, int first_state, const std::vector<Eigen::Index>& columns,
                   int slot) {
    const Eigen::Index n = first_state == kU ? 4 : 5, f = closed.num_states() - n;
    x_from_aux_.block(first_state, slot, n, f) = closed.A().topRightCorner(n, f);
    aux_from_x_.block(slot, first_state, f, n) = closed.A().bottomLeftCorner(f, n);
    aux_from_aux_.block(slot, slot, f, f) = closed.A().bottomRightCorner(f, f);
    for (std::size_t i = 0; i < columns.size(); ++i)
      aux_from_controls_.block(slot, columns[i], f, 1) = closed.B().col(static_cast<Eigen::Index>(i)).tail(f);
  };
  place(lon, kU, lon_columns, first);
  place(lat, kBeta, lat_columns, first + lon_filters);
  if (!actuators_.empty() && !aux_from_controls_.isZero(0.0))
    throw std::invalid_argument(
        "an [actuators] entry with an [augmentation] loop through a washout filter on an acceleration "
        "(nz, ay), which feeds the deflection back through itself: such an actuated loop is not flown "
        "yet (fly it without [actuators], or --bare)");
  for (FlownActuator& a : actuators_) a.aux_gain = K_aux_.row(a.control);
}

ExtendedLinearMatrix FlightModel::ExtendedLinearA() const {
  ExtendedLinearMatrix A = ExtendedLinearMatrix::Zero();
  A.topLeftCorner<kNumLinearStates, kNumLinearStates>() = A_;
  A.topRightCorner<kNumLinearStates, kMaxAuxiliaryStates>() = x_from_aux_;
  A.bottomLeftCorner<kMaxAuxiliaryStates, kNumLinearStates>() = aux_from_x_;
  A.bottomRightCorner<kMaxAuxiliaryStates, kMaxAuxiliaryStates>() = aux_from_aux_;
  return A;
}

Eigen::MatrixXd FlightModel::ExtendedLinearB() const {
  Eigen::MatrixXd B(kNumExtendedLinearStates, B_.cols());
  B.topRows(kNumLinearStates) = B_;
  B.bottomRows(kMaxAuxiliaryStates) = aux_from_controls_;
  return B;
}

std::optional<int> FlightModel::actuator_slot(int c) const {
  for (std::size_t i = 0; i < actuators_.size(); ++i)
    if (actuators_[i].control == c) return static_cast<int>(i);
  return std::nullopt;
}

namespace {
// A limit as the API gives it: none for the +∞ an absent one is flown as.
std::optional<double> Finite(double limit) {
  return std::isfinite(limit) ? std::optional<double>(limit) : std::nullopt;
}
}  // namespace

std::optional<double> FlightModel::position_limit(int c) const {
  const std::optional<int> slot = actuator_slot(c);
  return slot ? Finite(actuators_[static_cast<std::size_t>(*slot)].position_limit) : std::nullopt;
}

std::optional<double> FlightModel::rate_limit(int c) const {
  const std::optional<int> slot = actuator_slot(c);
  return slot ? Finite(actuators_[static_cast<std::size_t>(*slot)].rate_limit) : std::nullopt;
}

void FlightModel::CommandedDeflections(const FlightState& x, const AuxiliaryState& aux,
                                       const Eigen::Ref<const Eigen::VectorXd>& controls,
                                       Eigen::VectorXd& out) const {
  out.resize(static_cast<Eigen::Index>(controls_.size()));
  for (Eigen::Index c = 0; c < out.size(); ++c) {
    out[c] = (command_.size() != 0 ? command_.row(c).dot(controls) : controls[c]) -
             K_.row(c).dot(x.head<kNumLinearStates>());
    if (num_filters_ > 0) out[c] -= K_aux_.row(c).dot(aux);
  }
}

void FlightModel::SurfaceDeflections(const FlightState& x, const AuxiliaryState& aux,
                                     const Eigen::Ref<const Eigen::VectorXd>& controls,
                                     Eigen::VectorXd& out) const {
  CommandedDeflections(x, aux, controls, out);
  for (std::size_t i = 0; i < actuators_.size(); ++i) out[actuators_[i].control] = aux[static_cast<Eigen::Index>(i)];
}

void FlightModel::DemandedRates(const FlightState& x, const AuxiliaryState& aux,
                                const Eigen::Ref<const Eigen::VectorXd>& controls, Eigen::VectorXd& out) const {
  CommandedDeflections(x, aux, controls, out);
  Eigen::Index next = 0;  // the ideal controls are zeroed between actuated ones
  for (std::size_t i = 0; i < actuators_.size(); ++i) {
    const FlownActuator& a = actuators_[i];
    for (; next < a.control; ++next) out[next] = 0.0;
    const double target = std::clamp(out[a.control], -a.position_limit, a.position_limit);
    out[a.control] = (target - aux[static_cast<Eigen::Index>(i)]) * a.inverse_time_constant;
    next = a.control + 1;
  }
  for (; next < out.size(); ++next) out[next] = 0.0;
}

FlightModel::FlightModel(const model::AircraftData& aircraft, Eigen::MatrixXd E)
    : FlightModel(aircraft) {
  if (E.rows() != kNumLinearStates)
    throw std::invalid_argument("FlightModel: E has " + std::to_string(E.rows()) +
                                " rows, the linear state has " +
                                std::to_string(kNumLinearStates));
  if (!E.allFinite()) throw std::invalid_argument("FlightModel: an entry of E is not finite");
  E_ = std::move(E);
}

std::vector<std::string> FlightModel::control_names() const {
  std::vector<std::string> names;
  for (const model::Control& c : controls_) names.push_back(c.name);
  return names;
}

std::vector<std::string> FlightModel::control_units() const {
  std::vector<std::string> units;
  for (const model::Control& c : controls_) units.emplace_back(core::ToString(c.unit));
  return units;
}

Eigen::Vector3d FlightModel::VelocityNed(const FlightState& x) const {
  const VelocityAngles angles = VelocityAnglesOf(x);
  VelocityAngles s, c;
  for (int i = 0; i < kNumVelocityAngles; ++i) {
    s[i] = std::sin(angles[i]);
    c[i] = std::cos(angles[i]);
  }
  const auto [north, east, down] = VelocityNedFrom(x[kU], s, c);
  return {north, east, down};
}

}  // namespace aerolin::sim
