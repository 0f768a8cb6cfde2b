#include "aerolin/sim/flight_model.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "aerolin/model/build.hpp"
#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

// Velocities of ~90 m/s built from a few products: a handful of ulps.
constexpr double kVelocityTolerance = 1e-12;

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

TEST(FlightModel, VelocityIsTheRotatedBodyVelocityOfTheExactAngles) {
  model::AircraftData aircraft = test::MakeP2V7();
  aircraft.condition.theta0 = 0.05;  // exercise θ0 + θ
  const FlightModel m(aircraft);
  std::mt19937 rng(20240601);
  std::uniform_real_distribution<double> angle(-0.6, 0.6);
  for (int i = 0; i < 50; ++i) {
    FlightState x = FlightState::Zero();
    x[kU] = 5.0 * angle(rng);
    x[kAlpha] = angle(rng);
    x[kTheta] = angle(rng);
    x[kBeta] = angle(rng);
    x[kPhi] = 2.0 * angle(rng);
    x[kPsi] = 4.0 * angle(rng);
    const Eigen::Vector3d v_e = m.VelocityNed(x);
    // Back to body axes with the independent DCM; the body velocity must
    // reproduce α = atan(w/u), β = asin(v/V) and u_b = U0 + u.
    const Eigen::Vector3d v_b =
        TextbookDcm(x[kPsi], 0.05 + x[kTheta], x[kPhi]).transpose() * v_e;
    EXPECT_NEAR(v_b.x(), m.U0() + x[kU], kVelocityTolerance);
    EXPECT_NEAR(std::atan(v_b.z() / v_b.x()), x[kAlpha], kVelocityTolerance);
    EXPECT_NEAR(std::asin(v_b.y() / v_b.norm()), x[kBeta], kVelocityTolerance);
  }
}

TEST(FlightModel, BlocksAreTheLongitudinalAndLateralModelsInFileOrder) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const FlightModel m(aircraft);
  const model::StateSpace lon = model::BuildLongitudinal(aircraft);
  const model::StateSpace lat = model::BuildLateral(aircraft);
  EXPECT_EQ(Eigen::MatrixXd(m.A().topLeftCorner<4, 4>()), lon.A());
  EXPECT_EQ(Eigen::MatrixXd(m.A().bottomRightCorner<5, 5>()), lat.A());
  EXPECT_TRUE((m.A().topRightCorner<4, 5>().isZero(0.0)));
  EXPECT_TRUE((m.A().bottomLeftCorner<5, 4>().isZero(0.0)));
  ASSERT_EQ(m.B().cols(), 4);
  // Data-file order: elevator, throttle (longitudinal), aileron, rudder.
  EXPECT_EQ(Eigen::VectorXd(m.B().col(0).head<4>()), lon.B().col(0));
  EXPECT_EQ(Eigen::VectorXd(m.B().col(1).head<4>()), lon.B().col(1));
  EXPECT_EQ(Eigen::VectorXd(m.B().col(2).tail<5>()), lat.B().col(0));
  EXPECT_EQ(Eigen::VectorXd(m.B().col(3).tail<5>()), lat.B().col(1));
  EXPECT_TRUE((m.B().col(0).tail<5>().isZero(0.0)));
  EXPECT_TRUE((m.B().col(3).head<4>().isZero(0.0)));
  EXPECT_EQ(m.control_names(),
            (std::vector<std::string>{"elevator", "throttle", "aileron", "rudder"}));
}

}  // namespace
}  // namespace aerolin::sim
