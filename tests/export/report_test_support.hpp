#pragma once
// Helpers shared by the text and JSON report writer tests.

#include <sstream>
#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::exporting::testing {

/// The bundled aircraft data/derivatives/`file`, loaded.
inline model::AircraftData Bundled(const std::string& file) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + file)
      .aircraft;
}

/// `text` split at '\n' (no empty last line for a final newline).
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// True if `text` holds `part`.
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace aerolin::exporting::testing
