#include "aerolin/model/actuators.hpp"

#include <cmath>
#include <fmt/format.h>

namespace aerolin::model {

std::string TimeConstantProblem(double time_constant) {
  if (!std::isfinite(time_constant) || time_constant <= 0.0 || time_constant > kMaxActuatorTimeConstant)
    return fmt::format("an actuator time constant must be > 0 and at most {:g} s (got {:g} s; "
                       "leave the actuator out for an ideal one)",
                       kMaxActuatorTimeConstant, time_constant);
  return "";
}

std::string DelayProblem(double delay) {
  if (!std::isfinite(delay) || delay < 0.0 || delay > kMaxDelay)
    return fmt::format("a delay must be at least 0 and at most {:g} s (got {:g} s)", kMaxDelay, delay);
  return "";
}

std::string LimitProblem(double limit) {
  if (!std::isfinite(limit) || limit <= 0.0)
    return fmt::format("a limit must be a finite number > 0 (got {:g}; leave it out for none)", limit);
  return "";
}

CommandPath Override(CommandPath file, const std::map<std::string, Actuator>& actuators,
                     std::optional<double> delay) {
  for (const auto& [name, actuator] : actuators) file.actuators[name] = actuator;
  if (delay) file.delay = *delay;
  return file;
}

}  // namespace aerolin::model
