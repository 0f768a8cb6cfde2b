// Tracked sweeps and loci: roots against independent eigen-solves, names
// against a fine-step reference continuation across structure changes,
// conjugate pairing, and the washout loop against a matrix built by hand.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <functional>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "aerolin/core/files.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/parameters.hpp"
#include "aerolin/study/tracked.hpp"

namespace aerolin::study {
namespace {

data::LoadResult P2V7() {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
}

// Sorted eigenvalues of A (Im > 0 members and real roots, each once per root).
std::vector<std::complex<double>> Roots(const Eigen::MatrixXd& A) {
  const Eigen::VectorXcd v = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  std::vector<std::complex<double>> r(v.begin(), v.end());
  std::sort(r.begin(), r.end(), [](auto a, auto b) { return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag(); });
  return r;
}

// The tracked modes' roots, conjugates restored, in Roots' order.
std::vector<std::complex<double>> TrackedRoots(const TrackedPoint& p, model::Axis axis) {
  std::vector<std::complex<double>> r;
  for (const TrackedMode& m : p.modes) {
    if (m.axis != axis) continue;
    r.push_back(m.lambda);
    if (m.oscillatory) r.push_back(std::conj(m.lambda));
  }
  std::sort(r.begin(), r.end(), [](auto a, auto b) { return a.real() != b.real() ? a.real() < b.real() : a.imag() < b.imag(); });
  return r;
}

// Eigen-solver agreement of two solves of matrices equal to round-off.
constexpr double kRootTolerance = 1e-9;

void ExpectSameRoots(const std::vector<std::complex<double>>& a, const std::vector<std::complex<double>>& b,
                     const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_LT(std::abs(a[i] - b[i]), kRootTolerance * std::max(1.0, std::abs(a[i]))) << where << " root " << i;
}

// A point's roots are solved in full or refined from the point before in
// runs that start at fixed grid points (tracking::kSolveRun), never where a
// thread's share starts: the same study, bit for bit, on 1, 2 and 3 threads
// (three chunks of a sweep, and a locus with gains on both sides of 0).
TEST(Sweep, PointsAreTheSameWhateverTheThreads) {
  const data::LoadResult load = P2V7();
  auto same = [](const TrackedStudy& a, const TrackedStudy& b, const std::string& what) {
    ASSERT_EQ(a.points.size(), b.points.size()) << what;
    EXPECT_EQ(a.refinements, b.refinements) << what;
    ASSERT_EQ(a.changes.size(), b.changes.size()) << what;
    for (std::size_t c = 0; c < a.changes.size(); ++c) EXPECT_EQ(a.changes[c].value, b.changes[c].value) << what;
    for (std::size_t k = 0; k < a.points.size(); ++k) {
      ASSERT_EQ(a.points[k].modes.size(), b.points[k].modes.size()) << what << " point " << k;
      for (std::size_t m = 0; m < a.points[k].modes.size(); ++m) {
        EXPECT_EQ(a.points[k].modes[m].name, b.points[k].modes[m].name) << what << " point " << k;
        EXPECT_EQ(a.points[k].modes[m].lambda, b.points[k].modes[m].lambda) << what << " point " << k;
      }
    }
  };
  SweepOptions options{"longitudinal.Mq", -0.992, -10.58, 1300};
  options.threads = 1;
  const TrackedStudy one = Sweep(load.file, options);
  for (int threads : {2, 3}) {
    options.threads = threads;
    same(one, Sweep(load.file, options), "Mq sweep, " + std::to_string(threads) + " threads");
  }
  LocusOptions locus;
  locus.input = "rudder";
  locus.output = "r";
  locus.washout_tau = 1.5;
  for (int i = 0; i <= 1100; ++i) locus.gains.push_back(-3.0 + 6.0 * i / 1100.0);
  locus.threads = 1;
  const TrackedStudy locus_one = Locus(load.aircraft, locus).study;
  for (int threads : {2, 3}) {
    locus.threads = threads;
    same(locus_one, Locus(load.aircraft, locus).study, "locus, " + std::to_string(threads) + " threads");
  }
}

TEST(Sweep, EveryPointsRootsEqualAnIndependentSolve) {
  const data::LoadResult load = P2V7();
  const TrackedStudy s = Sweep(load.file, {"longitudinal.Mq", -0.992, -10.0, 25});
  ASSERT_EQ(s.points.size(), 25u);
  for (const TrackedPoint& p : s.points) {
    // Independent path: the parameter table on AircraftData (P2V-7 is
    // normalized α-form imperial: the member is value × 0.3048⁰ = value 1/s).
    model::AircraftData a = load.aircraft;
    model::SetParameter(a, "longitudinal.Mq", p.value);
    ExpectSameRoots(TrackedRoots(p, model::Axis::kLongitudinal), Roots(model::BuildLongitudinal(a).A()),
                    "Mq = " + std::to_string(p.value));
    ExpectSameRoots(TrackedRoots(p, model::Axis::kLateral), Roots(model::BuildLateral(a).A()),
                    "Mq = " + std::to_string(p.value));
  }
}

// The axis a key does not enter has the first point's modes at every point,
// over several chunks of points (a sweep plans such an axis's chunk without
// its per-point roots), on one thread and two; the roots equal an
// independent solve of that axis.
TEST(Sweep, TheAxisTheKeyDoesNotEnterKeepsItsModesOverEveryChunk) {
  const data::LoadResult load = P2V7();
  struct Case {
    SweepOptions options;
    model::Axis held;
  };
  const std::vector<Case> cases{{{"longitudinal.Mq", -0.992, -10.58, 1300}, model::Axis::kLateral},
                                {{"lateral.Nr", -0.215, 0.215, 1024}, model::Axis::kLongitudinal}};
  for (Case c : cases) {
    for (int threads : {1, 2}) {
      c.options.threads = threads;
      const TrackedStudy s = Sweep(load.file, c.options);
      const std::string what = c.options.param + ", " + std::to_string(threads) + " thread(s)";
      ASSERT_EQ(s.points.size(), static_cast<std::size_t>(c.options.steps)) << what;
      auto held = [&](const TrackedPoint& p) {
        std::vector<TrackedMode> modes;
        std::copy_if(p.modes.begin(), p.modes.end(), std::back_inserter(modes),
                     [&](const TrackedMode& m) { return m.axis == c.held; });
        return modes;
      };
      const std::vector<TrackedMode> first = held(s.points.front());
      ASSERT_GE(first.size(), 2u) << what;
      const model::AircraftData& a = load.aircraft;
      ExpectSameRoots(TrackedRoots(s.points.front(), c.held),
                      Roots(c.held == model::Axis::kLateral ? model::BuildLateral(a).A() : model::BuildLongitudinal(a).A()),
                      what);
      for (const TrackedPoint& p : s.points) {
        const std::vector<TrackedMode> modes = held(p);
        ASSERT_EQ(modes.size(), first.size()) << what << " at " << p.value;
        for (std::size_t i = 0; i < modes.size(); ++i) {
          EXPECT_EQ(modes[i].name, first[i].name) << what << " at " << p.value;
          EXPECT_EQ(modes[i].lambda, first[i].lambda) << what << " at " << p.value;
        }
      }
      for (const StructureChange& change : s.changes) EXPECT_NE(change.axis, c.held) << what;
    }
  }
}

// Names at the coarse points equal those of a 40× finer continuation, and
// each mode (by origin) keeps its roots in the same place.
void ExpectMatchesFineReference(const std::string& key, double from, double to,
                                const std::vector<std::string>& expected_after) {
  const data::LoadResult load = P2V7();
  const int coarse_steps = 9;
  const TrackedStudy coarse = Sweep(load.file, {key, from, to, coarse_steps});
  const TrackedStudy fine = Sweep(load.file, {key, from, to, (coarse_steps - 1) * 40 + 1});
  for (int k = 0; k < coarse_steps; ++k) {
    const TrackedPoint& c = coarse.points[static_cast<std::size_t>(k)];
    const TrackedPoint& f = fine.points[static_cast<std::size_t>(k * 40)];
    ASSERT_NEAR(c.value, f.value, 1e-12 * std::abs(from - to));
    ASSERT_EQ(c.modes.size(), f.modes.size()) << key << " = " << c.value;
    for (const TrackedMode& m : c.modes) {
      const auto it = std::find_if(f.modes.begin(), f.modes.end(), [&](const TrackedMode& n) {
        return std::abs(n.lambda - m.lambda) < kRootTolerance * std::max(1.0, std::abs(m.lambda));
      });
      ASSERT_NE(it, f.modes.end()) << key << " = " << c.value << " " << m.name;
      EXPECT_EQ(it->name, m.name) << key << " = " << c.value;   // no branch swap
      EXPECT_EQ(it->origin, m.origin) << key << " = " << c.value;
    }
  }
  // The structure changes are found at the same values by both.
  ASSERT_EQ(coarse.changes.size(), fine.changes.size());
  for (std::size_t i = 0; i < coarse.changes.size(); ++i)
    EXPECT_NEAR(coarse.changes[i].value, fine.changes[i].value, 1e-6 * std::abs(from - to));
  std::vector<std::string> after;
  for (const StructureChange& c : coarse.changes) after.push_back(c.to);
  EXPECT_EQ(after, expected_after);
}

// The number of complex pairs of A by an independent solve (Eigen's
// EigenSolver on the whole matrix; |Im| above 1e-7 of the largest |λ|, a
// looser test than the library's, since near a coalescence rounding splits a
// double root by ~√ε).
int OracleComplexPairs(const Eigen::MatrixXd& A) {
  const Eigen::VectorXcd v = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  const double scale = std::max(1.0, v.cwiseAbs().maxCoeff());
  int pairs = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (v(i).imag() > 1e-7 * scale) ++pairs;
  return pairs;
}

// Structure changes against the independent pair count, per axis: at each
// reported change the count differs either side (a millionth of the span
// away), and between any two neighbouring samples (every point of the study,
// and both sides of every change) the count changes exactly where an odd
// number of reported changes lies between them: none missing, none invented.
void ExpectChangesWhereTheOracleCountsChange(const TrackedStudy& s, double from, double to,
                                             const std::function<Eigen::MatrixXd(double, model::Axis)>& A,
                                             const std::string& what) {
  const double d = 1e-6 * std::abs(to - from);
  const double lo = std::min(from, to), hi = std::max(from, to);
  for (model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
    std::vector<double> changes, samples;
    for (const StructureChange& c : s.changes)
      if (c.axis == axis) changes.push_back(c.value);
    for (const TrackedPoint& p : s.points) samples.push_back(p.value);
    for (double c : changes) {
      ASSERT_GT(c - d, lo) << what;
      ASSERT_LT(c + d, hi) << what;
      EXPECT_NE(OracleComplexPairs(A(c - d, axis)), OracleComplexPairs(A(c + d, axis)))
          << what << ": no change of structure at the reported " << c;
      samples.push_back(c - d);
      samples.push_back(c + d);
    }
    std::sort(samples.begin(), samples.end());
    int before = OracleComplexPairs(A(samples.front(), axis));
    for (std::size_t k = 1; k < samples.size(); ++k) {
      const int after = OracleComplexPairs(A(samples[k], axis));
      const auto between = std::count_if(changes.begin(), changes.end(), [&](double c) {
        return c > samples[k - 1] && c < samples[k];
      });
      EXPECT_EQ(between % 2 == 1, before != after)
          << what << ": " << before << " pair(s) at " << samples[k - 1] << ", " << after << " at " << samples[k]
          << ", " << between << " change(s) reported between";
      before = after;
    }
  }
}

// Sweeps whose changes fall in the first chunk (seen early, from the plan's
// roots) and in later chunks, on one thread and two, and loci across K = 0.
TEST(Sweep, StructureChangesAreWhereAnIndependentSolveCountsAnotherNumberOfPairs) {
  const data::LoadResult load = P2V7();
  struct Case {
    std::string key;
    double from, to;
    double to_si;  // the file is imperial: Mq and Nr in 1/s, Yb in ft/s² (SetParameter takes SI)
  };
  const std::vector<Case> cases{{"longitudinal.Mq", -0.992, -10.0, 1.0},
                                {"longitudinal.Mq", -10.0, -0.992, 1.0},
                                {"lateral.Nr", -0.215, -5.0, 1.0},
                                {"lateral.Yb", -45.4, -2000.0, 0.3048}};
  for (const Case& c : cases)
    for (int steps : {9, 321, 1000, 2049})
      for (int threads : {1, 2}) {
        const TrackedStudy s = Sweep(load.file, {c.key, c.from, c.to, steps, threads});
        const std::string what = c.key + " " + std::to_string(steps) + " points, " + std::to_string(threads) +
                                 " thread(s)";
        EXPECT_FALSE(s.changes.empty()) << what;
        ExpectChangesWhereTheOracleCountsChange(
            s, c.from, c.to,
            [&](double v, model::Axis axis) {
              model::AircraftData a = load.aircraft;
              model::SetParameter(a, c.key, v * c.to_si);
              return axis == model::Axis::kLongitudinal ? Eigen::MatrixXd(model::BuildLongitudinal(a).A())
                                                        : Eigen::MatrixXd(model::BuildLateral(a).A());
            },
            what);
      }
  // The pitch damper δe = K q: A + K b_δe e_qᵀ, built here by hand.
  const model::StateSpace lon = model::BuildLongitudinal(load.aircraft);
  int elevator = -1;
  for (std::size_t i = 0; i < lon.inputs().size(); ++i)
    if (lon.inputs()[i].name == "elevator") elevator = static_cast<int>(i);
  ASSERT_GE(elevator, 0);
  for (int gains : {9, 1000, 2201})
    for (int threads : {1, 2}) {
      LocusOptions o{"elevator", "q", std::nullopt, {}, threads};
      for (int k = 0; k < gains; ++k) o.gains.push_back(-2.0 + 4.0 * k / (gains - 1));
      const TrackedStudy s = Locus(load.aircraft, o).study;
      const std::string what = "pitch damper, " + std::to_string(gains) + " gains, " + std::to_string(threads) +
                               " thread(s)";
      EXPECT_FALSE(s.changes.empty()) << what;
      ExpectChangesWhereTheOracleCountsChange(
          s, -2.0, 2.0,
          [&](double K, model::Axis axis) {
            if (axis == model::Axis::kLateral) return Eigen::MatrixXd(Eigen::MatrixXd::Zero(1, 1));
            Eigen::MatrixXd A = lon.A();
            A.col(model::lon::kQ) += K * lon.B().col(elevator);
            return A;
          },
          what);
    }
}

TEST(Sweep, ShortPeriodBecomesOverdampedAsTheFineReferenceSays) {
  ExpectMatchesFineReference("longitudinal.Mq", -0.992, -10.0, {"short period (overdamped)"});
}

TEST(Sweep, DutchRollSplitsIntoRealRootsAsTheFineReferenceSays) {
  ExpectMatchesFineReference("lateral.Yb", -45.4, -2000.0, {"dutch roll (overdamped)"});
}

TEST(Sweep, RollAndSpiralCoalesceIntoTheLateralPhugoidAndSplitAgain) {
  ExpectMatchesFineReference("lateral.Nr", -0.215, -5.0,
                             {"roll-spiral oscillation (lateral phugoid)", "roll subsidence and spiral"});
}

TEST(Sweep, ConjugatesStayPairedAndEveryRootIsCountedOnce) {
  const data::LoadResult load = P2V7();
  const TrackedStudy s = Sweep(load.file, {"lateral.Nr", -0.215, -5.0, 50});
  for (const TrackedPoint& p : s.points) {
    int lat_roots = 0;
    for (const TrackedMode& m : p.modes) {
      if (m.axis != model::Axis::kLateral) continue;
      lat_roots += m.oscillatory ? 2 : 1;
      if (m.oscillatory) EXPECT_GT(m.lambda.imag(), 0.0);
      else EXPECT_EQ(m.lambda.imag(), 0.0);
    }
    EXPECT_EQ(lat_roots, 5) << p.value;
  }
}

TEST(Sweep, RejectsKeysTheFileDoesNotGiveOrThatDoNotEnterA) {
  const data::LoadResult load = P2V7();
  EXPECT_THROW(Sweep(load.file, {"longitudinal.Mw", 0, 1, 3}), std::invalid_argument);  // α-form file
  EXPECT_THROW(Sweep(load.file, {"controls.elevator.M", 0, 1, 3}), std::invalid_argument);
  EXPECT_THROW(Sweep(load.file, {"longitudinal.Mq", 0, 1, 1}), std::invalid_argument);
}

// A control's limits are keys of the file but not of A: the refusal says why.
TEST(Sweep, ControlLimitsAreRefusedWithTheirOwnReason) {
  std::string text = core::ReadInputFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  const std::size_t at = text.find("[controls.elevator]");
  ASSERT_NE(at, std::string::npos);
  text.insert(text.find('\n', at) + 1, "min = -0.3\nmax = 0.2\n");
  const data::LoadResult load = data::LoadAircraftString(text, "limited.toml");
  try {
    Sweep(load.file, {"controls.elevator.max", 0.1, 0.3, 3});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("limits bound its deflection"), std::string::npos) << e.what();
  }
}

// The Navion's normalized w-form Zwdot = 1 zeroes 1 − Zẇ, the divisor of
// its α (w) equation: the sweep names the key and the value instead of the
// eigen-solver's "non-finite entry".
TEST(Sweep, AValueWithoutAFiniteModelIsNamed) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/navion_cruise_sl.toml");
  try {
    Sweep(load.file, {"longitudinal.Zwdot", 0, 2, 11});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("at longitudinal.Zwdot = 1 the system matrix A is not finite"),
              std::string::npos)
        << e.what();
  }
  // Either side of it the model exists.
  EXPECT_EQ(Sweep(load.file, {"longitudinal.Zwdot", 0, 0.9, 4}).points.size(), 4u);
}

