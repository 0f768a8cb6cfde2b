#include "aerolin/sim/nonlinear_model.hpp"
#include "aerolin/sim/nonlinear_shadow.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "aerolin/core/frames.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

// Rounding of the 13 state-rate formulas, in m/s² and rad/s².
constexpr double kRounding = 1e-12;

NonlinearInput NoInput(const NonlinearModel& m) {
  NonlinearInput in;
  in.controls = Eigen::VectorXd::Zero(m.num_controls());
  return in;
}

// The P2V-7 with the Boeing 747's inertias (Etkin & Reid Table 6.1, kg·m²):
// an Ixz ≠ 0 and three different moments of inertia.
model::AircraftData WithInertias(model::AircraftData a) {
  a.mass.m = 2.83176e5;
  a.mass.Ix = 0.247e8;
  a.mass.Iy = 0.449e8;
  a.mass.Iz = 0.673e8;
  a.mass.Ixz = -0.212e7;
  return a;
}

TEST(NonlinearModel, ReferenceConditionIsAnEquilibrium) {
  for (const double theta0 : {0.0, 0.2}) {
    model::AircraftData a = WithInertias(test::MakeP2V7());
    a.condition.theta0 = theta0;
    a.condition.W0 = 3.0;
    a.condition.altitude = 1000.0;
    const NonlinearModel m(a);
    NonlinearState dx;
    m.Derivative(m.ReferenceState(1000.0), NoInput(m), dx);
    EXPECT_LT(dx.head<nl::kNorth>().cwiseAbs().maxCoeff(), kRounding) << "theta0 " << theta0;
    // Navigation: the reference velocity rotated to NED.
    EXPECT_NEAR(dx(nl::kDown), -a.condition.U0 * std::sin(theta0) + 3.0 * std::cos(theta0), 1e-12);
  }
}

TEST(NonlinearModel, QuaternionMatchesEulerAngles) {
  const double phi = 0.7, theta = -0.4, psi = 2.5;
  const Eigen::Vector4d q = QuaternionFromEuler(phi, theta, psi);
  EXPECT_NEAR(q.norm(), 1.0, 1e-15);
  EXPECT_LT((QuaternionToBodyToEarth(q) - core::BodyToEarth(psi, theta, phi)).norm(), 1e-15);
  EXPECT_LT((EulerFromQuaternion(q) - Eigen::Vector3d(phi, theta, psi)).norm(), 1e-14);
}

TEST(NonlinearModel, MissingInertiasAreAssumedAndSaid) {
  const NonlinearModel bare(test::MakeP2V7());
  EXPECT_TRUE(bare.inertia_assumed());
  EXPECT_TRUE(bare.density_fixed());
  const NonlinearModel full(WithInertias(test::MakeP2V7()));
  EXPECT_FALSE(full.inertia_assumed());
  EXPECT_EQ(full.throttle_index(), 1);
}

// A loop with aerodynamics off: a pitch rate set at the start carries the
// body through the vertical (quaternion attitude, no gimbal lock); ½|v|² + g h
// is conserved to the integrator's tolerance.
TEST(NonlinearModel, LoopWithoutAerodynamicsConservesEnergy) {
  const NonlinearModel m(test::MakeP2V7(), NonlinearOptions{.aerodynamics = false});
  NonlinearState x = m.ReferenceState(2000.0);
  x(nl::kQ) = 0.5;  // rad/s: a full turn of the body in 12.6 s
  SliceOptions opt;
  opt.rtol = 1e-10;
  opt.atol = 1e-10;
  NonlinearSlicer slicer(m, opt, x);
  const double e0 = SpecificEnergy(x, m.g());
  double max_drift = 0.0, max_nose_up = 0.0;
  for (int k = 0; k < 150; ++k) {
    slicer.Advance(NoInput(m));
    max_drift = std::max(max_drift, std::abs(SpecificEnergy(slicer.state(), m.g()) - e0));
    const Eigen::Matrix3d R = QuaternionToBodyToEarth(slicer.state().segment<4>(nl::kQ0));
    max_nose_up = std::max(max_nose_up, -R(2, 0));  // body x's upward component
  }
  EXPECT_GT(max_nose_up, 0.999);  // through the vertical
  // rtol 1e-10 per step, ~1e3 steps: relative drift ~1e-7 at most.
  EXPECT_LT(max_drift / e0, 1e-7) << "e0 = " << e0;
  EXPECT_NEAR(slicer.state().segment<4>(nl::kQ0).norm(), 1.0, 1e-15);
}

