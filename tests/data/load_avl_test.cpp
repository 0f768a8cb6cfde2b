// The loader's AVL path: [aerodynamics] avl_st (both ST formats), paths
// relative to the TOML, [mass] avl_mass, and the located errors.

#include <gtest/gtest.h>
#include <unistd.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/data/avl_mass.hpp"
#include "aerolin/data/avl_st.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/as_written.hpp"
#include "aerolin/model/build.hpp"
#include "data/loader_test_support.hpp"

namespace aerolin::data {
namespace {

const std::string kAvlDir = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/";

// The bundled TOML with `st` and `mass` (absolute paths) in place of its own.
std::string B737Toml(const std::string& st, const std::string& mass = kAvlDir + "b737.mass",
                     const std::string& theta0_deg = "0.0") {
  std::string text = core::ReadInputFile(kAvlDir + "b737.toml");
  text = test_support::Edit(text, "avl_st = \"b737_classic.st\"", "avl_st = \"" + st + "\"");
  text = test_support::Edit(text, "avl_mass = \"b737.mass\"", "avl_mass = \"" + mass + "\"");
  return test_support::Edit(text, "theta0_deg = 0.0 ", "theta0_deg = " + theta0_deg + " ");
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
  return test_support::DataErrorOf([&] { LoadAircraftString(text, path); });
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
  const std::string bad = (std::filesystem::path(dir) / ("bad_" + std::to_string(::getpid()) + ".st")).string();
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

// The Ixz coupling of an AVL file's L and N (Etkin & Reid eq. 4.12,5): the
// .st gives stability-axis Cl, Cn; aerolin's lateral A holds ṗ, ṙ per β, p, r,
// so L and N are coupled through Ixz as for every other unprimed source.

// The bundled TOML with [mass] written out in the TOML (stability axes) in
// place of avl_mass; `mass` is the body of the [mass] table.
std::string B737TomlWithMass(const std::string& st, const std::string& mass) {
  std::string text = B737Toml(st);
  const std::string from = "avl_mass = \"" + kAvlDir + "b737.mass\"";
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos);
  if (at == std::string::npos) return text;
  // The rest of the line is its comment.
  text.replace(at, text.find('\n', at) - at, mass);
  return text;
}

// Max |a − b| over max |b|.
double RelativeDifference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / b.cwiseAbs().maxCoeff();
}

// What `aerolin modes` solves (the loader's aircraft, built) and what
// sensitivities and sweeps differentiate (model::MatricesOfFile) are the same
// matrices for every AVL file: both ST formats and the fixture, the mass from
// the .mass file or from the TOML, level flight and θ0 = −α.
TEST(LoadAvlIxz, LoadedAircraftEqualsMatricesOfFileForEveryAvlFile) {
  const std::string fixture = std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/avl/b737_classic_as_machine.st";
  const std::string toml_mass =
      "m = 77146.0\nIx = 7.0e5\nIy = 2.9e6\nIz = 3.5e6\nIxz = -1.2e5";
  for (const std::string& st : {kAvlDir + "b737_classic.st", kAvlDir + "b737_machine.st", fixture})
    for (const bool from_mass_file : {true, false})
      for (const char* theta0 : {"0.0", "-1.9184"}) {
        std::string text = from_mass_file ? B737Toml(st, kAvlDir + "b737.mass", theta0)
                                          : B737TomlWithMass(st, toml_mass);
        if (!from_mass_file)
          text.replace(text.find("theta0_deg = 0.0 "), 17, std::string("theta0_deg = ") + theta0 + " ");
        const std::string what = st + (from_mass_file ? " avl_mass" : " [mass]") + " theta0 " + theta0;
        const LoadResult r = LoadAircraftString(text, "t.toml");
        ASSERT_TRUE(r.aircraft.mass.Ixz && *r.aircraft.mass.Ixz != 0.0) << what;
        const model::AxisMatrices<double> chain =
            model::MatricesOfFile<double>(r.file, [](const double& f) { return f; });
        EXPECT_LE(RelativeDifference(model::BuildLateral(r.aircraft).A(), Eigen::MatrixXd(chain.lateral)), 1e-12)
            << what << "\nloaded:\n" << model::BuildLateral(r.aircraft).A() << "\nchain:\n" << chain.lateral;
        EXPECT_LE(RelativeDifference(model::BuildLongitudinal(r.aircraft).A(), Eigen::MatrixXd(chain.longitudinal)),
                  1e-12)
            << what;
      }
}

// Oracle by hand for the bundled b737: the .st's printed Clb, Cnb, Clp, Cnp,
// Clr, Cnr made dimensional (L_β = ½ρV²Sb Cl_β, L_p = ½ρV²Sb (b/2V) Cl_p,
// Etkin & Reid Table 4.5), the .mass file's body-axis Ix, Iz, Ixz turned by
// AVL's Alpha into stability axes (Ix_s = Ix cos²α + Iz sin²α − Ixz sin 2α,
// Iz_s = Ix sin²α + Iz cos²α + Ixz sin 2α, Ixz_s = ½(Ix − Iz) sin 2α +
// Ixz cos 2α), and Ix ṗ − Ixz ṙ = L, Iz ṙ − Ixz ṗ = N solved for ṗ, ṙ.
TEST(LoadAvlIxz, LateralMomentsAreCoupledThroughTheMassFilesIxz) {
  const AvlStability st = ReadAvlStabilityFile(kAvlDir + "b737_classic.st");
  const AvlMassBodyAxes body = ToBodyAxes(ReadAvlMassFile(kAvlDir + "b737.mass"));  // kg, m
  const double V = 250.0, rho = 0.38, ft = 0.3048;
  const double S = st.Sref * ft * ft, b = st.Bref * ft, qSb = 0.5 * rho * V * V * S * b;
  const double alpha = st.alpha_deg * M_PI / 180.0, c = std::cos(alpha), s = std::sin(alpha);
  const double Ix = body.Ix * c * c + body.Iz * s * s - body.Ixz * std::sin(2 * alpha);
  const double Iz = body.Ix * s * s + body.Iz * c * c + body.Ixz * std::sin(2 * alpha);
  const double Ixz = 0.5 * (body.Ix - body.Iz) * std::sin(2 * alpha) + body.Ixz * std::cos(2 * alpha);
  const double det = Ix * Iz - Ixz * Ixz;
  const LoadResult r = LoadAircraftFile(kAvlDir + "b737.toml");
  const Eigen::MatrixXd A = model::BuildLateral(r.aircraft).A();  // x = (β, p, r, φ, ψ)
  const double rate = b / (2.0 * V);
  const double Cl[3] = {st.Clb, st.Clp * rate, st.Clr * rate}, Cn[3] = {st.Cnb, st.Cnp * rate, st.Cnr * rate};
  for (int j = 0; j < 3; ++j) {
    const double L = qSb * Cl[j], N = qSb * Cn[j];
    EXPECT_NEAR(A(1, j), (Iz * L + Ixz * N) / det, 1e-12 * std::abs(A(1, j))) << "L' column " << j;
    EXPECT_NEAR(A(2, j), (Ixz * L + Ix * N) / det, 1e-12 * std::abs(A(2, j))) << "N' column " << j;
  }
  // The coupling is not small here: Ixz/Ix ≈ −0.16, and L'_β differs from L_β/Ix by 6 %.
  EXPECT_LT(Ixz / Ix, -0.1);
  EXPECT_GT(std::abs(A(1, 0) / (qSb * st.Clb / Ix) - 1.0), 0.03);
}

// Its preconditions are located at the [mass] keys that give them.
TEST(LoadAvlIxz, MissingOrImpossibleInertiasAreLocatedInMass) {
  const std::string st = kAvlDir + "b737_classic.st";
  const std::string no_ix =
      ErrorOf(B737TomlWithMass(st, "m = 77146.0\nIy = 2.9e6\nIz = 3.5e6\nIxz = -1.2e5"), "n.toml");
  EXPECT_NE(no_ix.find("n.toml:41: the AVL file's L and N with Ixz != 0 need [mass] Ix and Iz to apply the "
                       "Ixz coupling (add them, or give avl_mass)"),
            std::string::npos)
      << no_ix;
  const std::string too_big =
      ErrorOf(B737TomlWithMass(st, "m = 77146.0\nIx = 7.0e5\nIy = 2.9e6\nIz = 3.5e6\nIxz = -1.6e6"), "b.toml");
  EXPECT_NE(too_big.find("b.toml:37: Ixz² ≥ Ix·Iz: the inertia tensor is not positive definite"), std::string::npos)
      << too_big;
}

// Keys of an AVL file for sweeps and sensitivities: its TOML's own, and the
// .st's numbers that reach A by AVL's names ("avl.CLa"), its controls' as
// avl.CONTROL.{CL,CD,CY,Cl,Cm,Cn}; what does not reach A is left out with the
// reason. (Each key's field is value × to_si: WrittenKeys.EveryKeyNamesItsFieldAndItsSIFactor.)
TEST(LoadAvlKeys, TheStsNumbersAreKeysByAvlsNames) {
  const LoadResult r = LoadAircraftFile(kAvlDir + "b737.toml");
  auto omitted = [](const LoadResult& load, const std::string& path) {
    for (const model::OmittedKey& k : load.file.omitted)
      if (k.path == path) return k.reason;
    return std::string();
  };
  for (const char* toml_key : {"condition.U0", "condition.rho", "condition.g", "condition.theta0_deg"})
    EXPECT_NE(r.file.Find(toml_key), nullptr) << toml_key;
  const model::WrittenKey* cma = r.file.Find("avl.Cma");
  ASSERT_NE(cma, nullptr);
  EXPECT_EQ(cma->value, -1.884644);
  EXPECT_EQ(cma->to_si, 1.0);
  const model::WrittenKey* sref = r.file.Find("avl.Sref");  // ft² in the .st, m² inside
  ASSERT_NE(sref, nullptr);
  EXPECT_EQ(sref->value, 1260.0);
  EXPECT_NEAR(sref->to_si, 0.3048 * 0.3048, 1e-16);
  const model::WrittenKey* cm = r.file.Find("avl.elevator.Cm");  // Cmd4, per degree
  ASSERT_NE(cm, nullptr);
  EXPECT_EQ(cm->value, -0.071575);
  EXPECT_DOUBLE_EQ(cm->to_si, 180.0 / M_PI);
  const model::WrittenKey* cd = r.file.Find("avl.elevator.CD");  // no CDd4: CDffd4
  ASSERT_NE(cd, nullptr);
  EXPECT_EQ(cd->value, 0.000542);
  EXPECT_NE(r.file.Find("avl.Alpha"), nullptr);  // rotates the .mass file's inertias
  // The classic file prints no CDa: its estimate 2 CDind CLa / CLtot moves
  // with CLa and CLtot, which are therefore not offered (central differences
  // of the edited .st would disagree with the chain's fixed CDa).
  for (const char* key : {"avl.CDa", "avl.CLa", "avl.CLtot"}) {
    EXPECT_EQ(r.file.Find(key), nullptr) << key;
    EXPECT_NE(omitted(r, key).find("b737_classic.st prints no CDa, so the load estimates it as 2 CDind CLa / CLtot"),
              std::string::npos)
        << key;
  }
  EXPECT_FALSE(omitted(r, "aerodynamics.avl_length_unit").empty());
  EXPECT_EQ(r.file.Find("avl.Cla"), nullptr);  // cross-axis: dropped by the decoupled model
  EXPECT_FALSE(omitted(r, "avl (other numbers)").empty());

  // AVL 3.52's file prints CDa and CDd: keys.
  const LoadResult machine = LoadAircraftString(B737Toml(kAvlDir + "b737_machine.st"), "m.toml");
  for (const char* key : {"avl.CDa", "avl.CLa", "avl.CLtot", "avl.elevator.CD"}) {
    EXPECT_NE(machine.file.Find(key), nullptr) << key;
    EXPECT_TRUE(omitted(machine, key).empty()) << key;
  }
  const model::WrittenKey* cla = machine.file.Find("avl.CLa");
  ASSERT_NE(cla, nullptr);
  EXPECT_EQ(cla->to_si, 1.0);
  // Stability-axis inertias in the TOML: Alpha rotates nothing.
  const LoadResult stability = LoadAircraftString(
      B737TomlWithMass(kAvlDir + "b737_classic.st", "m = 77146.0\nIx = 7.0e5\nIy = 2.9e6\nIz = 3.5e6\nIxz = -1.2e5"),
      "s.toml");
  EXPECT_EQ(stability.file.Find("avl.Alpha"), nullptr);
  EXPECT_EQ(omitted(stability, "avl.Alpha"),
            "it only rotates body-axis inertias, and this file's are in stability axes");
  EXPECT_NE(stability.file.Find("mass.Ixz"), nullptr);
  // unit = "1": the control's derivatives per unit as printed.
  const LoadResult unit_one =
      LoadAircraftString(B737Toml(kAvlDir + "b737_classic.st") + "\n[controls.elevator]\nunit = \"1\"\n", "u.toml");
  ASSERT_NE(unit_one.file.Find("avl.elevator.Cm"), nullptr);
  EXPECT_EQ(unit_one.file.Find("avl.elevator.Cm")->to_si, 1.0);
  EXPECT_NEAR(*model::FieldOf(unit_one.file, "avl.elevator.Cm"), -0.071575, 1e-16);
}

// The comparison with AVL's own MODE eigenvalues that data/derivatives/README.md
// ("AVL files") and README.md print: aerolin's columns (θ0 = 0 and θ0 = −α)
// to their printed digits, AVL's column from AVL's file (data/avl/b737.eig),
// and the README's statements about them.
struct B737Modes {
  std::complex<double> short_period, phugoid, dutch_roll;  // the +im root of each pair
  double roll = 0, spiral = 0;
};

// Sorts `roots` (one run's, either source) into modes. Real roots: roll the
// most negative, spiral the other nonzero one (the heading root is 0).
// Oscillatory (+im) roots: phugoid the slowest; of the two near 1.9 rad/s the
// short period is the better damped (ζ ≈ 0.4 against the Dutch roll's 0.1-0.15).
B737Modes Classify(const std::vector<std::complex<double>>& roots) {
  B737Modes m;
  std::vector<std::complex<double>> oscillatory;
  std::vector<double> real;
  for (const auto& r : roots) {
    if (r.imag() > 1e-9) oscillatory.push_back(r);
    else if (std::abs(r.imag()) <= 1e-9 && std::abs(r) > 1e-9) real.push_back(r.real());
  }
  EXPECT_EQ(oscillatory.size(), 3u);
  EXPECT_EQ(real.size(), 2u);
  if (oscillatory.size() != 3u || real.size() != 2u) return m;
  std::sort(oscillatory.begin(), oscillatory.end(), [](auto a, auto b) { return std::abs(a) < std::abs(b); });
  std::sort(real.begin(), real.end());
  m.phugoid = oscillatory[0];
  const auto zeta = [](std::complex<double> z) { return -z.real() / std::abs(z); };
  const bool first_damped_more = zeta(oscillatory[1]) > zeta(oscillatory[2]);
  m.short_period = first_damped_more ? oscillatory[1] : oscillatory[2];
  m.dutch_roll = first_damped_more ? oscillatory[2] : oscillatory[1];
  m.roll = real[0];
  m.spiral = real[1];
  return m;
}

B737Modes AerolinModes(const std::string& theta0_deg) {
  const LoadResult r = LoadAircraftString(B737Toml(kAvlDir + "b737_classic.st", kAvlDir + "b737.mass", theta0_deg),
                                          "t.toml");
  std::vector<std::complex<double>> roots = Eigenvalues(model::BuildLongitudinal(r.aircraft).A());
  const auto lateral = Eigenvalues(model::BuildLateral(r.aircraft).A());
  roots.insert(roots.end(), lateral.begin(), lateral.end());
  return Classify(roots);
}

// AVL's MODE output: "# ..." lines, then "run re im" per root.
B737Modes AvlModes() {
  std::istringstream in(core::ReadInputFile(kAvlDir + "b737.eig"));
  std::vector<std::complex<double>> roots;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    int run = 0;
    double re = 0, im = 0;
    if (words >> run >> re >> im) roots.emplace_back(re, im);
  }
  EXPECT_EQ(roots.size(), 8u);  // AVL omits the heading root
  return Classify(roots);
}

