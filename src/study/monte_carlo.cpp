#include "aerolin/study/monte_carlo.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "aerolin/core/parallel.hpp"
#include "aerolin/model/auxiliary_states.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/turbulence.hpp"
#include "held_gust_step.hpp"

namespace aerolin::study {
namespace {

constexpr int kStates = sim::kNumLinearStates;  // (u, α, q, θ, β, p, r, φ, ψ)
constexpr int kGusts = model::gust::kNumGusts;
constexpr int kOutputs = kStates + 3 + kGusts;   // states, nz, γ, ay, gusts
constexpr long kBlock = 64;                      // runs propagated together

std::uint64_t SplitMix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// y = C x + D d for every output (rows in MonteCarloOutputs() order), x the
// propagated state: the 9 linear states, then (with washout filters) the
// flight's auxiliary slots (sim::FlightModel::ExtendedLinearA's order).
template <int N>
struct OutputMap {
  Eigen::Matrix<double, kOutputs, N> C = Eigen::Matrix<double, kOutputs, N>::Zero();
  Eigen::Matrix<double, kOutputs, kGusts> D = Eigen::Matrix<double, kOutputs, kGusts>::Zero();
};

// The derived outputs come from model::WithDerivedOutputs of each axis's
// model (the closed loop as `modes` has it, washout filters' states after
// the airframe's) with the gusts as its inputs (so their gust feed-through
// is D); a filter's state is driven by what its loop measures, not by the
// gusts (its row of E is 0), and its column goes to its auxiliary slot.
template <int N>
OutputMap<N> OutputMapOf(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                         const Eigen::MatrixXd& E) {
  OutputMap<N> map;
  map.C.template topLeftCorner<kStates, kStates>().setIdentity();
  map.D.template bottomRows<kGusts>().setIdentity();
  struct Axis {
    model::Axis axis;
    int row0, n;
    std::vector<int> derived_rows;  // into map
  };
  for (const Axis& a : {Axis{model::Axis::kLongitudinal, 0, 4, {kStates, kStates + 1}},
                        Axis{model::Axis::kLateral, 4, 5, {kStates + 2}}}) {
    const model::StateSpace& closed = modes.model_of(a.axis);
    const int n_axis = closed.num_states();
    const int filters = n_axis - a.n;
    assert(filters == 0 || N > kStates);
    Eigen::MatrixXd E_axis = Eigen::MatrixXd::Zero(n_axis, kGusts);
    E_axis.topRows(a.n) = E.middleRows(a.row0, a.n);
    const model::StateSpace windy(closed.A(), E_axis, Eigen::MatrixXd::Identity(n_axis, n_axis),
                                  Eigen::MatrixXd::Zero(n_axis, kGusts), closed.states(), model::GustSignals(),
                                  closed.states());
    const model::StateSpace out = model::WithDerivedOutputs(windy, a.axis, aircraft.condition);
    const int slot = kStates + sim::FilterSlot(aircraft, a.axis);
    for (std::size_t j = 0; j < a.derived_rows.size(); ++j) {
      const int k = a.n + static_cast<int>(j);
      map.C.row(a.derived_rows[j]).segment(a.row0, a.n) = out.C().row(k).head(a.n);
      if (filters > 0) map.C.row(a.derived_rows[j]).segment(slot, filters) = out.C().row(k).tail(filters);
      map.D.row(a.derived_rows[j]) = out.D().row(k);
    }
  }
  return map;
}

void CheckRuns(const MonteCarloSpec& spec) {
  if (spec.runs < 1 || spec.runs > kMaxMonteCarloRuns)
    throw FlightSpecError("runs", fmt::format("runs must be 1 to {}, got {}", kMaxMonteCarloRuns,
                                              spec.runs));
  if (spec.history_every < 0)
    throw FlightSpecError("history_every", fmt::format("history_every must be >= 0, got {}",
                                                       spec.history_every));
}

}  // namespace

std::uint64_t RunSeed(std::uint64_t seed, std::uint64_t run) {
  return SplitMix64(SplitMix64(seed) ^ run);
}

const std::vector<core::Signal>& MonteCarloOutputs() {
  static const std::vector<core::Signal> outputs = [] {
    std::vector<core::Signal> s(sim::FlightStateSignals().begin(),
                                sim::FlightStateSignals().begin() + kStates);
    for (model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral})
      for (const core::Signal& d : model::DerivedOutputSignals(axis)) s.push_back(d);
    for (const core::Signal& g : model::GustSignals()) s.push_back(g);
    return s;
  }();
  return outputs;
}

