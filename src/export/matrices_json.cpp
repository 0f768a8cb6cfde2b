#include "aerolin/export/matrices_json.hpp"

#include <nlohmann/json.hpp>

namespace aerolin::exporting {
namespace {

nlohmann::json MatrixJson(const Eigen::MatrixXd& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json SignalsJson(const std::vector<core::Signal>& signals) {
  nlohmann::json list = nlohmann::json::array();
  for (const core::Signal& s : signals)
    list.push_back({{"name", s.name}, {"unit", core::ToString(s.unit)}});
  return list;
}

nlohmann::json SystemJson(const model::StateSpace& s) {
  return {{"states", SignalsJson(s.states())},
          {"inputs", SignalsJson(s.inputs())},
          {"A", MatrixJson(s.A())},
          {"B", MatrixJson(s.B())}};
}

}  // namespace

std::string MatricesJson(const model::AircraftData& aircraft, const model::StateSpace& longitudinal,
                         const model::StateSpace& lateral, std::string_view file) {
  return nlohmann::json{{"schema", "aerolin.matrices/1"},
                        {"file", std::string(file)},
                        {"aircraft", aircraft.name},
                        {"longitudinal", SystemJson(longitudinal)},
                        {"lateral", SystemJson(lateral)}}
      .dump(2);
}

}  // namespace aerolin::exporting