// A value without a model beyond the first chunk: found before the first
// chunk is handed over (the first two chunks' values are checked as their
// points are built, the later ones before any point leaves), so a streamed
// sweep writes nothing and names the value: in the second chunk and in the
// third.
TEST(Sweep, AValueWithoutAFiniteModelInALaterChunkStopsItBeforeAnyPoint) {
  const data::LoadResult load =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/navion_cruise_sl.toml");
  for (const int chunks : {1, 2}) {
    std::size_t handed = 0;
    try {
      // The last value, in chunk `chunks` (from 0), is exactly 1.
      Sweep(load.file, {"longitudinal.Zwdot", 0, 1, chunks * kSweepChunk + 11},
            [&handed](std::span<const TrackedPoint> chunk) { handed += chunk.size(); });
      ADD_FAILURE() << "no error, " << chunks;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("at longitudinal.Zwdot = 1 the system matrix A is not finite"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(handed, 0u) << chunks;
  }
}

// --from -1e308 --to 1e308: both bounds finite, their difference not; every
// value was NaN and the message blamed "value -nan zeroes a divisor".
TEST(Sweep, ARangeWhoseStepOverflowsIsNamed) {
  const data::LoadResult load = P2V7();
  try {
    Sweep(load.file, {"lateral.Nr", -1e308, 1e308, 3});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "the range from -1e+308 to 1e+308 is too wide: its step overflows (the difference "
              "of the bounds exceeds the largest number, 1.79769e+308); sweep a narrower range");
  }
  EXPECT_EQ(Sweep(load.file, {"lateral.Nr", -1.0, 0.0, 3}).points.size(), 3u);
}

// The yaw damper through a washout of 1e-300 s: a gain beyond ~1.8e8
// overflows the closed loop's A (K/τ).
LocusOptions OverflowingYawDamper() {
  LocusOptions o;
  o.input = "rudder";
  o.output = "r";
  o.washout_tau = 1e-300;
  return o;
}

// A gain that overflows the closed loop is named, not the eigen-solver's
// "Decompose: A has a non-finite entry".
TEST(Locus, AGainThatOverflowsTheLoopIsNamed) {
  const data::LoadResult load = P2V7();
  LocusOptions o = OverflowingYawDamper();
  o.gains = {0.0, 1e300};
  try {
    Locus(load.aircraft, o);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("at K = 1e+300 the closed-loop system matrix is not "
                                          "finite: the gain times the washout's 1/TAU = 1e+300 "
                                          "1/s is far outside the physical range",
                                          0),
              0u)
        << e.what();
  }
}

