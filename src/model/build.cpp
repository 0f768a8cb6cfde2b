#include "aerolin/model/build.hpp"

#include <cmath>

#include "aerolin/model/conventions.hpp"

namespace aerolin::model {
using namespace lon;
using namespace lat;
namespace {

std::vector<core::Signal> ControlSignals(const AircraftData& aircraft,
                                         bool longitudinal) {
  std::vector<core::Signal> inputs;
  for (const Control& c : aircraft.controls)
    if (longitudinal ? c.longitudinal : c.lateral)
      inputs.push_back({c.name, c.unit, c.name});
  return inputs;
}

}  // namespace

StateSpace BuildLongitudinal(const AircraftData& aircraft) {
  const FlightCondition& fc = aircraft.condition;
  const LongitudinalDerivatives& d = aircraft.longitudinal;
  const double U0 = fc.U0;
  const double g = fc.g;
  const double cos0 = std::cos(fc.theta0);
  const double sin0 = std::sin(fc.theta0);
  std::vector<core::Signal> inputs = ControlSignals(aircraft, true);
  const auto m = static_cast<Eigen::Index>(inputs.size());

  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(4, 4);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(4, m);

  A.row(kU) << d.Xu, d.Xa, d.Xq - fc.W0, -g * cos0;
  // α row, divided by D = 1 - Zα̇/U0 (Etkin & Reid eq. 4.9,18: m - Zẇ).
  const double D = 1.0 - d.Zadot / U0;
  A.row(kAlpha) << d.Zu / U0, d.Za / U0, 1.0 + d.Zq / U0, -(g / U0) * sin0;
  A.row(kAlpha) /= D;
  // q̇ = Mu u + Mα α + Mq q + Mα̇ α̇, with α̇ from the row above.
  A.row(kQ) << d.Mu, d.Ma, d.Mq, 0.0;
  A.row(kQ) += d.Madot * A.row(kAlpha);
  A(kTheta, kQ) = 1.0;

  Eigen::Index j = 0;
  for (const Control& c : aircraft.controls) {
    if (!c.longitudinal) continue;
    B(kU, j) = c.X;
    B(kAlpha, j) = (c.Z / U0) / D;
    B(kQ, j) = c.M + d.Madot * B(kAlpha, j);
    ++j;
  }

  return StateSpace(std::move(A), std::move(B), LongitudinalStateSignals(),
                    std::move(inputs));
}

StateSpace BuildLateral(const AircraftData& aircraft) {
  const FlightCondition& fc = aircraft.condition;
  const LateralDerivatives& d = aircraft.lateral;
  const double U0 = fc.U0;
  const double cos0 = std::cos(fc.theta0);
  const double tan0 = std::tan(fc.theta0);
  std::vector<core::Signal> inputs = ControlSignals(aircraft, false);
  const auto m = static_cast<Eigen::Index>(inputs.size());

  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(5, 5);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(5, m);
  A.row(kBeta) << d.Yb / U0, (fc.W0 + d.Yp) / U0, d.Yr / U0 - 1.0,
      fc.g * cos0 / U0, 0.0;
  A.row(kP) << d.Lb, d.Lp, d.Lr, 0.0, 0.0;
  A.row(kR) << d.Nb, d.Np, d.Nr, 0.0, 0.0;
  A.row(kPhi) << 0.0, 1.0, tan0, 0.0, 0.0;
  A.row(kPsi) << 0.0, 0.0, 1.0 / cos0, 0.0, 0.0;

  Eigen::Index j = 0;
  for (const Control& c : aircraft.controls) {
    if (!c.lateral) continue;
    B(kBeta, j) = c.Y / U0;
    B(kP, j) = c.L;
    B(kR, j) = c.N;
    ++j;
  }

  return StateSpace(std::move(A), std::move(B), LateralStateSignals(),
                    std::move(inputs));
}

}  // namespace aerolin::model
