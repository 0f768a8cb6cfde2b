#include "aerolin/study/mil_std_1797.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;
constexpr double kPi = std::numbers::pi;

// A bisection written here, independent of the module's: the root of f on
// [a, b] (a sign change) to the last digit.
template <class F>
double SolveScalar(F f, double a, double b) {
  const bool rising = f(b) > f(a);
  for (int k = 0; k < 200; ++k) {
    const double m = 0.5 * (a + b);
    if ((f(m) < 0.0) == rising) a = m; else b = m;
  }
  return 0.5 * (a + b);
}

model::StateSpace Siso(Eigen::MatrixXd A, Eigen::MatrixXd B, Eigen::MatrixXd C) {
  std::vector<core::Signal> states;
  for (Eigen::Index k = 0; k < A.rows(); ++k) {
    std::string name = "x";  // appended, not chained: GCC 12's -Wrestrict false positive on "x" + s
    name += std::to_string(k);
    states.push_back({name, core::Unit::kOne, ""});
  }
  return model::StateSpace(std::move(A), std::move(B), std::move(C), Eigen::MatrixXd::Zero(1, 1), states,
                           {{"u", core::Unit::kOne, ""}}, {{"y", core::Unit::kOne, ""}});
}

// K e^{−τs}/s: phase −π/2 − ωτ, so ω180 = π/(2τ), ω(−135°) = π/(4τ);
// |G| = K/ω, 6 dB above |G(ω180)| at ω180/2 = π/(4τ); Φ(2ω180) = −3π/2, τp = τ/2.
TEST(ComputeBandwidth, IntegratorWithDelayHasTheClosedForm) {
  for (double tau : {0.02, 0.05, 0.2}) {
    const double K = 3.0;
    ExactResponse g{analysis::ComputeTransferFunction(Siso(Eigen::MatrixXd::Zero(1, 1),
                                                           Eigen::MatrixXd::Ones(1, 1),
                                                           Eigen::MatrixXd::Constant(1, 1, K)),
                                                      0, 0),
                    {}, tau};
    const BandwidthResult r = ComputeBandwidth(g);
    ASSERT_TRUE(r.omega_180 && r.omega_phase && r.omega_gain && r.phase_delay && r.bandwidth) << r.note;
    // Refined by bisection on the exact response: to rounding, not the grid.
    EXPECT_NEAR(*r.omega_180, kPi / (2 * tau), 1e-12 * kPi / tau);
    EXPECT_NEAR(*r.omega_phase, kPi / (4 * tau), 1e-12 * kPi / tau);
    EXPECT_NEAR(*r.omega_gain, kPi / (4 * tau), 1e-12 * kPi / tau);
    EXPECT_NEAR(*r.bandwidth, kPi / (4 * tau), 1e-12 * kPi / tau);
    EXPECT_NEAR(*r.phase_delay, tau / 2, 1e-12);
  }
}

// K/(s(Ts + 1)) e^{−τs}: ω180 solves atan(ωT) + ωτ = π/2; the lag given as
// a pole of the rational part and as an actuator lag give the same numbers.
TEST(ComputeBandwidth, FirstOrderLagIntegratorAndDelayMatchAScalarSolve) {
  const double K = 2.0, T = 0.1, tau = 0.04;
  const double w180 = SolveScalar([&](double w) { return std::atan(w * T) + w * tau - kPi / 2; }, 1e-3, 1e3);
  const double w135 = SolveScalar([&](double w) { return std::atan(w * T) + w * tau - kPi / 4; }, 1e-3, 1e3);
  const double level = 2 * K / (w180 * std::hypot(1.0, w180 * T));
  const double wgain = SolveScalar([&](double w) { return -(K / (w * std::hypot(1.0, w * T)) - level); }, 1e-3, w180);
  const double tp = -(-kPi / 2 - std::atan(2 * w180 * T) - 2 * w180 * tau + kPi) / (2 * w180);
  Eigen::MatrixXd A(2, 2), B(2, 1), C(1, 2);
  A << 0, 1, 0, -1 / T;
  B << 0, K / T;
  C << 1, 0;
  const ExactResponse as_pole{analysis::ComputeTransferFunction(Siso(A, B, C), 0, 0), {}, tau};
  const ExactResponse as_lag{
      analysis::ComputeTransferFunction(Siso(Eigen::MatrixXd::Zero(1, 1), Eigen::MatrixXd::Ones(1, 1),
                                             Eigen::MatrixXd::Constant(1, 1, K)),
                                        0, 0),
      {T}, tau};
  for (const ExactResponse* g : {&as_pole, &as_lag}) {
    const BandwidthResult r = ComputeBandwidth(*g);
    ASSERT_TRUE(r.omega_180 && r.omega_gain && r.omega_phase && r.phase_delay);
    EXPECT_NEAR(*r.omega_180, w180, 1e-11 * w180);
    EXPECT_NEAR(*r.omega_phase, w135, 1e-11 * w135);
    EXPECT_NEAR(*r.omega_gain, wgain, 1e-10 * wgain);
    EXPECT_NEAR(*r.bandwidth, std::min(w135, wgain), 1e-10 * w180);
    EXPECT_EQ(r.gain_limited, wgain < w135);
    EXPECT_NEAR(*r.phase_delay, tp, 1e-12);
  }
}

