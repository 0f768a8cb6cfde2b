#include "aerolin/export/dimensional_text.hpp"

#include <fmt/format.h>

#include <string>

#include "dimensional_rows.hpp"
#include "display_units.hpp"

namespace aerolin::exporting {

void WriteDimensionalDerivativesText(std::ostream& out, const model::AircraftAsWritten& d,
                                     core::UnitSystem units) {
  out << "\nDimensional derivatives from the coefficients (Etkin & Reid Tables 4.4, 4.5;\n"
         "raw, stability axes, w/v-form, L and N unprimed):\n";
  for (const DerivativeBlock& block : DimensionalDerivativeBlocks(d)) {
    if (block.section == "longitudinal")
      out << "Longitudinal\n";
    else if (block.section == "lateral")
      out << "Lateral\n";
    else
      out << "Control " << block.control << " (per " << block.per << ")\n";
    for (const DerivativeRow& r : block.rows) {
      const double value = NoNegativeZero(r.value);  // C_Xq = −C_Dq of a 0 is −0
      std::string line = fmt::format("  {:<6} = {:>12.5g} {:<8}", r.key, value, r.kind.si);
      if (units == core::UnitSystem::kImperial)
        line += fmt::format("  = {:>12.5g} {}", NoNegativeZero(r.In(units)), r.kind.imperial);
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << '\n';
    }
  }
}

}  // namespace aerolin::exporting
