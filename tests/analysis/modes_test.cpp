#include "aerolin/analysis/modes.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <toml++/toml.h>
#include <utility>
#include <vector>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "analysis/oracles.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::analysis {
namespace {

using oracles::Load;
using oracles::PolynomialFromRoots;

using cd = std::complex<double>;

// Vieta / polynomial comparisons: coefficients of a 4th–5th order
// polynomial with entries O(1..100) computed in double precision.
constexpr double kPolynomialTolerance = 1e-9;
// ‖A v − λ v‖ / ‖v‖ for a backward-stable eigen-solver on O(100) entries.
constexpr double kResidualTolerance = 1e-10;

// Characteristic polynomial det(sI − A) = s^n + c[1] s^{n−1} + … + c[n] by the
// Faddeev–LeVerrier recursion: an oracle that shares nothing with Eigen's QR.
std::vector<double> CharacteristicPolynomial(const Eigen::MatrixXd& A) {
  const Eigen::Index n = A.rows();
  std::vector<double> c(n + 1, 0.0);
  c[0] = 1.0;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
  for (Eigen::Index k = 1; k <= n; ++k) {
    M = A * M + c[k - 1] * I;
    c[k] = -(A * M).trace() / static_cast<double>(k);
  }
  return c;
}

// All roots (expanding pairs) that a mode list reports.
std::vector<cd> AllRoots(const std::vector<Mode>& modes) {
  std::vector<cd> roots;
  for (const Mode& m : modes) {
    roots.push_back(m.lambda);
    if (m.oscillatory) roots.push_back(std::conj(m.lambda));
  }
  return roots;
}

void ExpectRootsMatchCharacteristicPolynomial(const Eigen::MatrixXd& A, const std::vector<Mode>& modes) {
  const std::vector<double> expected = CharacteristicPolynomial(A);
  const std::vector<double> got = PolynomialFromRoots(AllRoots(modes));
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], expected[i], kPolynomialTolerance * std::max(1.0, std::abs(expected[i])))
        << "coefficient of s^" << (got.size() - 1 - i);
}

void ExpectShapesAreEigenvectors(const Eigen::MatrixXd& A, const std::vector<Mode>& modes) {
  for (const Mode& m : modes) {
    if (m.kind == ModeKind::kSpiral && std::abs(m.lambda) == 0.0) continue;
    const Eigen::VectorXcd residual = A.cast<cd>() * m.shape - m.lambda * m.shape;
    EXPECT_LT(residual.norm() / m.shape.norm(), kResidualTolerance) << m.full_name();
    EXPECT_NEAR(std::abs(m.shape(m.reference_state) - cd(1.0)), 0.0, 1e-12) << m.full_name();
  }
}

// Left vectors: ‖wᴴA − λwᴴ‖ small and wᴴ·shape = 1; the axis is the model's.
void ExpectLeftVectorsAndAxis(const Eigen::MatrixXd& A, const std::vector<Mode>& modes,
                              model::Axis axis) {
  for (const Mode& m : modes) {
    EXPECT_EQ(m.axis, axis) << m.full_name();
    ASSERT_EQ(m.left.size(), A.rows()) << m.full_name();
    const Eigen::RowVectorXcd wh = m.left.adjoint();
    EXPECT_LT((wh * A.cast<cd>() - m.lambda * wh).norm() / m.left.norm(), kResidualTolerance)
        << m.full_name();
    EXPECT_NEAR(std::abs(m.left.dot(m.shape) - cd(1.0)), 0.0, 1e-9) << m.full_name();
  }
}

std::vector<ModeKind> Kinds(const std::vector<Mode>& modes) {
  std::vector<ModeKind> kinds;
  for (const Mode& m : modes) kinds.push_back(m.kind);
  return kinds;
}

class BundledAircraft : public testing::TestWithParam<const char*> {};

