// Locus: the root locus of one feedback loop, δ = K·y, its modes tracked
// outward from K = 0.
#include "aerolin/study/tracked.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/parallel.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/state_space.hpp"
#include "mode_tracking.hpp"

namespace aerolin::study {
namespace {

using analysis::Mode;
using analysis::ModeKind;
using analysis::SmallMatrix;
using analysis::SmallVectorC;
using tracking::AddNotes;
using tracking::AxisTrack;
using tracking::HeadingMode;
using tracking::PointwiseNames;
using tracking::Spelled;
using tracking::TrackAxis;
using tracking::kWashoutFilterName;

struct Loop {
  model::Axis axis;
  Eigen::MatrixXd A;  // open loop, with washout if any
  Eigen::VectorXd b;  // input column
  Eigen::RowVectorXd c;  // filtered output row
  double d = 0;          // feedthrough of the output (a derived output's D)
  int psi = -1;          // index of ψ if the axis is lateral
  std::string gain_unit;
};

Loop MakeLoop(const model::AircraftData& aircraft, const LocusOptions& o) {
  const model::Control* control = nullptr;
  for (const model::Control& c : aircraft.controls)
    if (c.name == o.input) control = &c;
  if (control == nullptr) {
    std::string names;
    for (const model::Control& c : aircraft.controls) names += (names.empty() ? "" : ", ") + c.name;
    throw std::invalid_argument("unknown input '" + o.input + "' (this aircraft's controls: " + names + ")");
  }
  const model::StateSpace lon = model::BuildLongitudinal(aircraft);
  const model::StateSpace lat = model::BuildLateral(aircraft);
  // The output is looked up among the model's outputs (C, D): states today,
  // and any derived output the builders add to C and D.
  const model::StateSpace* sys = nullptr;
  int row = -1;
  for (const model::StateSpace* s : {&lon, &lat})
    for (int i = 0; i < s->num_outputs(); ++i)
      if (s->outputs()[static_cast<std::size_t>(i)].name == o.output) {
        sys = s;
        row = i;
      }
  if (sys == nullptr)
    throw std::invalid_argument("unknown output '" + o.output +
                                "' (states: u alpha q theta | beta p r phi psi)");
  int column = -1;
  for (int j = 0; j < sys->num_inputs(); ++j)
    if (sys->inputs()[static_cast<std::size_t>(j)].name == o.input) column = j;
  const bool lon_axis = sys == &lon;
  if (column < 0)
    throw std::invalid_argument("input '" + o.input + "' does not act on the " +
                                (lon_axis ? "longitudinal" : "lateral") + " axis of output '" +
                                o.output + "'");
  if (o.washout_tau && !(*o.washout_tau > 0.0))
    throw std::invalid_argument("washout time constant must be > 0");
  Loop loop;
  loop.axis = lon_axis ? model::Axis::kLongitudinal : model::Axis::kLateral;
  const int n = sys->num_states();
  const int m = n + (o.washout_tau ? 1 : 0);
  loop.A = Eigen::MatrixXd::Zero(m, m);
  loop.A.topLeftCorner(n, n) = sys->A();
  loop.b = Eigen::VectorXd::Zero(m);
  loop.b.head(n) = sys->B().col(column);
  loop.c = Eigen::RowVectorXd::Zero(m);
  loop.c.head(n) = sys->C().row(row);
  loop.d = sys->D()(row, column);
  if (o.washout_tau) {
    // ẋ_w = −a x_w + y, y_f = y − a x_w, a = 1/τ (so y_f = s/(s + a) y).
    const double a = 1.0 / *o.washout_tau;
    loop.A(n, n) = -a;
    loop.A.block(n, 0, 1, n) = sys->C().row(row);
    loop.c(n) = -a;
    loop.b(n) = sys->D()(row, column);  // y's feedthrough enters the filter state too
  }
  if (!lon_axis) loop.psi = model::lat::kPsi;
  const core::Signal& out_signal = sys->outputs()[static_cast<std::size_t>(row)];
  loop.gain_unit = std::string(core::ToString(control->unit)) + "/(" +
                   std::string(core::ToString(out_signal.unit)) + ")";
  return loop;
}

// The closed loop as Locus continues it, on the states that feed back: ψ is
// dropped unless the loop feeds ψ back. δ = K (c x + d δ)  ⇒
// δ = K/(1 − K d) · c x, so A(K) = A₀ + K/(1 − K d)·b c and
// dA/dK = b c/(1 − K d)²; b c is formed once, not per gain.
struct ClosedLoop {
  Loop loop;
  Eigen::MatrixXd bc;
  bool drop_psi = false;
  std::vector<int> keep;