// With gains on both sides of 0 the halves are continued side by side (each
// checking its own gains): the first non-finite gain in increasing order is
// still the one named, whichever half it is in and on any threads, and no
// point is handed over before the error.
TEST(Locus, TheFirstNonFiniteGainIsNamedWhicheverHalfItIsIn) {
  const data::LoadResult load = P2V7();
  LocusOptions o = OverflowingYawDamper();
  const std::vector<std::pair<std::vector<double>, std::string>> cases = {
      {{-1.0, -0.5, 0.5, 1e300}, "1e+300"},          // the K > 0 half alone
      {{-1e300, -1.0, 0.5, 1e300}, "-1e+300"},       // both: the lower
      {{-1e300, -2e299, 1.0, 2.0}, "-1e+300"},       // the K < 0 half alone
  };
  for (const auto& [gains, named] : cases)
    for (int threads : {1, 2, 3}) {
      o.gains = gains;
      o.threads = threads;
      std::size_t handed = 0;
      try {
        Locus(load.aircraft, o, [&](std::span<const TrackedPoint> chunk) { handed += chunk.size(); });
        ADD_FAILURE() << "no error";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("at K = " + named + " the closed-loop system matrix is not finite", 0),
                  0u)
            << e.what() << " (threads " << threads << ")";
      }
      EXPECT_EQ(handed, 0u) << named << ", threads " << threads;
    }
}

