#include "aerolin/model/conventions.hpp"

#include <string>

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

const std::vector<core::Signal>& StateSignals(Axis axis) {
  return axis == Axis::kLongitudinal ? LongitudinalStateSignals() : LateralStateSignals();
}

namespace {
template <typename Field>
std::string Join(const std::vector<core::Signal>& signals, Field field) {
  std::string out;
  for (const core::Signal& s : signals) out += (out.empty() ? "" : ", ") + s.*field;
  return out;
}
}  // namespace

std::string JoinNames(const std::vector<core::Signal>& signals) {
  return Join(signals, &core::Signal::name);
}

std::string JoinSymbols(const std::vector<core::Signal>& signals) {
  return Join(signals, &core::Signal::symbol);
}

}  // namespace aerolin::model