namespace {

struct Checked {
  PreparedFlight prepared;
  long slices = 0;
  long kept = 0;  // history rows kept per run
  std::vector<int> level_rows;
};

Checked Checks(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
               const MonteCarloSpec& spec) {
  CheckRuns(spec);
  // The flight every run flies, prepared as any other (validation, height,
  // span, the Dryden filters, E).
  FlightSpec flight;
  flight.slice.dt = spec.dt;
  flight.slice.integrator = sim::Integrator::kExact;
  flight.duration = spec.duration;
  flight.turbulence = spec.turbulence;
  if (!(spec.duration > 0.0))
    throw FlightSpecError("duration", fmt::format("duration must be a finite number > 0, got {}",
                                                  spec.duration));
  Checked c{Prepare(aircraft, modes, flight), 0, 0, {}};
  // With washout filters the batch carries their states (the flight's
  // auxiliary ones); an actuator's state it does not carry, and its limits
  // are not linear: the runs would not be the flights simulate flies.
  if (c.prepared.model().has_actuators())
    throw FlightSpecError("actuators",
                          "Monte Carlo of a file with [actuators]: its batched propagation is linear and carries "
                          "no actuator's lag or limits (fly it with simulate, or leave [actuators] out for the "
                          "ideal surfaces)");
  c.slices = sim::NumSlices(spec.duration, spec.dt);
  const double run_slices = static_cast<double>(spec.runs) * static_cast<double>(c.slices);
  if (run_slices > kMaxMonteCarloRunSlices)
    throw FlightSpecError("runs", fmt::format("runs × slices = {:g} is more than {:g} (an hour of "
                                              "CPU): fewer runs or a shorter duration",
                                              run_slices, kMaxMonteCarloRunSlices));
  const long rows = c.slices + 1;
  c.kept = spec.history_every > 0 ? (rows + spec.history_every - 1) / spec.history_every : 0;
  const double values = static_cast<double>(c.kept) * static_cast<double>(spec.runs) * kOutputs;
  if (values > kMaxMonteCarloHistoryValues)
    throw FlightSpecError("history_every",
                          fmt::format("the histories would hold {:g} values, more than {:g}: keep "
                                      "fewer rows (a larger history_every) or fewer runs",
                                      values, kMaxMonteCarloHistoryValues));
  for (const ExceedanceLevel& l : spec.levels) {
    const auto& outs = MonteCarloOutputs();
    const auto it = std::find_if(outs.begin(), outs.end(),
                                 [&](const core::Signal& s) { return s.name == l.output; });
    if (it == outs.end()) {
      std::string names;
      for (const core::Signal& s : outs) names += (names.empty() ? "" : ", ") + s.name;
      throw FlightSpecError("levels", fmt::format("no output '{}' (outputs: {})", l.output, names));
    }
    if (!std::isfinite(l.level))
      throw FlightSpecError("levels", fmt::format("the level of {} must be finite", l.output));
    c.level_rows.push_back(static_cast<int>(it - outs.begin()));
  }
  return c;
}

}  // namespace

void CheckMonteCarlo(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                     const MonteCarloSpec& spec) {
  Checks(aircraft, modes, spec);
}

