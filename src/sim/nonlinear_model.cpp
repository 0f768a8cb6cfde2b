#include "aerolin/sim/nonlinear_model.hpp"

// As slicer.cpp: odeint's controlled stepper copies a default-constructed
// dopri5 whose fixed-size Eigen buffers are written before being read.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <Eigen/Geometry>
#include <algorithm>
#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/model/atmosphere.hpp"

namespace aerolin::sim {
namespace {

namespace odeint = boost::numeric::odeint;

using Dopri5 = odeint::runge_kutta_dopri5<NonlinearState, double, NonlinearState, double,
                                          odeint::vector_space_algebra>;
using ErrorChecker = odeint::default_error_checker<double, odeint::vector_space_algebra,
                                                   odeint::default_operations>;
using ControlledDopri5 = odeint::controlled_runge_kutta<Dopri5, ErrorChecker>;

// As slicer.cpp: odeint shrinks the step at least 5× per rejection.
constexpr int kMaxRejectionsPerSlice = 200;

// The name that marks a control as a thrust setting (not scaled by q̄).
constexpr const char* kThrottleName = "throttle";

double Clamp(double altitude) {
  return std::clamp(altitude, model::kStandardAtmosphereFloor, model::kStandardAtmosphereCeiling);
}

void CheckSlicerOption(double v, const char* what) {
  if (!std::isfinite(v) || v <= 0.0)
    throw std::invalid_argument(std::string("NonlinearSlicer: ") + what +
                                " must be positive and finite, got " + std::to_string(v));
}

}  // namespace

Eigen::Vector4d QuaternionFromEuler(double phi, double theta, double psi) {
  const double cf = std::cos(phi / 2), sf = std::sin(phi / 2);
  const double ct = std::cos(theta / 2), st = std::sin(theta / 2);
  const double cp = std::cos(psi / 2), sp = std::sin(psi / 2);
  return {cf * ct * cp + sf * st * sp, sf * ct * cp - cf * st * sp, cf * st * cp + sf * ct * sp,
          cf * ct * sp - sf * st * cp};
}

Eigen::Vector3d EulerFromQuaternion(const Eigen::Vector4d& quaternion) {
  const Eigen::Vector4d q = quaternion.normalized();
  const double phi = std::atan2(2 * (q(0) * q(1) + q(2) * q(3)), 1 - 2 * (q(1) * q(1) + q(2) * q(2)));
  const double theta = std::asin(std::clamp(2 * (q(0) * q(2) - q(1) * q(3)), -1.0, 1.0));
  const double psi = std::atan2(2 * (q(0) * q(3) + q(1) * q(2)), 1 - 2 * (q(2) * q(2) + q(3) * q(3)));
  return {phi, theta, psi};
}

Eigen::Matrix3d QuaternionToBodyToEarth(const Eigen::Vector4d& quaternion) {
  const Eigen::Vector4d q = quaternion.normalized();
  const double q0 = q(0), q1 = q(1), q2 = q(2), q3 = q(3);
  Eigen::Matrix3d R;
  R << q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3, 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2),
      2 * (q1 * q2 + q0 * q3), q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3, 2 * (q2 * q3 - q0 * q1),
      2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3;
  return R;
}

