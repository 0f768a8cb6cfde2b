#pragma once
// JSON number hygiene shared by the export writers (internal to export).

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

}  // namespace aerolin::exporting
