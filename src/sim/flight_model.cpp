#include "aerolin/sim/flight_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::sim {

FlightModel::FlightModel(const model::AircraftData& aircraft)
    : U0_(aircraft.condition.U0),
      theta0_(aircraft.condition.theta0),
      alpha0_(std::atan2(aircraft.condition.W0, aircraft.condition.U0)),
      controls_(aircraft.controls) {
  const model::StateSpace lon = model::BuildLongitudinal(aircraft);
  const model::StateSpace lat = model::BuildLateral(aircraft);
  A_.setZero();
  A_.topLeftCorner<4, 4>() = lon.A();
  A_.bottomRightCorner<5, 5>() = lat.A();
  A_lon_ = lon.A();
  A_lat_ = lat.A();
  // The sub-models list their inputs in data-file order, keeping only the
  // controls of their axis; scatter their B columns back to file order.
  B_ = Eigen::MatrixXd::Zero(kNumLinearStates,
                             static_cast<Eigen::Index>(controls_.size()));
  Eigen::Index j_lon = 0, j_lat = 0;
  for (std::size_t c = 0; c < controls_.size(); ++c) {
    const auto col = static_cast<Eigen::Index>(c);
    if (controls_[c].longitudinal) B_.col(col).head<4>() = lon.B().col(j_lon++);
    if (controls_[c].lateral) B_.col(col).tail<5>() = lat.B().col(j_lat++);
  }
  // The feedback the builders closed into A, δ = M δ_pilot − K x
  // (model::FeedbackOf), scattered to file order.
  K_ = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(controls_.size()), kNumLinearStates);
  auto scatter = [&](const std::optional<model::AxisAugmentation>& aug, model::Axis axis, int first_state) {
    if (!aug) return;
    const model::ClosedFeedback f = model::FeedbackOf(aircraft, axis);
    const bool lon = axis == model::Axis::kLongitudinal;
    std::vector<Eigen::Index> columns;  // the axis's inputs' control columns
    for (std::size_t c = 0; c < controls_.size(); ++c)
      if (lon ? controls_[c].longitudinal : controls_[c].lateral) columns.push_back(static_cast<Eigen::Index>(c));
    for (std::size_t i = 0; i < columns.size(); ++i)
      K_.row(columns[i]).segment(first_state, f.gain.cols()) = f.gain.row(static_cast<Eigen::Index>(i));
    if (f.command.isIdentity(0.0)) return;
    if (command_.size() == 0) command_ = Eigen::MatrixXd::Identity(K_.rows(), K_.rows());
    for (std::size_t i = 0; i < columns.size(); ++i)
      for (std::size_t j = 0; j < columns.size(); ++j)
        command_(columns[i], columns[j]) = f.command(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
  };
  scatter(aircraft.longitudinal_augmentation, model::Axis::kLongitudinal, kU);
  scatter(aircraft.lateral_augmentation, model::Axis::kLateral, kBeta);
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
    if (actuators_.size() == static_cast<std::size_t>(kMaxAuxiliaryStates))
      throw std::invalid_argument("FlightModel: more than " + std::to_string(kMaxAuxiliaryStates) +
                                  " actuators; the flight carries at most that many");
    actuators_.push_back({col, 1.0 / actuator.time_constant, actuator.position_limit.value_or(kNone),
                          actuator.rate_limit.value_or(kNone), K_.row(col)});
  }
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

void FlightModel::CommandedDeflections(const FlightState& x,
                                       const Eigen::Ref<const Eigen::VectorXd>& controls,
                                       Eigen::VectorXd& out) const {
  out.resize(static_cast<Eigen::Index>(controls_.size()));
  for (Eigen::Index c = 0; c < out.size(); ++c)
    out[c] = (command_.size() != 0 ? command_.row(c).dot(controls) : controls[c]) -
             K_.row(c).dot(x.head<kNumLinearStates>());
}

void FlightModel::SurfaceDeflections(const FlightState& x, const AuxiliaryState& aux,
                                     const Eigen::Ref<const Eigen::VectorXd>& controls,
                                     Eigen::VectorXd& out) const {
  CommandedDeflections(x, controls, out);
  for (std::size_t i = 0; i < actuators_.size(); ++i) out[actuators_[i].control] = aux[static_cast<Eigen::Index>(i)];
}

void FlightModel::DemandedRates(const FlightState& x, const AuxiliaryState& aux,
                                const Eigen::Ref<const Eigen::VectorXd>& controls, Eigen::VectorXd& out) const {
  CommandedDeflections(x, controls, out);
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
  // Body velocity from the exact definitions α = atan(w/u), β = asin(v/V):
  // V cos β = sqrt(u² + w²) = u / cos α, hence v = u tan β / cos α.
  const Eigen::Vector3d body = BodyVelocityOf(U0_, alpha0_, x[kU], x[kAlpha], x[kBeta]);
  const double ub = body.x(), vb = body.y(), wb = body.z();
  // R = Rz(ψ) Ry(θ) Rx(φ) written out (the same matrix as
  // core::BodyToEarth, checked by a test): this runs ~6 times per RK step.
  const double theta = theta0_ + x[kTheta];
  const double cp = std::cos(x[kPhi]), sp = std::sin(x[kPhi]);
  const double ct = std::cos(theta), st = std::sin(theta);
  const double cs = std::cos(x[kPsi]), ss = std::sin(x[kPsi]);
  // Body → earth, column by column applied to (ub, vb, wb).
  const double y1 = cp * vb - sp * wb;  // Rx(φ) rows 2, 3
  const double z1 = sp * vb + cp * wb;
  const double x2 = ct * ub + st * z1;  // Ry(θ)
  const double z2 = -st * ub + ct * z1;
  return {cs * x2 - ss * y1, ss * x2 + cs * y1, z2};  // Rz(ψ)
}

}  // namespace aerolin::sim