NonlinearModel::NonlinearModel(const model::AircraftData& aircraft, NonlinearOptions options)
    : options_(options), controls_(aircraft.controls) {
  const model::FlightCondition& c = aircraft.condition;
  if (!(c.U0 > 0.0) || !std::isfinite(c.U0))
    throw std::invalid_argument("NonlinearModel: U0 must be positive and finite, got " +
                                std::to_string(c.U0));
  U0_ = c.U0;
  W0_ = c.W0;
  theta0_ = c.theta0;
  g_ = c.g;
  V0sq_ = U0_ * U0_ + W0_ * W0_;
  alpha0_ = std::atan2(W0_, U0_);
  X0_ = g_ * std::sin(theta0_);
  Z0_ = -g_ * std::cos(theta0_);

  const model::MassProperties& m = aircraft.mass;
  if (m.Ix && m.Iy && m.Iz) {
    const double Ix = *m.Ix, Iy = *m.Iy, Iz = *m.Iz, Ixz = m.Ixz.value_or(0.0);
    if (!(Ix > 0 && Iy > 0 && Iz > 0) || Ixz * Ixz >= Ix * Iz)
      throw std::invalid_argument(
          "NonlinearModel: the inertias Ix, Iy, Iz, Ixz make no positive-definite tensor");
    inertia_assumed_ = false;
    a_ = Ixz / Ix;
    b_ = Ixz / Iz;
    // Ix ṗ − Ixz ṙ = L + (Iy − Iz) q r + Ixz p q, divided by Ix; Iz ṙ − Ixz ṗ =
    // N + (Ix − Iy) p q − Ixz q r, divided by Iz; Iy q̇ = M + (Iz − Ix) p r +
    // Ixz (r² − p²), divided by Iy (Stevens, Lewis & Johnson eq. 1.7-18).
    cqr_ = (Iy - Iz) / Ix;
    cpq_ = a_;
    cpq_n_ = (Ix - Iy) / Iz;
    cqr_n_ = -b_;
    cpr_ = (Iz - Ix) / Iy;
    crr_ = Ixz / Iy;
  }
  const auto unprime = [this](double Lp, double Np, double& L, double& N) {
    L = Lp - a_ * Np;
    N = Np - b_ * Lp;
  };

  const model::LongitudinalDerivatives& lo = aircraft.longitudinal;
  // q̄ ∝ V² adds ∂(s F0)/∂u = 2 F0 U0/V0² and ∂(s F0)/∂α̃ = 2 F0 W0 U0/V0² at the
  // reference; taken out here so the Jacobian there is the file's.
  Xa_ = lo.Xa - 2 * X0_ * W0_ * U0_ / V0sq_;
  Za_ = lo.Za - 2 * Z0_ * W0_ * U0_ / V0sq_;
  Ma_ = lo.Ma;
  // The angle of attack is the air's (Aerodynamics: α̃ = (V0²/U0²)(atan2(w, u)
  // − α0), so that ∂α̃/∂w = 1/U0 at the reference), which turns with u too:
  // ∂α̃/∂u = −W0/U0² there (zero in stability axes), also taken out of the
  // u-derivatives.
  const double dalpha_du = -W0_ / (U0_ * U0_);
  Xu_ = lo.Xu - 2 * X0_ * U0_ / V0sq_ - Xa_ * dalpha_du;
  Zu_ = lo.Zu - 2 * Z0_ * U0_ / V0sq_ - Za_ * dalpha_du;
  Mu_ = lo.Mu - Ma_ * dalpha_du;
  Xq_ = lo.Xq;
  Zq_ = lo.Zq;
  Zadot_ = lo.Zadot;
  Mq_ = lo.Mq;
  Madot_ = lo.Madot;
  const model::LateralDerivatives& la = aircraft.lateral;
  Yb_ = la.Yb;
  Yp_ = la.Yp;
  Yr_ = la.Yr;
  unprime(la.Lb, la.Nb, Lb_, Nb_);
  unprime(la.Lp, la.Np, Lp_, Np_);
  unprime(la.Lr, la.Nr, Lr_, Nr_);
  for (std::size_t i = 0; i < controls_.size(); ++i) {
    const model::Control& k = controls_[i];
    ControlColumn col{k.X, k.Z, k.M, k.Y, 0.0, 0.0, k.name != kThrottleName};
    unprime(k.L, k.N, col.L, col.N);
    columns_.push_back(col);
    if (k.name == kThrottleName) throttle_index_ = static_cast<int>(i);
  }
  if (c.altitude) {
    reference_altitude_ = Clamp(*c.altitude);
    rho0_ = model::StandardAtmosphere(*reference_altitude_).density;
  }
  if (aircraft.tables) SetUpTables(*aircraft.tables);
}

