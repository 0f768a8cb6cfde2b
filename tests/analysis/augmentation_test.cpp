#include "aerolin/analysis/augmentation.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "analysis/oracles.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;
using Eigen::MatrixXd;

// X against an oracle that shares no code with the Schur solver: both are
// backward stable on these O(1..100) problems; the CARE's conditioning
// (‖X‖·cond) leaves ~1e-12 relative.
constexpr double kRiccatiTolerance = 1e-9;
// Requested against achieved poles, relative to max(1, |λ|): the closed
// loop's eigenvalues to ~κ(X)·1e-16, with κ(X) ≤ 1e4 here.
constexpr double kPoleTolerance = 1e-8;

const std::vector<std::string> kAircraft = {
    "p2v7.toml", "navion_cruise_sl.toml", "navion_cruise_sl_coefficients.toml",
    "boeing747_cruise_40kft.toml", "boeing747_cruise_40kft_coefficients.toml",
    "a7a_clean_m025_sl.toml", "nt33a_power_approach_sl.toml"};

// The columns of `sys`'s B named `names`.
MatrixXd Columns(const model::StateSpace& sys, const std::vector<std::string>& names) {
  MatrixXd B(sys.num_states(), static_cast<Eigen::Index>(names.size()));
  for (std::size_t k = 0; k < names.size(); ++k) {
    int j = 0;
    while (sys.inputs()[j].name != names[k]) ++j;
    B.col(static_cast<Eigen::Index>(k)) = sys.B().col(j);
  }
  return B;
}

// Oracle: X from the eigenvectors of the Hamiltonian (complex, Eigen's QR
// algorithm on the unbalanced H; valid for a diagonalizable H).
MatrixXd RiccatiByEigenvectors(const MatrixXd& A, const MatrixXd& B, const MatrixXd& Q,
                               const MatrixXd& R) {
  const Eigen::Index n = A.rows();
  MatrixXd H(2 * n, 2 * n);
  H << A, -B * R.inverse() * B.transpose(), -Q, -A.transpose();
  Eigen::EigenSolver<MatrixXd> es(H);
  Eigen::MatrixXcd V(2 * n, n);
  Eigen::Index c = 0;
  for (Eigen::Index i = 0; i < 2 * n; ++i)
    if (es.eigenvalues()(i).real() < 0) V.col(c++) = es.eigenvectors().col(i);
  EXPECT_EQ(c, n);
  return (V.bottomRows(n) * V.topRows(n).inverse()).real();
}

// Oracle: Kleinman's Newton iteration from a stabilizing K0, each Lyapunov
// equation solved by its Kronecker form.
MatrixXd RiccatiByKleinman(const MatrixXd& A, const MatrixXd& B, const MatrixXd& Q,
                           const MatrixXd& R, MatrixXd K) {
  const Eigen::Index n = A.rows();
  const MatrixXd I = MatrixXd::Identity(n, n);
  MatrixXd X;
  for (int it = 0; it < 60; ++it) {
    const MatrixXd Ac = A - B * K;
    MatrixXd L(n * n, n * n);
    // vec(Acᵀ X + X Ac) = (I ⊗ Acᵀ + Acᵀ ⊗ I) vec(X).
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j)
        L.block(i * n, j * n, n, n) = I(i, j) * Ac.transpose() + Ac(j, i) * I;
    const MatrixXd rhs = -(Q + K.transpose() * R * K);
    const Eigen::VectorXd x =
        L.fullPivLu().solve(Eigen::Map<const Eigen::VectorXd>(rhs.data(), n * n));
    X = Eigen::Map<const MatrixXd>(x.data(), n, n);
    K = R.inverse() * B.transpose() * X;
  }
  return X;
}

// Ackermann's formula, the single-input oracle: K = e_nᵀ 𝒞⁻¹ φ(A).
MatrixXd Ackermann(const MatrixXd& A, const Eigen::VectorXd& b, const std::vector<cd>& poles) {
  const Eigen::Index n = A.rows();
  MatrixXd C(n, n);
  C.col(0) = b;
  for (Eigen::Index k = 1; k < n; ++k) C.col(k) = A * C.col(k - 1);
  Eigen::MatrixXcd phi = Eigen::MatrixXcd::Identity(n, n);
  for (const cd& p : poles) phi = phi * (A.cast<cd>() - p * Eigen::MatrixXcd::Identity(n, n));
  const MatrixXd last = MatrixXd::Identity(n, n).bottomRows(1);
  return last * C.inverse() * phi.real();
}

