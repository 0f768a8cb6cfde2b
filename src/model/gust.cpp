#include "aerolin/model/gust.hpp"

#include "aerolin/model/conventions.hpp"

namespace aerolin::model {

const std::vector<core::Signal>& GustSignals() {
  static const std::vector<core::Signal> kSignals = {
      {"u_g", core::Unit::kMetrePerSecond, "u_g"},
      {"v_g", core::Unit::kMetrePerSecond, "v_g"},
      {"w_g", core::Unit::kMetrePerSecond, "w_g"},
      {"p_g", core::Unit::kRadianPerSecond, "p_g"},
  };
  return kSignals;
}

Eigen::MatrixXd BuildGustInput(const AircraftData& aircraft) {
  const FlightCondition& fc = aircraft.condition;
  const LongitudinalDerivatives& lo = aircraft.longitudinal;
  const LateralDerivatives& la = aircraft.lateral;
  const double U0 = fc.U0;
  constexpr int kLat = lon::kNumStates;  // first lateral row
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(kNumGustStates, gust::kNumGusts);

  // Longitudinal: the same D as BuildLongitudinal, and the same order of
  // operations ((Z/U0)/D), so a uniform wind cancels A's terms to rounding.
  const double D = 1.0 - lo.Zadot / U0;
  E(lon::kU, gust::kUg) = -lo.Xu;
  E(lon::kU, gust::kWg) = -lo.Xa / U0;
  E(lon::kAlpha, gust::kUg) = -((lo.Zu / U0) / D);
  E(lon::kAlpha, gust::kWg) = -((lo.Za / U0) / D) / U0;
  // q̇ = M_u u_a + M_α α_a + M_α̇ α̇ with α̇ the inertial rate (α̇_g neglected),
  // which itself carries the α̇ row's gust terms.
  E(lon::kQ, gust::kUg) = -lo.Mu + lo.Madot * E(lon::kAlpha, gust::kUg);
  E(lon::kQ, gust::kWg) = -lo.Ma / U0 + lo.Madot * E(lon::kAlpha, gust::kWg);

  // Lateral: β̇'s p coefficient (W0 + Y_p)/U0 is kinematic in W0.
  E(kLat + lat::kBeta, gust::kVg) = -(la.Yb / U0) / U0;
  E(kLat + lat::kBeta, gust::kPg) = -la.Yp / U0;
  E(kLat + lat::kP, gust::kVg) = -la.Lb / U0;
  E(kLat + lat::kP, gust::kPg) = -la.Lp;
  E(kLat + lat::kR, gust::kVg) = -la.Nb / U0;
  E(kLat + lat::kR, gust::kPg) = -la.Np;
  return E;
}

}  // namespace aerolin::model
