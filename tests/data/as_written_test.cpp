// The file's keys as written (data::LoadResult::file) and model::MatricesOf,
// the chain sensitivities and sweeps differentiate, against the loader's own
// conversion and the builders.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <toml++/toml.h>
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

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

TEST(MatricesOf, IsConvertThenBuildBitForBit) {
  // One set of formulas (ToNormalized<T>, LongitudinalA<T>, LateralA<T>): the
  // double instantiation is what Convert and the builders run.
  for (const std::string& path : BundledFiles()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    const model::AxisMatrices<double> m = model::MatricesOf(load.file.written);
    const model::AircraftData converted = model::Convert(load.file.written);
    EXPECT_TRUE(Eigen::MatrixXd(m.longitudinal) == model::BuildLongitudinal(converted).A()) << path;
    EXPECT_TRUE(Eigen::MatrixXd(m.lateral) == model::BuildLateral(converted).A()) << path;
  }
}

// The bundled files and the coefficient fixtures (lift/drag family per degree
// with body-axis inertias; mixed forms with U0 from mach, rho from altitude),
// and the AVL example (its TOML's keys and its .st's avl.NAME).
std::vector<std::string> FilesWithKeys() {
  std::vector<std::string> files = BundledFiles();
  for (const char* name : {"valid_coefficients_lift_drag_per_degree_body_axes.toml",
                           "valid_coefficients_mixed_mach_altitude.toml"})
    files.push_back(std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/derivatives/" + name);
  files.push_back(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml");
  return files;
}

TEST(WrittenKeys, EveryKeyNamesItsFieldAndItsSIFactor) {
  for (const std::string& path : FilesWithKeys()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    EXPECT_EQ(load.file.coefficients.has_value(), load.from_coefficients.has_value()) << path;
    ASSERT_FALSE(load.file.keys.empty()) << path;
    for (const model::WrittenKey& k : load.file.keys) {
      const double* field = model::FieldOf(load.file, k.path);
      ASSERT_NE(field, nullptr) << path << " " << k.path;
      EXPECT_NEAR(*field, k.value * k.to_si, 1e-15 * std::abs(*field)) << path << " " << k.path;
    }
  }
}

TEST(WrittenKeys, EveryNumberOfTheFileIsAKeyOrLeftOutWithAReason) {
  for (const std::string& path : FilesWithKeys()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    const toml::table root = toml::parse_file(path);
    auto check = [&](const toml::table& t, const std::string& prefix) {
      for (const auto& [key, value] : t) {
        if (!value.is_number()) continue;
        const std::string p = prefix + std::string(key.str());
        const bool omitted = std::any_of(load.file.omitted.begin(), load.file.omitted.end(),
                                         [&](const model::OmittedKey& o) { return o.path == p && !o.reason.empty(); });
        EXPECT_TRUE((load.file.Find(p) != nullptr) != omitted) << path << " " << p;
      }
    };
    for (const char* section : {"condition", "mass", "geometry", "longitudinal", "lateral"})
      if (const toml::table* t = root[section].as_table())
        if (std::string(section) != "geometry" || load.file.coefficients) check(*t, std::string(section) + ".");
    if (const toml::table* controls = root["controls"].as_table())
      for (const auto& [name, node] : *controls)
        if (const toml::table* t = node.as_table()) check(*t, "controls." + std::string(name.str()) + ".");
  }
}

TEST(MatricesOfFile, EqualsMatricesOfTheLoadedFormsBitForBit) {
  // Through the coefficient conversion (ToDimensional<double>) a coefficient
  // file gives exactly the numbers the loader converted once.
  const std::vector<std::string> files = FilesWithKeys();  // with the AVL example
  for (const std::string& path : files) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    const model::AxisMatrices<double> chain =
        model::MatricesOfFile<double>(load.file, [](const double& f) { return f; });
    const model::AxisMatrices<double> loaded = model::MatricesOf(load.file.written);
    EXPECT_TRUE(chain.longitudinal == loaded.longitudinal) << path << "\n" << chain.longitudinal;
    EXPECT_TRUE(chain.lateral == loaded.lateral) << path << "\n" << chain.lateral;
  }
}

TEST(MatricesOfFile, AutoDiffValuesAreTheDoubleValuesBitForBit) {
  // The AD instantiations run the same operations on their values (hypot
  // included), so only the derivatives are new.
  for (const std::string& path : FilesWithKeys()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    const model::AxisMatrices<double> d =
        model::MatricesOfFile<double>(load.file, [](const double& f) { return f; });
    const model::AxisMatrices<model::AutoDiffXd> xd =
        model::MatricesOfFile<model::AutoDiffXd>(load.file, [](const double& f) { return model::AutoDiffXd(f); });
    const model::AxisMatrices<model::AutoDiff1d> one =
        model::MatricesOfFile<model::AutoDiff1d>(load.file, [](const double& f) { return model::AutoDiff1d(f); });
    auto values = [](const auto& M) {
      Eigen::MatrixXd v(M.rows(), M.cols());
      for (Eigen::Index r = 0; r < M.rows(); ++r)
        for (Eigen::Index c = 0; c < M.cols(); ++c) v(r, c) = M(r, c).value();
      return v;
    };
    EXPECT_TRUE(values(xd.longitudinal) == Eigen::MatrixXd(d.longitudinal)) << path;
    EXPECT_TRUE(values(xd.lateral) == Eigen::MatrixXd(d.lateral)) << path;
    EXPECT_TRUE(values(one.longitudinal) == Eigen::MatrixXd(d.longitudinal)) << path;
    EXPECT_TRUE(values(one.lateral) == Eigen::MatrixXd(d.lateral)) << path;
  }
}

TEST(WrittenKeys, CoefficientFilesOfferTheirCoefficientsAndSayWhatIsLeftOut) {
  const std::string dir = std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/derivatives/";
  const data::LoadResult deg = data::LoadAircraftFile(dir + "valid_coefficients_lift_drag_per_degree_body_axes.toml");
  // Per degree as written: the field is per radian.
  const model::WrittenKey* cma = deg.file.Find("longitudinal.Cma");
  ASSERT_NE(cma, nullptr);
  EXPECT_DOUBLE_EQ(cma->value, -0.011920);
  EXPECT_DOUBLE_EQ(cma->to_si, core::kRadToDeg);
  const model::WrittenKey* cmq = deg.file.Find("longitudinal.Cmq");  // a rate derivative
  ASSERT_NE(cmq, nullptr);
  EXPECT_EQ(cmq->to_si, 1.0);
  const model::WrittenKey* cl = deg.file.Find("controls.elevator.CL");  // per_degree control
  ASSERT_NE(cl, nullptr);
  EXPECT_DOUBLE_EQ(cl->to_si, core::kRadToDeg);
  // Body-axis inertias and alpha0 are keys of a coefficient file (ToDimensional rotates them).
  EXPECT_NE(deg.file.Find("mass.Ixz"), nullptr);
  EXPECT_NE(deg.file.Find("condition.alpha0_deg"), nullptr);
  EXPECT_NE(deg.file.Find("mass.W"), nullptr);
  EXPECT_NE(deg.file.Find("geometry.S"), nullptr);
  EXPECT_TRUE(deg.file.omitted.empty());

  const data::LoadResult mixed = data::LoadAircraftFile(dir + "valid_coefficients_mixed_mach_altitude.toml");
  EXPECT_TRUE(mixed.file.longitudinal_coefficients);
  EXPECT_FALSE(mixed.file.lateral_coefficients);
  EXPECT_NE(mixed.file.Find("lateral.Lp"), nullptr);          // the dimensional section's own key
  EXPECT_NE(mixed.file.Find("controls.rudder.N"), nullptr);
  EXPECT_NE(mixed.file.Find("controls.elevator.Cm"), nullptr);
  EXPECT_NE(mixed.file.Find("condition.mach"), nullptr);      // U0 = mach · a
  EXPECT_EQ(mixed.file.Find("condition.altitude"), nullptr);  // through the atmosphere: left out
  ASSERT_EQ(mixed.file.omitted.size(), 1u);
  EXPECT_EQ(mixed.file.omitted[0].path, "condition.altitude");
  EXPECT_EQ(mixed.file.omitted[0].reason,
            "it gives rho and the speed of sound for U0 = mach x a through the 1976 standard "
            "atmosphere, which aerolin does not differentiate (give rho and U0 to vary them)");
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

namespace aerolin {
namespace {

// B through the file's chain (InputMatricesOfFile) is the loader's
// conversion and the builders' B, for every file with keys (coefficient and
// AVL files included).
TEST(InputMatricesOfFile, EqualsTheBuiltB) {
  for (const std::string& path : FilesWithKeys()) {
    const data::LoadResult load = data::LoadAircraftFile(path);
    const model::AxisInputMatrices<double> b =
        model::InputMatricesOfFile<double>(load.file, [](const double& f) { return f; });
    const Eigen::MatrixXd lon = model::BuildLongitudinal(load.aircraft).B();
    const Eigen::MatrixXd lat = model::BuildLateral(load.aircraft).B();
    ASSERT_EQ(b.longitudinal.cols(), lon.cols()) << path;
    ASSERT_EQ(b.lateral.cols(), lat.cols()) << path;
    EXPECT_LE((Eigen::MatrixXd(b.longitudinal) - lon).cwiseAbs().maxCoeff(), kRoundOff * lon.cwiseAbs().maxCoeff()) << path;
    EXPECT_LE((Eigen::MatrixXd(b.lateral) - lat).cwiseAbs().maxCoeff(), kRoundOff * lat.cwiseAbs().maxCoeff()) << path;
  }
}

// ∂B/∂key by AD against central differences of the double chain, for every
// key of every file: relative step 1e-6, so truncation (h²) and round-off
// (1e-16/h) are both below 1e-9 of the entries.
TEST(InputMatricesOfFile, AutoDiffDerivativesMatchCentralDifferences) {
  for (const std::string& path : FilesWithKeys()) {
    data::LoadResult load = data::LoadAircraftFile(path);
    for (const model::WrittenKey& key : load.file.keys) {
      double* field = model::FieldOf(load.file, key.path);
      if (field == nullptr) continue;
      const model::AxisInputMatrices<model::AutoDiff1d> ad = model::InputMatricesOfFile<model::AutoDiff1d>(
          load.file, [&](const double& f) {
            return &f == field ? model::AutoDiff1d(f, Eigen::Matrix<double, 1, 1>(1.0))
                               : model::AutoDiff1d(f, Eigen::Matrix<double, 1, 1>(0.0));
          });
      const double x = *field, h = 1e-6 * std::max(std::abs(x), 1e-3);
      auto at = [&](double v) {
        *field = v;
        return model::InputMatricesOfFile<double>(load.file, [](const double& f) { return f; });
      };
      const model::AxisInputMatrices<double> up = at(x + h), down = at(x - h);
      *field = x;
      const Eigen::MatrixXd fd = (Eigen::MatrixXd(up.longitudinal) - Eigen::MatrixXd(down.longitudinal)) / (2 * h);
      for (Eigen::Index r = 0; r < fd.rows(); ++r)
        for (Eigen::Index c = 0; c < fd.cols(); ++c)
          EXPECT_NEAR(ad.longitudinal(r, c).derivatives()(0), fd(r, c), 1e-6 * (std::abs(fd(r, c)) + 1.0))
              << path << " " << key.path << " (" << r << ", " << c << ")";
      const Eigen::MatrixXd fl = (Eigen::MatrixXd(up.lateral) - Eigen::MatrixXd(down.lateral)) / (2 * h);
      for (Eigen::Index r = 0; r < fl.rows(); ++r)
        for (Eigen::Index c = 0; c < fl.cols(); ++c)
          EXPECT_NEAR(ad.lateral(r, c).derivatives()(0), fl(r, c), 1e-6 * (std::abs(fl(r, c)) + 1.0))
              << path << " " << key.path << " (" << r << ", " << c << ")";
    }
  }
}

}  // namespace
}  // namespace aerolin
