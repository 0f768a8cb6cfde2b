// Exact eigenvalue sensitivities against central finite differences of the
// whole chain: the key's value edited in the file text, loaded, built, solved.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <fmt/format.h>

#include "aerolin/analysis/sensitivity.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/core/files.hpp"
#include "data/edited_avl.hpp"

namespace aerolin::analysis {
namespace {

using testing::WithValue;

// `path`: the file the text was read from (an AVL file's .st is beside it).
std::complex<double> Root(const std::string& text, const Mode& like, const std::string& path) {
  const data::LoadResult load = data::LoadAircraftString(text, path);
  const ModalAnalysis a = AnalyzeModes(load.aircraft);
  const Mode* best = nullptr;
  for (const Mode& m : a.modes(like.axis))
    if (m.kind == like.kind && (!best || std::abs(m.lambda - like.lambda) < std::abs(best->lambda - like.lambda)))
      best = &m;
  return best->lambda;
}

// Every mode's exact dλ/dp for every key of the file at `path` against the
// central difference of loading the file with the key edited.
void ExpectMatchesCentralDifferences(const std::string& path) {
  const std::string text = core::ReadInputFile(path);
  const data::LoadResult load = data::LoadAircraftString(text, path);
  ASSERT_FALSE(load.file.keys.empty()) << path;
  const std::vector<ModeSensitivity> all = ModeSensitivities(load.file);
  ASSERT_FALSE(all.empty());
  for (const ModeSensitivity& s : all) {
    // A key left out as not entering A must not move the root either (a key
    // the chain failed to differentiate would be left out too).
    for (const model::WrittenKey& key : load.file.keys) {
      if (std::any_of(s.keys.begin(), s.keys.end(), [&](const KeySensitivity& k) { return k.key == key.path; }))
        continue;
      const double h = 1e-4 * (key.value != 0.0 ? std::abs(key.value) : 1.0);
      const std::complex<double> d = (Root(WithValue(text, key.path, key.value + h, path), s.mode, path) -
                                      Root(WithValue(text, key.path, key.value - h, path), s.mode, path)) / (2.0 * h);
      EXPECT_LE(std::abs(d), 3e-13 * std::max(1.0, std::abs(s.mode.lambda)) / h)
          << path << " " << s.mode.full_name() << " d/d" << key.path << " left out but fd " << d;
    }
    for (const KeySensitivity& k : s.keys) {
      // Step: 1e-4 of the value (1e-4 of a unit for a zero key). The central
      // difference errs by O(h²) (estimated as |D(2h) − D(h)|·4/3, Richardson)
      // plus rounding ε|λ|/h; the tolerance is three times their sum.
      const double h = 1e-4 * (k.value != 0.0 ? std::abs(k.value) : 1.0);
      auto central = [&](double step) {
        return (Root(WithValue(text, k.key, k.value + step, path), s.mode, path) -
                Root(WithValue(text, k.key, k.value - step, path), s.mode, path)) / (2.0 * step);
      };
      const std::complex<double> d1 = central(h), d2 = central(2.0 * h);
      const double tol = 3.0 * (4.0 / 3.0 * std::abs(d2 - d1) +
                                1e-13 * std::max(1.0, std::abs(s.mode.lambda)) / h) + 1e-15;
      EXPECT_LE(std::abs(k.dlambda - d1), tol)
          << path << " " << s.mode.full_name() << " d/d" << k.key << ": exact "
          << k.dlambda << " fd " << d1;
    }
  }
}

TEST(ModeSensitivities, MatchCentralDifferencesOfLoadBuildSolve) {
  // Includes the 747 in Etkin's coefficient form (force family): its keys go
  // through the coefficient conversion.
  for (const auto& e : std::filesystem::directory_iterator(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives"))
    if (e.path().extension() == ".toml") ExpectMatchesCentralDifferences(e.path().string());
}

TEST(ModeSensitivities, MatchCentralDifferencesThroughTheCoefficientConversion) {
  // The lift/drag family typed per degree (values per degree as written),
  // W, body-axis inertias rotated by alpha0, a climb; and a mixed file
  // (coefficients longitudinal, raw unprimed lateral) whose U0 is mach · a.
  for (const char* name : {"valid_coefficients_lift_drag_per_degree_body_axes.toml",
                           "valid_coefficients_mixed_mach_altitude.toml"})
    ExpectMatchesCentralDifferences(std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/derivatives/" + name);
}

TEST(ModeSensitivities, MatchCentralDifferencesOfAnAvlFile) {
  // The TOML's keys (U0, rho, g, theta0) and the .st's numbers (avl.CLa,
  // avl.Sref, avl.Alpha rotating the .mass file's inertias ...), each edited
  // in its own file: through the AVL conversion, the Ixz coupling and the
  // coefficient conversion.
  ExpectMatchesCentralDifferences(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml");
}

TEST(ModeSensitivities, MatchCentralDifferencesOfAnAvlFileThatPrintsCDa) {
  // AVL 3.52's machine format prints CDa, so CLa and CLtot are keys too.
  const std::string dir = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/";
  std::string text = core::ReadInputFile(dir + "b737.toml");
  text = std::regex_replace(text, std::regex("\"b737_classic.st\""), "\"" + dir + "b737_machine.st\"");
  text = std::regex_replace(text, std::regex("\"b737.mass\""), "\"" + dir + "b737.mass\"");
  const std::string path = (std::filesystem::path(::testing::TempDir()) / "b737_machine.toml").string();
  { std::ofstream(path) << text; }
  const data::LoadResult load = data::LoadAircraftFile(path);
  for (const char* key : {"avl.CLa", "avl.CLtot", "avl.CDa", "avl.CDq", "avl.Alpha"})
    EXPECT_NE(load.file.Find(key), nullptr) << key;
  ExpectMatchesCentralDifferences(path);
}

TEST(EigenvalueDerivative, OfADiagonalEntryIsOneForItsRoot) {
  Eigen::MatrixXd dA = Eigen::MatrixXd::Zero(2, 2);
  dA(0, 0) = 1.0;
  Eigen::VectorXcd v(2), w(2);
  v << 1.0, 0.0;
  w << 2.0, 0.0;  // any scale: the formula divides by wᴴv
  EXPECT_NEAR(std::abs(EigenvalueDerivative(w, v, dA) - 1.0), 0.0, 1e-15);
}

}  // namespace
}  // namespace aerolin::analysis