bool Stable(const MatrixXd& M) {
  const Eigen::VectorXcd l = Eigen::EigenSolver<MatrixXd>(M, false).eigenvalues();
  return (l.real().array() < 0).all();
}

double Relative(const MatrixXd& a, const MatrixXd& b) { return (a - b).norm() / b.norm(); }

// Design states as augment uses them: lateral without ψ.
struct Plant {
  std::string name;
  MatrixXd A, B;
};

std::vector<Plant> AllPlants() {
  std::vector<Plant> plants;
  for (const std::string& file : kAircraft) {
    const model::AircraftData a = oracles::Load(file);
    const model::StateSpace lon = model::BuildLongitudinal(a);
    const model::StateSpace lat = model::BuildLateral(a);
    plants.push_back({file + " longitudinal", lon.A(), Columns(lon, {"elevator"})});
    plants.push_back({file + " lateral", lat.A().topLeftCorner(4, 4),
                      Columns(lat, {"aileron", "rudder"}).topRows(4)});
  }
  return plants;
}

TEST(Lqr, ScalarMatchesTheClosedForm) {
  // ẋ = x + u, Q = R = 1: X² − 2X − 1 = 0, X = 1 + √2 = K.
  const LqrResult r = Lqr(MatrixXd::Constant(1, 1, 1.0), MatrixXd::Constant(1, 1, 1.0),
                          MatrixXd::Constant(1, 1, 1.0), MatrixXd::Constant(1, 1, 1.0));
  EXPECT_NEAR(r.X(0, 0), 1.0 + std::sqrt(2.0), 1e-14);
  EXPECT_NEAR(r.K(0, 0), 1.0 + std::sqrt(2.0), 1e-14);
  EXPECT_NEAR(r.closed_loop(0).real(), -std::sqrt(2.0), 1e-14);
}

TEST(Lqr, EveryBundledAircraftMatchesTheEigenvectorOracle) {
  for (const Plant& p : AllPlants()) {
    SCOPED_TRACE(p.name);
    const Eigen::Index n = p.A.rows(), m = p.B.cols();
    // Bryson-like weights: O(1) on angles, rates and speeds.
    const MatrixXd Q = MatrixXd::Identity(n, n) * 10.0;
    const MatrixXd R = MatrixXd::Identity(m, m);
    const LqrResult r = Lqr(p.A, p.B, Q, R);
    EXPECT_LT(Relative(r.X, RiccatiByEigenvectors(p.A, p.B, Q, R)), kRiccatiTolerance);
    EXPECT_LT(r.residual, 1e-13);
    EXPECT_TRUE(Stable(p.A - p.B * r.K));
    EXPECT_LT(Relative(r.K, R.inverse() * p.B.transpose() * RiccatiByEigenvectors(p.A, p.B, Q, R)),
              kRiccatiTolerance);
    // X symmetric positive definite (Q > 0).
    EXPECT_EQ((r.X - r.X.transpose()).norm(), 0.0);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<MatrixXd>(r.X).eigenvalues()(0), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) EXPECT_LT(r.closed_loop(i).real(), 0.0);
  }
}

TEST(Lqr, MatchesKleinmanFromTheStableOpenLoop) {
  // Navion lateral (stable): K0 = 0 is stabilizing.
  const model::StateSpace lat = model::BuildLateral(oracles::Load("navion_cruise_sl.toml"));
  const MatrixXd A = lat.A().topLeftCorner(4, 4);
  ASSERT_TRUE(Stable(A));
  const MatrixXd B = Columns(lat, {"aileron", "rudder"}).topRows(4);
  const MatrixXd Q = Eigen::Vector4d(100, 1, 10, 30).asDiagonal();
  const MatrixXd R = Eigen::Vector2d(2, 5).asDiagonal();
  const LqrResult r = Lqr(A, B, Q, R);
  EXPECT_LT(Relative(r.X, RiccatiByKleinman(A, B, Q, R, MatrixXd::Zero(2, 4))), kRiccatiTolerance);
}

