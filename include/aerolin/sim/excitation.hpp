#pragma once
/// @file
/// Starting a flight on one dynamic mode. `sim` does not know `analysis`
/// (siblings): the caller passes the mode's eigenvector as plain Eigen data.

#include <Eigen/Core>

#include "aerolin/model/conventions.hpp"
#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/flight_model.hpp"

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

/// A flight's initial state: the 12 flight states and the auxiliary state
/// (FlightModel::AddActuators: actuators' positions, washout filters' states).
struct InitialState {
  FlightState x = FlightState::Zero();
  AuxiliaryState auxiliary = AuxiliaryState::Zero();
};

/// As above, for an eigenvector of an axis closed through washout filters
/// (model::BuildAugmented: the block's states, then its f filter states w):
/// the block's part as above, the filters' part scaled alike (the real
/// part of shape·amplitude/Re(shape[reference_state])) in the auxiliary
/// slots `first_filter_slot` ... `first_filter_slot` + f − 1 (FilterSlot),
/// the other slots 0. The reference state may be a filter's. A shape no
/// longer than the block gives the state above and an auxiliary state of 0.
/// So the flight starts on the closed loop's mode: every state, the filters'
/// included, moves as Re(v e^{λt}).
/// @throws std::invalid_argument if the filters' slots run past
///         kMaxAuxiliaryStates, the index is out of range, or
///         Re(shape[reference_state]) is 0.
InitialState ModeInitialState(const Eigen::VectorXcd& shape, int reference_state, model::Axis axis,
                              double amplitude, int first_filter_slot);

/// Default excitation amplitude: 0.02·U0 [m/s] if the reference state is u,
/// else 0.02 [rad or rad/s] (≈ 1.1°, well inside the small-perturbation range;
/// a washout filter's state as reference: 0.02 of its output's unit).
double DefaultExcitationAmplitude(model::Axis axis, int reference_state, double U0);

}  // namespace aerolin::sim
