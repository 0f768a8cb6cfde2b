#pragma once
/// @file
/// Starting a flight on one dynamic mode. `sim` does not know `analysis`
/// (siblings): the caller passes the mode's eigenvector as plain Eigen data.

#include <Eigen/Core>

#include "aerolin/model/conventions.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::sim {

/// Returns the flight state that starts on a mode: the real part of `shape`
/// (an eigenvector of that block's A: (u, α, q, θ) for model::Axis::kLongitudinal,
/// (β, p, r, φ[, ψ]) for kLateral) scaled so that its component
/// `reference_state` equals `amplitude`, in the block's slots of the 12-state
/// vector; everything else (including position) 0. Only the real part is used
/// because the flight state is real: Re(v) excites λ and its conjugate, whose
/// sum is the real free response of the mode.
/// @param amplitude [unit of the reference state: m/s, rad or rad/s]
/// @throws std::invalid_argument if `shape` is longer than the block, the
///         index is out of range, or Re(shape[reference_state]) is 0.
FlightState ModeInitialState(const Eigen::VectorXcd& shape, int reference_state,
                             model::Axis axis, double amplitude);

/// Default excitation amplitude: 0.02·U0 [m/s] if the reference state is u,
/// else 0.02 [rad or rad/s] (≈ 1.1°, well inside the small-perturbation range).
double DefaultExcitationAmplitude(model::Axis axis, int reference_state, double U0);

}  // namespace aerolin::sim
