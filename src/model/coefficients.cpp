#include "aerolin/model/coefficients.hpp"

#include <cmath>
#include <stdexcept>
#include <string>


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
  if (k.speed_of_sound && !k.mach)
    throw std::invalid_argument("coefficient form: U0 = mach x speed of sound needs mach");
  WeightCoefficient(k);  // its checks

  // The one conversion (the header's template), in double.
  const DimensionalDerivatives<double> d =
      ToDimensional<double>(written, [](const double& field) { return field; });

  AircraftAsWritten out;
  out.name = k.name;
  out.source = k.source;
  out.condition.U0 = d.U0;
  out.condition.W0 = 0.0;
  out.condition.theta0 = d.theta0;
  out.condition.g = d.g;
  out.condition.altitude = k.altitude;
  out.condition.mach = k.mach;

  // Body axes: rotated by α0 (inertia_axes.hpp), as RotateInertias, which
  // returns them unchanged at α0 = 0 (the rotation gives the same numbers there).
  out.mass.m = d.m;
  out.mass.Ix = d.Ix;
  out.mass.Iy = d.Iy;
  out.mass.Iz = d.Iz;
  out.mass.Ixz = d.Ixz;

  LongitudinalAsWritten& lon = out.longitudinal;
  lon.raw = true;
  lon.form = AngleForm::kVelocity;
  lon.Xu = d.Xu;
  lon.Zu = d.Zu;
  lon.Mu = d.Mu;
  lon.Xw = d.Xw;
  lon.Zw = d.Zw;
  lon.Mw = d.Mw;
  lon.Xq = d.Xq;
  lon.Zq = d.Zq;
  lon.Mq = d.Mq;
  lon.Zwdot = d.Zwdot;
  lon.Mwdot = d.Mwdot;

  LateralAsWritten& lat = out.lateral;
  lat.raw = true;
  lat.form = AngleForm::kVelocity;
  lat.primed = false;
  lat.Yv = d.Yv;
  lat.Lv = d.Lv;
  lat.Nv = d.Nv;
  lat.Yp = d.Yp;
  lat.Yr = d.Yr;
  lat.Lp = d.Lp;
  lat.Lr = d.Lr;
  lat.Np = d.Np;
  lat.Nr = d.Nr;

  for (std::size_t i = 0; i < k.controls.size(); ++i) {
    const ControlCoefficients& kc = k.controls[i];
    const DimensionalDerivatives<double>::ControlDerivatives& dc = d.controls[i];
    Control ctl;
    ctl.name = kc.name;
    ctl.unit = kc.unit;
    ctl.min = kc.min;
    ctl.max = kc.max;
    ctl.longitudinal = kc.CX || kc.CZ || kc.Cm;
    ctl.lateral = kc.CY || kc.Cl || kc.Cn;
    ctl.X = dc.X;
    ctl.Z = dc.Z;
    ctl.M = dc.M;
    ctl.Y = dc.Y;
    ctl.L = dc.L;
    ctl.N = dc.N;
    out.controls.push_back(std::move(ctl));
  }
  return out;
}

}  // namespace aerolin::model
