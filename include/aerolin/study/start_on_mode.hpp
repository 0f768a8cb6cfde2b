#pragma once
/// @file
/// "Start on a mode", written once: the initial flight state that excites one
/// dynamic mode of an aircraft, for `aerolin simulate --excite`, `aerolin plot`
/// and the flight window's keys 1–5.

#include <optional>
#include <vector>

#include <Eigen/Core>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"
#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/flight_model.hpp"

namespace aerolin::study {

/// An axis closed through washout filters, as a start on its modes needs it.
struct FilteredAxis {
  /// Its closed loop (model::BuildAugmented: the airframe's states, then the
  /// filters'; ModalAnalysis::model_of of study::AnalyzeClosedLoop); nullptr:
  /// no filters.
  const model::StateSpace* closed = nullptr;
  int first_slot = 0;  ///< the flight's auxiliary slot of its first filter (sim::FilterSlot)
};

/// Returns the eigenvector of `closed`'s A (the airframe's n states, then f
/// washout filter states w) whose airframe part is `mode`'s shape (the
/// closed loop's mode as analysis::AnalyzeWithFilters names it, its shape cut
/// to the airframe's states): the filter part from the filters' rows of
/// (A − λI) v = 0, w = (λI − A_ww)⁻¹ A_wx x. `mode.shape` if `closed` has
/// no more states than it.
Eigen::VectorXcd ClosedLoopShape(const analysis::Mode& mode, const model::StateSpace& closed);

/// The FilteredAxis of `axis` of `aircraft` whose closed-loop modes are
/// `modes` (study::AnalyzeClosedLoop): empty without washout filters on it.
/// `modes` must outlive the result.
FilteredAxis FilteredAxisOf(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                            model::Axis axis);

/// The axis of a mode: longitudinal for the short period and phugoid, else lateral.
model::Axis AxisOf(analysis::ModeKind kind);

/// A flight start on one mode.
struct ModeStart {
  sim::FlightState state;  ///< the initial 12-state (position 0)
  /// The initial auxiliary state: the filters' part of a closed loop's mode
  /// (an axis closed through washout filters), else 0.
  sim::AuxiliaryState auxiliary = sim::AuxiliaryState::Zero();
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
/// it has neither. For an axis closed through washout filters (`filtered`,
/// the axis of `kind`), the start is the closed loop's eigenvector
/// (ClosedLoopShape), its filters' part in ModeStart::auxiliary.
std::optional<ModeStart> StartOnMode(const std::vector<analysis::Mode>& longitudinal,
                                     const std::vector<analysis::Mode>& lateral,
                                     analysis::ModeKind kind, double U0,
                                     std::optional<double> amplitude = std::nullopt,
                                     const FilteredAxis& filtered = {});

/// As above, analysing `aircraft`'s modes first (each axis closed,
/// study::AnalyzeClosedLoop).
/// @throws as analysis::AnalyzeLongitudinal / AnalyzeLateral.
std::optional<ModeStart> StartOnMode(const model::AircraftData& aircraft,
                                     analysis::ModeKind kind,
                                     std::optional<double> amplitude = std::nullopt);

}  // namespace aerolin::study