void NonlinearModel::SetUpTables(const model::AeroTables& tables) {
  using model::TableCoefficient;
  tables_ = tables;
  for (std::size_t i = 0; i < tables.tables.size(); ++i)
    table_[static_cast<int>(tables.tables[i].coefficient)] = static_cast<int>(i);
  force_scale_ = 0.5 * tables.rho0 * tables.S / tables.m;
  moment_scale_ = tables.Iy > 0.0 ? 0.5 * tables.rho0 * tables.S * tables.c / tables.Iy : 0.0;
  // A table that takes a control's deflection has that control's derivative
  // on its axis: the linear term goes.
  for (const model::CoefficientTable& t : tables.tables) {
    if (t.second != model::TableVariable::kControl) continue;
    ControlColumn& k = columns_[static_cast<std::size_t>(t.control)];
    if (t.coefficient == TableCoefficient::kCX) k.X = 0.0;
    if (t.coefficient == TableCoefficient::kCZ) k.Z = 0.0;
    if (t.coefficient == TableCoefficient::kCm) k.M = 0.0;
  }
  // On a tabled axis the other controls act on their whole deflection: the
  // table is the coefficient with them at zero.
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const ControlColumn& k = columns_[i];
    if (!k.scaled) continue;
    const double ref = tables.reference_controls[i];
    if (Has(TableCoefficient::kCX)) offset_X_ += k.X * ref;
    if (Has(TableCoefficient::kCZ)) offset_Z_ += k.Z * ref;
    if (Has(TableCoefficient::kCm)) offset_M_ += k.M * ref;
  }
  // The thrust that balances X at the reference: the linear model's X0 holds
  // it implicitly, a C_X table gives the drag alone.
  if (Has(TableCoefficient::kCX) && options_.aerodynamics) {
    const Eigen::Vector3d v_ref(U0_, 0.0, W0_);
    const ForcesAndMoments f =
        Aerodynamics(v_ref, Eigen::Vector3d::Zero(), 0.0, reference_altitude_.value_or(0.0),
                     Eigen::VectorXd::Zero(num_controls()), 0.0);
    T0_ = X0_ - f(0);
  }
  if (const model::CoefficientTable* cz = Table(TableCoefficient::kCZ)) {
    // The stall: the extremes of C_L over C_Z's range, on a 0.01° grid (C_L
    // is piecewise linear in α apart from the axis rotation's cos α, sin α).
    LiftLimits limits;
    limits.cl_max = -std::numeric_limits<double>::infinity();
    limits.cl_min = std::numeric_limits<double>::infinity();
    const double lo = cz->alpha.front(), hi = cz->alpha.back();
    const double step = 0.01 * std::numbers::pi / 180;
    const int n = static_cast<int>(std::ceil((hi - lo) / step));
    for (int i = 0; i <= n; ++i) {
      const double a = std::min(hi, lo + i * step);
      const double cl = LiftCoefficient(a);
      if (cl > limits.cl_max) limits.cl_max = cl, limits.alpha_max = a;
      if (cl < limits.cl_min) limits.cl_min = cl, limits.alpha_min = a;
    }
    lift_limits_ = limits;
  }
}

const model::CoefficientTable* NonlinearModel::Table(model::TableCoefficient c) const {
  const int i = table_[static_cast<int>(c)];
  return i < 0 ? nullptr : &tables_->tables[static_cast<std::size_t>(i)];
}

double NonlinearModel::Settings(const Eigen::VectorXd& controls, int i) const {
  return tables_->reference_controls[static_cast<std::size_t>(i)] + controls(i);
}

double NonlinearModel::DynamicPressureOverMass(double V, double altitude) const {
  return force_scale_ * DensityRatio(altitude) * V * V;
}

