#include "aerolin/analysis/transfer_function.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <string>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "analysis/oracles.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::analysis {
namespace {

using oracles::Load;
using oracles::Direct;
using oracles::PolynomialFromRoots;

using cd = std::complex<double>;

// The factored form against a direct solve: zeros of a 4–5 state model are
// computed to ~1e-13 relative, a cancelled pair sits ~1e-15 apart; the
// product of ≤ 10 factors keeps ~1e-12. 1e-9 leaves margin, not slack.
constexpr double kFactoredForm = 1e-9;
// Polynomial coefficients from Faddeev–LeVerrier (O(100) entries, ≤ 5 steps).
constexpr double kPolynomial = 1e-9;

const std::vector<std::string> kAircraft = {"p2v7.toml", "boeing747_cruise_40kft.toml",
                                            "navion_cruise_sl.toml", "nt33a_power_approach_sl.toml",
                                            "a7a_clean_m025_sl.toml"};

// det(sI − A) = s^n + c1 s^{n−1} + … by Faddeev–LeVerrier, highest power first.
std::vector<double> CharPoly(const Eigen::MatrixXd& A) {
  const Eigen::Index n = A.rows();
  std::vector<double> c(n + 1, 0.0);
  c[0] = 1.0;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index k = 1; k <= n; ++k) {
    M = A * M + c[k - 1] * Eigen::MatrixXd::Identity(n, n);
    c[k] = -(A * M).trace() / static_cast<double>(k);
  }
  return c;
}

// Numerator of c (sI − A)⁻¹ b + d over det(sI − A): since
// det(sI − A + b c) = det(sI − A)(1 + c (sI − A)⁻¹ b),
// N(s) = det(sI − A + b c) − det(sI − A) + d det(sI − A). Shares nothing
// with the pencil deflation.
std::vector<double> NumeratorOracle(const model::StateSpace& sys, int in, int out) {
  const Eigen::VectorXd b = sys.B().col(in);
  const Eigen::RowVectorXd c = sys.C().row(out);
  const std::vector<double> open = CharPoly(sys.A());
  const std::vector<double> closed = CharPoly(sys.A() - b * c);
  std::vector<double> n(open.size());
  for (std::size_t i = 0; i < n.size(); ++i)
    n[i] = closed[i] - open[i] + sys.D()(out, in) * open[i];
  return n;
}

struct Case {
  std::string file;
  model::AircraftData aircraft;
  ModalAnalysis modes;
};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const std::string& f : kAircraft) {
    model::AircraftData a = Load(f);
    ModalAnalysis m = AnalyzeModes(a);
    cases.push_back({f, std::move(a), std::move(m)});
  }
  return cases;
}

// Runs `check` on every channel (control × output of its axis) of every
// bundled aircraft.
template <typename F>
void ForEveryChannel(F check) {
  for (const Case& c : AllCases())
    for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
      const model::StateSpace sys =
          model::WithDerivedOutputs(c.modes.model_of(axis), axis, c.aircraft.condition);
      for (int in = 0; in < sys.num_inputs(); ++in)
        for (int out = 0; out < sys.num_outputs(); ++out) {
          const TransferFunction tf = ComputeTransferFunction(sys, in, out, c.modes.modes(axis));
          check(c, sys, in, out, tf,
                c.file + " " + sys.outputs()[out].name + "/" + sys.inputs()[in].name);
        }
    }
}

TEST(TransferFunction, FactoredFormEqualsDirectSolveOnEveryBundledChannel) {
  int channels = 0;
  ForEveryChannel([&](const Case&, const model::StateSpace& sys, int in, int out,
                      const TransferFunction& tf, const std::string& what) {
    ++channels;
    for (const double w : {0.003, 0.05, 0.3, 1.0, 2.7, 20.0}) {
      const cd direct = Direct(sys, in, out, cd(0, w));
      EXPECT_LE(std::abs(tf.Evaluate(cd(0, w)) - direct), kFactoredForm * std::abs(direct))
          << what << " at ω = " << w;
    }
  });
  EXPECT_EQ(channels, 5 * (6 + 2 * 6) + 6);  // elevator, aileron, rudder; P2V-7 throttle
}