// Printed to 4 significant digits (5 for AVL's): half a unit in the last digit.
void ExpectPrinted(double value, double printed, double last_digit, const char* what) {
  EXPECT_NEAR(value, printed, 0.5 * last_digit) << what;
}

TEST(AvlOwnModes, ReadmeComparisonIsReproduced) {
  const B737Modes level = AerolinModes("0.0");
  const B737Modes minus_alpha = AerolinModes("-1.9184");
  const B737Modes avl = AvlModes();
  // The README's table, column by column.
  ExpectPrinted(level.short_period.real(), -0.7537, 1e-4, "short period, theta0 = 0");
  ExpectPrinted(level.short_period.imag(), 1.777, 1e-3, "short period, theta0 = 0");
  ExpectPrinted(level.phugoid.real(), -4.114e-4, 1e-7, "phugoid, theta0 = 0");
  ExpectPrinted(level.phugoid.imag(), 0.05178, 1e-5, "phugoid, theta0 = 0");
  ExpectPrinted(level.roll, -2.627, 1e-3, "roll, theta0 = 0");
  ExpectPrinted(level.dutch_roll.real(), -0.3170, 1e-4, "dutch roll, theta0 = 0");
  ExpectPrinted(level.dutch_roll.imag(), 2.002, 1e-3, "dutch roll, theta0 = 0");
  ExpectPrinted(level.spiral, -0.01971, 1e-5, "spiral, theta0 = 0");
  ExpectPrinted(minus_alpha.short_period.real(), -0.7531, 1e-4, "short period, theta0 = -alpha");
  ExpectPrinted(minus_alpha.short_period.imag(), 1.776, 1e-3, "short period, theta0 = -alpha");
  ExpectPrinted(minus_alpha.phugoid.real(), -9.841e-4, 1e-7, "phugoid, theta0 = -alpha");
  ExpectPrinted(minus_alpha.phugoid.imag(), 0.05177, 1e-5, "phugoid, theta0 = -alpha");
  ExpectPrinted(minus_alpha.roll, -2.627, 1e-3, "roll, theta0 = -alpha");
  ExpectPrinted(minus_alpha.dutch_roll.real(), -0.3164, 1e-4, "dutch roll, theta0 = -alpha");
  ExpectPrinted(minus_alpha.dutch_roll.imag(), 2.002, 1e-3, "dutch roll, theta0 = -alpha");
  ExpectPrinted(minus_alpha.spiral, -0.02093, 1e-5, "spiral, theta0 = -alpha");
  ExpectPrinted(avl.short_period.real(), -0.6901, 1e-4, "AVL short period");
  ExpectPrinted(avl.short_period.imag(), 1.6587, 1e-4, "AVL short period");
  ExpectPrinted(avl.phugoid.real(), -9.890e-4, 1e-7, "AVL phugoid");
  ExpectPrinted(avl.phugoid.imag(), 0.05179, 1e-5, "AVL phugoid");
  ExpectPrinted(avl.roll, -2.5748, 1e-4, "AVL roll");
  ExpectPrinted(avl.dutch_roll.real(), -0.2902, 1e-4, "AVL dutch roll");
  ExpectPrinted(avl.dutch_roll.imag(), 1.9011, 1e-4, "AVL dutch roll");
  ExpectPrinted(avl.spiral, -0.02101, 1e-5, "AVL spiral");
  // Its statements: θ0 = −α multiplies the phugoid damping by 2.4 (to within
  // 0.5 % of AVL's) and brings the spiral to within 0.4 % of AVL's ...
  EXPECT_NEAR(minus_alpha.phugoid.real() / level.phugoid.real(), 2.4, 0.05);
  EXPECT_LT(std::abs(minus_alpha.phugoid.real() / avl.phugoid.real() - 1.0), 0.005);
  EXPECT_LT(std::abs(minus_alpha.spiral / avl.spiral - 1.0), 0.004);
  // ... leaves the short period, roll and Dutch roll unchanged to 0.04 % ...
  EXPECT_LT(std::abs(minus_alpha.short_period - level.short_period), 4e-4 * std::abs(level.short_period));
  EXPECT_LT(std::abs(minus_alpha.roll - level.roll), 4e-4 * std::abs(level.roll));
  EXPECT_LT(std::abs(minus_alpha.dutch_roll - level.dutch_roll), 4e-4 * std::abs(level.dutch_roll));
  // ... and what is left apart from AVL's (with L and N coupled through
  // Ixz): short-period ωn +7.4 %, roll +2.0 %, Dutch-roll ωn +5.4 % and ζ
  // 0.156 (both θ0) against 0.151.
  EXPECT_NEAR(std::abs(minus_alpha.short_period) / std::abs(avl.short_period) - 1.0, 0.074, 0.0005);
  EXPECT_NEAR(minus_alpha.roll / avl.roll - 1.0, 0.020, 0.0005);
  EXPECT_NEAR(std::abs(minus_alpha.dutch_roll) / std::abs(avl.dutch_roll) - 1.0, 0.054, 0.0005);
  const auto zeta = [](std::complex<double> z) { return -z.real() / std::abs(z); };
  EXPECT_NEAR(zeta(minus_alpha.dutch_roll), 0.156, 0.0005);
  EXPECT_NEAR(zeta(level.dutch_roll), 0.156, 0.0005);
  EXPECT_NEAR(zeta(avl.dutch_roll), 0.151, 0.0005);
}

