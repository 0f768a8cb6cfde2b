#include "aerolin/sim/slicer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <unsupported/Eigen/MatrixFunctions>

#include "aerolin/model/build.hpp"
#include "allocation_counter.hpp"
#include "p2v7_fixture.hpp"
#include "aerolin/sim/excitation.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/input.hpp"
#include "aerolin/sim/simulate.hpp"

// Counts heap allocations (allocation_counter.hpp), to check that a slice
// allocates nothing. (GCC mistakes the replaced pair for a malloc/delete
// mismatch.)
#if AEROLIN_COUNTS_ALLOCATIONS
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  ++aerolin::test::g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace aerolin::sim {
namespace {

using test::g_allocations;

// RK45 global error budget, as a multiple of the per-step tolerance
// atol + rtol·|x|max: local errors are held below the tolerance per step and
// the P2V-7 is stable, so they do not grow, but up to a few dozen steps'
// worth add up before the damping forgets them (phugoid t½ ≈ 30 s).
constexpr double kGlobalErrorFactor = 10.0;
// The exact propagator against the test's own matrix exponential: the same
// closed form evaluated twice, so only rounding differs (states ≤ ~10).
constexpr double kExactVsOracle = 1e-10;

// The test's oracle: exact ZOH propagation of each axis with its own model
// (model::Build*), from the controls the run recorded.
struct Oracle {
  Eigen::MatrixXd phi_lon, gam_lon, phi_lat, gam_lat;

  explicit Oracle(const model::AircraftData& aircraft, double dt) {
    const model::StateSpace lon = model::BuildLongitudinal(aircraft);
    const model::StateSpace lat = model::BuildLateral(aircraft);
    auto zoh = [dt](const model::StateSpace& s, Eigen::MatrixXd& phi,
                    Eigen::MatrixXd& gam) {
      const int n = s.num_states(), m = s.num_inputs();
      Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n + m, n + m);
      M.topLeftCorner(n, n) = s.A() * dt;
      M.topRightCorner(n, m) = s.B() * dt;
      const Eigen::MatrixXd E = M.exp();
      phi = E.topLeftCorner(n, n);
      gam = E.topRightCorner(n, m);
    };
    zoh(lon, phi_lon, gam_lon);
    zoh(lat, phi_lat, gam_lat);
  }

  // Linear states (9) of the log, recomputed from log.state[0] and the
  // recorded controls (P2V-7 order: elevator, throttle | aileron, rudder).
  std::vector<Eigen::VectorXd> Propagate(const FlightLog& log) const {
    Eigen::VectorXd lon = log.state[0].head<4>();
    Eigen::VectorXd lat = log.state[0].segment<5>(kBeta);
    std::vector<Eigen::VectorXd> out;
    for (std::size_t k = 0; k < log.size(); ++k) {
      if (k > 0) {
        const Eigen::VectorXd& u = log.controls[k];
        lon = (phi_lon * lon + gam_lon * u.head<2>()).eval();
        lat = (phi_lat * lat + gam_lat * u.tail<2>()).eval();
      }
      Eigen::VectorXd x(9);
      x << lon, lat;
      out.push_back(x);
    }
    return out;
  }
};

SimulationResult Fly(const Eigen::MatrixXd& controls, double duration,
                     Integrator integrator, double rtol = 1e-6,
                     double atol = 1e-9, double dt = 0.1) {
  SimulationOptions o;
  o.slice.integrator = integrator;
  o.slice.rtol = rtol;
  o.slice.atol = atol;
  o.slice.dt = dt;
  o.duration = duration;
  SampledControls input(controls);
  return Simulate(FlightModel(test::MakeP2V7()), FlightState::Zero(), input, o);
}
// Largest |error| / (atol + rtol·max|x_i|) over all linear states and times.
double WorstScaledError(const FlightLog& log,
                        const std::vector<Eigen::VectorXd>& oracle, double rtol,
                        double atol) {
  Eigen::VectorXd peak = Eigen::VectorXd::Zero(9);
  for (const Eigen::VectorXd& x : oracle) peak = peak.cwiseMax(x.cwiseAbs());
  double worst = 0.0;
  for (std::size_t k = 0; k < log.size(); ++k)
    for (int i = 0; i < 9; ++i)
      worst = std::max(worst, std::abs(log.state[k][i] - oracle[k][i]) /
                                  (atol + rtol * peak[i]));
  return worst;
}

double WorstAbsError(const FlightLog& log,
                     const std::vector<Eigen::VectorXd>& oracle) {
  double worst = 0.0;
  for (std::size_t k = 0; k < log.size(); ++k)
    worst = std::max(worst, (log.state[k].head<9>() - oracle[k]).cwiseAbs().maxCoeff());
  return worst;
}

constexpr int kElevator = 0, kThrottle = 1, kAileron = 2, kRudder = 3;
constexpr double kDt = 0.1;  // [s]

// A control held at `value` over [t0, t1) [s] in a table of 0.1 s slices.
void Hold(Eigen::MatrixXd& table, int control, double t0, double t1, double value) {
  for (long k = std::lround(t0 / kDt); k < std::lround(t1 / kDt); ++k)
    table(k, control) = value;
}

Eigen::MatrixXd EmptyTable(double duration) {
  return Eigen::MatrixXd::Zero(std::lround(duration / kDt), 4);
}

Eigen::MatrixXd Doublet(double duration) {
  Eigen::MatrixXd t = EmptyTable(duration);
  Hold(t, kElevator, 1, 2, 0.02);
  Hold(t, kElevator, 2, 3, -0.02);
  return t;
}

Eigen::MatrixXd Pulse(double duration) {
  Eigen::MatrixXd t = EmptyTable(duration);
  Hold(t, kAileron, 2, 2.5, 0.05);
  Hold(t, kRudder, 20, 20.5, 0.05);
  return t;
}

// Ramps and decays as a numpad pilot makes them: per slice a "held" control
// moves by ±step, a released one halves.
Eigen::MatrixXd RampsFrom(const Eigen::MatrixXd& held, const Eigen::Vector4d& step) {
  Eigen::MatrixXd table = Eigen::MatrixXd::Zero(held.rows(), 4);
  Eigen::Vector4d v = Eigen::Vector4d::Zero();
  for (Eigen::Index k = 0; k < held.rows(); ++k) {
    for (int c = 0; c < 4; ++c) v[c] = held(k, c) != 0.0 ? v[c] + held(k, c) * step[c] : 0.5 * v[c];
    table.row(k) = v.transpose();
  }
  return table;
}

const Eigen::Vector4d kSteps(0.01, 1.0, 0.01, 0.01);

// The seed's doublet (scenario a): elevator up 1–2 s, down 2–4 s, ramping.
Eigen::MatrixXd RampDoublet(double duration) {
  Eigen::MatrixXd held = EmptyTable(duration);
  Hold(held, kElevator, 1, 2, 1.0);
  Hold(held, kElevator, 2, 4, -1.0);
  return RampsFrom(held, kSteps);
}

// A 600 s scenario ramping every control, plus the throttle held at 5 for
// 300–310 s, generated with a fixed seed: 60 holds of 0.1–3 s, starting
// anywhere in the first 590 s.
Eigen::MatrixXd MixedScenario() {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<int> start(0, 5900), length(1, 30), key(0, 7);
  Eigen::MatrixXd held = EmptyTable(600.0);
  for (int i = 0; i < 60; ++i) {
    const int k0 = start(rng);
    const int n = length(rng);
    const int which = key(rng);
    held.block(k0, which / 2, n, 1).setConstant(which % 2 == 0 ? 1.0 : -1.0);
  }
  Eigen::MatrixXd table = RampsFrom(held, kSteps);
  table.block(3000, kThrottle, 100, 1).setConstant(5.0);
  return table;
}

void ExpectMatchesOracle(const Eigen::MatrixXd& script, double duration) {
  const Oracle oracle(test::MakeP2V7(), 0.1);
  const SimulationResult rk = Fly(script, duration, Integrator::kRk45);
  ASSERT_FALSE(rk.stopped);
  const std::vector<Eigen::VectorXd> truth = oracle.Propagate(rk.log);
  const double scaled = WorstScaledError(rk.log, truth, 1e-6, 1e-9);
  EXPECT_LT(scaled, kGlobalErrorFactor);
  // The seed's looser tolerances (scipy's defaults) are honoured too; there
  // the step control is what limits the error, not rounding.
  const SimulationResult loose =
      Fly(script, duration, Integrator::kRk45, 1e-3, 1e-6);
  EXPECT_LT(WorstScaledError(loose.log, truth, 1e-3, 1e-6), kGlobalErrorFactor);
  const SimulationResult exact = Fly(script, duration, Integrator::kExact);
  EXPECT_LT(WorstAbsError(exact.log, oracle.Propagate(exact.log)), kExactVsOracle);
  // The controls come from the same table, so the runs see the same input.
  for (std::size_t k = 0; k < rk.log.size(); ++k)
    ASSERT_EQ(rk.log.controls[k], exact.log.controls[k]) << k;
}

TEST(Slicer, MatchesMatrixExponentialOnDoublet) { ExpectMatchesOracle(Doublet(60.0), 60.0); }
TEST(Slicer, MatchesMatrixExponentialOnPulse) { ExpectMatchesOracle(Pulse(60.0), 60.0); }
TEST(Slicer, MatchesMatrixExponentialOnRampDoublet) {
  ExpectMatchesOracle(RampDoublet(60.0), 60.0);
}
TEST(Slicer, MatchesMatrixExponentialOn600sMixedScenario) {
  ExpectMatchesOracle(MixedScenario(), 600.0);
}

TEST(Slicer, Rk45PositionMatchesExactPropagatorOn600sMixedScenario) {
  // Two independent position integrations: RK45 on all 12 states vs Gauss
  // quadrature along the exact linear trajectory. Budget: the RK45 tolerance
  // on ~6000 slices of ~9 m each, relative to the 54 km flown.
  constexpr double kPositionRelative = 1e-6;
  const Eigen::MatrixXd script = MixedScenario();
  const SimulationResult rk = Fly(script, 600.0, Integrator::kRk45, 1e-9, 1e-12);
  const SimulationResult exact = Fly(script, 600.0, Integrator::kExact);
  const double flown = rk.log.state.back()[kNorth];
  for (std::size_t k = 0; k < rk.log.size(); k += 50)
    EXPECT_LT((rk.log.state[k].tail<3>() - exact.log.state[k].tail<3>()).norm(),
              kPositionRelative * flown)
        << "t = " << rk.log.time[k];
}

TEST(Slicer, StraightFlightWithoutInputFliesU0TimesT) {
  // With no perturbation the velocity is (U0 cos θ0, 0, −U0 sin θ0) exactly;
  // the only error is rounding in summing ~6000 slices.
  constexpr double kRoundingRelative = 1e-12;
  for (const double theta0 : {0.0, 0.1}) {
    model::AircraftData aircraft = test::MakeP2V7();
    aircraft.condition.theta0 = theta0;
    for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
      SliceOptions o;
      o.integrator = integrator;
      Slicer slicer(FlightModel(aircraft), o);
      const Eigen::VectorXd zero = Eigen::VectorXd::Zero(4);
      for (int k = 0; k < 6000; ++k) slicer.Advance(zero);
      const double t = slicer.time();
      const double U0 = aircraft.condition.U0;
      EXPECT_DOUBLE_EQ(t, 600.0);
      EXPECT_TRUE((slicer.state().head<9>().isZero(0.0)));
      EXPECT_NEAR(slicer.state()[kNorth], U0 * std::cos(theta0) * t,
                  kRoundingRelative * U0 * t);
      EXPECT_NEAR(slicer.state()[kEast], 0.0, kRoundingRelative * U0 * t);
      EXPECT_NEAR(slicer.state()[kDown], -U0 * std::sin(theta0) * t,
                  kRoundingRelative * U0 * t);
    }
  }
}

