#include "aerolin/study/linearize.hpp"

#include <cmath>
#include <fmt/format.h>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::study {
namespace {

// Central-difference step, relative to a variable's scale (V for velocities,
// 1 in SI otherwise). The aerodynamics are polynomials of low degree in the
// velocities (q̄ ∝ V², ρV) and linear in the rest: with one Richardson step
// the truncation error is O(h⁴) ~ 1e-12 and rounding ~ ε/h ~ 1e-13.
constexpr double kStep = 1e-3;

// ∂f/∂x_j by central differences D(h), D(h/2), D(h/4) and Richardson's
// R(h) = (4 D(h/2) − D(h))/3, R(h/2) likewise; returns R(h/2), and `error`
// gets |R(h/2) − R(h)| of each output (the error estimate of R(h), an upper
// bound of R(h/2)'s where the differences converge as O(h⁴)).
template <class F>
Eigen::VectorXd Richardson(const F& f, const Eigen::VectorXd& x, Eigen::Index j, double h,
                           Eigen::VectorXd& error) {
  const auto central = [&](double step) {
    Eigen::VectorXd xp = x, xm = x;
    xp(j) += step;
    xm(j) -= step;
    return Eigen::VectorXd((f(xp) - f(xm)) / (2 * step));
  };
  const Eigen::VectorXd d1 = central(h), d2 = central(h / 2), d4 = central(h / 4);
  const Eigen::VectorXd r1 = (4 * d2 - d1) / 3;
  const Eigen::VectorXd r2 = (4 * d4 - d2) / 3;
  error = (r2 - r1).cwiseAbs();
  return r2;
}

// The largest |entry| of `m`, or 1 for an all-zero vector (relative errors).
double Scale(const Eigen::MatrixXd& m) {
  const double s = m.cwiseAbs().maxCoeff();
  return s > 0.0 ? s : 1.0;
}

}  // namespace

