// The gain that maximizes a mode's damping: against an independent dense scan
// of ζ(K) (the closed-loop matrix solved directly at every K, the mode's root
// followed by nearest-root continuity here in the test), and the cases where
// there is nothing to refine (range end, overdamped, real, absent).

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <span>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/maximize_damping.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

model::AircraftData Load(const std::string& file) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + file).aircraft;
}

std::vector<double> Linspace(double from, double to, int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) v[static_cast<std::size_t>(k)] = from + (to - from) * k / (n - 1);
  return v;
}

double Zeta(cd l) { return std::abs(l) > 0 ? -l.real() / std::abs(l) : 1.0; }

Eigen::VectorXcd Eigenvalues(const model::AircraftData& a, const LocusOptions& o, double K) {
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(ClosedLoopMatrix(a, o, K), false);
  EXPECT_EQ(solver.info(), Eigen::Success);
  return solver.eigenvalues();
}

cd Nearest(const Eigen::VectorXcd& v, cd to) {
  cd best = v(0);
  for (Eigen::Index i = 1; i < v.size(); ++i)
    if (std::abs(v(i) - to) < std::abs(best - to)) best = v(i);
  return best;
}

// The oracle's continuation: from `start` (the root at K[0]), at each next K
// the eigenvalue nearest the linear prediction from the previous two.
std::vector<cd> Follow(const model::AircraftData& a, const LocusOptions& o, const std::vector<double>& K,
                       cd start) {
  std::vector<cd> roots{start};
  for (std::size_t k = 1; k < K.size(); ++k) {
    const cd predicted = k >= 2 ? roots[k - 1] + (roots[k - 1] - roots[k - 2]) * ((K[k] - K[k - 1]) / (K[k - 1] - K[k - 2]))
                                : roots[k - 1];
    roots.push_back(Nearest(Eigenvalues(a, o, K[k]), predicted));
  }
  return roots;
}

// The open-loop root (Im ≥ 0) of the mode `kind` on the loop's axis.
cd OpenLoopRoot(const model::AircraftData& a, analysis::ModeKind kind) {
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
  for (const auto* list : {&modes.longitudinal, &modes.lateral})
    for (const analysis::Mode& m : *list)
      if (m.kind == kind) return m.lambda;
  ADD_FAILURE() << "no mode " << analysis::ToString(kind);
  return {};
}

// Where the oracle puts the maximum: the best point of a dense scan from
// K = 0, then a scan 100× finer over that point's neighbours, and the vertex
// of the parabola through the finest best point and its two neighbours.
struct OracleMaximum {
  double gain = 0, zeta = 0;
  double curvature = 0;      // |d²ζ/dK²| at the maximum
  double dense_best = 0;     // the largest ζ of the dense scan
  std::vector<double> fine_K;
  std::vector<cd> fine_roots;
};

OracleMaximum ScanForMaximum(const model::AircraftData& a, const LocusOptions& o, cd open_loop_root,
                             double K_end, int dense_points) {
  const std::vector<double> K = Linspace(0.0, K_end, dense_points);
  const std::vector<cd> roots = Follow(a, o, K, Nearest(Eigenvalues(a, o, 0.0), open_loop_root));
  std::size_t best = 0;
  for (std::size_t k = 1; k < K.size(); ++k)
    if (Zeta(roots[k]) > Zeta(roots[best])) best = k;
  OracleMaximum out;
  out.dense_best = Zeta(roots[best]);
  EXPECT_TRUE(best > 0 && best + 1 < K.size()) << "the oracle's maximum is at the end of its scan";
  // (that failure is reported; keep the fine scan's indices inside K.)
  best = std::clamp<std::size_t>(best, 1, K.size() - 2);
  // Continue the oracle's own path into the fine scan (from K[best − 1]).
  out.fine_K = Linspace(K[best - 1], K[best + 1], 201);
  out.fine_roots = Follow(a, o, out.fine_K, roots[best - 1]);
  std::size_t f = 1;
  for (std::size_t k = 1; k + 1 < out.fine_K.size(); ++k)
    if (Zeta(out.fine_roots[k]) > Zeta(out.fine_roots[f])) f = k;
  const double h = out.fine_K[1] - out.fine_K[0];
  const double z0 = Zeta(out.fine_roots[f - 1]), z1 = Zeta(out.fine_roots[f]), z2 = Zeta(out.fine_roots[f + 1]);
  const double second = z2 - 2 * z1 + z0;
  out.gain = out.fine_K[f] - 0.5 * h * (z2 - z0) / second;
  out.zeta = z1 - (z2 - z0) * (z2 - z0) / (8 * second);
  out.curvature = std::abs(second) / (h * h);
  return out;
}