// Measures a mode's λ from a simulated free response: project the state on
// the left eigenvector w (wᵀ x(t) = wᵀ x0 · e^{λt} for a pure mode) and fit
// the decay rate and the unwrapped phase advance over the run.
std::complex<double> MeasuredEigenvalue(const FlightLog& log, int offset,
                                        const Eigen::VectorXcd& left) {
  const int n = static_cast<int>(left.size());
  auto z = [&](std::size_t k) {
    return left.dot(log.state[k].segment(offset, n).cast<std::complex<double>>());
  };
  double phase = 0.0;
  for (std::size_t k = 1; k < log.size(); ++k) phase += std::arg(z(k) / z(k - 1));
  const double T = log.time.back();
  return {std::log(std::abs(z(log.size() - 1)) / std::abs(z(0))) / T, phase / T};
}

void ExpectFreeResponseOfMode(bool longitudinal, bool pick_fastest, double duration) {
  // Eigen-decomposition done here, not by analysis/, so the test stands alone.
  const model::AircraftData aircraft = test::MakeP2V7();
  const FlightModel m(aircraft);
  const int offset = longitudinal ? 0 : 4, n = longitudinal ? 4 : 5;
  const Eigen::MatrixXd A = m.A().block(offset, offset, n, n);
  Eigen::EigenSolver<Eigen::MatrixXd> right(A), left(A.transpose());
  int pick = -1;
  for (int i = 0; i < n; ++i) {
    if (right.eigenvalues()[i].imag() <= 0.0) continue;
    if (pick < 0 || (std::abs(right.eigenvalues()[i]) >
                     std::abs(right.eigenvalues()[pick])) == pick_fastest)
      pick = i;
  }
  ASSERT_GE(pick, 0);
  const std::complex<double> lambda = right.eigenvalues()[pick];
  int pick_left = 0;
  for (int i = 1; i < n; ++i)
    if (std::abs(left.eigenvalues()[i] - lambda) <
        std::abs(left.eigenvalues()[pick_left] - lambda))
      pick_left = i;
  const Eigen::VectorXcd v = right.eigenvectors().col(pick);
  // Left eigenvector of λ: wᵀ A = λ wᵀ ⇔ Aᵀ w = λ w; dot() conjugates its
  // first argument, so pass conj(w).
  const Eigen::VectorXcd w_conj = left.eigenvectors().col(pick_left).conjugate();
  int ref = 0;
  v.cwiseAbs().maxCoeff(&ref);
  const FlightState x0 = ModeInitialState(
      v / v[ref], ref, longitudinal ? model::Axis::kLongitudinal : model::Axis::kLateral,
      0.01);
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SimulationOptions o;
    o.slice.integrator = integrator;
    o.duration = duration;
    const SimulationResult r = Simulate(m, x0, o);
    const std::complex<double> measured = MeasuredEigenvalue(r.log, offset, w_conj);
    // σ and ωd to 1e-4 relative: RK45 at rtol 1e-6 over the run.
    EXPECT_NEAR(measured.real(), lambda.real(), 1e-4 * std::abs(lambda))
        << ToString(integrator);
    EXPECT_NEAR(measured.imag(), lambda.imag(), 1e-4 * std::abs(lambda))
        << ToString(integrator);
  }
}

