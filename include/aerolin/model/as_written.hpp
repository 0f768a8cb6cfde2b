#pragma once
/// @file
/// The system matrices as functions of a data file's numbers *as written*
/// (its units, raw or normalized, α- or w-form, primed or not), generic in the
/// scalar type so that a forward-mode automatic-differentiation scalar (Eigen's
/// `AutoDiffScalar`) gives the exact ∂A/∂(key) through every conversion:
/// ÷ mass or inertia, × U0 of the velocity forms, the Ixz priming, the
/// 1/(1 − Zα̇/U0) of the α row, and the trigonometry of θ0.
///
/// A coefficient file (`form = "coefficients"`, model/coefficients.hpp) adds
/// one link in front: keys → CoefficientsAsWritten → ToDimensional → the
/// coefficient sections of AircraftAsWritten → A (MatricesOfFile), so that its
/// derivatives move with U0, ρ, S, c, b, m or W, g, θ0 and the inertias as the
/// conversion says.
///
/// `MatricesOf<double>` equals `BuildLongitudinal(Convert(written)).A()` and
/// `BuildLateral(...)`'s to round-off; tests/model/as_written_test.cpp pins it
/// for every bundled aircraft. (build.cpp keeps its own double code; the
/// formulas are written twice and that test is what keeps them one.)

#include <Eigen/Core>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/model/coefficients.hpp"
#include "aerolin/model/conversions.hpp"

namespace aerolin::model {

/// One number of a data file, by its key as written.
struct WrittenKey {
  std::string path;  ///< "longitudinal.Mw", "condition.theta0_deg", "controls.rudder.N"
  double value = 0;  ///< as written, in the file's units
  double to_si = 1;  ///< the field FieldOf(path) holds value × to_si
};

/// A number of the file that sensitivities and sweeps do not vary, and why.
struct OmittedKey {
  std::string path;    ///< "condition.altitude"
  std::string reason;  ///< one sentence, e.g. "it gives rho through the standard atmosphere, ..."
};

/// A data file's numbers before model::Convert: what sensitivities and
/// sweeps differentiate and vary.
struct AircraftFile {
  AircraftAsWritten written;     ///< SI, in the file's forms (lateral.primed as the file says)
  /// A file with form = "coefficients" (or an AVL .st): its coefficient data,
  /// SI, per radian, inertias about `coefficients->axes`, from which
  /// ToDimensional gives the coefficient sections of `written` (and its U0,
  /// θ0, g, mass). Absent for a dimensional file.
  std::optional<CoefficientsAsWritten> coefficients;
  bool longitudinal_coefficients = false;  ///< [longitudinal] comes from `coefficients`
  bool lateral_coefficients = false;       ///< [lateral] comes from `coefficients`
  std::vector<WrittenKey> keys;  ///< every numeric key the file gives, by section in file order
  std::vector<OmittedKey> omitted;  ///< numbers the file gives that `keys` leaves out, with why

  /// Returns the key `path`, or nullptr if the file does not give it.
  const WrittenKey* Find(std::string_view path) const;
};

/// Returns the field of `written` that the key `path` sets (condition.theta0_deg
/// sets condition.theta0), or nullptr if `path` is no field of the file's
/// forms: a key of the other angle form, an absent [mass] or optional key, an
/// unknown control or key.
const double* FieldOf(const AircraftAsWritten& written, std::string_view path);
double* FieldOf(AircraftAsWritten& written, std::string_view path);

/// Returns the field of `file` that the key `path` sets: for a coefficient
/// file, a field of `file.coefficients` for its condition ("condition.U0",
/// "condition.rho", "condition.alpha0_deg", "condition.mach"), mass
/// ("mass.W"), geometry ("geometry.S") and coefficient keys
/// ("longitudinal.Cmq", "controls.elevator.Cm") and an AVL file's .st numbers
/// ("avl.CLa", "avl.CLtot", "avl.Sref", "avl.elevator.Cm"), else
/// FieldOf(file.written, path) (a dimensional section of a mixed file).
/// nullptr as FieldOf.
const double* FieldOf(const AircraftFile& file, std::string_view path);
double* FieldOf(AircraftFile& file, std::string_view path);

/// Both axes' system matrices in a scalar type T.
template <class T>
struct AxisMatrices {
  Eigen::Matrix<T, 4, 4> longitudinal;  ///< x = (u, α, q, θ); see BuildLongitudinal
  Eigen::Matrix<T, 5, 5> lateral;       ///< x = (β, p, r, φ, ψ); see BuildLateral
};

/// Returns the A matrices of `written` (Convert, then BuildLongitudinal /
/// BuildLateral), reading every number through `value(field) -> T`, where
/// `field` is a reference into `written`: return `T(field)` to evaluate, or a
/// seeded AD scalar (or another value) for the fields a caller varies.
template <class T, class Value>
AxisMatrices<T> MatricesOf(const AircraftAsWritten& w, Value&& value) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  using std::tan;
  const FlightCondition& c = w.condition;
  const T U0 = value(c.U0);
  const T W0 = value(c.W0);
  const T theta0 = value(c.theta0);
  const T g = value(c.g);
  auto optional = [&](const std::optional<double>& o) -> std::optional<T> {
    if (!o) return std::nullopt;
    return value(*o);
  };
  const std::optional<T> m = optional(w.mass.m), Ix = optional(w.mass.Ix),
                         Iy = optional(w.mass.Iy), Iz = optional(w.mass.Iz),
                         Ixz = optional(w.mass.Ixz);
  // Raw ÷ divisor (conversions.cpp: a raw 0 without its divisor stays 0; the
  // loader rejects a nonzero one).
  auto n = [&](bool raw, const double& field, const std::optional<T>& by) -> T {
    const T v = value(field);
    if (!raw || !by) return v;
    return v / *by;
  };

