#pragma once
/// @file
/// Exact rough-air statistics: the RMS of every state and derived output of
/// an aircraft flying hands-off in Dryden turbulence, the RMS of their rates
/// and how often they cross zero, computed from the model, with no Monte
/// Carlo (`aerolin rms`, `aerolin.rms`).
///
/// **Which process.** The one a flight flies (study::Prepare, so `aerolin
/// simulate`, Python and the window): the Dryden filters sampled exactly at
/// the slice step Δt, each gust sample held over its slice, the aircraft
/// propagated exactly over the slice, the controls fixed at trim. Per axis,
/// with the aircraft's states x (longitudinal u, α, q, θ; lateral β, p, r, φ —
/// the heading ψ, a free integrator that feeds nothing back, has no
/// stationary variance and is left out), the axis's filter states ξ
/// (longitudinal u_g, w_g; lateral v_g, p_g; sim::DrydenTurbulence) and the
/// gust d = C_f ξ:
/// @f[ x_{k+1} = \Phi x_k + \Gamma_E d_k,\quad \xi_{k+1} = A_d\xi_k + n_k,\quad
///     n_k \sim N(0, Q_d), @f]
/// [Φ Γ_E] from exp([A E; 0 0]Δt) (E: model::BuildGustInput). A row at
/// t_k pairs x_k with the gust of the slice that ends there, d_{k−1} (as the
/// simulate CSV's u_g..p_g columns and its nz RMS do), so the state of the
/// recursion is s_k = (x_k, ξ_{k−1}):
/// @f[ s_{k+1} = T s_k + G n_k,\quad
///     T = \begin{pmatrix}\Phi & \Gamma_E C_f A_d\\ 0 & A_d\end{pmatrix},\quad
///     G = \begin{pmatrix}\Gamma_E C_f\\ I\end{pmatrix}, @f]
/// and its stationary covariance solves the **discrete Lyapunov equation**
/// P = T P Tᵀ + G Q_d Gᵀ (Smith's doubling: P = Σ_j T^j G Q_d Gᵀ T^{jᵀ},
/// summed in doublings; it converges when every mode of the axis is stable).
/// As Δt → 0 it tends to the continuous process's covariance (the test
/// checks both against direct Kronecker solves).
///
/// **Outputs** y = c s: the states, the derived outputs of
/// model::WithDerivedOutputs (nz and γ; ay), whose direct gust feed-through
/// (nz and ay through α̇ and β̇) uses the row's gust, and the gusts
/// themselves.
/// - rms σ_y = √(c P cᵀ), the RMS of the rows of a long flight;
/// - rate_rms: the RMS of dy/dt at the rows, the slice's gust held:
///   ẏ = C_y (A x + E d) — for a state, its derivative; none for the gusts
///   (a held sample has no rate, and the Dryden u_g, w_g have none in the
///   continuous sense either: their rate spectra do not decay);
/// - n0_per_s: the zero up-crossings per second of the rows, exactly for a
///   Gaussian sequence: N₀ = arccos(ρ₁)/(2πΔt) with ρ₁ the correlation of
///   neighbouring rows (c T P cᵀ/σ²). For a smooth output this tends to
///   Rice's N₀ = σ_ẏ/(2πσ_y) as Δt → 0. For an output with a direct gust
///   feed-through (nz, ay) the gust's jumps between slices count too, so N₀
///   depends on Δt and grows as Δt shrinks (quasi-steady aerodynamics feel
///   the Dryden gust's unbounded rate at once): quote it with its Δt.
/// A level y is exceeded (upward) N(y) = N₀ exp(−y²/2σ²) times per second
/// (Rice's formula, ExceedanceRate).

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/sim/turbulence.hpp"
#include "aerolin/study/flight_setup.hpp"

