#pragma once
// Every bundled aircraft file, for the tests that must hold on each
// (trim_test, linearize_test): the eight of data/derivatives/ and the AVL one.

#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"

namespace aerolin::test {

/// Paths under data/.
inline const std::vector<std::string> kBundledAircraft = {
    "derivatives/p2v7.toml",
    "derivatives/navion_cruise_sl.toml",
    "derivatives/navion_cruise_sl_coefficients.toml",
    "derivatives/boeing747_cruise_40kft.toml",
    "derivatives/boeing747_cruise_40kft_coefficients.toml",
    "derivatives/a7a_clean_m025_sl.toml",
    "derivatives/nt33a_power_approach_sl.toml",
    "derivatives/f16_tables_sl.toml",
    "avl/b737.toml"};

/// Loads data/`path` of the source tree.
inline model::AircraftData LoadBundled(const std::string& path) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/" + path).aircraft;
}

}  // namespace aerolin::test