TEST(TransferFunction, FullNumeratorEqualsCharacteristicPolynomialOracle) {
  ForEveryChannel([&](const Case&, const model::StateSpace& sys, int in, int out,
                      const TransferFunction& tf, const std::string& what) {
    std::vector<cd> zeros = tf.ZeroRoots();
    for (const Cancellation& c : tf.cancelled) {
      zeros.push_back(c.zero);
      if (c.pole.second_order) zeros.push_back(std::conj(c.zero));
    }
    const std::vector<double> oracle = NumeratorOracle(sys, in, out);
    std::vector<double> mine = PolynomialFromRoots(zeros, tf.gain);
    // Pad to the oracle's length (leading zeros of a relative degree r > 0).
    mine.insert(mine.begin(), oracle.size() - mine.size(), 0.0);
    double scale = 0.0;
    for (const double v : oracle) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < oracle.size(); ++i)
      EXPECT_NEAR(mine[i], oracle[i], kPolynomial * scale) << what << " coefficient " << i;
    // Denominator: the poles are det(sI − A)'s roots (minimal × cancelled).
    std::vector<cd> poles = tf.PoleRoots();
    for (const Cancellation& c : tf.cancelled) {
      poles.push_back(c.pole.root);
      if (c.pole.second_order) poles.push_back(std::conj(c.pole.root));
    }
    const std::vector<double> den = PolynomialFromRoots(poles, 1.0), open = CharPoly(sys.A());
    for (std::size_t i = 0; i < open.size(); ++i)
      EXPECT_NEAR(den[i], open[i], kPolynomial * std::max(1.0, std::abs(open[i]))) << what;
  });
}

// Oracle: the finite generalized eigenvalues of ([A b; c d], [I 0; 0 0])
// from Eigen's QZ, for the channels of relative degree ≤ 1 (one infinite
// eigenvalue, computed as β ≈ 0 and told apart cleanly).
TEST(TransferFunction, ZerosEqualFiniteGeneralizedEigenvaluesOfTheSystemPencil) {
  int compared = 0;
  ForEveryChannel([&](const Case&, const model::StateSpace& sys, int in, int out,
                      const TransferFunction& tf, const std::string& what) {
    const InvariantZeros z = ComputeInvariantZeros(sys.A(), sys.B().col(in), sys.C().row(out),
                                                   sys.D()(out, in));
    if (z.relative_degree > 1 || z.identically_zero) return;
    const Eigen::Index n = sys.num_states();
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(n + 1, n + 1), T = S;
    S.topLeftCorner(n, n) = sys.A();
    S.topRightCorner(n, 1) = sys.B().col(in);
    S.bottomLeftCorner(1, n) = sys.C().row(out);
    S(n, n) = sys.D()(out, in);
    T.topLeftCorner(n, n).setIdentity();
    const Eigen::GeneralizedEigenSolver<Eigen::MatrixXd> qz(S, T, false);
    std::vector<cd> finite;
    for (Eigen::Index i = 0; i <= n; ++i) {
      const cd alpha = qz.alphas()(i);
      const double beta = qz.betas()(i);
      if (std::abs(beta) > 1e-9 * std::abs(alpha)) finite.push_back(alpha / beta);
    }
    ASSERT_EQ(finite.size(), z.zeros.size()) << what;
    for (const cd& mine : z.zeros) {
      double best = 1e300;
      for (const cd& f : finite) best = std::min(best, std::abs(f - mine));
      EXPECT_LE(best, 1e-8 * std::max(1.0, std::abs(mine))) << what << " zero " << mine;
    }
    ++compared;
    (void)tf;
  });
  EXPECT_GT(compared, 40);
}

