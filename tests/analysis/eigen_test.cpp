#include "aerolin/analysis/eigen.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <complex>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "analysis/oracles.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::analysis {
namespace {

using oracles::Load;

using cd = std::complex<double>;

// Backward-stable QR on O(100) entries: residuals of a few ε·‖A‖.
constexpr double kResidualTolerance = 1e-10;
// Wᴴ V = I through one LU solve of a well-conditioned V (cond ≲ 1e3).
constexpr double kBiorthogonalityTolerance = 1e-10;

void ExpectDecomposes(const Eigen::MatrixXd& A, const EigenDecomposition& eig,
                      double biorthogonality_tolerance, const std::string& what) {
  const Eigen::Index n = A.rows();
  ASSERT_EQ(eig.values.size(), n) << what;
  const Eigen::MatrixXcd Ac = A.cast<cd>();
  const double scale = std::max(1.0, A.norm());
  for (Eigen::Index i = 0; i < n; ++i) {
    const cd l = eig.values(i);
    const Eigen::VectorXcd v = eig.right.col(i);
    const Eigen::VectorXcd w = eig.left.col(i);
    EXPECT_NEAR(v.norm(), 1.0, 1e-12) << what << " v" << i;
    EXPECT_LT((Ac * v - l * v).norm(), kResidualTolerance * scale) << what << " Av-λv, " << i;
    // wᴴA − λwᴴ, as a row.
    const Eigen::RowVectorXcd wh = w.adjoint();
    EXPECT_LT((wh * Ac - l * wh).norm(), kResidualTolerance * scale * w.norm())
        << what << " wᴴA-λwᴴ, " << i;
  }
  const Eigen::MatrixXcd WhV = eig.left.adjoint() * eig.right;
  EXPECT_LT((WhV - Eigen::MatrixXcd::Identity(n, n)).norm(), biorthogonality_tolerance)
      << what << " WᴴV = I";
}

class BundledAircraftEigen : public testing::TestWithParam<const char*> {};

TEST_P(BundledAircraftEigen, RightAndLeftVectorsSatisfyTheirEquationsAndAreBiorthonormal) {
  const model::AircraftData a = Load(GetParam());
  const Eigen::MatrixXd lon = model::BuildLongitudinal(a).A();
  ExpectDecomposes(lon, Decompose(lon), kBiorthogonalityTolerance, "longitudinal");
  // The full lateral A has the ψ integrator's exact zero root, still
  // diagonalizable unless the spiral root is 0 too.
  const Eigen::MatrixXd lat = model::BuildLateral(a).A();
  ExpectDecomposes(lat, Decompose(lat), kBiorthogonalityTolerance, "lateral");
}

// DecomposeSmall is Decompose in allocation-free storage: the same bits, so a
// sweep's roots are those `aerolin modes` computes.
TEST_P(BundledAircraftEigen, SmallStorageGivesTheSameBitsAsDynamic) {
  const model::AircraftData a = Load(GetParam());
  for (const Eigen::MatrixXd& A : {Eigen::MatrixXd(model::BuildLongitudinal(a).A()),
                                   Eigen::MatrixXd(model::BuildLateral(a).A()),
                                   Eigen::MatrixXd(model::BuildLateral(a).A().topLeftCorner(4, 4))}) {
    const EigenDecomposition big = Decompose(A);
    const SmallEigenDecomposition small = DecomposeSmall(A);
    ASSERT_EQ(small.values.size(), big.values.size());
    EXPECT_TRUE((small.values.array() == big.values.array()).all()) << A.rows() << " states";
    EXPECT_TRUE((small.right.array() == big.right.array()).all()) << A.rows() << " states";
    EXPECT_TRUE((small.left.array() == big.left.array()).all()) << A.rows() << " states";
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BundledAircraftEigen,
                         testing::Values("p2v7.toml", "boeing747_cruise_40kft.toml",
                                         "nt33a_power_approach_sl.toml", "navion_cruise_sl.toml",
                                         "a7a_clean_m025_sl.toml"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

TEST(Decompose, OrdersByMagnitudeThenRealPartWithPairsAdjacent) {
  // Block diagonal: λ = −1 ± 2i (|λ| = √5), −3, 0.5.
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(4, 4);
  A(0, 0) = 0.5;
  A(1, 1) = -1.0; A(1, 2) = 2.0; A(2, 1) = -2.0; A(2, 2) = -1.0;
  A(3, 3) = -3.0;
  const EigenDecomposition eig = Decompose(A);
  EXPECT_NEAR(std::abs(eig.values(0) - cd(-3.0, 0.0)), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(eig.values(1) - cd(-1.0, 2.0)), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(eig.values(2) - cd(-1.0, -2.0)), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(eig.values(3) - cd(0.5, 0.0)), 0.0, 1e-12);
  ExpectDecomposes(A, eig, kBiorthogonalityTolerance, "block diagonal");
}

TEST(Decompose, NearDefectiveMatrixStillBiorthonormalWithLargeLeftVectors) {
  // [[1, 1], [ε, 1]]: λ = 1 ± √ε, eigenvectors (1, ±√ε)/‖·‖ nearly parallel,
  // cond(V) ~ 1/√ε = 1e4. Left vectors grow like 1/√ε and WᴴV = I holds to
  // about cond(V)·ε_machine.
  const double eps = 1e-8;
  Eigen::MatrixXd A(2, 2);
  A << 1.0, 1.0, eps, 1.0;
  const EigenDecomposition eig = Decompose(A);
  ExpectDecomposes(A, eig, 1e-9, "near-defective");
  EXPECT_GT(eig.left.col(0).norm(), 1e3);
}

TEST(Decompose, DefectiveJordanBlockThrowsNumericalError) {
  // [[2, 1], [0, 2]]: one eigenvector for the double root; V is singular, so
  // there are no left vectors with WᴴV = I.
  Eigen::MatrixXd A(2, 2);
  A << 2.0, 1.0, 0.0, 2.0;
  EXPECT_THROW(Decompose(A), core::NumericalError);
}

TEST(Decompose, RejectsNonSquareAndNonFinite) {
  EXPECT_THROW(Decompose(Eigen::MatrixXd::Zero(2, 3)), std::invalid_argument);
  EXPECT_THROW(Decompose(Eigen::MatrixXd()), std::invalid_argument);
  Eigen::MatrixXd A = Eigen::MatrixXd::Identity(2, 2);
  A(0, 1) = std::nan("");
  EXPECT_THROW(Decompose(A), std::invalid_argument);
}

// A real A with eigenvalues known exactly: T M T⁻¹, T unit upper triangular
// with a few entries ±1 (T⁻¹ is then an integer matrix, found exactly by
// back substitution, and A is formed exactly), M block diagonal with the
// blocks [a b; −b a] (λ = a ± jb), −1, −1/64 (close to the next) and 0.
struct KnownSpectrum {
  Eigen::MatrixXd A;
  std::vector<std::complex<long double>> values;
};
KnownSpectrum KnownSpectrumMatrix() {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(5, 5);
  M.block<2, 2>(0, 0) << -0.25, 3.0, -3.0, -0.25;
  M(2, 2) = -1.0;
  M(3, 3) = -1.0 / 64.0;
  M(4, 4) = 0.0;
  const Eigen::MatrixXd T =
      (Eigen::MatrixXd(5, 5) << 1, 1, 0, -1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1).finished();
  const Eigen::MatrixXd Tinv =
      T.triangularView<Eigen::UnitUpper>().solve(Eigen::MatrixXd::Identity(5, 5));
  EXPECT_EQ(T * Tinv, Eigen::MatrixXd::Identity(5, 5));  // exact
  return {T * M * Tinv, {{-0.25L, 3.0L}, {-0.25L, -3.0L}, {-1.0L, 0.0L}, {-1.0L / 64, 0.0L}, {0.0L, 0.0L}}};
}

// The refined eigenvalues are within κᵢ·residual of the exact ones, and
// that bound (and the distance) is far below double precision's; Y X = I
// and A X = X Λ to long double's precision. Checked against the exact
// spectrum, each refined value matched to the nearest exact one.
TEST(RefineEigenpairs, ReachExtendedPrecisionWithinTheirOwnBounds) {
  if (std::numeric_limits<long double>::digits <= std::numeric_limits<double>::digits)
    GTEST_SKIP() << "long double is double here: nothing to refine to";
  const KnownSpectrum known = KnownSpectrumMatrix();
  const std::optional<Eigenpairs> approx = EigenpairsAsSolved(known.A);
  ASSERT_TRUE(approx.has_value());
  const std::optional<RefinedEigenpairs> refined = RefineEigenpairs(known.A, *approx);
  ASSERT_TRUE(refined.has_value());
  const Eigen::Index n = known.A.rows();
  using cld = std::complex<long double>;
  for (Eigen::Index i = 0; i < n; ++i) {
    const cld l = refined->values(i);
    long double nearest = std::numeric_limits<long double>::infinity();
    for (const cld& v : known.values) nearest = std::min(nearest, std::abs(l - v));
    const long double kappa = refined->left.row(i).norm();
    const cld before(approx->values(i).real(), approx->values(i).imag());
    long double before_error = std::numeric_limits<long double>::infinity();
    for (const cld& v : known.values) before_error = std::min(before_error, std::abs(before - v));
    EXPECT_LE(nearest, kappa * refined->residual(i)) << i;
    EXPECT_LT(kappa * refined->residual(i), 1e-16L) << i << ": the bound is below double's resolution";
    EXPECT_LE(nearest, before_error) << i << ": no worse than the solver's";
    EXPECT_NEAR(static_cast<double>(refined->right.col(i).norm()), 1.0, 1e-15) << i;
  }
  // The pair stays conjugate (Eigen gives λ, λ̄ side by side).
  for (Eigen::Index i = 0; i + 1 < n; ++i) {
    if (approx->values(i + 1) == std::conj(approx->values(i)) && approx->values(i).imag() != 0.0) {
      EXPECT_EQ(refined->values(i + 1), std::conj(refined->values(i))) << i;
    }
  }
  const RefinedEigenpairs::Matrix YX = refined->left * refined->right;
  EXPECT_LT(static_cast<double>((YX - RefinedEigenpairs::Matrix::Identity(n, n)).norm()), 1e-17);
}

// The lateral model's heading ψ feeds nothing back (A's column ψ is 0), so
// 0 is an eigenvalue exactly; the solver's is ~1e-15 off, the refined one
// within long double's resolution.
TEST(RefineEigenpairs, FindTheHeadingIntegratorsZero) {
  if (std::numeric_limits<long double>::digits <= std::numeric_limits<double>::digits)
    GTEST_SKIP() << "long double is double here: nothing to refine to";
  const model::AircraftData a = Load("p2v7.toml");
  const Eigen::MatrixXd A = model::BuildLateral(a).A();
  const std::optional<Eigenpairs> approx = EigenpairsAsSolved(A);
  ASSERT_TRUE(approx.has_value());
  const std::optional<RefinedEigenpairs> refined = RefineEigenpairs(A, *approx);
  ASSERT_TRUE(refined.has_value());
  long double smallest = std::numeric_limits<long double>::infinity();
  for (Eigen::Index i = 0; i < A.rows(); ++i) smallest = std::min(smallest, std::abs(refined->values(i)));
  EXPECT_LT(smallest, 1e-18L);
}

// A zero vector cannot be refined.
TEST(RefineEigenpairs, RefuseAZeroVector) {
  const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(2, 2);
  const Eigenpairs zero{Eigen::VectorXcd::Ones(2), Eigen::MatrixXcd::Zero(2, 2)};
  EXPECT_FALSE(RefineEigenpairs(A, zero).has_value());
}

}  // namespace
}  // namespace aerolin::analysis
