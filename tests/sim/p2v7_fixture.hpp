#pragma once
// The P2V-7 of data/derivatives/p2v7.toml, converted to SI by hand here (not
// by the data loader), so the sim tests need only core + model.

#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::test {

inline model::AircraftData MakeP2V7() {
  constexpr double ft = 0.3048;  // m per ft
  model::AircraftData a;
  a.name = "Lockheed P2V-7 (test fixture)";
  a.condition.U0 = 293.8 * ft;
  a.condition.g = 9.80665;
  model::LongitudinalDerivatives& lo = a.longitudinal;
  lo.Xu = -0.0215;
  lo.Zu = -0.227;
  lo.Mu = 0.0;
  lo.Xa = 14.7 * ft;
  lo.Za = -236.0 * ft;
  lo.Ma = -3.78;
  lo.Madot = -0.28;
  lo.Xq = 0.0;
  lo.Zq = -5.76 * ft;
  lo.Mq = -0.992;
  model::LateralDerivatives& la = a.lateral;
  la.Yb = -45.4 * ft;
  la.Yp = 0.716 * ft;
  la.Yr = 2.66 * ft;
  la.Lb = -1.71;
  la.Lp = -0.962;
  la.Lr = 0.271;
  la.Nb = 0.986;
  la.Np = -0.0632;
  la.Nr = -0.215;
  model::Control elevator;
  elevator.name = "elevator";
  elevator.longitudinal = true;
  elevator.Z = -12.9 * ft;
  elevator.M = -2.48;
  model::Control throttle;
  throttle.name = "throttle";
  throttle.unit = core::Unit::kOne;
  throttle.longitudinal = true;
  throttle.X = 0.01 * ft;
  model::Control aileron;
  aileron.name = "aileron";
  aileron.lateral = true;
  aileron.L = 1.72;
  aileron.N = -0.0436;
  model::Control rudder;
  rudder.name = "rudder";
  rudder.lateral = true;
  rudder.Y = 9.17 * ft;
  rudder.L = 0.244;
  rudder.N = -0.666;
  a.controls = {elevator, throttle, aileron, rudder};
  return a;
}

}  // namespace aerolin::test
