#include "aerolin/sim/excitation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace aerolin::sim {

InitialState ModeInitialState(const Eigen::VectorXcd& shape, int reference_state, model::Axis axis,
                              double amplitude, int first_filter_slot) {
  const bool lon = axis == model::Axis::kLongitudinal;
  const Eigen::Index block = lon ? 4 : 5;
  const Eigen::Index filters = std::max<Eigen::Index>(shape.size() - block, 0);
  if (shape.size() < 1)
    throw std::invalid_argument("ModeInitialState: the shape is empty");
  if (filters > 0 && (first_filter_slot < 0 || first_filter_slot + filters > kMaxAuxiliaryStates))
    throw std::invalid_argument("ModeInitialState: " + std::to_string(filters) +
                                " filter states from auxiliary slot " + std::to_string(first_filter_slot) +
                                " run past the " + std::to_string(kMaxAuxiliaryStates) + " slots");
  if (reference_state < 0 || reference_state >= shape.size())
    throw std::invalid_argument("ModeInitialState: reference_state " +
                                std::to_string(reference_state) +
                                " outside a shape of " +
                                std::to_string(shape.size()));
  const double ref = shape[reference_state].real();
  if (ref == 0.0 || !std::isfinite(ref))
    throw std::invalid_argument(
        "ModeInitialState: the reference component's real part is 0");
  const Eigen::VectorXd start = shape.real() * (amplitude / ref);
  InitialState initial;
  initial.x.segment(lon ? kU : kBeta, shape.size() - filters) = start.head(shape.size() - filters);
  if (filters > 0) initial.auxiliary.segment(first_filter_slot, filters) = start.tail(filters);
  return initial;
}

FlightState ModeInitialState(const Eigen::VectorXcd& shape, int reference_state,
                             model::Axis axis, double amplitude) {
  const bool lon = axis == model::Axis::kLongitudinal;
  const int block = lon ? 4 : 5;
  if (shape.size() > block)
    throw std::invalid_argument(
        "ModeInitialState: shape has " + std::to_string(shape.size()) +
        " entries, the " + (lon ? "longitudinal" : "lateral") + " block has " +
        std::to_string(block));
  return ModeInitialState(shape, reference_state, axis, amplitude, 0).x;
}

double DefaultExcitationAmplitude(model::Axis axis, int reference_state,
                                  double U0) {
  const bool is_u = axis == model::Axis::kLongitudinal && reference_state == model::lon::kU;
  return is_u ? 0.02 * U0 : 0.02;
}

}  // namespace aerolin::sim