// Oracle: DC gain = −C A⁻¹ B + D; the lateral A is singular (ψ integrator),
// but ψ feeds nothing back, so every output but ψ has the DC gain of the
// (β, p, r, φ) block, and ψ's is infinite.
TEST(TransferFunction, DcGainEqualsMinusCAInverseBPlusD) {
  ForEveryChannel([&](const Case&, const model::StateSpace& sys, int in, int out,
                      const TransferFunction& tf, const std::string& what) {
    const bool lateral = sys.num_states() == model::lat::kNumStates;
    if (lateral && out == model::lat::kPsi) {
      EXPECT_FALSE(tf.dc_gain.has_value()) << what;
      EXPECT_EQ(tf.integrators, 1) << what;
      return;
    }
    const Eigen::Index n = lateral ? 4 : sys.num_states();
    const Eigen::MatrixXd A = sys.A().topLeftCorner(n, n);
    const double oracle =
        -(sys.C().row(out).head(n) * A.fullPivLu().solve(sys.B().col(in).head(n)))(0) +
        sys.D()(out, in);
    ASSERT_TRUE(tf.dc_gain.has_value()) << what;
    EXPECT_NEAR(*tf.dc_gain, oracle, 1e-9 * std::max(1.0, std::abs(oracle))) << what;
    EXPECT_EQ(tf.integrators, 0) << what;
  });
}

TEST(TransferFunction, HeadingIntegratorCancelsExceptInHeading) {
  ForEveryChannel([&](const Case&, const model::StateSpace& sys, int, int out,
                      const TransferFunction& tf, const std::string& what) {
    if (sys.num_states() != model::lat::kNumStates) {
      EXPECT_TRUE(tf.cancelled.empty()) << what;
      return;
    }
    if (out == model::lat::kPsi) {
      EXPECT_TRUE(tf.cancelled.empty()) << what;
      EXPECT_EQ(tf.poles.front().mode, ModeKind::kHeading) << what;
    } else {
      ASSERT_EQ(tf.cancelled.size(), 1u) << what;
      EXPECT_EQ(tf.cancelled[0].pole.mode, ModeKind::kHeading) << what;
      EXPECT_EQ(tf.cancelled[0].pole.root, cd(0.0, 0.0)) << what;
      for (const Factor& p : tf.poles) EXPECT_NE(p.mode, ModeKind::kHeading) << what;
    }
  });
}

TEST(TransferFunction, EveryPoleFactorIsNamedByItsMode) {
  ForEveryChannel([&](const Case&, const model::StateSpace&, int, int,
                      const TransferFunction& tf, const std::string& what) {
    for (const Factor& p : tf.poles) {
      EXPECT_TRUE(p.mode.has_value()) << what;
      EXPECT_FALSE(p.mode_name.empty()) << what;
    }
  });
}

TEST(TransferFunction, P2V7SpeedToElevatorHasARightHalfPlaneZero) {
  const Case c = AllCases().front();
  ASSERT_EQ(c.file, "p2v7.toml");
  const model::StateSpace sys =
      model::WithDerivedOutputs(c.modes.longitudinal_model, model::Axis::kLongitudinal,
                                c.aircraft.condition);
  const TransferFunction u = ComputeTransferFunction(sys, 0, model::lon::kU, c.modes.longitudinal);
  EXPECT_TRUE(u.non_minimum_phase);
  // Oracle: the numerator polynomial from characteristic polynomials has a
  // root with Re > 0 (its sign changes between 0 and a large s).
  const std::vector<double> n = NumeratorOracle(sys, 0, model::lon::kU);
  auto eval = [&n](double s) {
    double v = 0.0;
    for (const double a : n) v = v * s + a;
    return v;
  };
  double rhp = 0.0;
  for (const Factor& z : u.zeros)
    if (z.root.real() > 0.0) rhp = z.root.real();
  ASSERT_GT(rhp, 0.0);
  EXPECT_LT(eval(0.99 * rhp) * eval(1.01 * rhp), 0.0);  // a real root there
  const TransferFunction q = ComputeTransferFunction(sys, 0, model::lon::kQ, c.modes.longitudinal);
  EXPECT_FALSE(q.non_minimum_phase);
}