model::AircraftData P2v7() {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
}

// The P2V-7 through an actuator and a delay against a brute-force reading of
// the definitions: θ/δe from a dense complex solve of the state space, the
// phase unwrapped sample to sample on a fine grid, crossings interpolated.
TEST(AssessMilStd1797, PitchBandwidthMatchesABruteForceGrid) {
  const model::AircraftData a = P2v7();
  model::CommandPath path;
  path.actuators["elevator"] = {0.05, {}, {}};
  path.delay = 0.05;
  const MilStd1797Result r = AssessMilStd1797(a, path);
  ASSERT_TRUE(r.pitch && r.pitch->omega_180 && r.pitch->phase_delay && r.pitch->bandwidth) << r.pitch->note;
  EXPECT_EQ(r.elevator_sign, -1.0);  // M_δe < 0: trailing edge down pitches nose down

  const model::StateSpace sys = model::BuildLongitudinal(a);
  const Eigen::VectorXd b = sys.B().col(0);  // elevator, the first longitudinal control
  ASSERT_EQ(sys.inputs()[0].name, "elevator");
  const auto G = [&](double w) {
    const cd s(0.0, w);
    const Eigen::MatrixXcd M = s * Eigen::MatrixXcd::Identity(4, 4) - sys.A().cast<cd>();
    const Eigen::VectorXcd x = M.partialPivLu().solve(b.cast<cd>());
    return -x(model::lon::kTheta) / (0.05 * s + 1.0) * std::exp(-s * 0.05);
  };
  const int n = 600000;
  const double lo = 1e-4, hi = 1e2;
  std::vector<double> w(n), phase(n), mag(n);
  for (int k = 0; k < n; ++k) {
    w[k] = lo * std::pow(hi / lo, static_cast<double>(k) / (n - 1));
    const cd g = G(w[k]);
    mag[k] = std::abs(g);
    phase[k] = std::arg(g);
    if (k > 0) phase[k] += 2 * kPi * std::round((phase[k - 1] - phase[k]) / (2 * kPi));
  }
  ASSERT_NEAR(phase[0], 0.0, 0.01);  // −θ/δe starts near 0°
  const auto first_crossing = [&](const std::vector<double>& y, double level, int from, int to) {
    for (int k = from + 1; k <= to; ++k)
      if ((y[k - 1] - level) * (y[k] - level) <= 0.0)
        return w[k - 1] + (w[k] - w[k - 1]) * (level - y[k - 1]) / (y[k] - y[k - 1]);
    return -1.0;
  };
  const double w180 = first_crossing(phase, -kPi, 0, n - 1);
  const double w135 = first_crossing(phase, -0.75 * kPi, 0, n - 1);
  int k180 = 0;
  while (w[k180] < w180) ++k180;
  std::vector<double> db(n);
  for (int k = 0; k < n; ++k) db[k] = 20 * std::log10(mag[k]);
  const double wgain = first_crossing(db, 20 * std::log10(2 * std::abs(G(w180))), 0, k180);
  int k2 = 0;
  while (w[k2] < 2 * w180) ++k2;
  const double phi2 = phase[k2 - 1] + (phase[k2] - phase[k2 - 1]) * (2 * w180 - w[k2 - 1]) / (w[k2] - w[k2 - 1]);
  const double tp = -(phi2 + kPi) / (2 * w180);
  // Grid spacing 2.3e-5 relative; linear interpolation error well below.
  constexpr double kGrid = 1e-6;
  EXPECT_NEAR(*r.pitch->omega_180, w180, kGrid * w180);
  EXPECT_NEAR(*r.pitch->omega_phase, w135, kGrid * w135);
  ASSERT_TRUE(r.pitch->omega_gain);
  EXPECT_NEAR(*r.pitch->omega_gain, wgain, kGrid * wgain);
  EXPECT_NEAR(*r.pitch->bandwidth, std::min(w135, wgain), kGrid * w180);
  EXPECT_NEAR(*r.pitch->phase_delay, tp, 1e-6);
}