TEST(Slicer, ExcitedShortPeriodDecaysAtSigmaAndOscillatesAtOmegaD) {
  ExpectFreeResponseOfMode(true, true, 5.0);
}
TEST(Slicer, ExcitedPhugoidDecaysAtSigmaAndOscillatesAtOmegaD) {
  ExpectFreeResponseOfMode(true, false, 120.0);
}
TEST(Slicer, ExcitedDutchRollDecaysAtSigmaAndOscillatesAtOmegaD) {
  ExpectFreeResponseOfMode(false, true, 20.0);
}

TEST(Slicer, DoesNotAllocatePerSlice) {
  if (!AEROLIN_COUNTS_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under ASan";
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SliceOptions o;
    o.integrator = integrator;
    Slicer slicer(FlightModel(test::MakeP2V7()), o);
    Eigen::VectorXd u(4);
    u << 0.01, 1.0, -0.02, 0.01;
    slicer.Advance(u);
    const long before = g_allocations;
    for (int k = 0; k < 100; ++k) {
      u[0] = 0.01 * std::sin(0.1 * k);
      slicer.Advance(u);
    }
    EXPECT_EQ(g_allocations, before) << ToString(integrator);
  }
}

// The exact step keeps Φ as its longitudinal 4 × 4 and lateral 5 × 5
// blocks; its states must be those of the dense 9 × 9 transition bit for
// bit (simulate's CSV prints shortest round-trip numbers): the test's own
// exp([A B; 0 0]Δt) and Φ x summed over all nine columns in order, the
// other axis' zeros included, then Γ δ summed column by column and added.
TEST(Slicer, ExactStepEqualsTheDenseTransitionBitForBit) {
  const FlightModel model(test::MakeP2V7());
  SliceOptions o;
  o.integrator = Integrator::kExact;
  FlightState x0 = FlightState::Zero();
  x0.head<9>() << 1.5, 0.03, -0.02, 0.01, 0.04, -0.05, 0.03, 0.2, -0.1;
  Slicer slicer(model, o);
  slicer.Reset(x0);
  const int m = model.num_controls();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(9 + m, 9 + m);
  M.topLeftCorner(9, 9) = model.A() * o.dt;
  M.topRightCorner(9, m) = model.B() * o.dt;
  const Eigen::MatrixXd expM = M.exp();
  ASSERT_TRUE(expM.block(0, 4, 4, 5).isZero(0.0) && expM.block(4, 0, 5, 4).isZero(0.0));
  Eigen::Matrix<double, 9, 1> x = x0.head<9>();
  Eigen::VectorXd u(m);
  for (int k = 0; k < 50; ++k) {
    u << 0.01 * std::sin(0.3 * k), 0.5, -0.02 * std::cos(0.2 * k), 0.005 * k;
    Eigen::Matrix<double, 9, 1> next = expM.col(0).head<9>() * x[0];
    for (int j = 1; j < 9; ++j) next += expM.col(j).head<9>() * x[j];
    Eigen::Matrix<double, 9, 1> gamma_u = Eigen::Matrix<double, 9, 1>::Zero();
    for (int j = 0; j < m; ++j) gamma_u += expM.col(9 + j).head<9>() * u[j];
    x = next + gamma_u;
    slicer.Advance(u);
    for (int i = 0; i < 9; ++i) ASSERT_EQ(slicer.state()[i], x[i]) << "slice " << k << ", state " << i;
  }
  EXPECT_GT(std::abs(x[kPsi] - x0[kPsi]), 1e-3);  // the lateral axis moved
}

