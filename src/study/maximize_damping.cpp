#include "aerolin/study/maximize_damping.hpp"

#include <algorithm>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "aerolin/analysis/tracking.hpp"
#include "aerolin/core/error.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// A real root as Locus tells them (tracked.cpp IsReal): Eigen's real Schur
// form gives real eigenvalues an imaginary part of exactly 0 anyway.
bool IsRealRoot(cd lambda) { return std::abs(lambda.imag()) <= 1e-12 * std::max(std::abs(lambda), 1.0); }

// ζ = −Re λ/|λ| (±1 for a real root, 1 at λ = 0 as Locus gives it).
double DampingRatio(cd lambda) {
  const double wn = std::abs(lambda);
  return wn > 0 ? -lambda.real() / wn : 1.0;
}

}  // namespace

bool IsMode(const TrackedMode& m, const std::string& mode) {
  return !mode.empty() && (m.origin.find(mode) != std::string::npos || m.name.rfind(mode, 0) == 0);
}

GridBest BestListedGain(const TrackedStudy& study, const std::string& mode) {
  DampingScan scan(mode);
  scan.Add(study.points);
  return scan.best();
}

void DampingScan::Add(std::span<const TrackedPoint> points) {
  for (const TrackedPoint& p : points) {
    const std::size_t k = count_++;
    // ζ of the mode here: the largest among its tracked modes, as the best
    // is ranked (NaN where the point has none).
    double zeta = std::numeric_limits<double>::quiet_NaN();
    bool new_best = false;
    for (const TrackedMode& m : p.modes) {
      if (!IsMode(m, mode_)) continue;
      if (!(zeta >= m.zeta)) zeta = m.zeta;
      oscillatory_ = oscillatory_ || m.oscillatory;
      if (!best_.found || m.zeta > best_.mode.zeta) {
        best_ = {true, k, p.value, m};
        new_best = true;
      }
    }
    largest_ = std::max(largest_, std::abs(p.value));
    if (k >= 2 && zeta_[1] > zeta_[0] && zeta_[1] > zeta) maxima_.emplace_back(k - 1, gain_[1]);
    if (!(k >= 1 && zeta == zeta_[1])) equal_since_ = p.value;
    if (new_best) {
      before_best_ = gain_[1];
      run_from_ = equal_since_;
      run_to_ = p.value;
      run_open_ = true;
    } else if (run_open_) {
      if (zeta == best_.mode.zeta) run_to_ = p.value;
      else run_open_ = false;
    }
    if (best_.found && k == best_.index + 1) after_best_ = p.value;
    zeta_[0] = zeta_[1];
    gain_[0] = gain_[1];
    zeta_[1] = zeta;
    gain_[1] = p.value;
  }
}

std::vector<double> DampingScan::other_local_maxima() const {
  std::vector<double> gains;
  for (const auto& [index, gain] : maxima_)
    if (!best_.found || index != best_.index) gains.push_back(gain);
  return gains;
}

DampingOptimum MaximizeDamping(const model::AircraftData& aircraft, const LocusOptions& options,
                               const LocusResult& locus, const std::string& mode,
                               const MaximizeOptions& maximize) {
  DampingScan scan(mode);
  scan.Add(locus.study.points);
  return MaximizeDamping(aircraft, options, scan, maximize);
}

