#include "aerolin/pilot/pilot_input.hpp"

#include <stdexcept>
#include <string>

namespace aerolin::pilot {

NumpadInput::NumpadInput(const std::vector<model::Control>& controls, double dt,
                         const PilotSettings& settings)
    : pilot_(controls, dt, settings), dt_(dt) {
  overrides_.reserve(controls.size());
}

void NumpadInput::InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                                Eigen::Ref<Eigen::VectorXd> disturbance) {
  if (dt != dt_)
    throw std::invalid_argument("NumpadInput: slice length " + std::to_string(dt) +
                                " s, the pilot was built for " + std::to_string(dt_) + " s");
  if (controls.size() != pilot_.num_controls())
    throw std::invalid_argument("NumpadInput: " + std::to_string(controls.size()) +
                                " controls asked for, the pilot has " +
                                std::to_string(pilot_.num_controls()));
  held_ = KeySet();
  overrides_.clear();
  KeysForSlice(k, dt, held_, overrides_);
  controls = pilot_.Update(held_, overrides_);
  disturbance.setZero();
}

ScriptedPilot::ScriptedPilot(const PilotScript& script,
                             const std::vector<model::Control>& controls, double dt,
                             const PilotSettings& settings)
    : NumpadInput(controls, dt, settings), script_(&script), player_(script, dt) {
  ReserveOverrides(script.sets.size());
}

void ScriptedPilot::KeysForSlice(long k, double, KeySet& held,
                                 std::vector<ControlOverride>& overrides) {
  player_.InputForSlice(k, held, overrides);
}

}  // namespace aerolin::pilot