TEST(AssessMilStd1797, BareAirframeHasNoPhaseCrossover) {
  const MilStd1797Result r = AssessMilStd1797(P2v7(), {});
  ASSERT_TRUE(r.pitch);
  EXPECT_FALSE(r.pitch->omega_180);
  EXPECT_FALSE(r.pitch->bandwidth);
  EXPECT_FALSE(r.pitch->phase_delay);
  EXPECT_EQ(r.pitch->note, "no −180° crossing: add an actuator or delay");
}

// The zeros of θ/δe computed here from det [sI − A, −b; c, 0] at three
// points (a quadratic: relative degree 2 of a 4-state model), not from the
// transfer_function module.
TEST(AssessMilStd1797, CapFromTheta2MatchesTheP2v7Numbers) {
  const model::AircraftData a = P2v7();
  const model::StateSpace sys = model::BuildLongitudinal(a);
  const auto N = [&](double s) {
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(5, 5);
    M.topLeftCorner(4, 4) = s * Eigen::MatrixXd::Identity(4, 4) - sys.A();
    M.topRightCorner(4, 1) = -sys.B().col(0);
    M(4, model::lon::kTheta) = 1.0;
    return M.determinant();
  };
  // N(s) = c2 s² + c1 s + c0 from N(0), N(1), N(-1).
  const double c0 = N(0), c2 = 0.5 * (N(1) + N(-1)) - c0, c1 = 0.5 * (N(1) - N(-1));
  const double disc = std::sqrt(c1 * c1 - 4 * c2 * c0);
  const double z_high = std::max(std::abs((-c1 + disc) / (2 * c2)), std::abs((-c1 - disc) / (2 * c2)));
  EXPECT_NEAR(z_high, 0.7238, 5e-5);  // the reference notes, from `aerolin tf`
  const MilStd1797Result r = AssessMilStd1797(a, {});
  ASSERT_TRUE(r.cap) << r.cap_note;
  EXPECT_NEAR(r.cap->inverse_t_theta2, z_high, 1e-9 * z_high);
  const double n_alpha = a.condition.U0 / a.condition.g * z_high;
  EXPECT_NEAR(r.cap->n_alpha, 6.61, 0.005);  // (293.8/32.174)·0.7238, the reference notes
  EXPECT_NEAR(r.cap->n_alpha, n_alpha, 1e-9 * n_alpha);
  const double wn = std::abs(analysis::FindMode(analysis::AnalyzeModes(a).longitudinal,
                                                analysis::ModeKind::kShortPeriod)->lambda);
  EXPECT_NEAR(r.cap->cap, wn * wn / n_alpha, 1e-9);
  // Graded on `aerolin qualities`' bands: 0.68 is Level 1 in every category.
  EXPECT_EQ(GradeCap(r.cap->cap, model::AircraftClass::kIII, model::FlightPhaseCategory::kA), analysis::Level::k1);
  EXPECT_EQ(GradeCap(0.1, model::AircraftClass::kIII, model::FlightPhaseCategory::kA), analysis::Level::k4);
  EXPECT_EQ(GradeCap(0.1, model::AircraftClass::kIII, model::FlightPhaseCategory::kB), analysis::Level::k1);
}

