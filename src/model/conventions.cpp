#include "aerolin/model/conventions.hpp"

namespace aerolin::model {

const std::vector<core::Signal>& LongitudinalStateSignals() {
  using core::Unit;
  static const std::vector<core::Signal> signals = {
      {"u", Unit::kMetrePerSecond, "u"},
      {"alpha", Unit::kRadian, "α"},
      {"q", Unit::kRadianPerSecond, "q"},
      {"theta", Unit::kRadian, "θ"}};
  return signals;
}

const std::vector<core::Signal>& LateralStateSignals() {
  using core::Unit;
  static const std::vector<core::Signal> signals = {
      {"beta", Unit::kRadian, "β"},
      {"p", Unit::kRadianPerSecond, "p"},
      {"r", Unit::kRadianPerSecond, "r"},
      {"phi", Unit::kRadian, "φ"},
      {"psi", Unit::kRadian, "ψ"}};
  return signals;
}

}  // namespace aerolin::model