TEST_P(BundledAircraft, RootsMatchCharacteristicPolynomialAndShapesAreEigenvectors) {
  const model::AircraftData a = Load(GetParam());
  const model::StateSpace lon = model::BuildLongitudinal(a);
  const model::StateSpace lat = model::BuildLateral(a);
  const std::vector<Mode> lon_modes = AnalyzeLongitudinal(lon, a.condition.U0);
  const std::vector<Mode> lat_modes = AnalyzeLateral(lat);
  ExpectRootsMatchCharacteristicPolynomial(lon.A(), lon_modes);
  ExpectRootsMatchCharacteristicPolynomial(lat.A(), lat_modes);
  ExpectShapesAreEigenvectors(lon.A(), lon_modes);
  ExpectShapesAreEigenvectors(lat.A(), lat_modes);
  ExpectLeftVectorsAndAxis(lon.A(), lon_modes, model::Axis::kLongitudinal);
  ExpectLeftVectorsAndAxis(lat.A(), lat_modes, model::Axis::kLateral);
  EXPECT_EQ(Kinds(lon_modes), (std::vector<ModeKind>{ModeKind::kShortPeriod, ModeKind::kPhugoid}));
  const std::vector<ModeKind> lat_kinds = Kinds(lat_modes);
  for (ModeKind k : {ModeKind::kDutchRoll, ModeKind::kRollSubsidence, ModeKind::kSpiral})
    EXPECT_EQ(std::count(lat_kinds.begin(), lat_kinds.end(), k), 1) << ToString(k);
  EXPECT_EQ(lat_kinds.back(), ModeKind::kHeading);
}

