#include "aerolin/model/conversions.hpp"

#include <cmath>
#include <unsupported/Eigen/AutoDiff>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace aerolin::model {
namespace {

// Whether a conversion throws on what it cannot convert (Convert and the
// double API) or computes what the formulas give (ToNormalized: a sweep may
// pass U0 or a mass through 0 and report the non-finite A itself).
enum class Checks { kThrow, kSkip };

// The identity FieldValue: a double conversion reads the fields as they are.
const auto kAsWritten = [](const double& field) { return field; };

template <class T>
double ValueOf(const T& x) {
  if constexpr (std::is_same_v<T, double>)
    return x;
  else
    return x.value();
}

// √(a² + b²): std::hypot in double; in AD the same value with the derivative of
// √(a² + b²) (Eigen has no hypot), so an AD result's value() is the double one.
double Hypot(double a, double b) { return std::hypot(a, b); }
template <class D>
Eigen::AutoDiffScalar<D> Hypot(const Eigen::AutoDiffScalar<D>& a, const Eigen::AutoDiffScalar<D>& b) {
  using std::sqrt;
  Eigen::AutoDiffScalar<D> h = sqrt(a * a + b * b);
  h.value() = std::hypot(a.value(), b.value());
  return h;
}

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

template <class T>
std::optional<T> DivisorOf(Divisor d, const MassPropertiesOf<T>& mass) {
  switch (d) {
    case Divisor::kMass: return mass.m;
    case Divisor::kIx: return mass.Ix;
    case Divisor::kIy: return mass.Iy;
    case Divisor::kIz: return mass.Iz;
    case Divisor::kNone: break;
  }
  return T(1.0);
}

template <class T>
std::invalid_argument DivisorError(Divisor d, const std::optional<T>& by) {
  return std::invalid_argument(std::string("Normalize: needs ") + NameOf(d) + " > 0" +
                               (by ? ", got " + std::to_string(ValueOf(*by)) : std::string(", absent")));
}

// A derivative as written, normalized if `raw`. A raw 0 needs no divisor (a
// derivative the file does not give has none); with one it is divided like the
// others, which leaves 0 as 0 and gives an AD scalar its ∂/∂(raw) = 1/divisor.
template <class T>
T NormalizedIfRaw(bool raw, const T& v, Divisor d, const MassPropertiesOf<T>& mass, Checks checks) {
  if (!raw) return v;
  const std::optional<T> by = DivisorOf(d, mass);
  if (by && (checks == Checks::kSkip || *by > 0.0)) return v / *by;
  if (checks == Checks::kThrow && !(v == 0.0)) throw DivisorError(d, by);
  return v;
}

template <class T>
void RequirePositiveU0(const T& U0, const char* what, Checks checks) {
  if (checks == Checks::kThrow && !(U0 > 0.0))
    throw std::invalid_argument(std::string(what) + ": U0 must be > 0 to convert the " +
                                "velocity form, got " + std::to_string(ValueOf(U0)));
}

template <class T>
PrimingOf<T> PrimingFor(const MassPropertiesOf<T>& mass, Checks checks) {
  if (!mass.Ixz) return {};
  const bool have = mass.Ix && mass.Iz;
  if (*mass.Ixz == 0.0 && !(have && *mass.Ix > 0.0 && *mass.Iz > 0.0)) return {};
  if (!have) {
    if (checks == Checks::kThrow) throw std::invalid_argument("Priming: Ixz != 0 needs Ix and Iz");
    return {};
  }
  PrimingOf<T> p;
  p.a = *mass.Ixz / *mass.Ix;
  p.b = *mass.Ixz / *mass.Iz;
  p.G = 1.0 - (*mass.Ixz * *mass.Ixz) / (*mass.Ix * *mass.Iz);
  if (checks == Checks::kThrow && !(p.G > 0.0))
    throw std::invalid_argument("Priming: Ixz² >= Ix·Iz, the inertia tensor is not positive definite");
  return p;
}

template <class T>
T SideslipFactorOf(const T& U0, const T& W0) {
  return U0 / Hypot(U0, W0);
}

template <class T>
LongitudinalDerivativesOf<T> Longitudinal(const LongitudinalAsWritten& w, const T& U0,
                                          const MassPropertiesOf<T>& mass, FieldValue<T> value,
                                          Checks checks) {
  auto n = [&](const double& field, Divisor d) { return NormalizedIfRaw(w.raw, value(field), d, mass, checks); };
  LongitudinalDerivativesOf<T> d;
  d.Xu = n(w.Xu, Divisor::kMass);
  d.Zu = n(w.Zu, Divisor::kMass);
  d.Mu = n(w.Mu, Divisor::kIy);
  d.Xq = n(w.Xq, Divisor::kMass);
  d.Zq = n(w.Zq, Divisor::kMass);
  d.Mq = n(w.Mq, Divisor::kIy);
  if (w.form == AngleForm::kVelocity) {
    RequirePositiveU0(U0, "ToLongitudinal", checks);
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

template <class T>
LateralDerivativesOf<T> Lateral(const LateralAsWritten& w, const T& U0, const MassPropertiesOf<T>& mass,
                                FieldValue<T> value, Checks checks) {
  auto n = [&](const double& field, Divisor d) { return NormalizedIfRaw(w.raw, value(field), d, mass, checks); };
  LateralDerivativesOf<T> d;
  d.Yp = n(w.Yp, Divisor::kMass);
  d.Yr = n(w.Yr, Divisor::kMass);
  d.Lp = n(w.Lp, Divisor::kIx);
  d.Lr = n(w.Lr, Divisor::kIx);
  d.Np = n(w.Np, Divisor::kIz);
  d.Nr = n(w.Nr, Divisor::kIz);
  if (w.form == AngleForm::kVelocity) {
    RequirePositiveU0(U0, "ToLateral", checks);
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
    const PrimingOf<T> p = PrimingFor(mass, checks);
    p.Apply(d.Lb, d.Nb);
    p.Apply(d.Lp, d.Np);
    p.Apply(d.Lr, d.Nr);
  }
  return d;
}

template <class T>
MassPropertiesOf<T> MassOf(const AircraftAsWritten& written, FieldValue<T> value) {
  auto optional = [&](const std::optional<double>& o) -> std::optional<T> {
    if (!o) return std::nullopt;
    return value(*o);
  };
  return {optional(written.mass.m), optional(written.mass.Ix), optional(written.mass.Iy),
          optional(written.mass.Iz), optional(written.mass.Ixz)};
}

// A control's derivatives normalized (÷ m, Ix, Iy, Iz where its section is
// raw) and L, N primed where the lateral section is not: ToControl in double,
// ToNormalizedControl in T.
template <class T>
ControlDerivativesOf<T> NormalizeControl(const Control& c, bool longitudinal_raw, bool lateral_raw,
                                         bool lateral_primed, const MassPropertiesOf<T>& mass,
                                         FieldValue<T> value, Checks checks) {
  auto n = [&](const double& field, Divisor d, bool raw) {
    return NormalizedIfRaw(raw, value(field), d, mass, checks);
  };
  ControlDerivativesOf<T> out{n(c.X, Divisor::kMass, longitudinal_raw),
                              n(c.Z, Divisor::kMass, longitudinal_raw),
                              n(c.M, Divisor::kIy, longitudinal_raw),
                              n(c.Y, Divisor::kMass, lateral_raw),
                              n(c.L, Divisor::kIx, lateral_raw),
                              n(c.N, Divisor::kIz, lateral_raw)};
  if (!lateral_primed) PrimingFor(mass, checks).Apply(out.L, out.N);
  return out;
}

template <class T>
NormalizedAircraft<T> NormalizeAircraft(const AircraftAsWritten& written, FieldValue<T> value, Checks checks) {
  NormalizedAircraft<T> out;
  out.condition.U0 = value(written.condition.U0);
  out.condition.W0 = value(written.condition.W0);
  out.condition.theta0 = value(written.condition.theta0);
  out.condition.g = value(written.condition.g);
  const MassPropertiesOf<T> mass = MassOf(written, value);
  const T& U0 = out.condition.U0;
  out.longitudinal = Longitudinal(written.longitudinal, U0, mass, value, checks);
  out.lateral = Lateral(written.lateral, U0, mass, value, checks);
  if (written.lateral.form == AngleForm::kAngle &&
      written.lateral.beta == SideslipDefinition::kVOverV) {
    // Linear in (L_β, N_β), so scaling after the priming equals scaling before.
    const T k = SideslipFactorOf(U0, out.condition.W0);
    out.lateral.Yb = out.lateral.Yb * k;
    out.lateral.Lb = out.lateral.Lb * k;
    out.lateral.Nb = out.lateral.Nb * k;
  }
  return out;
}

}  // namespace

template <class T>
PrimingOf<T> PrimingOf<T>::Of(const MassPropertiesOf<T>& mass) {
  return PrimingFor(mass, Checks::kThrow);
}

template <class T>
void PrimingOf<T>::Apply(T& L, T& N) const {
  // Etkin & Reid eq. 4.12,5: both from the unprimed pair, then assigned.
  const T L_primed = (L + a * N) / G;
  const T N_primed = (N + b * L) / G;
  L = L_primed;
  N = N_primed;
}

template <class T>
NormalizedAircraft<T> ToNormalized(const AircraftAsWritten& written, FieldValue<T> value) {
  return NormalizeAircraft(written, value, Checks::kSkip);
}

template <class T>
ControlDerivativesOf<T> ToNormalizedControl(const AircraftAsWritten& written, const Control& control,
                                            FieldValue<T> value) {
  return NormalizeControl<T>(control, written.longitudinal.raw, written.lateral.raw,
                             written.lateral.primed, MassOf(written, value), value, Checks::kSkip);
}

#define AEROLIN_INSTANTIATE(T) \
  template struct PrimingOf<T>; \
  template NormalizedAircraft<T> ToNormalized(const AircraftAsWritten&, FieldValue<T>); \
  template ControlDerivativesOf<T> ToNormalizedControl(const AircraftAsWritten&, const Control&, \
                                                       FieldValue<T>);
AEROLIN_MODEL_SCALARS(AEROLIN_INSTANTIATE)
#undef AEROLIN_INSTANTIATE

std::optional<double> DivisorValue(Divisor d, const MassProperties& mass) { return DivisorOf(d, mass); }

double Normalize(double raw, Divisor divisor, const MassProperties& mass) {
  const std::optional<double> by = DivisorOf(divisor, mass);
  if (!by || !(*by > 0.0)) throw DivisorError(divisor, by);
  return raw / *by;
}

LongitudinalDerivatives ToLongitudinal(const LongitudinalAsWritten& written, double U0,
                                       const MassProperties& mass) {
  return Longitudinal<double>(written, U0, mass, kAsWritten, Checks::kThrow);
}

LateralDerivatives ToLateral(const LateralAsWritten& written, double U0, const MassProperties& mass) {
  return Lateral<double>(written, U0, mass, kAsWritten, Checks::kThrow);
}

Control ToControl(const Control& written, bool longitudinal_raw, bool lateral_raw,
                  bool lateral_primed, const MassProperties& mass) {
  const ControlDerivativesOf<double> d = NormalizeControl<double>(
      written, longitudinal_raw, lateral_raw, lateral_primed, mass, kAsWritten, Checks::kThrow);
  Control c = written;
  c.X = d.X, c.Z = d.Z, c.M = d.M, c.Y = d.Y, c.L = d.L, c.N = d.N;
  return c;
}

double SideslipFactor(const FlightCondition& condition) {
  return SideslipFactorOf(condition.U0, condition.W0);
}

AircraftData Convert(const AircraftAsWritten& written) {
  const NormalizedAircraft<double> n = NormalizeAircraft<double>(written, kAsWritten, Checks::kThrow);
  AircraftData out;
  out.name = written.name;
  out.source = written.source;
  out.condition = written.condition;
  out.mass = written.mass;
  out.longitudinal = n.longitudinal;
  out.lateral = n.lateral;
  for (const Control& c : written.controls)
    out.controls.push_back(ToControl(c, written.longitudinal.raw, written.lateral.raw,
                                     written.lateral.primed, written.mass));
  return out;
}

}  // namespace aerolin::model
