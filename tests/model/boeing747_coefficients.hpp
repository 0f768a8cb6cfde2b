#pragma once
// Test helper: Etkin & Reid's 747 at 40 000 ft as coefficients, typed so the
// model and export tests need no loader.

#include "aerolin/model/coefficients.hpp"

namespace aerolin::model::testing {

/// Etkin & Reid 3rd ed., Boeing 747 at 40 000 ft: the nondimensional
/// derivatives of Tables 6.1 and 6.6 (the bundled coefficient file), with
/// ρ = 0.3045 kg/m³, U0 = 235.9 m/s, S = 511 m², c = 8.324 m, b = 59.64 m,
/// W = 2.83176e6 N (p. 165); elevator and rudder.
inline CoefficientsAsWritten Boeing747Coefficients() {
  CoefficientsAsWritten k;
  k.U0 = 235.9;
  k.rho = 0.3045;
  k.g = 9.81;
  k.S = 511.0;
  k.c = 8.324;
  k.b = 59.64;
  k.W = 2.83176e6;
  k.Ix = 0.247e8;
  k.Iy = 0.449e8;
  k.Iz = 0.673e8;
  k.Ixz = -0.212e7;
  k.CXu = -0.1080, k.CXa = 0.2193, k.CZu = -0.1060, k.CZa = -4.920, k.CZq = -5.921;
  k.CZadot = 5.896, k.Cmu = 0.1043, k.Cma = -1.023, k.Cmq = -23.92, k.Cmadot = -6.314;
  k.CYb = -0.8771, k.Clb = -0.2797, k.Clp = -0.3295, k.Clr = 0.3040;
  k.Cnb = 0.1946, k.Cnp = -0.04073, k.Cnr = -0.2737;
  ControlCoefficients elevator;
  elevator.name = "elevator";
  elevator.CX = -3.818e-6, elevator.CZ = -0.3648, elevator.Cm = -1.444;
  ControlCoefficients rudder;
  rudder.name = "rudder";
  rudder.CY = 0.1146, rudder.Cl = 6.976e-3, rudder.Cn = -0.07;
  k.controls = {elevator, rudder};
  return k;
}

}  // namespace aerolin::model::testing
