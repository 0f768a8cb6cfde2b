#include "aerolin/sim/gust_input.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "aerolin/model/gust.hpp"

namespace aerolin::sim {

GustInput::GustInput(InputSource& controls, std::optional<DrydenTurbulence> turbulence,
                     std::optional<DiscreteGusts> gusts)
    : controls_(&controls), turbulence_(std::move(turbulence)), gusts_(std::move(gusts)) {}

void GustInput::InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                              Eigen::Ref<Eigen::VectorXd> disturbance) {
  if (disturbance.size() != model::gust::kNumGusts)
    throw std::invalid_argument("GustInput: the disturbance has " +
                                std::to_string(disturbance.size()) +
                                " entries, the gust channels are 4 (u_g, v_g, w_g, p_g: build "
                                "the model with model::BuildGustInput)");
  if (turbulence_ && std::abs(dt - turbulence_->dt()) > 1e-12 * turbulence_->dt())
    throw std::invalid_argument("GustInput: slice length " + std::to_string(dt) +
                                " s, the turbulence was discretized for " +
                                std::to_string(turbulence_->dt()) + " s");
  controls_->InputForSlice(k, dt, controls, disturbance);
  if (turbulence_) disturbance += turbulence_->Next();
}

void GustInput::Reset() {
  controls_->Reset();
  if (turbulence_) turbulence_->Reset();
}

const DisturbanceProfile* GustInput::profile() const {
  return gusts_ ? &*gusts_ : controls_->profile();
}

}  // namespace aerolin::sim
