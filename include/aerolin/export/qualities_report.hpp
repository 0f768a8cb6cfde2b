#pragma once
/// @file
/// The flying-qualities grading (analysis/flying_qualities.hpp) as a text
/// table and as JSON (schema aerolin.qualities/1).

#include <ostream>
#include <string>
#include <vector>

#include "aerolin/analysis/flying_qualities.hpp"

namespace aerolin::exporting {

/// What the report names besides the grades.
struct QualitiesReportHeader {
  std::string file;      ///< data file path as given
  std::string aircraft;  ///< aircraft name
  /// The file closes a feedback ([augmentation]): the text says "Augmented
  /// (the file's [augmentation])" where it says "Bare airframe".
  bool augmented = false;
};

/// Writes one table per graded category: a row per requirement with mode,
/// criterion, value and unit, the Level 1/2/3 limits ("a..b", "≥ a", "≤ b",
/// "no divergence" / "not permitted" for a minimum of +inf), the level
/// reached and the paragraph; then the worst level per mode and overall.
/// @pre every grade has the same class and n/α (one aircraft).
void WriteQualitiesText(std::ostream& out, const QualitiesReportHeader& header,
                        const std::vector<analysis::QualitiesGrade>& grades);

/// Returns the JSON document (schema aerolin.qualities/1, two-space indent):
/// `{"schema", "file", "aircraft", "class", "n_alpha_g_per_rad",
///   "categories": [{"category", "level", "mode_levels": {mode: level},
///   "requirements": [{"mode", "criterion", "value", "unit", "level",
///   "limits": {"1": {"min", "max"}, "2": ..., "3": ...}, "paragraph",
///   "note"}]}], "level"}`.
/// Levels are integers 1–4 (4 = worse than Level 3). A limit side that does
/// not exist is null; a minimum of +inf ("must not diverge", "not
/// permitted") is written as `"permitted": false` with both sides null; a
/// value of +inf (a time to double of a mode that never doubles) is null.
std::string QualitiesJson(const QualitiesReportHeader& header,
                          const std::vector<analysis::QualitiesGrade>& grades);

}  // namespace aerolin::exporting
