#include "aerolin/study/linearize.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "bundled_aircraft.hpp"

#include "aerolin/model/build.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/slicer.hpp"

namespace aerolin::study {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
// The round trip's accuracy: Richardson-extrapolated central differences of
// functions of low degree; truncation ~1e-12, rounding ~1e-13 relative
// (derivative_error reports it), so 1e-9 relative to each matrix's largest
// entry is the stated accuracy with room, and far below any real mismatch
// (a missing Ixz or α̇ term moves entries by 1e-3 or more).
constexpr double kRoundTrip = 1e-9;

using test::kBundledAircraft;
const auto Load = test::LoadBundled;

double RelativeDifference(const Eigen::MatrixXd& got, const Eigen::MatrixXd& want) {
  const double scale = std::max(want.cwiseAbs().maxCoeff(), 1e-300);
  return (got - want).cwiseAbs().maxCoeff() / scale;
}

TEST(Linearize, RoundTripGivesBackEveryBundledFilesAAndB) {
  for (const std::string& file : kBundledAircraft) {
    SCOPED_TRACE(file);
    const model::AircraftData a = Load(file);
    const LinearizeResult l = Linearize(a);
    const model::StateSpace lon0 = model::BuildLongitudinal(a), lat0 = model::BuildLateral(a);
    const model::StateSpace lon = model::BuildLongitudinal(l.aircraft);
    const model::StateSpace lat = model::BuildLateral(l.aircraft);
    EXPECT_LT(RelativeDifference(lon.A(), lon0.A()), kRoundTrip);
    EXPECT_LT(RelativeDifference(lon.B(), lon0.B()), kRoundTrip);
    EXPECT_LT(RelativeDifference(lat.A(), lat0.A()), kRoundTrip);
    EXPECT_LT(RelativeDifference(lat.B(), lat0.B()), kRoundTrip);
    // The whole model's Jacobian (kinematics and gravity included) too.
    EXPECT_LT(RelativeDifference(l.A.topLeftCorner(4, 4), lon0.A()), kRoundTrip);
    EXPECT_LT(RelativeDifference(l.A.bottomRightCorner(5, 5), lat0.A()), kRoundTrip);
    EXPECT_LT(l.cross_coupling, kRoundTrip);
    EXPECT_LT(l.derivative_error, kRoundTrip);
    EXPECT_LT(l.model_mismatch, kRoundTrip);
  }
}

// The bundled F-16's derivatives are the linearization of its own tables at
// its reference (written there by aerolin linearize, 12 digits): a change of
// a table or of the reference that is not carried into the derivatives fails.
TEST(Linearize, F16DerivativesAreItsTablesLinearization) {
  const model::AircraftData a = Load("derivatives/f16_tables_sl.toml");
  ASSERT_TRUE(a.tables.has_value());
  const LinearizeResult l = Linearize(a);
  const model::LongitudinalDerivatives& f = a.longitudinal;
  const model::LongitudinalDerivatives& d = l.aircraft.longitudinal;
  // Each row (X, Z, M) relative to its largest entry, as the round trip.
  const auto near = [](std::initializer_list<std::pair<double, double>> row, const char* what) {
    double scale = 0.0;
    for (const auto& [file, lin] : row) scale = std::max(scale, std::abs(file));
    for (const auto& [file, lin] : row) EXPECT_LT(std::abs(file - lin), kRoundTrip * scale) << what;
  };
  const model::Control& e = a.controls[0];
  const model::Control& el = l.aircraft.controls[0];
  near({{f.Xu, d.Xu}, {f.Xa, d.Xa}, {f.Xq, d.Xq}, {e.X, el.X}}, "X");
  near({{f.Zu, d.Zu}, {f.Za, d.Za}, {f.Zq, d.Zq}, {f.Zadot, d.Zadot}, {e.Z, el.Z}}, "Z");
  near({{f.Mu, d.Mu}, {f.Ma, d.Ma}, {f.Mq, d.Mq}, {f.Madot, d.Madot}, {e.M, el.M}}, "M");
  EXPECT_LT(l.derivative_error, kRoundTrip);
  EXPECT_LT(std::abs(l.trim.input.controls(0)), 1e-9);  // the reference is the tables' trim
}

// At a new condition the file's derivatives describe the whole model's
// Jacobian as well as at the reference (the builders' kinematics with the
// new U0, W0, θ0), and dynamic pressure moved the aerodynamic ones.
TEST(Linearize, NewConditionIsConsistentWithTheBuilders) {
  const model::AircraftData a = Load("derivatives/boeing747_cruise_40kft.toml");
  TrimRequest r = ReferenceRequest(a);
  r.speed *= 1.1;
  r.gamma = 2.0 * kDeg;
  r.altitude -= 1000.0;
  const LinearizeResult l = Linearize(a, r);
  EXPECT_LT(l.model_mismatch, kRoundTrip);
  EXPECT_LT(l.cross_coupling, kRoundTrip);
  EXPECT_NEAR(l.aircraft.condition.theta0, l.trim.theta, 0.0);
  EXPECT_GT(std::abs(l.aircraft.condition.W0), 0.0);  // the trim's α moved off the stability axis
  // Mq ∝ ρV: the density ratio at 11 192 m over 12 192 m times 1.1.
  const double sigma = sim::NonlinearModel(a).DensityRatio(r.altitude);
  EXPECT_NEAR(l.aircraft.longitudinal.Mq / a.longitudinal.Mq, sigma * 1.1, 1e-9);
}

TEST(Linearize, RefusesTurnsAndSideslip) {
  const model::AircraftData a = Load("derivatives/p2v7.toml");
  TrimRequest r = ReferenceRequest(a);
  r.bank = 0.3;
  EXPECT_THROW(Linearize(a, r), std::invalid_argument);
}

// The largest difference of u [m/s], α, q, θ [rad, rad/s] between the
// nonlinear model and the file's linear model after an elevator doublet of
// amplitude `eps` [rad] (1 s up, 1 s down) over 10 s.
double DoubletDifference(const model::AircraftData& a, double eps) {
  sim::SliceOptions opt;
  opt.rtol = 1e-11;
  opt.atol = 1e-12;
  const sim::NonlinearModel nonlinear(a);
  sim::NonlinearSlicer nl(nonlinear, opt, nonlinear.ReferenceState(0.0));
  sim::Slicer linear(sim::FlightModel(a), opt);
  sim::NonlinearInput in;
  in.controls = Eigen::VectorXd::Zero(nonlinear.num_controls());
  double worst = 0.0;
  for (int k = 0; k < 100; ++k) {
    in.controls(0) = k < 10 ? eps : k < 20 ? -eps : 0.0;
    nl.Advance(in);
    linear.Advance(in.controls);
    const sim::NonlinearState& x = nl.state();
    const sim::FlightState& y = linear.state();
    const double theta = sim::EulerFromQuaternion(x.segment<4>(sim::nl::kQ0))(1);
    const Eigen::Vector4d d(x(sim::nl::kU) - a.condition.U0 - y(sim::kU),
                            (x(sim::nl::kW) - a.condition.W0) / a.condition.U0 - y(sim::kAlpha),
                            x(sim::nl::kQ) - y(sim::kQ), theta - a.condition.theta0 - y(sim::kTheta));
    worst = std::max(worst, d.cwiseAbs().maxCoeff());
  }
  return worst;
}

TEST(Linearize, NonlinearAndLinearDifferBySecondOrderInTheInput) {
  const model::AircraftData a = Load("derivatives/p2v7.toml");
  const double d1 = DoubletDifference(a, 0.02);
  const double d2 = DoubletDifference(a, 0.01);
  EXPECT_GT(d1, 1e-7);  // a real difference, far above the integrators' errors
  const double ratio = d1 / d2;
  EXPECT_GE(ratio, 3.5) << d1 << " " << d2;
  EXPECT_LE(ratio, 4.5) << d1 << " " << d2;
}

}  // namespace
}  // namespace aerolin::study
