#include "aerolin/model/build.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>

#include "aerolin/model/auxiliary_states.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::model {
namespace {
using namespace model::lon;
using namespace model::lat;

// Exact arithmetic reproduces the seed's formulas; only rounding differs.
constexpr double kTight = 1e-12;

// The P2V-7 in consistent imperial units (ft, s), not converted: the
// matrices are unit-consistent as long as g and U0 share the length unit.
AircraftData P2V7InFeet() {
  AircraftData a;
  a.condition.U0 = 293.8;
  a.condition.g = 32.174;
  a.longitudinal = {.Xu = -0.0215, .Zu = -0.227, .Mu = 0.0, .Xa = 14.7, .Za = -236.0,
                    .Ma = -3.78, .Zadot = 0.0, .Madot = -0.28, .Xq = 0.0, .Zq = -5.76,
                    .Mq = -0.992};
  a.lateral = {.Yb = -45.4, .Yp = 0.716, .Yr = 2.66, .Lb = -1.71, .Lp = -0.962,
               .Lr = 0.271, .Nb = 0.986, .Np = -0.0632, .Nr = -0.215};
  auto control = [](std::string name, bool longitudinal) {
    Control c;
    c.name = std::move(name);
    (longitudinal ? c.longitudinal : c.lateral) = true;
    return c;
  };
  Control elevator = control("elevator", true);
  elevator.Z = -12.9;
  elevator.M = -2.48;
  Control throttle = control("throttle", true);
  throttle.unit = core::Unit::kOne;
  throttle.X = 0.01;
  Control aileron = control("aileron", false);
  aileron.L = 1.72;
  aileron.N = -0.0436;
  Control rudder = control("rudder", false);
  rudder.Y = 9.17;
  rudder.L = 0.244;
  rudder.N = -0.666;
  a.controls = {elevator, throttle, aileron, rudder};
  return a;
}

TEST(BuildLongitudinal, MatchesSeedFormulasAtLevelTrim) {
  const AircraftData a = P2V7InFeet();
  const StateSpace lon = BuildLongitudinal(a);
  const double U0 = 293.8, g = 32.174, Madot = -0.28;
  Eigen::Matrix4d expected;
  expected << -0.0215, 14.7, 0.0, -g,
      -0.227 / U0, -236.0 / U0, 1 - 5.76 / U0, 0.0,
      Madot * (-0.227 / U0), -3.78 + Madot * (-236.0 / U0), -0.992 + Madot * (1 - 5.76 / U0), 0.0,
      0.0, 0.0, 1.0, 0.0;
  EXPECT_TRUE(lon.A().isApprox(expected, kTight)) << lon.A();
  ASSERT_EQ(lon.num_inputs(), 2);
  EXPECT_EQ(lon.inputs()[0].name, "elevator");
  EXPECT_EQ(lon.inputs()[1].name, "throttle");
  EXPECT_EQ(lon.inputs()[1].unit, core::Unit::kOne);
  EXPECT_NEAR(lon.B()(kAlpha, 0), -12.9 / U0, kTight);
  EXPECT_NEAR(lon.B()(kQ, 0), -2.48 + Madot * (-12.9 / U0), kTight);
  EXPECT_NEAR(lon.B()(kU, 1), 0.01, kTight);
}

TEST(BuildLateral, MatchesSeedFormulasAtLevelTrim) {
  const StateSpace lat = BuildLateral(P2V7InFeet());
  const double U0 = 293.8, g = 32.174;
  Eigen::Matrix<double, 5, 5> expected;
  expected << -45.4 / U0, 0.716 / U0, 2.66 / U0 - 1, g / U0, 0,
      -1.71, -0.962, 0.271, 0, 0,
      0.986, -0.0632, -0.215, 0, 0,
      0, 1, 0, 0, 0,
      0, 0, 1, 0, 0;
  EXPECT_TRUE(lat.A().isApprox(expected, kTight)) << lat.A();
  ASSERT_EQ(lat.num_inputs(), 2);
  EXPECT_NEAR(lat.B()(kBeta, 1), 9.17 / U0, kTight);
  EXPECT_NEAR(lat.B()(kP, 0), 1.72, kTight);
  EXPECT_NEAR(lat.B()(kR, 1), -0.666, kTight);
}

TEST(BuildLongitudinal, ClimbingTrimGravityTermsHaveEtkinSigns) {
  AircraftData a = P2V7InFeet();
  a.condition.theta0 = 0.2;
  const StateSpace lon = BuildLongitudinal(a);
  // Etkin & Reid eq. 4.9,18: Δu̇ has −g cos θ0 Δθ, ẇ has −g sin θ0 Δθ.
  EXPECT_NEAR(lon.A()(kU, kTheta), -32.174 * std::cos(0.2), kTight);
  EXPECT_NEAR(lon.A()(kAlpha, kTheta), -(32.174 / 293.8) * std::sin(0.2), kTight);
  EXPECT_NEAR(lon.A()(kQ, kTheta), -0.28 * -(32.174 / 293.8) * std::sin(0.2), kTight);
  const StateSpace lat = BuildLateral(a);
  EXPECT_NEAR(lat.A()(kPhi, kR), std::tan(0.2), kTight);
  EXPECT_NEAR(lat.A()(kPsi, kR), 1.0 / std::cos(0.2), kTight);
  EXPECT_NEAR(lat.A()(kBeta, kPhi), 32.174 * std::cos(0.2) / 293.8, kTight);
}

TEST(BuildLongitudinal, ZalphaDotScalesTheAlphaRowAndFeedsPitch) {
  AircraftData a = P2V7InFeet();
  const StateSpace plain = BuildLongitudinal(a);
  a.longitudinal.Zadot = -29.38;  // D = 1 − Zα̇/U0 = 1.1
  const StateSpace with = BuildLongitudinal(a);
  EXPECT_TRUE(with.A().row(kAlpha).isApprox(plain.A().row(kAlpha) / 1.1, kTight));
  EXPECT_NEAR(with.A()(kQ, kAlpha), -3.78 + -0.28 * (-236.0 / 293.8) / 1.1, kTight);
  EXPECT_NEAR(with.B()(kAlpha, 0), plain.B()(kAlpha, 0) / 1.1, kTight);
}

TEST(StateSpace, RejectsMismatchedSizesNamingBoth) {
  try {
    StateSpace(Eigen::MatrixXd::Zero(2, 2), Eigen::MatrixXd::Zero(3, 1),
               {{"a", core::Unit::kOne, "a"}, {"b", core::Unit::kOne, "b"}}, {{"u", core::Unit::kOne, "u"}});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "StateSpace: B is 3x1, expected 2x1");
  }
}