double NonlinearModel::LiftCoefficient(double alpha) const {
  const double V0 = std::sqrt(V0sq_);
  const Eigen::Vector3d v(V0 * std::cos(alpha), 0.0, V0 * std::sin(alpha));
  const ForcesAndMoments f = Aerodynamics(v, Eigen::Vector3d::Zero(), 0.0,
                                          reference_altitude_.value_or(0.0),
                                          Eigen::VectorXd::Zero(num_controls()), -T0_);
  const double qs = force_scale_ * V0sq_;
  return (-f(2) * std::cos(alpha) + f(0) * std::sin(alpha)) / qs;
}

std::vector<model::TableExcursion> NonlinearModel::TableExcursionsAt(const NonlinearState& x,
                                                                     const NonlinearInput& in) const {
  if (!tables_) return {};
  const Eigen::Matrix3d R = QuaternionToBodyToEarth(x.segment<4>(nl::kQ0));
  const Eigen::Vector3d v_air = x.segment<3>(nl::kU) - R.transpose() * in.wind_ned;
  const double V = v_air.norm();
  std::vector<double> settings(static_cast<std::size_t>(num_controls()));
  for (int i = 0; i < num_controls(); ++i) settings[static_cast<std::size_t>(i)] = Settings(in.controls, i);
  return model::TableExcursions(*tables_, std::atan2(v_air.z(), v_air.x()),
                                V > 0.0 ? std::asin(std::clamp(v_air.y() / V, -1.0, 1.0)) : 0.0,
                                settings);
}

double NonlinearModel::DensityRatio(double altitude) const {
  if (!reference_altitude_) return 1.0;
  return model::StandardAtmosphere(Clamp(altitude)).density / rho0_;
}

