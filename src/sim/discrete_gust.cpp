#include "aerolin/sim/discrete_gust.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

#include "aerolin/model/gust.hpp"

namespace aerolin::sim {
namespace {

int Channel(GustAxis axis) {
  switch (axis) {
    case GustAxis::kU: return model::gust::kUg;
    case GustAxis::kV: return model::gust::kVg;
    case GustAxis::kW: return model::gust::kWg;
  }
  return model::gust::kWg;
}

}  // namespace

std::optional<GustAxis> ParseGustAxis(std::string_view text) {
  if (text == "u") return GustAxis::kU;
  if (text == "v") return GustAxis::kV;
  if (text == "w") return GustAxis::kW;
  return std::nullopt;
}

std::string_view ToString(GustAxis axis) {
  switch (axis) {
    case GustAxis::kU: return "u";
    case GustAxis::kV: return "v";
    case GustAxis::kW: return "w";
  }
  return "?";
}

DiscreteGusts::DiscreteGusts(std::vector<DiscreteGust> gusts, double airspeed)
    : gusts_(std::move(gusts)), airspeed_(airspeed) {
  if (!std::isfinite(airspeed) || airspeed <= 0.0)
    throw std::invalid_argument("DiscreteGusts: the airspeed must be positive and finite, got " +
                                std::to_string(airspeed));
  for (std::size_t i = 0; i < gusts_.size(); ++i) {
    const DiscreteGust& g = gusts_[i];
    const std::string which = "DiscreteGusts: gust " + std::to_string(i) + ": ";
    if (!std::isfinite(g.amplitude))
      throw std::invalid_argument(which + "the amplitude must be finite");
    if (!std::isfinite(g.length) || g.length <= 0.0)
      throw std::invalid_argument(which + "the length d_m must be positive and finite, got " +
                                  std::to_string(g.length));
    if (!std::isfinite(g.start) || g.start < 0.0)
      throw std::invalid_argument(which + "the start time must be finite and >= 0 s, got " +
                                  std::to_string(g.start));
  }
}

double DiscreteGusts::Value(const DiscreteGust& g, double t) const {
  const double x = airspeed_ * (t - g.start);
  if (x <= 0.0) return 0.0;
  if (x >= g.length) return g.amplitude;
  return 0.5 * g.amplitude * (1.0 - std::cos(std::numbers::pi * x / g.length));
}

double DiscreteGusts::Integral(const DiscreteGust& g, double t) const {
  const double s = t - g.start;  // time into the gust [s]
  if (s <= 0.0) return 0.0;
  const double ramp = g.length / airspeed_;  // time to reach v_m [s]
  if (s >= ramp) return 0.5 * g.amplitude * ramp + g.amplitude * (s - ramp);
  const double w = std::numbers::pi / ramp;
  return 0.5 * g.amplitude * (s - std::sin(w * s) / w);
}

void DiscreteGusts::Add(double t, Eigen::Ref<Eigen::VectorXd> d) const {
  for (const DiscreteGust& g : gusts_) d[Channel(g.axis)] += Value(g, t);
}

void DiscreteGusts::AddMean(double t0, double t1, Eigen::Ref<Eigen::VectorXd> d) const {
  for (const DiscreteGust& g : gusts_)
    d[Channel(g.axis)] += (Integral(g, t1) - Integral(g, t0)) / (t1 - t0);
}

}  // namespace aerolin::sim
