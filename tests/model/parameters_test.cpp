#include "aerolin/model/parameters.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::model {
namespace {

AircraftData Sample() {
  AircraftData a;
  a.condition.U0 = 90.0;
  a.condition.g = 9.80665;
  a.longitudinal = {.Xu = -0.02, .Zu = -0.2, .Mu = 0.0, .Xa = 4.5, .Za = -72.0, .Ma = -3.8,
                    .Zadot = 0.0, .Madot = -0.28, .Xq = 0.0, .Zq = -1.8, .Mq = -1.0};
  a.lateral = {.Yb = -13.8, .Yp = 0.2, .Yr = 0.8, .Lb = -1.7, .Lp = -0.96, .Lr = 0.27,
               .Nb = 0.99, .Np = -0.06, .Nr = -0.2};
  Control elevator;
  elevator.name = "elevator";
  elevator.longitudinal = true;
  elevator.Z = -3.9;
  elevator.M = -2.5;
  Control rudder;
  rudder.name = "rudder";
  rudder.lateral = true;
  rudder.Y = 2.8;
  rudder.L = 0.24;
  rudder.N = -0.67;
  a.controls = {elevator, rudder};
  return a;
}

TEST(Parameters, KeysAreUniquePerSection) {
  std::set<std::string> seen;
  for (const Parameter& p : Parameters())
    EXPECT_TRUE(seen.insert(std::string(p.section) + "." + std::string(p.key)).second)
        << p.section << "." << p.key;
  EXPECT_GE(seen.size(), 45u);
}

TEST(Parameters, GetSetRoundTripsForEveryRow) {
  for (const Parameter& p : Parameters()) {
    AircraftData a = Sample();
    const std::string path = p.section == "controls"
                                 ? "controls.elevator." + std::string(p.key)
                                 : std::string(p.section) + "." + std::string(p.key);
    const double value = 0.375;  // exact in binary, so ×U0 ÷U0 round-trips exactly
    SetParameter(a, path, value);
    EXPECT_DOUBLE_EQ(GetParameter(a, path), value) << path;
  }
}

TEST(Parameters, VelocityFormKeysAreViewsOfTheAngleFormMember) {
  AircraftData a = Sample();
  EXPECT_DOUBLE_EQ(GetParameter(a, "longitudinal.Mw"), -3.8 / 90.0);
  SetParameter(a, "longitudinal.Zw", -1.0);
  EXPECT_DOUBLE_EQ(a.longitudinal.Za, -90.0);
  SetParameter(a, "lateral.Nv", 0.01);
  EXPECT_DOUBLE_EQ(a.lateral.Nb, 0.9);
  SetParameter(a, "condition.theta0_deg", 90.0);
  EXPECT_DOUBLE_EQ(a.condition.theta0, core::kPi / 2);
}

TEST(Parameters, DimensionsOfRepresentativeKeys) {
  auto dim = [](std::string_view section, std::string_view key) {
    const Parameter* p = FindParameter(section, key);
    EXPECT_NE(p, nullptr) << section << "." << key;
    return p ? p->dimension : core::Dimension{99, 99, 99};
  };
  auto same = [](core::Dimension a, core::Dimension b) {
    return a.length == b.length && a.mass == b.mass && a.time == b.time;
  };
  EXPECT_TRUE(same(dim("longitudinal", "Ma"), core::PerSecond(2)));
  EXPECT_TRUE(same(dim("longitudinal", "Mw"), core::Dimension{-1, 0, -1}));
  EXPECT_TRUE(same(dim("condition", "U0"), core::kSpeed));
  EXPECT_TRUE(same(dim("mass", "Ixz"), core::kInertia));
  EXPECT_TRUE(same(dim("controls", "Y"), core::kAcceleration));
  EXPECT_EQ(FindParameter("longitudinal", "Mq")->divisor, Divisor::kIy);
  EXPECT_EQ(FindParameter("lateral", "Lp")->divisor, Divisor::kIx);
  EXPECT_EQ(FindParameter("lateral", "Nr")->divisor, Divisor::kIz);
  EXPECT_EQ(FindParameter("longitudinal", "M_alpha"), nullptr);
}

// Sets `path` to its value + `delta` and returns the change of A (lon or lat).
Eigen::MatrixXd ChangeOf(const std::string& path, double delta, bool longitudinal,
                         bool input_matrix = false) {
  const AircraftData before = Sample();
  AircraftData after = before;
  SetParameter(after, path, GetParameter(before, path) + delta);
  auto matrix = [&](const AircraftData& a) {
    const StateSpace s = longitudinal ? BuildLongitudinal(a) : BuildLateral(a);
    return input_matrix ? s.B() : s.A();
  };
  return matrix(after) - matrix(before);
}

TEST(Parameters, SettingAKeyChangesTheMatrixEntryItEnters) {
  using namespace model::lon;
  // Ma enters q̇ through α (and through α̇ via Madot ≠ 0: A(q, α) only).
  const Eigen::MatrixXd dMa = ChangeOf("longitudinal.Ma", 0.5, true);
  EXPECT_NEAR(dMa(kQ, kAlpha), 0.5, 1e-12);
  EXPECT_NEAR(dMa.norm(), 0.5, 1e-12);
  // Mw = Ma/U0: +0.01 in Mw is +0.9 in Ma.
  EXPECT_NEAR(ChangeOf("longitudinal.Mw", 0.01, true)(kQ, kAlpha), 0.9, 1e-12);
  // Xu is A(u, u) exactly.
  const Eigen::MatrixXd dXu = ChangeOf("longitudinal.Xu", -0.01, true);
  EXPECT_NEAR(dXu(kU, kU), -0.01, 1e-15);
  EXPECT_NEAR(dXu.norm(), 0.01, 1e-15);
  // Lp is A(p, p) of the lateral model (primed in AircraftData).
  const Eigen::MatrixXd dLp = ChangeOf("lateral.Lp", -0.1, false);
  EXPECT_NEAR(dLp(model::lat::kP, model::lat::kP), -0.1, 1e-15);
  EXPECT_NEAR(dLp.norm(), 0.1, 1e-15);
  // A control's N is B(r, rudder column).
  const Eigen::MatrixXd dN = ChangeOf("controls.rudder.N", 0.2, false, true);
  EXPECT_NEAR(dN(model::lat::kR, 0), 0.2, 1e-15);
  EXPECT_NEAR(dN.norm(), 0.2, 1e-15);
}

TEST(Parameters, UnknownKeysControlsAndAbsentOptionalsThrow) {
  AircraftData a = Sample();
  EXPECT_THROW(GetParameter(a, "longitudinal.M_alpha"), std::invalid_argument);
  EXPECT_THROW(GetParameter(a, "Ma"), std::invalid_argument);
  EXPECT_THROW(GetParameter(a, "controls.flaps.M"), std::invalid_argument);
  EXPECT_THROW(GetParameter(a, "controls.M"), std::invalid_argument);
  EXPECT_THROW(GetParameter(a, "condition.altitude"), std::invalid_argument);  // not set
  EXPECT_THROW(SetParameter(a, "longitudinal.Ma", std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::model