TEST(Lqr, CrossWeightIsTheCompletedSquare) {
  // With N, the problem equals the one in v = u + R⁻¹Nᵀx on Â, Q̂: same X.
  const model::StateSpace lon = model::BuildLongitudinal(oracles::Load("p2v7.toml"));
  const MatrixXd B = Columns(lon, {"elevator"});
  const MatrixXd Q = Eigen::Vector4d(1e-3, 50, 20, 10).asDiagonal();
  const MatrixXd R = MatrixXd::Constant(1, 1, 4.0);
  MatrixXd N(4, 1);
  N << 0.0, 0.5, 0.2, 0.0;
  const LqrResult r = Lqr(lon.A(), B, Q, R, N);
  const MatrixXd Ah = lon.A() - B * R.inverse() * N.transpose();
  const MatrixXd Qh = Q - N * R.inverse() * N.transpose();
  EXPECT_LT(Relative(r.X, RiccatiByEigenvectors(Ah, B, Qh, R)), kRiccatiTolerance);
  EXPECT_LT(Relative(r.K, R.inverse() * (B.transpose() * r.X + N.transpose())), 1e-15);
  EXPECT_TRUE(Stable(lon.A() - B * r.K));
}

TEST(Lqr, BadlyScaledStatesGiveTheSameGain) {
  // States in mm/s, µrad, µrad/s, µrad (× 1e3, 1e6, 1e6, 1e6) and the
  // elevator in µrad: x̃ = T x, ũ = s u. The same design must come out:
  // K̃ = s K T⁻¹, X̃ = T⁻¹ X T⁻¹ — to the precision the unscaled one has.
  const model::StateSpace lon = model::BuildLongitudinal(oracles::Load("boeing747_cruise_40kft.toml"));
  const MatrixXd A = lon.A(), B = Columns(lon, {"elevator"});
  const MatrixXd Q = Eigen::Vector4d(0.04, 800, 130, 130).asDiagonal();
  const MatrixXd R = MatrixXd::Constant(1, 1, 33.0);
  const LqrResult plain = Lqr(A, B, Q, R);
  for (double big : {1e4, 1e6}) {
    SCOPED_TRACE(big);
    const Eigen::Vector4d t(1e3, big, big, big / 1e4);
    const double s = big;
    const MatrixXd T = t.asDiagonal(), Ti = t.cwiseInverse().asDiagonal();
    const MatrixXd As = T * A * Ti, Bs = T * B / s;
    const MatrixXd Qs = Ti * Q * Ti, Rs = R / (s * s);
    const LqrResult scaled = Lqr(As, Bs, Qs, Rs);
    EXPECT_LT(Relative(scaled.K * T / s, plain.K), kRiccatiTolerance);
    EXPECT_LT(Relative(T * scaled.X * T, plain.X), kRiccatiTolerance);
    EXPECT_LT(scaled.residual, 1e-12);
  }
}

TEST(Lqr, RefusesBadWeights) {
  const MatrixXd A = Eigen::Matrix2d{{0, 1}, {-2, -0.3}};
  const MatrixXd B = Eigen::Vector2d(0, 1);
  const MatrixXd R = MatrixXd::Constant(1, 1, 1.0);
  auto message = [&](const MatrixXd& Q, const MatrixXd& Rw) {
    try {
      Lqr(A, B, Q, Rw);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(Eigen::Matrix2d{{1, 0.5}, {0, 1}}, R), "Q is not symmetric (Q ≠ Qᵀ)");
  EXPECT_EQ(message(Eigen::Matrix2d{{1, 0}, {0, -1}}, R),
            "Q is not positive semidefinite (smallest eigenvalue -1)");
  EXPECT_EQ(message(MatrixXd::Identity(2, 2), MatrixXd::Zero(1, 1)),
            "R is not positive definite (smallest eigenvalue 0, largest 0): every input needs a "
            "positive weight");
  EXPECT_EQ(message(MatrixXd::Identity(3, 3), R), "Q must be 2×2 (A's size), got 3×3");
}

TEST(Lqr, NamesTheModeThatCannotBeMoved) {
  // Two decoupled modes, the unstable one (λ = 0.5) not reached by the input.
  const MatrixXd A = Eigen::Matrix2d{{-1, 0}, {0, 0.5}};
  const MatrixXd B = Eigen::Vector2d(1, 0);
  DesignLabels labels;
  labels.inputs = {"aileron"};
  labels.mode_name = [](cd l) { return l.real() > 0 ? std::string("spiral") : std::string(); };
  try {
    Lqr(A, B, MatrixXd::Identity(2, 2), MatrixXd::Identity(1, 1), MatrixXd(), labels);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "(A, B) is not stabilizable: the spiral (λ = 0.5 /s) is unstable and cannot be "
                 "moved by aileron (PBH test); add an input that moves it, or leave its states out");
  }
}