// The sign of the Ixz carried from AVL's mass file, against AVL's own MODE
// output (b737.eig). In stability axes Ixz = −113 955 kg·m², mostly the
// rotation by α of Ix − Iz; the body-axis −26 994 kg·m² is fixed by AVL's
// MASS print (its tensor's off-diagonal is −Ixz: AvlMass tests). The loaded
// sign moves the roll root and the Dutch-roll damping ratio toward AVL's,
// from the uncoupled model (the loader before it coupled AVL files), from the
// opposite stability-axis sign and from the opposite body-axis sign (Ixz =
// −60 087 in stability axes). The Dutch-roll frequency moves the other way
// (uncoupled 1.968, coupled 2.027, AVL 1.923 rad/s; the body-flipped 1.997):
// that part of the gap is not Ixz (README, "AVL files").
TEST(LoadAvlIxz, TheMassFilesIxzSignMovesTheLateralModesTowardAvls) {
  const AvlMassBodyAxes body = ToBodyAxes(ReadAvlMassFile(kAvlDir + "b737.mass"));  // kg, m
  ASSERT_LT(body.Ixz, 0.0);  // AVL prints Izx = +26994.4, the tensor entry
  const LoadResult bundled = LoadAircraftFile(kAvlDir + "b737.toml");
  const model::MassProperties& m = bundled.aircraft.mass;  // stability axes
  auto typed = [&](const char* axes, double Ix, double Iz, double Ixz) {
    return LoadAircraftString(
        B737TomlWithMass(kAvlDir + "b737_classic.st",
                         fmt::format("axes = \"{}\"\nm = {:.17g}\nIx = {:.17g}\nIy = {:.17g}\nIz = {:.17g}\n"
                                     "Ixz = {:.17g}",
                                     axes, body.m, Ix, body.Iy, Iz, Ixz)),
        "typed.toml");
  };
  // The .mass file's totals typed as body axes give the bundled file's A.
  const LoadResult same = typed("body", body.Ix, body.Iz, body.Ixz);
  EXPECT_LE(RelativeDifference(model::BuildLateral(same.aircraft).A(), model::BuildLateral(bundled.aircraft).A()),
            1e-12);
  EXPECT_NEAR(*m.Ixz, -113955.0, 0.5);
  auto modes = [](const LoadResult& r) {
    std::vector<std::complex<double>> roots = Eigenvalues(model::BuildLongitudinal(r.aircraft).A());
    const auto lat = Eigenvalues(model::BuildLateral(r.aircraft).A());
    roots.insert(roots.end(), lat.begin(), lat.end());
    return Classify(roots);
  };
  const auto zeta = [](std::complex<double> z) { return -z.real() / std::abs(z); };
  const B737Modes avl = AvlModes(), loaded = modes(bundled);
  const B737Modes uncoupled = modes(typed("stability", *m.Ix, *m.Iz, 0.0));
  const B737Modes stability_flipped = modes(typed("stability", *m.Ix, *m.Iz, -*m.Ixz));
  const B737Modes body_flipped = modes(typed("body", body.Ix, body.Iz, -body.Ixz));
  for (const B737Modes* other : {&uncoupled, &stability_flipped, &body_flipped}) {
    EXPECT_LT(std::abs(loaded.roll - avl.roll), std::abs(other->roll - avl.roll));
    EXPECT_LT(std::abs(zeta(loaded.dutch_roll) - zeta(avl.dutch_roll)),
              std::abs(zeta(other->dutch_roll) - zeta(avl.dutch_roll)));
  }
  EXPECT_LT(std::abs(loaded.dutch_roll - avl.dutch_roll), std::abs(stability_flipped.dutch_roll - avl.dutch_roll));
  // The numbers data/derivatives/README.md ("AVL files") quotes.
  ExpectPrinted(uncoupled.roll, -2.769, 1e-3, "uncoupled roll");
  ExpectPrinted(uncoupled.dutch_roll.real(), -0.2219, 1e-4, "uncoupled dutch roll");
  ExpectPrinted(uncoupled.dutch_roll.imag(), 1.956, 1e-3, "uncoupled dutch roll");
  ExpectPrinted(std::abs(uncoupled.dutch_roll), 1.968, 1e-3, "uncoupled dutch roll wn");
  ExpectPrinted(zeta(uncoupled.dutch_roll), 0.113, 1e-3, "uncoupled dutch roll zeta");
  ExpectPrinted(stability_flipped.roll, -2.92, 1e-2, "stability Ixz flipped: roll");
  ExpectPrinted(zeta(stability_flipped.dutch_roll), 0.072, 1e-3, "stability Ixz flipped: zeta");
  ExpectPrinted(body_flipped.roll, -2.705, 1e-3, "body Ixz flipped: roll");
  ExpectPrinted(zeta(body_flipped.dutch_roll), 0.135, 1e-3, "body Ixz flipped: zeta");
  ExpectPrinted(std::abs(body_flipped.dutch_roll), 1.997, 1e-3, "body Ixz flipped: wn");
  EXPECT_NEAR(*typed("body", body.Ix, body.Iz, -body.Ixz).aircraft.mass.Ixz, -60087.0, 0.5);
  // The Dutch-roll frequency is not: coupling raises ωn away from AVL's.
  EXPECT_GT(std::abs(loaded.dutch_roll), std::abs(uncoupled.dutch_roll));
  EXPECT_GT(std::abs(uncoupled.dutch_roll), std::abs(avl.dutch_roll));
}

