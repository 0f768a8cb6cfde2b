#include "aerolin/sim/validity.hpp"

#include <array>
#include <cmath>
#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>

namespace aerolin::sim {

ValidityMonitor::ValidityMonitor(const ValidityThresholds& thresholds,
                                 double U0, double alpha0)
    : thresholds_(thresholds), U0_(U0), alpha0_(alpha0) {
  for (const auto& [name, limit] :
       {std::pair<const char*, double>{"alpha", thresholds.alpha},
        {"beta", thresholds.beta},
        {"phi", thresholds.phi},
        {"u/U0", thresholds.speed_ratio}}) {
    ValidityFlag flag;
    flag.name = name;
    flag.limit = limit;
    flags_.push_back(flag);
  }
}

bool ValidityMonitor::Check(double t, const FlightState& x) {
  if (divergence_) return false;
  const std::array<double, 4> values = {x[kAlpha], x[kBeta], x[kPhi],
                                        x[kU] / U0_};
  for (std::size_t i = 0; i < values.size(); ++i) {
    ValidityFlag& f = flags_[i];
    const double a = std::abs(values[i]);
    if (a > f.peak) {
      f.peak = a;
      f.peak_time = t;
    }
    if (a > f.limit && !f.first_exceeded) f.first_exceeded = t;
  }
  for (int i = 0; i < kNumFlightStates; ++i) {
    const double v = i == kU ? x[i] / U0_ : x[i];
    const bool bounded = i != kPsi && i < kNorth;
    if (std::isfinite(v) && (!bounded || std::abs(v) <= thresholds_.divergence))
      continue;
    // u is checked relative to U0, so it is named so.
    const std::string& name = FlightStateSignals()[i].name;
    divergence_ = fmt::format("state diverged at t = {:g} s: {} = {:g} (limit {:g}); run stopped",
                              t, i == kU ? name + "/U0" : name, v, thresholds_.divergence);
    return false;
  }
  if (const std::optional<std::string> cause = UndefinedKinematics(x)) {
    StopFor(t, *cause);
    return false;
  }
  return true;
}

std::optional<std::string> ValidityMonitor::UndefinedKinematics(const FlightState& x,
                                                                double margin) const {
  // Beyond these the body velocity (tan α, tan β / cos α) is undefined.
  constexpr double kRightAngle = 1.5707963267948966;
  if (std::abs(alpha0_ + x[kAlpha]) >= kRightAngle - margin) return "alpha0 + alpha reached 90 deg";
  if (std::abs(x[kBeta]) >= kRightAngle - margin) return "beta reached 90 deg";
  if (U0_ + x[kU] <= margin * U0_) return "U0 + u reached 0";
  return std::nullopt;
}

void ValidityMonitor::StopFor(double t, const std::string& cause) {
  divergence_ =
      fmt::format("state diverged at t = {:g} s: {}: body velocity undefined; run stopped", t, cause);
}

bool ValidityMonitor::any_exceeded() const {
  for (const ValidityFlag& f : flags_)
    if (f.exceeded()) return true;
  return false;
}

}  // namespace aerolin::sim