TEST(Lqr, RefusesTheUnweightedHeadingIntegrator) {
  // The full lateral model with ψ and no weight on it: λ = 0 unobservable.
  const model::StateSpace lat = model::BuildLateral(oracles::Load("p2v7.toml"));
  const MatrixXd B = Columns(lat, {"aileron", "rudder"});
  const MatrixXd Q = Eigen::Matrix<double, 5, 1>(1, 1, 1, 1, 0).asDiagonal();
  DesignLabels labels;
  labels.mode_name = [](cd l) { return std::abs(l) < 1e-9 ? std::string("heading") : std::string(); };
  try {
    Lqr(lat.A(), B, Q, MatrixXd::Identity(2, 2), MatrixXd(), labels);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "the heading (λ = 0 /s) is on the imaginary axis and Q does not weight it, so the "
                 "Riccati equation has no stabilizing solution: weight its state in Q, or leave "
                 "the state out of the design");
  }
  // With a weight on ψ (heading hold), the design exists and holds heading.
  const MatrixXd Qpsi = Eigen::Matrix<double, 5, 1>(1, 1, 1, 1, 1).asDiagonal();
  const LqrResult r = Lqr(lat.A(), B, Qpsi, MatrixXd::Identity(2, 2));
  EXPECT_LT(Relative(r.X, RiccatiByEigenvectors(lat.A(), B, Qpsi, MatrixXd::Identity(2, 2))),
            kRiccatiTolerance);
  EXPECT_TRUE(Stable(lat.A() - B * r.K));
}

// The poles of every plant's open loop, moved: each real part × 2 − 0.5,
// each imaginary part kept.
std::vector<cd> MovedPoles(const MatrixXd& A) {
  const Eigen::VectorXcd l = Eigen::EigenSolver<MatrixXd>(A, false).eigenvalues();
  std::vector<cd> poles;
  for (Eigen::Index i = 0; i < l.size(); ++i)
    poles.emplace_back(-std::abs(l(i).real()) * 2 - 0.5, l(i).imag());
  return poles;
}

void ExpectPolesPlaced(const PlacementResult& r, const MatrixXd& A, const MatrixXd& B,
                       const std::vector<cd>& poles) {
  const Eigen::VectorXcd got = Eigen::EigenSolver<MatrixXd>(A - B * r.K, false).eigenvalues();
  std::vector<cd> a(got.data(), got.data() + got.size()), w = poles;
  auto order = [](cd x, cd y) { return x.real() != y.real() ? x.real() < y.real() : x.imag() < y.imag(); };
  std::sort(a.begin(), a.end(), order);
  std::sort(w.begin(), w.end(), order);
  for (std::size_t i = 0; i < w.size(); ++i)
    EXPECT_LT(std::abs(a[i] - w[i]), kPoleTolerance * std::max(1.0, std::abs(w[i])))
        << "wanted " << w[i] << " got " << a[i];
  EXPECT_LE(r.max_pole_error, kPoleTolerance * 10);
}

TEST(Place, SingleInputIsAckermannsUniqueGain) {
  for (const std::string& file : kAircraft) {
    SCOPED_TRACE(file);
    const model::StateSpace lon = model::BuildLongitudinal(oracles::Load(file));
    const MatrixXd B = Columns(lon, {"elevator"});
    const std::vector<cd> poles = {{-3, 3}, {-3, -3}, {-0.1, 0.15}, {-0.1, -0.15}};
    const PlacementResult r = Place(lon.A(), B, poles);
    ExpectPolesPlaced(r, lon.A(), B, poles);
    const MatrixXd K = Ackermann(lon.A(), B.col(0), poles);
    EXPECT_LT(Relative(r.K, K), 1e-8);
  }
}

TEST(Place, MultiInputPlacesEveryBundledAircraftsPoles) {
  for (const Plant& p : AllPlants()) {
    SCOPED_TRACE(p.name);
    const std::vector<cd> poles = MovedPoles(p.A);
    const PlacementResult r = Place(p.A, p.B, poles);
    ExpectPolesPlaced(r, p.A, p.B, poles);
    EXPECT_NEAR(r.gain_norm, Eigen::JacobiSVD<MatrixXd>(r.K).singularValues()(0), 1e-12);
  }
}

