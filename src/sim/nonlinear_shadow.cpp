#include "aerolin/sim/nonlinear_shadow.hpp"

#include "aerolin/core/error.hpp"
#include "aerolin/sim/flight_model.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string_view>

namespace aerolin::sim {
namespace {

// Below these a state's linear peak is no scale to measure a difference by:
// 1 m/s for u, 1° for angles, 1°/s for rates (FlightStateIndex order), so a
// state the linear flight leaves at 0 parts when the nonlinear one moves it
// by 0.1° (or 0.1 m/s), not at rounding.
constexpr double kDeg = 0.017453292519943295;
constexpr std::array<double, 9> kFloor = {1.0, kDeg, kDeg, kDeg, kDeg, kDeg, kDeg, kDeg, kDeg};

}  // namespace

NonlinearState NonlinearStateOf(const NonlinearModel& model, const FlightState& x,
                                double altitude0) {
  NonlinearState s = NonlinearState::Zero();
  s.segment<3>(nl::kU) =
      BodyVelocityOf(model.U0(), std::atan2(model.W0(), model.U0()), x(kU), x(kAlpha), x(kBeta));
  s(nl::kP) = x(kP);
  s(nl::kQ) = x(kQ);
  s(nl::kR) = x(kR);
  s.segment<4>(nl::kQ0) = QuaternionFromEuler(x(kPhi), model.theta0() + x(kTheta), x(kPsi));
  s(nl::kNorth) = x(kNorth);
  s(nl::kEast) = x(kEast);
  s(nl::kDown) = x(kDown) - altitude0;
  return s;
}

FlightState PerturbationOf(const NonlinearModel& model, const NonlinearState& s, double altitude0) {
  const double alpha0 = std::atan2(model.W0(), model.U0());
  const Eigen::Vector3d euler = EulerFromQuaternion(s.segment<4>(nl::kQ0));
  const double V = s.segment<3>(nl::kU).norm();
  FlightState x;
  x(kU) = s(nl::kU) - model.U0();
  x(kAlpha) = std::atan2(s(nl::kW), s(nl::kU)) - alpha0;
  x(kQ) = s(nl::kQ);
  x(kTheta) = euler(1) - model.theta0();
  x(kBeta) = V > 0.0 ? std::asin(std::clamp(s(nl::kV) / V, -1.0, 1.0)) : 0.0;
  x(kP) = s(nl::kP);
  x(kR) = s(nl::kR);
  x(kPhi) = euler(0);
  x(kPsi) = euler(2);
  x(kNorth) = s(nl::kNorth);
  x(kEast) = s(nl::kEast);
  x(kDown) = s(nl::kDown) + altitude0;
  return x;
}

NonlinearShadow::NonlinearShadow(NonlinearModel model, const SliceOptions& options,
                                 const FlightState& x0, double altitude0, FlightRecorder* linear,
                                 FlightRecorder* nonlinear)
    : slicer_(model, options, NonlinearStateOf(model, x0, altitude0)),
      altitude0_(altitude0),
      linear_(linear),
      nonlinear_(nonlinear),
      monitor_(ValidityThresholds{}, model.U0(), std::atan2(model.W0(), model.U0())) {
  input_.controls = Eigen::VectorXd::Zero(model.num_controls());
}

void NonlinearShadow::Begin(const std::vector<std::string>& control_names) {
  if (linear_ != nullptr) linear_->Begin(control_names);
  if (nonlinear_ != nullptr) nonlinear_->Begin(control_names);
}

void NonlinearShadow::Record(double t, const FlightState& x, const Eigen::VectorXd& controls) {
  if (!departed_ && !first_) {
    input_.controls = controls;
    try {
      slicer_.Advance(input_);
    } catch (const core::NumericalError& e) {
      departed_ = fmt::format("integrator failed at t = {:g} s: {}", t, e.what());
    }
  }
  first_ = false;
  if (departed_) {
    if (linear_ != nullptr) linear_->Record(t, x, controls);
    return;
  }
  const FlightState y = PerturbationOf(slicer_.model(), slicer_.state(), altitude0_);
  if (!monitor_.Check(t, y)) {
    // The monitor's message ends "; run stopped": here only the nonlinear
    // flight stops.
    std::string why = monitor_.divergence().value_or("state diverged");
    constexpr std::string_view kRunStopped = "; run stopped";
    if (why.ends_with(kRunStopped)) why.resize(why.size() - kRunStopped.size());
    departed_ = std::move(why);
    if (linear_ != nullptr) linear_->Record(t, x, controls);
    return;
  }
  if (slicer_.model().has_tables()) {
    for (const model::TableExcursion& e : slicer_.model().TableExcursionsAt(slicer_.state(), input_)) {
      const auto same = [&e](const TableDeparture& d) {
        return d.farthest.variable == e.variable && d.farthest.low == e.low && d.farthest.high == e.high;
      };
      const auto beyond = [](const model::TableExcursion& x) {
        return std::max(x.low - x.value, x.value - x.high);
      };
      auto it = std::find_if(departures_.begin(), departures_.end(), same);
      if (it == departures_.end())
        departures_.push_back({e, t});
      else if (beyond(e) > beyond(it->farthest) || e.tables.size() > it->farthest.tables.size())
        it->farthest = e;
    }
  }
  for (int i = 0; i < 9; ++i) {
    peak_[i] = std::max(peak_[i], std::abs(x(i)));
    if (!parted_[i] && std::abs(y(i) - x(i)) > kPartingFraction * std::max(peak_[i], kFloor[i]))
      parted_[i] = t;
  }
  if (linear_ != nullptr) linear_->Record(t, x, controls);
  if (nonlinear_ != nullptr) nonlinear_->Record(t, y, controls);
}

std::vector<Parting> NonlinearShadow::partings() const {
  std::vector<Parting> out;
  const std::vector<core::Signal>& names = FlightStateSignals();
  for (int i = 0; i < 9; ++i)
    if (parted_[i]) out.push_back({names[static_cast<std::size_t>(i)].name, *parted_[i]});
  std::stable_sort(out.begin(), out.end(),
                   [](const Parting& a, const Parting& b) { return a.time < b.time; });
  return out;
}

std::string TableDeparture::ToString() const {
  return farthest.ToString() + fmt::format(", from t = {:g} s (the farthest value)", first_time);
}

}  // namespace aerolin::sim