struct Case {
  std::string file;
  std::string input, output;
  double washout;  // 0: none
  analysis::ModeKind kind;
  double K_end;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.file << " " << c.input << ":" << c.output << " washout " << c.washout;
}

LocusOptions OptionsOf(const Case& c, const std::vector<double>& gains) {
  LocusOptions o;
  o.input = c.input;
  o.output = c.output;
  if (c.washout > 0) o.washout_tau = c.washout;
  o.gains = gains;
  return o;
}

// ζ from one eigen-solve is good to about this (|A| ≈ 10, 1e-16 relative,
// amplified by the eigenvector conditioning of these 5-7 state loops).
constexpr double kZetaRoundOff = 1e-13;

class RefinedMaximum : public ::testing::TestWithParam<Case> {};

// The refined gain and ζ equal the oracle's maximum to Brent's tolerance;
// the refined root is the oracle's root (continuity from K = 0, here) at that
// gain; the best listed gain is next to it.
TEST_P(RefinedMaximum, EqualsADenseIndependentScan) {
  const Case& c = GetParam();
  const model::AircraftData a = Load(c.file);
  const LocusOptions o = OptionsOf(c, Linspace(0.0, c.K_end, 61));
  const LocusResult locus = Locus(a, o);
  const std::string mode = analysis::ToString(c.kind);
  MaximizeOptions m;
  m.relative_tolerance = 1e-6;
  const DampingOptimum opt = MaximizeDamping(a, o, locus, mode, m);
  ASSERT_EQ(opt.kind, DampingOptimumKind::kRefined) << c.file;
  const OracleMaximum oracle = ScanForMaximum(a, o, OpenLoopRoot(a, c.kind), c.K_end, 3001);

  // Brent stops when the bracket half-width is within 2(tol|K| + tol/4);
  // the oracle's vertex is good to the round-off floor of locating a
  // quadratic maximum from values, √(2 ε_ζ/|ζ''|) (its O(h²) error is far
  // below: h = K_end/150 000).
  const double tol = m.relative_tolerance;
  const double bound = 2 * (tol * std::abs(opt.gain) + tol / 4) + std::sqrt(2 * kZetaRoundOff / oracle.curvature);
  EXPECT_NEAR(opt.gain, oracle.gain, bound) << c.file << " " << c.input << ":" << c.output;
  // ζ at a gain that close to the maximum differs by ζ''·ΔK²/2.
  EXPECT_NEAR(opt.zeta, oracle.zeta, 0.5 * oracle.curvature * bound * bound + kZetaRoundOff) << c.file;
  EXPECT_GE(opt.zeta, oracle.dense_best - kZetaRoundOff) << c.file << ": a scan point is better";
  EXPECT_GE(opt.zeta, opt.grid.mode.zeta);
  EXPECT_NEAR(opt.wn, std::abs(opt.lambda), 1e-15 * opt.wn);

  // The same root as the oracle's continuity path: follow it on to opt.gain.
  std::size_t before = 0;
  while (before + 1 < oracle.fine_K.size() && oracle.fine_K[before + 1] <= opt.gain) ++before;
  const cd oracle_root =
      Follow(a, o, {oracle.fine_K[before], opt.gain}, oracle.fine_roots[before]).back();
  EXPECT_LT(std::abs(oracle_root - opt.lambda), 1e-9 * std::abs(opt.lambda)) << c.file;

  // The listed gain is a neighbour of the maximum, and the search stayed between its neighbours.
  EXPECT_LE(std::abs(opt.grid.gain - oracle.gain), c.K_end / 60) << c.file;
  EXPECT_LE(opt.bracket_low, opt.gain);
  EXPECT_GE(opt.bracket_high, opt.gain);
  EXPECT_NEAR(opt.bracket_high - opt.bracket_low, 2 * c.K_end / 60, 1e-12);
  EXPECT_EQ(opt.name, mode) << c.file;
  EXPECT_GT(opt.evaluations, 3);
  EXPECT_LE(opt.evaluations, m.max_evaluations);
  EXPECT_TRUE(opt.other_local_maxima.empty());
}