namespace aerolin::study {

/// A rough-air statistics request: the turbulence (its seed is unused) and
/// the slice step, SI. Height and span default as for a flight
/// (TurbulenceHeight's rule, the file's span).
struct RoughAirSpec {
  TurbulenceSpec turbulence;
  double dt = sim::SliceOptions{}.dt;  ///< slice step Δt [s]
};

/// The stationary statistics of one output.
struct OutputStatistics {
  core::Signal signal;  ///< name (as the simulate CSV), SI unit
  double rms = 0.0;     ///< σ_y [unit]
  /// σ_ẏ [unit/s]; nullopt for the gusts (held per slice).
  std::optional<double> rate_rms;
  double n0_per_s = 0.0;  ///< zero up-crossings per second N₀ [1/s]
  /// y depends directly on the gust of its slice (nz, ay, the gusts).
  bool gust_feedthrough = false;
};

/// The statistics of one axis.
struct AxisStatistics {
  model::Axis axis = model::Axis::kLongitudinal;
  /// Set when the axis has no stationary statistics: which mode is not
  /// stable ("spiral is unstable (λ = +0.0123 1/s)"); outputs is then empty.
  std::optional<std::string> not_stationary;
  std::vector<OutputStatistics> outputs;
  /// The names of s's components: the states, then the filter states
  /// ("u_g", "w_g", "w_g'", ...).
  std::vector<std::string> state_names;
  Eigen::MatrixXd covariance;  ///< P of s (empty when not stationary)
  Eigen::MatrixXd transition;  ///< T
  /// Row i: output i's c on s (y_i = c s), so that C P Cᵀ is the outputs'
  /// covariance and C T^j P Cᵀ their lag-j covariance.
  Eigen::MatrixXd output_rows;
};

/// The statistics of both axes and the turbulence they were computed for.
struct RoughAirStatistics {
  TurbulenceSpec turbulence;  ///< with the height and span resolved
  HeightSource height_source = HeightSource::kGiven;  ///< where the height came from
  sim::DrydenParameters dryden;
  double sigma_p = 0.0;  ///< σ_p [rad/s] (0 without a span)
  double airspeed = 0.0;  ///< V = U0 [m/s]
  double dt = 0.0;
  AxisStatistics longitudinal, lateral;
  const AxisStatistics& of(model::Axis axis) const {
    return axis == model::Axis::kLongitudinal ? longitudinal : lateral;
  }
};

/// Computes the stationary statistics of `aircraft` (whose modes are
/// `modes`) in the turbulence of `spec`.
/// @throws FlightSpecError as Validate / Prepare.
RoughAirStatistics ExactRoughAirStatistics(const model::AircraftData& aircraft,
                                           const analysis::ModalAnalysis& modes,
                                           const RoughAirSpec& spec);

/// The statistics of the three intensities against height above ground
/// (`aerolin rms --plot`): the turbulence changes with height as MIL-F-8785C
/// says (sim::DrydenParametersAt); the aircraft stays at its file's
/// condition (speed, density, derivatives), as every rough-air request does.
struct RoughAirProfile {
  /// h [m], ascending: from 10 ft to 80 000 ft, 24 per decade of height,
  /// and every sim::DrydenBreakpointHeights() (so each kink is drawn).
  std::vector<double> heights;
  /// statistics[i][k]: intensity i (sim::TurbulenceIntensity's order:
  /// light, moderate, severe) at heights[k].
  std::array<std::vector<RoughAirStatistics>, 3> statistics;
};

/// Computes RoughAirProfile for `aircraft` with the slice step and span of
/// `spec` (its intensity and height are not used).
/// @throws FlightSpecError as ExactRoughAirStatistics.
RoughAirProfile RoughAirHeightProfile(const model::AircraftData& aircraft,
                                      const analysis::ModalAnalysis& modes,
                                      const RoughAirSpec& spec);

/// Rice's formula: the upward crossings per second of `level` [the output's
/// unit], N₀ exp(−level²/2σ²).
double ExceedanceRate(const OutputStatistics& output, double level);

}  // namespace aerolin::study
