// [longitudinal], [lateral] and [controls.NAME] as dimensional derivatives
// (normalized or raw; α/w-, β/v-form), with their spellings from the
// parameter table (model/parameters.hpp).
#include <algorithm>
#include <cmath>
#include <toml++/toml.h>

#include "aerolin/core/messages.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {

using core::Diagnostic;
using core::Dimension;
using core::SourceLocation;
using model::Divisor;
using model::Parameter;

// A control's derivative keys (X Z M Y L N): the "controls" rows that have a divisor.
std::vector<const Parameter*> ControlDerivatives() {
  std::vector<const Parameter*> rows;
  for (const Parameter& p : model::Parameters())
    if (p.section == "controls" && p.divisor != Divisor::kNone) rows.push_back(&p);
  return rows;
}

// A derivative's key is its force or moment and its variable (Xu, Ma, Lp): a
// control's X, Z, M enter the section whose derivatives are of X, Z, M.
bool IsLongitudinalControlKey(std::string_view key) {
  for (const Parameter& p : model::Parameters())
    if (p.section == "longitudinal" && p.key.starts_with(key)) return true;
  return false;
}

namespace {

// Keys of a section's derivatives, in the parameter table's order (the order
// of "did you mean" candidates).
std::vector<std::string_view> KeysOf(std::string_view section) {
  std::vector<std::string_view> keys;
  for (const Parameter& p : model::Parameters())
    if (p.section == section) keys.push_back(p.key);
  return keys;
}

// A derivative section's two spellings of the same derivatives (α- or
// w-form, β- or v-form): the keys of each and the keys both need, in the
// parameter table's order, from which they are derived.
struct FormChoice {
  std::string_view section;  // "longitudinal", "lateral"
  std::vector<std::string_view> first;
  std::vector<std::string_view> second;
  std::vector<std::string_view> common;
  std::string both_given;  // message when keys of both forms appear
};

// Optional keys default to 0 because the textbooks neglect them (Xq, Zα̇);
// documented in data/derivatives/README.md. The others are required.
bool IsOptionalDerivative(std::string_view key) { return key == "Xq" || key == "Zadot" || key == "Zwdot"; }

// The parameter table's velocity-form rows (w, v) are views of an angle-form
// member (α, β) ÷ U0: their member reads "longitudinal.Ma / U0".
constexpr std::string_view kPerU0 = " / U0";

FormChoice FormsOf(std::string_view section, std::string_view first_name, std::string_view second_name) {
  std::vector<std::string_view> angle_members;
  for (const Parameter& p : model::Parameters())
    if (p.section == section && p.member.ends_with(kPerU0))
      angle_members.push_back(p.member.substr(0, p.member.size() - kPerU0.size()));
  FormChoice choice;
  choice.section = section;
  for (const Parameter& p : model::Parameters()) {
    if (p.section != section) continue;
    const bool second = p.member.ends_with(kPerU0);
    const bool first =
        !second && std::find(angle_members.begin(), angle_members.end(), p.member) != angle_members.end();
    (first ? choice.first : second ? choice.second : choice.common).push_back(p.key);
  }
  auto join = [](const std::vector<std::string_view>& keys) {  // the required ones
    std::string s;
    for (std::string_view k : keys)
      if (!IsOptionalDerivative(k)) s.append(s.empty() ? "" : " ").append(k);
    return s;
  };
  choice.both_given = "both " + std::string(first_name) + " (" + join(choice.first) + ") and " +
                      std::string(second_name) + " (" + join(choice.second) +
                      ") derivatives given; use one form per file";
  return choice;
}

const FormChoice& LongitudinalForms() {
  static const FormChoice forms = FormsOf("longitudinal", "α-form", "w-form");
  return forms;
}
const FormChoice& LateralForms() {
  static const FormChoice forms = FormsOf("lateral", "β-form", "v-form");
  return forms;
}

// Converts a derivative as written to SI (in its raw dimension for the raw
// form); the model's conversions normalize it later. Reports, once per
// quantity, a raw derivative whose divisor [mass] lacks: nullopt then.
std::optional<double> DerivativeToSI(ReadContext& ctx, double value, const Parameter& spec, bool raw,
                                     const SourceLocation& where) {
  if (!ctx.units_known) return std::nullopt;
  if (!raw || spec.divisor == Divisor::kNone) return core::ToSI(value, ctx.units, spec.dimension);
  const Dimension divisor_dim = spec.divisor == Divisor::kMass ? core::kMass : core::kInertia;
  std::string_view name;
  switch (spec.divisor) {
    case Divisor::kMass: name = "m"; break;
    case Divisor::kIx: name = "Ix"; break;
    case Divisor::kIy: name = "Iy"; break;
    case Divisor::kIz: name = "Iz"; break;
    case Divisor::kNone: break;
  }
  if (!model::DivisorValue(spec.divisor, ctx.written.mass)) {
    // Reported once per missing quantity, at the first derivative needing it.
    const std::string message = "raw form needs [mass] " + std::string(name) +
                                " to normalize '" + std::string(spec.key) +
                                "' (add it, or give normalized derivatives with form = \"normalized\")";
    const bool already = std::any_of(ctx.errors.begin(), ctx.errors.end(), [&](const Diagnostic& d) {
      return d.message.rfind("raw form needs [mass] " + std::string(name) + " ", 0) == 0;
    });
    if (!already) ctx.Error(where, message);
    return std::nullopt;
  }
  return core::ToSI(value, ctx.units, spec.dimension * divisor_dim);
}

// The "form" key of a derivative section: true for raw.
std::optional<bool> ReadForm(ReadContext& ctx, const toml::table& table, std::string_view table_name) {
  const std::optional<std::string> form = String(ctx, table, "form", table_name, false);
  if (!form) {
    if (!table.contains("form"))
      Missing(ctx, table, table_name, "form", "form = \"normalized\", \"raw\" or \"coefficients\"");
    return std::nullopt;
  }
  if (*form == "normalized") return false;
  if (*form == "raw") return true;
  ctx.Error(ctx.At(*table.get("form")),
            "unknown form '" + core::Printable(*form) + "' (expected \"normalized\", \"raw\" or \"coefficients\")");
  return std::nullopt;
}

// Which spelling a section uses (α/w, β/v); see FormChoice.
std::optional<bool> ChooseForm(ReadContext& ctx, const toml::table& t, const FormChoice& choice) {
  auto uses = [&t](const std::vector<std::string_view>& keys) {
    return std::any_of(keys.begin(), keys.end(), [&t](std::string_view k) { return t.contains(k); });
  };
  const bool first = uses(choice.first);
  const bool second = uses(choice.second);
  if (first && second) {
    // Reported at the first key of the second form in the file.
    const toml::node* at = nullptr;
    auto consider = [&](std::string_view k) {
      if (const toml::node* n = t.get(k); n && (!at || n->source().begin.line < at->source().begin.line))
        at = n;
    };
    for (std::string_view k : choice.second) consider(k);
    ctx.Error(ctx.At(*at), choice.both_given);
    return std::nullopt;
  }
  for (const std::vector<std::string_view>* keys : {&choice.common, second ? &choice.second : &choice.first})
    for (std::string_view key : *keys)
      if (!IsOptionalDerivative(key) && !t.contains(key))
        Missing(ctx, t, choice.section, key, "required derivative; write 0.0 if the source neglects it");
  return second;
}

// The SI value of derivative `key` as written (0 where it is absent or
// bad, which is then reported).
double Derivative(ReadContext& ctx, const toml::table& t, std::string_view section, std::string_view key,
                  bool raw) {
  const auto v = Number(ctx, t, key, section);
  if (!v) return 0.0;
  const auto n = DerivativeToSI(ctx, *v, *model::FindParameter(section, key), raw, ctx.At(*t.get(key)));
  return n ? *n : 0.0;
}

// Reads the derivatives both forms share, then those of the form chosen, into
// ctx.written's section (whose form is set: model::FieldOf finds each field).
void ReadDerivatives(ReadContext& ctx, const toml::table& t, const FormChoice& choice, bool second, bool raw) {
  const std::string section(choice.section);
  for (const std::vector<std::string_view>* keys : {&choice.common, second ? &choice.second : &choice.first})
    for (std::string_view key : *keys)
      *model::FieldOf(ctx.written, section + "." + std::string(key)) =
          Derivative(ctx, t, section, key, raw) * PerDegreeFactor(ctx, t, section, key);
}

// [lateral] beta = "v/U0" (default) or "v/V" (model::SideslipDefinition).
void ReadSideslipDefinition(ReadContext& ctx, const toml::table& t, bool v_form) {
  const std::optional<std::string> beta = String(ctx, t, "beta", "lateral", false);
  if (!beta) return;
  if (*beta == "v/U0") return;
  if (*beta != "v/V") {
    ctx.Error(ctx.At(*t.get("beta")),
              "unknown beta '" + core::Printable(*beta) + "' (expected \"v/U0\", aerolin's sideslip, or \"v/V\")");
    return;
  }
  if (v_form) {
    ctx.Error(ctx.At(*t.get("beta")),
              "beta = \"v/V\" applies to beta-form derivatives (Yb Lb Nb); v-form derivatives "
              "(Yv Lv Nv) do not depend on it (remove the key)");
    return;
  }
  ctx.written.lateral.beta = model::SideslipDefinition::kVOverV;
}

}  // namespace

