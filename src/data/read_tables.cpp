// [tables]: nonlinear coefficient tables (model/aero_tables.hpp), read after
// the controls and the conversion (they need the controls' names and units,
// the SI mass, inertias, geometry and density).
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "aerolin/core/messages.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {
namespace {

// The key of a variable in degrees: the file-wide rule "angles are radians
// except keys that end in _deg" (docs/data-files.md).
constexpr std::string_view kDegreeSuffix = "_deg";

std::string DegreeKey(std::string_view name) { return std::string(name) + std::string(kDegreeSuffix); }

// What a key of a [tables.NAME] table may name, with its factor to SI.
struct VariableKey {
  std::string key;           // "alpha_deg", "elevator", ...
  std::string variable;      // "alpha", "beta" or the control's name
  model::TableVariable kind;
  int control = -1;
  double factor = 1.0;       // to rad (or the control's unit)
  bool angle = true;
};

std::vector<VariableKey> VariableKeys(const model::AircraftData& out) {
  std::vector<VariableKey> keys = {
      {"alpha", "alpha", model::TableVariable::kNone, -1, 1.0, true},
      {DegreeKey("alpha"), "alpha", model::TableVariable::kNone, -1, core::kDegToRad, true},
      {"beta", "beta", model::TableVariable::kBeta, -1, 1.0, true},
      {DegreeKey("beta"), "beta", model::TableVariable::kBeta, -1, core::kDegToRad, true}};
  for (std::size_t i = 0; i < out.controls.size(); ++i) {
    const model::Control& c = out.controls[i];
    const int index = static_cast<int>(i);
    const bool angle = c.unit == core::Unit::kRadian;
    keys.push_back({c.name, c.name, model::TableVariable::kControl, index, 1.0, angle});
    if (angle)
      keys.push_back({DegreeKey(c.name), c.name, model::TableVariable::kControl, index, core::kDegToRad, true});
  }
  return keys;
}

// The finite numbers of `node` (an array of numbers) times `factor`, or
// nullopt after reporting each defect at its element's line.
std::optional<std::vector<double>> Numbers(ReadContext& ctx, const toml::node& node, const std::string& what,
                                           double factor) {
  const toml::array* array = node.as_array();
  if (array == nullptr) {
    ctx.Error(ctx.At(node), what + " must be an array of numbers");
    return std::nullopt;
  }
  std::vector<double> values;
  bool ok = true;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::node& element = *array->get(i);
    const std::optional<double> v = element.value<double>();
    if (!v || !std::isfinite(*v)) {
      ctx.Error(ctx.At(element), fmt::format("entry {} of {} must be a finite number{}", i + 1, what,
                                             v ? ", got " + Format(*v) : ""));
      ok = false;
      continue;
    }
    values.push_back(*v * factor);
  }
  if (!ok) return std::nullopt;
  return values;
}

// Breakpoints: finite, at least two, strictly increasing.
std::optional<std::vector<double>> Breakpoints(ReadContext& ctx, const toml::node& node, const std::string& table,
                                               const std::string& key, double factor) {
  const std::string what = key + " in [" + table + "]";
  auto xs = Numbers(ctx, node, what, factor);
  if (!xs) return std::nullopt;
  if (xs->size() < 2) {
    ctx.Error(ctx.At(node), fmt::format("{} has {} breakpoint{}: a table needs at least two to interpolate",
                                        what, xs->size(), xs->size() == 1 ? "" : "s"));
    return std::nullopt;
  }
  const toml::array& array = *node.as_array();
  bool ok = true;
  for (std::size_t i = 1; i < xs->size(); ++i) {
    if ((*xs)[i] > (*xs)[i - 1]) continue;
    const double v = *array.get(i)->value<double>(), before = *array.get(i - 1)->value<double>();
    ctx.Error(ctx.At(*array.get(i)),
              v == before ? fmt::format("entry {} of {}, {}, repeats the breakpoint before it (breakpoints "
                                        "must strictly increase)", i + 1, what, Format(v))
                          : fmt::format("entry {} of {}, {}, comes after {} (breakpoints must strictly "
                                        "increase: sort them, with their values)", i + 1, what, Format(v),
                                        Format(before)));
    ok = false;
  }
  if (!ok) return std::nullopt;
  return xs;
}

