#include "aerolin/study/saturation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/core/messages.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::study {
namespace {

// The state `name` of `design`'s axis (the aircraft's states, not the
// filters'), or nullptr.
const core::Signal* AxisState(const AugmentResult& design, const std::string& name) {
  for (const core::Signal& s : design.open_loop.states())
    if (s.name == name) return &s;
  return nullptr;
}

// "lateral: beta, p, r, phi, psi" for each design, joined by "; ".
std::string DesignedStates(const std::vector<AugmentResult>& designs) {
  std::string s;
  for (const AugmentResult& d : designs)
    s += (s.empty() ? "" : "; ") + std::string(model::AxisName(d.axis)) + ": " + model::JoinNames(d.open_loop.states());
  return s;
}

// Why `name` is not a state of the designed axes: a filter's state, a state
// of an axis not designed, or no state at all.
std::string NotAStateOfTheDesigns(const std::string& name, const std::vector<AugmentResult>& designs) {
  for (const AugmentResult& d : designs)
    for (const core::Signal& s : d.states)
      if (s.name == name)
        return "'" + core::Printable(name) + "' is a washout filter's state, 0 at the disturbance's onset: state the output it "
               "filters";
  for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral})
    for (const core::Signal& s : model::StateSignals(axis))
      if (s.name == name)
        return "'" + core::Printable(name) + "' is a state of the " + std::string(model::AxisName(axis)) +
               " axis, which this run does not design (designed: " + DesignedStates(designs) + ")";
  return "no state '" + core::Printable(name) + "' on the designed axis (" + DesignedStates(designs) + ")";
}

// The SI value of `text` for the state `state`: the one unit rule
// (ParseSignalValue), a finite magnitude ≥ 0.
double DisturbanceValue(const std::string& text, const core::Signal& state) {
  // A number that parses but is infinite or NaN ("inf", "1e999deg") gets
  // its own message: ParseSignalValue would only say it is not a value.
  char* end = nullptr;
  const double leading = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && !std::isfinite(leading))
    throw std::invalid_argument(state.name + "=" + core::Printable(text) + ": the value must be a finite number");
  const double v = ParseSignalValue(text, state);
  if (v < 0.0)
    throw std::invalid_argument(state.name + "=" + core::Printable(text) +
                                ": a disturbance states magnitudes (the command is taken at the worst signs): "
                                "give a value >= 0");
  return v;
}

}  // namespace

std::vector<DisturbanceComponent> ParseDisturbance(const std::vector<std::pair<std::string, std::string>>& items,
                                                   const std::vector<AugmentResult>& designs) {
  if (items.empty()) throw std::invalid_argument("no components: give NAME=VALUE pairs, e.g. beta=5deg,r=2deg/s");
  std::vector<DisturbanceComponent> out;
  for (const auto& [name, text] : items) {
    const core::Signal* state = nullptr;
    for (const AugmentResult& d : designs)
      if (!state) state = AxisState(d, name);
    if (!state) throw std::invalid_argument(NotAStateOfTheDesigns(name, designs));
    const std::string& stated = name;  // a binding clang 14 cannot capture
    if (std::any_of(out.begin(), out.end(), [&](const DisturbanceComponent& c) { return c.name == stated; }))
      throw std::invalid_argument("'" + core::Printable(name) + "' is stated twice: state each component once");
    out.push_back({name, DisturbanceValue(text, *state)});
  }
  return out;
}

std::vector<DisturbanceComponent> ParseDisturbance(const std::string& text, const std::vector<AugmentResult>& designs) {
  std::vector<std::pair<std::string, std::string>> items;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = text.find(',', from);
    const std::string item = text.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument("expected NAME=VALUE (e.g. beta=5deg), got '" + core::Printable(item) + "'");
    items.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return ParseDisturbance(items, designs);
}

SaturationCheck CheckSaturation(const AugmentResult& design, const std::vector<DisturbanceComponent>& disturbance,
                                const model::CommandPath& path) {
  SaturationCheck out;
  // |x| over the gain's columns (the axis's states, then the filters': 0).
  Eigen::VectorXd x = Eigen::VectorXd::Zero(design.gain.cols());
  for (const DisturbanceComponent& c : disturbance) {
    if (!std::isfinite(c.value) || c.value < 0.0)
      throw std::invalid_argument("the disturbance's " + c.name + " must be a finite magnitude >= 0");
    for (std::size_t j = 0; j < design.states.size(); ++j)
      if (design.states[j].name == c.name && AxisState(design, c.name)) {
        x(static_cast<Eigen::Index>(j)) = c.value;
        out.disturbance.push_back(c);
      }
  }
  for (std::size_t i = 0; i < design.inputs.size(); ++i) {
    InputCommand in;
    in.input = design.inputs[i];
    in.command = design.gain.row(static_cast<Eigen::Index>(i)).cwiseAbs().dot(x);
    // Finite also in degrees, the unit the reports print a surface in.
    if (!std::isfinite(in.command * core::kRadToDeg))
      throw std::invalid_argument("at this disturbance the command of " + in.input.name +
                                  " overflows (not a finite number): state a smaller disturbance");
    if (const auto a = path.actuators.find(in.input.name); a != path.actuators.end() && a->second.position_limit) {
      in.limit = *a->second.position_limit;
      in.ratio = in.command / *in.limit;
      in.saturates = in.command > *in.limit;
    }
    out.inputs.push_back(std::move(in));
  }
  return out;
}

std::vector<SaturationCheck> CheckSaturations(const std::vector<AugmentResult>& designs,
                                              const std::vector<DisturbanceComponent>& disturbance,
                                              const model::CommandPath& path) {
  std::vector<SaturationCheck> checks;
  for (const AugmentResult& design : designs) checks.push_back(CheckSaturation(design, disturbance, path));
  return checks;
}

}  // namespace aerolin::study