TEST(Locus, WashoutLoopEqualsTheClosedLoopMatrixBuiltByHand) {
  const data::LoadResult load = P2V7();
  const model::StateSpace lat = model::BuildLateral(load.aircraft);
  const double tau = 1.5, K = 0.8, a = 1.0 / tau;
  int rudder = -1;
  for (int j = 0; j < lat.num_inputs(); ++j)
    if (lat.inputs()[static_cast<std::size_t>(j)].name == "rudder") rudder = j;
  ASSERT_GE(rudder, 0);
  // x = (β, p, r, φ, ψ, x_w): ẋ = A x + b δ, ẋ_w = r − a x_w, δ = K (r − a x_w).
  Eigen::MatrixXd hand = Eigen::MatrixXd::Zero(6, 6);
  hand.topLeftCorner(5, 5) = lat.A();
  const Eigen::VectorXd b = lat.B().col(rudder);
  hand.col(model::lat::kR).head(5) += K * b;
  hand.col(5).head(5) = -K * a * b;
  hand(5, model::lat::kR) = 1.0;
  hand(5, 5) = -a;
  LocusOptions o{"rudder", "r", tau, {K}, 1};
  const Eigen::MatrixXd built = ClosedLoopMatrix(load.aircraft, o, K);
  EXPECT_LT((built - hand).cwiseAbs().maxCoeff(), 1e-14);
  const LocusResult locus = Locus(load.aircraft, o);
  ASSERT_EQ(locus.study.points.size(), 1u);
  ExpectSameRoots(TrackedRoots(locus.study.points[0], model::Axis::kLateral), Roots(hand), "K = 0.8");
  // The yaw damper (δr = K r, N_δr < 0 on the P2V-7, so K > 0) adds Dutch-roll damping.
  const LocusResult sweep = Locus(load.aircraft, {"rudder", "r", tau, {0.0, 0.5, 1.0}, 1});
  auto dr_zeta = [](const TrackedPoint& p) {
    for (const TrackedMode& m : p.modes)
      if (m.origin == "dutch roll") return m.zeta;
    return -2.0;
  };
  EXPECT_LT(dr_zeta(sweep.study.points[0]), dr_zeta(sweep.study.points[2]));
}

