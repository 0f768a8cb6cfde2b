#pragma once
/// @file
/// The report of `aerolin identify`: a text table and JSON (schema
/// `aerolin.identify/1`).

#include <optional>
#include <ostream>
#include <string>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/study/identify.hpp"

namespace aerolin::exporting {

/// The MIL-F-8785C level of one requirement at the estimate and at the
/// estimate ± 2σ (corrected) of the quantity it grades.
struct IdentifiedLevel {
  analysis::RequirementResult requirement;  ///< at the estimate
  std::optional<double> sigma;              ///< σ of requirement.value; empty: not propagated (CAP)
  analysis::Level low = analysis::Level::k4, high = analysis::Level::k4;  ///< at value − 2σ, + 2σ
};

/// Returns the levels of `grade`'s requirements on the modes of `result`,
/// with σ of ζ, ωn, ζωn (−Re λ), τR = −1/λ and T2 = ln 2/λ from the modes'
/// standard errors.
std::vector<IdentifiedLevel> LevelsWithUncertainty(const analysis::QualitiesGrade& grade,
                                                   const study::IdentifyResult& result);

/// The data file with the estimates in place, and the levels of its modes.
struct IdentifiedFile {
  std::string text;                    ///< FILE's text, the free keys' numbers replaced
  std::vector<IdentifiedLevel> levels;  ///< empty without a class and category (see note)
  std::string note;                    ///< why there are no levels, or ""
};

/// Returns `file_text` (of the data file `path`) with `result`'s estimates in
/// place (data::WithValues), loaded as `name` and graded (MIL-F-8785C, the
/// file's class and category) with LevelsWithUncertainty.
/// @throws core::DataError as data::WithValues.
IdentifiedFile IdentifiedFileOf(const std::string& file_text, const std::string& path, const std::string& name,
                                const study::IdentifyResult& result);

/// Writes the estimates (key, start, estimate, standard errors Cramér–Rao and
/// corrected, % error), the highly correlated pairs, the fit per output, the
/// modes with ± σ, and `levels` if given.
void WriteIdentifyText(std::ostream& out, const study::IdentifyResult& result,
                       const std::string& file, const std::string& flight,
                       const std::vector<IdentifiedLevel>& levels);

/// Returns the report as JSON, schema "aerolin.identify/1": `estimates`
/// [{key, start, value, std_error, std_error_cramer_rao}], `correlation`
/// {keys, matrix, high: [{a, b, rho}]}, `fit` [{output, unit, rms, r2}],
/// `modes` [{mode, eigenvalue_per_s: {re, im}, std_error: {re, im},
/// std_error_cramer_rao, zeta, zeta_std_error, wn_rad_per_s, wn_std_error}],
/// `levels`, `method`, `converged`, `iterations`.
std::string IdentifyJson(const study::IdentifyResult& result, const std::string& file,
                         const std::string& flight, const std::vector<IdentifiedLevel>& levels);

}  // namespace aerolin::exporting
