#include "aerolin/export/matrices_json.hpp"

#include <nlohmann/json.hpp>

#include "display_units.hpp"

namespace aerolin::exporting {
namespace {

// Entry (i, j) in the displayed units: × row factor / column factor.
nlohmann::json MatrixJson(const Eigen::MatrixXd& m, const std::vector<core::Signal>& rows,
                          const std::vector<core::Signal>& cols, core::UnitSystem units) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    const double row_scale = DisplayUnitOf(rows[i].unit, units).per_si;
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      row.push_back(
          NoNegativeZero(m(i, j) * row_scale / DisplayUnitOf(cols[j].unit, units).per_si));
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

}  // namespace

std::string MatricesJson(const model::AircraftData& aircraft, const model::StateSpace& longitudinal,
                         const model::StateSpace& lateral, std::string_view file,
                         core::UnitSystem units) {
  return nlohmann::json{{"schema", "aerolin.matrices/1"},
                        {"file", std::string(file)},
                        {"aircraft", aircraft.name},
                        {"longitudinal", SystemJson(longitudinal, units)},
                        {"lateral", SystemJson(lateral, units)}}
      .dump(2);
}

}  // namespace aerolin::exporting
