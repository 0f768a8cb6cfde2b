#include "aerolin/analysis/approximations.hpp"

#include <Eigen/Eigenvalues>
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

std::vector<Approximation> ClassicalApproximations(const model::AircraftData& aircraft) {
  using namespace model;
  using lon::kAlpha, lon::kQ, lat::kBeta, lat::kR;
  std::vector<Approximation> out;
  const StateSpace lon = BuildLongitudinal(aircraft);
  const StateSpace lat = BuildLateral(aircraft);

  Eigen::Matrix2d sp;
  sp << lon.A()(kAlpha, kAlpha), lon.A()(kAlpha, kQ), lon.A()(kQ, kAlpha), lon.A()(kQ, kQ);
  out.push_back({ModeKind::kShortPeriod, "2-DOF (α, q)", RootOf2x2(sp)});

  const FlightCondition& fc = aircraft.condition;
  const LongitudinalDerivatives& d = aircraft.longitudinal;
  const double wn2 = -fc.g * d.Zu / fc.U0;
  if (wn2 > 0.0) {
    const double wn = std::sqrt(wn2);
    const double zeta = -d.Xu / (2.0 * wn);
    const std::complex<double> lambda =
        std::abs(zeta) < 1.0 ? std::complex<double>(-zeta * wn, wn * std::sqrt(1.0 - zeta * zeta))
                             : std::complex<double>(-zeta * wn + wn * std::sqrt(zeta * zeta - 1.0), 0.0);
    out.push_back({ModeKind::kPhugoid, "Lanchester (u, θ)", lambda});
  }

  Eigen::Matrix2d dr;
  dr << lat.A()(kBeta, kBeta), lat.A()(kBeta, kR), lat.A()(kR, kBeta), lat.A()(kR, kR);
  out.push_back({ModeKind::kDutchRoll, "2-DOF (β, r)", RootOf2x2(dr)});

  const LateralDerivatives& l = aircraft.lateral;
  out.push_back({ModeKind::kRollSubsidence, "1-DOF (p)", {l.Lp, 0.0}});
  // Spiral: β̇ ≈ 0, ṗ ≈ 0 with the gravity term kept (Etkin & Reid §6.8).
  const double denominator = l.Lb * l.Np - l.Lp * l.Nb;
  if (denominator != 0.0)
    out.push_back({ModeKind::kSpiral, "quasi-static (β, p)",
                   {-(fc.g / fc.U0) * (l.Lb * l.Nr - l.Lr * l.Nb) / denominator, 0.0}});
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
