#include "aerolin/sim/flight_log.hpp"

#include "aerolin/model/conventions.hpp"

namespace aerolin::sim {

const std::vector<core::Signal>& FlightStateSignals() {
  static const std::vector<core::Signal> signals = [] {
    std::vector<core::Signal> s = model::LongitudinalStateSignals();
    const std::vector<core::Signal>& lat = model::LateralStateSignals();
    s.insert(s.end(), lat.begin(), lat.end());
    s.push_back({"north", core::Unit::kMetre, "N"});
    s.push_back({"east", core::Unit::kMetre, "E"});
    s.push_back({"down", core::Unit::kMetre, "D"});
    return s;
  }();
  return signals;
}

}  // namespace aerolin::sim