// q/δ = K ω²(1 + Tθ2 s)/(s² + 2ζωs + ω²): x1' = x2, x2' = −ω²x1 − 2ζωx2 + δ,
// q = Kω²(x1 + Tθ2 x2).
PitchModel SecondOrder(double K, double w, double zeta, double T2) {
  PitchModel m;
  m.A.resize(2, 2);
  m.A << 0, 1, -w * w, -2 * zeta * w;
  m.b = Eigen::Vector2d(0, 1);
  m.c_q = Eigen::RowVector2d(K * w * w, K * w * w * T2);
  return m;
}

// After release from steady state, q/q_ss = e^{−σt}(cos ωd t + a sin ωd t),
// a = (σ − Tθ2 ω²)/ωd; θ(t) − θ∞ = −q_ss ∫_t^∞ of it, in closed form.
struct SecondOrderClosedForm {
  double w, zeta, T2, sigma, wd, a;
  SecondOrderClosedForm(double w_, double z_, double T_)
      : w(w_), zeta(z_), T2(T_), sigma(z_ * w_), wd(w_ * std::sqrt(1 - z_ * z_)),
        a((sigma - T_ * w_ * w_) / wd) {}
  double Tail(double t) const {  // ∫_t^∞ e^{−σs}(cos ωd s + a sin ωd s) ds
    const double e = std::exp(-sigma * t), c = std::cos(wd * t), s = std::sin(wd * t);
    return e * ((sigma * c - wd * s) + a * (sigma * s + wd * c)) / (w * w);
  }
  double Free(double t) const {
    return std::exp(-sigma * t) * (std::cos(wd * t) + a * std::sin(wd * t));
  }
  double DropbackRatio() const {  // θ peaks where q first crosses 0
    double t = 0.0;
    while (Free(t + 1e-3) > 0.0) t += 1e-3;
    t = SolveScalar([&](double x) { return Free(x); }, t, t + 1e-3);
    return -Tail(t);  // θ(t) − θ∞ = −q_ss ∫_t^∞ free
  }
  double Overshoot() const {  // the step response's peak, 1 − Free at the first zero of its slope
    const auto step = [&](double t) { return 1.0 - Free(t); };
    double best = 0.0;
    for (int k = 1; k < 200000; ++k) best = std::max(best, step(k * 1e-5 * 20 / w));
    return best;
  }
};

TEST(ComputeDropback, SecondOrderWithLeadMatchesTheClosedForm) {
  const double K = 0.7, w = 3.0, zeta = 0.5, T2 = 0.8;
  const SecondOrderClosedForm exact(w, zeta, T2);
  DropbackOptions o;
  const DropbackResult r = ComputeDropback(SecondOrder(K, w, zeta, T2), std::nullopt, 0.0, o);
  // q_ss is the DC gain of q/δ (K) times the command, to the steady tolerance.
  EXPECT_NEAR(r.q_ss, K * o.command, 1e-6 * K * o.command);
  // θ(release) − θ∞ = q_ss (Tθ2 − 2ζ/ω) (the reference notes' closed form).
  EXPECT_NEAR(r.release_ratio, T2 - 2 * zeta / w, 1e-6);
  // θ keeps rising after release until q crosses zero: the dropback is from that peak.
  EXPECT_GT(r.dropback_ratio, r.release_ratio);
  EXPECT_NEAR(r.dropback_ratio, exact.DropbackRatio(), 1e-6);
  EXPECT_NEAR(r.overshoot, exact.Overshoot(), 1e-6);
  EXPECT_FALSE(r.limited);
}

TEST(ComputeDropback, DelayShiftsTheHistoryAndChangesNeitherRatio) {
  const PitchModel m = SecondOrder(1.0, 2.5, 0.6, 0.5);
  const model::Actuator act{0.05, {}, {}};
  const DropbackResult now = ComputeDropback(m, act, 0.0), later = ComputeDropback(m, act, 0.1);
  EXPECT_EQ(now.overshoot, later.overshoot);
  EXPECT_EQ(now.dropback_ratio, later.dropback_ratio);
  ASSERT_EQ(now.time.size(), later.time.size());
  EXPECT_NEAR(later.time.back() - now.time.back(), 0.1, 1e-12);
  EXPECT_EQ(now.q.back(), later.q.back());
}