DampingOptimum MaximizeDamping(const model::AircraftData& aircraft, const LocusOptions& options,
                               const DampingScan& scan, const MaximizeOptions& maximize) {
  if (!(maximize.relative_tolerance > 0.0 && maximize.relative_tolerance <= 0.1))
    throw std::invalid_argument(fmt::format("relative tolerance {} is not in (0, 0.1]", maximize.relative_tolerance));
  const std::string& mode = scan.mode();
  DampingOptimum out;
  out.mode = mode;
  out.grid = scan.best();
  if (!out.grid.found) return out;  // kAbsent
  const GridBest& g = out.grid;
  out.gain = g.gain;
  out.lambda = g.mode.lambda;
  out.wn = g.mode.wn;
  out.zeta = g.mode.zeta;
  out.name = g.mode.name;
  out.other_local_maxima = scan.other_local_maxima();
  if (!scan.oscillatory_somewhere()) {
    out.kind = DampingOptimumKind::kReal;
    return out;
  }
  if (!g.mode.oscillatory) {
    // The best is a real root, ζ = 1: the run of listed gains around it where
    // the mode reaches ζ = 1 too.
    out.kind = DampingOptimumKind::kOverdamped;
    out.overdamped_from = scan.run_from();
    out.overdamped_to = scan.run_to();
    return out;
  }
  if (g.index == 0 || g.index + 1 == scan.size()) {
    out.kind = DampingOptimumKind::kAtRangeEnd;
    return out;
  }

  // Refine on the best gain's neighbours: ζ(K_b) ≥ ζ at both (where the mode
  // is there at all), so a local maximum lies between them.
  // Locus's own family of K, so the roots and their order match its continuation.
  const analysis::MatrixFamily family = LocusFamily(aircraft, options);
  const double Kb = g.gain;
  const analysis::RootSet at_best = analysis::AnalyzeRoots(family, Kb);
  Eigen::Index label = 0;
  for (Eigen::Index i = 1; i < at_best.values.size(); ++i)
    if (std::abs(at_best.values(i) - g.mode.lambda) < std::abs(at_best.values(label) - g.mode.lambda)) label = i;
  // Locus's continuation step: Locus steps from K = 0 by max|K|/50.
  const double step = scan.largest_gain() / 50.0;
  // The mode's root at K, continued from K_b in steps no longer than Locus's
  // (K_b's roots solved once, above, not again per evaluation).
  auto root_at = [&](double K) -> cd {
    if (K == Kb) return at_best.values(label);
    const int n = std::max(1, static_cast<int>(std::ceil(std::abs(K - Kb) / step)));
    std::vector<analysis::RootSet> sets(static_cast<std::size_t>(n) + 1);
    sets[0] = at_best;
    for (int k = 1; k <= n; ++k)
      sets[static_cast<std::size_t>(k)] = analysis::AnalyzeRoots(family, k == n ? K : Kb + (K - Kb) * k / n);
    const analysis::Continuation c = analysis::Continue(family, sets, 1);
    return c.roots.back()(label);
  };
  int evaluations = 0;
  auto minus_zeta = [&](double K) {
    ++evaluations;
    return -DampingRatio(root_at(K));
  };
  // Brent's tolerance is 2^(1 − bits) relative to |K|.
  const int bits = static_cast<int>(std::ceil(1.0 - std::log2(maximize.relative_tolerance)));
  std::uintmax_t iterations = static_cast<std::uintmax_t>(std::max(1, maximize.max_evaluations));
  out.bracket_low = scan.before_best();
  out.bracket_high = scan.after_best();
  const std::pair<double, double> best =
      boost::math::tools::brent_find_minima(minus_zeta, out.bracket_low, out.bracket_high, bits, iterations);
  out.kind = DampingOptimumKind::kRefined;
  out.evaluations = evaluations;
  out.relative_tolerance = std::max(maximize.relative_tolerance, std::ldexp(1.0, 1 - std::numeric_limits<double>::digits / 2));
  // Brent returns the best point it evaluated; the listed gain stands if it
  // was better (ζ not unimodal between the neighbours).
  if (-best.second < g.mode.zeta) return out;
  double K = best.first;
  cd lambda = root_at(K);
  if (IsRealRoot(lambda)) {
    // ζ rose to 1 where the pair became two real roots between the listed
    // gains: locate that gain by bisection (pair at K_b, real at K).
    double pair = Kb, real = K;
    for (int i = 0; i < 60 && std::abs(real - pair) > 1e-9 * std::max(1.0, std::abs(K)); ++i) {
      const double mid = 0.5 * (pair + real);
      (IsRealRoot(root_at(mid)) ? real : pair) = mid;
    }
    K = real;
    lambda = root_at(K);
    out.kind = DampingOptimumKind::kBecomesReal;
  }
  if (lambda.imag() < 0) lambda = std::conj(lambda);

  if (out.kind == DampingOptimumKind::kBecomesReal) {
    // Past a coalescence the two real roots are named by the order the
    // continuation happens to give them; the mode is the pair before it.
    out.gain = K;
    out.lambda = lambda;
    out.wn = std::abs(lambda);
    out.zeta = DampingRatio(lambda);
    return out;
  }

  // The name the locus itself gives there, and a check that its continuation
  // from K = 0 lands on the same root as ours from K_b.
  // The listed gains and K, in one allocation; where the list is sorted
  // without repeats (FROM:TO:N), K goes in its place, so Locus need not sort
  // a copy (at the gain cap a copy and a doubled capacity were 2.4 MB of the
  // peak: LocusCommand.PeakRssOfTheCapIsThatOfAThousandGains).
  const std::vector<double>& listed = options.gains;
  std::vector<double> gains;
  gains.reserve(listed.size() + 1);
  if (std::is_sorted(listed.begin(), listed.end()) && std::adjacent_find(listed.begin(), listed.end()) == listed.end()) {
    const auto at = std::lower_bound(listed.begin(), listed.end(), K);
    gains.assign(listed.begin(), at);
    if (at == listed.end() || *at != K) gains.push_back(K);
    gains.insert(gains.end(), at, listed.end());
  } else {
    gains = listed;
    gains.push_back(K);
  }
  LocusOptions with_k = options;  // its copy of the list is freed here, before the locus
  with_k.gains = std::move(gains);
  std::optional<TrackedMode> same;
  double distance = std::numeric_limits<double>::infinity();
  Locus(aircraft, with_k, [&](std::span<const TrackedPoint> points) {
    for (const TrackedPoint& p : points) {
      if (p.value != K) continue;
      for (const TrackedMode& m : p.modes)
        if (std::abs(m.lambda - lambda) < distance) {
          distance = std::abs(m.lambda - lambda);
          same = m;
        }
    }
  });
  // Two eigen-solves of the same matrix agree to round-off.
  constexpr double kSameRoot = 1e-9;
  if (!same || distance > kSameRoot * std::max(1.0, std::abs(lambda)) || !IsMode(*same, mode))
    throw core::NumericalError(fmt::format(
        "the continuation from K = {} and the locus from K = 0 disagree on the {} root at K = {}", Kb, mode, K));
  out.gain = K;
  out.lambda = lambda;
  out.wn = std::abs(lambda);
  out.zeta = DampingRatio(lambda);
  out.name = same->name;
  return out;
}

}  // namespace aerolin::study