  explicit ClosedLoop(Loop l) : loop(std::move(l)), bc(loop.b * loop.c) {
    drop_psi = loop.psi >= 0 && loop.c(loop.psi) == 0.0;
    for (int i = 0; i < loop.A.rows(); ++i)
      if (!(drop_psi && i == loop.psi)) keep.push_back(i);
  }

  void operator()(double K, SmallMatrix& A, SmallMatrix& dA) const {
    const double s = 1.0 - K * loop.d;
    const double a = K / s, da = 1.0 / (s * s);
    const auto nk = static_cast<Eigen::Index>(keep.size());
    A.resize(nk, nk);
    dA.resize(nk, nk);
    for (Eigen::Index r = 0; r < nk; ++r)
      for (Eigen::Index c = 0; c < nk; ++c) {
        const int i = keep[static_cast<std::size_t>(r)], j = keep[static_cast<std::size_t>(c)];
        A(r, c) = loop.A(i, j) + a * bc(i, j);
        dA(r, c) = da * bc(i, j);
      }
  }
};

}  // namespace

Eigen::MatrixXd ClosedLoopMatrix(const model::AircraftData& aircraft, const LocusOptions& options,
                                 double gain) {
  const Loop loop = MakeLoop(aircraft, options);
  return loop.A + (gain / (1.0 - gain * loop.d)) * (loop.b * loop.c);
}

analysis::MatrixFamily LocusFamily(const model::AircraftData& aircraft, const LocusOptions& options) {
  auto closed = std::make_shared<const ClosedLoop>(MakeLoop(aircraft, options));
  return [closed](double K, SmallMatrix& A, SmallMatrix& dA) { (*closed)(K, A, dA); };
}

LocusResult Locus(const model::AircraftData& aircraft, const LocusOptions& options) {
  if (options.gains.empty()) throw std::invalid_argument("no gains given");
  const ClosedLoop closed(MakeLoop(aircraft, options));
  const Loop& loop = closed.loop;
  LocusResult result;
  result.axis = loop.axis;
  result.gain_unit = loop.gain_unit;
  const bool drop_psi = closed.drop_psi;
  const analysis::MatrixFamily family = [&closed](double K, SmallMatrix& A, SmallMatrix& dA) {
    closed(K, A, dA);
  };
  // Open-loop names (K = 0): the aircraft's modes, plus the washout root.
  const analysis::ModalAnalysis open = analysis::AnalyzeModes(aircraft);
  std::vector<Mode> named = open.modes(loop.axis);
  std::vector<Mode> tracked_named;
  for (const Mode& m : named)
    if (m.kind != ModeKind::kHeading) tracked_named.push_back(m);
  std::vector<std::string> extra;
  if (!drop_psi && loop.psi >= 0) extra.push_back("heading");
  if (options.washout_tau) extra.push_back("washout filter");
  // Grid: from K = 0 outward to each requested gain, with at least 50 steps
  // over the range so the continuation is fine; reported points are the gains.
  std::vector<double> gains = options.gains;
  std::sort(gains.begin(), gains.end());
  gains.erase(std::unique(gains.begin(), gains.end()), gains.end());
  // A gain far outside the physical range (1e300, or with a washout of
  // 1e-300 s) overflows A(K): say so here, not "A has a non-finite entry".
  {
    SmallMatrix A, dA;
    for (double K : gains) {
      closed(K, A, dA);
      if (!A.allFinite())
        throw std::invalid_argument(fmt::format(
            "at K = {:g} the closed-loop system matrix is not finite: the gain{} is far outside "
            "the physical range{}; give smaller gains",
            K, options.washout_tau ? fmt::format(" times the washout's 1/TAU = {:g} 1/s", 1.0 / *options.washout_tau) : "",
            loop.d != 0.0 ? fmt::format(" or makes 1 - K d vanish (d = {:g})", loop.d) : ""));
    }
  }
  const double span = std::max({std::abs(gains.front()), std::abs(gains.back()), 1e-12});
  const double step = span / 50.0;
  TrackedStudy& study = result.study;
  study.param = "gain";
  for (double K : gains) study.points.push_back({K, {}});
  std::vector<TrackedMode> fixed;
  if (drop_psi) fixed.push_back(HeadingMode());
  // `aerolin modes`' names of one gain's roots. Without a washout these are
  // the closed-loop A's roots named as AnalyzeLongitudinal / AnalyzeLateral
  // name them. With one, the filter's root is named first: every eigenvector
  // obeys (λ + 1/τ)·x_w = y (the filter state's row), so the filter-state
  // content |x_w/τ| / |y| = (1/τ)/|λ + 1/τ| is largest for the root nearest
  // −1/τ. If that root is real it is "washout filter", and the other roots
  // are named by their aircraft states (the vectors' first four rows) alone;
  // if it is a pair, the filter has joined an aircraft mode, no root is the
  // filter's alone, and the point has no pointwise names.
  const bool psi_fed_back = !drop_psi && loop.psi >= 0;
  auto pointwise = [&](const analysis::RootSet& s) -> PointwiseNames {
    auto named = [&](const SmallVectorC& values, const analysis::SmallMatrixC& vectors) {
      return loop.axis == model::Axis::kLongitudinal
                 ? Spelled(analysis::NameLongitudinalRoots(values, vectors, aircraft.condition.U0))
                 : Spelled(analysis::NameLateralRoots(values, vectors));
    };
    if (!options.washout_tau) return named(s.values, s.vectors);
    const double a = 1.0 / *options.washout_tau;
    Eigen::Index filter = 0;
    for (Eigen::Index i = 1; i < s.values.size(); ++i)
      if (std::abs(s.values(i) + a) < std::abs(s.values(filter) + a)) filter = i;
    if (std::abs(s.values(filter).imag()) >
        analysis::kRealRootTolerance * std::max(std::abs(s.values(filter)), 1.0))
      return {};  // the filter's content is largest in a pair: no root is the filter's alone
    SmallVectorC values(4);
    analysis::SmallMatrixC vectors(4, 4);
    for (Eigen::Index i = 0, j = 0; i < s.values.size(); ++i) {
      if (i == filter) continue;
      values(j) = s.values(i);
      vectors.col(j++) = s.vectors.col(i).head(4);
    }
    PointwiseNames names = named(values, vectors);
    names.push_back({s.values(filter).real(), &kWashoutFilterName});
    return names;
  };
  for (int direction : {+1, -1}) {
    std::vector<double> targets;
    for (double K : gains)
      if ((direction > 0 && K >= 0) || (direction < 0 && K < 0)) targets.push_back(K);
    if (direction < 0) std::reverse(targets.begin(), targets.end());
    if (targets.empty()) continue;
    std::vector<double> grid{0.0};
    std::vector<int> report;  // grid index of each target
    for (double K : targets) {
      if (K == 0.0) {
        report.push_back(0);
        continue;
      }
      while (std::abs(K - grid.back()) > step) grid.push_back(grid.back() + direction * step);
      grid.push_back(K);
      report.push_back(static_cast<int>(grid.size()) - 1);
    }
    if (grid.size() < 2) grid.push_back(direction * step);
    std::vector<analysis::RootSet> sets(grid.size());
    std::vector<PointwiseNames> names(psi_fed_back ? 0 : grid.size());
    core::ParallelFor(grid.size(), options.threads, [&](std::size_t k) {
      sets[k] = analysis::AnalyzeRoots(family, grid[k]);
      if (!psi_fed_back) names[k] = pointwise(sets[k]);
    });
    AxisTrack t = TrackAxis(family, sets, tracked_named, extra, loop.axis, names, options.threads, fixed);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      auto it = std::find_if(study.points.begin(), study.points.end(),
                             [&](const TrackedPoint& p) { return p.value == targets[i]; });
      it->modes = t.points[static_cast<std::size_t>(report[i])];
    }
    for (const StructureChange& c : t.changes) study.changes.push_back(c);
    study.refinements += t.refinements;
  }
  AddNotes(study);
  SmallMatrix A0, dA0;
  family(0.0, A0, dA0);
  const Eigen::VectorXcd poles =
      analysis::Decompose(Eigen::MatrixXd(A0), analysis::LeftVectors::kIfDiagonalizable).values;
  result.open_loop_poles.assign(poles.begin(), poles.end());
  if (drop_psi) result.open_loop_poles.push_back(0.0);
  // Zeros of y/δ: finite generalized eigenvalues of ([A b; c d], [I 0; 0 0]).
  const auto n = loop.A.rows();
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(n + 1, n + 1), Q = Eigen::MatrixXd::Zero(n + 1, n + 1);
  P.topLeftCorner(n, n) = loop.A;
  P.topRightCorner(n, 1) = loop.b;
  P.bottomLeftCorner(1, n) = loop.c;
  P(n, n) = loop.d;
  Q.topLeftCorner(n, n).setIdentity();
  Eigen::GeneralizedEigenSolver<Eigen::MatrixXd> ges(P, Q);
  for (Eigen::Index i = 0; i < ges.alphas().size(); ++i) {
    const double beta = ges.betas()(i);
    if (std::abs(beta) > 1e-9 * std::max(1.0, std::abs(ges.alphas()(i))))
      result.zeros.push_back(ges.alphas()(i) / beta);
  }
  return result;
}

}  // namespace aerolin::study
