// Plausibility checks once the file is read: the Ixz coupling's
// preconditions, magnitudes that would overflow A, and the signs and sizes
// of the main derivatives (model/typed_values.hpp), each at its key's line.
#include <cmath>
#include <stdexcept>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "aerolin/model/build.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/model/typed_values.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {

using core::Diagnostic;
using core::SourceLocation;

namespace {

// The key that set `quantity` (an AircraftData member path, as
// model::CheckTypedValues names it) in this file's form, and its line: the
// key's, else its section's, else line 1.
model::WrittenAt LocateQuantity(const toml::table& root, std::string_view quantity,
                                const std::string& path) {
  // The coefficient form's keys of a quantity, after its dimensional keys.
  static constexpr std::pair<std::string_view, std::string_view> kCoefficientKeys[] = {
      {"longitudinal.Za", "CLa CZa"}, {"longitudinal.Ma", "Cma"}, {"longitudinal.Mq", "Cmq"},
      {"longitudinal.Xu", "CXu CDu"}, {"lateral.Yb", "CYb"},      {"lateral.Lb", "Clb"},
      {"lateral.Nb", "Cnb"},          {"lateral.Lp", "Clp"},      {"lateral.Nr", "Cnr"}};
  const std::size_t dot = quantity.find('.');
  const std::string_view section = quantity.substr(0, dot);
  // The dimensional keys, from the parameter table: α/β-form (the member
  // itself), then w/v-form (the member / U0); a quantity with no row (mass.W)
  // is its own key.
  std::string candidates;
  for (const model::Parameter& p : model::Parameters())
    if (p.member == quantity ||
        (p.member.starts_with(quantity) && p.member.substr(quantity.size()) == " / U0"))
      candidates.append(candidates.empty() ? "" : " ").append(p.key);
  if (candidates.empty()) candidates = std::string(quantity.substr(dot + 1));
  for (const auto& [q, keys] : kCoefficientKeys)
    if (q == quantity) candidates.append(" ").append(keys);
  const toml::table* t = root[section].as_table();
  std::string first;
  for (std::size_t i = 0; i < candidates.size();) {
    std::size_t j = candidates.find(' ', i);
    if (j == std::string::npos) j = candidates.size();
    const std::string_view key = std::string_view(candidates).substr(i, j - i);
    if (first.empty()) first = std::string(key);
    if (t != nullptr)
      if (const toml::node* n = t->get(key)) return {std::string(key), LocationOf(*n, path)};
    i = j + 1;
  }
  if (t != nullptr) return {first, LocationOf(*t, path)};
  return {first, SourceLocation{path, 1}};
}

}  // namespace

// Every source of unprimed L, N gets the coupling: a [lateral] table (raw, or
// coefficients) and an AVL .st file (no [lateral] table; its Ixz and inertias
// come from [mass] or the .mass file, located at ixz_at / mass_at), as
// model::MatricesOf does for primed = false.
bool PrimeLateral(ReadContext& ctx, const toml::table& root) {
  const model::MassProperties& mass = ctx.written.mass;
  const toml::table* lat = root["lateral"].as_table();
  if (ctx.lateral_primed && !*ctx.lateral_primed) {
    const bool needs_inertia = mass.Ixz.has_value() && *mass.Ixz != 0.0;
    if (!mass.Ixz.has_value() && !ctx.written.lateral.raw && lat != nullptr) {
      ctx.Error(ctx.At(*lat->get("primed")),
                "primed = false needs [mass] Ixz (write Ixz = 0.0 if the product of inertia is negligible)");
    } else if (needs_inertia && (!mass.Ix || !mass.Iz)) {
      ctx.Error(ctx.ixz_at,
                ctx.avl.requested
                    ? "the AVL file's L and N with Ixz != 0 need [mass] Ix and Iz to apply the "
                      "Ixz coupling (add them, or give avl_mass)"
                    : "unprimed L, N with Ixz != 0 need [mass] Ix and Iz to apply the Ixz coupling "
                      "(add them, or give primed derivatives with primed = true)");
    } else if (needs_inertia) {
      if (!(1.0 - (*mass.Ixz * *mass.Ixz) / (*mass.Ix * *mass.Iz) > 0.0))  // NaN too
        ctx.Error(ctx.mass_at, "Ixz² ≥ Ix·Iz: the inertia tensor is not positive definite");
      else
        return true;
    }
  }
  return false;
}

