#include "aerolin/sim/excitation.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace aerolin::sim {

FlightState ModeInitialState(const Eigen::VectorXcd& shape, int reference_state,
                             model::Axis axis, double amplitude) {
  const bool lon = axis == model::Axis::kLongitudinal;
  const int block = lon ? 4 : 5;
  if (shape.size() < 1 || shape.size() > block)
    throw std::invalid_argument(
        "ModeInitialState: shape has " + std::to_string(shape.size()) +
        " entries, the " + (lon ? "longitudinal" : "lateral") + " block has " +
        std::to_string(block));
  if (reference_state < 0 || reference_state >= shape.size())
    throw std::invalid_argument("ModeInitialState: reference_state " +
                                std::to_string(reference_state) +
                                " outside a shape of " +
                                std::to_string(shape.size()));
  const double ref = shape[reference_state].real();
  if (ref == 0.0 || !std::isfinite(ref))
    throw std::invalid_argument(
        "ModeInitialState: the reference component's real part is 0");
  FlightState x = FlightState::Zero();
  const int offset = lon ? kU : kBeta;
  x.segment(offset, shape.size()) = shape.real() * (amplitude / ref);
  return x;
}

double DefaultExcitationAmplitude(model::Axis axis, int reference_state,
                                  double U0) {
  const bool is_u = axis == model::Axis::kLongitudinal && reference_state == model::lon::kU;
  return is_u ? 0.02 * U0 : 0.02;
}

}  // namespace aerolin::sim