// Torque-free rotation with Ixz: rotational energy ½ωᵀIω and |Iω| are
// conserved, a check of the moment equations' inertial coupling signs.
TEST(NonlinearModel, TorqueFreeRotationConservesEnergyAndMomentum) {
  const model::AircraftData a = WithInertias(test::MakeP2V7());
  const NonlinearModel m(a, NonlinearOptions{.aerodynamics = false});
  Eigen::Matrix3d I;
  I << *a.mass.Ix, 0, -*a.mass.Ixz, 0, *a.mass.Iy, 0, -*a.mass.Ixz, 0, *a.mass.Iz;
  NonlinearState x = m.ReferenceState(0.0);
  x.segment<3>(nl::kP) << 0.3, 0.2, -0.1;
  SliceOptions opt;
  opt.rtol = 1e-11;
  opt.atol = 1e-12;
  NonlinearSlicer slicer(m, opt, x);
  const auto energy = [&](const NonlinearState& s) {
    const Eigen::Vector3d w = s.segment<3>(nl::kP);
    return 0.5 * w.dot(I * w);
  };
  const auto momentum = [&](const NonlinearState& s) {
    return (I * s.segment<3>(nl::kP)).norm();
  };
  const double t0 = energy(x), h0 = momentum(x);
  for (int k = 0; k < 300; ++k) slicer.Advance(NoInput(m));
  EXPECT_NEAR(energy(slicer.state()) / t0, 1.0, 1e-8);
  EXPECT_NEAR(momentum(slicer.state()) / h0, 1.0, 1e-8);
  // The body rates did change (the test is not trivially a constant ω).
  EXPECT_GT((slicer.state().segment<3>(nl::kP) - x.segment<3>(nl::kP)).norm(), 0.05);
}

// A steady wind moves the aircraft with the air: flying into a 10 m/s
// headwind at the reference airspeed is still an equilibrium of the body
// rates, and the ground speed is U0 − 10.
TEST(NonlinearModel, SteadyWindEntersTheAerodynamicsOnly) {
  const NonlinearModel m(test::MakeP2V7());
  NonlinearState x = m.ReferenceState(500.0);
  x(nl::kU) -= 10.0;
  NonlinearInput in = NoInput(m);
  in.wind_ned = Eigen::Vector3d(-10.0, 0.0, 0.0);
  NonlinearState dx;
  m.Derivative(x, in, dx);
  EXPECT_LT(dx.head<nl::kNorth>().cwiseAbs().maxCoeff(), kRounding);
  EXPECT_NEAR(dx(nl::kNorth), m.U0() - 10.0, 1e-12);
}

TEST(NonlinearModel, RejectsAWrongNumberOfControls) {
  const NonlinearModel m(test::MakeP2V7());
  NonlinearInput in;
  in.controls = Eigen::VectorXd::Zero(2);
  NonlinearState dx;
  EXPECT_THROW(m.Derivative(m.ReferenceState(0.0), in, dx), std::invalid_argument);
}

// The P2V-7 with tables: C_Z(α) and C_mq(α), sea level, an elevator set at
// −2° at the reference (S, c̄, m, Iy: round numbers, SI).
model::AircraftData WithTables(model::AircraftData a) {
  a = WithInertias(a);
  a.condition.altitude = 0.0;
  model::AeroTables t;
  t.S = 100.0;
  t.c = 5.0;
  t.m = *a.mass.m;
  t.Iy = *a.mass.Iy;
  t.rho0 = 1.225;
  t.reference_controls.assign(a.controls.size(), 0.0);
  t.reference_controls[0] = -2.0 * std::numbers::pi / 180;  // the elevator
  model::CoefficientTable cz;
  cz.coefficient = model::TableCoefficient::kCZ;
  cz.alpha = {-0.2, 0.0, 0.2, 0.4};
  cz.values = {1.0, -0.2, -1.4, -1.0};
  model::CoefficientTable cmq;
  cmq.coefficient = model::TableCoefficient::kCmq;
  cmq.alpha = {-0.2, 0.6};
  cmq.values = {-20.0, -8.0};
  t.tables = {cz, cmq};
  a.tables = t;
  return a;
}

