#include "aerolin/analysis/flying_qualities.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::analysis {
namespace {

using Cat = FlightPhaseCategory;
using Cls = AircraftClass;

constexpr double kInf = std::numeric_limits<double>::infinity();
// A step off a tabulated limit: far above double rounding of 2-digit limits
// (~1e-16 relative), far below the table's own resolution (0.005).
constexpr double kStep = 1e-4;
// Mode characteristics recomputed from λ (ζ = −Re λ/|λ| etc.) carry rounding.
constexpr double kRoundTrip = 1e-12;

constexpr std::array<Cls, 5> kClasses = {Cls::kI, Cls::kII_C, Cls::kII_L, Cls::kIII, Cls::kIV};
constexpr std::array<Cat, 3> kCategories = {Cat::kA, Cat::kB, Cat::kC};
constexpr std::array<Criterion, 11> kCriteria = {
    Criterion::kShortPeriodDamping,    Criterion::kShortPeriodCap,
    Criterion::kShortPeriodFrequency,  Criterion::kPhugoidDamping,
    Criterion::kPhugoidTimeToDouble,   Criterion::kDutchRollDamping,
    Criterion::kDutchRollDampingRate,  Criterion::kDutchRollFrequency,
    Criterion::kRollTimeConstant,      Criterion::kSpiralTimeToDouble,
    Criterion::kRollSpiralDampingRate};

// Independent transcription of a table row for comparison: NaN = no limit.
struct Row {
  double min1, max1, min2, max2, min3, max3;
};
constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

void ExpectRow(Criterion criterion, Cls c, Cat cat, const Row& row, GradeOptions options = {}) {
  const auto limits = RequirementLimits(criterion, c, cat, options);
  ASSERT_TRUE(limits.has_value()) << ToString(c) << " " << ToString(cat);
  const double expected[3][2] = {{row.min1, row.max1}, {row.min2, row.max2}, {row.min3, row.max3}};
  for (int k = 0; k < 3; ++k) {
    const std::string where = std::string(ToString(c)) + " cat " + std::string(ToString(cat)) +
                              " level " + std::to_string(k + 1);
    if (std::isnan(expected[k][0])) EXPECT_FALSE((*limits)[k].min) << where;
    else EXPECT_EQ((*limits)[k].min, expected[k][0]) << where;
    if (std::isnan(expected[k][1])) EXPECT_FALSE((*limits)[k].max) << where;
    else EXPECT_EQ((*limits)[k].max, expected[k][1]) << where;
  }
}

bool IsClass(Cls c, std::initializer_list<Cls> set) {
  for (Cls s : set)
    if (s == c) return true;
  return false;
}

SecondOrderRoots PairOf(double zeta, double wn) {
  return SecondOrderRoots::Pair({-zeta * wn, wn * std::sqrt(1.0 - zeta * zeta)});
}

// Every mode comfortably Level 1 in every class and category.
ModalSummary Nominal() {
  ModalSummary m;
  m.short_period = PairOf(0.6, 3.0);  // CAP = 9/10 = 0.9
  m.phugoid = PairOf(0.1, 0.2);
  m.dutch_roll = PairOf(0.4, 2.0);    // ζω = 0.8; ωn²|φ/β| = 4
  m.dutch_roll_phi_beta = 1.0;
  m.roll = -5.0;                      // τR = 0.2 s
  m.spiral = -0.01;
  m.n_alpha = 10.0;
  return m;
}

const RequirementResult& Find(const QualitiesGrade& g, ModeKind mode, const std::string& criterion) {
  for (const RequirementResult& r : g.requirements)
    if (r.mode == mode && r.criterion == criterion) return r;
  throw std::runtime_error("no requirement " + ToString(mode) + " " + criterion);
}

// --- parsing -----------------------------------------------------------------

TEST(FlyingQualities, ParsesClassesAndCategories) {
  EXPECT_EQ(ParseAircraftClass("I"), Cls::kI);
  EXPECT_EQ(ParseAircraftClass("II-C"), Cls::kII_C);
  EXPECT_EQ(ParseAircraftClass("ii-l"), Cls::kII_L);
  EXPECT_EQ(ParseAircraftClass("III"), Cls::kIII);
  EXPECT_EQ(ParseAircraftClass("IV"), Cls::kIV);
  for (Cls c : kClasses) EXPECT_EQ(ParseAircraftClass(ToString(c)), c);
  for (Cat cat : kCategories) EXPECT_EQ(ParseFlightPhaseCategory(ToString(cat)), cat);
  EXPECT_EQ(ParseFlightPhaseCategory("b"), Cat::kB);
}

TEST(FlyingQualities, RejectsPlainClassIIWithAHint) {
  try {
    ParseAircraftClass("II");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "aircraft class 'II' is ambiguous (use 'II-C' for carrier-based or 'II-L' for "
                 "land-based: MIL-F-8785C's tables differ between them)");
  }
  try {
    ParseAircraftClass("V");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "unknown aircraft class 'V' (expected one of I, II-C, II-L, III, IV)");
  }
  EXPECT_THROW(ParseFlightPhaseCategory("D"), std::invalid_argument);
}

