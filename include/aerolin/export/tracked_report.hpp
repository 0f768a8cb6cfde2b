#pragma once
/// @file
/// Reports of tracked sweeps, root loci and sensitivities: JSON, text and CSV.

#include <ostream>
#include <string>
#include <vector>

#include "aerolin/analysis/sensitivity.hpp"
#include "aerolin/study/tracked.hpp"

namespace aerolin::exporting {

/// Returns `{"param", "points": [{"value", "modes": [{"name", "origin",
/// "eigenvalue_per_s": {"re","im"}, "wn", "zeta", "oscillatory", "axis",
/// "pointwise_name"?}]}], "structure_changes": [...], "notes": [...]}`;
/// `value_key` is "value" for a sweep and "gain" for a locus.
std::string TrackedJson(const study::TrackedStudy& study, const std::string& value_key,
                        const std::string& file);

/// Returns TrackedJson of a locus plus "loop", "open_loop_poles", "zeros",
/// "gain_unit" and, if `maximize` is not empty, "maximize": {"mode", "gain", "zeta"}.
std::string LocusJson(const study::LocusResult& locus, const std::string& loop,
                      const std::string& file, const std::string& maximize);

/// Writes one line per point and mode: value, then name, λ, ωn, ζ, then the
/// structure changes and notes.
void WriteTrackedText(std::ostream& out, const study::TrackedStudy& study,
                      const std::string& value_label);

/// Writes the CSV: value,axis,mode,origin,re,im,wn,zeta,pointwise_name.
void WriteTrackedCsv(std::ostream& out, const study::TrackedStudy& study,
                     const std::string& value_label);

/// The gain (among the locus's points) that maximizes ζ of the mode whose
/// origin or name contains `mode` (a display name, e.g. "dutch roll").
struct BestGain {
  bool found = false;
  double gain = 0;
  double zeta = 0;
  std::string name;  ///< the mode's tracked name there
};
BestGain MaximizeDamping(const study::TrackedStudy& study, const std::string& mode);

/// Writes each mode's three keys that move its damping most, then every key's dλ/dp.
void WriteSensitivityText(std::ostream& out, const std::vector<analysis::ModeSensitivity>& s,
                          const std::string& file);
/// Returns `{"file", "modes": [{"name", "eigenvalue_per_s", "top_damping": [keys],
/// "sensitivity": {"<key>": {"re","im"}, ...}, "dzeta": {"<key>": ...}}]}`.
std::string SensitivityJson(const std::vector<analysis::ModeSensitivity>& s, const std::string& file);

}  // namespace aerolin::exporting