// One [tables.NAME] table; nullopt after reporting its defects.
std::optional<model::CoefficientTable> ReadTable(ReadContext& ctx, const toml::table& t, const std::string& name,
                                                 model::TableCoefficient coefficient,
                                                 const std::vector<VariableKey>& variables) {
  const std::string section = "tables." + name;
  model::CoefficientTable table;
  table.coefficient = coefficient;
  const VariableKey* alpha = nullptr;
  const VariableKey* second = nullptr;
  const toml::node* values = nullptr;
  bool ok = true;
  std::vector<std::string_view> allowed = {"values"};
  for (const VariableKey& v : variables) allowed.push_back(v.key);
  for (const auto& [key, node] : t) {
    const std::string_view k = key.str();
    if (k == "values") {
      values = &node;
      continue;
    }
    const VariableKey* v = nullptr;
    for (const VariableKey& candidate : variables)
      if (candidate.key == k) v = &candidate;
    if (v == nullptr) {
      std::string message = fmt::format("unknown variable '{}' in [{}] (a table takes alpha_deg (or alpha), "
                                        "values and, for CX, CZ, Cm, one of beta_deg or a control's "
                                        "deflection, elevator_deg ...",
                                        core::Printable(k), section);
      if (const auto suggestion = Suggest(k, allowed)) message += "; did you mean '" + *suggestion + "'?";
      ctx.Error(ctx.At(node), message + ")");
      ok = false;
      continue;
    }
    if (v->variable == "alpha") {
      if (alpha != nullptr) {
        ctx.Error(ctx.At(node), fmt::format("both alpha and alpha_deg in [{}] (keep one)", section));
        ok = false;
      }
      alpha = v;
      continue;
    }
    if (!model::IsStatic(coefficient)) {
      ctx.Error(ctx.At(node), fmt::format("[{}] is a damping coefficient, a table of alpha only: '{}' "
                                          "cannot be its second variable (only CX, CZ and Cm take one)",
                                          section, core::Printable(k)));
      ok = false;
      continue;
    }
    if (second != nullptr) {
      ctx.Error(ctx.At(node), fmt::format("[{}] has two second variables, '{}' and '{}' (a table is a "
                                          "function of alpha and at most one more variable)",
                                          section, second->key, core::Printable(k)));
      ok = false;
      continue;
    }
    second = v;
  }
  if (alpha == nullptr) {
    Missing(ctx, t, section, "alpha_deg", "the angle-of-attack breakpoints, in degrees (or alpha in rad)");
    ok = false;
  }
  if (values == nullptr) {
    Missing(ctx, t, section, "values",
            second ? "one row per " + second->key + " breakpoint, one entry per alpha breakpoint in each"
                   : std::string("one entry per alpha breakpoint"));
    ok = false;
  }
  std::optional<std::vector<double>> xs, ys;
  if (alpha != nullptr) xs = Breakpoints(ctx, *t.get(alpha->key), section, alpha->key, alpha->factor);
  if (second != nullptr) ys = Breakpoints(ctx, *t.get(second->key), section, second->key, second->factor);
  if (!ok || !xs || (second && !ys)) return std::nullopt;
  table.alpha = *xs;
  const std::size_t n = xs->size();
  const toml::array* rows = values->as_array();
  if (rows == nullptr) {
    ctx.Error(ctx.At(*values), fmt::format("values in [{}] must be an array", section));
    return std::nullopt;
  }
  if (second == nullptr) {
    auto row = Numbers(ctx, *values, "values in [" + section + "]", 1.0);
    if (!row) return std::nullopt;
    if (row->size() != n) {
      ctx.Error(ctx.At(*values), fmt::format("values in [{}] has {} entries, {} has {} breakpoints (one value "
                                             "per breakpoint)", section, row->size(), alpha->key, n));
      return std::nullopt;
    }
    table.values = *row;
    return table;
  }
  table.second = second->kind;
  table.control = second->control;
  table.second_name = second->variable;
  table.second_is_angle = second->angle;
  table.other = *ys;
  if (rows->size() != ys->size()) {
    ctx.Error(ctx.At(*values), fmt::format("values in [{}] has {} rows, {} has {} breakpoints (one row per "
                                           "breakpoint)", section, rows->size(), second->key, ys->size()));
    ok = false;
  }
  for (std::size_t r = 0; r < rows->size(); ++r) {
    const toml::node& row_node = *rows->get(r);
    const std::string what = fmt::format("values row {} in [{}]", r + 1, section);
    auto row = Numbers(ctx, row_node, what, 1.0);
    if (!row) {
      ok = false;
      continue;
    }
    if (row->size() != n) {
      ctx.Error(ctx.At(row_node), fmt::format("{} has {} entries, {} has {} breakpoints (one value per "
                                              "breakpoint in each row)", what, row->size(), alpha->key, n));
      ok = false;
      continue;
    }
    table.values.insert(table.values.end(), row->begin(), row->end());
  }
  if (!ok) return std::nullopt;
  return table;
}

}  // namespace