// --- every table row, transcribed independently -----------------------------

TEST(FlyingQualities, ShortPeriodDampingTableIV) {  // 3.2.2.1.2
  for (Cls c : kClasses) {
    ExpectRow(Criterion::kShortPeriodDamping, c, Cat::kA, {0.35, 1.30, 0.25, 2.0, 0.15, kNone});
    ExpectRow(Criterion::kShortPeriodDamping, c, Cat::kB, {0.30, 2.0, 0.20, 2.0, 0.15, kNone});
    ExpectRow(Criterion::kShortPeriodDamping, c, Cat::kC, {0.35, 1.30, 0.25, 2.0, 0.15, kNone});
  }
}

TEST(FlyingQualities, ShortPeriodCapBandsAndFrequencyFloors) {  // 3.2.2.1.1
  for (Cls c : kClasses) {
    ExpectRow(Criterion::kShortPeriodCap, c, Cat::kA, {0.28, 3.6, 0.16, 10.0, 0.16, kNone});
    ExpectRow(Criterion::kShortPeriodCap, c, Cat::kB, {0.085, 3.6, 0.038, 10.0, 0.038, kNone});
    ExpectRow(Criterion::kShortPeriodCap, c, Cat::kC, {0.16, 3.6, 0.05, 10.0, 0.05, kNone});
    ExpectRow(Criterion::kShortPeriodFrequency, c, Cat::kA, {1.0, kNone, 0.6, kNone, kNone, kNone});
    EXPECT_FALSE(RequirementLimits(Criterion::kShortPeriodFrequency, c, Cat::kB));
    if (IsClass(c, {Cls::kII_L, Cls::kIII}))
      ExpectRow(Criterion::kShortPeriodFrequency, c, Cat::kC, {0.7, kNone, 0.4, kNone, kNone, kNone});
    else
      ExpectRow(Criterion::kShortPeriodFrequency, c, Cat::kC, {0.87, kNone, 0.6, kNone, kNone, kNone});
  }
}

TEST(FlyingQualities, PhugoidRows) {  // 3.2.1.2
  for (Cls c : kClasses)
    for (Cat cat : kCategories) {
      ExpectRow(Criterion::kPhugoidDamping, c, cat, {0.04, kNone, 0.0, kNone, kNone, kNone});
      ExpectRow(Criterion::kPhugoidTimeToDouble, c, cat, {kInf, kNone, kInf, kNone, 55.0, kNone});
    }
}

TEST(FlyingQualities, DutchRollTableVI) {  // 3.3.1.1
  for (Cls c : kClasses) {
    const bool small_or_agile = IsClass(c, {Cls::kI, Cls::kIV});
    ExpectRow(Criterion::kDutchRollDamping, c, Cat::kA, {0.19, kNone, 0.02, kNone, 0.0, kNone});
    ExpectRow(Criterion::kDutchRollDampingRate, c, Cat::kA, {0.35, kNone, 0.05, kNone, kNone, kNone});
    ExpectRow(Criterion::kDutchRollFrequency, c, Cat::kA,
              {small_or_agile ? 1.0 : 0.4, kNone, 0.4, kNone, 0.4, kNone});
    ExpectRow(Criterion::kDutchRollDamping, c, Cat::kB, {0.08, kNone, 0.02, kNone, 0.0, kNone});
    ExpectRow(Criterion::kDutchRollDampingRate, c, Cat::kB, {0.15, kNone, 0.05, kNone, kNone, kNone});
    ExpectRow(Criterion::kDutchRollFrequency, c, Cat::kB, {0.4, kNone, 0.4, kNone, 0.4, kNone});
    const bool heavy = IsClass(c, {Cls::kII_L, Cls::kIII});
    ExpectRow(Criterion::kDutchRollDamping, c, Cat::kC, {0.08, kNone, 0.02, kNone, 0.0, kNone});
    ExpectRow(Criterion::kDutchRollDampingRate, c, Cat::kC,
              {heavy ? 0.10 : 0.15, kNone, 0.05, kNone, kNone, kNone});
    ExpectRow(Criterion::kDutchRollFrequency, c, Cat::kC,
              {heavy ? 0.4 : 1.0, kNone, 0.4, kNone, 0.4, kNone});
  }
  // Class IV, Category A combat / ground attack.
  const GradeOptions co_ga{true};
  ExpectRow(Criterion::kDutchRollDamping, Cls::kIV, Cat::kA, {0.4, kNone, 0.02, kNone, 0.0, kNone}, co_ga);
  // Its ζω is "—" at Level 1: no looser than Level 2's 0.05 (ζ ≥ 0.4 and ωn ≥ 1.0 imply ζω ≥ 0.4).
  ExpectRow(Criterion::kDutchRollDampingRate, Cls::kIV, Cat::kA, {0.05, kNone, 0.05, kNone, kNone, kNone}, co_ga);
  ExpectRow(Criterion::kDutchRollFrequency, Cls::kIV, Cat::kA, {1.0, kNone, 0.4, kNone, 0.4, kNone}, co_ga);
  // The option selects nothing for other classes or categories.
  ExpectRow(Criterion::kDutchRollDamping, Cls::kI, Cat::kA, {0.19, kNone, 0.02, kNone, 0.0, kNone}, co_ga);
  ExpectRow(Criterion::kDutchRollDamping, Cls::kIV, Cat::kB, {0.08, kNone, 0.02, kNone, 0.0, kNone}, co_ga);
}

