#include "aerolin/export/matrices_json.hpp"

#include <nlohmann/json.hpp>

#include "dimensional_rows.hpp"
#include "display_units.hpp"

namespace aerolin::exporting {
namespace {

// Entries in the displayed units (InDisplayUnits).
nlohmann::json MatrixJson(const Eigen::MatrixXd& m, const std::vector<core::Signal>& rows,
                          const std::vector<core::Signal>& cols, core::UnitSystem units) {
  const Eigen::MatrixXd shown = InDisplayUnits(m, rows, cols, units);
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < shown.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < shown.cols(); ++j) row.push_back(shown(i, j));
    out.push_back(row);
  }
  return out;
}

nlohmann::json SignalsJson(const std::vector<core::Signal>& signals, core::UnitSystem units) {
  nlohmann::json list = nlohmann::json::array();
  for (const core::Signal& s : signals)
    list.push_back({{"name", s.name}, {"unit", DisplayUnitOf(s.unit, units).name}});
  return list;
}

nlohmann::json SystemJson(const model::StateSpace& s, core::UnitSystem units) {
  return {{"states", SignalsJson(s.states(), units)},
          {"inputs", SignalsJson(s.inputs(), units)},
          {"A", MatrixJson(s.A(), s.states(), s.states(), units)},
          {"B", MatrixJson(s.B(), s.states(), s.inputs(), units)}};
}

// The dimensional derivatives block (export/dimensional_text.hpp's rows):
// {longitudinal: [{name, value, unit}], lateral: [...], controls: [{name,
// per, derivatives: [...]}]}, SI; imperial adds value_imperial, unit_imperial.
nlohmann::json DimensionalJson(const model::AircraftAsWritten& d, core::UnitSystem units) {
  nlohmann::json out = nlohmann::json::object();
  auto rows = [&](const std::vector<DerivativeRow>& list) {
    nlohmann::json array = nlohmann::json::array();
    for (const DerivativeRow& r : list) {
      nlohmann::json row = {{"name", r.key}, {"value", NoNegativeZero(r.value)}, {"unit", r.kind.si}};
      if (units == core::UnitSystem::kImperial) {
        row["value_imperial"] = NoNegativeZero(r.In(units));
        row["unit_imperial"] = r.kind.imperial;
      }
      array.push_back(std::move(row));
    }
    return array;
  };
  nlohmann::json controls = nlohmann::json::array();
  for (const DerivativeBlock& block : DimensionalDerivativeBlocks(d)) {
    if (block.section == "control")
      controls.push_back({{"name", block.control}, {"per", block.per}, {"derivatives", rows(block.rows)}});
    else
      out[block.section] = rows(block.rows);
  }
  out["controls"] = std::move(controls);
  return out;
}

}  // namespace

std::string MatricesJson(const model::AircraftData& aircraft, const model::StateSpace& longitudinal,
                         const model::StateSpace& lateral, std::string_view file,
                         core::UnitSystem units,
                         const std::optional<model::AircraftAsWritten>& dimensional,
                         core::UnitSystem dimensional_units) {
  nlohmann::json doc{{"schema", "aerolin.matrices/2"},
                     {"file", std::string(file)},
                     {"aircraft", aircraft.name},
                     {"longitudinal", SystemJson(longitudinal, units)},
                     {"lateral", SystemJson(lateral, units)}};
  if (dimensional) doc["dimensional_derivatives"] = DimensionalJson(*dimensional, dimensional_units);
  return doc.dump(2);
}

}  // namespace aerolin::exporting