void ReadTables(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* t = OptionalTable(ctx, root, "tables");
  if (t == nullptr) return;
  const core::SourceLocation at = ctx.At(*t);
  model::AeroTables tables;
  const std::vector<VariableKey> variables = VariableKeys(out);

  // The controls' settings at the reference condition: one key per control.
  std::vector<std::string_view> setting_keys;
  for (const model::Control& c : out.controls) {
    const bool angle = c.unit == core::Unit::kRadian;
    const std::string deg = DegreeKey(c.name);
    const auto rad = Number(ctx, *t, c.name, "tables");
    const auto in_deg = angle ? Number(ctx, *t, deg, "tables") : std::nullopt;
    if (rad && in_deg) ctx.Error(ctx.At(*t->get(deg)), fmt::format("both {} and {} in [tables] (keep one)", c.name, deg));
    if (!t->contains(c.name) && !(angle && t->contains(deg)))
      Missing(ctx, *t, "tables", angle ? deg : c.name,
              fmt::format("the {} setting at the reference condition: the tables take deflections, aerolin's "
                          "controls are deviations from these settings", c.name));
    tables.reference_controls.push_back(rad ? *rad : in_deg ? *in_deg * core::kDegToRad : 0.0);
  }
  for (const VariableKey& v : variables)
    if (v.kind == model::TableVariable::kControl) setting_keys.push_back(v.key);

  std::vector<std::string_view> allowed = model::TableCoefficientNames();
  allowed.insert(allowed.end(), setting_keys.begin(), setting_keys.end());
  for (const auto& [key, node] : *t) {
    const std::string name(key.str());
    const toml::table* sub = node.as_table();
    if (sub == nullptr) {
      if (std::find(setting_keys.begin(), setting_keys.end(), key.str()) == setting_keys.end()) {
        std::string message = fmt::format("unknown key '{}' in [tables] (it takes a table per coefficient, "
                                          "[tables.CX] ..., and each control's reference setting",
                                          core::Printable(name));
        if (const auto s = Suggest(name, allowed)) message += "; did you mean '" + *s + "'?";
        ctx.Error(ctx.At(node), message + ")");
      }
      continue;
    }
    const auto coefficient = model::TableCoefficientNamed(name);
    if (!coefficient) {
      std::string message = fmt::format("unknown coefficient '{}' in [tables] (the tables take {}", core::Printable(name),
                                        fmt::join(model::TableCoefficientNames(), ", "));
      if (name == "CL" || name == "CD")
        message += ": body-axis coefficients; give lift and drag as CZ and CX";
      else if (name == "CY" || name == "Cl" || name == "Cn")
        message += ": no lateral tables yet; the file's lateral derivatives fly the lateral axes";
      else if (const auto s = Suggest(name, model::TableCoefficientNames()))
        message += "; did you mean '" + *s + "'?";
      ctx.Error(ctx.At(node), message + ")");
      continue;
    }
    if (auto table = ReadTable(ctx, *sub, name, *coefficient, variables)) tables.tables.push_back(std::move(*table));
  }

  // In model::TableCoefficient order (toml++ gives the keys sorted, not as written).
  std::stable_sort(tables.tables.begin(), tables.tables.end(),
                   [](const model::CoefficientTable& a, const model::CoefficientTable& b) {
                     return a.coefficient < b.coefficient;
                   });

  // What the coefficients are scaled by.
  const auto need = [&](bool ok, const std::string& what) {
    if (!ok) ctx.Error(at, "[tables] needs " + what);
  };
  need(ctx.si.S && ctx.si.c, "[geometry] S and c (the coefficients are per q S and q S c)");
  need(out.mass.m.has_value(), "[mass] m or W (the forces are per unit mass)");
  const bool moments = tables.Find(model::TableCoefficient::kCm) || tables.Find(model::TableCoefficient::kCmq);
  if (moments) need(out.mass.Iy.has_value(), "[mass] Iy (Cm's moment is per unit pitch inertia)");
  if (ctx.si.rho) {
    tables.rho0 = *ctx.si.rho;
  } else if (ctx.si.altitude) {
    if (auto atmosphere = StandardAtmosphereAt(ctx, *t, *ctx.si.altitude, "rho in [condition]"))
      tables.rho0 = atmosphere->density;
  } else {
    need(false, "the air density at the reference condition: give [condition] altitude (or rho)");
  }
  if (!ctx.errors.empty()) return;
  tables.S = *ctx.si.S;
  tables.c = *ctx.si.c;
  tables.m = *out.mass.m;
  tables.Iy = out.mass.Iy.value_or(0.0);
  out.tables = std::move(tables);
}

}  // namespace aerolin::data::read
