#include "aerolin/sim/validity.hpp"

#include <array>
#include <cmath>
#include <fmt/format.h>

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
    divergence_ = fmt::format("state diverged at t = {:.6g} s: {} = {:.6g} (limit {:.6g}); run stopped",
                              t, i == kU ? name + "/U0" : name, v, thresholds_.divergence);
    return false;
  }
  // Beyond these the body velocity (tan α, tan β / cos α) is undefined.
  constexpr double kRightAngle = 1.5707963267948966;
  const char* undefined = nullptr;
  double value = 0.0;
  if (std::abs(alpha0_ + x[kAlpha]) >= kRightAngle) {
    undefined = "alpha0 + alpha";
    value = alpha0_ + x[kAlpha];
  } else if (std::abs(x[kBeta]) >= kRightAngle) {
    undefined = "beta";
    value = x[kBeta];
  } else if (U0_ + x[kU] <= 0.0) {
    undefined = "U0 + u";
    value = U0_ + x[kU];
  }
  if (undefined != nullptr) {
    divergence_ = fmt::format(
        "state diverged at t = {:.6g} s: {} = {:.6g}, where the body velocity is undefined "
        "(|angle| >= 90 deg or speed <= 0); run stopped",
        t, undefined, value);
    return false;
  }
  return true;
}

bool ValidityMonitor::any_exceeded() const {
  for (const ValidityFlag& f : flags_)
    if (f.exceeded()) return true;
  return false;
}

}  // namespace aerolin::sim