TEST(StateSpace, RejectsNonFiniteEntries) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(1, 1);
  A(0, 0) = std::nan("");
  EXPECT_THROW(StateSpace(A, Eigen::MatrixXd::Zero(1, 0), {{"a", core::Unit::kOne, "a"}}, {}),
               std::invalid_argument);
}

// The P2V-7 (in feet) with the yaw damper δr = K·s/(s + 1/τ)·y on `output`.
AircraftData WithWashout(const std::string& output, double K, double tau) {
  AircraftData a = P2V7InFeet();
  a.lateral_augmentation = AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", output, K, tau}}};
  return a;
}

// The roots of χ(s) = ((τs + 1) − Kτs d)·det(sI − A − b K g(s) c / (1 − K g(s) d)),
// g(s) = τs/(τs + 1): the loop δ = K g(s) (c x + d δ) closed by hand on the
// bare airframe (A, b, c, d), without a filter state. χ has degree n + 1; its
// coefficients are the discrete Fourier transform of n + 2 samples on the
// circle |s| = R (exact interpolation), its roots the companion matrix's
// eigenvalues.
Eigen::VectorXcd HandClosedRoots(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, const Eigen::RowVectorXd& c,
                                 double d, double K, double tau) {
  using cd = std::complex<double>;
  const Eigen::Index n = A.rows(), M = n + 2;
  const double R = 2.0;  // away from the filter's pole −1/τ and of the roots' size
  auto chi = [&](cd s) {
    const cd g = tau * s / (tau * s + 1.0);
    const cd loop = K * g / (1.0 - K * g * d);
    const Eigen::MatrixXcd m = s * Eigen::MatrixXcd::Identity(n, n) - A.cast<cd>() -
                               loop * (b.cast<cd>() * c.cast<cd>());
    return (tau * s + 1.0 - K * tau * s * d) * m.partialPivLu().determinant();
  };
  std::vector<cd> samples;
  for (Eigen::Index k = 0; k < M; ++k)
    samples.push_back(chi(std::polar(R, 2.0 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(M))));
  Eigen::VectorXcd coeff(M);  // coeff(j) of s^j
  for (Eigen::Index j = 0; j < M; ++j) {
    cd sum = 0.0;
    for (Eigen::Index k = 0; k < M; ++k)
      sum += samples[static_cast<std::size_t>(k)] *
             std::polar(1.0, -2.0 * std::numbers::pi * static_cast<double>(j * k) / static_cast<double>(M));
    coeff(j) = sum / (static_cast<double>(M) * std::pow(R, static_cast<double>(j)));
  }
  const Eigen::Index degree = n + 1;
  Eigen::MatrixXcd companion = Eigen::MatrixXcd::Zero(degree, degree);
  companion.bottomLeftCorner(degree - 1, degree - 1).setIdentity();
  for (Eigen::Index j = 0; j < degree; ++j) companion(j, degree - 1) = -coeff(j) / coeff(degree);
  return Eigen::ComplexEigenSolver<Eigen::MatrixXcd>(companion).eigenvalues();
}

