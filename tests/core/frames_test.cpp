#include "aerolin/core/frames.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <cmath>

#include "aerolin/core/units.hpp"

namespace aerolin::core {
namespace {

// Products of a few O(1) trigonometric values: a handful of ulps.
constexpr double kRotationTolerance = 1e-15;
// Sums and products of a few O(1) values (orthonormality, determinant).
constexpr double kTol = 1e-12;

// The textbook body→earth direction-cosine matrix (Etkin & Reid eq. 4.4,4;
// Stevens & Lewis eq. 1.3-20, transposed), typed in independently.
Eigen::Matrix3d TextbookDcm(double psi, double theta, double phi) {
  const double cs = std::cos(psi), ss = std::sin(psi);
  const double ct = std::cos(theta), st = std::sin(theta);
  const double cp = std::cos(phi), sp = std::sin(phi);
  Eigen::Matrix3d R;
  R << ct * cs, sp * st * cs - cp * ss, cp * st * cs + sp * ss,  //
      ct * ss, sp * st * ss + cp * cs, cp * st * ss - sp * cs,   //
      -st, sp * ct, cp * ct;
  return R;
}

// The NED → plot (ENU) map as a matrix, written out: east, north, −down.
Eigen::Matrix3d NedToEnuMatrix() {
  Eigen::Matrix3d T;
  T << 0, 1, 0,  //
      1, 0, 0,   //
      0, 0, -1;
  return T;
}

TEST(BodyToEarth, MatchesTextbookDirectionCosines) {
  for (double psi : {0.0, 0.3, -2.0, 3.0})
    for (double theta : {0.0, 0.4, -1.2, 1.5})
      for (double phi : {0.0, 0.5, -0.9, 2.5}) {
        const Eigen::Matrix3d diff =
            BodyToEarth(psi, theta, phi) - TextbookDcm(psi, theta, phi);
        EXPECT_LT(diff.cwiseAbs().maxCoeff(), kRotationTolerance)
            << psi << " " << theta << " " << phi;
      }
}

TEST(BodyToEarth, IsTheProductOfExplicitZYXRotationsAndOrthonormal) {
  // Arguments in the order ψ, θ, φ: a permutation would fail this oracle.
  const double psi = 1.1, theta = -0.2, phi = 0.3;
  const Eigen::Matrix3d R = BodyToEarth(psi, theta, phi);
  EXPECT_LT((R * R.transpose() - Eigen::Matrix3d::Identity()).norm(), kTol);
  EXPECT_NEAR(R.determinant(), 1.0, kTol);
  // Independent oracle: the seed's explicit elementary rotations.
  const double c1 = std::cos(psi), s1 = std::sin(psi);
  const double c2 = std::cos(theta), s2 = std::sin(theta);
  const double c3 = std::cos(phi), s3 = std::sin(phi);
  Eigen::Matrix3d Rz, Ry, Rx;
  Rz << c1, -s1, 0, s1, c1, 0, 0, 0, 1;
  Ry << c2, 0, s2, 0, 1, 0, -s2, 0, c2;
  Rx << 1, 0, 0, 0, c3, -s3, 0, s3, c3;
  EXPECT_LT((R - Rz * Ry * Rx).norm(), kTol);
}

TEST(NedToPlot, IsEastNorthAltitudeAndRightHanded) {
  EXPECT_EQ(NedToPlot(100.0, 50.0, -30.0), Eigen::Vector3d(50.0, 100.0, 30.0));
  EXPECT_EQ(NedToPlot(Eigen::Vector3d(100.0, 50.0, -30.0)), Eigen::Vector3d(50.0, 100.0, 30.0));
  // The images of north, east, down: NED is right-handed (N × E = D), and
  // so must the plot frame be, with altitude = −down up: image(N) × image(E)
  // = image(D). Plotting (north, east, altitude) would flip this sign.
  const Eigen::Vector3d n = NedToPlot(1, 0, 0), e = NedToPlot(0, 1, 0), d = NedToPlot(0, 0, 1);
  EXPECT_EQ(n.cross(e), d);
  Eigen::Matrix3d basis;
  basis << n, e, d;
  EXPECT_DOUBLE_EQ(basis.determinant(), 1.0) << "a proper rotation, no mirror";
  EXPECT_EQ(basis, NedToEnuMatrix());
}

TEST(BodyToPlot, IsTheEnuImageOfBodyToEarth) {
  for (double psi : {0.0, 0.4, -2.0})
    for (double theta : {0.0, -0.3, 1.2})
      for (double phi : {0.0, 1.2, -0.7}) {
        const Eigen::Matrix3d oracle = NedToEnuMatrix() * TextbookDcm(psi, theta, phi);
        EXPECT_LT((BodyToPlot(psi, theta, phi) - oracle).cwiseAbs().maxCoeff(),
                  kRotationTolerance)
            << psi << " " << theta << " " << phi;
      }
}

TEST(BodyToPlot, MapsBodyAxesToEnu) {
  const Eigen::Matrix3d level = BodyToPlot(0, 0, 0);
  EXPECT_TRUE(level.col(0).isApprox(Eigen::Vector3d(0, 1, 0)));   // nose north
  EXPECT_TRUE(level.col(1).isApprox(Eigen::Vector3d(1, 0, 0)));   // right wing east
  EXPECT_TRUE(level.col(2).isApprox(Eigen::Vector3d(0, 0, -1)));  // belly down
  EXPECT_TRUE(BodyToPlot(kPi / 2, 0, 0).col(0).isApprox(Eigen::Vector3d(1, 0, 0)));
  EXPECT_GT(BodyToPlot(0, 0.2, 0).col(0).z(), 0.0);  // nose up climbs
  EXPECT_LT(BodyToPlot(0, 0, 0.3).col(1).z(), 0.0);  // right bank lowers right wing
  // Body (x forward, y right, z down) and ENU are both right-handed.
  EXPECT_NEAR(BodyToPlot(0.4, -0.3, 1.2).determinant(), 1.0, kTol);
}

}  // namespace
}  // namespace aerolin::core