void ReadLongitudinal(ReadContext& ctx, const toml::table& root) {
  const toml::table* t = RequireTable(ctx, root, "longitudinal");
  if (t == nullptr) return;
  if (IsCoefficientForm(*t)) return ReadLongitudinalCoefficients(ctx, *t);
  std::vector<std::string_view> allowed = {"form", "per_degree"};
  for (std::string_view key : KeysOf("longitudinal")) allowed.push_back(key);
  CheckKeys(ctx, *t, "longitudinal", allowed,
            "control derivatives go in a [controls.<name>] table");
  const std::optional<bool> raw = ReadForm(ctx, *t, "longitudinal");

  const std::optional<bool> w_form = ChooseForm(ctx, *t, LongitudinalForms());
  if (!w_form || !raw) return;
  model::LongitudinalAsWritten& d = ctx.written.longitudinal;
  d.raw = *raw;
  d.form = *w_form ? model::AngleForm::kVelocity : model::AngleForm::kAngle;
  ReadDerivatives(ctx, *t, LongitudinalForms(), *w_form, *raw);
  ctx.zadot_node = t->get(*w_form ? "Zwdot" : "Zadot");
}

void ReadLateral(ReadContext& ctx, const toml::table& root) {
  const toml::table* t = RequireTable(ctx, root, "lateral");
  if (t == nullptr) return;
  if (IsCoefficientForm(*t)) return ReadLateralCoefficients(ctx, *t);
  std::vector<std::string_view> allowed = {"form", "primed", "per_degree", "beta"};
  for (std::string_view key : KeysOf("lateral")) allowed.push_back(key);
  CheckKeys(ctx, *t, "lateral", allowed, "control derivatives go in a [controls.<name>] table");
  const std::optional<bool> raw = ReadForm(ctx, *t, "lateral");
  const std::optional<bool> primed = Bool(ctx, *t, "primed", "lateral");
  if (raw && *raw && primed && *primed)
    ctx.Error(ctx.At(*t->get("primed")),
              "raw derivatives are never primed (remove 'primed' or set it to false)");
  if (raw && !*raw && !primed && !t->contains("primed"))
    Missing(ctx, *t, "lateral", "primed",
            "primed = true if L and N already include the Ixz coupling, false otherwise");

  const std::optional<bool> v_form = ChooseForm(ctx, *t, LateralForms());
  if (!v_form || !raw) return;
  ctx.lateral_primed = *raw ? std::optional<bool>(false) : primed;
  model::LateralAsWritten& d = ctx.written.lateral;
  ReadSideslipDefinition(ctx, *t, *v_form);
  d.raw = *raw;
  d.form = *v_form ? model::AngleForm::kVelocity : model::AngleForm::kAngle;
  ReadDerivatives(ctx, *t, LateralForms(), *v_form, *raw);
}