  AxisMatrices<T> out;
  {
    const LongitudinalAsWritten& L = w.longitudinal;
    const bool vel = L.form == AngleForm::kVelocity;
    const bool r = L.raw;
    const T Xu = n(r, L.Xu, m), Zu = n(r, L.Zu, m), Mu = n(r, L.Mu, Iy);
    const T Xq = n(r, L.Xq, m), Zq = n(r, L.Zq, m), Mq = n(r, L.Mq, Iy);
    const T Xa = vel ? T(U0 * n(r, L.Xw, m)) : n(r, L.Xa, m);
    const T Za = vel ? T(U0 * n(r, L.Zw, m)) : n(r, L.Za, m);
    const T Ma = vel ? T(U0 * n(r, L.Mw, Iy)) : n(r, L.Ma, Iy);
    const T Madot = vel ? T(U0 * n(r, L.Mwdot, Iy)) : n(r, L.Madot, Iy);
    const T Zadot = vel ? T(U0 * n(r, L.Zwdot, m)) : n(r, L.Zadot, m);
    Eigen::Matrix<T, 4, 4>& A = out.longitudinal;
    A.setZero();
    // Same operations, in the same order, as BuildLongitudinal.
    A(0, 0) = Xu;
    A(0, 1) = Xa;
    A(0, 2) = Xq - W0;
    A(0, 3) = -g * cos(theta0);
    const T D = 1.0 - Zadot / U0;
    A(1, 0) = (Zu / U0) / D;
    A(1, 1) = (Za / U0) / D;
    A(1, 2) = (1.0 + Zq / U0) / D;
    A(1, 3) = (-(g / U0) * sin(theta0)) / D;
    A(2, 0) = Mu + Madot * A(1, 0);
    A(2, 1) = Ma + Madot * A(1, 1);
    A(2, 2) = Mq + Madot * A(1, 2);
    A(2, 3) = Madot * A(1, 3);
    A(3, 2) = T(1.0);
  }
  {
    const LateralAsWritten& L = w.lateral;
    const bool vel = L.form == AngleForm::kVelocity;
    const bool r = L.raw;
    const T Yp = n(r, L.Yp, m), Yr = n(r, L.Yr, m);
    T Lp = n(r, L.Lp, Ix), Lr = n(r, L.Lr, Ix), Np = n(r, L.Np, Iz), Nr = n(r, L.Nr, Iz);
    T Yb = vel ? T(U0 * n(r, L.Yv, m)) : n(r, L.Yb, m);
    T Lb = vel ? T(U0 * n(r, L.Lv, Ix)) : n(r, L.Lb, Ix);
    T Nb = vel ? T(U0 * n(r, L.Nv, Iz)) : n(r, L.Nb, Iz);
    if (!vel && L.beta == SideslipDefinition::kVOverV) {
      // β = v/V: × U0/V (SideslipFactor), a function of U0 and W0.
      const T k = U0 / sqrt(U0 * U0 + W0 * W0);
      Yb = Yb * k;
      Lb = Lb * k;
      Nb = Nb * k;
    }
    // Priming (Etkin & Reid eq. 4.12,5), also at Ixz = 0 so that ∂/∂Ixz is right there.
    if (!L.primed && Ixz && Ix && Iz) {
      const T a = *Ixz / *Ix, b = *Ixz / *Iz;
      const T G = 1.0 - (*Ixz * *Ixz) / (*Ix * *Iz);
      auto prime = [&](T& l, T& nn) {
        const T lp = (l + a * nn) / G;
        const T np = (nn + b * l) / G;
        l = lp;
        nn = np;
      };
      prime(Lb, Nb);
      prime(Lp, Np);
      prime(Lr, Nr);
    }
    Eigen::Matrix<T, 5, 5>& A = out.lateral;
    A.setZero();
    A(0, 0) = Yb / U0;
    A(0, 1) = (W0 + Yp) / U0;
    A(0, 2) = Yr / U0 - 1.0;
    A(0, 3) = g * cos(theta0) / U0;
    A(1, 0) = Lb;
    A(1, 1) = Lp;
    A(1, 2) = Lr;
    A(2, 0) = Nb;
    A(2, 1) = Np;
    A(2, 2) = Nr;
    A(3, 1) = T(1.0);
    A(3, 2) = tan(theta0);
    A(4, 2) = 1.0 / cos(theta0);
  }
  return out;
}