// [controls.NAME] beside avl_st: limits and unit of the .st's controls, by
// AVL's names; the derivatives stay the .st's.
TEST(LoadAvlControls, LimitsReachTheControlsAndLeaveTheDerivatives) {
  const std::string base = B737Toml(kAvlDir + "b737_classic.st");
  const LoadResult plain = LoadAircraftString(base, "p.toml");
  const LoadResult limited = LoadAircraftString(
      base + "\n[controls.elevator]\nmin = -0.35\nmax = 0.26\n\n[controls.rudder]\nmax = 0.4\n", "l.toml");
  EXPECT_TRUE(limited.warnings.empty());
  const std::vector<model::Control>& c = limited.aircraft.controls;
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[3].name, "elevator");
  EXPECT_EQ(c[3].min, -0.35);
  EXPECT_EQ(c[3].max, 0.26);
  EXPECT_FALSE(c[4].min);
  EXPECT_EQ(c[4].max, 0.4);
  EXPECT_FALSE(c[0].min || c[0].max || c[2].min || c[2].max);
  for (auto build : {&model::BuildLongitudinal, &model::BuildLateral})
    EXPECT_EQ(build(limited.aircraft).B(), build(plain.aircraft).B());
  ASSERT_TRUE(limited.from_coefficients);
  EXPECT_EQ(limited.from_coefficients->controls[3].min, -0.35);
}