// What a table replaces: Z's reference value and its u, α terms (by q̄S C_Z/m,
// with the elevator's Z on its whole deflection) and Mq (by q̄Sc̄ C_mq qc̄/(2V)/Iy);
// what it does not: X, the rest of M, the lateral axes.
TEST(NonlinearModel, TablesReplaceTheTermsTheyCoverAndNoOther) {
  const model::AircraftData plain = WithInertias(test::MakeP2V7());
  const model::AircraftData tabled = WithTables(test::MakeP2V7());
  const NonlinearModel m0(plain), m(tabled);
  const double V = 80.0, alpha = 0.1, beta = 0.02, q = 0.05, de = 0.01;
  const Eigen::Vector3d v(V * std::cos(alpha) * std::cos(beta), V * std::sin(beta),
                          V * std::sin(alpha) * std::cos(beta));
  const Eigen::Vector3d w(0.1, q, -0.03);
  Eigen::VectorXd controls = Eigen::VectorXd::Zero(m.num_controls());
  controls(0) = de;
  const ForcesAndMoments f0 = m0.Aerodynamics(v, w, 0.0, 0.0, controls, 0.0);
  const ForcesAndMoments f = m.Aerodynamics(v, w, 0.0, 0.0, controls, 0.0);
  const model::AeroTables& t = *tabled.tables;
  const double qbar = 0.5 * 1.225 * V * V;
  const double s = V * V / (plain.condition.U0 * plain.condition.U0);  // q̄/q̄0 (σ = 1)
  const double s_rate = V / plain.condition.U0;
  const double cz = -0.2 + (alpha / 0.2) * (-1.4 + 0.2);  // between the 0 and 0.2 rad breakpoints
  const double de_total = t.reference_controls[0] + de;
  EXPECT_NEAR(f(2), qbar * t.S * cz / t.m + s * plain.controls[0].Z * de_total +
                        s_rate * plain.longitudinal.Zq * q, 1e-12);
  const double cmq = -20.0 + (alpha + 0.2) / 0.8 * 12.0;
  const double Mq_part = qbar * t.S * t.c * cmq * (q * t.c / (2 * V)) / t.Iy;
  EXPECT_NEAR(f(4) - Mq_part, f0(4) - s_rate * plain.longitudinal.Mq * q, 1e-12);
  EXPECT_DOUBLE_EQ(f(0), f0(0));  // no C_X table: X stays linear
  for (const int i : {1, 3, 5}) EXPECT_DOUBLE_EQ(f(i), f0(i)) << i;
  EXPECT_TRUE(m.has_tables());
  EXPECT_EQ(m.reference_thrust(), 0.0);  // no C_X table, no drag to balance
}

// A C_X table gives the drag; a constant thrust balances it at the reference,
// so the reference of a file whose tables it trims at is an equilibrium.
TEST(NonlinearModel, ReferenceThrustBalancesATabledDrag) {
  model::AircraftData a = WithTables(test::MakeP2V7());
  model::CoefficientTable cx;
  cx.coefficient = model::TableCoefficient::kCX;
  cx.alpha = {-0.2, 0.4};
  cx.values = {-0.05, -0.05};  // a constant drag coefficient
  a.tables->tables.push_back(cx);
  const NonlinearModel m(a);
  NonlinearState dx;
  m.Derivative(m.ReferenceState(0.0), NoInput(m), dx);
  EXPECT_NEAR(dx(nl::kU), 0.0, kRounding);
  const double V0 = a.condition.U0;
  EXPECT_NEAR(m.reference_thrust(), 0.5 * 1.225 * V0 * V0 * a.tables->S * 0.05 / a.tables->m, 1e-12);
}

TEST(NonlinearModel, TheStallIsTheLargestLiftOfTheTables) {
  const model::AircraftData a = WithTables(test::MakeP2V7());
  const NonlinearModel m(a);
  ASSERT_TRUE(m.lift_limits().has_value());
  // C_L = −C_Z cos α + C_X sin α with C_X from the linear X (its reference
  // value and α term, which stay): largest near the C_Z table's peak at 0.2 rad.
  EXPECT_NEAR(m.lift_limits()->alpha_max, 0.2, 0.02);
  EXPECT_GT(m.lift_limits()->cl_max, 1.3);
  EXPECT_NEAR(m.lift_limits()->alpha_min, -0.2, 1e-12);  // the table's lower edge
  EXPECT_NEAR(m.LiftCoefficient(m.lift_limits()->alpha_max), m.lift_limits()->cl_max, 1e-15);
  EXPECT_FALSE(NonlinearModel(test::MakeP2V7()).lift_limits().has_value());
}

TEST(NonlinearModel, TableExcursionsNameTheTableAndTheValue) {
  const NonlinearModel m(WithTables(test::MakeP2V7()));
  NonlinearState x = m.ReferenceState(0.0);
  EXPECT_TRUE(m.TableExcursionsAt(x, NoInput(m)).empty());
  const double V = 60.0, alpha = 30 * std::numbers::pi / 180;
  x(nl::kU) = V * std::cos(alpha);
  x(nl::kW) = V * std::sin(alpha);
  const std::vector<model::TableExcursion> e = m.TableExcursionsAt(x, NoInput(m));
  ASSERT_EQ(e.size(), 1u);  // C_Z's range; C_mq's goes to 0.6 rad
  EXPECT_EQ(e[0].ToString(), "alpha = 30 deg is past CZ's table, -11.46..22.92 deg (held at its edge value)");
}

