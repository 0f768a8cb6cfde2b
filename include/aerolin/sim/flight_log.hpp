#pragma once
/// @file
/// The record of a flight: the state at t = 0 and at every slice end.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"

namespace aerolin::sim {

/// Index of each component of the full flight state (12):
/// the longitudinal (u, α, q, θ) and lateral (β, p, r, φ, ψ) perturbations
/// followed by the earth-frame (NED) position [m] relative to the start.
enum FlightStateIndex : int {
  kU = 0, kAlpha, kQ, kTheta, kBeta, kP, kR, kPhi, kPsi, kNorth, kEast, kDown,
  kNumFlightStates
};
using FlightState = Eigen::Matrix<double, kNumFlightStates, 1>;

/// The 12 states as signals, in FlightStateIndex order: the longitudinal
/// and lateral states of model/conventions.hpp, then north, east, down [m].
/// The one description of the flight state that CSV headers, summaries,
/// figures, the HUD and the validity monitor use.
const std::vector<core::Signal>& FlightStateSignals();

/// A recorded flight. Row k: time[k], state[k] at that time, and controls[k],
/// the control values held during the slice that ends at time[k] (row 0:
/// zeros). All SI; angles in rad.
struct FlightLog {
  std::vector<std::string> control_names;  ///< in data-file order
  std::vector<std::string> control_units;  ///< "rad" or "1"
  std::vector<double> time;                ///< [s]
  std::vector<FlightState> state;
  std::vector<Eigen::VectorXd> controls;
  std::size_t size() const { return time.size(); }
};

}  // namespace aerolin::sim