ForcesAndMoments NonlinearModel::Aerodynamics(const Eigen::Vector3d& v_air,
                                              const Eigen::Vector3d& omega, double wdot_air,
                                              double altitude, const Eigen::VectorXd& controls,
                                              double thrust) const {
  ForcesAndMoments f = ForcesAndMoments::Zero();
  if (!options_.aerodynamics) return f;
  // The file's derivatives are per unit of aerolin's α = Δw/U0 and β = v/U0
  // at the reference; away from it they act on the air's angles (so a force
  // is q̄ times a coefficient times an angle, as in the textbook's
  // coefficient form, not q̄ times w): α̃ = (V0²/U0²)(atan2(w, u) − α0) and
  // β̃ = (V0/U0) asin(v/V), whose slopes at the reference are 1/U0. α̇ likewise:
  // ẇ/U0 at the reference speed, α̇ ≈ ẇ/V away from it (ẇ (V0/V)/U0), so the
  // ρV-scaled α̇ terms grow with ρ, as q̄ C(α̇ c/2V) does.
  const double V2 = v_air.squaredNorm();
  const double V0 = std::sqrt(V0sq_);
  const double V = std::sqrt(V2);
  const double du = v_air.x() - U0_;
  const double alpha = (V0sq_ / (U0_ * U0_)) * (std::atan2(v_air.z(), v_air.x()) - alpha0_);
  const double beta = V > 0 ? (V0 / U0_) * std::asin(std::clamp(v_air.y() / V, -1.0, 1.0)) : 0.0;
  const double sigma = DensityRatio(altitude);
  const double s = sigma * V2 / V0sq_;                    // q̄/q̄0
  const double s_rate = sigma * V / V0;                   // ρV/(ρ0 V0)
  const double p = omega.x(), q = omega.y(), r = omega.z();
  const double adot = V > 0 ? wdot_air * (V0 / V) / U0_ : 0.0;
  double X = X0_ + Xu_ * du + Xa_ * alpha;
  double Z = Z0_ + Zu_ * du + Za_ * alpha;
  double M = Mu_ * du + Ma_ * alpha;
  double Y = Yb_ * beta, L = Lb_ * beta, N = Nb_ * beta;
  double Xt = thrust, Zt = 0, Mt = 0, Yt = 0, Lt = 0, Nt = 0;  // not scaled by q̄
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const ControlColumn& k = columns_[i];
    const double d = controls(static_cast<Eigen::Index>(i));
    if (k.scaled) {
      X += k.X * d, Z += k.Z * d, M += k.M * d, Y += k.Y * d, L += k.L * d, N += k.N * d;
    } else {
      Xt += k.X * d, Zt += k.Z * d, Mt += k.M * d, Yt += k.Y * d, Lt += k.L * d, Nt += k.N * d;
    }
  }
  double Xr = s_rate * Xq_ * q, Zr = s_rate * Zq_ * q, Mr = s_rate * Mq_ * q;
  if (tables_) {
    using model::TableCoefficient;
    // The tables' own variables: exact angles of the air-relative velocity.
    const double alpha_t = std::atan2(v_air.z(), v_air.x());
    const double beta_t = V > 0.0 ? std::asin(std::clamp(v_air.y() / V, -1.0, 1.0)) : 0.0;
    const double qs = force_scale_ * sigma * V2;   // q̄ S/m
    const double qsc = moment_scale_ * sigma * V2;  // q̄ S c̄/Iy
    const double rate = 0.5 * tables_->c * q / std::max(V, 1e-300);  // q c̄/(2V)
    const auto look = [&](const model::CoefficientTable& t) {
      const double second = t.second == model::TableVariable::kBeta      ? beta_t
                            : t.second == model::TableVariable::kControl ? Settings(controls, t.control)
                                                                          : 0.0;
      return t.At(alpha_t, second);
    };
    // A tabled axis: the table and the controls' whole deflections replace
    // the reference value and the u and α terms (the control sums hold the
    // deviations; the offsets the reference settings).
    const double X_controls = X - (X0_ + Xu_ * du + Xa_ * alpha);
    const double Z_controls = Z - (Z0_ + Zu_ * du + Za_ * alpha);
    const double M_controls = M - (Mu_ * du + Ma_ * alpha);
    double Xt_table = 0.0, Zt_table = 0.0, Mt_table = 0.0;
    if (const model::CoefficientTable* t = Table(TableCoefficient::kCX)) {
      X = offset_X_ + X_controls;
      Xt_table = qs * look(*t) + T0_;
    }
    if (const model::CoefficientTable* t = Table(TableCoefficient::kCZ)) {
      Z = offset_Z_ + Z_controls;
      Zt_table = qs * look(*t);
    }
    if (const model::CoefficientTable* t = Table(TableCoefficient::kCm)) {
      M = offset_M_ + M_controls;
      Mt_table = qsc * look(*t);
    }
    if (const model::CoefficientTable* t = Table(TableCoefficient::kCXq)) Xr = qs * look(*t) * rate;
    if (const model::CoefficientTable* t = Table(TableCoefficient::kCZq)) Zr = qs * look(*t) * rate;
    if (const model::CoefficientTable* t = Table(TableCoefficient::kCmq)) Mr = qsc * look(*t) * rate;
    Xt += Xt_table, Zt += Zt_table, Mt += Mt_table;
  }
  f(0) = s * X + Xr + Xt;
  f(1) = s * Y + s_rate * (Yp_ * p + Yr_ * r) + Yt;
  // Written as before the tables when none is given: the same rounding, the
  // same flights.
  f(2) = Has(model::TableCoefficient::kCZq) ? s * Z + Zr + s_rate * Zadot_ * adot + Zt
                                            : s * Z + s_rate * (Zq_ * q + Zadot_ * adot) + Zt;
  f(3) = s * L + s_rate * (Lp_ * p + Lr_ * r) + Lt;
  f(4) = Has(model::TableCoefficient::kCmq) ? s * M + Mr + s_rate * Madot_ * adot + Mt
                                            : s * M + s_rate * (Mq_ * q + Madot_ * adot) + Mt;
  f(5) = s * N + s_rate * (Np_ * p + Nr_ * r) + Nt;
  return f;
}