TEST(FlyingQualities, DutchRollPhiBetaIncrease) {  // 3.3.1.1
  EXPECT_EQ(DutchRollDampingRateIncrease(20.0), (std::array<double, 3>{0.0, 0.0, 0.0}));
  EXPECT_EQ(DutchRollDampingRateIncrease(5.0), (std::array<double, 3>{0.0, 0.0, 0.0}));
  const auto raise = DutchRollDampingRateIncrease(30.0);
  EXPECT_NEAR(raise[0], 0.14, kRoundTrip);
  EXPECT_NEAR(raise[1], 0.09, kRoundTrip);
  EXPECT_NEAR(raise[2], 0.05, kRoundTrip);
}

TEST(FlyingQualities, RollModeTableVII) {  // 3.3.1.2
  for (Cls c : kClasses) {
    const bool small_or_agile = IsClass(c, {Cls::kI, Cls::kIV});
    const bool land_or_heavy = IsClass(c, {Cls::kII_L, Cls::kIII});
    ExpectRow(Criterion::kRollTimeConstant, c, Cat::kA,
              small_or_agile ? Row{kNone, 1.0, kNone, 1.4, kNone, 10.0} : Row{kNone, 1.4, kNone, 3.0, kNone, 10.0});
    ExpectRow(Criterion::kRollTimeConstant, c, Cat::kB, {kNone, 1.4, kNone, 3.0, kNone, 10.0});
    ExpectRow(Criterion::kRollTimeConstant, c, Cat::kC,
              land_or_heavy ? Row{kNone, 1.4, kNone, 3.0, kNone, 10.0} : Row{kNone, 1.0, kNone, 1.4, kNone, 10.0});
  }
}

TEST(FlyingQualities, SpiralTableVIIIAndRollSpiral) {  // 3.3.1.3, 3.3.1.4
  for (Cls c : kClasses) {
    ExpectRow(Criterion::kSpiralTimeToDouble, c, Cat::kA, {12.0, kNone, 8.0, kNone, 4.0, kNone});
    ExpectRow(Criterion::kSpiralTimeToDouble, c, Cat::kB, {20.0, kNone, 8.0, kNone, 4.0, kNone});
    ExpectRow(Criterion::kSpiralTimeToDouble, c, Cat::kC, {12.0, kNone, 8.0, kNone, 4.0, kNone});
    ExpectRow(Criterion::kRollSpiralDampingRate, c, Cat::kA, {kInf, kNone, kInf, kNone, kInf, kNone});
    ExpectRow(Criterion::kRollSpiralDampingRate, c, Cat::kB, {0.5, kNone, 0.3, kNone, 0.15, kNone});
    ExpectRow(Criterion::kRollSpiralDampingRate, c, Cat::kC, {0.5, kNone, 0.3, kNone, 0.15, kNone});
  }
}

// --- boundaries ----------------------------------------------------------------

TEST(FlyingQualities, BoundariesAreInclusive) {
  const auto zeta_a = *RequirementLimits(Criterion::kShortPeriodDamping, Cls::kIV, Cat::kA);
  EXPECT_EQ(LevelFor(0.35, zeta_a), Level::k1);
  EXPECT_EQ(LevelFor(0.3499, zeta_a), Level::k2);
  EXPECT_EQ(LevelFor(1.30, zeta_a), Level::k1);
  EXPECT_EQ(LevelFor(1.3001, zeta_a), Level::k2);
  EXPECT_EQ(LevelFor(0.25, zeta_a), Level::k2);
  EXPECT_EQ(LevelFor(0.2499, zeta_a), Level::k3);
  EXPECT_EQ(LevelFor(2.0, zeta_a), Level::k2);
  EXPECT_EQ(LevelFor(2.0001, zeta_a), Level::k3);
  EXPECT_EQ(LevelFor(0.15, zeta_a), Level::k3);
  EXPECT_EQ(LevelFor(0.1499, zeta_a), Level::k4);
  const auto t2 = *RequirementLimits(Criterion::kPhugoidTimeToDouble, Cls::kI, Cat::kB);
  EXPECT_EQ(LevelFor(kInf, t2), Level::k1);
  EXPECT_EQ(LevelFor(55.0, t2), Level::k3);
  EXPECT_EQ(LevelFor(54.99, t2), Level::k4);
  const auto tau = *RequirementLimits(Criterion::kRollTimeConstant, Cls::kI, Cat::kA);
  EXPECT_EQ(LevelFor(1.0, tau), Level::k1);
  EXPECT_EQ(LevelFor(1.0001, tau), Level::k2);
  EXPECT_EQ(LevelFor(10.0, tau), Level::k3);
  EXPECT_EQ(LevelFor(10.0001, tau), Level::k4);
  EXPECT_EQ(LevelFor(std::numeric_limits<double>::quiet_NaN(), tau), Level::k4);
}