// A streamed locus hands its points over sorted by gain, however the gains
// are listed (repeats once), at most kSweepChunk at a time, and every point's
// roots are those of the closed loop at its own gain (an independent solve of
// ClosedLoopMatrix): gains below 0, continued outward from K = 0 and handed
// over back from the most negative, and gains above, each over several chunks.
TEST(Locus, StreamedPointsAreSortedChunkedAndEachTheClosedLoopsAtItsGain) {
  const data::LoadResult load = P2V7();
  LocusOptions o{"rudder", "r", 1.5, {}, 0};
  for (int k = 0; k < 1500; ++k) o.gains.push_back(-2.0 + 5.0 * ((k * 677) % 1500) / 1499.0);  // shuffled
  o.gains.push_back(o.gains[10]);
  std::vector<double> sorted = o.gains;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<TrackedPoint> points;
  std::size_t chunks = 0;
  const TrackedStudy study = Locus(load.aircraft, o, [&](std::span<const TrackedPoint> chunk) {
    EXPECT_GE(chunk.size(), 1u);
    EXPECT_LE(chunk.size(), static_cast<std::size_t>(kSweepChunk));
    ++chunks;
    points.insert(points.end(), chunk.begin(), chunk.end());
  });
  EXPECT_TRUE(study.points.empty());
  EXPECT_GE(chunks, 4u);
  ASSERT_EQ(points.size(), sorted.size());
  for (std::size_t k = 0; k < points.size(); ++k) {
    ASSERT_EQ(points[k].value, sorted[k]) << k;
    if (k % 37 == 0 || k + 1 == points.size())
      ExpectSameRoots(TrackedRoots(points[k], model::Axis::kLateral),
                      Roots(ClosedLoopMatrix(load.aircraft, o, sorted[k])), "K = " + std::to_string(sorted[k]));
  }
  // The whole locus is these points with the streamed study's changes and notes.
  const LocusResult whole = Locus(load.aircraft, o);
  EXPECT_EQ(whole.study.changes.size(), study.changes.size());
  EXPECT_EQ(whole.study.notes, study.notes);
  EXPECT_EQ(whole.study.refinements, study.refinements);
  const LocusResult head = DescribeLocus(load.aircraft, o);
  EXPECT_EQ(head.gain_unit, whole.gain_unit);
  EXPECT_EQ(head.open_loop_poles, whole.open_loop_poles);
  EXPECT_TRUE(head.study.points.empty());
}