// unit = "1": AVL's control variable as it is (a gain other than 1 deg per
// unit), its derivatives per unit as printed; by default per degree → per rad.
// Oracle: M_δ = ½ρV²S c Cm_δ (Etkin & Reid Table 4.5) with the printed Cmd4.
TEST(LoadAvlControls, UnitOneTakesTheDerivativesAsPrinted) {
  const double qS = 0.5 * 0.38 * 250.0 * 250.0 * 1260.0 * 0.3048 * 0.3048;
  const double c = 11.0 * 0.3048;
  const std::string base = B737Toml(kAvlDir + "b737_classic.st");
  const LoadResult per_rad = LoadAircraftString(base, "r.toml");
  const LoadResult per_unit = LoadAircraftString(base + "\n[controls.elevator]\nunit = \"1\"\n", "u.toml");
  EXPECT_NEAR(per_rad.from_coefficients->controls[3].M, qS * c * -0.071575 * 180.0 / M_PI, 1e-9 * qS * c * 4.1);
  EXPECT_NEAR(per_unit.from_coefficients->controls[3].M, qS * c * -0.071575, 1e-9 * qS * c * 0.0716);
  EXPECT_EQ(per_unit.aircraft.controls[3].unit, core::Unit::kOne);
  EXPECT_EQ(per_unit.aircraft.controls[2].unit, core::Unit::kRadian);
  EXPECT_NE(std::find(per_unit.avl_notes.begin(), per_unit.avl_notes.end(),
                      "control 'elevator': unit = \"1\", its derivatives are per unit of AVL's control "
                      "variable as printed (not converted from per degree)"),
            per_unit.avl_notes.end());
}