TEST(Place, MultiInputRepeatedPoleAndConditioning) {
  // Two inputs: a real pole twice is allowed (rank B = 2) and KNV keeps the
  // eigenvectors far from parallel.
  const model::StateSpace lat = model::BuildLateral(oracles::Load("p2v7.toml"));
  const MatrixXd A = lat.A().topLeftCorner(4, 4);
  const MatrixXd B = Columns(lat, {"aileron", "rudder"}).topRows(4);
  const std::vector<cd> poles = {{-1.5, 1.5}, {-1.5, -1.5}, {-2.0, 0}, {-2.0, 0}};
  const PlacementResult r = Place(A, B, poles);
  ExpectPolesPlaced(r, A, B, poles);
  EXPECT_LT(r.eigenvector_condition, 100.0);
}

TEST(Place, ShapesKeepAModeUntouched) {
  // Move the Dutch roll, keep roll and spiral with their open-loop
  // eigenvectors as shapes: the gain then annihilates those vectors.
  const model::StateSpace lat = model::BuildLateral(oracles::Load("a7a_clean_m025_sl.toml"));
  const MatrixXd A = lat.A().topLeftCorner(4, 4);
  const MatrixXd B = Columns(lat, {"aileron", "rudder"}).topRows(4);
  Eigen::EigenSolver<MatrixXd> es(A);
  std::vector<cd> poles;
  std::vector<Eigen::VectorXcd> shapes;
  for (Eigen::Index i = 0; i < 4; ++i) {
    const cd l = es.eigenvalues()(i);
    if (l.imag() != 0.0) {
      poles.push_back(l.imag() > 0 ? cd(-1.2, 1.6) : cd(-1.2, -1.6));
      shapes.push_back(es.eigenvectors().col(i));
    } else {
      poles.push_back(l);
      shapes.push_back(es.eigenvectors().col(i));
    }
  }
  const PlacementResult r = Place(A, B, poles, {}, shapes);
  ExpectPolesPlaced(r, A, B, poles);
  for (Eigen::Index i = 0; i < 4; ++i)
    if (es.eigenvalues()(i).imag() == 0.0) {
      EXPECT_LT((r.K * es.eigenvectors().col(i).real()).norm(), 1e-12 * r.gain_norm);
    }
}

TEST(Place, RefusesBadRequests) {
  const model::StateSpace lon = model::BuildLongitudinal(oracles::Load("p2v7.toml"));
  const MatrixXd B = Columns(lon, {"elevator"});
  DesignLabels labels;
  labels.inputs = {"elevator"};
  auto message = [&](const MatrixXd& A, const MatrixXd& Bm, const std::vector<cd>& poles) {
    try {
      Place(A, Bm, poles, labels);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(lon.A(), B, {{-1, 1}, {-1, -1}, {-2, 1}, {-3, 0}}),
            "complex poles must come in conjugate pairs: -2 + 1j has no partner -2 − 1j");
  EXPECT_EQ(message(lon.A(), B, {{-1, 0}, {-1, 0}, {-2, 0}, {-3, 0}}),
            "the pole -1 is requested 2 times, more than rank(B) = 1 (elevator): a pole may "
            "repeat at most once per independent input");
  EXPECT_EQ(message(lon.A(), B, {{-1, 0}, {-2, 0}}), "expected 4 poles (one per state), got 2");
  // A mode the input does not reach must be requested where it is.
  const MatrixXd A = Eigen::Matrix2d{{-1, 0}, {0, -0.2}};
  const MatrixXd b = Eigen::Vector2d(1, 0);
  labels.mode_name = [](cd l) { return l.real() > -0.5 ? std::string("phugoid") : std::string(); };
  EXPECT_EQ(message(A, b, {{-3, 0}, {-4, 0}}),
            "the phugoid (λ = -0.2 /s) cannot be moved by elevator (PBH test): request its pole "
            "where it is, or add an input that moves it");
  const PlacementResult kept = Place(A, b, {{-3, 0}, {-0.2, 0}}, labels);
  ExpectPolesPlaced(kept, A, b, {{-3, 0}, {-0.2, 0}});
}

}  // namespace
}  // namespace aerolin::analysis
