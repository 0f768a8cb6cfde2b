#include "aerolin/export/matrices_json.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <string>

#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"
#include "export/report_test_support.hpp"

namespace aerolin::exporting {
namespace {

// A product and a quotient of doubles against Eigen's matrix products:
// a few units in the last place.
constexpr double kRoundOff = 1e-14;

Eigen::MatrixXd MatrixOf(const nlohmann::json& rows) {
  Eigen::MatrixXd m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows[0].size()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = rows[i][j].get<double>();
  return m;
}

// Imperial shows u in ft/s: x' = T x with T = diag(1/0.3048, 1, 1, 1), so
// A' = T A T⁻¹ and B' = T B, the same eigenvalues. Checked for every bundled
// aircraft against the transformation done here with Eigen.
TEST(MatricesJson, ImperialIsTheSimilarityTransformOfTheSpeedState) {
  for (const char* file : {"p2v7.toml", "navion_cruise_sl.toml", "boeing747_cruise_40kft.toml"}) {
    const model::AircraftData a = testing::Bundled(file);
    const model::StateSpace lon = model::BuildLongitudinal(a);
    const model::StateSpace lat = model::BuildLateral(a);
    const nlohmann::json si = nlohmann::json::parse(MatricesJson(a, lon, lat, file));
    const nlohmann::json ft =
        nlohmann::json::parse(MatricesJson(a, lon, lat, file, core::UnitSystem::kImperial));
    Eigen::VectorXd t = Eigen::VectorXd::Ones(4);
    t(0) = 1.0 / core::kMetresPerFoot;
    const Eigen::MatrixXd A = t.asDiagonal() * lon.A() * t.cwiseInverse().asDiagonal();
    const Eigen::MatrixXd B = t.asDiagonal() * lon.B();
    const Eigen::MatrixXd A_shown = MatrixOf(ft["longitudinal"]["A"]);
    const Eigen::MatrixXd B_shown = MatrixOf(ft["longitudinal"]["B"]);
    ASSERT_EQ(A_shown.rows(), 4);
    ASSERT_EQ(B_shown.cols(), lon.num_inputs());
    EXPECT_LE((A_shown - A).cwiseAbs().maxCoeff(), kRoundOff * A.cwiseAbs().maxCoeff()) << file;
    EXPECT_LE((B_shown - B).cwiseAbs().maxCoeff(), kRoundOff * B.cwiseAbs().maxCoeff()) << file;
    // The roots do not depend on the units.
    Eigen::VectorXcd shown = A_shown.eigenvalues(), exact = lon.A().eigenvalues();
    for (Eigen::Index i = 0; i < exact.size(); ++i)
      EXPECT_LT((shown.array() - exact(i)).abs().minCoeff(), 1e-9 * (1.0 + std::abs(exact(i)))) << file;
    // Only u changes unit; SI is the model itself, and the lateral model has no speed.
    EXPECT_EQ(ft["longitudinal"]["states"][0]["unit"], "ft/s");
    EXPECT_EQ(si["longitudinal"]["states"][0]["unit"], "m/s");
    for (int i = 1; i < 4; ++i)
      EXPECT_EQ(ft["longitudinal"]["states"][i], si["longitudinal"]["states"][i]);
    EXPECT_EQ(MatrixOf(si["longitudinal"]["A"]), lon.A()) << file;
    EXPECT_EQ(ft["lateral"], si["lateral"]) << file;
    EXPECT_EQ(MatrixOf(si["lateral"]["B"]), lat.B()) << file;
  }
}

TEST(MatricesJson, NamesEveryStateAndInputOfBothModels) {
  const model::AircraftData a = testing::Bundled("p2v7.toml");
  const model::StateSpace lon = model::BuildLongitudinal(a);
  const model::StateSpace lat = model::BuildLateral(a);
  const nlohmann::json doc = nlohmann::json::parse(MatricesJson(a, lon, lat, "p.toml"));
  EXPECT_EQ(doc["file"], "p.toml");
  for (const auto& [key, sys] : {std::pair<const char*, const model::StateSpace*>{"longitudinal", &lon},
                                 {"lateral", &lat}}) {
    ASSERT_EQ(doc[key]["states"].size(), static_cast<std::size_t>(sys->num_states()));
    ASSERT_EQ(doc[key]["inputs"].size(), static_cast<std::size_t>(sys->num_inputs()));
    for (int i = 0; i < sys->num_states(); ++i) {
      EXPECT_EQ(doc[key]["states"][i]["name"], sys->states()[i].name);
      EXPECT_EQ(doc[key]["states"][i]["unit"], std::string(core::ToString(sys->states()[i].unit)));
    }
    for (int i = 0; i < sys->num_inputs(); ++i)
      EXPECT_EQ(doc[key]["inputs"][i]["name"], sys->inputs()[i].name);
  }
}

}  // namespace
}  // namespace aerolin::exporting