// Textbook factors. With Zδ = Zq = Mα̇ = Xq = 0 (δe a pure moment), the
// θ/δe numerator is exactly Mδ[(s − Xu)(s − Zα/U0) − Xα Zu/U0] (cofactor of
// the θ row; McRuer, Ashkenas & Graham, Aircraft Dynamics and Automatic
// Control, 1973, ch. 5, whose literal approximate factors are
// 1/Tθ2 ≈ −Zα/U0 and 1/Tθ1 ≈ −Xu + Xα Zu/Zα). For a quadratic s² + a s + b
// with roots r1 ≪ r2 those approximations (r2 ≈ a, r1 ≈ b/a) err by
// r1/r2 relative to first order, so the tolerance is 2 r1/r2.
TEST(TransferFunction, PitchAttitudeZerosAreTheClassicalOneOverTTheta) {
  model::AircraftData a = AllCases().front().aircraft;
  a.longitudinal.Zq = 0.0;
  a.longitudinal.Madot = 0.0;
  a.longitudinal.Xq = 0.0;
  for (model::Control& c : a.controls) c.Z = 0.0;
  const ModalAnalysis modes = AnalyzeModes(a);
  const model::StateSpace& sys = modes.longitudinal_model;
  const TransferFunction theta =
      ComputeTransferFunction(sys, 0, model::lon::kTheta, modes.longitudinal);
  ASSERT_EQ(theta.zeros.size(), 2u);
  ASSERT_FALSE(theta.zeros[0].second_order);
  const double inv_t1 = theta.zeros[0].inverse_time_constant;
  const double inv_t2 = theta.zeros[1].inverse_time_constant;
  const model::LongitudinalDerivatives& d = a.longitudinal;
  const double U0 = a.condition.U0;
  // Exact: the quadratic's roots.
  const double sum = -(d.Xu + d.Za / U0), product = (d.Xu * d.Za - d.Xa * d.Zu) / U0;
  EXPECT_NEAR(inv_t1 + inv_t2, sum, 1e-10);
  EXPECT_NEAR(inv_t1 * inv_t2, product, 1e-10);
  EXPECT_NEAR(theta.gain, a.controls[0].M, 1e-12);
  // Classical approximations.
  const double ratio = inv_t1 / inv_t2;
  EXPECT_NEAR(inv_t2, -d.Za / U0, 2.0 * ratio * inv_t2);
  EXPECT_NEAR(inv_t1, -d.Xu + d.Xa * d.Zu / d.Za, 2.0 * ratio * inv_t1);
}

// Synthetic model with modes -3, -1.5 (overdamped short period) and a
// phugoid pair, eigenvectors as modes_test.cpp's.
TEST(TransferFunction, OverdampedShortPeriodGivesTwoRealFactorsBothNamed) {
  Eigen::MatrixXd V(4, 4);
  V << 2.0, 1.0, 50.0, 20.0, 1.0, 0.3, 0.01, 0.02, 0.5, 1.0, 0.05, 0.1, 0.3, 0.2, 1.0, 0.5;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(4, 4);
  J(0, 0) = -3.0;
  J(1, 1) = -1.5;
  J.block(2, 2, 2, 2) << -0.01, 0.15, -0.15, -0.01;
  const Eigen::MatrixXd A = V * J * V.inverse();
  const Eigen::MatrixXd B = (Eigen::MatrixXd(4, 1) << 0.0, -0.1, -2.0, 0.0).finished();
  const model::StateSpace sys(A, B, model::LongitudinalStateSignals(),
                              {{"elevator", core::Unit::kRadian, "δe"}});
  const std::vector<Mode> modes = AnalyzeLongitudinal(sys, 100.0);
  const TransferFunction tf = ComputeTransferFunction(sys, 0, model::lon::kQ, modes);
  int short_period = 0;
  for (const Factor& p : tf.poles)
    if (p.mode == ModeKind::kShortPeriod) {
      ++short_period;
      EXPECT_FALSE(p.second_order);
      EXPECT_EQ(p.mode_name, "short period (overdamped)");
    }
  EXPECT_EQ(short_period, 2);
  ASSERT_EQ(tf.poles.size(), 3u);
  EXPECT_EQ(tf.poles.back().mode, ModeKind::kPhugoid);
  for (const double w : {0.1, 1.0, 3.0})
    EXPECT_LE(std::abs(tf.Evaluate(cd(0, w)) - Direct(sys, 0, model::lon::kQ, cd(0, w))),
              kFactoredForm * std::abs(Direct(sys, 0, model::lon::kQ, cd(0, w))));
}