// Roots from polynomial coefficients lose digits to the coefficients'
// rounding (about 1e-14 relative here) times the roots' sensitivity.
constexpr double kPolynomialRoots = 1e-8;

void ExpectSameRoots(const Eigen::VectorXcd& expected, const Eigen::VectorXcd& actual) {
  ASSERT_EQ(expected.size(), actual.size());
  std::vector<bool> used(static_cast<std::size_t>(actual.size()), false);
  for (const std::complex<double>& e : expected) {
    Eigen::Index best = -1;
    for (Eigen::Index k = 0; k < actual.size(); ++k)
      if (!used[static_cast<std::size_t>(k)] && (best < 0 || std::abs(actual(k) - e) < std::abs(actual(best) - e)))
        best = k;
    used[static_cast<std::size_t>(best)] = true;
    EXPECT_LT(std::abs(actual(best) - e), kPolynomialRoots * std::max(1.0, std::abs(e))) << e << " vs " << actual(best);
  }
}

TEST(BuildAugmented, WashedOutYawRateLoopHasTheHandClosedRoots) {
  const double K = 1.7, tau = 1.5;
  const StateSpace closed = BuildAugmented(WithWashout("r", K, tau), Axis::kLateral);
  ASSERT_EQ(closed.num_states(), 6);
  EXPECT_EQ(closed.states()[5].name, "r_washout");
  EXPECT_EQ(closed.states()[5].symbol, "r_w");
  EXPECT_EQ(closed.states()[5].unit, core::Unit::kRadianPerSecond);
  EXPECT_EQ(FilterStates(WithWashout("r", K, tau), Axis::kLateral), 1);
  const StateSpace bare = BuildLateral(P2V7InFeet());
  Eigen::RowVectorXd c = Eigen::RowVectorXd::Zero(5);
  c(kR) = 1.0;
  ExpectSameRoots(HandClosedRoots(bare.A(), bare.B().col(1), c, 0.0, K, tau),
                  Eigen::EigenSolver<Eigen::MatrixXd>(closed.A()).eigenvalues());
  // The pilot's inputs stay the inputs: the airframe's B, and nothing into
  // the filter from r (no feedthrough).
  EXPECT_TRUE(closed.B().topRows(5).isApprox(bare.B(), kTight));
  EXPECT_TRUE(closed.B().row(5).isZero(0.0));
}

TEST(BuildAugmented, WashedOutLateralAccelerationLoopClosesThroughItsFeedthrough) {
  const double K = 0.05, tau = 2.0;
  const AircraftData a = WithWashout("ay", K, tau);
  const StateSpace closed = BuildAugmented(a, Axis::kLateral);
  ASSERT_EQ(closed.num_states(), 6);
  EXPECT_EQ(closed.states()[5].name, "ay_washout");
  const StateSpace measured = WithDerivedOutputs(BuildLateral(P2V7InFeet()), Axis::kLateral, a.condition);
  const double d = measured.D()(lat_out::kAy, 1);
  ASSERT_NE(d, 0.0);  // the rudder's side force: a feedthrough
  ExpectSameRoots(HandClosedRoots(measured.A(), measured.B().col(1), measured.C().row(lat_out::kAy), d, K, tau),
                  Eigen::EigenSolver<Eigen::MatrixXd>(closed.A()).eigenvalues());
}

