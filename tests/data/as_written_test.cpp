// The file's keys as written (data::LoadResult::file) and model::MatricesOf,
// the chain sensitivities and sweeps differentiate, against the loader's own
// conversion and the builders.

#include <gtest/gtest.h>

#include <filesystem>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/as_written.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin {
namespace {

std::vector<std::string> BundledFiles() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives"))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Round-off of the two evaluation orders of the same formulas (a few ulps of
// the largest entry).
constexpr double kRoundOff = 1e-14;

TEST(MatricesOf, EqualsConvertThenBuildForEveryBundledAircraft) {
  for (const std::string& path : BundledFiles()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    const model::AxisMatrices<double> m = model::MatricesOf(load.file.written);
    const Eigen::MatrixXd lon = model::BuildLongitudinal(load.aircraft).A();
    const Eigen::MatrixXd lat = model::BuildLateral(load.aircraft).A();
    EXPECT_LE((Eigen::MatrixXd(m.longitudinal) - lon).cwiseAbs().maxCoeff(), kRoundOff * lon.cwiseAbs().maxCoeff()) << path;
    EXPECT_LE((Eigen::MatrixXd(m.lateral) - lat).cwiseAbs().maxCoeff(), kRoundOff * lat.cwiseAbs().maxCoeff()) << path;
  }
}

TEST(WrittenKeys, EveryKeyNamesItsFieldAndItsSIFactor) {
  for (const std::string& path : BundledFiles()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    if (load.from_coefficients) {
      // A coefficient file offers no keys: its derivatives depend on U0, ρ,
      // mass and geometry through the conversion, which FieldOf does not model.
      EXPECT_TRUE(load.file.keys.empty()) << path;
      continue;
    }
    ASSERT_FALSE(load.file.keys.empty()) << path;
    for (const model::WrittenKey& k : load.file.keys) {
      const double* field = model::FieldOf(load.file.written, k.path);
      ASSERT_NE(field, nullptr) << path << " " << k.path;
      EXPECT_NEAR(*field, k.value * k.to_si, 1e-15 * std::abs(*field)) << path << " " << k.path;
    }
  }
}

TEST(WrittenKeys, KeepTheFileFormsAndUnits) {
  const data::LoadResult b747 =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/boeing747_cruise_40kft.toml");
  EXPECT_NE(b747.file.Find("longitudinal.Mw"), nullptr);  // w-form as written
  EXPECT_EQ(b747.file.Find("longitudinal.Ma"), nullptr);
  EXPECT_FALSE(b747.file.written.lateral.primed);
  EXPECT_TRUE(b747.file.written.longitudinal.raw);
  const data::LoadResult p2v7 = data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const model::WrittenKey* u0 = p2v7.file.Find("condition.U0");
  ASSERT_NE(u0, nullptr);
  EXPECT_DOUBLE_EQ(u0->value, 293.8);     // ft/s as written
  EXPECT_DOUBLE_EQ(u0->to_si, 0.3048);    // imperial
  const model::WrittenKey* th = p2v7.file.Find("condition.theta0_deg");
  ASSERT_NE(th, nullptr);
  EXPECT_DOUBLE_EQ(th->to_si, core::kDegToRad);
  EXPECT_EQ(model::FieldOf(p2v7.file.written, "controls.nosuch.M"), nullptr);
}

}  // namespace
}  // namespace aerolin
