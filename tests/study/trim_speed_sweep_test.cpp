// study::SweepTrimSpeed: the linearized modes against the trim speed.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "bundled_aircraft.hpp"

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/study/linearize.hpp"
#include "aerolin/study/tracked.hpp"
#include "aerolin/study/trim.hpp"

namespace aerolin::study {
namespace {

using test::kBundledAircraft;
const auto Load = test::LoadBundled;

// Every root of a point's tracked modes (both members of a pair; the heading root).
std::vector<std::complex<double>> RootsOf(const TrackedPoint& p) {
  std::vector<std::complex<double>> roots;
  for (const TrackedMode& m : p.modes) {
    roots.push_back(m.lambda);
    if (m.oscillatory) roots.push_back(std::conj(m.lambda));
  }
  return roots;
}

// Largest distance from a root of `want` to its nearest unused root of
// `got`, relative to the largest |λ| (both sets the same size).
double SetDistance(std::vector<std::complex<double>> got, const std::vector<std::complex<double>>& want) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double scale = 1e-300, worst = 0;
  for (const auto& w : want) scale = std::max(scale, std::abs(w));
  for (const auto& w : want) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < got.size(); ++i)
      if (std::abs(got[i] - w) < std::abs(got[best] - w)) best = i;
    worst = std::max(worst, std::abs(got[best] - w));
    got.erase(got.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return worst / scale;
}

// The file's speed unit per m/s, as the CLI gives from and to.
double SpeedToSI(const std::string& file) {
  const data::LoadResult load = data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/" + file);
  return core::ToSI(1.0, load.units, core::kSpeed);
}

// Each point's roots are the eigenvalues of the linearization at that speed,
// solved directly (Eigen's general solver on the built A of both axes; the
// sweep tracks the lateral (β, p, r, φ) block and adds the heading root),
// on every bundled aircraft from 0.9 to 1.1 of its reference speed.
TEST(TrimSpeedSweep, EachPointHasTheEigenvaluesOfTheLinearizationAtItsSpeed) {
  for (const std::string& file : kBundledAircraft) {
    SCOPED_TRACE(file);
    const model::AircraftData a = Load(file);
    const TrimRequest reference = ReferenceRequest(a);
    TrimSpeedSweepOptions o;
    o.to_si = SpeedToSI(file);
    o.from = 0.9 * reference.speed / o.to_si;
    o.to = 1.1 * reference.speed / o.to_si;
    o.steps = 5;
    o.altitude = reference.altitude;
    const TrackedStudy s = SweepTrimSpeed(a, o);
    ASSERT_EQ(s.points.size(), 5u);
    EXPECT_EQ(s.param, "trim speed");
    for (const TrackedPoint& p : s.points) {
      SCOPED_TRACE(p.value);
      TrimRequest r;
      r.speed = p.value * o.to_si;
      r.altitude = o.altitude;
      const model::AircraftData linear = Linearize(a, r).aircraft;
      std::vector<std::complex<double>> want;
      for (const Eigen::MatrixXd& A :
           {model::BuildLongitudinal(linear).A(), model::BuildLateral(linear).A()}) {
        const Eigen::VectorXcd ev = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
        for (Eigen::Index i = 0; i < ev.size(); ++i) want.push_back(ev(i));
      }
      EXPECT_LT(SetDistance(RootsOf(p), want), 1e-9);
    }
  }
}

// At the file's own speed, height and climb angle the linearization is the
// file (linearize's round trip), so the first point is `aerolin modes` of
// the file itself: the same names, the same roots.
TEST(TrimSpeedSweep, AtTheReferenceSpeedTheFirstPointIsTheFilesOwnModes) {
  const std::string file = "derivatives/p2v7.toml";
  const model::AircraftData a = Load(file);
  const TrimRequest reference = ReferenceRequest(a);
  TrimSpeedSweepOptions o;
  o.to_si = SpeedToSI(file);
  o.from = reference.speed / o.to_si;
  o.to = 1.2 * o.from;
  o.steps = 3;
  o.altitude = reference.altitude;
  o.gamma = reference.gamma;
  const TrackedStudy s = SweepTrimSpeed(a, o);
  const std::vector<analysis::Mode> lon =
      analysis::AnalyzeLongitudinal(model::BuildLongitudinal(a), a.condition.U0);
  const std::vector<analysis::Mode> lat = analysis::AnalyzeLateral(model::BuildLateral(a));
  std::vector<analysis::Mode> own = lon;
  own.insert(own.end(), lat.begin(), lat.end());
  const TrackedPoint& first = s.points.front();
  ASSERT_EQ(first.modes.size(), own.size());
  for (std::size_t i = 0; i < own.size(); ++i) {
    SCOPED_TRACE(own[i].full_name());
    EXPECT_EQ(first.modes[i].name, own[i].full_name());
    EXPECT_LT(std::abs(first.modes[i].lambda - own[i].lambda), 1e-7 * std::max(1.0, std::abs(own[i].lambda)));
  }
}

// What the speed does, by the textbook's approximations (Etkin & Reid §6.3):
// at one density the short period's ωn grows about in proportion to V (Mα
// and Zα/U0 scale with q̄ and V), the phugoid's falls about as √2·g/V
// (Lanchester); the tracked names stay on their modes across the sweep.
TEST(TrimSpeedSweep, TheShortPeriodStiffensAndThePhugoidSlowsWithSpeed) {
  const std::string file = "derivatives/p2v7.toml";
  const model::AircraftData a = Load(file);
  TrimSpeedSweepOptions o;
  o.to_si = SpeedToSI(file);
  o.from = 260;  // ft/s
  o.to = 360;
  o.steps = 11;
  const TrackedStudy s = SweepTrimSpeed(a, o);
  auto mode = [](const TrackedPoint& p, const std::string& origin) {
    for (const TrackedMode& m : p.modes)
      if (m.origin == origin) return m;
    ADD_FAILURE() << origin << " not at " << p.value;
    return TrackedMode{};
  };
  const TrackedPoint &slow = s.points.front(), &fast = s.points.back();
  const double ratio = fast.value / slow.value;
  EXPECT_NEAR(mode(fast, "short period").wn / mode(slow, "short period").wn, ratio, 0.1 * ratio);
  EXPECT_NEAR(mode(fast, "phugoid").wn / mode(slow, "phugoid").wn, 1 / ratio, 0.15 / ratio);
  for (const TrackedPoint& p : s.points) {
    const double lanchester = std::sqrt(2.0) * a.condition.g / (p.value * o.to_si);
    EXPECT_NEAR(mode(p, "phugoid").wn, lanchester, 0.15 * lanchester) << p.value;
  }
}

// A speed the model cannot trim at is an error naming that speed, found
// before any point is handed over.
TEST(TrimSpeedSweep, ASpeedWithoutATrimIsAnErrorBeforeAnyPoint) {
  const std::string file = "derivatives/p2v7.toml";
  TrimSpeedSweepOptions o;
  o.to_si = SpeedToSI(file);
  o.from = 300;
  o.to = 150;  // ft/s: far below the reference's 294, beyond its α range
  o.steps = 4;
  int chunks = 0;
  try {
    SweepTrimSpeed(Load(file), o, [&](std::span<const TrackedPoint>) { ++chunks; });
    ADD_FAILURE() << "no error";
  } catch (const TrimError& e) {
    EXPECT_NE(std::string(e.what()).find("at trim speed 150: no trim"), std::string::npos) << e.what();
  }
  EXPECT_EQ(chunks, 0);
}

TEST(TrimSpeedSweep, RefusesAnAugmentedAircraftAndBadSpeeds) {
  model::AircraftData a = Load("derivatives/p2v7.toml");
  TrimSpeedSweepOptions o;
  o.from = 80;
  o.to = 100;
  o.steps = 0;
  EXPECT_THROW(SweepTrimSpeed(a, o), std::invalid_argument);
  o.steps = 3;
  o.from = 0;
  EXPECT_THROW(SweepTrimSpeed(a, o), std::invalid_argument);
  o.from = std::nan("");
  EXPECT_THROW(SweepTrimSpeed(a, o), std::invalid_argument);
  o.from = 80;
  a.lateral_augmentation.emplace();
  try {
    SweepTrimSpeed(a, o);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[augmentation]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace aerolin::study
