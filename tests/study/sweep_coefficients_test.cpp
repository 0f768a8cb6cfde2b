// Sweeps of a coefficient file's keys (through the coefficient conversion):
// each point's roots and names against `aerolin modes` of the file with the
// key edited in its text (load → convert → build → solve, independently), and
// the structure change against the edited file on either side of it.

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <fmt/format.h>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/tracked.hpp"
#include "aerolin/core/files.hpp"
#include "data/edited_avl.hpp"

namespace aerolin::study {
namespace {

using testing::WithValue;

// `path`: where the text was read from (an AVL file's .st and .mass are beside it).
analysis::ModalAnalysis ModesOf(const std::string& text, const std::string& path = "edited.toml") {
  return analysis::AnalyzeModes(data::LoadAircraftString(text, path).aircraft);
}

// Two solves of matrices equal to round-off (the sweep's chain and the loader's).
constexpr double kRootTolerance = 1e-9;

// Every tracked root is a root of the edited file, and its name is what
// `aerolin modes` calls that root (the tracked name, or `pointwise_name`
// where the sweep says the two differ).
void ExpectEveryPointIsAerolinModesOfTheEditedFile(const std::string& path, const SweepOptions& options) {
  const std::string text = core::ReadInputFile(path);
  const data::LoadResult load = data::LoadAircraftString(text, path);
  const TrackedStudy s = Sweep(load.file, options);
  ASSERT_EQ(s.points.size(), static_cast<std::size_t>(options.steps));
  for (const TrackedPoint& p : s.points) {
    const analysis::ModalAnalysis a = ModesOf(WithValue(text, options.param, p.value, path), path);
    for (const TrackedMode& m : p.modes) {
      const analysis::Mode* nearest = nullptr;
      for (const analysis::Mode& n : a.modes(m.axis))
        if (!nearest || std::abs(n.lambda - m.lambda) < std::abs(nearest->lambda - m.lambda)) nearest = &n;
      ASSERT_NE(nearest, nullptr);
      const std::string where = options.param + " = " + std::to_string(p.value) + " " + m.name;
      EXPECT_LT(std::abs(nearest->lambda - m.lambda), kRootTolerance * std::max(1.0, std::abs(m.lambda))) << where;
      EXPECT_EQ(m.pointwise_name.empty() ? m.name : m.pointwise_name, nearest->full_name()) << where;
    }
  }
}

const std::string k747 =
    std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/boeing747_cruise_40kft_coefficients.toml";
const std::string kPerDegree = std::string(AEROLIN_SOURCE_DIR) +
                               "/tests/fixtures/derivatives/valid_coefficients_lift_drag_per_degree_body_axes.toml";

TEST(SweepCoefficients, CmaThroughZeroMatchesAerolinModesOfEditedFilesAtEveryPoint) {
  ExpectEveryPointIsAerolinModesOfTheEditedFile(k747, {"longitudinal.Cma", -1.023, 0.2, 25});
}

TEST(SweepCoefficients, ShortPeriodSplitsWhereTheEditedFileSaysItDoes) {
  const data::LoadResult load = data::LoadAircraftFile(k747);
  const TrackedStudy s = Sweep(load.file, {"longitudinal.Cma", -1.023, 0.2, 25});
  const auto change = std::find_if(s.changes.begin(), s.changes.end(), [](const StructureChange& c) {
    return c.to == "short period (overdamped)";
  });
  ASSERT_NE(change, s.changes.end());
  EXPECT_EQ(change->from, "short period");
  // Independent: the edited file just before the change has the pair, just after two real roots.
  const std::string text = core::ReadInputFile(k747);
  const double step = 1e-6 * (0.2 + 1.023);
  const analysis::ModalAnalysis before = ModesOf(WithValue(text, "longitudinal.Cma", change->value - step));
  const analysis::ModalAnalysis after = ModesOf(WithValue(text, "longitudinal.Cma", change->value + step));
  const analysis::Mode* sp = analysis::FindMode(before.modes(model::Axis::kLongitudinal), analysis::ModeKind::kShortPeriod);
  ASSERT_NE(sp, nullptr);
  EXPECT_TRUE(sp->oscillatory);
  int real_short_period = 0;
  for (const analysis::Mode& m : after.modes(model::Axis::kLongitudinal))
    if (m.kind == analysis::ModeKind::kShortPeriod && !m.oscillatory) ++real_short_period;
  EXPECT_EQ(real_short_period, 2);
}

TEST(SweepCoefficients, KeysEnteringEveryDerivativeMatchAerolinModesOfEditedFiles) {
  // U0 (½ρU0S, ½ρU0²S, C_W0 = W/(½ρU0²S) in every derivative), W (C_W0 and
  // m = W/g) and a per-degree coefficient of a lift/drag file with body-axis
  // inertias; the mixed file's mach (U0 = mach · a).
  ExpectEveryPointIsAerolinModesOfTheEditedFile(kPerDegree, {"condition.U0", 120.0, 300.0, 13});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(kPerDegree, {"mass.W", 2000.0, 3500.0, 7});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(kPerDegree, {"lateral.Cnb", 0.0012392, 0.0001, 9});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(kPerDegree, {"condition.alpha0_deg", 0.6, 12.0, 7});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(
      std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/derivatives/valid_coefficients_mixed_mach_altitude.toml",
      {"condition.mach", 0.12, 0.3, 7});
}

TEST(SweepCoefficients, AvlFileKeysMatchAerolinModesOfEditedFiles) {
  // The TOML's U0, and the .st's Cnr (the spiral turns divergent on the way),
  // Sref and Alpha (it rotates the .mass file's inertias), each edited in its file.
  const std::string b737 = std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml";
  ExpectEveryPointIsAerolinModesOfTheEditedFile(b737, {"condition.U0", 150.0, 300.0, 7});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(b737, {"avl.Cnr", -0.49148, -0.05, 8});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(b737, {"avl.Sref", 900.0, 1600.0, 5});
  ExpectEveryPointIsAerolinModesOfTheEditedFile(b737, {"avl.Alpha", 0.0, 8.0, 5});
}

TEST(SweepCoefficients, KeysThatDoNotEnterAAreRefused) {
  const data::LoadResult load = data::LoadAircraftFile(k747);
  EXPECT_THROW(Sweep(load.file, {"controls.elevator.Cm", -2.0, -1.0, 3}), std::invalid_argument);  // through B
  EXPECT_THROW(Sweep(load.file, {"condition.altitude", 0.0, 1.0, 3}), std::invalid_argument);  // rho given
  EXPECT_THROW(Sweep(load.file, {"longitudinal.CLa", 0.0, 1.0, 3}), std::invalid_argument);   // force family
  const data::LoadResult avl = data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml");
  EXPECT_THROW(Sweep(avl.file, {"avl.elevator.Cm", -2.0, -1.0, 3}), std::invalid_argument);  // through B
  EXPECT_THROW(Sweep(avl.file, {"avl.CDa", 0.0, 1.0, 3}), std::invalid_argument);  // the estimate: no key
}

}  // namespace
}  // namespace aerolin::study