// Every finite limit of every table: on it meets that level, one step outside
// does not (and, since the levels nest, falls to a worse level).
TEST(FlyingQualities, EveryLimitIsABoundary) {
  int checked = 0;
  for (Criterion cr : kCriteria)
    for (Cls c : kClasses)
      for (Cat cat : kCategories)
        for (bool co_ga : {false, true}) {
          const auto limits = RequirementLimits(cr, c, cat, GradeOptions{co_ga});
          if (!limits) continue;
          for (int k = 0; k < 3; ++k) {
            const Level at = static_cast<Level>(k + 1);
            // Nesting: Level k's band lies inside Level k+1's.
            if (k < 2) {
              EXPECT_GE((*limits)[k].min.value_or(-kInf), (*limits)[k + 1].min.value_or(-kInf));
              EXPECT_LE((*limits)[k].max.value_or(kInf), (*limits)[k + 1].max.value_or(kInf));
            }
            for (const auto& [bound, outward] :
                 {std::pair{(*limits)[k].min, -kStep}, std::pair{(*limits)[k].max, +kStep}}) {
              if (!bound || std::isinf(*bound)) continue;
              const std::string where = std::to_string(static_cast<int>(cr)) + " " +
                                        std::string(ToString(c)) + std::string(ToString(cat)) +
                                        " L" + std::to_string(k + 1) + " at " + std::to_string(*bound);
              EXPECT_LE(ToInt(LevelFor(*bound, *limits)), ToInt(at)) << where;
              EXPECT_GT(ToInt(LevelFor(*bound + outward, *limits)), ToInt(at)) << where;
              ++checked;
            }
          }
        }
  EXPECT_GT(checked, 300);
}

// --- grading --------------------------------------------------------------------

TEST(FlyingQualities, NominalIsLevel1Everywhere) {
  for (Cls c : kClasses)
    for (Cat cat : kCategories) {
      const QualitiesGrade g = Grade(Nominal(), c, cat);
      EXPECT_EQ(g.level, Level::k1) << ToString(c) << ToString(cat);
      // zeta, CAP, [wn], zeta, T2, zeta, zeta*wn, wn, tau_R, T2
      EXPECT_EQ(g.requirements.size(), cat == Cat::kB ? 9u : 10u);
      for (const RequirementResult& r : g.requirements) EXPECT_FALSE(r.paragraph.empty());
    }
}

TEST(FlyingQualities, WorseThanLevel3IsLevel4) {
  ModalSummary m = Nominal();
  m.short_period = PairOf(0.10, 3.0);  // ζsp 0.10 < 0.15
  const QualitiesGrade g = Grade(m, Cls::kIV, Cat::kA);
  EXPECT_EQ(Find(g, ModeKind::kShortPeriod, "zeta").level, Level::k4);
  EXPECT_EQ(g.LevelOf(ModeKind::kShortPeriod), Level::k4);
  EXPECT_EQ(g.LevelOf(ModeKind::kPhugoid), Level::k1);
  EXPECT_EQ(g.level, Level::k4);
  EXPECT_EQ(ToInt(g.level), 4);
  EXPECT_FALSE(g.LevelOf(ModeKind::kRollSpiral).has_value());
}

TEST(FlyingQualities, OverdampedShortPeriodIsGradedNotSkipped) {
  ModalSummary m = Nominal();
  m.short_period = SecondOrderRoots::Real(-2.0, -8.0);  // ωn = 4, ζ = 10/8 = 1.25
  QualitiesGrade g = Grade(m, Cls::kIV, Cat::kA);
  const RequirementResult& zeta = Find(g, ModeKind::kShortPeriod, "zeta");
  EXPECT_NEAR(zeta.value, 1.25, kRoundTrip);
  EXPECT_EQ(zeta.level, Level::k1);
  EXPECT_NE(zeta.note.find("two real roots"), std::string::npos);
  EXPECT_NEAR(Find(g, ModeKind::kShortPeriod, "CAP").value, 1.6, kRoundTrip);  // 16/10
  EXPECT_NEAR(Find(g, ModeKind::kShortPeriod, "wn").value, 4.0, kRoundTrip);
  m.short_period = SecondOrderRoots::Real(-1.0, -9.0);  // ωn = 3, ζ = 5/3 > 1.30
  g = Grade(m, Cls::kIV, Cat::kA);
  EXPECT_EQ(Find(g, ModeKind::kShortPeriod, "zeta").level, Level::k2);
  m.short_period = SecondOrderRoots::Real(0.5, -3.0);  // a divergent real root
  g = Grade(m, Cls::kIV, Cat::kA);
  EXPECT_EQ(Find(g, ModeKind::kShortPeriod, "zeta").level, Level::k4);
  EXPECT_EQ(Find(g, ModeKind::kShortPeriod, "CAP").level, Level::k4);
  EXPECT_EQ(g.level, Level::k4);
}

