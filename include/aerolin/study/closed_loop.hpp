#pragma once
/// @file
/// A file's aircraft with its augmentation closed, washout filters included
/// (model::BuildAugmented), and its modes named: the one builder `aerolin
/// modes`, `qualities`, `tf`, `bode`, `locus` and Python's analyses use, and
/// the one `aerolin augment --loop` grades its design with. A washout
/// filter's root is named "washout filter (<output>_washout)" and found by
/// continuation from the open loop (each filter at its pole −1/τ, feeding
/// nothing back) to the closed loop, as `aerolin locus` follows a loop's
/// roots: the root nearest a filter's pole need not be its own.

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::study {

/// One axis closed: its model and, when they can be named, its modes.
struct ClosedAxis {
  /// model::BuildAugmented: the airframe's states, then the filters'.
  model::StateSpace model;
  /// Named as `aerolin modes` names them, the filters' roots as
  /// "washout filter (...)" modes; empty: see `not_named`.
  std::optional<std::vector<analysis::Mode>> modes;
  /// The filters' roots, in the filter states' order (with `modes`).
  std::vector<analysis::FilterRoot> filters;
  /// Why the modes are not named (a filter's root has joined a pair, ψ is
  /// fed back), else "".
  std::string not_named;
};

/// Closes `axis` of `aircraft` (model::BuildAugmented) and names its modes
/// (NameClosedAxis, from the axis's open loop: every gain 0).
/// `open_modes` are the modes of the axis's bare airframe (the continuation's
/// start); empty: computed here.
/// @throws std::invalid_argument as model::BuildAugmented.
ClosedAxis CloseAxis(const model::AircraftData& aircraft, model::Axis axis,
                     const std::vector<analysis::Mode>* open_modes = nullptr);

/// CloseAxis's naming of a closed loop `closed` of `axis` (the airframe's
/// states, then any washout filters'): its roots followed by continuation
/// from `open`, the same states' matrix with every gain 0 (each filter at its
/// pole, driven by its output), whose airframe's modes are `open_modes`,
/// along open + s (closed − open), s from 0 to 1, as `aerolin locus` follows
/// a loop's roots. Each closed-loop mode is the kind of the open-loop mode
/// its root descends from (a yaw damper's well-damped pair is the Dutch
/// roll, whatever its shape), qualified by its own root (overdamped,
/// unstable, ...). Where two modes other than roll and spiral have coupled
/// into one pair, which has no classical name, every mode of the axis keeps
/// the name of its shape (analysis::AnalyzeWithFilters).
/// The filters' roots are the roots that descend from the filters' poles.
/// `closed` equal to `open` is named as the bare axis.
/// U0 [m/s] is the trim speed the longitudinal names use. (`aerolin sweep`
/// names the first point of an augmented file's closed loop so.)
ClosedAxis NameClosedAxis(model::StateSpace closed, const Eigen::MatrixXd& open, model::Axis axis, double U0,
                          const std::vector<analysis::Mode>& open_modes);

/// analysis::AnalyzeModes of `aircraft`, but each augmented axis closed by
/// CloseAxis (its modes named by continuation from the open loop); with
/// washout filters the axis's model has the filter states and its modes the
/// filters' roots. Without augmentation, analysis::AnalyzeModes.
/// @throws std::invalid_argument naming the axis and why when an axis's
///         modes cannot be named (CloseAxis's `not_named`).
analysis::ModalAnalysis AnalyzeClosedLoop(const model::AircraftData& aircraft);

}  // namespace aerolin::study