INSTANTIATE_TEST_SUITE_P(
    YawAndPitchDampers, RefinedMaximum,
    ::testing::Values(
        // The P2V-7 yaw damper of the README, and the other bundled aircraft's.
        Case{"p2v7.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 3.0},
        Case{"navion_cruise_sl.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 3.0},
        Case{"a7a_clean_m025_sl.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 6.0},
        Case{"boeing747_cruise_40kft.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 3.0},
        Case{"nt33a_power_approach_sl.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 3.0},
        // Pitch dampers through a washout: without one the short period only
        // gains damping until it is overdamped (see OverdampedPitchDamper).
        Case{"p2v7.toml", "elevator", "q", 1.0, analysis::ModeKind::kShortPeriod, 3.0},
        Case{"boeing747_cruise_40kft.toml", "elevator", "q", 2.0, analysis::ModeKind::kShortPeriod, 3.0}),
    [](const ::testing::TestParamInfo<Case>& info) {
      const std::string& f = info.param.file;
      return f.substr(0, std::min(f.find('_'), f.find('.'))) + "_" + info.param.input;
    });

// The best listed gain at an end of the range is reported as such, not
// refined: ζ still rises beyond it (the oracle checks that it does).
TEST(MaximizeDamping, AtTheEndOfTheGainRange) {
  const model::AircraftData a = Load("p2v7.toml");
  const Case c{"p2v7.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 1.0};
  for (const auto& [from, to] : {std::pair{0.0, 1.0}, std::pair{-3.0, 0.0}}) {
    const LocusOptions o = OptionsOf(c, Linspace(from, to, 21));
    const DampingOptimum opt = MaximizeDamping(a, o, Locus(a, o), "dutch roll");
    EXPECT_EQ(opt.kind, DampingOptimumKind::kAtRangeEnd) << from << ":" << to;
    const double end = to;  // ζ rises towards the top of both ranges
    EXPECT_EQ(opt.grid.gain, end);
    EXPECT_EQ(opt.gain, end);
    const cd start = Nearest(Eigenvalues(a, o, 0.0), OpenLoopRoot(a, c.kind));
    const cd at_end = end == 0.0 ? start : Follow(a, o, Linspace(0.0, end, 200), start).back();
    const cd beyond = Follow(a, o, Linspace(0.0, end + 0.05, 200), start).back();
    EXPECT_GT(Zeta(beyond), Zeta(at_end)) << "zeta rises beyond K = " << end;
    EXPECT_NEAR(opt.zeta, Zeta(at_end), 1e-9);
  }
}

// A pitch damper without washout only adds damping until the short period
// splits into two real roots: nothing to refine, and the overdamped run of
// listed gains starts at the first listed gain past the split the oracle
// finds (the first K of a fine scan whose eigenvalues have one pair fewer).
TEST(MaximizeDamping, OverdampedPitchDamper) {
  for (const std::string file : {"navion_cruise_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a = Load(file);
    const Case c{file, "elevator", "q", 0.0, analysis::ModeKind::kShortPeriod, 3.0};
    const std::vector<double> gains = Linspace(0.0, 3.0, 31);
    const LocusOptions o = OptionsOf(c, gains);
    const DampingOptimum opt = MaximizeDamping(a, o, Locus(a, o), "short period");
    EXPECT_EQ(opt.kind, DampingOptimumKind::kOverdamped) << file;
    EXPECT_EQ(opt.zeta, 1.0);
    EXPECT_EQ(opt.overdamped_to, 3.0);
    auto pairs = [&](double K) {
      int n = 0;
      for (const cd& l : Eigenvalues(a, o, K)) n += l.imag() > 1e-9;
      return n;
    };
    double split = std::numeric_limits<double>::quiet_NaN();
    const int open_pairs = pairs(0.0);
    for (double K : Linspace(0.0, 3.0, 30001))
      if (pairs(K) < open_pairs) {
        split = K;
        break;
      }
    const double first_listed = *std::lower_bound(gains.begin(), gains.end(), split);
    EXPECT_NEAR(opt.overdamped_from, first_listed, 1e-12) << file << ": split at K = " << split;
  }
}

// ζ of a pair can rise to 1 where the pair splits into two real roots
// between the listed gains: the P2V-7's phugoid (coupled with the short
// period) under an α feedback, K from −2 to 0. The split is located where a
// direct eigen-solve finds one complex pair fewer just past it than just
// before it (towards the best listed gain).
TEST(MaximizeDamping, APairThatBecomesRealBetweenTheListedGains) {
  const model::AircraftData a = Load("p2v7.toml");
  LocusOptions o;
  o.input = "elevator";
  o.output = "alpha";
  o.gains = Linspace(-2.0, 0.0, 21);
  const DampingOptimum opt = MaximizeDamping(a, o, Locus(a, o), "phugoid");
  ASSERT_EQ(opt.kind, DampingOptimumKind::kBecomesReal);
  EXPECT_NEAR(opt.zeta, 1.0, 1e-12);
  EXPECT_LT(opt.grid.mode.zeta, opt.zeta);
  EXPECT_GE(opt.gain, opt.bracket_low);
  EXPECT_LE(opt.gain, opt.bracket_high);
  auto pairs = [&](double K) {
    int n = 0;
    for (const cd& l : Eigenvalues(a, o, K)) n += l.imag() > 1e-9;
    return n;
  };
  const double towards_best = opt.grid.gain > opt.gain ? 1.0 : -1.0;
  constexpr double kStep = 1e-6;  // well above the bisection's 1e-9, well below the grid's 0.1
  EXPECT_EQ(pairs(opt.gain + towards_best * kStep), pairs(opt.gain - towards_best * kStep) + 1) << opt.gain;
}

// The mode absent from the locus, and a mode that is a real root at every gain.
TEST(MaximizeDamping, AbsentAndRealModesSaySo) {
  const model::AircraftData a = Load("p2v7.toml");
  const Case c{"p2v7.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 3.0};
  const LocusOptions o = OptionsOf(c, Linspace(0.0, 3.0, 31));
  const LocusResult locus = Locus(a, o);
  const DampingOptimum absent = MaximizeDamping(a, o, locus, "phugoid");
  EXPECT_EQ(absent.kind, DampingOptimumKind::kAbsent);
  EXPECT_FALSE(absent.grid.found);
  // Real everywhere: the P2V-7's spiral under the yaw damper; the oracle
  // follows its root from K = 0 and finds it real at every gain.
  const DampingOptimum real = MaximizeDamping(a, o, locus, "spiral");
  EXPECT_EQ(real.kind, DampingOptimumKind::kReal);
  const std::vector<cd> path = Follow(a, o, Linspace(0.0, 3.0, 3001),
                                      Nearest(Eigenvalues(a, o, 0.0), OpenLoopRoot(a, analysis::ModeKind::kSpiral)));
  for (const cd& l : path) EXPECT_LT(std::abs(l.imag()), 1e-9) << l;
}

// DampingScan takes a locus's points as they are handed over and keeps only
// what MaximizeDamping needs; on a hand-made ζ sequence of one mode (another
// mode of larger ζ beside it, a point without it) it finds what reading the
// sequence whole says: the first of the equal best, its neighbours, the run of
// equal ζ after it, the other strict local maxima, the largest |K|; in
// chunks of any size alike.
TEST(DampingScan, FindsWhatTheWholeSequenceSays) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> zeta{0.1, 0.3, 0.2, 0.5, 0.5, 0.5, 0.4, nan, 0.45, 0.3, 0.35, 0.2};
  std::vector<TrackedPoint> points;
  for (std::size_t k = 0; k < zeta.size(); ++k) {
    TrackedPoint p{-3.0 + 0.5 * static_cast<double>(k), {}};
    TrackedMode other;
    other.name = other.origin = "spiral";
    other.zeta = 0.9;
    p.modes.push_back(other);
    if (!std::isnan(zeta[k])) {
      TrackedMode m;
      m.name = m.origin = "dutch roll";
      m.zeta = zeta[k];
      m.oscillatory = true;
      p.modes.push_back(m);
    }
    points.push_back(p);
  }
  for (const std::size_t size : {std::size_t{1}, std::size_t{3}, zeta.size()}) {
    DampingScan scan("dutch roll");
    for (std::size_t at = 0; at < points.size(); at += size)
      scan.Add(std::span<const TrackedPoint>(points).subspan(at, std::min(size, points.size() - at)));
    ASSERT_TRUE(scan.best().found);
    EXPECT_EQ(scan.best().index, 3u);
    EXPECT_EQ(scan.best().gain, -1.5);
    EXPECT_EQ(scan.best().mode.zeta, 0.5);
    EXPECT_EQ(scan.before_best(), -2.0);
    EXPECT_EQ(scan.after_best(), -1.0);
    EXPECT_EQ(scan.run_from(), -1.5);
    EXPECT_EQ(scan.run_to(), -0.5);
    EXPECT_EQ(scan.other_local_maxima(), (std::vector<double>{-2.5, 2.0}));  // k = 1 and 10
    EXPECT_EQ(scan.size(), zeta.size());
    EXPECT_TRUE(scan.oscillatory_somewhere());
    EXPECT_EQ(scan.largest_gain(), 3.0);
  }
  DampingScan absent("phugoid");
  absent.Add(points);
  EXPECT_FALSE(absent.best().found);
}

// A mode whose name changes along the locus (the 747's Dutch roll becomes
// "dutch roll (unstable)" past K ≈ 6.2) is one mode: past the change the best
// listed gain has the new name, and over the whole range the maximum is
// refined at the stable peak.
TEST(MaximizeDamping, FollowsAModeThatChangesName) {
  const model::AircraftData a = Load("boeing747_cruise_40kft.toml");
  const Case c{"boeing747_cruise_40kft.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 10.0};
  const LocusOptions late = OptionsOf(c, Linspace(7.0, 10.0, 16));
  const DampingOptimum unstable = MaximizeDamping(a, late, Locus(a, late), "dutch roll");
  EXPECT_EQ(unstable.kind, DampingOptimumKind::kAtRangeEnd);
  EXPECT_EQ(unstable.gain, 7.0);
  EXPECT_EQ(unstable.name, "dutch roll (unstable)");
  EXPECT_LT(unstable.zeta, 0.0);
  const LocusOptions whole = OptionsOf(c, Linspace(0.0, 10.0, 51));
  const LocusResult locus = Locus(a, whole);
  bool renamed = false;
  for (const TrackedPoint& p : locus.study.points)
    for (const TrackedMode& m : p.modes) renamed = renamed || m.name == "dutch roll (unstable)";
  EXPECT_TRUE(renamed);
  const DampingOptimum peak = MaximizeDamping(a, whole, locus, "dutch roll");
  EXPECT_EQ(peak.kind, DampingOptimumKind::kRefined);
  EXPECT_EQ(peak.name, "dutch roll");
  const OracleMaximum oracle = ScanForMaximum(a, whole, OpenLoopRoot(a, c.kind), 3.0, 3001);
  EXPECT_NEAR(peak.gain, oracle.gain, 1e-5);
}

// Several local maxima among the listed gains: the global one is taken and
// the others are listed. (No bundled loop has two; the grid logic is checked
// on a hand-made study of one mode whose ζ rises, dips and rises again.)
TEST(MaximizeDamping, TakesTheGlobalBestOfSeveralLocalMaxima) {
  const model::AircraftData a = Load("p2v7.toml");
  LocusOptions o = OptionsOf({"p2v7.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 1.0}, {0, 1, 2, 3, 4});
  LocusResult locus;
  const std::vector<double> zetas = {0.10, 0.30, 0.20, 0.25, 0.40};
  for (std::size_t k = 0; k < zetas.size(); ++k) {
    TrackedMode m;
    m.name = m.origin = "dutch roll";
    m.oscillatory = true;
    m.lambda = std::polar(2.0, std::numbers::pi - std::acos(zetas[k]));
    m.wn = 2.0;
    m.zeta = zetas[k];
    locus.study.points.push_back({static_cast<double>(k), {m}});
  }
  const DampingOptimum opt = MaximizeDamping(a, o, locus, "dutch roll");
  EXPECT_EQ(opt.kind, DampingOptimumKind::kAtRangeEnd);
  EXPECT_EQ(opt.grid.gain, 4.0);
  EXPECT_EQ(opt.other_local_maxima, std::vector<double>{1.0});
  const GridBest best = BestListedGain(locus.study, "dutch roll");
  EXPECT_EQ(best.index, 4u);
}

TEST(IsMode, MatchesTheOriginOrTheStartOfTheName) {
  auto mode = [](std::string name, std::string origin) {
    TrackedMode m;
    m.name = std::move(name);
    m.origin = std::move(origin);
    return m;
  };
  EXPECT_TRUE(IsMode(mode("dutch roll (unstable)", "dutch roll"), "dutch roll"));
  EXPECT_TRUE(IsMode(mode("washout filter + dutch roll (coupled)", "washout filter + dutch roll (coupled)"),
                     "dutch roll"));
  EXPECT_TRUE(IsMode(mode("roll-spiral oscillation (lateral phugoid)", "roll subsidence + spiral"), "spiral"));
  EXPECT_FALSE(IsMode(mode("roll-spiral oscillation (lateral phugoid)", "roll subsidence + spiral"), "phugoid"));
  EXPECT_FALSE(IsMode(mode("dutch roll", "dutch roll"), ""));
}

TEST(MaximizeDamping, RejectsAToleranceOutsideItsRange) {
  const model::AircraftData a = Load("p2v7.toml");
  const LocusOptions o = OptionsOf({"p2v7.toml", "rudder", "r", 1.5, analysis::ModeKind::kDutchRoll, 1.0}, {0, 1});
  const LocusResult locus = Locus(a, o);
  for (double tol : {0.0, -1e-6, 0.5, std::numeric_limits<double>::quiet_NaN()}) {
    MaximizeOptions m;
    m.relative_tolerance = tol;
    EXPECT_THROW(MaximizeDamping(a, o, locus, "dutch roll", m), std::invalid_argument) << tol;
  }
}

}  // namespace
}  // namespace aerolin::study