TEST(FlyingQualities, ShortPeriodCapAndFrequency) {
  ModalSummary m = Nominal();
  m.short_period = PairOf(0.6, 0.8);  // CAP = 0.64/10 = 0.064
  m.n_alpha = 10.0;
  QualitiesGrade a = Grade(m, Cls::kIII, Cat::kA);
  EXPECT_EQ(Find(a, ModeKind::kShortPeriod, "CAP").level, Level::k4);  // < 0.16 (L2 and L3 line)
  EXPECT_EQ(Find(a, ModeKind::kShortPeriod, "wn").level, Level::k2);   // 0.6 ≤ 0.8 < 1.0
  EXPECT_EQ(Find(Grade(m, Cls::kIII, Cat::kB), ModeKind::kShortPeriod, "CAP").level, Level::k2);
  const QualitiesGrade c = Grade(m, Cls::kIII, Cat::kC);
  EXPECT_EQ(Find(c, ModeKind::kShortPeriod, "CAP").level, Level::k2);  // 0.05 ≤ 0.064 < 0.16
  EXPECT_EQ(Find(c, ModeKind::kShortPeriod, "wn").level, Level::k1);   // ≥ 0.7 for III
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kC), ModeKind::kShortPeriod, "wn").level, Level::k2);
  m.short_period = PairOf(0.6, 7.0);  // CAP = 4.9 > 3.6
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kShortPeriod, "CAP").level, Level::k2);
  m.n_alpha = -1.0;
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kShortPeriod, "CAP").level, Level::k4);
}

TEST(FlyingQualities, UnstablePhugoidByTimeToDouble) {
  ModalSummary m = Nominal();
  const double wd = 0.15;
  m.phugoid = SecondOrderRoots::Pair({std::log(2.0) / 60.0, wd});  // T2 = 60 s
  QualitiesGrade g = Grade(m, Cls::kI, Cat::kB);
  EXPECT_NEAR(Find(g, ModeKind::kPhugoid, "T2").value, 60.0, 1e-9);
  EXPECT_EQ(Find(g, ModeKind::kPhugoid, "zeta").level, Level::k3);  // ζ < 0
  EXPECT_EQ(Find(g, ModeKind::kPhugoid, "T2").level, Level::k3);
  EXPECT_EQ(g.LevelOf(ModeKind::kPhugoid), Level::k3);
  m.phugoid = SecondOrderRoots::Pair({std::log(2.0) / 50.0, wd});  // T2 = 50 s < 55
  g = Grade(m, Cls::kI, Cat::kB);
  EXPECT_EQ(Find(g, ModeKind::kPhugoid, "T2").level, Level::k4);
  EXPECT_EQ(g.level, Level::k4);
  m.phugoid = PairOf(0.03, 0.2);  // stable, lightly damped
  g = Grade(m, Cls::kI, Cat::kB);
  EXPECT_EQ(Find(g, ModeKind::kPhugoid, "zeta").level, Level::k2);
  EXPECT_EQ(Find(g, ModeKind::kPhugoid, "T2").value, kInf);
  EXPECT_EQ(Find(g, ModeKind::kPhugoid, "T2").level, Level::k1);
  m.phugoid = SecondOrderRoots::Real(0.001, -0.1);  // aperiodic divergence, T2 = 693 s
  g = Grade(m, Cls::kI, Cat::kB);
  EXPECT_EQ(g.LevelOf(ModeKind::kPhugoid), Level::k3);
  EXPECT_THROW(Find(g, ModeKind::kPhugoid, "zeta"), std::runtime_error);
}

TEST(FlyingQualities, SpiralStablePassesDivergentByTimeToDouble) {
  ModalSummary m = Nominal();
  m.spiral = -0.01;
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kSpiral, "T2").level, Level::k1);
  m.spiral = 0.0;  // neutral
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kSpiral, "T2").level, Level::k1);
  m.spiral = std::log(2.0) / 15.0;  // T2 = 15 s
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kSpiral, "T2").level, Level::k1);
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kB), ModeKind::kSpiral, "T2").level, Level::k2);
  m.spiral = std::log(2.0) / 3.0;  // T2 = 3 s
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kC), ModeKind::kSpiral, "T2").level, Level::k4);
}

TEST(FlyingQualities, RollModeTimeConstant) {
  ModalSummary m = Nominal();
  m.roll = -1.0 / 1.2;  // τR = 1.2 s
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kRollSubsidence, "tau_R").level, Level::k2);
  EXPECT_EQ(Find(Grade(m, Cls::kIII, Cat::kA), ModeKind::kRollSubsidence, "tau_R").level, Level::k1);
  m.roll = 0.1;  // does not subside
  EXPECT_EQ(Find(Grade(m, Cls::kIII, Cat::kA), ModeKind::kRollSubsidence, "tau_R").level, Level::k4);
}

TEST(FlyingQualities, DutchRollPhiBetaRaisesTheDampingRateMinimum) {
  ModalSummary m = Nominal();
  m.dutch_roll = PairOf(0.2, 2.0);  // ζω = 0.4, ωn² = 4
  m.dutch_roll_phi_beta = 1.0;      // x = 4: no raise, 0.4 ≥ 0.35
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kDutchRoll, "zeta*wn").level, Level::k1);
  m.dutch_roll_phi_beta = 10.0;  // x = 40: L1 min 0.35 + 0.28 = 0.63, L2 0.05 + 0.18 = 0.23
  const RequirementResult r = Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kDutchRoll, "zeta*wn");
  EXPECT_NEAR(*r.limits[0].min, 0.63, kRoundTrip);
  EXPECT_NEAR(*r.limits[1].min, 0.23, kRoundTrip);
  EXPECT_NEAR(*r.limits[2].min, 0.10, kRoundTrip);  // 0 + 0.005·20
  EXPECT_EQ(r.level, Level::k2);
  m.dutch_roll_phi_beta.reset();  // unknown: no raise
  EXPECT_EQ(Find(Grade(m, Cls::kI, Cat::kA), ModeKind::kDutchRoll, "zeta*wn").level, Level::k1);
}

