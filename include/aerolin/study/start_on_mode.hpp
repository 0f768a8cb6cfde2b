#pragma once
/// @file
/// "Start on a mode", written once: the initial flight state that excites one
/// dynamic mode of an aircraft, for `aerolin simulate --excite`, `aerolin plot`
/// and the flight window's keys 1–5.

#include <optional>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::study {

/// A flight start on one mode.
struct ModeStart {
  sim::FlightState state;  ///< the initial 12-state (position 0)
  /// The mode actually used: the one asked for, or kRollSpiral when roll or
  /// spiral was asked for and the aircraft has the coupled oscillation instead.
  analysis::ModeKind mode;
  model::Axis axis;  ///< the block the mode lives in
  /// The amplitude of the mode's reference state [m/s, rad or rad/s]: the one
  /// given, or sim::DefaultExcitationAmplitude.
  double amplitude = 0.0;
};

/// Returns the start on mode `kind` of an aircraft whose analysed modes are
/// `longitudinal` and `lateral` (analysis::AnalyzeLongitudinal/AnalyzeLateral)
/// and whose trim speed is `U0` [m/s]: sim::ModeInitialState of the mode's
/// shape with its reference state at `amplitude` (default:
/// sim::DefaultExcitationAmplitude). Roll and spiral fall back to the
/// roll-spiral oscillation when the aircraft has no such real mode; nullopt if
/// it has neither.
std::optional<ModeStart> StartOnMode(const std::vector<analysis::Mode>& longitudinal,
                                     const std::vector<analysis::Mode>& lateral,
                                     analysis::ModeKind kind, double U0,
                                     std::optional<double> amplitude = std::nullopt);

/// As above, analysing `aircraft`'s modes first.
/// @throws as analysis::AnalyzeLongitudinal / AnalyzeLateral.
std::optional<ModeStart> StartOnMode(const model::AircraftData& aircraft,
                                     analysis::ModeKind kind,
                                     std::optional<double> amplitude = std::nullopt);

}  // namespace aerolin::study
