#include "aerolin/model/build.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <unsupported/Eigen/AutoDiff>

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

// The divisor of the α row, D = 1 - Zα̇/U0 (Etkin & Reid eq. 4.9,18: m - Zẇ).
template <class T>
T AlphaRowDivisor(const FlightConditionOf<T>& c, const LongitudinalDerivativesOf<T>& d) {
  return 1.0 - d.Zadot / c.U0;
}

}  // namespace

template <class T>
Eigen::Matrix<T, 4, 4> LongitudinalA(const FlightConditionOf<T>& c,
                                     const LongitudinalDerivativesOf<T>& d) {
  using std::cos;
  using std::sin;
  Eigen::Matrix<T, 4, 4> A;
  A.setZero();
  A(kU, kU) = d.Xu;
  A(kU, kAlpha) = d.Xa;
  A(kU, kQ) = d.Xq - c.W0;
  A(kU, kTheta) = -c.g * cos(c.theta0);
  const T D = AlphaRowDivisor(c, d);
  A(kAlpha, kU) = (d.Zu / c.U0) / D;
  A(kAlpha, kAlpha) = (d.Za / c.U0) / D;
  A(kAlpha, kQ) = (1.0 + d.Zq / c.U0) / D;
  A(kAlpha, kTheta) = (-(c.g / c.U0) * sin(c.theta0)) / D;
  // q̇ = Mu u + Mα α + Mq q + Mα̇ α̇, with α̇ from the row above.
  A(kQ, kU) = d.Mu + d.Madot * A(kAlpha, kU);
  A(kQ, kAlpha) = d.Ma + d.Madot * A(kAlpha, kAlpha);
  A(kQ, kQ) = d.Mq + d.Madot * A(kAlpha, kQ);
  A(kQ, kTheta) = d.Madot * A(kAlpha, kTheta);
  A(kTheta, kQ) = T(1.0);
  return A;
}

template <class T>
Eigen::Matrix<T, 4, 1> LongitudinalB(const FlightConditionOf<T>& c,
                                     const LongitudinalDerivativesOf<T>& d, const T& X,
                                     const T& Z, const T& M) {
  Eigen::Matrix<T, 4, 1> b;
  b.setZero();
  b(kU) = X;
  b(kAlpha) = (Z / c.U0) / AlphaRowDivisor(c, d);
  b(kQ) = M + d.Madot * b(kAlpha);
  return b;
}

template <class T>
Eigen::Matrix<T, 5, 5> LateralA(const FlightConditionOf<T>& c, const LateralDerivativesOf<T>& d) {
  using std::cos;
  using std::tan;
  Eigen::Matrix<T, 5, 5> A;
  A.setZero();
  A(kBeta, kBeta) = d.Yb / c.U0;
  A(kBeta, kP) = (c.W0 + d.Yp) / c.U0;
  A(kBeta, kR) = d.Yr / c.U0 - 1.0;
  A(kBeta, kPhi) = c.g * cos(c.theta0) / c.U0;
  A(kP, kBeta) = d.Lb;
  A(kP, kP) = d.Lp;
  A(kP, kR) = d.Lr;
  A(kR, kBeta) = d.Nb;
  A(kR, kP) = d.Np;
  A(kR, kR) = d.Nr;
  A(kPhi, kP) = T(1.0);
  A(kPhi, kR) = tan(c.theta0);
  A(kPsi, kR) = 1.0 / cos(c.theta0);
  return A;
}

template <class T>
Eigen::Matrix<T, 5, 1> LateralB(const FlightConditionOf<T>& c, const T& Y, const T& L, const T& N) {
  Eigen::Matrix<T, 5, 1> b;
  b.setZero();
  b(kBeta) = Y / c.U0;
  b(kP) = L;
  b(kR) = N;
  return b;
}

#define AEROLIN_INSTANTIATE(T)                                                                 \
  template Eigen::Matrix<T, 4, 4> LongitudinalA(const FlightConditionOf<T>&,                   \
                                                const LongitudinalDerivativesOf<T>&);          \
  template Eigen::Matrix<T, 4, 1> LongitudinalB(const FlightConditionOf<T>&,                   \
                                                const LongitudinalDerivativesOf<T>&, const T&, \
                                                const T&, const T&);                           \
  template Eigen::Matrix<T, 5, 5> LateralA(const FlightConditionOf<T>&,                        \
                                           const LateralDerivativesOf<T>&);                    \
  template Eigen::Matrix<T, 5, 1> LateralB(const FlightConditionOf<T>&, const T&, const T&,    \
                                           const T&);
AEROLIN_MODEL_SCALARS(AEROLIN_INSTANTIATE)
#undef AEROLIN_INSTANTIATE

namespace {

// A − B_K K for the augmentation `aug` (inputs by name among `inputs`).
Eigen::MatrixXd Closed(Eigen::MatrixXd A, const Eigen::MatrixXd& B,
                       const std::vector<core::Signal>& inputs,
                       const std::optional<AxisAugmentation>& aug, const char* axis) {
  if (!aug) return A;
  if (aug->gain.rows() != static_cast<Eigen::Index>(aug->inputs.size()) || aug->gain.cols() != A.cols())
    throw std::invalid_argument(std::string("the ") + axis + " augmentation's gain must be " +
                                std::to_string(aug->inputs.size()) + "×" + std::to_string(A.cols()) +
                                ", got " + std::to_string(aug->gain.rows()) + "×" +
                                std::to_string(aug->gain.cols()));
  for (std::size_t i = 0; i < aug->inputs.size(); ++i) {
    std::size_t j = 0;
    while (j < inputs.size() && inputs[j].name != aug->inputs[i]) ++j;
    if (j == inputs.size())
      throw std::invalid_argument(std::string("the ") + axis + " augmentation feeds back '" +
                                  aug->inputs[i] + "', which is no " + axis + " control");
    A -= B.col(static_cast<Eigen::Index>(j)) * aug->gain.row(static_cast<Eigen::Index>(i));
  }
  return A;
}

}  // namespace

StateSpace BuildLongitudinal(const AircraftData& aircraft) {
  const LongitudinalDerivatives& d = aircraft.longitudinal;
  std::vector<core::Signal> inputs = ControlSignals(aircraft, true);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(4, static_cast<Eigen::Index>(inputs.size()));
  Eigen::Index j = 0;
  for (const Control& c : aircraft.controls)
    if (c.longitudinal) B.col(j++) = LongitudinalB(aircraft.condition, d, c.X, c.Z, c.M);
  Eigen::MatrixXd A = Closed(LongitudinalA(aircraft.condition, d), B, inputs,
                             aircraft.longitudinal_augmentation, "longitudinal");
  return StateSpace(std::move(A), std::move(B), LongitudinalStateSignals(), std::move(inputs));
}

StateSpace BuildLateral(const AircraftData& aircraft) {
  std::vector<core::Signal> inputs = ControlSignals(aircraft, false);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(5, static_cast<Eigen::Index>(inputs.size()));
  Eigen::Index j = 0;
  for (const Control& c : aircraft.controls)
    if (c.lateral) B.col(j++) = LateralB(aircraft.condition, c.Y, c.L, c.N);
  Eigen::MatrixXd A = Closed(LateralA(aircraft.condition, aircraft.lateral), B, inputs,
                             aircraft.lateral_augmentation, "lateral");
  return StateSpace(std::move(A), std::move(B), LateralStateSignals(), std::move(inputs));
}

}  // namespace aerolin::model