TEST(FlyingQualities, DutchRollLevelsAndClassIIIDampingCap) {
  ModalSummary m = Nominal();
  m.dutch_roll = PairOf(0.75, 0.45);  // ζω = 0.3375 < 0.35 (Cat A)
  EXPECT_EQ(Find(Grade(m, Cls::kII_L, Cat::kA), ModeKind::kDutchRoll, "zeta*wn").level, Level::k2);
  EXPECT_EQ(Find(Grade(m, Cls::kIII, Cat::kA), ModeKind::kDutchRoll, "zeta*wn").level, Level::k1);
  m.dutch_roll = PairOf(-0.05, 1.0);  // divergent oscillation
  const QualitiesGrade g = Grade(m, Cls::kI, Cat::kB);
  EXPECT_EQ(Find(g, ModeKind::kDutchRoll, "zeta").level, Level::k4);     // ζd < 0
  EXPECT_EQ(Find(g, ModeKind::kDutchRoll, "zeta*wn").level, Level::k3);  // no Level 3 minimum
  EXPECT_EQ(g.LevelOf(ModeKind::kDutchRoll), Level::k4);
}

TEST(FlyingQualities, RollSpiralOscillation) {
  ModalSummary m = Nominal();
  m.roll.reset();
  m.spiral.reset();
  m.roll_spiral = std::complex<double>(-0.5, 0.8);  // ζω = 0.5
  EXPECT_EQ(Grade(m, Cls::kI, Cat::kB).LevelOf(ModeKind::kRollSpiral), Level::k1);
  m.roll_spiral = std::complex<double>(-0.2, 0.8);
  EXPECT_EQ(Grade(m, Cls::kI, Cat::kC).LevelOf(ModeKind::kRollSpiral), Level::k3);
  EXPECT_EQ(Grade(m, Cls::kI, Cat::kA).LevelOf(ModeKind::kRollSpiral), Level::k4);
  EXPECT_FALSE(Grade(m, Cls::kI, Cat::kA).LevelOf(ModeKind::kRollSubsidence));
}

TEST(FlyingQualities, MissingModesAreErrors) {
  ModalSummary m = Nominal();
  m.short_period.reset();
  EXPECT_THROW(Grade(m, Cls::kI, Cat::kA), std::invalid_argument);
  m = Nominal();
  m.spiral.reset();
  EXPECT_THROW(Grade(m, Cls::kI, Cat::kA), std::invalid_argument);
}

// --- the bundled aircraft ---------------------------------------------------------

QualitiesGrade GradeFile(const std::string& name, Cls c, Cat cat, GradeOptions options = {}) {
  const model::AircraftData a =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name).aircraft;
  const ModalSummary s = SummarizeModes(AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0),
                                        AnalyzeLateral(model::BuildLateral(a)), a);
  return Grade(s, c, cat, options);
}

struct Expected {
  Level sp, ph, dr, roll, spiral, overall;
};

void ExpectLevels(const QualitiesGrade& g, const Expected& e, const std::string& what) {
  EXPECT_EQ(g.LevelOf(ModeKind::kShortPeriod), e.sp) << what;
  EXPECT_EQ(g.LevelOf(ModeKind::kPhugoid), e.ph) << what;
  EXPECT_EQ(g.LevelOf(ModeKind::kDutchRoll), e.dr) << what;
  EXPECT_EQ(g.LevelOf(ModeKind::kRollSubsidence), e.roll) << what;
  EXPECT_EQ(g.LevelOf(ModeKind::kSpiral), e.spiral) << what;
  EXPECT_EQ(g.level, e.overall) << what;
}

constexpr Level L1 = Level::k1, L2 = Level::k2, L3 = Level::k3, L4 = Level::k4;

TEST(FlyingQualities, SummarizesTheP2V7) {
  const model::AircraftData a =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
  const ModalSummary s = SummarizeModes(AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0),
                                        AnalyzeLateral(model::BuildLateral(a)), a);
  // `aerolin modes`: short period −1.038 ± 1.851i, Dutch roll shape φ 1, |β| 0.8449.
  EXPECT_NEAR(s.short_period->natural_frequency(), 2.122, 5e-4);
  EXPECT_NEAR(*s.dutch_roll_phi_beta, 1.0 / 0.8449, 5e-4);
  EXPECT_NEAR(s.n_alpha, -a.longitudinal.Za / a.condition.g, 0.0);
  EXPECT_FALSE(s.short_period->overdamped());
  EXPECT_FALSE(s.roll_spiral);
}