TEST(Flight, StepDoesNotAllocate) {
  if (!AEROLIN_COUNTS_ALLOCATIONS) GTEST_SKIP() << "allocation counting is off under ASan";
  const model::AircraftData aircraft = test::MakeP2V7();
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SliceOptions o;
    o.integrator = integrator;
    // With a disturbance input too (2 gust channels), fed by a table.
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(kNumLinearStates, 2);
    E(1, 0) = -0.1;
    E(4, 1) = -0.1;
    Flight flight(FlightModel(aircraft, E), o, ValidityThresholds{});
    SampledControls table(Doublet(20.0), Eigen::MatrixXd::Constant(200, 2, 0.01));
    HandsOff hands_off;
    SliceTiming timing;
    flight.Step(table, &timing);
    const long before = g_allocations;
    for (int k = 0; k < 100; ++k) ASSERT_TRUE(flight.Step(table, &timing).flown);
    for (int k = 0; k < 20; ++k) ASSERT_TRUE(flight.Step(hands_off).flown);
    EXPECT_EQ(g_allocations, before) << ToString(integrator);
  }
}

// ẋ = A x + B δ + E d: with E = B a disturbance d = c acts as the controls c.
TEST(Flight, DisturbanceThroughEEqualsTheSameInputThroughB) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const Eigen::MatrixXd controls = RampDoublet(30.0) + Pulse(30.0);
  const Eigen::MatrixXd none = Eigen::MatrixXd::Zero(1, 4);
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SimulationOptions o;
    o.slice.integrator = integrator;
    o.duration = 30.0;
    const FlightModel plain(aircraft);
    const FlightModel gusty(aircraft, plain.B());
    SampledControls by_controls(controls);
    SampledControls by_disturbance(none, controls);
    const SimulationResult a = Simulate(plain, FlightState::Zero(), by_controls, o);
    const SimulationResult b = Simulate(gusty, FlightState::Zero(), by_disturbance, o);
    ASSERT_EQ(a.log.size(), b.log.size());
    // Same arithmetic up to the order of two additions (B δ + E d).
    for (std::size_t k = 0; k < a.log.size(); ++k)
      ASSERT_LT((a.log.state[k] - b.log.state[k]).cwiseAbs().maxCoeff(),
                1e-12 * (1.0 + a.log.state[k].cwiseAbs().maxCoeff()))
          << ToString(integrator) << " k " << k;
    EXPECT_TRUE(b.log.controls.back().isZero());
  }
}

