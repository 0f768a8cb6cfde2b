#pragma once
/// @file
/// Linearization of the nonlinear 6-DOF model (sim/nonlinear_model.hpp) at a
/// trim (study/trim.hpp), expressed as the normalized dimensional
/// derivatives of a data file aerolin loads.

#include <Eigen/Core>
#include <optional>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/study/trim.hpp"

namespace aerolin::study {

/// A linearization at one trim.
struct LinearizeResult {
  TrimResult trim;
  /// The aircraft at the trim, as a data file gives it after loading:
  /// normalized α/β-form derivatives with primed L, N, in the axes of the
  /// original file (body axes fixed to the aircraft: W0 = the trim's w, θ0 =
  /// the trim's θ), U0 = the trim's u, the trim altitude (when the original
  /// has one), the original's mass, geometry, class and category. Its controls
  /// are deviations from the trim's settings (limits shifted by them). No
  /// augmentation (the nonlinear model is the bare airframe).
  model::AircraftData aircraft;
  /// The Jacobian of the nonlinear model in aerolin's 9 states (u, α, q, θ,
  /// β, p, r, φ, ψ; α = Δw/U0, β = v/U0) and in the controls (file order).
  /// | Matrix | Rows | Cols |
  /// |:--:|:--:|:--:|
  /// | A | 9 | 9 |
  /// | B | 9 | number of controls |
  Eigen::MatrixXd A, B;
  /// Largest Richardson error estimate of a derivative of `aircraft`,
  /// relative to the largest magnitude in its row.
  double derivative_error = 0.0;
  /// Largest |entry| of A's longitudinal–lateral cross blocks (zero in
  /// straight, unsideslipped flight, which aerolin's decoupled model assumes).
  double cross_coupling = 0.0;
  /// Largest |A − A_built| / max|A| over both axes, A_built the matrices
  /// model::BuildLongitudinal/BuildLateral make of `aircraft`: how well the
  /// derivatives represent the nonlinear model's Jacobian (rounding level).
  double model_mismatch = 0.0;
};

/// Returns the linearization of `aircraft`'s nonlinear model at the trim
/// for `request`, or at the file's own reference (ReferenceRequest) when
/// there is none.
///
/// Derivatives are central differences of the aerodynamic forces and moments
/// (NonlinearModel::Aerodynamics) in u, v, w, p, q, r, ẇ and the controls,
/// at steps h, h/2, h/4 (h = 1e-3 × V for velocities, 1e-3 in SI for rates,
/// ẇ and controls) and Richardson extrapolation of the pairs; the difference
/// of the two extrapolations is the error estimate, `derivative_error`. A and B are differences of the whole model
/// (quaternion rebuilt from perturbed Euler angles) the same way.
/// @throws std::invalid_argument if the request turns or sideslips: aerolin's
///         linear model is about wings-level straight flight; as Trim.
/// @throws TrimError as Trim.
LinearizeResult Linearize(const model::AircraftData& aircraft,
                          const std::optional<TrimRequest>& request = std::nullopt);

}  // namespace aerolin::study
