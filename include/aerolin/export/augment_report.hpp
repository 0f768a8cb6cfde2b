#pragma once
/// @file
/// The report of `aerolin augment`: the gain, the design's numbers (weights
/// and Riccati solution, or requested and achieved poles) and the open- and
/// closed-loop modes side by side, named as `aerolin modes` names them and
/// graded by MIL-F-8785C as `aerolin qualities` grades them; as text or as
/// one JSON document (schema aerolin.augment/1).

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/saturation.hpp"

namespace aerolin::exporting {

/// What the report says it is about.
struct AugmentReportHeader {
  std::string_view file;      ///< the data file as given (informational)
  std::string_view aircraft;  ///< the aircraft's name
};

/// Writes the text report: the gain table (rows inputs, columns states,
/// with units), the weights (Bryson maxima in deg, deg/s, m/s) and the
/// Riccati summary, or the requested and achieved poles, then the modes.
/// With `saturation` (`--disturbance`), a block after the gain: the stated
/// disturbance and, per input, the command, the position stop, their ratio
/// and "saturates" (or "no position limit given: not checked").
void WriteAugmentText(std::ostream& out, const AugmentReportHeader& header,
                      const study::AugmentResult& result, const study::SaturationCheck* saturation = nullptr);

/// Returns the aerolin.augment/1 document, indented by 2, without a final
/// newline. Keys (sorted): aircraft {name}, axis, closed_loop {states,
/// modes (as aerolin.modes/2; null with heading hold), eigenvalues_per_s
/// [{re, im}]}, design {states, inputs}, file, gain {rows, columns, values
/// (SI: input unit per state unit), norm}, method ("lqr"/"place"),
/// open_loop {states, modes}, poles (place: {requested, achieved,
/// max_error_per_s, eigenvector_condition}; else null), qualities {class,
/// categories [{category, open_loop, closed_loop}: {level, mode_levels}]}
/// (null without a class), not_graded (why, or null), residual (LQR; else null), riccati
/// (LQR: {states, X}; else null), schema, weights (LQR: {rule "bryson" or
/// "explicit", states, inputs, Q, R, maxima {name: SI value} or null};
/// else null). With `saturation` (`--disturbance`) one key more,
/// saturation {disturbance {state: SI magnitude}, inputs [{input, unit,
/// command, limit, ratio, saturates}] (limit, ratio, saturates null without
/// a position stop)}; without it the document is unchanged.
std::string AugmentJson(const AugmentReportHeader& header, const study::AugmentResult& result,
                        const study::SaturationCheck* saturation = nullptr);

/// Returns the document of a run with designs on both axes (`aerolin augment
/// --loop` with loops of both), indented by 2, without a final newline:
/// {"schema": "aerolin.augment/2", "file", "aircraft" {name}, "axes": [one
/// aerolin.augment/1 document per design, as AugmentJson writes it, in
/// `results`' order]}. A new schema name, since the top level has no
/// `gain`, `axis` or `closed_loop`: a reader of /1 is told, not misled; each
/// element is unchanged /1, read by the same code. With `saturation` (one
/// check per result), each element has its `saturation` as AugmentJson.
std::string AugmentAxesJson(const AugmentReportHeader& header, const std::vector<study::AugmentResult>& results,
                            const std::vector<study::SaturationCheck>* saturation = nullptr);

/// Returns one line per input of `saturation` (the check of `result`) that
/// saturates: "rudder would saturate: commanded 27.5 deg at the disturbance
/// beta 5 deg, r 2 deg/s (worst signs), beyond its position stop 25 deg
/// (ratio 1.100)", without "warning: " and without a newline.
std::vector<std::string> SaturationWarnings(const study::AugmentResult& result,
                                            const study::SaturationCheck& saturation);

/// Returns the `[augmentation.<axis>]` section of a data file that closes
/// `result`'s gain (model::AxisAugmentation; data/derivatives/README.md):
/// a comment naming `command`, units = "SI", inputs, states and the gain
/// rows in shortest round-trip form, ending with a newline. Output-feedback
/// loops (DesignMethod::kLoops) are written as `loops = [{ input, output,
/// gain[, washout_s] }, ...]` instead of the gain rows.
/// @throws std::invalid_argument if the gain feeds ψ back (heading hold),
///         which a file cannot hold yet, or loops with a washout whose
///         closed-loop modes cannot be named (a filter's root in a pair).
std::string AugmentationToml(const study::AugmentResult& result, std::string_view command);

}  // namespace aerolin::exporting