// Gains below 0 are continued to the most negative first, then named chunk
// by chunk going back: the last chunk is named in that first pass when the
// grid is seen to end within it, else continued again from its copy. Both
// ways give the same points, bit for bit: the continuation is causal (a
// point depends on the grid up to it), so 1022 gains below 0 (K = 0 first:
// 512 + 511 grid points, the second chunk named in the first pass) and the
// same with one more gain (512 + 512: the second continued again) agree on
// every point of the first, names and roots. The loop, elevator:alpha
// reversed, couples the short period and the phugoid: the second chunk
// (K < -1.533) has a structure change at K = -1.59.
TEST(Locus, NegativeGainsNamedInTheFirstPassEqualTheContinuationRunAgain) {
  const data::LoadResult load = P2V7();
  LocusOptions within{"elevator", "alpha", std::nullopt, {}, 2};
  for (int k = 1022; k >= 1; --k) within.gains.push_back(-0.003 * k);
  LocusOptions at_end = within;
  at_end.gains.insert(at_end.gains.begin(), -0.003 * 1023);
  const LocusResult a = Locus(load.aircraft, within), b = Locus(load.aircraft, at_end);
  ASSERT_EQ(a.study.points.size(), 1022u);
  ASSERT_EQ(b.study.points.size(), 1023u);
  for (std::size_t k = 0; k < a.study.points.size(); ++k) {
    const TrackedPoint& p = a.study.points[k];
    const TrackedPoint& q = b.study.points[k + 1];
    ASSERT_EQ(p.value, q.value) << k;
    ASSERT_EQ(p.modes.size(), q.modes.size()) << k;
    for (std::size_t i = 0; i < p.modes.size(); ++i) {
      EXPECT_EQ(p.modes[i].name, q.modes[i].name) << p.value;
      EXPECT_EQ(p.modes[i].origin, q.modes[i].origin) << p.value;
      EXPECT_EQ(p.modes[i].lambda, q.modes[i].lambda) << p.value;  // bit for bit
    }
  }
  ASSERT_EQ(a.study.changes.size(), 3u);
  ASSERT_EQ(b.study.changes.size(), 3u);
  EXPECT_LT(a.study.changes.front().value, -0.003 * 511);
  for (std::size_t i = 0; i < a.study.changes.size(); ++i) {
    EXPECT_EQ(a.study.changes[i].value, b.study.changes[i].value);
    EXPECT_EQ(a.study.changes[i].from, b.study.changes[i].from);
    EXPECT_EQ(a.study.changes[i].to, b.study.changes[i].to);
  }
}