// The light naming a sweep uses at every point equals AnalyzeLongitudinal's
// and AnalyzeLateral's (heading aside) for the same decomposition, here also
// at perturbed derivatives that change the structure (overdamped short
// period, two real Dutch-roll roots).
TEST_P(BundledAircraft, RootNamesEqualTheFullAnalysis) {
  const model::AircraftData a = Load(GetParam());
  auto expect_same = [](const std::vector<RootName>& light, const std::vector<Mode>& full,
                        const std::string& what) {
    std::vector<const Mode*> modes;
    for (const Mode& m : full)
      if (m.kind != ModeKind::kHeading) modes.push_back(&m);
    ASSERT_EQ(light.size(), modes.size()) << what;
    for (std::size_t i = 0; i < light.size(); ++i) {
      EXPECT_EQ(light[i].full_name(), modes[i]->full_name()) << what << " " << i;
      EXPECT_EQ(light[i].lambda, modes[i]->lambda) << what << " " << i;
      EXPECT_EQ(light[i].oscillatory, modes[i]->oscillatory) << what << " " << i;
    }
  };
  for (double scale : {1.0, 8.0, 0.05}) {
    model::StateSpace lon = model::BuildLongitudinal(a);
    Eigen::MatrixXd A = lon.A();
    A(model::lon::kQ, model::lon::kQ) *= scale;  // M_q: short-period damping
    const model::StateSpace lon_scaled(A, lon.B(), lon.states(), lon.inputs());
    const EigenDecomposition eig = Decompose(A, LeftVectors::kIfDiagonalizable);
    expect_same(NameLongitudinalRoots(eig.values, eig.right, a.condition.U0),
                AnalyzeLongitudinal(lon_scaled, a.condition.U0), "lon x" + std::to_string(scale));
    model::StateSpace lat = model::BuildLateral(a);
    Eigen::MatrixXd L = lat.A();
    L(model::lat::kR, model::lat::kR) *= scale;  // N_r: Dutch-roll damping
    const model::StateSpace lat_scaled(L, lat.B(), lat.states(), lat.inputs());
    const EigenDecomposition block = Decompose(L.topLeftCorner(4, 4), LeftVectors::kIfDiagonalizable);
    expect_same(NameLateralRoots(block.values, block.right), AnalyzeLateral(lat_scaled),
                "lat x" + std::to_string(scale));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BundledAircraft,
                         testing::Values("p2v7.toml", "boeing747_cruise_40kft.toml",
                                         "nt33a_power_approach_sl.toml", "navion_cruise_sl.toml",
                                         "a7a_clean_m025_sl.toml"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

TEST(AnalyzeModes, EqualsBothAxesAnalysedSeparately) {
  const model::AircraftData a = Load("p2v7.toml");
  const ModalAnalysis result = AnalyzeModes(a);
  const std::vector<Mode> lon = AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0);
  const std::vector<Mode> lat = AnalyzeLateral(model::BuildLateral(a));
  ASSERT_EQ(result.longitudinal.size(), lon.size());
  ASSERT_EQ(result.lateral.size(), lat.size());
  for (std::size_t i = 0; i < lon.size(); ++i) {
    EXPECT_EQ(result.longitudinal[i].full_name(), lon[i].full_name());
    EXPECT_EQ(result.longitudinal[i].lambda, lon[i].lambda);
  }
  for (std::size_t i = 0; i < lat.size(); ++i) {
    EXPECT_EQ(result.lateral[i].full_name(), lat[i].full_name());
    EXPECT_EQ(result.lateral[i].lambda, lat[i].lambda);
  }
  EXPECT_EQ(result.longitudinal_model.A(), model::BuildLongitudinal(a).A());
  EXPECT_EQ(&result.modes(model::Axis::kLateral), &result.lateral);
  ASSERT_NE(result.Find(ModeKind::kDutchRoll), nullptr);
  EXPECT_EQ(result.Find(ModeKind::kDutchRoll)->axis, model::Axis::kLateral);
  EXPECT_EQ(result.Find(ModeKind::kPhugoid)->axis, model::Axis::kLongitudinal);
}

TEST(PublishedModes, EveryFixtureModeWithinPrintedPrecision) {
  const toml::table fixture =
      toml::parse_file(std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/published_modes.toml");
  const toml::array* aircraft = fixture["aircraft"].as_array();
  ASSERT_NE(aircraft, nullptr);
  int checked = 0;
  for (const toml::node& node : *aircraft) {
    const toml::table& entry = *node.as_table();
    const std::string file = entry["file"].value_or(std::string());
    const model::AircraftData a = Load(file);
    std::vector<Mode> modes = AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0);
    const std::vector<Mode> lat = AnalyzeLateral(model::BuildLateral(a));
    modes.insert(modes.end(), lat.begin(), lat.end());
    for (const toml::node& m : *entry["mode"].as_array()) {
      const toml::table& mode = *m.as_table();
      const std::string name = mode["name"].value_or(std::string());
      const auto found = std::find_if(modes.begin(), modes.end(),
                                      [&](const Mode& x) { return ToString(x.kind) == name; });
      ASSERT_NE(found, modes.end()) << file << ": no mode named " << name;
      EXPECT_NEAR(found->lambda.real(), mode["real"].value_or(0.0), mode["tol_real"].value_or(0.0))
          << file << " " << name;
      EXPECT_NEAR(found->lambda.imag(), mode["imag"].value_or(0.0), mode["tol_imag"].value_or(0.0))
          << file << " " << name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 29);
}

// A coefficient file and the dimensional file of the same aircraft and
// condition (the same source's two tables) give the same modes: both models'
// derivatives lie within the printed tables' rounding, so their eigenvalues
// differ by less than the rounding bound the fixture gives the coefficient
// file (tests/fixtures/published_modes.toml, which says how it was derived).
TEST(PublishedModes, CoefficientFilesGiveTheirDimensionalFilesModes) {
  const toml::table fixture =
      toml::parse_file(std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/published_modes.toml");
  const std::pair<std::string, std::string> pairs[] = {
      {"boeing747_cruise_40kft_coefficients.toml", "boeing747_cruise_40kft.toml"},
      {"navion_cruise_sl_coefficients.toml", "navion_cruise_sl.toml"}};
  auto modes_of = [](const std::string& file) {
    const model::AircraftData a = Load(file);
    std::vector<Mode> modes = AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0);
    const std::vector<Mode> lat = AnalyzeLateral(model::BuildLateral(a));
    modes.insert(modes.end(), lat.begin(), lat.end());
    return modes;
  };
  int checked = 0;
  for (const auto& [coefficients, dimensional] : pairs) {
    const toml::table* entry = nullptr;
    for (const toml::node& node : *fixture["aircraft"].as_array())
      if (node.as_table()->at_path("file").value_or(std::string()) == coefficients) entry = node.as_table();
    ASSERT_NE(entry, nullptr) << coefficients;
    const std::vector<Mode> from_coefficients = modes_of(coefficients);
    const std::vector<Mode> from_dimensional = modes_of(dimensional);
    for (const toml::node& m : *entry->at_path("mode").as_array()) {
      const toml::table& mode = *m.as_table();
      const std::string name = mode["name"].value_or(std::string());
      auto find = [&](const std::vector<Mode>& modes) {
        const auto found =
            std::find_if(modes.begin(), modes.end(), [&](const Mode& x) { return ToString(x.kind) == name; });
        return found == modes.end() ? nullptr : &*found;
      };
      const Mode* c = find(from_coefficients);
      const Mode* d = find(from_dimensional);
      ASSERT_TRUE(c != nullptr && d != nullptr) << coefficients << ": " << name;
      EXPECT_NEAR(c->lambda.real(), d->lambda.real(), mode["tol_real"].value_or(0.0))
          << coefficients << " " << name;
      EXPECT_NEAR(c->lambda.imag(), d->lambda.imag(), mode["tol_imag"].value_or(0.0))
          << coefficients << " " << name;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 10);
}

TEST(AnalyzeLongitudinal, P2V7PhugoidPeriodWithConsistentUnits) {
  // The seed mixed g = 9.81 m/s² with ft/s data and got a 79.5 s phugoid;
  // with consistent units the period is 43.57 s (numpy on the same matrix).
  const model::AircraftData a = Load("p2v7.toml");
  const std::vector<Mode> modes = AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0);
  const Mode* phugoid = FindMode(modes, ModeKind::kPhugoid);
  ASSERT_NE(phugoid, nullptr);
  EXPECT_NEAR(*phugoid->damped_period, 43.57, 0.01);
  const Mode* sp = FindMode(modes, ModeKind::kShortPeriod);
  EXPECT_NEAR(*sp->damped_period, 3.394, 0.001);
}

TEST(ModeCharacteristics, FollowFromEigenvalue) {
  // A = [[σ, ω], [−ω, σ]] embedded as the (α, q) block: λ = −0.5 ± 2i.
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(4, 4);
  A(1, 1) = -0.5; A(1, 2) = 2.0; A(2, 1) = -2.0; A(2, 2) = -0.5;  // α, q
  A(0, 0) = -0.02; A(3, 3) = -0.01;                                 // u, θ: slow reals
  const model::StateSpace sys(A, Eigen::MatrixXd::Zero(4, 0),
                              model::LongitudinalStateSignals(),
                              {});
  const std::vector<Mode> modes = AnalyzeLongitudinal(sys, 100.0);
  const Mode* sp = FindMode(modes, ModeKind::kShortPeriod);
  ASSERT_NE(sp, nullptr);
  EXPECT_TRUE(sp->oscillatory);
  const double wn = std::sqrt(4.25);
  EXPECT_NEAR(sp->natural_frequency, wn, 1e-12);
  EXPECT_NEAR(sp->damping_ratio, 0.5 / wn, 1e-12);
  EXPECT_NEAR(*sp->damped_period, core::kPi, 1e-12);
  EXPECT_NEAR(*sp->time_to_half, std::log(2.0) / 0.5, 1e-12);
  EXPECT_NEAR(*sp->cycles_to_half, std::log(2.0) / 0.5 / core::kPi, 1e-12);
  EXPECT_FALSE(sp->time_to_double.has_value());
  EXPECT_FALSE(sp->time_constant.has_value());
  // The u-rich and θ-rich real roots form an aperiodic phugoid.
  int aperiodic = 0;
  for (const Mode& m : modes)
    if (m.kind == ModeKind::kPhugoid) {
      EXPECT_FALSE(m.oscillatory);
      EXPECT_EQ(m.qualifier(), "aperiodic");
      EXPECT_TRUE(m.has(ModeFlag::kAperiodic));
      ASSERT_TRUE(m.time_constant.has_value());
      EXPECT_NEAR(*m.time_constant, 1.0 / std::abs(m.lambda.real()), 1e-12);
      ++aperiodic;
    }
  EXPECT_EQ(aperiodic, 2);
}

// Builds A = V Λ V⁻¹ in real Jordan form: each entry of `roots` is a real
// root (imag 0) with one column of `vectors`, or a pair σ ± iω with two
// columns (real and imaginary parts of its eigenvector).
Eigen::MatrixXd FromModes(const std::vector<cd>& roots, const Eigen::MatrixXd& vectors) {
  const Eigen::Index n = vectors.rows();
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
  Eigen::Index col = 0;
  for (const cd& r : roots) {
    if (r.imag() == 0.0) {
      J(col, col) = r.real();
      col += 1;
    } else {
      J(col, col) = r.real();
      J(col + 1, col + 1) = r.real();
      J(col, col + 1) = r.imag();
      J(col + 1, col) = -r.imag();
      col += 2;
    }
  }
  return vectors * J * vectors.inverse();
}

model::StateSpace Longitudinal(const Eigen::MatrixXd& A) {
  return model::StateSpace(A, Eigen::MatrixXd::Zero(4, 0),
                           model::LongitudinalStateSignals(),
                           {});
}

model::StateSpace Lateral(const Eigen::MatrixXd& block4) {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(5, 5);
  A.topLeftCorner(4, 4) = block4;
  A(model::lat::kPsi, model::lat::kR) = 1.0;
  return model::StateSpace(A, Eigen::MatrixXd::Zero(5, 0),
                           model::LateralStateSignals(),
                           {});
}

// Columns: (u, α, q, θ) eigenvectors. α-rich columns for the short period,
// u-rich (u/U0 ≫ α) for the phugoid, with U0 = 100 m/s.
Eigen::MatrixXd LongitudinalVectors() {
  Eigen::MatrixXd V(4, 4);
  V << 2.0, 1.0, 50.0, 20.0,   // u
      1.0, 0.3, 0.01, 0.02,    // α
      0.5, 1.0, 0.05, 0.1,     // q
      0.3, 0.2, 1.0, 0.5;      // θ
  return V;
}

TEST(AnalyzeLongitudinal, NamesOverdampedShortPeriod) {
  const Eigen::MatrixXd A = FromModes({{-3.0, 0}, {-1.5, 0}, {-0.01, 0.15}}, LongitudinalVectors());
  const std::vector<Mode> modes = AnalyzeLongitudinal(Longitudinal(A), 100.0);
  ASSERT_EQ(modes.size(), 3u);
  EXPECT_EQ(modes[0].full_name(), "short period (overdamped)");
  EXPECT_NEAR(modes[0].lambda.real(), -3.0, 1e-9);
  EXPECT_EQ(modes[1].full_name(), "short period (overdamped)");
  EXPECT_EQ(modes[2].full_name(), "phugoid");
  ExpectRootsMatchCharacteristicPolynomial(A, modes);
}

TEST(AnalyzeLongitudinal, NamesAperiodicDivergentPhugoid) {
  const Eigen::MatrixXd A = FromModes({{-1.0, 2.0}, {0.05, 0}, {-0.2, 0}}, LongitudinalVectors());
  const std::vector<Mode> modes = AnalyzeLongitudinal(Longitudinal(A), 100.0);
  ASSERT_EQ(modes.size(), 3u);
  EXPECT_EQ(modes[0].full_name(), "short period");
  EXPECT_EQ(modes[1].full_name(), "phugoid (aperiodic)");
  EXPECT_EQ(modes[2].full_name(), "phugoid (aperiodic, divergent)");
  EXPECT_FALSE(modes[2].stable);
  EXPECT_NEAR(*modes[2].time_to_double, std::log(2.0) / 0.05, 1e-9);
}

TEST(AnalyzeLongitudinal, NamesRepeatedRootsWithoutCrashing) {
  // A defective (Jordan) double root: Eigen returns it split by ~1e-8.
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(4, 4);
  J(0, 0) = -2.0; J(1, 1) = -2.0; J(0, 1) = 1.0;        // SP: double root, Jordan block
  J(2, 2) = -0.01; J(2, 3) = 0.15; J(3, 2) = -0.15; J(3, 3) = -0.01;  // phugoid pair
  const Eigen::MatrixXd V = LongitudinalVectors();
  const Eigen::MatrixXd A = V * J * V.inverse();
  const std::vector<Mode> modes = AnalyzeLongitudinal(Longitudinal(A), 100.0);
  ASSERT_EQ(modes.size(), 3u);
  EXPECT_EQ(modes[0].full_name(), "short period (overdamped, repeated root)");
  EXPECT_EQ(modes[1].full_name(), "short period (overdamped, repeated root)");
  EXPECT_NEAR(modes[0].lambda.real(), -2.0, 1e-6);
  EXPECT_EQ(modes[2].kind, ModeKind::kPhugoid);
}

// Columns: (β, p, r, φ) eigenvectors. β-rich for Dutch roll; p/φ-rich with
// little β for roll and spiral.
Eigen::MatrixXd LateralVectors() {
  Eigen::MatrixXd V(4, 4);
  V << 1.0, 0.5, 0.02, 0.01,   // β
      0.3, 0.8, 2.0, 0.01,     // p
      0.9, 0.4, 0.1, 0.2,      // r
      0.3, 0.2, 1.0, 1.0;      // φ
  return V;
}

TEST(AnalyzeLateral, NamesClassicalModesAndHeading) {
  const Eigen::MatrixXd block = FromModes({{-0.1, 1.0}, {-2.0, 0}, {-0.01, 0}}, LateralVectors());
  const std::vector<Mode> modes = AnalyzeLateral(Lateral(block));
  EXPECT_EQ(Kinds(modes), (std::vector<ModeKind>{ModeKind::kRollSubsidence, ModeKind::kDutchRoll,
                                                 ModeKind::kSpiral, ModeKind::kHeading}));
  EXPECT_EQ(modes.back().lambda, cd(0.0));
  EXPECT_EQ(modes.back().dominant_states, std::vector<std::string>{"psi"});
}

TEST(AnalyzeLateral, NamesDivergentSpiral) {
  const Eigen::MatrixXd block = FromModes({{-0.1, 1.0}, {-2.0, 0}, {0.02, 0}}, LateralVectors());
  const std::vector<Mode> modes = AnalyzeLateral(Lateral(block));
  const Mode* spiral = FindMode(modes, ModeKind::kSpiral);
  ASSERT_NE(spiral, nullptr);
  EXPECT_EQ(spiral->full_name(), "spiral (divergent)");
  EXPECT_FALSE(spiral->stable);
}

TEST(AnalyzeLateral, NamesOverdampedDutchRoll) {
  const Eigen::MatrixXd block = FromModes({{-0.8, 0}, {-0.4, 0}, {-2.0, 0}, {-0.01, 0}}, LateralVectors());
  const std::vector<Mode> modes = AnalyzeLateral(Lateral(block));
  int dutch = 0;
  for (const Mode& m : modes)
    if (m.kind == ModeKind::kDutchRoll) {
      EXPECT_EQ(m.full_name(), "dutch roll (overdamped)");
      ++dutch;
    }
  EXPECT_EQ(dutch, 2);
  EXPECT_NEAR(FindMode(modes, ModeKind::kRollSubsidence)->lambda.real(), -2.0, 1e-9);
  EXPECT_NEAR(FindMode(modes, ModeKind::kSpiral)->lambda.real(), -0.01, 1e-9);
}

TEST(AnalyzeLateral, NamesCoupledRollSpiralOscillation) {
  // Dutch roll pair (β-rich) plus a φ-rich pair: the lateral phugoid.
  const Eigen::MatrixXd block = FromModes({{-0.1, 1.0}, {-0.5, 0.3}}, LateralVectors());
  const std::vector<Mode> modes = AnalyzeLateral(Lateral(block));
  ASSERT_NE(FindMode(modes, ModeKind::kDutchRoll), nullptr);
  const Mode* rs = FindMode(modes, ModeKind::kRollSpiral);
  ASSERT_NE(rs, nullptr);
  EXPECT_EQ(rs->full_name(), "roll-spiral oscillation (lateral phugoid)");
  EXPECT_NEAR(rs->lambda.imag(), 0.3, 1e-9);
}

TEST(AnalyzeLateral, NeutralSpiralStaysDistinctFromHeading) {
  // Spiral exactly neutral: two zero roots in the full 5×5 A.
  const Eigen::MatrixXd block = FromModes({{-0.1, 1.0}, {-2.0, 0}, {0.0, 0}}, LateralVectors());
  const std::vector<Mode> modes = AnalyzeLateral(Lateral(block));
  const Mode* spiral = FindMode(modes, ModeKind::kSpiral);
  ASSERT_NE(spiral, nullptr);
  EXPECT_EQ(spiral->full_name(), "spiral (neutral)");
  EXPECT_LT(std::abs(spiral->lambda), 1e-12);  // zero to rounding of V Λ V⁻¹
  // Distinct: two modes with λ = 0, the spiral a bank motion (φ ≠ 0, its
  // ψ left 0 as secular), heading the pure ψ integrator.
  ASSERT_EQ(modes.size(), 4u);
  EXPECT_EQ(modes.back().kind, ModeKind::kHeading);
  EXPECT_EQ(modes.back().lambda, cd(0.0));
  EXPECT_GT(std::abs(spiral->shape(model::lat::kPhi)), 0.5);
  EXPECT_EQ(spiral->shape(model::lat::kPsi), cd(0.0));
  EXPECT_EQ(modes.back().shape(model::lat::kPhi), cd(0.0));
}

TEST(AnalyzeLateral, ClimbingTrimStillNamesEveryMode) {
  model::AircraftData a = Load("p2v7.toml");
  a.condition.theta0 = 15.0 * core::kDegToRad;
  const model::StateSpace lat = model::BuildLateral(a);
  const std::vector<Mode> modes = AnalyzeLateral(lat);
  for (ModeKind k : {ModeKind::kDutchRoll, ModeKind::kRollSubsidence, ModeKind::kSpiral, ModeKind::kHeading})
    EXPECT_NE(FindMode(modes, k), nullptr) << ToString(k);
  ExpectRootsMatchCharacteristicPolynomial(lat.A(), modes);
  ExpectShapesAreEigenvectors(lat.A(), modes);
}

TEST(AnalyzeLateral, RejectsWrongStateCount) {
  EXPECT_THROW(AnalyzeLateral(Longitudinal(Eigen::MatrixXd::Identity(4, 4))), std::invalid_argument);
}

TEST(ModeNames, CliSpellingRoundTripsForEveryKind) {
  for (ModeKind k : {ModeKind::kShortPeriod, ModeKind::kPhugoid, ModeKind::kDutchRoll,
                     ModeKind::kRollSubsidence, ModeKind::kSpiral, ModeKind::kRollSpiral,
                     ModeKind::kHeading})
    EXPECT_EQ(ParseModeKind(std::string(CliName(k))), k) << ToString(k);
  EXPECT_EQ(CliName(ModeKind::kDutchRoll), "dutch-roll");
  EXPECT_EQ(ToString(ModeKind::kDutchRoll), "dutch roll");
}

TEST(ModeFlags, QualifierSpellsFlagsInFixedOrder) {
  Mode m{};
  m.kind = ModeKind::kPhugoid;
  EXPECT_EQ(m.full_name(), "phugoid");
  m.flags = ModeFlag::kRepeatedRoot | ModeFlag::kDivergent | ModeFlag::kAperiodic;
  EXPECT_TRUE(m.has(ModeFlag::kDivergent));
  EXPECT_FALSE(m.has(ModeFlag::kNeutral));
  EXPECT_EQ(m.full_name(), "phugoid (aperiodic, divergent, repeated root)");
}

TEST(ParseModeKind, AcceptsCliSpellings) {
  EXPECT_EQ(ParseModeKind("short-period"), ModeKind::kShortPeriod);
  EXPECT_EQ(ParseModeKind("dutch-roll"), ModeKind::kDutchRoll);
  EXPECT_EQ(ParseModeKind("roll"), ModeKind::kRollSubsidence);
  EXPECT_FALSE(ParseModeKind("dutch").has_value());
  EXPECT_FALSE(ParseModeKind("roll spiral oscillation x").has_value());
}

// The display names too, in any case and with '-', '_' or ' ' between words
// (a user copies "roll subsidence" from `aerolin modes`).
TEST(ParseModeKind, AcceptsDisplayNamesInAnyCaseAndSeparator) {
  EXPECT_EQ(ParseModeKind("dutch roll"), ModeKind::kDutchRoll);
  EXPECT_EQ(ParseModeKind("Dutch_Roll"), ModeKind::kDutchRoll);
  EXPECT_EQ(ParseModeKind("roll-subsidence"), ModeKind::kRollSubsidence);
  EXPECT_EQ(ParseModeKind("SHORT PERIOD"), ModeKind::kShortPeriod);
  EXPECT_EQ(ParseModeKind("roll-spiral oscillation"), ModeKind::kRollSpiral);
  for (const ModeKind k : {ModeKind::kShortPeriod, ModeKind::kPhugoid, ModeKind::kDutchRoll,
                           ModeKind::kRollSubsidence, ModeKind::kSpiral, ModeKind::kRollSpiral,
                           ModeKind::kHeading})
    EXPECT_EQ(ParseModeKind(ToString(k)), k) << ToString(k);
}

}  // namespace
}  // namespace aerolin::analysis