// CD where the .st prints no drag row for the control (no CDd, no CDffd):
// C_Xδ = −C_Dδ, X_δ = ½ρV²S C_Xδ.
TEST(LoadAvlControls, DragOfAControlTheFileGivesNoneFor) {
  std::string st = core::ReadInputFile(kAvlDir + "b737_classic.st");
  const auto row = st.find(" Trefftz drag|");
  ASSERT_NE(row, std::string::npos);
  st.erase(row, st.find('\n', row) + 1 - row);
  const std::string path = (std::filesystem::path(::testing::TempDir()) / ("no_drag_rows_" + std::to_string(::getpid()) + ".st")).string();
  { std::ofstream(path) << st; }
  const double qS = 0.5 * 0.38 * 250.0 * 250.0 * 1260.0 * 0.3048 * 0.3048;
  const LoadResult r = LoadAircraftString(B737Toml(path) + "\n[controls.flap]\nCD = 0.08\n", "d.toml");
  EXPECT_NEAR(r.from_coefficients->controls[1].X, -qS * 0.08, 1e-12 * qS);
  EXPECT_EQ(r.from_coefficients->controls[3].X, 0.0);  // elevator: no drag row, none given
}

TEST(LoadAvlControls, ANameTheFileLacksOrADerivativeGivenTwiceIsAnError) {
  const std::string base = B737Toml(kAvlDir + "b737_classic.st");
  EXPECT_EQ(ErrorOf(base + "\n[controls.elevatr]\nmax = 0.3\n", "n.toml"),
            "n.toml:40: control 'elevatr' is not in b737_classic.st (its controls: slat, flap, aileron, "
            "elevator, rudder); did you mean 'elevator'? ([controls.NAME] beside avl_st sets limits of "
            "AVL's controls, by AVL's names)");
  EXPECT_EQ(ErrorOf(base + "\n[controls.elevator]\nmax = 0.3\nCm = -4.1\nCD = 0.03\n", "t.toml"),
            "t.toml:42: 'Cm' of control 'elevator' is given twice: here and by b737_classic.st:61 (Cmd4); "
            "remove it here (the .st file's value is used)\n"
            "t.toml:43: 'CD' of control 'elevator' is given twice: here and by b737_classic.st:63 "
            "(CDffd4); remove it here (the .st file's value is used)");
  EXPECT_EQ(ErrorOf(base + "\n[controls.aileron]\nper_degree = true\nL = 0.1\nmx = 0.2\n", "k.toml"),
            "k.toml:41: per_degree: AVL's control derivatives are always per degree of its control "
            "variable and are converted to per rad on load (remove per_degree)\n"
            "k.toml:42: unknown key 'L' in [controls.aileron] (beside avl_st a control takes min, max "
            "and unit; its derivatives come from b737_classic.st)\n"
            "k.toml:43: unknown key 'mx' in [controls.aileron] (did you mean 'max'?)");
  EXPECT_EQ(ErrorOf(base + "\n[controls.rudder]\nmin = 0.3\nmax = 0.2\nunit = \"deg\"\n", "m.toml"),
            "m.toml:41: control 'rudder': min must be < max\n"
            "m.toml:43: unknown control unit 'deg' (expected \"rad\" or \"1\"; give deflection derivatives "
            "per rad)");
}

