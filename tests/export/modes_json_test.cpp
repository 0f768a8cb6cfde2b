#include "aerolin/export/modes_json.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "aerolin/export/matrices_json.hpp"
#include "aerolin/export/matrices_text.hpp"
#include "aerolin/export/modes_text.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/coefficients.hpp"
#include "model/boeing747_coefficients.hpp"

namespace aerolin::exporting {
namespace {

constexpr double kFt = 0.3048;  // m per ft

// The P2V-7 of data/derivatives/p2v7.toml, converted to SI by hand (ft → m
// where the dimension has a length), so the export tests need no loader.
model::AircraftData P2V7() {
  model::AircraftData a;
  a.name = "Lockheed P2V-7 Neptune";
  a.source = "Kato, Oya, Karasawa";
  a.condition.U0 = 293.8 * kFt;
  a.condition.g = 9.80665;
  a.longitudinal = {-0.0215, -0.227, 0.0, 14.7 * kFt, -236.0 * kFt, -3.78, 0.0, -0.28,
                    0.0, -5.76 * kFt, -0.992};
  a.lateral = {-45.4 * kFt, 0.716 * kFt, 2.66 * kFt, -1.71, -0.962, 0.271, 0.986, -0.0632, -0.215};
  model::Control elevator;
  elevator.name = "elevator";
  elevator.longitudinal = true;
  elevator.Z = -12.9 * kFt;
  elevator.M = -2.48;
  model::Control throttle;
  throttle.name = "throttle";
  throttle.unit = core::Unit::kOne;
  throttle.longitudinal = true;
  throttle.X = 0.01 * kFt;
  model::Control rudder;
  rudder.name = "rudder";
  rudder.lateral = true;
  rudder.Y = 9.17 * kFt;
  rudder.L = 0.244;
  rudder.N = -0.666;
  a.controls = {elevator, throttle, rudder};
  return a;
}

TEST(ModesJson, CarriesEveryModeWithItsQualifierAndTheModelsStateNames) {
  const model::AircraftData a = P2V7();
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
  const auto approx = analysis::ClassicalApproximations(a);
  const nlohmann::json doc =
      nlohmann::json::parse(ModesJson(a, modes, approx, "x.toml", core::UnitSystem::kSI));
  EXPECT_EQ(doc["schema"], "aerolin.modes/2");
  EXPECT_EQ(doc["file"], "x.toml");
  EXPECT_EQ(doc["aircraft"]["name"], a.name);
  EXPECT_EQ(doc["units"]["speed"], "m/s");
  EXPECT_EQ(doc["longitudinal"]["states"],
            (nlohmann::json{"u", "alpha", "q", "theta"}));
  EXPECT_EQ(doc["lateral"]["states"], (nlohmann::json{"beta", "p", "r", "phi", "psi"}));
  ASSERT_EQ(doc["longitudinal"]["modes"].size(), modes.longitudinal.size());
  ASSERT_EQ(doc["lateral"]["modes"].size(), modes.lateral.size());
  for (std::size_t i = 0; i < modes.lateral.size(); ++i) {
    const analysis::Mode& m = modes.lateral[i];
    const nlohmann::json& j = doc["lateral"]["modes"][i];
    EXPECT_EQ(j["name"], analysis::ToString(m.kind));
    EXPECT_EQ(j["qualifier"], m.qualifier());
    EXPECT_EQ(j["eigenvalue_per_s"]["re"].get<double>(), m.lambda.real());
    EXPECT_EQ(j["eigenvalue_per_s"]["im"].get<double>(), m.lambda.imag());
    EXPECT_EQ(j["shape"].size(), 5u);
  }
  EXPECT_EQ(doc["approximations"].size(), approx.size());
}

// Each approximation's errors, recomputed by hand from the two eigenvalues the
// document prints: ζ = −Re λ/|λ| for oscillatory rows and, for real ones,
// (τa − τe)/τe = λe/λa − 1 with τ = −1/λ; every one signed (approx − exact).
TEST(ModesJson, ApproximationErrorsAreSignedErrorsOfOmegaZetaAndTau) {
  const model::AircraftData a = P2V7();
  const nlohmann::json doc = nlohmann::json::parse(ModesJson(
      a, analysis::AnalyzeModes(a), analysis::ClassicalApproximations(a), "p", core::UnitSystem::kSI));
  int oscillatory = 0, real = 0;
  for (const nlohmann::json& row : doc["approximations"]) {
    const std::complex<double> approx(row["eigenvalue_per_s"]["re"].get<double>(),
                                      row["eigenvalue_per_s"]["im"].get<double>());
    const std::complex<double> exact(row["exact_eigenvalue_per_s"]["re"].get<double>(),
                                     row["exact_eigenvalue_per_s"]["im"].get<double>());
    const nlohmann::json& error = row["error_percent"];
    if (approx.imag() != 0.0 && exact.imag() != 0.0) {
      ++oscillatory;
      const double zeta_a = -approx.real() / std::abs(approx);
      const double zeta_e = -exact.real() / std::abs(exact);
      EXPECT_NEAR(error["damping_ratio"].get<double>(), 100.0 * (zeta_a / zeta_e - 1.0), 1e-9)
          << row["mode"];
      EXPECT_NEAR(error["natural_frequency"].get<double>(),
                  100.0 * (std::abs(approx) / std::abs(exact) - 1.0), 1e-9)
          << row["mode"];
      EXPECT_TRUE(error["time_constant"].is_null());
    } else if (approx.imag() == 0.0 && exact.imag() == 0.0) {
      ++real;
      EXPECT_NEAR(error["time_constant"].get<double>(), 100.0 * (exact.real() / approx.real() - 1.0),
                  1e-9)
          << row["mode"];
      EXPECT_TRUE(error["damping_ratio"].is_null());
    }
  }
  EXPECT_GE(oscillatory, 2);  // short period, Dutch roll (and the phugoid)
  EXPECT_EQ(real, 2);         // roll subsidence, spiral
}

TEST(ModesText, ImperialTrimLineGivesSpeedAndGravityInFeet) {
  const model::AircraftData a = P2V7();
  std::ostringstream ft, si;
  WriteModesText(ft, a, analysis::AnalyzeModes(a), {}, "p.toml", core::UnitSystem::kImperial);
  WriteModesText(si, a, analysis::AnalyzeModes(a), {}, "p.toml", core::UnitSystem::kSI);
  // 9.80665 m/s² / 0.3048 m/ft = 32.174 ft/s².
  EXPECT_NE(ft.str().find("trim: U0 = 293.8 ft/s, θ0 = 0.00°, g = 32.17 ft/s²\n"),
            std::string::npos)
      << ft.str();
  EXPECT_NE(si.str().find("trim: U0 = 89.55 m/s, θ0 = 0.00°, g = 9.807 m/s²\n"), std::string::npos)
      << si.str();
}

TEST(ModesJson, ImperialScalesSpeedsOnly) {
  const model::AircraftData a = P2V7();
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
  const nlohmann::json si =
      nlohmann::json::parse(ModesJson(a, modes, {}, "p", core::UnitSystem::kSI));
  const nlohmann::json ft =
      nlohmann::json::parse(ModesJson(a, modes, {}, "p", core::UnitSystem::kImperial));
  EXPECT_EQ(ft["units"]["speed"], "ft/s");
  EXPECT_NEAR(ft["condition"]["U0"].get<double>(), 293.8, 1e-9);
  EXPECT_NEAR(si["condition"]["U0"].get<double>(), 293.8 * kFt, 1e-9);
  const nlohmann::json& sp_si = si["longitudinal"]["modes"][0]["shape"];
  const nlohmann::json& sp_ft = ft["longitudinal"]["modes"][0]["shape"];
  EXPECT_NEAR(sp_ft[0]["magnitude"].get<double>(), sp_si[0]["magnitude"].get<double>() / kFt,
              1e-12 * sp_ft[0]["magnitude"].get<double>());
  EXPECT_EQ(sp_ft[1]["magnitude"], sp_si[1]["magnitude"]);  // alpha: unchanged
}

TEST(ModesText, HasBothAxesTablesAndTheApproximations) {
  const model::AircraftData a = P2V7();
  std::ostringstream out;
  WriteModesText(out, a, analysis::AnalyzeModes(a), analysis::ClassicalApproximations(a), "p.toml",
                 core::UnitSystem::kSI);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("Lockheed P2V-7 Neptune  (p.toml)\n", 0), 0u);
  EXPECT_NE(text.find("Longitudinal modes  (x = u, α, q, θ)"), std::string::npos);
  EXPECT_NE(text.find("Lateral-directional modes  (x = β, p, r, φ, ψ)"), std::string::npos);
  EXPECT_NE(text.find("  dutch roll "), std::string::npos);
  EXPECT_NE(text.find("Classical approximations"), std::string::npos);
}

TEST(MatricesJson, HoldsTheModelsMatricesAndSignals) {
  const model::AircraftData a = P2V7();
  const model::StateSpace lon = model::BuildLongitudinal(a);
  const model::StateSpace lat = model::BuildLateral(a);
  const nlohmann::json doc = nlohmann::json::parse(MatricesJson(a, lon, lat, "p.toml"));
  EXPECT_EQ(doc["schema"], "aerolin.matrices/2");
  EXPECT_FALSE(doc.contains("dimensional_derivatives"));  // a dimensional file
  EXPECT_EQ(doc["aircraft"], a.name);
  ASSERT_EQ(doc["lateral"]["A"].size(), 5u);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(doc["lateral"]["A"][i][j].get<double>(), lat.A()(i, j));
  EXPECT_EQ(doc["longitudinal"]["inputs"][0]["name"], "elevator");
  EXPECT_EQ(doc["longitudinal"]["inputs"][1]["unit"], "1");  // throttle
  EXPECT_EQ(doc["longitudinal"]["states"][2]["unit"], "rad/s");
}

// "dimensional_derivatives" holds model::ToDimensional's numbers unrounded,
// in the rows the text prints; checked against the conversion's fields and,
// for a few, against Etkin & Reid Table 4.4/4.5 evaluated by hand.
TEST(MatricesJson, DimensionalDerivativesAreTheConversionsNumbers) {
  const model::AircraftData a = P2V7();  // the matrices themselves are not the point here
  const model::AircraftAsWritten d = model::ToDimensional(model::testing::Boeing747Coefficients());
  const nlohmann::json doc = nlohmann::json::parse(MatricesJson(
      a, model::BuildLongitudinal(a), model::BuildLateral(a), "c.toml", core::UnitSystem::kSI, d,
      core::UnitSystem::kImperial));
  const nlohmann::json& j = doc["dimensional_derivatives"];
  auto row = [](const nlohmann::json& list, const std::string& name) {
    for (const nlohmann::json& r : list)
      if (r["name"] == name) return r;
    ADD_FAILURE() << "no row " << name;
    return nlohmann::json();
  };
  const nlohmann::json& lon = j["longitudinal"];
  const nlohmann::json& lat = j["lateral"];
  ASSERT_EQ(lon.size(), 11u);
  ASSERT_EQ(lat.size(), 9u);
  const std::pair<const char*, double> expected[] = {
      {"Xu", d.longitudinal.Xu}, {"Xw", d.longitudinal.Xw},     {"Xq", d.longitudinal.Xq},
      {"Zu", d.longitudinal.Zu}, {"Zw", d.longitudinal.Zw},     {"Zq", d.longitudinal.Zq},
      {"Zwdot", d.longitudinal.Zwdot}, {"Mu", d.longitudinal.Mu}, {"Mw", d.longitudinal.Mw},
      {"Mq", d.longitudinal.Mq}, {"Mwdot", d.longitudinal.Mwdot}};
  for (const auto& [name, value] : expected) EXPECT_EQ(row(lon, name)["value"].get<double>(), value) << name;
  const std::pair<const char*, double> expected_lat[] = {
      {"Yv", d.lateral.Yv}, {"Yp", d.lateral.Yp}, {"Yr", d.lateral.Yr}, {"Lv", d.lateral.Lv}, {"Lp", d.lateral.Lp},
      {"Lr", d.lateral.Lr}, {"Nv", d.lateral.Nv}, {"Np", d.lateral.Np}, {"Nr", d.lateral.Nr}};
  for (const auto& [name, value] : expected_lat) EXPECT_EQ(row(lat, name)["value"].get<double>(), value) << name;
  // By hand: M_q = ¼ρU0c²S C_mq, Z_ẇ = ¼ρcS C_Zα̇, L_v = ½ρU0bS C_lβ, M_δe = ½ρU0²Sc C_mδe.
  const double rho = 0.3045, U0 = 235.9, S = 511.0, c = 8.324, b = 59.64;
  EXPECT_NEAR(row(lon, "Mq")["value"].get<double>(), 0.25 * rho * U0 * c * c * S * -23.92, 1e-9 * 1.52e7);
  EXPECT_NEAR(row(lon, "Zwdot")["value"].get<double>(), 0.25 * rho * c * S * 5.896, 1e-9 * 1.9e3);
  EXPECT_NEAR(row(lat, "Lv")["value"].get<double>(), 0.5 * rho * U0 * b * S * -0.2797, 1e-9 * 3.1e5);
  EXPECT_EQ(row(lon, "Mq")["unit"], "N m s");
  EXPECT_EQ(row(lon, "Mq")["unit_imperial"], "ft lbf s");
  // 1 ft lbf s = 1.3558179483314004 N m s.
  EXPECT_NEAR(row(lon, "Mq")["value_imperial"].get<double>(),
              row(lon, "Mq")["value"].get<double>() / 1.3558179483314004, 1e-9 * 1.2e7);
  ASSERT_EQ(j["controls"].size(), 2u);
  const nlohmann::json& e = j["controls"][0];
  EXPECT_EQ(e["name"], "elevator");
  EXPECT_EQ(e["per"], "rad");
  ASSERT_EQ(e["derivatives"].size(), 3u);  // X Z M: no lateral part
  EXPECT_EQ(row(e["derivatives"], "M")["value"].get<double>(), d.controls[0].M);
  EXPECT_NEAR(row(e["derivatives"], "M")["value"].get<double>(), 0.5 * rho * U0 * U0 * S * c * -1.444,
              1e-9 * 4.3e7);
  EXPECT_EQ(row(j["controls"][1]["derivatives"], "N")["value"].get<double>(), d.controls[1].N);
}

TEST(MatricesText, LabelsRowsAsDerivativesAndColumnsWithUnits) {
  const model::AircraftData a = P2V7();
  std::ostringstream out;
  WriteMatricesText(out, a, model::BuildLongitudinal(a), model::BuildLateral(a), "p.toml");
  const std::string text = out.str();
  EXPECT_NE(text.find("Longitudinal A\n                         u [m/s]   alpha [rad]"),
            std::string::npos);
  EXPECT_NE(text.find("\n  dtheta/dt                    0             0             1             0\n"),
            std::string::npos);
}

}  // namespace
}  // namespace aerolin::exporting
