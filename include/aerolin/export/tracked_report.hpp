#pragma once
/// @file
/// Reports of tracked sweeps, root loci and sensitivities: JSON, text and CSV.

#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "aerolin/analysis/sensitivity.hpp"
#include "aerolin/study/maximize_damping.hpp"
#include "aerolin/study/tracked.hpp"

namespace aerolin::exporting {

/// Returns `{"param", "points": [{"value", "modes": [{"name", "origin",
/// "eigenvalue_per_s": {"re","im"}, "wn", "zeta", "oscillatory", "axis",
/// "pointwise_name"?}]}], "structure_changes": [...], "notes": [...]}`;
/// `value_key` is "value" for a sweep and "gain" for a locus.
std::string TrackedJson(const study::TrackedStudy& study, const std::string& value_key,
                        const std::string& file);
/// Writes TrackedJson's text (no final newline) to `out` point by point, as
/// it is formatted: nothing proportional to the number of points is built.
void WriteTrackedJson(std::ostream& out, const study::TrackedStudy& study, const std::string& value_key,
                      const std::string& file);

/// Returns TrackedJson of a locus plus "loop", "open_loop_poles", "zeros",
/// "gain_unit" and, if `optimum` is not null, "maximize": {"mode", "gain",
/// "zeta", "name", "wn"} of the best listed gain ("gain": null if the mode is
/// absent) with "refined": {"status", "message", ...} (see WriteDampingOptimum;
/// "refined" adds "gain", "zeta", "wn", "eigenvalue_per_s", "name",
/// "bracket", "evaluations", "relative_tolerance"; "overdamped" adds
/// "overdamped_from", "overdamped_to") and "other_local_maxima": [gains].
std::string LocusJson(const study::LocusResult& locus, const std::string& loop,
                      const std::string& file, const study::DampingOptimum* optimum);
/// Writes LocusJson's text (no final newline) to `out` point by point.
void WriteLocusJson(std::ostream& out, const study::LocusResult& locus, const std::string& loop,
                    const std::string& file, const study::DampingOptimum* optimum);

/// Returns LocusJson's "maximize" object of `optimum` alone (for bindings).
std::string DampingOptimumJson(const study::DampingOptimum& optimum);

/// Writes what study::MaximizeDamping found: the refined gain with ζ, ωn and
/// the mode's name, then how it was found and the best listed gain; or why
/// there was nothing to refine (range end, overdamped, real, absent).
void WriteDampingOptimum(std::ostream& out, const study::DampingOptimum& optimum,
                         const std::string& gain_unit);

/// Writes one line per point and mode: value, then name, λ, ωn, ζ, then the
/// structure changes and notes.
void WriteTrackedText(std::ostream& out, const study::TrackedStudy& study,
                      const std::string& value_label);

/// Writes the CSV: value,axis,mode,origin,re,im,wn,zeta,pointwise_name.
void WriteTrackedCsv(std::ostream& out, const study::TrackedStudy& study,
                     const std::string& value_label);

/// Writes a tracked study's report and CSV as its points arrive (the sink of
/// study::Sweep or study::Locus), the same text as WriteTrackedText or
/// TrackedJson (LocusJson) and WriteTrackedCsv of the whole study: each chunk
/// of points is formatted and written at once, so memory does not grow with
/// the number of points. JSON puts "notes" (and a locus's "maximize") before
/// "points" (sorted keys) but they are known only after the last point: the
/// points' JSON waits in an unnamed temporary file (in $TMPDIR, else /tmp)
/// until Finish; so does a text report that is held.
class TrackedReportStream {
 public:
  enum class Format { kText, kJson };
  /// `report`: where the text or JSON goes; `csv`: the CSV's stream or null;
  /// `label`: the text and CSV column of the value (the key, or "K");
  /// `value_key`: the JSON key of the value; `file`: JSON's "file";
  /// `preamble`: text written before the text's table; `hold`: the text
  /// reaches `report` only at Finish (so an error found after the points,
  /// such as an unknown mode to maximize, leaves no partial report).
  /// @throws std::runtime_error if the temporary file cannot be made.
  TrackedReportStream(std::ostream& report, Format format, std::ostream* csv, std::string label,
                      std::string value_key, std::string file, const std::string& preamble = {},
                      bool hold = false);
  ~TrackedReportStream();
  TrackedReportStream(const TrackedReportStream&) = delete;
  TrackedReportStream& operator=(const TrackedReportStream&) = delete;
  /// Writes the next points (in the study's order).
  void Add(std::span<const study::TrackedPoint> points);
  /// Writes what follows the points: `study`'s structure changes and notes
  /// (and, for JSON, param, refinements and the points waiting).
  void Finish(const study::TrackedStudy& study);
  /// As above for a locus (value_key "gain"): LocusJson's members, or the
  /// text's end and then `optimum` (WriteDampingOptimum) if not null.
  /// `locus.study` is the study the streamed study::Locus returned.
  void Finish(const study::LocusResult& locus, const std::string& loop, const study::DampingOptimum* optimum);

 private:
  void Release();
  struct State;
  std::unique_ptr<State> state_;
};

/// Writes each mode's three keys that move its damping most, then every key's dλ/dp.
void WriteSensitivityText(std::ostream& out, const std::vector<analysis::ModeSensitivity>& s,
                          const std::string& file);
/// Returns `{"file", "modes": [{"name", "eigenvalue_per_s", "top_damping": [keys],
/// "sensitivity": {"<key>": {"re","im"}, ...}, "dzeta": {"<key>": ...}}]}`.
std::string SensitivityJson(const std::vector<analysis::ModeSensitivity>& s, const std::string& file);

}  // namespace aerolin::exporting