TEST(BuildAugmented, WithoutWashoutIsTheAxisBuilder) {
  AircraftData a = P2V7InFeet();
  a.lateral_augmentation = AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", "ay", 0.05}}};
  const StateSpace built = BuildLateral(a), augmented = BuildAugmented(a, Axis::kLateral);
  EXPECT_EQ(built.A(), augmented.A());
  EXPECT_EQ(built.B(), augmented.B());
  EXPECT_EQ(FilterStates(a, Axis::kLateral), 0);
}

TEST(BuildAugmented, TheFourAndFiveStateBuildersRefuseAWashout) {
  try {
    (void)BuildLateral(WithWashout("r", 1.7, 1.5));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the lateral augmentation's loop rudder:r has a washout filter, a state of its own, "
                           "which this command's 5-state model does not carry yet (modes, qualities, tf and bode "
                           "analyse it: model::BuildAugmented)");
  }
  EXPECT_THROW((void)FeedbackOf(WithWashout("r", 1.7, 1.5), Axis::kLateral), std::invalid_argument);
  try {
    (void)BuildAugmented(WithWashout("r", 1.7, -1.0), Axis::kLateral);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the lateral augmentation's loop rudder:r: the washout's time constant must be a "
                           "finite number > 0 [s]");
  }
}

TEST(WithDerivedOutputs, FilterStatesAreNoOutputsAndTheirColumnsPadTheStatesRows) {
  const AircraftData a = WithWashout("r", 1.7, 1.5);
  const StateSpace sys = WithDerivedOutputs(BuildAugmented(a, Axis::kLateral), Axis::kLateral, a.condition);
  ASSERT_EQ(sys.num_outputs(), lat_out::kNumOutputs);
  EXPECT_EQ(sys.outputs()[5].name, "ay");
  ASSERT_EQ(sys.C().cols(), 6);
  EXPECT_TRUE(sys.C().topLeftCorner(5, 5).isIdentity(0.0));
  EXPECT_TRUE(sys.C().topRightCorner(5, 1).isZero(0.0));
  // ay = (U0/g)(β̇ + r) − ...: β̇ depends on the filter state through the rudder.
  EXPECT_DOUBLE_EQ(sys.C()(lat_out::kAy, 5), a.condition.U0 / a.condition.g * sys.A()(kBeta, 5));
  EXPECT_NE(sys.C()(lat_out::kAy, 5), 0.0);
}

}  // namespace
}  // namespace aerolin::model

namespace aerolin::model {
namespace {

// The feedback the flight commands its surfaces with (auxiliary_states.hpp):
// over z = (β, p, r, φ, ψ, r_washout), δr = K (r − w) is the row
// (0, 0, −K, 0, 0, K) of u = −K z, the aileron's row 0; the closed loop is
// the open one (bare airframe, the filter ẇ = (r − w)/τ written here) minus
// B times it.
TEST(AugmentedFeedbackOf, IsTheWashedOutLoopsGainOverTheFilterState) {
  constexpr double K = 1.7, tau = 1.5;
  const AircraftData a = WithWashout("r", K, tau);
  const ClosedFeedback f = AugmentedFeedbackOf(a, Axis::kLateral);
  ASSERT_EQ(f.gain.rows(), 2);  // aileron, rudder
  ASSERT_EQ(f.gain.cols(), 6);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(2, 6);
  expected(1, lat::kR) = -K;
  expected(1, 5) = K;
  EXPECT_EQ(f.gain, expected);
  EXPECT_TRUE(f.command.isIdentity(0.0));
  EXPECT_EQ(FilterStates(a), 1);
  const StateSpace bare = BuildLateral(P2V7InFeet());
  Eigen::MatrixXd open = Eigen::MatrixXd::Zero(6, 6), B = Eigen::MatrixXd::Zero(6, 2);
  open.topLeftCorner(5, 5) = bare.A();
  open(5, lat::kR) = 1.0 / tau;
  open(5, 5) = -1.0 / tau;
  B.topRows(5) = bare.B();
  const Eigen::MatrixXd closed = BuildAugmented(a, Axis::kLateral).A();
  EXPECT_LT((closed - (open - B * f.gain)).cwiseAbs().maxCoeff(), 1e-15);
  // Without washout: FeedbackOf, and no filter.
  const AircraftData plain = P2V7InFeet();
  EXPECT_EQ(AugmentedFeedbackOf(plain, Axis::kLateral).gain, FeedbackOf(plain, Axis::kLateral).gain);
  EXPECT_EQ(FilterStates(plain), 0);
}

}  // namespace
}  // namespace aerolin::model
