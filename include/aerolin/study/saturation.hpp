#pragma once
/// @file
/// Would an actuator saturate at a stated disturbance? The deflection a
/// designed feedback (study/augment.hpp) commands of each of its inputs when
/// the states are displaced by a disturbance the user states, against that
/// input's position stop (model/actuators.hpp: the file's `[actuators]`, or
/// `--actuator` as `aerolin qualities` takes it). One computation for
/// `aerolin augment --disturbance` and `aerolin.augment(disturbance=...)`.
///
/// **The worst signs.** The disturbance states magnitudes |x_j| of some of
/// the designed axis's states (the others are 0). The command of input i is
/// @f$ |\delta_i| = \sum_j |K_{ij}|\,|x_j| @f$: the largest |(K x)_i| over
/// every sign combination of the stated components (each term at its worst
/// sign, as a gust or an upset may combine them), so a stop that holds this
/// holds every combination.
///
/// **Washout.** A washed-out loop's filter state (study::AugmentResult's
/// "<output>_washout") is 0 at the disturbance's onset: the filter has not
/// yet followed the output, so the loop commands K·y, its full gain on the
/// output. The filter states are not stated; their components are 0.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/model/actuators.hpp"
#include "aerolin/study/augment.hpp"

namespace aerolin::study {

/// One stated component of a disturbance.
struct DisturbanceComponent {
  std::string name;   ///< a state of a designed axis, as `--max` names it (e.g. "beta")
  double value = 0.0;  ///< its magnitude, SI (rad, rad/s, m/s), finite, ≥ 0
};

/// Reads a disturbance stated as NAME=VALUE pairs (each VALUE as
/// ParseSignalValue reads a value of the state NAME: "5deg", "2deg/s",
/// "0.0872665", "3ft/s"), each NAME a state of the axis of one of `designs`.
/// Returns the components in the order given, SI.
/// @throws std::invalid_argument naming the entry: a name that is no state
///         of a designed axis (listing the designed axes' states; naming the
///         axis it belongs to when that axis is not designed), a filter
///         state, a value that does not parse or is negative, a name given
///         twice, an empty list.
std::vector<DisturbanceComponent> ParseDisturbance(const std::vector<std::pair<std::string, std::string>>& items,
                                                   const std::vector<AugmentResult>& designs);

/// As above, from the text of `--disturbance`: "beta=5deg,r=2deg/s".
/// @throws std::invalid_argument as above, or for an entry that is not
///         NAME=VALUE.
std::vector<DisturbanceComponent> ParseDisturbance(const std::string& text, const std::vector<AugmentResult>& designs);

/// What one input of a design is commanded at the disturbance.
struct InputCommand {
  core::Signal input;            ///< the designed input (a row of the gain); its unit is the command's
  double command = 0.0;          ///< |δ| = Σ_j |K_ij| |x_j| [input unit, rad for a surface]
  std::optional<double> limit;   ///< the position stop [rad]; none: no stop given, not checked
  std::optional<double> ratio;   ///< command / limit (with a limit)
  bool saturates = false;        ///< command > limit (false without a limit)
};

/// The check of one design.
struct SaturationCheck {
  std::vector<DisturbanceComponent> disturbance;  ///< the stated components on this design's axis
  std::vector<InputCommand> inputs;               ///< one per designed input, in the gain's row order
};

/// Returns what `design`'s gain commands of each of its inputs at the
/// components of `disturbance` that are states of its axis (the others are
/// another design's), against the position stops of `path`.
/// @throws std::invalid_argument if a component's value is negative or not
///         finite (ParseDisturbance never returns one), or if an input's command
///         overflows (a huge stated value: "state a smaller disturbance").
SaturationCheck CheckSaturation(const AugmentResult& design, const std::vector<DisturbanceComponent>& disturbance,
                                const model::CommandPath& path);

/// CheckSaturation of each of `designs` (one run's designs, one per axis), in
/// their order: what `aerolin augment --disturbance` and
/// `aerolin.augment(disturbance=...)` report.
std::vector<SaturationCheck> CheckSaturations(const std::vector<AugmentResult>& designs,
                                              const std::vector<DisturbanceComponent>& disturbance,
                                              const model::CommandPath& path);

}  // namespace aerolin::study
