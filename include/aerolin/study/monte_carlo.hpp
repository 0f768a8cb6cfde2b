#pragma once
/// @file
/// Batched Monte Carlo in rough air: many seeded hands-off flights of one
/// aircraft through Dryden turbulence, propagated together, each summarized
/// as `aerolin simulate --json` summarizes one flight (RMS and peak of every
/// output, zero up-crossings and exceedances of chosen levels).
///
/// **Reproducible by run.** Run i flies the turbulence seeded with
/// RunSeed(seed, i), which depends on (seed, i) only, so a run's result does
/// not depend on how runs are grouped (first_run, chunks, workers) or on the
/// number of threads; and run i is the flight `aerolin simulate
/// --turbulence ... --seed RunSeed(seed, i) --integrator exact` flies (the
/// test checks it to rounding).
///
/// **Propagation.** The 9 linear states of every run advance together over
/// each slice, x_{k+1} = Φ x_k + Γ_E d_k ([Φ Γ_E] = exp([A E; 0 0]Δt): the
/// exact step with the slice's gust d_k held, the controls at trim), as one
/// 9×9 by 9×R product per slice over a block of R runs; each run's Dryden
/// generator (sim::DrydenTurbulence) gives its d_k. An augmentation that
/// closes a loop through a washout filter adds the filter's state: x is then
/// the flight's 15 (the 9 and the auxiliary slots), A the closed loop the
/// flight's exact integrator propagates (sim::FlightModel::ExtendedLinearA;
/// E's filter rows 0), and nz, γ, ay take the filter's column from
/// model::WithDerivedOutputs of the closed loop (as `aerolin rms`). A file
/// with washout filters and [actuators] is refused (the actuators' limits
/// are not linear). Memory: O(runs) for the summaries plus O(block) for the
/// states, independent of the duration.
///
/// The rows are those of a flight's CSV: t = 0 (trim, no wind), then the end
/// of each slice with the wind of the slice that ends there.

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/study/flight_setup.hpp"

namespace aerolin::study {

/// Most runs of one study (`runs`): 10^6 runs' summaries are ~0.5 GB.
inline constexpr std::uint64_t kMaxMonteCarloRuns = 1000000;
/// Most runs × slices of one study: ~0.1-0.3 µs a run-slice, so an hour of
/// CPU at most.
inline constexpr double kMaxMonteCarloRunSlices = 1e10;
/// Most history values kept (kept rows × runs × outputs): 0.8 GB.
inline constexpr double kMaxMonteCarloHistoryValues = 1e8;

/// The turbulence seed of run `run` of a study seeded with `seed`: a
/// SplitMix64 mix of both (distinct runs get unrelated streams).
std::uint64_t RunSeed(std::uint64_t seed, std::uint64_t run);

/// The outputs a Monte Carlo can summarize, in this order: the 9 linear
/// states (u, alpha, q, theta, beta, p, r, phi, psi), nz, gamma, ay, and the
/// gusts u_g, v_g, w_g, p_g (names as the simulate CSV; SI, nz and ay in g).
const std::vector<core::Signal>& MonteCarloOutputs();

/// A level whose upward crossings each run counts.
struct ExceedanceLevel {
  std::string output;  ///< a MonteCarloOutputs() name
  double level = 0.0;  ///< [the output's unit]
};

/// A Monte Carlo request, SI.
struct MonteCarloSpec {
  /// Intensity, height, span as for a flight; `seed` seeds the study.
  TurbulenceSpec turbulence;
  std::uint64_t runs = 0;       ///< how many runs (1 to kMaxMonteCarloRuns)
  std::uint64_t first_run = 0;  ///< their indices: first_run, first_run + 1, ...
  double duration = 0.0;        ///< [s], a whole number of slices
  double dt = 0.1;              ///< slice step [s]
  std::vector<ExceedanceLevel> levels;
  /// Keep every `history_every`-th row of each run's outputs (0: none).
  long history_every = 0;
  int threads = 0;  ///< 0: the machine's cores
};

/// The runs' summaries: rows are runs (first_run + row), columns outputs
/// (MonteCarloOutputs() order) or levels (spec order).
struct MonteCarloResult {
  std::vector<std::uint64_t> run;   ///< the run indices
  std::vector<std::uint64_t> seed;  ///< RunSeed of each
  Eigen::MatrixXd rms;              ///< RMS over the rows
  Eigen::MatrixXd peak;             ///< the value of largest |y| (signed)
  Eigen::MatrixXd peak_time;        ///< [s]
  Eigen::MatrixXd zero_upcrossings; ///< y_k < 0 ≤ y_{k+1}
  Eigen::MatrixXd exceedances;      ///< y_k < level ≤ y_{k+1}, per level
  long rows = 0;                    ///< rows per run (slices + 1)
  /// With history_every > 0: times, and per run a (kept rows × outputs)
  /// matrix.
  std::vector<double> history_time;
  std::vector<Eigen::MatrixXd> history;
};

/// Checks `spec` as RunMonteCarlo does, without flying (a front end that
/// splits a study into chunks checks the whole study first).
/// @throws FlightSpecError as RunMonteCarlo.
void CheckMonteCarlo(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                     const MonteCarloSpec& spec);

/// Flies the runs of `spec` on `aircraft` (whose modes are `modes`).
/// @throws FlightSpecError naming what is wrong ("runs", "duration", "dt",
///         "levels", "turbulence.height", ...).
MonteCarloResult RunMonteCarlo(const model::AircraftData& aircraft,
                               const analysis::ModalAnalysis& modes, const MonteCarloSpec& spec);

}  // namespace aerolin::study