// A rate-limited actuator against an independent fixed-step RK4 of the
// nonlinear equations δ' = clamp((δc − δ)/τa, −R, R), fine enough (1e-5 s)
// that its error (the kink at the limit's end: O(h)) is below 1e-6.
TEST(ComputeDropback, RateLimitMatchesAnIndependentIntegration) {
  const PitchModel m = SecondOrder(1.0, 3.0, 0.5, 0.8);
  const model::Actuator act{0.05, std::nullopt, 5.0 * kPi / 180};
  DropbackOptions o;
  o.command = 2.0 * kPi / 180;  // asks for 40 deg/s at first: 5 deg/s is reached
  const DropbackResult r = ComputeDropback(m, act, 0.0, o);
  EXPECT_TRUE(r.limited);
  const DropbackResult free = ComputeDropback(m, model::Actuator{0.05, {}, {}}, 0.0, o);
  EXPECT_GT(std::abs(r.release_ratio - free.release_ratio), 0.1);  // the limit matters (0.15 s)

  const auto rhs = [&](const Eigen::Vector4d& z, double c) {  // x1, x2, θ, δ
    Eigen::Vector4d d;
    d.head<2>() = m.A * z.head<2>() + m.b * z(3);
    d(2) = m.c_q.dot(z.head<2>());
    d(3) = std::clamp((c - z(3)) / act.time_constant, -*act.rate_limit, *act.rate_limit);
    return d;
  };
  const double h = 1e-5;
  Eigen::Vector4d z = Eigen::Vector4d::Zero();
  double q_peak = 0.0;
  const long hold_steps = std::lround(r.hold_time / h);
  for (long k = 0; k < hold_steps; ++k) {
    const Eigen::Vector4d k1 = rhs(z, o.command), k2 = rhs(z + 0.5 * h * k1, o.command),
                          k3 = rhs(z + 0.5 * h * k2, o.command), k4 = rhs(z + h * k3, o.command);
    z += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    q_peak = std::max(q_peak, m.c_q.dot(z.head<2>()));
  }
  const double q_ss = m.c_q.dot(z.head<2>());
  EXPECT_NEAR(r.q_ss, q_ss, 1e-6 * q_ss);
  EXPECT_NEAR(r.overshoot, q_peak / q_ss, 1e-6);
  // Released: θ's peak and final value (30 s: e^{−σ·30} ≈ 1e-20).
  const double theta_release = z(2);
  double theta_peak = theta_release;
  for (long k = 0; k < std::lround(30.0 / h); ++k) {
    const Eigen::Vector4d k1 = rhs(z, 0.0), k2 = rhs(z + 0.5 * h * k1, 0.0), k3 = rhs(z + 0.5 * h * k2, 0.0),
                          k4 = rhs(z + h * k3, 0.0);
    z += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    theta_peak = std::max(theta_peak, z(2));
  }
  EXPECT_NEAR(r.release_ratio, (theta_release - z(2)) / q_ss, 1e-6);
  EXPECT_NEAR(r.dropback_ratio, (theta_peak - z(2)) / q_ss, 1e-6);
}

TEST(ClassifyDropback, RegionOfTheReferenceNotes) {
  EXPECT_EQ(ClassifyDropback(0.1, 1.5), DropbackRegion::kSatisfactory);
  EXPECT_EQ(ClassifyDropback(-0.01, 1.5), DropbackRegion::kSluggish);
  EXPECT_EQ(ClassifyDropback(0.1, 3.2), DropbackRegion::kBobbling);
  EXPECT_EQ(ClassifyDropback(0.31, 1.0), DropbackRegion::kAbrupt);
  EXPECT_EQ(ClassifyDropback(0.3, 1.0), DropbackRegion::kSatisfactory);
  // At q_pk/q_ss = 3 the line ends at 0.055 or 0.06 s, as the two sources read it.
  EXPECT_EQ(ClassifyDropback(0.055, 3.0), DropbackRegion::kSatisfactory);
  EXPECT_EQ(ClassifyDropback(0.0575, 3.0), DropbackRegion::kBoundary);
  EXPECT_EQ(ClassifyDropback(0.061, 3.0), DropbackRegion::kAbrupt);
}

}  // namespace
}  // namespace aerolin::study