LinearizeResult Linearize(const model::AircraftData& aircraft,
                          const std::optional<TrimRequest>& request) {
  const TrimRequest req = request.value_or(ReferenceRequest(aircraft));
  if (req.turn_rate.value_or(0.0) != 0.0 || req.bank.value_or(0.0) != 0.0 || req.sideslip != 0.0)
    throw std::invalid_argument(
        "linearize: aerolin's linear model is about wings-level, straight flight without "
        "sideslip (its longitudinal and lateral axes decouple there); trim a turn with "
        "`aerolin trim` instead");
  LinearizeResult out;
  out.trim = Trim(aircraft, req);
  const sim::NonlinearModel model(aircraft);
  const sim::NonlinearState& x0 = out.trim.state;
  const sim::NonlinearInput& in0 = out.trim.input;
  const int m = model.num_controls();
  const double U0 = x0(sim::nl::kU), W0 = x0(sim::nl::kW);
  const double V = x0.segment<3>(sim::nl::kU).norm();
  const double altitude = -x0(sim::nl::kDown);

  // Aerodynamics as a function of z = (u, v, w, p, q, r, ẇ, controls...).
  const int nz = 7 + m;
  Eigen::VectorXd z0 = Eigen::VectorXd::Zero(nz);
  z0.head<3>() = x0.segment<3>(sim::nl::kU);
  z0.segment<3>(3) = x0.segment<3>(sim::nl::kP);
  z0.tail(m) = in0.controls;
  const auto aero = [&](const Eigen::VectorXd& z) {
    return Eigen::VectorXd(model.Aerodynamics(z.head<3>(), z.segment<3>(3), z(6), altitude,
                                              z.tail(m), in0.thrust));
  };
  Eigen::MatrixXd J(6, nz), err(6, nz);
  for (Eigen::Index j = 0; j < nz; ++j) {
    Eigen::VectorXd e;
    J.col(j) = Richardson(aero, z0, j, kStep * (j < 3 ? V : 1.0), e);
    err.col(j) = e;
  }
  for (Eigen::Index i = 0; i < 6; ++i)
    out.derivative_error = std::max(out.derivative_error, err.row(i).maxCoeff() / Scale(J.row(i)));

  // Unprimed normalized L, N → primed (model/conversions.hpp's PrimingOf).
  const double a = model.ixz_over_ix(), b = model.ixz_over_iz(), G = 1.0 - a * b;
  const auto primed_l = [&](Eigen::Index j) { return (J(3, j) + a * J(5, j)) / G; };
  const auto primed_n = [&](Eigen::Index j) { return (J(5, j) + b * J(3, j)) / G; };
  enum { kXu = 0, kXv, kXw, kXp, kXq, kXr, kXwdot };

  model::AircraftData& d = out.aircraft;
  d.name = aircraft.name;
  d.source = aircraft.source;
  d.aircraft_class = aircraft.aircraft_class;
  d.mass = aircraft.mass;
  d.geometry = aircraft.geometry;
  d.condition.U0 = U0;
  d.condition.W0 = W0;
  d.condition.theta0 = out.trim.theta;
  d.condition.g = aircraft.condition.g;
  d.condition.category = aircraft.condition.category;
  if (aircraft.condition.altitude) d.condition.altitude = altitude;
  model::LongitudinalDerivatives& lo = d.longitudinal;
  lo.Xu = J(0, kXu);
  lo.Xa = U0 * J(0, kXw);
  lo.Xq = J(0, kXq);
  lo.Zu = J(2, kXu);
  lo.Za = U0 * J(2, kXw);
  lo.Zq = J(2, kXq);
  lo.Zadot = U0 * J(2, kXwdot);
  lo.Mu = J(4, kXu);
  lo.Ma = U0 * J(4, kXw);
  lo.Mq = J(4, kXq);
  lo.Madot = U0 * J(4, kXwdot);
  model::LateralDerivatives& la = d.lateral;
  la.Yb = U0 * J(1, kXv);
  la.Yp = J(1, kXp);
  la.Yr = J(1, kXr);
  la.Lb = U0 * primed_l(kXv);
  la.Lp = primed_l(kXp);
  la.Lr = primed_l(kXr);
  la.Nb = U0 * primed_n(kXv);
  la.Np = primed_n(kXp);
  la.Nr = primed_n(kXr);
  for (int k = 0; k < m; ++k) {
    model::Control c = aircraft.controls[static_cast<std::size_t>(k)];
    const Eigen::Index j = 7 + k;
    c.X = J(0, j);
    c.Z = J(2, j);
    c.M = J(4, j);
    c.Y = J(1, j);
    c.L = primed_l(j);
    c.N = primed_n(j);
    if (c.min) *c.min -= in0.controls(k);
    if (c.max) *c.max -= in0.controls(k);
    d.controls.push_back(c);
  }

  // The whole model's Jacobian in aerolin's states, the quaternion rebuilt
  // from perturbed Euler angles (its norm is no direction to perturb).
  const double theta0 = out.trim.theta;
  const auto full = [&](const Eigen::VectorXd& y) {
    using namespace model;
    sim::NonlinearState x = x0;
    x(sim::nl::kU) = U0 + y(lon::kU);
    x(sim::nl::kW) = W0 + U0 * y(lon::kAlpha);
    x(sim::nl::kQ) = y(lon::kQ);
    x(sim::nl::kV) = U0 * y(4 + lat::kBeta);
    x(sim::nl::kP) = y(4 + lat::kP);
    x(sim::nl::kR) = y(4 + lat::kR);
    const double theta = theta0 + y(lon::kTheta), phi = y(4 + lat::kPhi), psi = y(4 + lat::kPsi);
    x.segment<4>(sim::nl::kQ0) = sim::QuaternionFromEuler(phi, theta, psi);
    sim::NonlinearInput in = in0;
    in.controls += y.tail(m);
    sim::NonlinearState dx;
    model.Derivative(x, in, dx);
    const double p = x(sim::nl::kP), q = x(sim::nl::kQ), r = x(sim::nl::kR);
    Eigen::VectorXd f(9);
    f(lon::kU) = dx(sim::nl::kU);
    f(lon::kAlpha) = dx(sim::nl::kW) / U0;
    f(lon::kQ) = dx(sim::nl::kQ);
    f(lon::kTheta) = q * std::cos(phi) - r * std::sin(phi);
    f(4 + lat::kBeta) = dx(sim::nl::kV) / U0;
    f(4 + lat::kP) = dx(sim::nl::kP);
    f(4 + lat::kR) = dx(sim::nl::kR);
    f(4 + lat::kPhi) = p + std::tan(theta) * (q * std::sin(phi) + r * std::cos(phi));
    f(4 + lat::kPsi) = (q * std::sin(phi) + r * std::cos(phi)) / std::cos(theta);
    return f;
  };
  const Eigen::VectorXd y0 = Eigen::VectorXd::Zero(9 + m);
  out.A.resize(9, 9);
  out.B.resize(9, m);
  for (Eigen::Index j = 0; j < 9 + m; ++j) {
    Eigen::VectorXd e;
    // α and β are per U0 of w and v: their steps are kStep × V / U0 in rad.
    const bool angle_of_velocity = j == model::lon::kAlpha || j == 4 + model::lat::kBeta;
    const Eigen::VectorXd col =
        Richardson(full, y0, j, kStep * (j == model::lon::kU ? V : angle_of_velocity ? V / U0 : 1.0), e);
    if (j < 9)
      out.A.col(j) = col;
    else
      out.B.col(j - 9) = col;
  }
  out.cross_coupling =
      std::max(out.A.topRightCorner(4, 5).cwiseAbs().maxCoeff(), out.A.bottomLeftCorner(5, 4).cwiseAbs().maxCoeff());
  const Eigen::MatrixXd lon = model::BuildLongitudinal(d).A();
  const Eigen::MatrixXd lat = model::BuildLateral(d).A();
  out.model_mismatch = std::max((out.A.topLeftCorner(4, 4) - lon).cwiseAbs().maxCoeff() / Scale(lon),
                                (out.A.bottomRightCorner(5, 5) - lat).cwiseAbs().maxCoeff() / Scale(lat));
  return out;
}

}  // namespace aerolin::study