TEST(Flight, ExactDisturbanceResponseMatchesMatrixExponential) {
  // The test's own ZOH of ẋ = A x + E d (controls 0) over the 9 linear
  // states, from the flight model's A and an arbitrary E.
  const model::AircraftData aircraft = test::MakeP2V7();
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(kNumLinearStates, 3);
  E(0, 0) = 0.02;   // u̇ from d0
  E(1, 1) = -0.05;  // α̇ from d1
  E(4, 2) = -0.05;  // β̇ from d2
  E(5, 2) = 0.3;    // ṗ from d2
  const FlightModel model(aircraft, E);
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(300, 3);
  for (Eigen::Index k = 0; k < d.rows(); ++k)
    d.row(k) << std::sin(0.05 * k), (k / 20) % 2 ? 0.1 : -0.1, k < 50 ? 0.2 : 0.0;
  SimulationOptions o;
  o.slice.integrator = Integrator::kExact;
  o.duration = 30.0;
  SampledControls input(Eigen::MatrixXd::Zero(1, 4), d);
  const SimulationResult r = Simulate(model, FlightState::Zero(), input, o);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(12, 12);
  M.topLeftCorner(9, 9) = model.A() * kDt;
  M.topRightCorner(9, 3) = E * kDt;
  const Eigen::MatrixXd expM = M.exp();
  Eigen::VectorXd x = Eigen::VectorXd::Zero(9);
  for (std::size_t k = 1; k < r.log.size(); ++k) {
    x = (expM.topLeftCorner(9, 9) * x + expM.topRightCorner(9, 3) * d.row(k - 1).transpose())
            .eval();
    ASSERT_LT((r.log.state[k].head<9>() - x).cwiseAbs().maxCoeff(), kExactVsOracle) << k;
  }
  EXPECT_GT(r.log.state.back().head<9>().cwiseAbs().maxCoeff(), 1e-3);  // it moved
}