// One defect, one line: a limit that is not a number is reported once (the
// limits are read by one helper for AVL's controls and every other form's).
TEST(LoadAvlControls, ANonNumericLimitIsOneDefect) {
  EXPECT_EQ(ErrorOf(B737Toml(kAvlDir + "b737_classic.st") + "\n[controls.elevator]\nmin = \"x\"\n", "x.toml"),
            "x.toml:41: 'min' in [controls.elevator] must be a number");
  std::string p2v7 = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  p2v7.replace(p2v7.find("[controls.elevator]\n"), 20, "[controls.elevator]\nmax = \"x\"\n");
  const std::string message = ErrorOf(p2v7, "p.toml");
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(": 'max' in [controls.elevator] must be a number"), std::string::npos) << message;
}

TEST(LoadAvlControls, LimitsThatLookLikeDegreesAreWarned) {
  const LoadResult r = LoadAircraftString(
      B737Toml(kAvlDir + "b737_classic.st") + "\n[controls.elevator]\nmin = -20\nmax = 15\n", "w.toml");
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0].where.line, 41);
  EXPECT_EQ(r.warnings[0].message, "control 'elevator' min = -20 rad is -1146 deg; limits are in rad");
}

// The .mass file's g and rho (AVL's run-case defaults, in the units its
// Lunit/Munit/Tunit lines name) against the TOML's condition: within 2 %
// nothing; beyond, a warning at the .mass line; the TOML's values are used.
class LoadAvlMassCondition : public ::testing::Test {
 protected:
  // The bundled mass file with `from` replaced by `to`, written to a temporary file.
  std::string MassWith(const std::string& from, const std::string& to) {
    const std::string text = test_support::Edit(core::ReadInputFile(kAvlDir + "b737.mass"), from, to);
    const std::string path =
        (std::filesystem::path(::testing::TempDir()) / ("condition_" + std::to_string(::getpid()) + "_" + std::to_string(count_++) + ".mass")).string();
    std::ofstream(path) << text;
    return path;
  }
  int count_ = 0;
};

// Warnings come in file order: the TOML's own (here Ixz at its line 42 or so)
// before the .st's (CLtot at line 24), not interleaved by line number.
TEST(LoadAvl, WarningsListTheTomlFirstThenEachNamedFile) {
  std::string text = B737Toml(kAvlDir + "b737_classic.st");
  const auto replace = [&text](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, text.find('\n', at) - at, to);
  };
  replace("U0 = 250.0", "U0 = 230.0");  // CLtot no longer C_W0: a warning at the .st
  replace("avl_mass = ", "m = 70000.0\nIx = 711405.0\nIy = 3.5e6\nIz = 4.1e6\nIxz = -1.5e6");  // |Ixz| large
  const LoadResult r = LoadAircraftString(text, "order.toml");
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0].where.path, "order.toml");
  EXPECT_GT(r.warnings[0].where.line, 30);
  EXPECT_EQ(r.warnings[1].where.path, kAvlDir + "b737_classic.st");
  EXPECT_LT(r.warnings[1].where.line, r.warnings[0].where.line);
}

