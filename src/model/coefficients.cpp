#include "aerolin/model/coefficients.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "aerolin/model/inertia_axes.hpp"

namespace aerolin::model {
namespace {

void RequirePositive(double v, const char* what) {
  if (!(v > 0.0) || !std::isfinite(v))
    throw std::invalid_argument(std::string("coefficient form: ") + what + " must be > 0");
}

}  // namespace

double WeightCoefficient(const CoefficientsAsWritten& k) {
  RequirePositive(k.U0, "U0");
  RequirePositive(k.rho, "rho");
  RequirePositive(k.S, "S");
  RequirePositive(k.g, "g");
  if (!k.W && !k.m) throw std::invalid_argument("coefficient form: give the mass m or the weight W");
  const double W = k.W ? *k.W : *k.m * k.g;
  return W / (0.5 * k.rho * k.U0 * k.U0 * k.S);
}

CoefficientsAsWritten ToForceFamily(const CoefficientsAsWritten& k) {
  CoefficientsAsWritten f = k;
  if (k.family == LongitudinalFamily::kForce) return f;
  // Stability axes, constant thrust; see the header.
  const double CW0 = WeightCoefficient(k);
  const double CL0 = k.CL0 ? *k.CL0 : CW0 * std::cos(k.theta0);
  f.CXu = -(k.CDu + 2.0 * k.CD0) - 2.0 * CW0 * std::sin(k.theta0);
  f.CXa = CL0 - k.CDa;
  f.CXq = -k.CDq;
  f.CXadot = 0.0;
  f.CZu = -k.CLu;
  f.CZa = -(k.CLa + k.CD0);
  f.CZq = -k.CLq;
  f.CZadot = -k.CLadot;
  for (ControlCoefficients& c : f.controls) {
    if (c.CD) c.CX = -*c.CD;
    if (c.CL) c.CZ = -*c.CL;
  }
  f.family = LongitudinalFamily::kForce;
  return f;
}

AircraftAsWritten ToDimensional(const CoefficientsAsWritten& written) {
  const CoefficientsAsWritten k = ToForceFamily(written);
  RequirePositive(k.c, "c");
  RequirePositive(k.b, "b");
  RequirePositive(k.Ix, "Ix");
  RequirePositive(k.Iy, "Iy");
  RequirePositive(k.Iz, "Iz");
  if (k.CXadot != 0.0)
    throw std::invalid_argument(
        "coefficient form: CXadot must be 0 (aerolin's model has no X_wdot term)");
  if (k.axes == InertiaAxes::kBody && !k.alpha0)
    throw std::invalid_argument("coefficient form: body-axis inertias need alpha0");
  const double CW0 = WeightCoefficient(k);

  const double rho = k.rho, U0 = k.U0, S = k.S, c = k.c, b = k.b;
  const double half_rUS = 0.5 * rho * U0 * S;      // ½ρU0S
  const double quarter_rUS = 0.25 * rho * U0 * S;  // ¼ρU0S
  const double quarter_rS = 0.25 * rho * S;        // ¼ρS
  const double qS = 0.5 * rho * U0 * U0 * S;       // ½ρU0²S

  AircraftAsWritten out;
  out.name = k.name;
  out.source = k.source;
  out.condition.U0 = U0;
  out.condition.W0 = 0.0;
  out.condition.theta0 = k.theta0;
  out.condition.g = k.g;
  out.condition.altitude = k.altitude;
  out.condition.mach = k.mach;

  MassProperties mass;
  mass.m = k.m ? *k.m : *k.W / k.g;
  mass.Ix = k.Ix;
  mass.Iy = k.Iy;
  mass.Iz = k.Iz;
  mass.Ixz = k.Ixz;
  out.mass = k.axes == InertiaAxes::kBody ? RotateInertias(mass, *k.alpha0) : mass;

  // Etkin & Reid Table 4.4 (longitudinal), stability axes.
  LongitudinalAsWritten& lon = out.longitudinal;
  lon.raw = true;
  lon.form = AngleForm::kVelocity;
  lon.Xu = rho * U0 * S * CW0 * std::sin(k.theta0) + half_rUS * k.CXu;
  lon.Zu = -rho * U0 * S * CW0 * std::cos(k.theta0) + half_rUS * k.CZu;
  lon.Mu = half_rUS * c * k.Cmu;
  lon.Xw = half_rUS * k.CXa;
  lon.Zw = half_rUS * k.CZa;
  lon.Mw = half_rUS * c * k.Cma;
  lon.Xq = quarter_rUS * c * k.CXq;
  lon.Zq = quarter_rUS * c * k.CZq;
  lon.Mq = quarter_rUS * c * c * k.Cmq;
  lon.Zwdot = quarter_rS * c * k.CZadot;
  lon.Mwdot = quarter_rS * c * c * k.Cmadot;

  // Etkin & Reid Table 4.5 (lateral), stability axes; L and N unprimed.
  LateralAsWritten& lat = out.lateral;
  lat.raw = true;
  lat.form = AngleForm::kVelocity;
  lat.primed = false;
  lat.Yv = half_rUS * k.CYb;
  lat.Lv = half_rUS * b * k.Clb;
  lat.Nv = half_rUS * b * k.Cnb;
  lat.Yp = quarter_rUS * b * k.CYp;
  lat.Yr = quarter_rUS * b * k.CYr;
  lat.Lp = quarter_rUS * b * b * k.Clp;
  lat.Lr = quarter_rUS * b * b * k.Clr;
  lat.Np = quarter_rUS * b * b * k.Cnp;
  lat.Nr = quarter_rUS * b * b * k.Cnr;

  for (const ControlCoefficients& kc : k.controls) {
    Control ctl;
    ctl.name = kc.name;
    ctl.unit = kc.unit;
    ctl.min = kc.min;
    ctl.max = kc.max;
    ctl.longitudinal = kc.CX || kc.CZ || kc.Cm;
    ctl.lateral = kc.CY || kc.Cl || kc.Cn;
    ctl.X = qS * kc.CX.value_or(0.0);
    ctl.Z = qS * kc.CZ.value_or(0.0);
    ctl.M = qS * c * kc.Cm.value_or(0.0);
    ctl.Y = qS * kc.CY.value_or(0.0);
    ctl.L = qS * b * kc.Cl.value_or(0.0);
    ctl.N = qS * b * kc.Cn.value_or(0.0);
    out.controls.push_back(std::move(ctl));
  }
  return out;
}

}  // namespace aerolin::model