void ReadControlUnit(ReadContext& ctx, const toml::table& t, const std::string& table_name, model::Control& c) {
  if (auto unit = String(ctx, t, "unit", table_name, false)) {
    if (*unit == "rad" || *unit == "1")
      c.unit = *unit == "rad" ? core::Unit::kRadian : core::Unit::kOne;
    else
      ctx.Error(ctx.At(*t.get("unit")),
                "unknown control unit '" + core::Printable(*unit) +
                    "' (expected \"rad\" or \"1\"; give deflection derivatives per rad)");
  }
}

void ReadLimits(ReadContext& ctx, const toml::table& t, const std::string& table_name, model::Control& c) {
  c.min = Number(ctx, t, "min", table_name);
  c.max = Number(ctx, t, "max", table_name);
  if (c.min && c.max && *c.min >= *c.max)
    ctx.Error(ctx.At(*t.get("min")), "control '" + c.name + "': min must be < max");
  for (const char* key : {"min", "max"})
    if (const auto v = key == std::string_view("min") ? c.min : c.max;
        v && c.unit == core::Unit::kRadian && std::abs(*v) > 1.6)
      ctx.Warn(ctx.At(*t.get(key)), "control '" + c.name + "' " + key + " = " + Format(*v) + " rad is " +
                                        Format(*v * core::kRadToDeg) + " deg; limits are in rad");
}

