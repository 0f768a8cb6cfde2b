// [actuators]: the command path the MIL-STD-1797A criteria grade through
// (model/actuators.hpp): `delay_s` and one inline table per control,
// `elevator = { time_constant_s = 0.05, limit_deg = 25, rate_limit_deg_s = 60 }`.
// The keys carry their units (s, deg, deg/s) whatever the file's units.

#include <fmt/format.h>
#include <string>
#include <toml++/toml.h>

#include "aerolin/core/messages.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/actuators.hpp"
#include "aerolin/model/auxiliary_states.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {
namespace {

// Reports `problem` (a model:: rule's message) at `node` unless it is empty.
bool Check(ReadContext& ctx, const toml::node& node, const std::string& key, const std::string& table,
           const std::string& problem) {
  if (problem.empty()) return true;
  ctx.Error(ctx.At(node), fmt::format("'{}' in [{}]: {}", key, table, problem));
  return false;
}

void ReadActuator(ReadContext& ctx, const toml::table& t, const std::string& name,
                  const model::Control& control, model::CommandPath& out) {
  const std::string table = "actuators." + name;
  CheckKeys(ctx, t, table, {"time_constant_s", "limit_deg", "rate_limit_deg_s"});
  if (control.unit != core::Unit::kRadian)
    ctx.Error(ctx.At(t), fmt::format("'{}' in [actuators] is dimensionless (unit = \"1\"): actuators "
                                     "are for control surfaces, in radians", name));
  model::Actuator a;
  bool ok = true;
  if (t.get("time_constant_s") == nullptr) {
    Missing(ctx, t, table, "time_constant_s", "the actuator's time constant in s, e.g. 0.05");
    ok = false;
  } else if (const auto tau = Number(ctx, t, "time_constant_s", table)) {
    ok = Check(ctx, *t.get("time_constant_s"), "time_constant_s", table, model::TimeConstantProblem(*tau));
    a.time_constant = *tau;
  } else {
    ok = false;
  }
  if (const auto limit = Number(ctx, t, "limit_deg", table)) {
    ok = Check(ctx, *t.get("limit_deg"), "limit_deg", table, model::LimitProblem(*limit)) && ok;
    a.position_limit = *limit * core::kDegToRad;
  }
  if (const auto rate = Number(ctx, t, "rate_limit_deg_s", table)) {
    ok = Check(ctx, *t.get("rate_limit_deg_s"), "rate_limit_deg_s", table, model::LimitProblem(*rate)) && ok;
    a.rate_limit = *rate * core::kDegToRad;
  }
  if (ok) out.actuators[name] = a;
}


// The flight carries one state per actuator and per washout filter beside
// its 12, at most model::kMaxAuxiliaryStates: more is located at [actuators]
// (or [augmentation] without actuators) as not flyable.
void CheckAuxiliaryStates(ReadContext& ctx, const toml::table& root, const model::AircraftData& out) {
  const int filters = model::FilterStates(out);
  const auto actuators = static_cast<int>(out.command_path.actuators.size());
  if (actuators + filters <= model::kMaxAuxiliaryStates) return;
  const toml::node* at = root.get("actuators");
  if (at == nullptr) at = root.get("augmentation");
  ctx.not_flyable.push_back(
      {ctx.At(*at), fmt::format("{} actuators and {} washout filters: the flight carries at most {} such states "
                                "(one each); fly with fewer actuators or washed-out loops",
                                actuators, filters, model::kMaxAuxiliaryStates)});
}

void ReadPath(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* t = OptionalTable(ctx, root, "actuators",
                                       "a table of delay_s and one { time_constant_s = ... } per control");
  if (t == nullptr) return;
  std::string names;
  for (const model::Control& c : out.controls) names += (names.empty() ? "" : ", ") + c.name;
  for (const auto& [key, node] : *t) {
    const std::string k(key.str());
    if (k == "delay_s") {
      if (const auto delay = Number(ctx, *t, "delay_s", "actuators"))
        if (Check(ctx, node, "delay_s", "actuators", model::DelayProblem(*delay))) out.command_path.delay = *delay;
      continue;
    }
    const model::Control* control = nullptr;
    for (const model::Control& c : out.controls)
      if (c.name == k) control = &c;
    if (control == nullptr) {
      ctx.Error(ctx.At(node), fmt::format("unknown key '{}' in [actuators] (expected delay_s or a "
                                          "control's name: {})", core::Printable(k), names));
      continue;
    }
    const toml::table* actuator = node.as_table();
    if (actuator == nullptr) {
      ctx.Error(ctx.At(node), fmt::format("'{}' in [actuators] must be a table, e.g. {} = "
                                          "{{ time_constant_s = 0.05 }}", k, k));
      continue;
    }
    ReadActuator(ctx, *actuator, k, *control, out.command_path);
  }
}

}  // namespace

void ReadActuators(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  ReadPath(ctx, root, out);
  CheckAuxiliaryStates(ctx, root, out);
}

}  // namespace aerolin::data::read