/// Returns MatricesOf(written) in double.
AxisMatrices<double> MatricesOf(const AircraftAsWritten& written);

/// Returns the A matrices of `file` through its whole chain, reading every
/// number through `value(field) -> T` as MatricesOf, where `field` is a
/// reference into `file` (FieldOf(file, key)): for a dimensional file
/// MatricesOf(file.written); for a coefficient file ToDimensional<T> of
/// `file.coefficients`, whose U0, θ0, g, mass and (coefficient sections')
/// derivatives replace those fields of `file.written` in MatricesOf.
/// `MatricesOfFile<double>(file, identity)` equals MatricesOf(file.written).
template <class T, class Value>
AxisMatrices<T> MatricesOfFile(const AircraftFile& file, Value&& value) {
  if (!file.coefficients) return MatricesOf<T>(file.written, value);
  const DimensionalDerivatives<T> d = ToDimensional<T>(*file.coefficients, value);
  const AircraftAsWritten& w = file.written;
  // The fields of `w` the conversion produced, and their values in T.
  std::array<std::pair<const double*, const T*>, 28> produced;
  std::size_t count = 0;
  auto add = [&](const double& field, const T& v) { produced[count++] = {&field, &v}; };
  add(w.condition.U0, d.U0);
  add(w.condition.theta0, d.theta0);
  add(w.condition.g, d.g);
  if (w.mass.m) add(*w.mass.m, d.m);
  if (w.mass.Ix) add(*w.mass.Ix, d.Ix);
  if (w.mass.Iy) add(*w.mass.Iy, d.Iy);
  if (w.mass.Iz) add(*w.mass.Iz, d.Iz);
  if (w.mass.Ixz) add(*w.mass.Ixz, d.Ixz);
  if (file.longitudinal_coefficients) {
    const LongitudinalAsWritten& L = w.longitudinal;
    add(L.Xu, d.Xu), add(L.Zu, d.Zu), add(L.Mu, d.Mu), add(L.Xw, d.Xw), add(L.Zw, d.Zw);
    add(L.Mw, d.Mw), add(L.Xq, d.Xq), add(L.Zq, d.Zq), add(L.Mq, d.Mq), add(L.Zwdot, d.Zwdot);
    add(L.Mwdot, d.Mwdot);
  }
  if (file.lateral_coefficients) {
    const LateralAsWritten& L = w.lateral;
    add(L.Yv, d.Yv), add(L.Lv, d.Lv), add(L.Nv, d.Nv), add(L.Yp, d.Yp), add(L.Yr, d.Yr);
    add(L.Lp, d.Lp), add(L.Lr, d.Lr), add(L.Np, d.Np), add(L.Nr, d.Nr);
  }
  return MatricesOf<T>(w, [&](const double& field) -> T {
    for (std::size_t i = 0; i < count; ++i)
      if (produced[i].first == &field) return *produced[i].second;
    return value(field);
  });
}

}  // namespace aerolin::model