TEST(NonlinearShadow, StateFormsAreInverse) {
  model::AircraftData a = test::MakeP2V7();
  a.condition.W0 = 4.0;
  a.condition.theta0 = 0.1;
  const NonlinearModel m(a);
  FlightState x;
  x << 3.0, 0.05, 0.1, -0.2, 0.07, -0.3, 0.2, 0.6, 1.1, 100.0, -50.0, -20.0;
  const FlightState back = PerturbationOf(m, NonlinearStateOf(m, x, 500.0), 500.0);
  EXPECT_LT((back - x).cwiseAbs().maxCoeff(), 1e-12);
}

// Hands off at the trim both stay there; an aileron step banks both alike at
// first, and the nonlinear flight then parts (it loses height and pitch in
// the bank, which the decoupled linear model cannot).
TEST(NonlinearShadow, FliesBesideTheLinearFlightAndSaysWhenTheyPart) {
  const model::AircraftData a = test::MakeP2V7();
  SliceOptions opt;
  const auto fly = [&](double aileron, double seconds) {
    Slicer linear(FlightModel(a), opt);
    NonlinearShadow shadow(NonlinearModel(a), opt, FlightState::Zero(), 0.0, nullptr, nullptr);
    Eigen::VectorXd u = Eigen::VectorXd::Zero(4);
    u(2) = aileron;
    shadow.Record(0.0, linear.state(), u);
    for (int k = 0; k < static_cast<int>(seconds / opt.dt); ++k) {
      linear.Advance(u);
      shadow.Record(linear.time(), linear.state(), u);
    }
    return shadow.partings();
  };
  EXPECT_TRUE(fly(0.0, 20.0).empty());
  const std::vector<Parting> parted = fly(0.02, 20.0);
  ASSERT_FALSE(parted.empty());
  for (const Parting& p : parted) EXPECT_GT(p.time, 1.0) << p.state;  // not at once
}

// A departure: started slow (u = −0.8 U0) at α = 0.5 rad pitching up at
// 1 rad/s, the nonlinear P2V-7 reaches α0 + α = 90° after about a second,
// where its perturbation form can no longer say where it flies. From that
// row on the shadow records only the linear rows, says what and when, and
// its partings stop changing: the one rule the CLI and the window follow.
TEST(NonlinearShadow, StopsTheNonlinearFlightWhereItDepartsAndPassesTheLinearRowsOn) {
  const model::AircraftData a = test::MakeP2V7();
  SliceOptions opt;
  struct Count final : FlightRecorder {
    int rows = 0;
    double last_t = -1.0;
    FlightState last = FlightState::Zero();
    void Record(double t, const FlightState& x, const Eigen::VectorXd&) override {
      ++rows;
      last_t = t;
      last = x;
    }
  } linear, nonlinear;
  FlightState x0 = FlightState::Zero();
  x0(kU) = -0.8 * a.condition.U0;
  x0(kAlpha) = 0.5;
  x0(kQ) = 1.0;
  NonlinearShadow shadow(NonlinearModel(a), opt, x0, 0.0, &linear, &nonlinear);
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(4);
  constexpr int kRows = 50;  // 5 s
  for (int k = 0; k <= kRows; ++k) {
    shadow.Record(k * opt.dt, x0, u);
    if (shadow.departed()) {
      EXPECT_EQ(nonlinear.rows, k) << "the departed row is not recorded";
      break;
    }
  }
  ASSERT_TRUE(shadow.departed()) << "alpha0 + alpha reaches 90 deg";
  const std::string why = *shadow.departed();
  EXPECT_EQ(why.rfind("state diverged at t = ", 0), 0u) << why;
  EXPECT_NE(why.find("alpha0 + alpha reached 90 deg"), std::string::npos) << why;
  EXPECT_EQ(why.find("run stopped"), std::string::npos) << why << ": only the nonlinear flight stopped";
  const int nonlinear_rows = nonlinear.rows;
  ASSERT_GT(nonlinear_rows, 1);
  EXPECT_LT(std::abs(nonlinear.last(kAlpha)), std::numbers::pi / 2) << "its last row is a valid one";
  const std::vector<Parting> parted = shadow.partings();
  for (int k = linear.rows; k <= kRows; ++k) shadow.Record(k * opt.dt, x0, u);
  EXPECT_EQ(linear.rows, kRows + 1) << "the linear rows go on";
  EXPECT_DOUBLE_EQ(linear.last_t, kRows * opt.dt);
  EXPECT_EQ(nonlinear.rows, nonlinear_rows) << "no nonlinear row after the departure";
  EXPECT_EQ(shadow.partings().size(), parted.size());
  EXPECT_EQ(*shadow.departed(), why);
}

}  // namespace
}  // namespace aerolin::sim
