#include "aerolin/analysis/approximations.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::analysis {
namespace {

// Eigenvalue of a 2×2 block with Im ≥ 0 (the larger real root if both real).
std::complex<double> RootOf2x2(const Eigen::Matrix2d& m) {
  const double trace = m.trace();
  const double det = m.determinant();
  const double disc = trace * trace / 4.0 - det;
  if (disc >= 0.0) return {trace / 2.0 + std::sqrt(disc), 0.0};
  return {trace / 2.0, std::sqrt(-disc)};
}

}  // namespace

double DerivativeAxesAngle(const model::AircraftData& aircraft) {
  return std::atan2(aircraft.condition.W0, aircraft.condition.U0);
}

std::vector<Approximation> ClassicalApproximations(const model::AircraftData& aircraft) {
  using namespace model;
  using lon::kAlpha, lon::kQ, lon::kU, lat::kBeta, lat::kP, lat::kR;
  std::vector<Approximation> out;
  // The airframe's block of the closed loop: a washout filter's state
  // (BuildAugmented) is left out as the forms leave out the other states.
  Eigen::MatrixXd lon = BuildAugmented(aircraft, Axis::kLongitudinal).A().topLeftCorner(4, 4);
  Eigen::MatrixXd lat = BuildAugmented(aircraft, Axis::kLateral).A().topLeftCorner(5, 5);
  const FlightCondition& fc = aircraft.condition;
  const LongitudinalDerivatives& d = aircraft.longitudinal;
  // The forms below are stability-axis forms (x along the trim velocity).
  // A body-axis file (W0 ≠ 0) is rotated by α0 = atan2(W0, U0) first:
  // u_s = c u + s w, w_s = −s u + c w, p_s = c p + s r, r_s = −s p + c r
  // (c = cos α0, s = sin α0), V = √(U0² + W0²) the speed along x_s; the model's
  // α = w/U0 and β = v/U0 become w_s/V and v/V. A stability-axis file is
  // used as it is.
  double speed = fc.U0, Xu = d.Xu, Zu = d.Zu;
  if (fc.W0 != 0.0) {
    speed = std::hypot(fc.U0, fc.W0);
    const double c = fc.U0 / speed, s = fc.W0 / speed;
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    T(kU, kU) = c;
    T(kU, kAlpha) = s * fc.U0;
    T(kAlpha, kU) = -s / speed;
    T(kAlpha, kAlpha) = c * fc.U0 / speed;
    lon = T * lon * T.inverse();
    Eigen::MatrixXd L = Eigen::MatrixXd::Identity(lat.rows(), lat.cols());
    L(kBeta, kBeta) = fc.U0 / speed;
    L(kP, kP) = c;
    L(kP, kR) = s;
    L(kR, kP) = -s;
    L(kR, kR) = c;
    lat = L * lat * L.inverse();
    // The force derivatives in u, w turn with both the force and the velocity.
    Eigen::Matrix2d R, F;
    R << c, s, -s, c;
    F << d.Xu, d.Xa / fc.U0, d.Zu, d.Za / fc.U0;
    const Eigen::Matrix2d Fs = R * F * R.transpose();
    Xu = Fs(0, 0);
    Zu = Fs(1, 0);
  }

  Eigen::Matrix2d sp;
  sp << lon(kAlpha, kAlpha), lon(kAlpha, kQ), lon(kQ, kAlpha), lon(kQ, kQ);
  out.push_back({ModeKind::kShortPeriod, "2-DOF (α, q)", RootOf2x2(sp)});

  const double wn2 = -fc.g * Zu / speed;
  if (wn2 > 0.0) {
    const double wn = std::sqrt(wn2);
    const double zeta = -Xu / (2.0 * wn);
    const std::complex<double> lambda =
        std::abs(zeta) < 1.0 ? std::complex<double>(-zeta * wn, wn * std::sqrt(1.0 - zeta * zeta))
                             : std::complex<double>(-zeta * wn + wn * std::sqrt(zeta * zeta - 1.0), 0.0);
    out.push_back({ModeKind::kPhugoid, "Lanchester (u, θ)", lambda});
  }

  Eigen::Matrix2d dr;
  dr << lat(kBeta, kBeta), lat(kBeta, kR), lat(kR, kBeta), lat(kR, kR);
  out.push_back({ModeKind::kDutchRoll, "2-DOF (β, r)", RootOf2x2(dr)});

  // L'p, L'β, ... as the lateral A holds them (model/build.cpp).
  const double Lb = lat(kP, kBeta), Lp = lat(kP, kP), Lr = lat(kP, kR);
  const double Nb = lat(kR, kBeta), Np = lat(kR, kP), Nr = lat(kR, kR);
  out.push_back({ModeKind::kRollSubsidence, "1-DOF (p)", {Lp, 0.0}});
  // Spiral: β̇ ≈ 0, ṗ ≈ 0 with the gravity term kept (Etkin & Reid §6.8).
  const double denominator = Lb * Np - Lp * Nb;
  if (denominator != 0.0)
    out.push_back({ModeKind::kSpiral, "quasi-static (β, p)",
                   {-(fc.g / speed) * (Lb * Nr - Lr * Nb) / denominator, 0.0}});
  return out;
}

namespace {

std::optional<double> RelativePercent(double approx, double exact) {
  if (exact == 0.0) return std::nullopt;
  return 100.0 * (approx - exact) / exact;
}

}  // namespace

ApproximationError CompareApproximation(std::complex<double> approx,
                                        std::complex<double> exact) {
  ApproximationError error;
  if (approx.imag() != 0.0 || exact.imag() != 0.0) {
    const double wn_approx = std::abs(approx), wn_exact = std::abs(exact);
    error.natural_frequency_percent = RelativePercent(wn_approx, wn_exact);
    if (wn_approx > 0.0 && wn_exact > 0.0)
      error.damping_ratio_percent =
          RelativePercent(-approx.real() / wn_approx, -exact.real() / wn_exact);
  } else if (approx.real() != 0.0 && exact.real() != 0.0) {
    error.time_constant_percent = RelativePercent(-1.0 / approx.real(), -1.0 / exact.real());
  }
  return error;
}

}  // namespace aerolin::analysis