void CheckMagnitudes(ReadContext& ctx, const toml::table& root, const model::AircraftData& out) {
  // Every value as the model holds it (SI, normalized, α/β-form, primed) is
  // at most kMaxMagnitude, so that the products forming A and B (a few
  // factors each) stay finite; checked per key, so the message has its line.
  constexpr double kMaxMagnitude = 1e100;
  auto check = [&](const toml::node& node, std::string_view section, std::string_view key,
                   const model::Control* control) {
    const model::Parameter* row = model::FindParameter(section, key);
    if (row == nullptr) return;
    const std::optional<double> v = row->get(out, control);
    if (v && !(std::abs(*v) <= kMaxMagnitude))
      ctx.Error(ctx.At(node),
                fmt::format("'{}' in [{}] is {} once converted to SI ({}), beyond {} (check the "
                            "value and its units)",
                            key, section, Format(*v), row->member, Format(kMaxMagnitude)));
  };
  for (const char* section : {"condition", "mass", "geometry", "longitudinal", "lateral"})
    if (const toml::table* t = root[section].as_table())
      for (const auto& [key, node] : *t) check(node, section, key.str(), nullptr);
  if (const toml::table* controls = root["controls"].as_table())
    for (const auto& [name, node] : *controls)
      if (const toml::table* t = node.as_table())
        for (const model::Control& c : out.controls)
          if (c.name == name.str())
            for (const auto& [key, value] : *t) check(value, "controls", key.str(), &c);
  if (!ctx.errors.empty()) return;
  // Safety net: what is left (e.g. a division by a tiny U0) is located at
  // the section the model comes from.
  auto build = [&](const char* section, auto builder) {
    try {
      builder(out);
    } catch (const std::invalid_argument&) {
      const toml::node* node = root.get(section);
      ctx.Error(node ? ctx.At(*node) : SourceLocation{ctx.path, 1},
                std::string("the ") + section +
                    " model overflows (a matrix entry is not finite): a value is far outside the "
                    "physical range (check the values and their units)");
    }
  };
  build("longitudinal", [](const model::AircraftData& a) { model::BuildAugmented(a, model::Axis::kLongitudinal); });
  build("lateral", [](const model::AircraftData& a) { model::BuildAugmented(a, model::Axis::kLateral); });
  if (!ctx.errors.empty()) return;
  // The derived outputs (nz, gamma, ay) scale with U0/g and divide by U0²:
  // a U0 of 1e-300 m/s has A but no outputs (U0² underflows to 0).
  try {
    model::BuildWithOutputs(out, model::Axis::kLongitudinal);
    model::BuildWithOutputs(out, model::Axis::kLateral);
  } catch (const std::invalid_argument&) {
    const toml::table* condition = root["condition"].as_table();
    const toml::node* node = condition ? condition->get("U0") : nullptr;
    if (node == nullptr) node = root.get("condition");
    ctx.Error(node ? ctx.At(*node) : SourceLocation{ctx.path, 1},
              fmt::format("U0 = {} m/s and g = {} m/s^2 leave the outputs nz, gamma and ay "
                          "(U0/g times the model, divided by U0^2) not finite: a value far "
                          "outside the physical range (check the values and their units)",
                          Format(out.condition.U0), Format(out.condition.g)));
  }
}

void CheckSigns(ReadContext& ctx, const toml::table& root, const model::AircraftData& out) {
  // An AVL file's derivatives are located at the .st file's line of AVL's key.
  static constexpr std::pair<std::string_view, std::string_view> kAvlKeys[] = {
      {"longitudinal.Za", "CLa"}, {"longitudinal.Ma", "Cma"}, {"longitudinal.Mq", "Cmq"},
      {"longitudinal.Xu", "CDtot"}, {"lateral.Yb", "CYb"},    {"lateral.Lb", "Clb"},
      {"lateral.Nb", "Cnb"},       {"lateral.Lp", "Clp"},     {"lateral.Nr", "Cnr"}};
  const model::Locator locate = [&](std::string_view quantity) -> model::WrittenAt {
    if (ctx.avl.st)
      for (const auto& [q, key] : kAvlKeys)
        if (q == quantity) return {std::string(key), {ctx.avl.st->path, ctx.avl.st->LineOf(std::string(key))}};
    return LocateQuantity(root, quantity, ctx.path);
  };
  // W beside m: m·g = W is checked by the model (a weight typed as a mass).
  model::TypedValueExtras extras;
  if (const toml::table* mass = root["mass"].as_table(); mass && mass->contains("m")) extras.W = ctx.si.W;
  for (Diagnostic& d : model::CheckTypedValues(out, locate, extras)) ctx.Warn(d.where, std::move(d.message));
}

}  // namespace aerolin::data::read