TEST_F(LoadAvlMassCondition, GAndRhoAgreeingWithinTwoPercentDrawNothing) {
  // g = 9.6 (2.1 % low) warns; 9.62 (1.9 %) does not; the model's g is the TOML's.
  const std::string st = kAvlDir + "b737_classic.st";
  EXPECT_TRUE(LoadAircraftString(B737Toml(st, MassWith("g   = 9.81", "g   = 9.62")), "a.toml").warnings.empty());
  const std::string low = MassWith("g   = 9.81", "g   = 9.6");
  const LoadResult r = LoadAircraftString(B737Toml(st, low), "b.toml");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].where.path, low);
  EXPECT_EQ(r.warnings[0].where.line, 18);
  EXPECT_EQ(r.warnings[0].message,
            "g: g = 9.6 m/s^2 differs from the TOML's g = 9.81 m/s^2 by 2.141 %, more than 2 %: AVL's "
            "run case takes g from the mass file, so the .st's trim may be for another g; aerolin uses "
            "the TOML's (make the two agree)");
  EXPECT_EQ(r.aircraft.condition.g, 9.81);
}

// With "Lunit = 1.0 ft" the totals are the same in SI (0.3048 m), but g and rho
// are read in ft/s² and kg/ft³: 32.2 ft/s² = 9.815 m/s² agrees, the bundled
// 9.81 (= 2.99 m/s²) and 0.38 kg/ft³ (= 13.42 kg/m³) do not.
TEST_F(LoadAvlMassCondition, GAndRhoAreInTheUnitsTheMassFileNames) {
  const std::string st = kAvlDir + "b737_classic.st";
  const std::string feet = MassWith("Lunit = 0.3048 m", "Lunit = 1.0 ft");
  const LoadResult r = LoadAircraftString(B737Toml(st, feet), "f.toml");
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0].message,
            "g: g = 9.81 ft/s^2 (2.99 m/s^2) differs from the TOML's g = 9.81 m/s^2 by 69.52 %, more "
            "than 2 %: AVL's run case takes g from the mass file, so the .st's trim may be for another "
            "g; aerolin uses the TOML's (make the two agree)");
  EXPECT_EQ(r.warnings[1].where.line, 19);
  EXPECT_EQ(r.warnings[1].message,
            "rho: rho = 0.38 kg/ft^3 (13.42 kg/m^3) differs from 0.38 kg/m^3, [condition] rho, by "
            "3431 %, more than 2 %: AVL's run case takes its density from the mass file, so the .st's "
            "trim (CLtot) may be for another density; aerolin uses the TOML's (make the two agree)");
  // Same totals as the bundled file: the mass is read the same way.
  EXPECT_NEAR(*r.aircraft.mass.m, *LoadAircraftFile(kAvlDir + "b737.toml").aircraft.mass.m, 1e-9);
  std::string text = core::ReadInputFile(feet);
  text.replace(text.find("g   = 9.81"), 10, "g   = 32.2");
  text.replace(text.find("rho = 0.38"), 10, "rho = 0.01076");  // 0.38 kg/m³ in kg/ft³
  { std::ofstream(feet) << text; }
  EXPECT_TRUE(LoadAircraftString(B737Toml(st, feet), "f.toml").warnings.empty());
}

TEST_F(LoadAvlMassCondition, RhoFromTheAltitudeAndAMissingTimeUnit) {
  // altitude = 10 km: the standard atmosphere's 0.4135 kg/m³ against the mass file's 0.38.
  std::string text = B737Toml(kAvlDir + "b737_classic.st");
  text.replace(text.find("\nrho = 0.38 ") + 1, 11, "altitude = 10000.0 ");
  const LoadResult r = LoadAircraftString(text, "h.toml");
  const auto rho = std::find_if(r.warnings.begin(), r.warnings.end(),
                                [](const core::Diagnostic& d) { return d.message.rfind("rho: ", 0) == 0; });
  ASSERT_NE(rho, r.warnings.end());
  EXPECT_EQ(rho->message,
            "rho: rho = 0.38 kg/m^3 differs from 0.4135 kg/m^3, the 1976 standard atmosphere at "
            "[condition] altitude, by 8.104 %, more than 2 %: AVL's run case takes its density from "
            "the mass file, so the .st's trim (CLtot) may be for another density; aerolin uses the "
            "TOML's (make the two agree)");
  const LoadResult t =
      LoadAircraftString(B737Toml(kAvlDir + "b737_classic.st", MassWith("Tunit = 1.0    s", "")), "t.toml");
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(t.warnings[0].message,
            "g: g = 9.81 m/Tunit^2 cannot be compared with the TOML's g: the mass file's Tunit line "
            "names no time unit aerolin knows (s); add 'Tunit = 1.0 s'");
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

// LoadResult::files lists every file the load read, so that no output of
// the run replaces one (core::CheckOutputPath): the TOML, then the .st and
// .mass it names, relative to it; a dimensional file is alone; a TOML given
// as text is not itself a file read.
TEST(LoadAvl, ListsEveryFileItRead) {
  const LoadResult avl = LoadAircraftFile(kAvlDir + "b737.toml");
  EXPECT_EQ(avl.files, (std::vector<std::string>{kAvlDir + "b737.toml", kAvlDir + "b737_classic.st",
                                                 kAvlDir + "b737.mass"}));
  const std::string p2v7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";
  EXPECT_EQ(LoadAircraftFile(p2v7).files, std::vector<std::string>{p2v7});
  const LoadResult text = LoadAircraftString(B737Toml(kAvlDir + "b737_machine.st"), "inline.toml");
  EXPECT_EQ(text.files,
            (std::vector<std::string>{kAvlDir + "b737_machine.st", kAvlDir + "b737.mass"}));
}

}  // namespace
}  // namespace aerolin::data