TEST(Locus, PitchDamperNamesMatchAerolinModesAtEveryGain) {
  const data::LoadResult load = P2V7();
  const LocusResult locus = Locus(load.aircraft, {"elevator", "q", std::nullopt, {0.0, 0.1, 0.2, 0.4}, 1});
  for (const TrackedPoint& p : locus.study.points)
    for (const TrackedMode& m : p.modes) EXPECT_EQ(m.pointwise_name, "") << p.value << " " << m.name;
  EXPECT_THROW(Locus(load.aircraft, {"elevator", "r", std::nullopt, {1.0}, 1}), std::invalid_argument);
  EXPECT_THROW(Locus(load.aircraft, {"flaps", "q", std::nullopt, {1.0}, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::study

namespace aerolin::study {
namespace {

TEST(ResolveSweepKey, ABareKeyUniqueAcrossSectionsIsAccepted) {
  const data::LoadResult load = P2V7();
  EXPECT_EQ(ResolveSweepKey(load.file, "Ma").path, "longitudinal.Ma");
  EXPECT_EQ(ResolveSweepKey(load.file, "U0").path, "condition.U0");
  EXPECT_EQ(ResolveSweepKey(load.file, "longitudinal.Mq").path, "longitudinal.Mq");
  SweepOptions o;
  o.param = "Nr";
  o.from = -0.3;
  o.to = -0.1;
  o.steps = 2;
  EXPECT_EQ(Sweep(load.file, o).param, "lateral.Nr");  // reported in full
}

TEST(ResolveSweepKey, AnAmbiguousBareKeyNamesEverySectionThatHasIt) {
  const data::LoadResult load = P2V7();
  try {
    ResolveSweepKey(load.file, "N");
    FAIL() << "N ends controls.aileron.N and controls.rudder.N";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("several sections"), std::string::npos) << what;
    EXPECT_NE(what.find("controls.aileron.N"), std::string::npos) << what;
    EXPECT_NE(what.find("controls.rudder.N"), std::string::npos) << what;
  }
  EXPECT_THROW(ResolveSweepKey(load.file, "Mw"), std::invalid_argument);   // no such key
  EXPECT_THROW(ResolveSweepKey(load.file, "lateral.Ma"), std::invalid_argument);  // not bare: as written
}

}  // namespace
}  // namespace aerolin::study

namespace aerolin::study {
namespace {

// A sweep of a file with [augmentation] sweeps the closed loop with the gains
// held: at Nr + 30 % its lateral roots are those of A − B K built here from
// the bare airframe with that Nr (a yaw damper δr = 1.2 r written as a loop,
// so K's row is −1.2 at r).
TEST(Sweep, OfAnAugmentedFileHoldsTheGainsAndSweepsTheClosedLoop) {
  const std::string path = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";
  const std::string text = core::ReadInputFile(path) +
                           "\n[augmentation.lateral]\nunits = \"SI\"\n"
                           "loops = [\n  { input = \"rudder\", output = \"r\", gain = 1.2 },\n]\n";
  const data::LoadResult loaded = data::LoadAircraftString(text, path);
  ASSERT_TRUE(loaded.aircraft.lateral_augmentation);
  const double Nr = loaded.aircraft.lateral.Nr;  // normalized, primed, 1/s: as written
  const TrackedStudy s = Sweep(loaded.file, {"lateral.Nr", 0.7 * Nr, 1.3 * Nr, 3, 1});
  ASSERT_EQ(s.points.size(), 3u);
  model::AircraftData bare = model::BareAirframe(loaded.aircraft);
  bare.lateral.Nr = 1.3 * Nr;
  const model::StateSpace lat = model::BuildLateral(bare);
  int rudder = 0;
  while (lat.inputs()[static_cast<std::size_t>(rudder)].name != "rudder") ++rudder;
  Eigen::MatrixXd A = lat.A();
  A.col(model::lat::kR) += lat.B().col(rudder) * 1.2;
  const Eigen::VectorXcd roots = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  // The bare airframe's roots there differ: the sweep did not drop the gain.
  const Eigen::VectorXcd bare_roots = Eigen::EigenSolver<Eigen::MatrixXd>(lat.A(), false).eigenvalues();
  int lateral = 0, moved = 0;
  for (const TrackedMode& m : s.points.back().modes) {
    if (m.axis != model::Axis::kLateral) continue;
    ++lateral;
    double nearest = 1e300, nearest_bare = 1e300;
    for (Eigen::Index i = 0; i < roots.size(); ++i) {
      nearest = std::min(nearest, std::abs(roots(i) - m.lambda));
      nearest_bare = std::min(nearest_bare, std::abs(bare_roots(i) - m.lambda));
    }
    EXPECT_LT(nearest, 1e-10) << m.name << " " << m.lambda;
    moved += nearest_bare > 1e-3 ? 1 : 0;
  }
  EXPECT_EQ(lateral, 4);  // roll, dutch roll, spiral, heading
  EXPECT_GE(moved, 2);    // at least the Dutch roll's pair is not the bare airframe's
}

}  // namespace
}  // namespace aerolin::study
