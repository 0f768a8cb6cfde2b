#include "aerolin/model/conversions.hpp"

#include <cmath>

#include <stdexcept>
#include <string>

namespace aerolin::model {
namespace {

const char* NameOf(Divisor d) {
  switch (d) {
    case Divisor::kMass: return "m";
    case Divisor::kIx: return "Ix";
    case Divisor::kIy: return "Iy";
    case Divisor::kIz: return "Iz";
    case Divisor::kNone: break;
  }
  return "1";
}

void RequirePositiveU0(double U0, const char* what) {
  if (!(U0 > 0.0))
    throw std::invalid_argument(std::string(what) + ": U0 must be > 0 to convert the " +
                                "velocity form, got " + std::to_string(U0));
}

}  // namespace

std::optional<double> DivisorValue(Divisor d, const MassProperties& mass) {
  switch (d) {
    case Divisor::kMass: return mass.m;
    case Divisor::kIx: return mass.Ix;
    case Divisor::kIy: return mass.Iy;
    case Divisor::kIz: return mass.Iz;
    case Divisor::kNone: break;
  }
  return 1.0;
}

double Normalize(double raw, Divisor divisor, const MassProperties& mass) {
  const std::optional<double> by = DivisorValue(divisor, mass);
  if (!by || !(*by > 0.0))
    throw std::invalid_argument(std::string("Normalize: needs ") + NameOf(divisor) + " > 0" +
                                (by ? ", got " + std::to_string(*by) : std::string(", absent")));
  return raw / *by;
}

Priming Priming::Of(const MassProperties& mass) {
  if (!mass.Ixz || *mass.Ixz == 0.0) return {};
  if (!mass.Ix || !mass.Iz)
    throw std::invalid_argument("Priming: Ixz != 0 needs Ix and Iz");
  Priming p;
  p.a = *mass.Ixz / *mass.Ix;
  p.b = *mass.Ixz / *mass.Iz;
  p.G = 1.0 - (*mass.Ixz * *mass.Ixz) / (*mass.Ix * *mass.Iz);
  if (!(p.G > 0.0))
    throw std::invalid_argument("Priming: Ixz² >= Ix·Iz, the inertia tensor is not positive definite");
  return p;
}

void Priming::Apply(double& L, double& N) const {
  // Etkin & Reid eq. 4.12,5: both from the unprimed pair, then assigned.
  const double L_primed = (L + a * N) / G;
  const double N_primed = (N + b * L) / G;
  L = L_primed;
  N = N_primed;
}

LongitudinalDerivatives ToLongitudinal(const LongitudinalAsWritten& w, double U0,
                                       const MassProperties& mass) {
  auto n = [&](double v, Divisor d) { return w.raw && v != 0.0 ? Normalize(v, d, mass) : v; };
  LongitudinalDerivatives d;
  d.Xu = n(w.Xu, Divisor::kMass);
  d.Zu = n(w.Zu, Divisor::kMass);
  d.Mu = n(w.Mu, Divisor::kIy);
  d.Xq = n(w.Xq, Divisor::kMass);
  d.Zq = n(w.Zq, Divisor::kMass);
  d.Mq = n(w.Mq, Divisor::kIy);
  if (w.form == AngleForm::kVelocity) {
    RequirePositiveU0(U0, "ToLongitudinal");
    // α = w/U0, so ∂/∂α = U0 ∂/∂w (Etkin & Reid §4.9).
    d.Xa = U0 * n(w.Xw, Divisor::kMass);
    d.Za = U0 * n(w.Zw, Divisor::kMass);
    d.Ma = U0 * n(w.Mw, Divisor::kIy);
    d.Madot = U0 * n(w.Mwdot, Divisor::kIy);
    d.Zadot = U0 * n(w.Zwdot, Divisor::kMass);
  } else {
    d.Xa = n(w.Xa, Divisor::kMass);
    d.Za = n(w.Za, Divisor::kMass);
    d.Ma = n(w.Ma, Divisor::kIy);
    d.Madot = n(w.Madot, Divisor::kIy);
    d.Zadot = n(w.Zadot, Divisor::kMass);
  }
  return d;
}

LateralDerivatives ToLateral(const LateralAsWritten& w, double U0, const MassProperties& mass) {
  auto n = [&](double v, Divisor d) { return w.raw && v != 0.0 ? Normalize(v, d, mass) : v; };
  LateralDerivatives d;
  d.Yp = n(w.Yp, Divisor::kMass);
  d.Yr = n(w.Yr, Divisor::kMass);
  d.Lp = n(w.Lp, Divisor::kIx);
  d.Lr = n(w.Lr, Divisor::kIx);
  d.Np = n(w.Np, Divisor::kIz);
  d.Nr = n(w.Nr, Divisor::kIz);
  if (w.form == AngleForm::kVelocity) {
    RequirePositiveU0(U0, "ToLateral");
    // β = v/U0, so ∂/∂β = U0 ∂/∂v.
    d.Yb = U0 * n(w.Yv, Divisor::kMass);
    d.Lb = U0 * n(w.Lv, Divisor::kIx);
    d.Nb = U0 * n(w.Nv, Divisor::kIz);
  } else {
    d.Yb = n(w.Yb, Divisor::kMass);
    d.Lb = n(w.Lb, Divisor::kIx);
    d.Nb = n(w.Nb, Divisor::kIz);
  }
  if (!w.primed) {
    const Priming p = Priming::Of(mass);
    p.Apply(d.Lb, d.Nb);
    p.Apply(d.Lp, d.Np);
    p.Apply(d.Lr, d.Nr);
  }
  return d;
}

Control ToControl(const Control& written, bool longitudinal_raw, bool lateral_raw,
                  bool lateral_primed, const MassProperties& mass) {
  // A derivative a control does not have (0) needs no divisor.
  auto n = [&](double& v, Divisor d, bool raw) {
    if (raw && v != 0.0) v = Normalize(v, d, mass);
  };
  Control c = written;
  n(c.X, Divisor::kMass, longitudinal_raw);
  n(c.Z, Divisor::kMass, longitudinal_raw);
  n(c.M, Divisor::kIy, longitudinal_raw);
  n(c.Y, Divisor::kMass, lateral_raw);
  n(c.L, Divisor::kIx, lateral_raw);
  n(c.N, Divisor::kIz, lateral_raw);
  if (!lateral_primed) Priming::Of(mass).Apply(c.L, c.N);
  return c;
}

double SideslipFactor(const FlightCondition& condition) {
  return condition.U0 / std::hypot(condition.U0, condition.W0);
}

AircraftData Convert(const AircraftAsWritten& written) {
  AircraftData out;
  out.name = written.name;
  out.source = written.source;
  out.condition = written.condition;
  out.mass = written.mass;
  const double U0 = written.condition.U0;
  out.longitudinal = ToLongitudinal(written.longitudinal, U0, written.mass);
  out.lateral = ToLateral(written.lateral, U0, written.mass);
  if (written.lateral.form == AngleForm::kAngle &&
      written.lateral.beta == SideslipDefinition::kVOverV) {
    // Linear in (L_β, N_β), so scaling after the priming equals scaling before.
    const double k = SideslipFactor(written.condition);
    out.lateral.Yb *= k;
    out.lateral.Lb *= k;
    out.lateral.Nb *= k;
  }
  for (const Control& c : written.controls)
    out.controls.push_back(ToControl(c, written.longitudinal.raw, written.lateral.raw,
                                     written.lateral.primed, written.mass));
  return out;
}

}  // namespace aerolin::model
