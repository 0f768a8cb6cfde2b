// The loader's AVL path: [aerodynamics] avl_st (both ST formats), paths
// relative to the TOML, [mass] avl_mass, and the located errors.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <complex>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/data/avl_mass.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::data {
namespace {

const std::string kAvlDir = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/";

// The bundled TOML with `st` and `mass` (absolute paths) in place of its own.
std::string B737Toml(const std::string& st, const std::string& mass = kAvlDir + "b737.mass",
                     const std::string& theta0_deg = "0.0") {
  std::string text = core::ReadInputFile(kAvlDir + "b737.toml");
  auto replace = [&text](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("avl_st = \"b737_classic.st\"", "avl_st = \"" + st + "\"");
  replace("avl_mass = \"b737.mass\"", "avl_mass = \"" + mass + "\"");
  replace("theta0_deg = 0.0 ", "theta0_deg = " + theta0_deg + " ");
  return text;
}

std::vector<std::complex<double>> Eigenvalues(const Eigen::MatrixXd& A) {
  Eigen::EigenSolver<Eigen::MatrixXd> solver(A);
  std::vector<std::complex<double>> v(solver.eigenvalues().begin(), solver.eigenvalues().end());
  std::sort(v.begin(), v.end(), [](auto a, auto b) {
    return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag();
  });
  return v;
}

std::string ErrorOf(const std::string& text, const std::string& path) {
  try {
    LoadAircraftString(text, path);
  } catch (const core::DataError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LoadAvl, BundledB737LoadsWithoutWarnings) {
  const LoadResult r = LoadAircraftFile(kAvlDir + "b737.toml");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front().message;
  ASSERT_TRUE(r.from_coefficients);
  EXPECT_NEAR(*r.aircraft.geometry.b, 113.0 * 0.3048, 1e-12);
  ASSERT_EQ(r.aircraft.controls.size(), 5u);  // AVL's names, in its order
  const char* names[] = {"slat", "flap", "aileron", "elevator", "rudder"};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r.aircraft.controls[i].name, names[i]);
  EXPECT_FALSE(r.avl_notes.empty());  // the quasi-steady assumption, CDa estimate ...
  // AVL's trim: C_W0 = W/(½ρV²S) with the mass file's total equals CLtot.
  const double S = 1260.0 * 0.3048 * 0.3048;
  EXPECT_NEAR(*r.aircraft.mass.m * 9.81 / (0.5 * 0.38 * 250.0 * 250.0 * S), 0.54444, 2e-4);
}

// Same numbers in both of AVL's formats: the classic file, and the machine
// format carrying the classic file's printed digits (the layout of AVL
// 3.40's MRF, no CD rows) give the same modes.
TEST(LoadAvl, ClassicAndMachineFormatGiveTheSameModes) {
  const LoadResult classic = LoadAircraftString(B737Toml(kAvlDir + "b737_classic.st"), "c.toml");
  const LoadResult machine = LoadAircraftString(
      B737Toml(std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/avl/b737_classic_as_machine.st"),
      "m.toml");
  for (auto build : {&model::BuildLongitudinal, &model::BuildLateral}) {
    const auto a = Eigenvalues(build(classic.aircraft).A());
    const auto b = Eigenvalues(build(machine.aircraft).A());
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(std::abs(a[i] - b[i]), 0.0, 1e-12);
  }
}

// AVL 3.52's own file of the same case: its longitudinal α and q derivatives
// agree with the classic file's to the classic's six decimals, so the short
// period agrees to 1e-4; its lateral derivatives differ (Clb −0.2416 vs
// −0.2761: another AVL version), so the lateral modes are not compared.
TEST(LoadAvl, Avl352FileGivesTheSameShortPeriod) {
  const LoadResult classic = LoadAircraftString(B737Toml(kAvlDir + "b737_classic.st"), "c.toml");
  const LoadResult machine = LoadAircraftString(B737Toml(kAvlDir + "b737_machine.st"), "m.toml");
  const auto a = Eigenvalues(model::BuildLongitudinal(classic.aircraft).A());
  const auto b = Eigenvalues(model::BuildLongitudinal(machine.aircraft).A());
  EXPECT_NEAR(a[0].real(), b[0].real(), 1e-4 * std::abs(a[0]));  // short period, most damped
  EXPECT_NEAR(a[0].imag(), b[0].imag(), 1e-4 * std::abs(a[0]));
}

TEST(LoadAvl, PathsAreRelativeToTheToml) {
  const std::string text = B737Toml("../avl/b737_classic.st", "../avl/b737.mass");
  const LoadResult r =
      LoadAircraftString(text, std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/b737.toml");
  EXPECT_NEAR(*r.aircraft.geometry.b, 113.0 * 0.3048, 1e-12);
  EXPECT_EQ(ErrorOf(text, "elsewhere/b737.toml"),
            "elsewhere/b737.toml:34: [aerodynamics] avl_st: avl/b737_classic.st: cannot open file: "
            "No such file or directory (check the path) (the path is relative to this TOML file)");
}

TEST(LoadAvl, AvlFileDefectsAreLocatedInTheAvlFile) {
  std::string st = core::ReadInputFile(kAvlDir + "b737_classic.st");
  st.replace(st.find("7.299206"), 8, "********");
  const std::string dir = ::testing::TempDir();
  const std::string bad = (std::filesystem::path(dir) / "bad.st").string();
  { std::ofstream(bad) << st; }
  EXPECT_EQ(ErrorOf(B737Toml(bad), "b.toml"),
            bad + ":42: 'CLa' is printed as '********', AVL's overflow of its number field (the "
                  "value is too large; check the run case)");
}

TEST(LoadAvl, KeysAndConflictsAreErrors) {
  std::string text = B737Toml(kAvlDir + "b737_classic.st");
  text.replace(text.find("avl_length_unit ="), 15, "avl_lenght_unit");
  text += "\n[longitudinal]\nform = \"normalized\"\n";
  const std::string message = ErrorOf(text, "k.toml");
  EXPECT_NE(message.find("k.toml:35: unknown key 'avl_lenght_unit' in [aerodynamics] (did you mean "
                         "'avl_length_unit'?)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("k.toml:40: [longitudinal] conflicts with [aerodynamics] avl_st, which gives "
                         "the longitudinal derivatives (remove [longitudinal], or remove avl_st)"),
            std::string::npos)
      << message;
}

// [mass] avl_mass: AVL's totals in body axes, rotated by AVL's Alpha into
// stability axes. Checked with what a rotation about y keeps: Iy, Ix + Iz
// and Ix·Iz − Ixz².
TEST(LoadAvl, AvlMassIsTheMassFileRotatedByAlpha) {
  const LoadResult r = LoadAircraftFile(kAvlDir + "b737.toml");
  const AvlMassBodyAxes body = ToBodyAxes(ReadAvlMassFile(kAvlDir + "b737.mass"));  // kg, m
  const model::MassProperties& m = r.aircraft.mass;
  EXPECT_DOUBLE_EQ(*m.m, body.m);
  EXPECT_NEAR(*m.Iy, body.Iy, 1e-9 * body.Iy);
  EXPECT_NEAR(*m.Ix + *m.Iz, body.Ix + body.Iz, 1e-9 * body.Iz);
  EXPECT_NEAR(*m.Ix * *m.Iz - *m.Ixz * *m.Ixz, body.Ix * body.Iz - body.Ixz * body.Ixz,
              1e-9 * body.Ix * body.Iz);
  EXPECT_NE(*m.Ixz, body.Ixz);  // rotated by 1.9184°
  std::string text = B737Toml(kAvlDir + "b737_classic.st");
  text += "m = 1000.0\n";
  EXPECT_EQ(ErrorOf(text, "x.toml"),
            "x.toml:39: 'm' conflicts with avl_mass, which gives the mass and inertias (remove one)");
}

}  // namespace
}  // namespace aerolin::data

namespace aerolin::data {
namespace {

// The coefficient path hands W (when the file gives m beside it) to the
// model's typed-value checks: W = m·g within 2 %.
TEST(LoadCoefficientsTypedValues, WeightBesideMassIsChecked) {
  std::string text = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) +
                                         "/data/derivatives/boeing747_cruise_40kft_coefficients.toml");
  const auto line_start = text.find("\nW = 2.83176e6 ");  // [mass] W (also quoted in comments)
  ASSERT_NE(line_start, std::string::npos);
  const auto at = line_start + 1;
  // m = W/g exactly (288 660 kg with g = 9.81): no warning; 10 % more: one.
  std::string consistent = text, typed_as_mass = text;
  consistent.insert(at, "m = 288660.5606524 \n");
  typed_as_mass.insert(at, "m = 317526.6 \n");
  EXPECT_TRUE(LoadAircraftString(consistent, "w.toml").warnings.empty());
  const LoadResult r = LoadAircraftString(typed_as_mass, "w.toml");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].where.line, 49);  // the W key's line (after the inserted m)
  EXPECT_EQ(r.warnings[0].message,
            "W: W = 2.832e+06 N differs from m g = 3.115e+06 N by more than 2 %: weight is mass "
            "times g; check which of the two (or g) is meant");
}

}  // namespace
}  // namespace aerolin::data