// G(s) = (s + 1 + ε)/((s + 1)(s + 2)) as a 2-state model: cancels for
// ε = 1e-12, keeps both for ε = 1e-3 (above 1e-6 × ρ = 2e-6).
TEST(TransferFunction, CancelsOnlyWithinTheStatedTolerance) {
  for (const double eps : {1e-12, 1e-3}) {
    // Partial fractions: ε/(s + 1) + (1 − ε)/(s + 2).
    const Eigen::MatrixXd A = (Eigen::MatrixXd(2, 2) << -1, 0, 0, -2).finished();
    const Eigen::MatrixXd B = (Eigen::MatrixXd(2, 1) << eps, 1.0 - eps).finished();
    const model::StateSpace sys(A, B, Eigen::RowVector2d(1, 1), Eigen::MatrixXd::Zero(1, 1),
                                {{"x1", core::Unit::kOne, "x1"}, {"x2", core::Unit::kOne, "x2"}},
                                {{"u", core::Unit::kOne, "u"}}, {{"y", core::Unit::kOne, "y"}});
    const TransferFunction tf = ComputeTransferFunction(sys, 0, 0);
    if (eps < 1e-6) {
      ASSERT_EQ(tf.cancelled.size(), 1u);
      EXPECT_NEAR(tf.cancelled[0].pole.root.real(), -1.0, 1e-12);
      EXPECT_EQ(tf.poles.size(), 1u);
      EXPECT_TRUE(tf.zeros.empty());
    } else {
      EXPECT_TRUE(tf.cancelled.empty());
      ASSERT_EQ(tf.zeros.size(), 1u);
      EXPECT_NEAR(tf.zeros[0].root.real(), -1.0 - eps, 1e-12);
    }
  }
}

TEST(InvariantZeros, IdenticallyZeroAndFeedThrough) {
  const Eigen::MatrixXd A = (Eigen::MatrixXd(2, 2) << -1, 0, 0, -2).finished();
  // Output sees only x2, input drives only x1: G ≡ 0.
  const InvariantZeros none =
      ComputeInvariantZeros(A, Eigen::Vector2d(1, 0), Eigen::RowVector2d(0, 1), 0.0);
  EXPECT_TRUE(none.identically_zero);
  // d = 2: G = 2 + 1/(s + 1) = 2(s + 1.5)/(s + 1) with a 2nd, uncoupled state.
  const InvariantZeros ft =
      ComputeInvariantZeros(A, Eigen::Vector2d(1, 0), Eigen::RowVector2d(1, 0), 2.0);
  EXPECT_EQ(ft.relative_degree, 0);
  EXPECT_DOUBLE_EQ(ft.gain, 2.0);
  ASSERT_EQ(ft.zeros.size(), 2u);  // −1.5 and the uncoupled −2
  std::vector<double> re = {ft.zeros[0].real(), ft.zeros[1].real()};
  std::sort(re.begin(), re.end());
  EXPECT_NEAR(re[0], -2.0, 1e-14);
  EXPECT_NEAR(re[1], -1.5, 1e-14);
  EXPECT_THROW(ComputeInvariantZeros(A, Eigen::Vector3d(1, 0, 0), Eigen::RowVector2d(1, 0), 0.0),
               std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::analysis
