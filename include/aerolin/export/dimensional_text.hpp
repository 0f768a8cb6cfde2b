#pragma once
/// @file
/// The raw dimensional derivatives a coefficient file produced
/// (model::ToDimensional), as a text table a user can hold next to a
/// textbook's dimensional table (e.g. Etkin & Reid Tables 6.2 and 6.7):
/// `aerolin matrices` and `aerolin modes --verbose` print it for such files.

#include <ostream>

#include "aerolin/core/units.hpp"
#include "aerolin/model/conversions.hpp"

namespace aerolin::exporting {

/// Writes the raw w/v-form derivatives of `dimensional` (SI; a second column
/// in imperial units when `units` is imperial), then each control's, one
/// "key = value unit" line each. A section with `raw` false (given
/// dimensionally in the file) and a control with neither flag are skipped.
void WriteDimensionalDerivativesText(std::ostream& out, const model::AircraftAsWritten& dimensional,
                                     core::UnitSystem units);

}  // namespace aerolin::exporting
