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
#include "p2v7_fixture.hpp"
#include "aerolin/sim/pilot_script.hpp"
#include "aerolin/sim/excitation.hpp"
#include "aerolin/sim/simulate.hpp"

// Counts heap allocations, to check that a slice allocates nothing. Not under
// AddressSanitizer, which owns operator new itself. (GCC mistakes the
// replaced pair for a malloc/delete mismatch.)
namespace {
long g_allocations = 0;
}
#if defined(__SANITIZE_ADDRESS__)
#define AEROLIN_COUNTS_ALLOCATIONS 0
#else
#define AEROLIN_COUNTS_ALLOCATIONS 1
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace aerolin::sim {
namespace {

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

PilotScript Script(const std::string& text) {
  return ParsePilotScript(text, "<test>", test::MakeP2V7().controls);
}

SimulationResult Fly(const PilotScript& script, double duration,
                     Integrator integrator, double rtol = 1e-6,
                     double atol = 1e-9, double dt = 0.1) {
  SimulationOptions o;
  o.slice.integrator = integrator;
  o.slice.rtol = rtol;
  o.slice.atol = atol;
  o.slice.dt = dt;
  o.duration = duration;
  return Simulate(FlightModel(test::MakeP2V7()), FlightState::Zero(), &script,
                  o);
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

const char* const kDoublet = "1 2 set elevator 0.02\n2 3 set elevator -0.02\n";
const char* const kPulse = "2 2.5 set aileron 0.05\n20 20.5 set rudder 0.05\n";
// The seed's own doublet (scenario a), keys ramping and decaying.
const char* const kKeyDoublet = "1.0 2.0 8\n2.0 4.0 5\n";

// A 600 s scenario using every key and a `set` line, generated with a fixed
// seed: 60 holds of 0.1–3 s, starting anywhere in the first 590 s.
std::string MixedScenario() {
  std::mt19937 rng(20240601);
  std::uniform_int_distribution<int> start(0, 5900), length(1, 30), key(0, 7);
  const char* const keys[] = {"8", "5", "+", "-", "4", "6", "9", "7"};
  std::string text = "300 310 set throttle 5\n";
  for (int i = 0; i < 60; ++i) {
    const int k0 = start(rng);
    text += std::to_string(k0 / 10.0) + " " +
            std::to_string((k0 + length(rng)) / 10.0) + " " + keys[key(rng)] +
            "\n";
  }
  return text;
}

void ExpectMatchesOracle(const std::string& script_text, double duration) {
  const PilotScript script = Script(script_text);
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
  // The controls come from the same pilot, so the runs see the same input.
  for (std::size_t k = 0; k < rk.log.size(); ++k)
    ASSERT_EQ(rk.log.controls[k], exact.log.controls[k]) << k;
}

TEST(Slicer, MatchesMatrixExponentialOnDoublet) { ExpectMatchesOracle(kDoublet, 60.0); }
TEST(Slicer, MatchesMatrixExponentialOnPulse) { ExpectMatchesOracle(kPulse, 60.0); }
TEST(Slicer, MatchesMatrixExponentialOnKeyDoublet) { ExpectMatchesOracle(kKeyDoublet, 60.0); }
TEST(Slicer, MatchesMatrixExponentialOn600sMixedScenario) {
  ExpectMatchesOracle(MixedScenario(), 600.0);
}

TEST(Slicer, Rk45PositionMatchesExactPropagatorOn600sMixedScenario) {
  // Two independent position integrations: RK45 on all 12 states vs Gauss
  // quadrature along the exact linear trajectory. Budget: the RK45 tolerance
  // on ~6000 slices of ~9 m each, relative to the 54 km flown.
  constexpr double kPositionRelative = 1e-6;
  const PilotScript script = Script(MixedScenario());
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
      v / v[ref], ref, longitudinal ? ModeAxis::kLongitudinal : ModeAxis::kLateral,
      0.01);
  for (const Integrator integrator : {Integrator::kRk45, Integrator::kExact}) {
    SimulationOptions o;
    o.slice.integrator = integrator;
    o.duration = duration;
    const SimulationResult r = Simulate(m, x0, nullptr, o);
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

TEST(Slicer, RejectsWrongControlCountAndBadOptions) {
  Slicer slicer(FlightModel(test::MakeP2V7()), SliceOptions{});
  try {
    slicer.Advance(Eigen::VectorXd::Zero(3));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "Slicer::Advance: controls has 3 entries, the model has 4 controls");
  }
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
