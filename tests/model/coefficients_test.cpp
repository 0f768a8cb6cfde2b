#include "aerolin/model/coefficients.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "aerolin/core/units.hpp"
#include "aerolin/model/inertia_axes.hpp"
#include "model/boeing747_coefficients.hpp"

namespace aerolin::model {
namespace {

// Round numbers for a hand-derived table: ρ = 1.2, U0 = 50, S = 10, c = 2, b = 10,
//   ½ρU0S = 300, ¼ρU0S = 150, ¼ρS = 3, ½ρU0²S = 15000,
//   W = 7500 N → C_W0 = 7500/15000 = 0.5, ρU0S C_W0 = 300; θ0 = 30°.
CoefficientsAsWritten HandCase() {
  CoefficientsAsWritten k;
  k.U0 = 50.0;
  k.rho = 1.2;
  k.theta0 = 30.0 * core::kDegToRad;
  k.g = 10.0;
  k.S = 10.0;
  k.c = 2.0;
  k.b = 10.0;
  k.W = 7500.0;
  k.Ix = 1000.0;
  k.Iy = 2000.0;
  k.Iz = 3000.0;
  k.Ixz = 100.0;
  k.family = LongitudinalFamily::kForce;
  k.CXu = -0.1; k.CXa = 0.3; k.CXq = 0.5;
  k.CZu = -0.2; k.CZa = -5.0; k.CZq = -4.0; k.CZadot = -2.0;
  k.Cmu = 0.01; k.Cma = -1.0; k.Cmq = -20.0; k.Cmadot = -5.0;
  k.CYb = -0.8; k.CYp = 0.1; k.CYr = 0.3;
  k.Clb = -0.1; k.Clp = -0.4; k.Clr = 0.1;
  k.Cnb = 0.12; k.Cnp = -0.05; k.Cnr = -0.2;
  ControlCoefficients elevator;
  elevator.name = "elevator";
  elevator.CZ = -0.4;
  elevator.Cm = -1.0;
  ControlCoefficients aileron;
  aileron.name = "aileron";
  aileron.Cl = 0.05;
  aileron.min = -0.3;
  k.controls = {elevator, aileron};
  return k;
}

TEST(ToDimensional, EtkinTables44And45ByHand) {
  const AircraftAsWritten d = ToDimensional(HandCase());
  // X_u = ρU0S C_W0 sin θ0 + ½ρU0S C_Xu = 300·0.5 + 300·(−0.1) = 120
  // Z_u = −ρU0S C_W0 cos θ0 + ½ρU0S C_Zu = −300·0.8660254 − 60 = −319.80762
  // M_u = ½ρU0cS C_mu = 600·0.01 = 6
  // X_w, Z_w = 300·0.3, 300·(−5) = 90, −1500;  M_w = 600·(−1) = −600
  // X_q, Z_q = ¼ρU0cS C = 300·0.5, 300·(−4) = 150, −1200;  M_q = ¼ρU0c²S C_mq = 600·(−20) = −12000
  // Z_ẇ = ¼ρcS C_Zα̇ = 6·(−2) = −12;  M_ẇ = ¼ρc²S C_mα̇ = 12·(−5) = −60
  const LongitudinalAsWritten& lon = d.longitudinal;
  EXPECT_TRUE(lon.raw);
  EXPECT_EQ(lon.form, AngleForm::kVelocity);
  EXPECT_NEAR(lon.Xu, 120.0, 1e-9);
  EXPECT_NEAR(lon.Zu, -319.80762, 1e-5);
  EXPECT_NEAR(lon.Mu, 6.0, 1e-9);
  EXPECT_NEAR(lon.Xw, 90.0, 1e-9);
  EXPECT_NEAR(lon.Zw, -1500.0, 1e-9);
  EXPECT_NEAR(lon.Mw, -600.0, 1e-9);
  EXPECT_NEAR(lon.Xq, 150.0, 1e-9);
  EXPECT_NEAR(lon.Zq, -1200.0, 1e-9);
  EXPECT_NEAR(lon.Mq, -12000.0, 1e-9);
  EXPECT_NEAR(lon.Zwdot, -12.0, 1e-9);
  EXPECT_NEAR(lon.Mwdot, -60.0, 1e-9);
  // Y_v = ½ρU0S C_yβ = −240;  L_v, N_v = ½ρU0bS C = 3000·(−0.1), 3000·0.12 = −300, 360
  // Y_p, Y_r = ¼ρU0bS C = 1500·0.1, 1500·0.3 = 150, 450
  // L_p, L_r, N_p, N_r = ¼ρU0b²S C = 15000·(−0.4, 0.1, −0.05, −0.2) = −6000, 1500, −750, −3000
  const LateralAsWritten& lat = d.lateral;
  EXPECT_TRUE(lat.raw);
  EXPECT_FALSE(lat.primed);
  EXPECT_EQ(lat.form, AngleForm::kVelocity);
  EXPECT_NEAR(lat.Yv, -240.0, 1e-9);
  EXPECT_NEAR(lat.Lv, -300.0, 1e-9);
  EXPECT_NEAR(lat.Nv, 360.0, 1e-9);
  EXPECT_NEAR(lat.Yp, 150.0, 1e-9);
  EXPECT_NEAR(lat.Yr, 450.0, 1e-9);
  EXPECT_NEAR(lat.Lp, -6000.0, 1e-9);
  EXPECT_NEAR(lat.Lr, 1500.0, 1e-9);
  EXPECT_NEAR(lat.Np, -750.0, 1e-9);
  EXPECT_NEAR(lat.Nr, -3000.0, 1e-9);
  // Controls: Z = ½ρU0²S C_Zδ = −6000, M = ½ρU0²Sc C_mδ = −30000, L = ½ρU0²Sb C_lδ = 7500.
  ASSERT_EQ(d.controls.size(), 2u);
  EXPECT_NEAR(d.controls[0].Z, -6000.0, 1e-9);
  EXPECT_NEAR(d.controls[0].M, -30000.0, 1e-9);
  EXPECT_TRUE(d.controls[0].longitudinal);
  EXPECT_FALSE(d.controls[0].lateral);
  EXPECT_NEAR(d.controls[1].L, 7500.0, 1e-9);
  EXPECT_TRUE(d.controls[1].lateral);
  EXPECT_EQ(*d.controls[1].min, -0.3);
  // Mass m = W/g = 750; condition carried over.
  EXPECT_NEAR(*d.mass.m, 750.0, 1e-12);
  EXPECT_EQ(*d.mass.Ixz, 100.0);
  EXPECT_EQ(d.condition.U0, 50.0);
  EXPECT_EQ(d.condition.W0, 0.0);
  EXPECT_NEAR(d.condition.theta0, 30.0 * core::kDegToRad, 0.0);
}

TEST(ToDimensional, LiftDragFamilyMapsToTheForceFamily) {
  // Lift/drag family, θ0 = 0, C_L0 absent → C_W0 = 0.5:
  //   C_Xu = −(C_Du + 2 C_D0) = −(0.01 + 0.06) = −0.07;  C_Xα = C_L0 − C_Dα = 0.5 − 0.2 = 0.3
  //   C_Zα = −(C_Lα + C_D0) = −5.03;  C_Zq = −C_Lq = −4;  C_Zα̇ = −C_Lα̇ = −2;  C_Xq = −C_Dq = −0.1
  // Dimensional, cross-checked against Nelson's form Z_u = −(2 C_L0 + C_Lu) ½ρU0S:
  //   X_u = 300·(−0.07) = −21;  Z_u = −300·0.5·2 + 300·(−0.1) = −330 = −(1.0 + 0.1)·300
  CoefficientsAsWritten k = HandCase();
  k.theta0 = 0.0;
  k.family = LongitudinalFamily::kLiftDrag;
  k.CXu = k.CXa = k.CXq = k.CZu = k.CZa = k.CZq = k.CZadot = 99.0;  // other family: unused
  k.CD0 = 0.03; k.CDu = 0.01; k.CLu = 0.1; k.CLa = 5.0; k.CDa = 0.2;
  k.CLq = 4.0; k.CLadot = 2.0; k.CDq = 0.1;
  k.controls[0].CZ.reset();
  k.controls[0].CL = 0.4;
  k.controls[0].CD = 0.02;
  const CoefficientsAsWritten f = ToForceFamily(k);
  EXPECT_EQ(f.family, LongitudinalFamily::kForce);
  EXPECT_NEAR(f.CXu, -0.07, 1e-15);
  EXPECT_NEAR(f.CXa, 0.3, 1e-15);
  EXPECT_NEAR(f.CXq, -0.1, 1e-15);
  EXPECT_EQ(f.CXadot, 0.0);
  EXPECT_NEAR(f.CZu, -0.1, 1e-15);
  EXPECT_NEAR(f.CZa, -5.03, 1e-15);
  EXPECT_NEAR(f.CZq, -4.0, 1e-15);
  EXPECT_NEAR(f.CZadot, -2.0, 1e-15);
  EXPECT_NEAR(*f.controls[0].CZ, -0.4, 1e-15);
  EXPECT_NEAR(*f.controls[0].CX, -0.02, 1e-15);
  const AircraftAsWritten d = ToDimensional(k);
  EXPECT_NEAR(d.longitudinal.Xu, -21.0, 1e-9);
  EXPECT_NEAR(d.longitudinal.Zu, -330.0, 1e-9);
  EXPECT_NEAR(d.longitudinal.Xw, 90.0, 1e-9);
  EXPECT_NEAR(d.longitudinal.Zw, -1509.0, 1e-9);
  EXPECT_NEAR(d.longitudinal.Zwdot, -12.0, 1e-9);
  EXPECT_NEAR(d.controls[0].Z, -6000.0, 1e-9);
  EXPECT_NEAR(d.controls[0].X, -300.0, 1e-9);
  // A printed C_L0 is used as printed: C_Xα = 0.45 − 0.2.
  k.CL0 = 0.45;
  EXPECT_NEAR(ToForceFamily(k).CXa, 0.25, 1e-15);
}

TEST(ToDimensional, LiftDragConstantThrustXuDoesNotDependOnTheta0) {
  // Constant thrust: X_u = −∂D/∂u = −ρU0S C_D0 − ½ρU0S C_Du = −300·(0.06 + 0.01) = −21
  // at any θ0; at θ0 = 30° Table 4.4's ρU0S C_W0 sin θ0 = 150 is cancelled by
  // C_Xu = −0.07 − 2·0.5·0.5 = −0.57 (½ρU0S C_Xu = −171).
  CoefficientsAsWritten k = HandCase();  // θ0 = 30°
  k.family = LongitudinalFamily::kLiftDrag;
  k.CD0 = 0.03; k.CDu = 0.01; k.CLa = 5.0;
  EXPECT_NEAR(ToForceFamily(k).CXu, -0.57, 1e-15);
  EXPECT_NEAR(ToDimensional(k).longitudinal.Xu, -21.0, 1e-12);
  // Z_u = −ρU0S C_L0 − ½ρU0S C_Lu with C_L0 = C_W0 cos θ0: −300·0.8660254 − 300·0.1.
  k.CLu = 0.1;
  EXPECT_NEAR(ToDimensional(k).longitudinal.Zu, -300.0 * std::cos(core::kPi / 6) - 30.0, 1e-12);
}

TEST(ToDimensional, BodyAxisInertiasAreRotatedByAlpha0) {
  CoefficientsAsWritten k = HandCase();
  k.axes = InertiaAxes::kBody;
  EXPECT_THROW(ToDimensional(k), std::invalid_argument);  // needs alpha0
  k.alpha0 = 0.2;
  const AircraftAsWritten d = ToDimensional(k);
  MassProperties body;
  body.m = 750.0;
  body.Ix = 1000.0;
  body.Iy = 2000.0;
  body.Iz = 3000.0;
  body.Ixz = 100.0;
  const MassProperties expected = RotateInertias(body, 0.2);
  EXPECT_DOUBLE_EQ(*d.mass.Ix, *expected.Ix);
  EXPECT_DOUBLE_EQ(*d.mass.Iz, *expected.Iz);
  EXPECT_DOUBLE_EQ(*d.mass.Ixz, *expected.Ixz);
  EXPECT_NE(*d.mass.Ix, 1000.0);
}

TEST(ToDimensional, RejectsWhatTheModelCannotHold) {
  CoefficientsAsWritten k = HandCase();
  k.CXadot = 0.1;  // no X_ẇ in aerolin's model
  EXPECT_THROW(ToDimensional(k), std::invalid_argument);
  k = HandCase();
  k.W.reset();
  EXPECT_THROW(ToDimensional(k), std::invalid_argument);  // neither m nor W
  k.m = 750.0;
  EXPECT_NEAR(WeightCoefficient(k), 0.5, 1e-15);  // W = m g
  k.rho = 0.0;
  EXPECT_THROW(ToDimensional(k), std::invalid_argument);
}

// Etkin & Reid 3rd ed., Boeing 747 at 40 000 ft: the nondimensional
// derivatives of Tables 6.1 and 6.6, with ρ = 0.3045 kg/m³, U0 = 235.9 m/s,
// S = 511 m², c = 8.324 m, b = 59.64 m, W = 2.83176e6 N (p. 165), must give
// the book's dimensional Tables 6.2 and 6.7 (SI column, as in
// data/derivatives/boeing747_cruise_40kft.toml) to their printed 4 digits.
TEST(ToDimensional, Boeing747CoefficientsGiveEtkinsDimensionalTables) {
  const AircraftAsWritten d = ToDimensional(testing::Boeing747Coefficients());
  // Printed to 4 significant digits, computed from 4-digit coefficients:
  // agreement within 1.5e-3 relative (two half-units of the 4th digit).
  auto near = [](double got, double printed) { EXPECT_NEAR(got, printed, 1.5e-3 * std::abs(printed)); };
  near(d.longitudinal.Xu, -1.982e3);
  near(d.longitudinal.Xw, 4.025e3);
  near(d.longitudinal.Zu, -2.595e4);
  near(d.longitudinal.Zw, -9.030e4);
  near(d.longitudinal.Zq, -4.524e5);
  near(d.longitudinal.Zwdot, 1.909e3);
  near(d.longitudinal.Mu, 1.593e4);
  near(d.longitudinal.Mw, -1.563e5);
  near(d.longitudinal.Mq, -1.521e7);
  near(d.longitudinal.Mwdot, -1.702e4);
  near(d.lateral.Yv, -1.610e4);
  near(d.lateral.Lv, -3.062e5);
  near(d.lateral.Lp, -1.076e7);
  near(d.lateral.Lr, 9.925e6);
  near(d.lateral.Nv, 2.131e5);
  near(d.lateral.Np, -1.330e6);
  near(d.lateral.Nr, -8.934e6);
  EXPECT_NEAR(*d.mass.m, 2.83176e6 / 9.81, 1e-6);
}

// Every output of the generic conversion, in one list (same order for any T).
template <class T>
std::vector<T> Outputs(const DimensionalDerivatives<T>& d) {
  std::vector<T> v = {d.U0, d.theta0, d.g, d.m, d.Ix, d.Iy, d.Iz, d.Ixz, d.Xu, d.Zu, d.Mu,
                      d.Xw, d.Zw, d.Mw, d.Xq, d.Zq, d.Mq, d.Zwdot, d.Mwdot, d.Yv, d.Lv, d.Nv,
                      d.Yp, d.Yr, d.Lp, d.Lr, d.Np, d.Nr};
  for (const auto& c : d.controls) v.insert(v.end(), {c.X, c.Z, c.M, c.Y, c.L, c.N});
  return v;
}

// The lift/drag family with body-axis inertias and U0 = mach·a: every branch
// of the generic conversion that a double-only read would break.
CoefficientsAsWritten LiftDragBodyMachCase() {
  CoefficientsAsWritten k = HandCase();
  k.family = LongitudinalFamily::kLiftDrag;
  k.CL0 = 0.45;
  k.CD0 = 0.04; k.CLu = 0.02; k.CDu = 0.01; k.CLa = 5.0; k.CDa = 0.3;
  k.CLq = 4.0; k.CLadot = 1.5; k.CDq = 0.2;
  k.mach = 0.15;
  k.speed_of_sound = 340.0;
  k.U0 = 0.15 * 340.0;
  k.m = std::nullopt;  // m = W/g
  k.axes = InertiaAxes::kBody;
  k.alpha0 = 0.05;
  k.controls[0].CZ.reset();
  k.controls[0].CL = 0.4;
  k.controls[0].CD = 0.02;
  return k;
}

TEST(ToDimensional, GenericConversionCarriesExactDerivativesOfEveryInput) {
  // ∂(each dimensional number)/∂(each input) by forward-mode AD through
  // ToDimensional<AD> against central differences of ToDimensional<double>.
  using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
  const CoefficientsAsWritten base = LiftDragBodyMachCase();
  using Field = std::function<double&(CoefficientsAsWritten&)>;
  const std::vector<std::pair<std::string, Field>> inputs = {
      {"mach", [](auto& k) -> double& { return *k.mach; }},
      {"rho", [](auto& k) -> double& { return k.rho; }},
      {"theta0", [](auto& k) -> double& { return k.theta0; }},
      {"g", [](auto& k) -> double& { return k.g; }},
      {"S", [](auto& k) -> double& { return k.S; }},
      {"c", [](auto& k) -> double& { return k.c; }},
      {"b", [](auto& k) -> double& { return k.b; }},
      {"W", [](auto& k) -> double& { return *k.W; }},
      {"Ix", [](auto& k) -> double& { return k.Ix; }},
      {"Iy", [](auto& k) -> double& { return k.Iy; }},
      {"Iz", [](auto& k) -> double& { return k.Iz; }},
      {"Ixz", [](auto& k) -> double& { return k.Ixz; }},
      {"alpha0", [](auto& k) -> double& { return *k.alpha0; }},
      {"CL0", [](auto& k) -> double& { return *k.CL0; }},
      {"CD0", [](auto& k) -> double& { return k.CD0; }},
      {"CLu", [](auto& k) -> double& { return k.CLu; }},
      {"CDu", [](auto& k) -> double& { return k.CDu; }},
      {"CLa", [](auto& k) -> double& { return k.CLa; }},
      {"CDa", [](auto& k) -> double& { return k.CDa; }},
      {"CLq", [](auto& k) -> double& { return k.CLq; }},
      {"CLadot", [](auto& k) -> double& { return k.CLadot; }},
      {"CDq", [](auto& k) -> double& { return k.CDq; }},
      {"Cmu", [](auto& k) -> double& { return k.Cmu; }},
      {"Cma", [](auto& k) -> double& { return k.Cma; }},
      {"Cmq", [](auto& k) -> double& { return k.Cmq; }},
      {"Cmadot", [](auto& k) -> double& { return k.Cmadot; }},
      {"CYb", [](auto& k) -> double& { return k.CYb; }},
      {"Clp", [](auto& k) -> double& { return k.Clp; }},
      {"Cnr", [](auto& k) -> double& { return k.Cnr; }},
      {"elevator.CL", [](auto& k) -> double& { return *k.controls[0].CL; }},
      {"elevator.CD", [](auto& k) -> double& { return *k.controls[0].CD; }},
      {"elevator.Cm", [](auto& k) -> double& { return *k.controls[0].Cm; }},
      {"aileron.Cl", [](auto& k) -> double& { return *k.controls[1].Cl; }},
  };
  const auto n = static_cast<Eigen::Index>(inputs.size());
  CoefficientsAsWritten seeded = base;
  std::vector<const double*> fields;
  for (const auto& [name, field] : inputs) fields.push_back(&field(seeded));
  const std::vector<AD> ad = Outputs(ToDimensional<AD>(seeded, [&](const double& f) {
    Eigen::VectorXd d = Eigen::VectorXd::Zero(n);
    for (Eigen::Index i = 0; i < n; ++i)
      if (fields[static_cast<std::size_t>(i)] == &f) d(i) = 1.0;
    return AD(f, d);
  }));
  auto identity = [](const double& f) { return f; };
  const std::vector<double> at = Outputs(ToDimensional<double>(base, identity));
  for (std::size_t o = 0; o < at.size(); ++o) EXPECT_EQ(ad[o].value(), at[o]) << "output " << o;
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& [name, field] = inputs[static_cast<std::size_t>(i)];
    const double x = field(const_cast<CoefficientsAsWritten&>(base));
    const double h = 1e-6 * std::max(std::abs(x), 1.0);
    CoefficientsAsWritten up = base, down = base;
    field(up) = x + h;
    field(down) = x - h;
    const std::vector<double> f_up = Outputs(ToDimensional<double>(up, identity));
    const std::vector<double> f_down = Outputs(ToDimensional<double>(down, identity));
    for (std::size_t o = 0; o < at.size(); ++o) {
      const double fd = (f_up[o] - f_down[o]) / (2.0 * h);
      const double exact = ad[o].derivatives().size() ? ad[o].derivatives()(i) : 0.0;
      // Central difference: O(h²) truncation plus rounding ε|f|/h (ε ≈ 1e-16,
      // h ≈ 1e-6 |x|), here well under 1e-7 of the output's own scale per unit x.
      const double scale = std::max(std::abs(at[o]), 1.0) / std::max(std::abs(x), 1.0);
      EXPECT_NEAR(exact, fd, 1e-6 * scale) << "d output " << o << " / d " << name;
    }
  }
}

TEST(ToDimensional, IsTheGenericConversionInDouble) {
  // The double entry point returns the template's numbers bit for bit (the
  // bundled 747 coefficient file's outputs did not change with the template).
  const CoefficientsAsWritten k = LiftDragBodyMachCase();
  const AircraftAsWritten w = ToDimensional(k);
  const DimensionalDerivatives<double> d = ToDimensional<double>(k, [](const double& f) { return f; });
  EXPECT_EQ(w.condition.U0, d.U0);
  EXPECT_EQ(*w.mass.m, d.m);
  EXPECT_EQ(*w.mass.Ix, d.Ix);
  EXPECT_EQ(*w.mass.Ixz, d.Ixz);
  EXPECT_EQ(w.longitudinal.Xu, d.Xu);
  EXPECT_EQ(w.longitudinal.Zwdot, d.Zwdot);
  EXPECT_EQ(w.lateral.Nr, d.Nr);
  EXPECT_EQ(w.controls[0].X, d.controls[0].X);
  EXPECT_EQ(w.controls[0].Z, d.controls[0].Z);
  // Body axes: as RotateInertias at α0 (the loader's path).
  MassProperties body;
  body.Ix = k.Ix;
  body.Iz = k.Iz;
  body.Ixz = k.Ixz;
  const MassProperties rotated = RotateInertias(body, *k.alpha0);
  EXPECT_EQ(*rotated.Ix, d.Ix);
  EXPECT_EQ(*rotated.Iz, d.Iz);
  EXPECT_EQ(*rotated.Ixz, d.Ixz);
  // U0 = mach · a.
  EXPECT_EQ(d.U0, *k.mach * *k.speed_of_sound);
}

}  // namespace
}  // namespace aerolin::model