namespace {

// Propagates every run of `spec` in blocks of kBlock, N states each (the 9
// linear states, or with washout filters the flight's 15 with its auxiliary
// slots), and summarizes them into `result` (whose run, seed and history
// rows are set up).
template <int N>
void PropagateRuns(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                   const MonteCarloSpec& spec, const Checked& checked, const Eigen::MatrixXd& A,
                   MonteCarloResult& result) {
  const PreparedFlight& prepared = checked.prepared;
  const long rows = checked.slices + 1;
  const long kept = checked.kept;
  const std::vector<int>& level_rows = checked.level_rows;
  const sim::DrydenTurbulence& prototype = *prepared.turbulence();
  // E acts on the airframe's states; a filter's row is 0 (it is driven by
  // what its loop measures).
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(N, kGusts);
  E.topRows(kStates) = prepared.model().E();
  // [Φ Γ_E] = the top of exp([A E; 0 0]Δt).
  const detail::HeldGustStep step = detail::ExactHeldGustStep(A, E, spec.dt);
  const Eigen::Matrix<double, N, N> Phi = step.phi;
  const Eigen::Matrix<double, N, kGusts> GammaE = step.gamma_e;
  const OutputMap<N> map = OutputMapOf<N>(aircraft, modes, prepared.model().E());
  const auto R = static_cast<Eigen::Index>(spec.runs);
  const auto L = static_cast<Eigen::Index>(level_rows.size());

  const std::size_t blocks = (spec.runs + kBlock - 1) / kBlock;
  core::ParallelFor(blocks, spec.threads, [&](std::size_t b) {
    const Eigen::Index r0 = static_cast<Eigen::Index>(b) * kBlock;
    const Eigen::Index n = std::min<Eigen::Index>(kBlock, R - r0);
    std::vector<sim::DrydenTurbulence> gusts;
    gusts.reserve(static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) {
      gusts.push_back(prototype);
      gusts.back().Reseed(result.seed[static_cast<std::size_t>(r0 + j)]);
    }
    // Fixed-size blocks of kBlock runs, one run per row (a short last block
    // is padded with zero runs that are not reported): the products are
    // Eigen's coefficient-based kernels vectorized down the runs, so every
    // run is computed by the same operations whatever row of whatever block
    // it is in (bit for bit: grouping and threads do not change a run), and
    // the summaries are whole-array operations.
    using States = Eigen::Matrix<double, kBlock, N>;
    using Outputs = Eigen::Array<double, kBlock, kOutputs>;
    const Eigen::Matrix<double, N, N> PhiT = Phi.transpose();
    const Eigen::Matrix<double, kGusts, N> GammaET = GammaE.transpose();
    const Eigen::Matrix<double, N, kOutputs> CT = map.C.transpose();
    const Eigen::Matrix<double, kGusts, kOutputs> DT = map.D.transpose();
    States X = States::Zero(), next;
    Eigen::Matrix<double, kBlock, kGusts> D = Eigen::Matrix<double, kBlock, kGusts>::Zero();
    Outputs Y, prev = Outputs::Zero(), sum2 = Outputs::Zero(), peak = Outputs::Zero(),
               peak_t = Outputs::Zero(), ups = Outputs::Zero();
    Eigen::ArrayXXd exceed = Eigen::ArrayXXd::Zero(kBlock, L);
    std::vector<Eigen::MatrixXd> history(kept > 0 ? static_cast<std::size_t>(n) : 0,
                                         Eigen::MatrixXd(kept, kOutputs));
    for (long k = 0; k < rows; ++k) {
      if (k > 0) {
        for (Eigen::Index j = 0; j < n; ++j) D.row(j) = gusts[static_cast<std::size_t>(j)].Next().transpose();
        next.noalias() = X.lazyProduct(PhiT);
        next.noalias() += D.lazyProduct(GammaET);
        X = next;
      }
      // D is zero at t = 0: no wind before the first slice.
      Y = (X.lazyProduct(CT) + D.lazyProduct(DT)).array();
      const double t = static_cast<double>(k) * spec.dt;
      sum2 += Y.square();
      const auto higher = Y.abs() > peak.abs();
      peak = higher.select(Y, peak);
      peak_t = higher.select(Outputs::Constant(t), peak_t);
      if (k > 0) {
        ups += ((prev < 0.0) && (Y >= 0.0)).cast<double>();
        for (Eigen::Index l = 0; l < L; ++l) {
          const int o = level_rows[static_cast<std::size_t>(l)];
          const double level = spec.levels[static_cast<std::size_t>(l)].level;
          exceed.col(l) += ((prev.col(o) < level) && (Y.col(o) >= level)).cast<double>();
        }
      }
      if (kept > 0 && k % spec.history_every == 0)
        for (Eigen::Index j = 0; j < n; ++j)
          history[static_cast<std::size_t>(j)].row(k / spec.history_every) = Y.matrix().row(j);
      prev = Y;
    }
    result.rms.middleRows(r0, n) = (sum2 / static_cast<double>(rows)).sqrt().matrix().topRows(n);
    result.peak.middleRows(r0, n) = peak.matrix().topRows(n);
    result.peak_time.middleRows(r0, n) = peak_t.matrix().topRows(n);
    result.zero_upcrossings.middleRows(r0, n) = ups.matrix().topRows(n);
    if (L > 0) result.exceedances.middleRows(r0, n) = exceed.matrix().topRows(n);
    for (Eigen::Index j = 0; j < n && kept > 0; ++j)
      result.history[static_cast<std::size_t>(r0 + j)] = std::move(history[static_cast<std::size_t>(j)]);
  });
}

}  // namespace

MonteCarloResult RunMonteCarlo(const model::AircraftData& aircraft,
                               const analysis::ModalAnalysis& modes, const MonteCarloSpec& spec) {
  const Checked checked = Checks(aircraft, modes, spec);
  const sim::FlightModel& model = checked.prepared.model();
  const long rows = checked.slices + 1;
  const long kept = checked.kept;

  MonteCarloResult result;
  const auto R = static_cast<Eigen::Index>(spec.runs);
  const auto L = static_cast<Eigen::Index>(checked.level_rows.size());
  result.rows = rows;
  result.rms = Eigen::MatrixXd::Zero(R, kOutputs);
  result.peak = Eigen::MatrixXd::Zero(R, kOutputs);
  result.peak_time = Eigen::MatrixXd::Zero(R, kOutputs);
  result.zero_upcrossings = Eigen::MatrixXd::Zero(R, kOutputs);
  result.exceedances = Eigen::MatrixXd::Zero(R, L);
  for (std::uint64_t i = 0; i < spec.runs; ++i) {
    result.run.push_back(spec.first_run + i);
    result.seed.push_back(RunSeed(spec.turbulence.seed, spec.first_run + i));
  }
  if (kept > 0) {
    for (long k = 0; k < rows; k += spec.history_every)
      result.history_time.push_back(static_cast<double>(k) * spec.dt);
    result.history.assign(spec.runs, Eigen::MatrixXd());
  }
  // The closed loop the flight flies: its 9 linear states, or with washout
  // filters those and the filters' states (sim::FlightModel::ExtendedLinearA,
  // the matrix the exact integrator propagates).
  if (model.num_washout_filters() > 0)
    PropagateRuns<sim::kNumExtendedLinearStates>(aircraft, modes, spec, checked, model.ExtendedLinearA(), result);
  else
    PropagateRuns<kStates>(aircraft, modes, spec, checked, model.A(), result);
  return result;
}

}  // namespace aerolin::study