void ReadControls(ReadContext& ctx, const toml::table& root) {
  // An aircraft with no controls is valid: free response only.
  const toml::table* controls = OptionalTable(ctx, root, "controls", "a table of [controls.<name>] tables");
  if (controls == nullptr) return;
  // toml++ keeps keys sorted; file order is the order of the source lines.
  std::vector<std::pair<std::string, const toml::table*>> ordered;
  for (const auto& [key, value] : *controls) {
    const toml::table* t = value.as_table();
    if (t == nullptr) {
      ctx.Error(ctx.At(value), "'controls." + std::string(key.str()) + "' must be a table ([controls." +
                                   std::string(key.str()) + "])");
      continue;
    }
    ordered.emplace_back(std::string(key.str()), t);
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return a.second->source().begin.line < b.second->source().begin.line;
  });
  for (const auto& [name, t] : ordered) {
    const std::string table_name = "controls." + name;
    CheckKeys(ctx, *t, table_name, ControlKeys(ctx));
    model::Control c;
    c.name = name;
    model::AircraftData unused;  // a control row's setter writes the control only
    ReadControlUnit(ctx, *t, table_name, c);
    bool any = false;
    const double factor = PerDegreeFactor(ctx, *t, table_name, "X");  // every derivative of a control
    if (factor != 1.0 && c.unit != core::Unit::kRadian)
      ctx.Error(ctx.At(*t->get("per_degree")), "per_degree = true needs a deflection in degrees; control '" +
                                                   name + "' has unit = \"1\" (remove per_degree)");
    for (const Parameter* spec : ControlDerivatives()) {
      const auto v = Number(ctx, *t, spec->key, table_name);
      if (!t->contains(spec->key)) continue;
      const bool longitudinal = IsLongitudinalControlKey(spec->key);
      if (longitudinal ? ctx.lon_coefficients : ctx.lat_coefficients) continue;  // reported by CheckKeys
      any = true;
      (longitudinal ? c.longitudinal : c.lateral) = true;
      if (!v) continue;
      // Controls follow the form of the section their derivative enters.
      const bool raw = longitudinal ? ctx.written.longitudinal.raw : ctx.written.lateral.raw;
      const auto n = DerivativeToSI(ctx, *v, *spec, raw, ctx.At(*t->get(spec->key)));
      spec->set(unused, &c, (n ? *n : 0.0) * factor);
    }
    any = ReadControlCoefficients(ctx, *t, table_name, name, factor) || any;
    if (!any) {
      std::string keys;
      for (std::string_view k : ControlKeys(ctx))
        if (k != "unit" && k != "min" && k != "max" && k != "per_degree")
          keys.append(keys.empty() ? "" : " ").append(k);
      ctx.Error(ctx.At(*t), "control '" + name + "' has no derivative (give at least one of " + keys + ")");
    }
    ReadLimits(ctx, *t, table_name, c);
    ctx.written.controls.push_back(std::move(c));
  }
}

}  // namespace aerolin::data::read