TEST(FlyingQualities, SummarizesAnOverdampedShortPeriod) {
  auto make = [](ModeKind kind) {
    Mode m;
    m.kind = kind;
    return m;
  };
  Mode a = make(ModeKind::kShortPeriod);
  a.lambda = {-2.0, 0.0};
  Mode b = a;
  b.lambda = {-8.0, 0.0};
  Mode ph = make(ModeKind::kPhugoid);
  ph.lambda = {-0.01, 0.2};
  ph.oscillatory = true;
  Mode dr = make(ModeKind::kDutchRoll);
  dr.lambda = {-0.3, 1.5};
  dr.oscillatory = true;
  dr.shape = Eigen::VectorXcd::Zero(5);
  dr.shape(model::lat::kPhi) = 1.0;
  dr.shape(model::lat::kBeta) = std::complex<double>(0.0, 0.5);
  Mode roll = make(ModeKind::kRollSubsidence);
  roll.lambda = {-3.0, 0.0};
  Mode spiral = make(ModeKind::kSpiral);
  spiral.lambda = {0.01, 0.0};
  model::AircraftData ac;
  ac.longitudinal.Za = -98.0665;
  ac.condition.g = 9.80665;
  const ModalSummary s = SummarizeModes({a, b, ph}, {dr, roll, spiral}, ac);
  ASSERT_TRUE(s.short_period->overdamped());
  EXPECT_NEAR(s.short_period->natural_frequency(), 4.0, kRoundTrip);
  EXPECT_NEAR(s.short_period->damping_ratio(), 1.25, kRoundTrip);
  EXPECT_NEAR(*s.dutch_roll_phi_beta, 2.0, kRoundTrip);
  EXPECT_NEAR(s.n_alpha, 10.0, kRoundTrip);
  EXPECT_EQ(*s.spiral, 0.01);
  EXPECT_THROW(SummarizeModes({a, ph}, {dr, roll, spiral}, ac), std::invalid_argument);
}

// Expected levels derived by hand from the tables above and the modes printed
// by `aerolin modes` (n/α = −Zα/g from the loaded files; |φ/β| = 1/|β| of the
// Dutch-roll shape, which `aerolin modes` normalizes to φ = 1). For all five,
// ωnd²|φ/β| is well below 20, so no ζω raise applies, and the spiral is stable
// (T2 = ∞, Level 1).

TEST(FlyingQualities, P2V7ClassIII) {
  // SP −1.038 ± 1.851i: ωn 2.122, ζ 0.489; n/α = 7.335 g/rad ⇒ CAP = 4.503/7.335 = 0.614.
  // Phugoid ζ 0.055 (≥ 0.04, L1). DR −0.1082 ± 1.06i: ωn 1.066, ζ 0.101, ζω 0.108;
  // |φ/β| = 1.184 ⇒ ωn²|φ/β| = 1.35. Roll τR 0.904 s.
  // A: ζsp 0.489 ∈ [0.35, 1.30] L1; CAP ∈ [0.28, 3.6] L1; ωn ≥ 1.0 L1.
  //    DR (III): ζ 0.101 < 0.19 but ≥ 0.02 → L2; ζω 0.108 < 0.35, ≥ 0.05 → L2; ωn ≥ 0.4 L1.
  //    τR 0.904 ≤ 1.4 L1.  Overall 2.
  ExpectLevels(GradeFile("p2v7.toml", Cls::kIII, Cat::kA), {L1, L1, L2, L1, L1, L2}, "A");
  // B: ζsp ∈ [0.30, 2.0] L1; CAP ≥ 0.085 L1. DR ζ ≥ 0.08 L1, ζω 0.108 < 0.15 → L2. τR ≤ 1.4 L1.
  ExpectLevels(GradeFile("p2v7.toml", Cls::kIII, Cat::kB), {L1, L1, L2, L1, L1, L2}, "B");
  // C: ζsp L1; CAP ≥ 0.16 L1; ωn ≥ 0.7 (III) L1. DR ζ ≥ 0.08, ζω 0.108 ≥ 0.10 (II-L/III),
  //    ωn ≥ 0.4: L1. τR ≤ 1.4 L1.  Overall 1.
  ExpectLevels(GradeFile("p2v7.toml", Cls::kIII, Cat::kC), {L1, L1, L1, L1, L1, L1}, "C");
}

