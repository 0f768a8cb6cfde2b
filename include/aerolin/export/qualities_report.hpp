#pragma once
/// @file
/// The flying-qualities grading (analysis/flying_qualities.hpp) as a text
/// table and as JSON (schema aerolin.qualities/1).

#include <ostream>
#include <string>
#include <vector>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/study/mil_std_1797.hpp"

namespace aerolin::exporting {

/// What the report names besides the grades.
struct QualitiesReportHeader {
  std::string file;      ///< data file path as given
  std::string aircraft;  ///< aircraft name
  /// The file closes a feedback ([augmentation]): the text says "Augmented
  /// (the file's [augmentation])" where it says "Bare airframe".
  bool augmented = false;
};

/// The MIL-STD-1797A block of the report: the bare airframe's criteria and,
/// for a file with [augmentation], the augmented aircraft's beside them.
struct MilStd1797Report {
  model::CommandPath path;                         ///< as graded (file, then flags)
  study::DropbackOptions dropback;                 ///< the step flown (its command [rad])
  study::MilStd1797Result bare;
  std::optional<study::MilStd1797Result> augmented;
  analysis::AircraftClass aircraft_class{};
  std::vector<analysis::FlightPhaseCategory> categories;  ///< as the 8785C grading
};

/// Returns the block for `aircraft` (its [augmentation] left out for the
/// bare column) through `path`.
/// @throws as study::AssessMilStd1797.
MilStd1797Report AssessForReport(const model::AircraftData& aircraft, const model::CommandPath& path,
                                 analysis::AircraftClass aircraft_class,
                                 const std::vector<analysis::FlightPhaseCategory>& categories,
                                 const study::DropbackOptions& dropback = {});

/// Writes the MIL-STD-1797A block: one row per criterion, a column per
/// aircraft (bare, augmented), the unit and how it is graded ("not graded:
/// boundary not verified" for the bandwidths and phase delays), then why any
/// value is missing.
void WriteMilStd1797Text(std::ostream& out, const MilStd1797Report& report);

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
/// With `mil_std_1797`, the document gains the key "mil_std_1797" (added
/// keys only; docs/qualities.md lists them).
std::string QualitiesJson(const QualitiesReportHeader& header,
                          const std::vector<analysis::QualitiesGrade>& grades,
                          const MilStd1797Report* mil_std_1797 = nullptr);

}  // namespace aerolin::exporting
