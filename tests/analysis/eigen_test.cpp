#include "aerolin/analysis/eigen.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>

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

}  // namespace
}  // namespace aerolin::analysis
