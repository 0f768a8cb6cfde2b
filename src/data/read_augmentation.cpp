// [augmentation.longitudinal] and [augmentation.lateral]: a full-state gain
// u = −K x closed by the model builders (model::AxisAugmentation), as
// `aerolin augment --write` writes it. The gains are SI whatever the file's
// units (a gain mixes the units of a state and an input), and the section
// says so: units = "SI".

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <fmt/format.h>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/outputs.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {
namespace {

std::string Quoted(const std::vector<core::Signal>& signals) {
  std::string s;
  for (const core::Signal& x : signals) s += (s.empty() ? "\"" : ", \"") + x.name + "\"";
  return "[" + s + "]";
}

// The strings of the array `key` of `t`, or nullopt (reported).
std::optional<std::vector<std::string>> Strings(ReadContext& ctx, const toml::table& t,
                                                std::string_view key, const std::string& table) {
  const toml::node* node = t.get(key);
  if (node == nullptr) {
    Missing(ctx, t, table, key, "an array of quoted names");
    return std::nullopt;
  }
  const toml::array* array = node->as_array();
  if (array == nullptr) {
    ctx.Error(ctx.At(*node), fmt::format("'{}' in [{}] must be an array of quoted names", key, table));
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    const std::optional<std::string> v = item.value<std::string>();
    if (!v) {
      ctx.Error(ctx.At(item), fmt::format("'{}' in [{}] must hold quoted names", key, table));
      return std::nullopt;
    }
    out.push_back(*v);
  }
  return out;
}

// The names of the axis's controls, "a, b" (or "none").
std::string ControlNames(const model::AircraftData& out, bool lon) {
  std::string names;
  for (const model::Control& c : out.controls)
    if (lon ? c.longitudinal : c.lateral) names += (names.empty() ? "" : ", ") + c.name;
  return names.empty() ? std::string("none") : names;
}

// `loops = [{ input, output, gain }, ...]`: output feedback δ = K·y on the
// axis's states, closed as the full-state gain u = −K_x x with K_x = −K at
// the output's column, and on its derived outputs (nz, gamma | ay, by name
// or symbol), closed by the builders through their feedthrough
// (model::OutputFeedback; study/loops.hpp; aerolin augment --loop writes it).
// A loop with `washout_s = TAU` feeds back s/(s + 1/τ)·y through a filter
// state of its own (model::BuildAugmented), on a state or a derived output;
// the flight carries it beside its 12 states (sim::FlightModel).
void ReadLoops(ReadContext& ctx, const toml::table& t, model::Axis axis, const std::string& table,
               model::AircraftData& out) {
  const bool lon = axis == model::Axis::kLongitudinal;
  const std::vector<core::Signal>& states = model::StateSignals(axis);
  for (std::string_view key : {"inputs", "states", "gain"})
    if (const toml::node* node = t.get(key))
      ctx.Error(ctx.At(*node), fmt::format("'{}' in [{}] goes with a full-state gain, not with 'loops': "
                                           "give one of them",
                                           key, table));
  const toml::node* node = t.get("loops");
  const toml::array* array = node->as_array();
  if (array == nullptr || array->empty()) {
    ctx.Error(ctx.At(*node), "'loops' in [" + table +
                                 "] must be an array of { input = \"...\", output = \"...\", gain = K }");
    return;
  }
  const std::size_t errors = ctx.errors.size();
  std::vector<std::string> inputs;
  std::vector<std::pair<std::string, std::string>> seen;
  std::vector<std::tuple<std::size_t, int, double>> entries;  // input row, state column, K
  std::vector<model::OutputFeedback> output_loops;            // loops on derived outputs (nz, ay)
  const std::vector<core::Signal>& derived = model::DerivedOutputSignals(axis);
  for (const toml::node& item : *array) {
    const toml::table* loop = item.as_table();
    if (loop == nullptr) {
      ctx.Error(ctx.At(item), "each entry of 'loops' in [" + table +
                                  "] must be { input = \"...\", output = \"...\", gain = K }");
      continue;
    }
    const std::string where = "a loop of [" + table + "]";
    CheckKeys(ctx, *loop, table + ".loops", {"input", "output", "gain", "washout_s"});
    std::optional<double> washout;
    if (const toml::node* w = loop->get("washout_s")) {
      washout = w->value<double>();
      if (!washout || !std::isfinite(*washout) || *washout < model::kMinWashout_s ||
          *washout > model::kMaxWashout_s) {
        ctx.Error(ctx.At(*w), fmt::format("'washout_s' in {} must be the washout's time constant tau, "
                                          "a number of seconds from {} to {} (s/(s + 1/tau): a yaw "
                                          "damper's is about 1 to 4)",
                                          where, model::kMinWashout_s, model::kMaxWashout_s));
        continue;
      }
    }
    const std::optional<std::string> input = loop->get("input") ? loop->get("input")->value<std::string>() : std::nullopt;
    const std::optional<std::string> output = loop->get("output") ? loop->get("output")->value<std::string>() : std::nullopt;
    const std::optional<double> gain = loop->get("gain") ? loop->get("gain")->value<double>() : std::nullopt;
    if (!input || !output || !gain || !std::isfinite(*gain)) {
      ctx.Error(ctx.At(item), where + " needs input = \"...\", output = \"...\" (quoted names) and "
                                      "gain = K (a finite number, SI)");
      continue;
    }
    bool control = false;
    for (const model::Control& c : out.controls)
      control = control || ((lon ? c.longitudinal : c.lateral) && c.name == *input);
    if (!control) {
      ctx.Error(ctx.At(*loop->get("input")), "'" + *input + "' in " + where + " is no " +
                                                  (lon ? "longitudinal" : "lateral") + " control (" +
                                                  ControlNames(out, lon) + ")");
      continue;
    }
    int column = -1;
    for (std::size_t j = 0; j < states.size(); ++j)
      if (states[j].name == *output) column = static_cast<int>(j);
    const core::Signal* derived_output = nullptr;
    for (const core::Signal& d : derived)
      if (d.name == *output || d.symbol == *output) derived_output = &d;
    if (column >= 0 && washout) derived_output = &states[static_cast<std::size_t>(column)];  // a filter state
    if (column < 0 && derived_output == nullptr) {
      ctx.Error(ctx.At(*loop->get("output")), "'" + *output + "' in " + where + " is no " +
                                                   (lon ? "longitudinal" : "lateral") + " state (" +
                                                   Quoted(states) + ") or derived output (" +
                                                   Quoted(derived) + ")");
      continue;
    }
    const std::string name = derived_output != nullptr ? derived_output->name : *output;  // n_z is nz
    if (std::find(seen.begin(), seen.end(), std::make_pair(*input, name)) != seen.end()) {
      ctx.Error(ctx.At(item), "the loop " + *input + ":" + name + " is given twice in [" + table + "]");
      continue;
    }
    seen.emplace_back(*input, name);
    if (washout)
      ctx.washout_loops.push_back(
          {ctx.At(item), "the loop " + *input + ":" + name + " in [" + table + "] has a washout (washout_s)"});
    auto row = std::find(inputs.begin(), inputs.end(), *input);
    if (row == inputs.end()) row = inputs.insert(inputs.end(), *input);
    if (derived_output != nullptr)
      output_loops.push_back({*input, derived_output->name, *gain, washout});
    else
      entries.emplace_back(static_cast<std::size_t>(row - inputs.begin()), column, *gain);
  }
  if (ctx.errors.size() != errors) return;
  if (const auto washed = std::count_if(output_loops.begin(), output_loops.end(),
                                        [](const model::OutputFeedback& l) { return l.washout_s.has_value(); });
      washed > model::kMaxWashoutsPerAxis) {
    ctx.Error(ctx.At(*node), fmt::format("'loops' in [{}] has {} washed-out loops (washout_s): {}", table, washed,
                                         model::WashoutLimitText()));
    return;
  }
  Eigen::MatrixXd gain = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(inputs.size()),
                                               static_cast<Eigen::Index>(states.size()));
  for (const auto& [row, column, K] : entries) gain(static_cast<Eigen::Index>(row), column) -= K;
  if (!lon && !gain.col(model::lat::kPsi).isZero(0.0)) {
    ctx.Error(ctx.At(*node), "a loop on psi in [" + table + "]: aerolin's lateral modes need psi a free "
                             "integrator (heading hold cannot be written to a file yet)");
    return;
  }
  std::optional<model::AxisAugmentation>& aug = lon ? out.longitudinal_augmentation : out.lateral_augmentation;
  aug = model::AxisAugmentation{std::move(inputs), std::move(gain), std::move(output_loops)};
  if (aug->output_loops.empty()) return;
  // Loops on an acceleration close through its feedthrough: I − K D must be
  // invertible (model::SolveOutputFeedback says why not).
  try {
    (void)model::BuildAugmented(out, axis);
  } catch (const std::invalid_argument& e) {
    ctx.Error(ctx.At(*node), std::string(e.what()) + " in [" + table + "]");
    aug.reset();
  }
}

void ReadAxis(ReadContext& ctx, const toml::table& t, model::Axis axis, model::AircraftData& out) {
  const bool lon = axis == model::Axis::kLongitudinal;
  const std::string table = std::string("augmentation.") + (lon ? "longitudinal" : "lateral");
  CheckKeys(ctx, t, table, {"units", "inputs", "states", "gain", "loops"});
  const std::size_t errors = ctx.errors.size();
  if (const auto units = String(ctx, t, "units", table, true))
    if (core::ParseUnitSystem(*units) != core::UnitSystem::kSI)
      ctx.Error(ctx.At(*t.get("units")),
                "'units' in [" + table + "] must be \"SI\": the gains are SI (input unit per state "
                "unit) whatever the file's units");
  if (t.get("loops") != nullptr) {
    if (ctx.errors.size() == errors) ReadLoops(ctx, t, axis, table, out);
    return;
  }
  const std::vector<core::Signal>& states = model::StateSignals(axis);
  const auto state_names = Strings(ctx, t, "states", table);
  if (state_names) {
    bool same = state_names->size() == states.size();
    for (std::size_t k = 0; same && k < states.size(); ++k) same = (*state_names)[k] == states[k].name;
    if (!same)
      ctx.Error(ctx.At(*t.get("states")), "'states' in [" + table + "] must be " + Quoted(states) +
                                              " (the axis's states, in this order: the gain's columns)");
  }
  const auto inputs = Strings(ctx, t, "inputs", table);
  if (inputs) {
    const toml::array& array = *t.get("inputs")->as_array();
    for (std::size_t k = 0; k < inputs->size(); ++k) {
      bool found = false;
      std::string names;
      for (const model::Control& c : out.controls)
        if (lon ? c.longitudinal : c.lateral) {
          found = found || c.name == (*inputs)[k];
          names += (names.empty() ? "" : ", ") + c.name;
        }
      if (!found)
        ctx.Error(ctx.At(*array.get(k)), "'" + (*inputs)[k] + "' in [" + table + "] inputs is no " +
                                             (lon ? "longitudinal" : "lateral") + " control (" +
                                             (names.empty() ? std::string("none") : names) + ")");
    }
  }
  const toml::node* gain_node = t.get("gain");
  if (gain_node == nullptr) {
    Missing(ctx, t, table, "gain", "an array of rows, one per input, each one number per state");
    return;
  }
  const toml::array* rows = gain_node->as_array();
  if (rows == nullptr || !inputs || rows->size() != inputs->size()) {
    ctx.Error(ctx.At(*gain_node), "'gain' in [" + table + "] must be an array of " +
                                      (inputs ? std::to_string(inputs->size()) : std::string("the inputs'")) +
                                      " rows (one per input), each of " + std::to_string(states.size()) +
                                      " numbers (one per state)");
    return;
  }
  Eigen::MatrixXd gain(static_cast<Eigen::Index>(rows->size()), static_cast<Eigen::Index>(states.size()));
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const toml::array* row = rows->get(i)->as_array();
    if (row == nullptr || row->size() != states.size()) {
      ctx.Error(ctx.At(*rows->get(i)), "row " + std::to_string(i + 1) + " of 'gain' in [" + table +
                                           "] must hold " + std::to_string(states.size()) +
                                           " numbers, one per state");
      return;
    }
    for (std::size_t j = 0; j < states.size(); ++j) {
      const std::optional<double> v = row->get(j)->value<double>();
      if (!v || !std::isfinite(*v)) {
        ctx.Error(ctx.At(*row->get(j)), "'gain' in [" + table + "] must hold finite numbers");
        return;
      }
      gain(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = *v;
    }
  }
  // aerolin names lateral modes with ψ a free integrator (analysis/modes.hpp).
  if (!lon && !gain.col(model::lat::kPsi).isZero(0.0))
    ctx.Error(ctx.At(*gain_node), "the gain on psi in [" + table + "] must be 0: aerolin's lateral "
                                  "modes need psi a free integrator (heading hold cannot be written "
                                  "to a file yet)");
  if (ctx.errors.size() != errors) return;
  (lon ? out.longitudinal_augmentation : out.lateral_augmentation) =
      model::AxisAugmentation{*inputs, std::move(gain)};
}

}  // namespace

void ReadAugmentation(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* aug = OptionalTable(ctx, root, "augmentation",
                                         "a table of [augmentation.longitudinal] and "
                                         "[augmentation.lateral] tables");
  if (aug == nullptr) return;
  CheckKeys(ctx, *aug, "augmentation", {"longitudinal", "lateral"});
  if (const toml::table* t = OptionalTable(ctx, *aug, "longitudinal"))
    ReadAxis(ctx, *t, model::Axis::kLongitudinal, out);
  if (const toml::table* t = OptionalTable(ctx, *aug, "lateral"))
    ReadAxis(ctx, *t, model::Axis::kLateral, out);
}

}  // namespace aerolin::data::read