void NonlinearModel::Derivative(const NonlinearState& x, const NonlinearInput& in,
                                NonlinearState& dxdt) const {
  if (in.controls.size() != num_controls())
    throw std::invalid_argument("NonlinearModel: " + std::to_string(in.controls.size()) +
                                " controls given, the aircraft has " +
                                std::to_string(num_controls()));
  const Eigen::Vector4d quat = x.segment<4>(nl::kQ0);
  const Eigen::Matrix3d R = QuaternionToBodyToEarth(quat);
  const Eigen::Vector3d v = x.segment<3>(nl::kU);
  const Eigen::Vector3d w = x.segment<3>(nl::kP);
  const Eigen::Vector3d gravity_b = g_ * R.row(2).transpose();
  const Eigen::Vector3d wind_b = R.transpose() * in.wind_ned;
  const Eigen::Vector3d v_air = v - wind_b;
  const double altitude = -x(nl::kDown);
  // Kinematic and gravity parts of v̇ (SL&J eq. 2.5-1): −ω × v + g_b.
  const Eigen::Vector3d k = -w.cross(v) + gravity_b;
  // v̇_a = v̇ + ω × wind_b (a steady NED wind seen from rotating axes).
  const Eigen::Vector3d turn_of_wind = w.cross(wind_b);
  // The forces are linear in ẇ_a: F = F(ẇ_a = 0) + F_ẇ ẇ_a. Solve
  // ẇ = k_z + Z(0) + Z_ẇ (ẇ + c) for ẇ exactly (aerolin's α̇ divisor).
  const ForcesAndMoments f0 = Aerodynamics(v_air, w, 0.0, altitude, in.controls, in.thrust);
  ForcesAndMoments f_wdot = ForcesAndMoments::Zero();
  if (options_.aerodynamics) {
    const ForcesAndMoments f1 = Aerodynamics(v_air, w, 1.0, altitude, in.controls, in.thrust);
    f_wdot = f1 - f0;
  }
  const double c = turn_of_wind.z();
  const double wdot = (k.z() + f0(2) + f_wdot(2) * c) / (1.0 - f_wdot(2));
  const ForcesAndMoments f = f0 + f_wdot * (wdot + c);
  dxdt(nl::kU) = k.x() + f(0);
  dxdt(nl::kV) = k.y() + f(1);
  dxdt(nl::kW) = wdot;
  const double p = w.x(), q = w.y(), r = w.z();
  // Ix ṗ − Ixz ṙ = L + ..., Iz ṙ − Ixz ṗ = N + ... divided by Ix and Iz:
  // ṗ − a ṙ = P, ṙ − b ṗ = Rn; solved with G = 1 − ab.
  const double P = f(3) + cqr_ * q * r + cpq_ * p * q;
  const double Rn = f(5) + cpq_n_ * p * q + cqr_n_ * q * r;
  const double G = 1.0 - a_ * b_;
  dxdt(nl::kP) = (P + a_ * Rn) / G;
  dxdt(nl::kQ) = f(4) + cpr_ * p * r + crr_ * (r * r - p * p);
  dxdt(nl::kR) = (Rn + b_ * P) / G;
  const double q0 = quat(0), q1 = quat(1), q2 = quat(2), q3 = quat(3);
  const double stab = options_.quaternion_gain * (1.0 - quat.squaredNorm());
  dxdt(nl::kQ0) = -0.5 * (p * q1 + q * q2 + r * q3) + stab * q0;
  dxdt(nl::kQ0 + 1) = 0.5 * (p * q0 + r * q2 - q * q3) + stab * q1;
  dxdt(nl::kQ0 + 2) = 0.5 * (q * q0 - r * q1 + p * q3) + stab * q2;
  dxdt(nl::kQ0 + 3) = 0.5 * (r * q0 + q * q1 - p * q2) + stab * q3;
  dxdt.segment<3>(nl::kNorth) = R * v;
}