TEST(Slicer, RejectsWrongControlCountAndBadOptions) {
  Slicer slicer(FlightModel(test::MakeP2V7()), SliceOptions{});
  try {
    slicer.Advance(Eigen::VectorXd::Zero(3));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "Slicer::Advance: controls has 3 entries, the model has 4 controls");
  }
  try {
    slicer.Advance(Eigen::VectorXd::Zero(4), Eigen::VectorXd::Zero(2));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "Slicer::Advance: disturbance has 2 entries, the model has 0 disturbances");
  }
  EXPECT_THROW(FlightModel(test::MakeP2V7(), Eigen::MatrixXd::Zero(8, 1)), std::invalid_argument);
  SliceOptions bad;
  bad.dt = 0.0;
  EXPECT_THROW(Slicer(FlightModel(test::MakeP2V7()), bad), std::invalid_argument);
}

TEST(Slicer, ParsesIntegratorNames) {
  EXPECT_EQ(ParseIntegrator("rk45"), Integrator::kRk45);
  EXPECT_EQ(ParseIntegrator("exact"), Integrator::kExact);
  EXPECT_FALSE(ParseIntegrator("RK45"));
}

}  // namespace
}  // namespace aerolin::sim

namespace aerolin::sim {
namespace {

// Hands off, every mode of the P2V-7 decays; without the flush the linear
// states reach the subnormal range after ~1e5 s and stay there (a rounding
// fixed point), every later slice computing on subnormals. With it no linear
// state is ever subnormal and the decay ends at exactly 0, with both
// integrators (ψ, the heading integrator, keeps its value: it is not a
// decaying mode); a state that is merely small (1e-100) is left alone.
TEST(Slicer, DecayedStatesEndAtZeroNotInTheSubnormalRange) {
  for (Integrator integrator : {Integrator::kExact, Integrator::kRk45}) {
    SliceOptions o;
    o.integrator = integrator;
    o.dt = 1.0;
    Slicer slicer(FlightModel(test::MakeP2V7()), o);
    FlightState x0 = FlightState::Zero();
    x0[kAlpha] = 0.02;
    x0[kBeta] = 0.02;
    slicer.Reset(x0);
    const Eigen::VectorXd hands_off = Eigen::VectorXd::Zero(slicer.model().num_controls());
    auto decayed = [&] {
      for (int i = 0; i < kNumLinearStates; ++i)
        if (i != kPsi && slicer.state()[i] != 0.0) return false;
      return true;
    };
    long k = 0;
    for (; k < 400'000 && !decayed(); ++k) {
      slicer.Advance(hands_off);
      for (int i = 0; i < kNumLinearStates; ++i)
        ASSERT_NE(std::fpclassify(slicer.state()[i]), FP_SUBNORMAL)
            << ToString(integrator) << " slice " << k << " state " << i;
    }
    EXPECT_TRUE(decayed()) << ToString(integrator) << " " << slicer.state().transpose();
    EXPECT_NE(slicer.state()[kPsi], 0.0) << ToString(integrator);
    EXPECT_GT(k, 10'000) << ToString(integrator);  // a decay of 1e-150 takes that long
  }
  SliceOptions o;
  o.integrator = Integrator::kExact;
  Slicer slicer(FlightModel(test::MakeP2V7()), o);
  FlightState small = FlightState::Zero();
  small[kU] = 1e-100;
  slicer.Reset(small);
  slicer.Advance(Eigen::VectorXd::Zero(slicer.model().num_controls()));
  EXPECT_NE(slicer.state()[kU], 0.0);
}

}  // namespace
}  // namespace aerolin::sim
