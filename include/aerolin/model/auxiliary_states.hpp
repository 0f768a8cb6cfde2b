#pragma once
/// @file
/// The states a flight carries beside the airframe's: one per actuated
/// control (model/actuators.hpp) and one per washout filter of an
/// [augmentation] loop (model::BuildAugmented), with the feedback that acts
/// on the filters' states. sim::FlightModel flies them; data files are
/// refused at load when they need more than the flight carries.

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::model {

/// The most states a flight carries beside its 12 flight states: one per
/// actuated control and one per washout filter (sim::FlightModel's
/// auxiliary state, a fixed size that keeps the RK45 stages on the stack).
/// A file with more is refused at load (data::LoadResult::not_flyable).
inline constexpr int kMaxAuxiliaryStates = 6;

/// FilterStates of both axes: the washout filters `aircraft`'s augmentation
/// closes.
int FilterStates(const AircraftData& aircraft);

/// The feedback BuildAugmented closes on `axis`, δ = M δ_pilot − K z over
/// its state z = (x, w₁, …, w_f): K is inputs × (n + f), its last f columns
/// the filter states' (the loop feeds back y − w); FeedbackOf for an axis
/// without washout filters. The flight (sim::FlightModel) commands its
/// surfaces with it.
/// @throws std::invalid_argument as BuildAugmented.
ClosedFeedback AugmentedFeedbackOf(const AircraftData& aircraft, Axis axis);

}  // namespace aerolin::model