TEST(FlyingQualities, Boeing747ClassIII) {
  // SP −0.3717 ± 0.8869i: ωn 0.9617, ζ 0.387; n/α = 7.522 ⇒ CAP = 0.9249/7.522 = 0.123.
  // Phugoid ζ 0.049 L1. DR −0.03308 ± 0.947i: ωn 0.948, ζ 0.035, ζω 0.033;
  // ωn²|φ/β| = 0.898 · 3.06 = 2.7. Roll τR 1.775 s.
  // A: ζsp L1; CAP 0.123 < 0.16, the Level 2 and Level 3 line → L4; ωn 0.962 < 1.0,
  //    ≥ 0.6 → L2.
  //    DR ζ 0.035 ≥ 0.02 → L2; ζω 0.033 < 0.05, no L3 minimum → L3; ωn L1.
  //    τR 1.775 > 1.4, ≤ 3.0 (III) → L2.  Overall 4.
  ExpectLevels(GradeFile("boeing747_cruise_40kft.toml", Cls::kIII, Cat::kA), {L4, L1, L3, L2, L1, L4}, "A");
  // B: ζsp ≥ 0.30 L1; CAP 0.123 ≥ 0.085 L1 (no ωn floor). DR ζ < 0.08 → L2, ζω → L3.
  //    τR > 1.4 → L2.  Overall 3.
  ExpectLevels(GradeFile("boeing747_cruise_40kft.toml", Cls::kIII, Cat::kB), {L1, L1, L3, L2, L1, L3}, "B");
  // C: CAP 0.123 ∈ [0.05, 0.16) → L2; ωn ≥ 0.7 (III) L1. DR ζω → L3. τR → L2 (III).
  ExpectLevels(GradeFile("boeing747_cruise_40kft.toml", Cls::kIII, Cat::kC), {L2, L1, L3, L2, L1, L3}, "C");
}

TEST(FlyingQualities, NT33AClassIV) {
  // SP −0.9917 ± 1.249i: ωn 1.595, ζ 0.622; n/α = 6.628 ⇒ CAP = 2.544/6.628 = 0.384.
  // Phugoid ζ 0.093 L1. DR −0.0684 ± 1.128i: ωn 1.13, ζ 0.061, ζω 0.068;
  // ωn²|φ/β| = 1.28 · 2.15 = 2.7. Roll τR 0.456 s.
  // A: SP all L1 (ζ ∈ [0.35, 1.30], CAP ≥ 0.28, ωn ≥ 1.0). DR (IV): ζ 0.061 → L2,
  //    ζω 0.068 → L2, ωn 1.13 ≥ 1.0 L1. τR ≤ 1.0 L1.  Overall 2.
  ExpectLevels(GradeFile("nt33a_power_approach_sl.toml", Cls::kIV, Cat::kA), {L1, L1, L2, L1, L1, L2}, "A");
  // B: DR ζ 0.061 < 0.08 → L2, ζω < 0.15 → L2.  Overall 2.
  ExpectLevels(GradeFile("nt33a_power_approach_sl.toml", Cls::kIV, Cat::kB), {L1, L1, L2, L1, L1, L2}, "B");
  // C: SP CAP ≥ 0.16, ωn ≥ 0.87 L1. DR ζ → L2, ζω < 0.15 → L2, ωn ≥ 1.0 L1. τR ≤ 1.0 L1.
  ExpectLevels(GradeFile("nt33a_power_approach_sl.toml", Cls::kIV, Cat::kC), {L1, L1, L2, L1, L1, L2}, "C");
}

TEST(FlyingQualities, NavionClassI) {
  // SP −2.51 ± 2.592i: ωn 3.608, ζ 0.696; n/α = 11.07 ⇒ CAP = 13.02/11.07 = 1.18.
  // Phugoid ζ 0.080 L1. DR −0.4868 ± 2.335i: ωn 2.385, ζ 0.204, ζω 0.487;
  // ωn²|φ/β| = 5.69 · 0.82 = 4.7. Roll τR 0.119 s.
  // A (I): ζ 0.204 ≥ 0.19, ζω 0.487 ≥ 0.35, ωn ≥ 1.0; τR ≤ 1.0; SP in every band. B, C
  // likewise (C: ωn ≥ 0.87, DR ωn ≥ 1.0, ζω ≥ 0.15). Level 1 throughout.
  for (Cat cat : kCategories)
    ExpectLevels(GradeFile("navion_cruise_sl.toml", Cls::kI, cat), {L1, L1, L1, L1, L1, L1},
                 std::string(ToString(cat)));
}

TEST(FlyingQualities, A7AClassIV) {
  // SP −0.6442 ± 1.635i: ωn 1.757, ζ 0.367; n/α = 6.627 ⇒ CAP = 3.087/6.627 = 0.466.
  // Phugoid ζ 0.060 L1. DR −0.4305 ± 1.759i: ωn 1.811, ζ 0.238, ζω 0.431;
  // ωn²|φ/β| = 3.28 · 2.75 = 9.0. Roll τR 0.616 s. Spiral −0.046 (stable).
  // A: ζsp 0.367 ≥ 0.35 L1; CAP ≥ 0.28; ωn ≥ 1.0. DR ζ ≥ 0.19, ζω ≥ 0.35, ωn ≥ 1.0. τR ≤ 1.0.
  // B, C: every minimum lower. Level 1 throughout.
  for (Cat cat : kCategories)
    ExpectLevels(GradeFile("a7a_clean_m025_sl.toml", Cls::kIV, cat), {L1, L1, L1, L1, L1, L1},
                 std::string(ToString(cat)));
  // Category A ground attack (CO/GA row): ζd 0.238 < 0.4 → L2 (≥ 0.02); ωn ≥ 1.0.
  ExpectLevels(GradeFile("a7a_clean_m025_sl.toml", Cls::kIV, Cat::kA, GradeOptions{true}),
               {L1, L1, L2, L1, L1, L2}, "A CO/GA");
}

}  // namespace
}  // namespace aerolin::analysis