NonlinearState NonlinearModel::ReferenceState(double altitude) const {
  NonlinearState x = NonlinearState::Zero();
  x(nl::kU) = U0_;
  x(nl::kW) = W0_;
  x.segment<4>(nl::kQ0) = QuaternionFromEuler(0.0, theta0_, 0.0);
  x(nl::kDown) = -altitude;
  return x;
}

double SpecificEnergy(const NonlinearState& x, double g) {
  return 0.5 * x.segment<3>(nl::kU).squaredNorm() - g * x(nl::kDown);
}

struct NonlinearSlicer::Impl {
  Impl(NonlinearModel m, const SliceOptions& o, const NonlinearState& x0)
      : model(std::move(m)), options(o), x(x0), stepper(ErrorChecker(o.atol, o.rtol)) {}

  NonlinearModel model;
  SliceOptions options;
  NonlinearState x;
  NonlinearState dxdt;
  ControlledDopri5 stepper;
  long k = 0;
  double h = 0.0;
};

NonlinearSlicer::NonlinearSlicer(NonlinearModel model, const SliceOptions& options,
                                 const NonlinearState& x0) {
  CheckSlicerOption(options.dt, "dt");
  CheckSlicerOption(options.rtol, "rtol");
  CheckSlicerOption(options.atol, "atol");
  impl_ = std::make_unique<Impl>(std::move(model), options, x0);
  Reset(x0);
}

NonlinearSlicer::~NonlinearSlicer() = default;
NonlinearSlicer::NonlinearSlicer(NonlinearSlicer&&) noexcept = default;
NonlinearSlicer& NonlinearSlicer::operator=(NonlinearSlicer&&) noexcept = default;

void NonlinearSlicer::Reset(const NonlinearState& x0) {
  impl_->x = x0;
  impl_->k = 0;
  impl_->h = impl_->options.dt;
  impl_->stepper.reset();
}

SliceStats NonlinearSlicer::Advance(const NonlinearInput& in) {
  Impl& s = *impl_;
  const double T = s.options.dt;
  const auto rhs = [&](const NonlinearState& x, NonlinearState& dxdt, double) {
    s.model.Derivative(x, in, dxdt);
  };
  // The input changes from slice to slice, so the derivative at the slice
  // start is evaluated afresh (no FSAL reuse across slices, unlike Slicer).
  rhs(s.x, s.dxdt, 0.0);
  SliceStats stats;
  double tau = 0.0;
  while (T - tau > 1e-12 * T) {
    const double remaining = T - tau;
    const bool clamped = s.h >= remaining;
    double step = clamped ? remaining : s.h;
    const odeint::controlled_step_result result = s.stepper.try_step(rhs, s.x, s.dxdt, tau, step);
    if (result == odeint::success) {
      ++stats.steps;
      s.h = clamped ? std::max(s.h, step) : step;
      if (clamped) tau = T;
      if (!s.x.allFinite() || !std::isfinite(s.h)) break;  // caller flags it
    } else {
      ++stats.rejected;
      s.h = step;
      if (stats.rejected > kMaxRejectionsPerSlice || !(s.h > 1e-14 * T))
        throw core::NumericalError(fmt::format(
            "RK45 cannot meet rtol {:g}, atol {:g} in nonlinear slice {} (t = {:g} s): step "
            "size {:g} s after {} rejections",
            s.options.rtol, s.options.atol, s.k, static_cast<double>(s.k) * T, s.h,
            stats.rejected));
    }
  }
  const double n = s.x.segment<4>(nl::kQ0).norm();
  if (n > 0.0 && std::isfinite(n)) s.x.segment<4>(nl::kQ0) /= n;
  ++s.k;
  return stats;
}

const NonlinearState& NonlinearSlicer::state() const { return impl_->x; }
double NonlinearSlicer::time() const {
  return static_cast<double>(impl_->k) * impl_->options.dt;
}
const NonlinearModel& NonlinearSlicer::model() const { return impl_->model; }

}  // namespace aerolin::sim
