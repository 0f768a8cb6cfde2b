#pragma once
// JSON number hygiene and matrices shared by the export writers (internal to export).

#include <Eigen/Core>
#include <nlohmann/json.hpp>

namespace aerolin::exporting {

/// Replaces every −0 in `j` by 0, recursively (nlohmann writes −0 as "-0.0").
inline void RemoveNegativeZeros(nlohmann::json& j) {
  if (j.is_number_float()) {
    if (j.get<double>() == 0.0) j = 0.0;
  } else if (j.is_structured()) {
    for (nlohmann::json& v : j) RemoveNegativeZeros(v);
  }
}

/// Returns `M` as a JSON array of its rows, each an array of numbers.
inline nlohmann::json MatrixRows(const Eigen::MatrixXd& M) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < M.cols(); ++j) row.push_back(M(i, j));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace aerolin::exporting
