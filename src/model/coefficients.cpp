#include "aerolin/model/coefficients.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <unsupported/Eigen/AutoDiff>


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

template <class T>
DimensionalDerivatives<T> ToDimensional(const CoefficientsAsWritten& k, FieldValue<T> value) {
  using std::cos;
  using std::sin;
  const bool lift_drag = k.family == LongitudinalFamily::kLiftDrag;
  auto opt = [&](const std::optional<double>& o) -> T { return o ? T(value(*o)) : T(0.0); };
  DimensionalDerivatives<T> d;
  const T U0 = k.speed_of_sound ? T(value(*k.mach) * *k.speed_of_sound) : T(value(k.U0));
  const T rho = value(k.rho), theta0 = value(k.theta0), g = value(k.g);
  const T S = value(k.S), c = value(k.c), b = value(k.b);
  d.U0 = U0;
  d.theta0 = theta0;
  d.g = g;
  // C_W0 = W/(½ρU0²S), W = m g if W absent; m = W/g if m absent.
  const T W = k.W ? T(value(*k.W)) : T(value(*k.m) * g);
  const T CW0 = W / (0.5 * rho * U0 * U0 * S);
  d.m = k.m ? T(value(*k.m)) : T(value(*k.W) / g);
  d.Iy = value(k.Iy);
  if (k.axes == InertiaAxes::kBody) {
    const InertiaBlock<T> r = RotateInertiaBlock<T>(value(k.Ix), value(k.Iz), value(k.Ixz), value(*k.alpha0));
    d.Ix = r.Ix;
    d.Iz = r.Iz;
    d.Ixz = r.Ixz;
  } else {
    d.Ix = value(k.Ix);
    d.Iz = value(k.Iz);
    d.Ixz = value(k.Ixz);
  }

  // The force family; the lift/drag family mapped as in the file comment.
  T CXu, CXa, CXq, CZu, CZa, CZq, CZadot;
  if (lift_drag) {
    const T CL0 = k.CL0 ? T(value(*k.CL0)) : T(CW0 * cos(theta0));
    const T CD0 = value(k.CD0);
    CXu = -(value(k.CDu) + 2.0 * CD0) - 2.0 * CW0 * sin(theta0);
    CXa = CL0 - value(k.CDa);
    CXq = -value(k.CDq);
    CZu = -value(k.CLu);
    CZa = -(value(k.CLa) + CD0);
    CZq = -value(k.CLq);
    CZadot = -value(k.CLadot);
  } else {
    CXu = value(k.CXu);
    CXa = value(k.CXa);
    CXq = value(k.CXq);
    CZu = value(k.CZu);
    CZa = value(k.CZa);
    CZq = value(k.CZq);
    CZadot = value(k.CZadot);
  }

  const T half_rUS = 0.5 * rho * U0 * S;      // ½ρU0S
  const T quarter_rUS = 0.25 * rho * U0 * S;  // ¼ρU0S
  const T quarter_rS = 0.25 * rho * S;        // ¼ρS
  const T qS = 0.5 * rho * U0 * U0 * S;       // ½ρU0²S

  // Etkin & Reid Table 4.4 (longitudinal), stability axes.
  d.Xu = rho * U0 * S * CW0 * sin(theta0) + half_rUS * CXu;
  d.Zu = -rho * U0 * S * CW0 * cos(theta0) + half_rUS * CZu;
  d.Mu = half_rUS * c * value(k.Cmu);
  d.Xw = half_rUS * CXa;
  d.Zw = half_rUS * CZa;
  d.Mw = half_rUS * c * value(k.Cma);
  d.Xq = quarter_rUS * c * CXq;
  d.Zq = quarter_rUS * c * CZq;
  d.Mq = quarter_rUS * c * c * value(k.Cmq);
  d.Zwdot = quarter_rS * c * CZadot;
  d.Mwdot = quarter_rS * c * c * value(k.Cmadot);

  // Etkin & Reid Table 4.5 (lateral), stability axes; L and N unprimed.
  d.Yv = half_rUS * value(k.CYb);
  d.Lv = half_rUS * b * value(k.Clb);
  d.Nv = half_rUS * b * value(k.Cnb);
  d.Yp = quarter_rUS * b * value(k.CYp);
  d.Yr = quarter_rUS * b * value(k.CYr);
  d.Lp = quarter_rUS * b * b * value(k.Clp);
  d.Lr = quarter_rUS * b * b * value(k.Clr);
  d.Np = quarter_rUS * b * b * value(k.Cnp);
  d.Nr = quarter_rUS * b * b * value(k.Cnr);

  for (const ControlCoefficients& kc : k.controls) {
    const T CX = lift_drag && kc.CD ? T(-value(*kc.CD)) : opt(kc.CX);
    const T CZ = lift_drag && kc.CL ? T(-value(*kc.CL)) : opt(kc.CZ);
    d.controls.push_back({qS * CX, qS * CZ, qS * c * opt(kc.Cm), qS * opt(kc.CY), qS * b * opt(kc.Cl),
                          qS * b * opt(kc.Cn)});
  }
  return d;
}

#define AEROLIN_INSTANTIATE(T) \
  template DimensionalDerivatives<T> ToDimensional(const CoefficientsAsWritten&, FieldValue<T>);
AEROLIN_MODEL_SCALARS(AEROLIN_INSTANTIATE)
#undef AEROLIN_INSTANTIATE

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
