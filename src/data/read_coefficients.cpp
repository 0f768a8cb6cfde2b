// [longitudinal], [lateral] and [controls.NAME] with form = "coefficients"
// (data/derivatives/README.md, "Coefficient form"): nondimensional
// coefficients, converted to dimensional derivatives by the model
// (model/coefficients.hpp) once [condition], [mass] and [geometry] are read.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "read_context.hpp"

namespace aerolin::data::read {

using core::Dimension;
using model::Parameter;

namespace {

// Coefficient keys as written; case matters (Cl is the rolling moment, CL the lift).
constexpr std::string_view kForceFamilyKeys[] = {"CXu", "CXa", "CXq", "CXadot",
                                                  "CZu", "CZa", "CZq", "CZadot"};
constexpr std::string_view kLiftDragFamilyKeys[] = {"CL0", "CD0", "CLu", "CDu", "CLa",
                                                     "CDa", "CLq", "CLadot", "CDq"};
constexpr std::string_view kPitchCoefficientKeys[] = {"Cmu", "Cma", "Cmq", "Cmadot"};
// Required keys of each family; the others (CXq CXadot CZadot | CL0 CLadot CDq) default to 0
// (CL0 to C_W0 cos θ0).
constexpr std::string_view kForceFamilyRequired[] = {"CXu", "CXa", "CZu", "CZa", "CZq",
                                                      "Cmu", "Cma", "Cmq", "Cmadot"};
constexpr std::string_view kLiftDragFamilyRequired[] = {"CD0", "CLu", "CDu", "CLa", "CDa", "CLq",
                                                         "Cmu", "Cma", "Cmq", "Cmadot"};
constexpr std::string_view kLateralCoefficientKeys[] = {"CYb", "CYp", "CYr", "Clb", "Clp",
                                                         "Clr", "Cnb", "Cnp", "Cnr"};
// A control's coefficients: the longitudinal family's two forces and Cm, the
// lateral CY Cl Cn.
constexpr std::string_view kControlForce[] = {"CX", "CZ"}, kControlLiftDrag[] = {"CL", "CD"};
constexpr std::string_view kControlPitch = "Cm";
constexpr std::string_view kControlLateral[] = {"CY", "Cl", "Cn"};
constexpr double kLiftCoefficientTolerance = 0.05;  // CL0 vs C_W0 cos θ0, relative

template <std::size_t N>
bool Contains(const std::string_view (&keys)[N], std::string_view key) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}

// The earliest (by line) of `keys` present in `t`, or nullptr.
template <std::size_t N>
const toml::node* FirstPresent(const toml::table& t, const std::string_view (&keys)[N]) {
  const toml::node* first = nullptr;
  for (std::string_view k : keys)
    if (const toml::node* n = t.get(k); n && (!first || n->source().begin.line < first->source().begin.line))
      first = n;
  return first;
}

}  // namespace

bool IsControlCoefficientKey(std::string_view key) {
  return Contains(kControlForce, key) || Contains(kControlLiftDrag, key) || key == kControlPitch ||
         Contains(kControlLateral, key);
}

bool IsCoefficientForm(const toml::table& section) {
  const toml::node* form = section.get("form");
  return form != nullptr && form->value<std::string>() == "coefficients";
}

std::optional<std::string> KeyHint(const ReadContext& ctx, std::string_view key,
                                   std::string_view table_name) {
  const bool control = table_name.rfind("controls.", 0) == 0;
  if (!control && table_name != "longitudinal" && table_name != "lateral") return std::nullopt;
  // Which section's coefficient `key` is (longitudinal or lateral), if any.
  const bool lon_key =
      control ? Contains(kControlForce, key) || Contains(kControlLiftDrag, key) || key == kControlPitch
              : table_name == "longitudinal" &&
                    (Contains(kForceFamilyKeys, key) || Contains(kLiftDragFamilyKeys, key) ||
                     Contains(kPitchCoefficientKeys, key));
  const bool lat_key = control ? Contains(kControlLateral, key)
                               : table_name == "lateral" && Contains(kLateralCoefficientKeys, key);
  auto not_coefficients = [&](const char* section) {
    return fmt::format("'{}' is a nondimensional coefficient: write form = \"coefficients\" in [{}] to give "
                       "coefficients, or give the dimensional derivative",
                       key, section);
  };
  if (lon_key && !ctx.lon_coefficients) return not_coefficients("longitudinal");
  if (lat_key && !ctx.lat_coefficients) return not_coefficients("lateral");
  if (control && lon_key && key != kControlPitch) {
    const bool lift_drag = ctx.coefficients.family == model::LongitudinalFamily::kLiftDrag;
    if (lift_drag != Contains(kControlLiftDrag, key))
      return fmt::format("'{}' belongs to the {} family; [longitudinal] gives the {}", key,
                         lift_drag ? "force" : "lift/drag",
                         lift_drag ? "lift/drag family: use CL CD Cm" : "force family: use CX CZ Cm");
  }
  // A case slip between two coefficients (Cl rolling moment vs CL lift): say so.
  if (control)
    for (std::string_view k : ControlKeys(ctx))
      if (k != key && k.size() == key.size() &&
          std::equal(k.begin(), k.end(), key.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
          }))
        return "case matters: did you mean '" + std::string(k) + "'?";
  return std::nullopt;
}

void ReadLongitudinalCoefficients(ReadContext& ctx, const toml::table& t) {
  std::vector<std::string_view> allowed = {"form", "per_degree"};
  for (auto keys : {std::span<const std::string_view>(kForceFamilyKeys),
                    std::span<const std::string_view>(kLiftDragFamilyKeys),
                    std::span<const std::string_view>(kPitchCoefficientKeys)})
    allowed.insert(allowed.end(), keys.begin(), keys.end());
  ctx.lon_coefficients = true;
  CheckKeys(ctx, t, "longitudinal", allowed, "control coefficients go in a [controls.<name>] table");
  const toml::node* force = FirstPresent(t, kForceFamilyKeys);
  const toml::node* lift_drag = FirstPresent(t, kLiftDragFamilyKeys);
  model::CoefficientsAsWritten& k = ctx.coefficients;
  if (force && lift_drag) {
    const bool force_first = force->source().begin.line < lift_drag->source().begin.line;
    const toml::node* second = force_first ? lift_drag : force;
    // The first family seen decides the controls' keys (one error, not one per control key).
    k.family = force_first ? model::LongitudinalFamily::kForce : model::LongitudinalFamily::kLiftDrag;
    ctx.Error(ctx.At(*second),
              "both force-family (CXu CXa CXq CXadot CZu CZa CZq CZadot) and "
              "lift/drag-family (CL0 CD0 CLu CDu CLa CDa CLq CLadot CDq) coefficients "
              "given; use one family per file");
    return;
  }
  k.family = lift_drag ? model::LongitudinalFamily::kLiftDrag : model::LongitudinalFamily::kForce;
  const bool ld = k.family == model::LongitudinalFamily::kLiftDrag;
  for (std::string_view key : ld ? std::span<const std::string_view>(kLiftDragFamilyRequired)
                                 : std::span<const std::string_view>(kForceFamilyRequired))
    if (!t.contains(key))
      Missing(ctx, t, "longitudinal", key, "required coefficient; write 0.0 if the source neglects it");
  auto get = [&](std::string_view key) {
    return Number(ctx, t, key, "longitudinal").value_or(0.0) * PerDegreeFactor(ctx, t, "longitudinal", key);
  };
  k.CXu = get("CXu"); k.CXa = get("CXa"); k.CXq = get("CXq"); k.CXadot = get("CXadot");
  k.CZu = get("CZu"); k.CZa = get("CZa"); k.CZq = get("CZq"); k.CZadot = get("CZadot");
  if (t.contains("CL0")) k.CL0 = get("CL0");
  k.CD0 = get("CD0"); k.CLu = get("CLu"); k.CDu = get("CDu"); k.CLa = get("CLa");
  k.CDa = get("CDa"); k.CLq = get("CLq"); k.CLadot = get("CLadot"); k.CDq = get("CDq");
  k.Cmu = get("Cmu"); k.Cma = get("Cma"); k.Cmq = get("Cmq"); k.Cmadot = get("Cmadot");
  if (k.CXadot != 0.0)
    ctx.Error(ctx.At(*t.get("CXadot")),
              "CXadot must be 0: aerolin's model has no X_wdot term "
              "(Etkin & Reid Table 6.1 and most sources set it to 0)");
  ctx.written.longitudinal.raw = true;  // filled by ApplyCoefficients
  ctx.written.longitudinal.form = model::AngleForm::kVelocity;
}

void ReadLateralCoefficients(ReadContext& ctx, const toml::table& t) {
  std::vector<std::string_view> allowed = {"form", "per_degree", "primed"};
  allowed.insert(allowed.end(), std::begin(kLateralCoefficientKeys), std::end(kLateralCoefficientKeys));
  ctx.lat_coefficients = true;
  CheckKeys(ctx, t, "lateral", allowed, "control coefficients go in a [controls.<name>] table");
  if (const toml::node* primed = t.get("primed"))
    ctx.Error(ctx.At(*primed),
              "coefficients are never primed (remove 'primed'; aerolin couples L and N "
              "through [mass] Ixz)");
  for (std::string_view key : kLateralCoefficientKeys)
    if (!t.contains(key))
      Missing(ctx, t, "lateral", key, "required coefficient; write 0.0 if the source neglects it");
  auto get = [&](std::string_view key) {
    return Number(ctx, t, key, "lateral").value_or(0.0) * PerDegreeFactor(ctx, t, "lateral", key);
  };
  model::CoefficientsAsWritten& k = ctx.coefficients;
  k.CYb = get("CYb"); k.CYp = get("CYp"); k.CYr = get("CYr");
  k.Clb = get("Clb"); k.Clp = get("Clp"); k.Clr = get("Clr");
  k.Cnb = get("Cnb"); k.Cnp = get("Cnp"); k.Cnr = get("Cnr");
  ctx.written.lateral.raw = true;  // filled by ApplyCoefficients
  ctx.written.lateral.form = model::AngleForm::kVelocity;
  ctx.lateral_primed = false;
}

std::vector<std::string_view> ControlKeys(const ReadContext& ctx) {
  std::vector<std::string_view> keys;
  auto derivatives = [&keys](bool longitudinal) {
    for (const Parameter* p : ControlDerivatives())
      if (IsLongitudinalControlKey(p->key) == longitudinal) keys.push_back(p->key);
  };
  if (!ctx.lon_coefficients) {
    derivatives(true);
  } else {
    const std::span<const std::string_view> forces =
        ctx.coefficients.family == model::LongitudinalFamily::kLiftDrag ? std::span(kControlLiftDrag)
                                                                        : std::span(kControlForce);
    keys.insert(keys.end(), forces.begin(), forces.end());
    keys.push_back(kControlPitch);
  }
  if (!ctx.lat_coefficients)
    derivatives(false);
  else
    keys.insert(keys.end(), std::begin(kControlLateral), std::end(kControlLateral));
  keys.insert(keys.end(), {"unit", "min", "max", "per_degree"});
  return keys;
}

bool ReadControlCoefficients(ReadContext& ctx, const toml::table& t, const std::string& table_name,
                             const std::string& name, double factor) {
  model::ControlCoefficients c;
  c.name = name;
  bool any = false;
  auto read = [&](std::optional<double>& field, std::string_view key) {
    if (!t.contains(key)) return;
    any = true;
    field = Number(ctx, t, key, table_name).value_or(0.0) * factor;
  };
  if (ctx.lon_coefficients) {
    if (ctx.coefficients.family == model::LongitudinalFamily::kLiftDrag) {
      read(c.CL, "CL");
      read(c.CD, "CD");
    } else {
      read(c.CX, "CX");
      read(c.CZ, "CZ");
    }
    read(c.Cm, "Cm");
  }
  if (ctx.lat_coefficients) {
    read(c.CY, "CY");
    read(c.Cl, "Cl");
    read(c.Cn, "Cn");
  }
  ctx.coefficients.controls.push_back(std::move(c));
  return any;
}

void ApplyCoefficients(ReadContext& ctx, const toml::table& root) {
  if (!ctx.lon_coefficients && !ctx.lat_coefficients) return;
  if (!ctx.units_known) return;
  const std::string needs = "form = \"coefficients\" needs ";
  auto table = [&](const char* name) -> const toml::table* {
    const toml::table* t = root[name].as_table();
    if (t == nullptr)
      ctx.Error({ctx.path, 1}, std::string("missing table [") + name + "] (" + needs +
                                   (std::string_view(name) == "geometry" ? "S, c, b" : "m or W, Ix, Iy, Iz") +
                                   ")");
    return t;
  };
  const toml::table* condition = root["condition"].as_table();
  static const toml::table kNoGeometry;  // [aerodynamics] avl_st: S, c, b from the AVL file
  const toml::table* geometry = ctx.avl.st ? &kNoGeometry : table("geometry");
  const toml::table* mass_table = table("mass");
  if (condition == nullptr || geometry == nullptr || mass_table == nullptr) return;

  model::CoefficientsAsWritten& k = ctx.coefficients;
  if (ctx.si.rho) {
    k.rho = *ctx.si.rho;
  } else if (ctx.si.altitude) {
    if (const auto atmosphere = StandardAtmosphereAt(ctx, *condition->get("altitude"), *ctx.si.altitude, "rho"))
      k.rho = atmosphere->density;
  } else {
    Missing(ctx, *condition, "condition", "rho",
            needs + "the air density: rho, or altitude for the 1976 standard atmosphere");
  }
  if (ctx.si.W0 != 0.0)
    ctx.Error(ctx.At(*condition->get("W0")),
              "W0 must be 0 with form = \"coefficients\" (coefficients are "
              "in stability axes; give body-axis inertias with [mass] "
              "axes = \"body\" and alpha0)");
  if (!ctx.si.S && !geometry->contains("S")) Missing(ctx, *geometry, "geometry", "S", needs + "the reference area");
  if (ctx.lon_coefficients && !ctx.si.c && !geometry->contains("c"))
    Missing(ctx, *geometry, "geometry", "c", needs + "the mean aerodynamic chord");
  if (ctx.lat_coefficients && !ctx.si.b && !geometry->contains("b"))
    Missing(ctx, *geometry, "geometry", "b", needs + "the span");
  const model::MassProperties& mass = ctx.written.mass;
  if (mass_table->contains("avl_mass")) {
    // ReadAvlMass gave the mass and inertias, or said why not.
  } else if (!mass.m && !mass_table->contains("m") && !mass_table->contains("W"))
    Missing(ctx, *mass_table, "mass", "m", needs + "the mass m or the weight W");
  for (const auto& [key, value, wanted] :
       {std::tuple{"Iy", mass.Iy, ctx.lon_coefficients}, std::tuple{"Ix", mass.Ix, ctx.lat_coefficients},
        std::tuple{"Iz", mass.Iz, ctx.lat_coefficients}})
    if (wanted && !value && !mass_table->contains(key) && !mass_table->contains("avl_mass"))
      Missing(ctx, *mass_table, "mass", key, needs + "the moments of inertia");
  if (!ctx.errors.empty()) return;

  k.name = ctx.written.name;
  k.U0 = ctx.si.U0;
  k.theta0 = ctx.si.theta0;
  k.g = ctx.si.g;
  k.altitude = ctx.si.altitude;
  k.mach = ctx.si.mach;
  k.S = ctx.si.S.value_or(0.0);
  k.c = ctx.si.c.value_or(1.0);  // unused without longitudinal coefficients
  k.b = ctx.si.b.value_or(1.0);  // unused without lateral coefficients
  k.speed_of_sound = ctx.si.speed_of_sound;  // U0 = mach · a(altitude) when the file gives no U0
  // m = W/g when the file gives W alone: left to ToDimensional, so that m moves with W.
  k.m = ctx.si.W && !mass_table->contains("m") && !mass_table->contains("avl_mass") ? std::nullopt : mass.m;
  k.W = ctx.si.W;
  k.Ix = mass.Ix.value_or(1.0);  // absent: unused (only the other section's coefficients need it)
  k.Iy = mass.Iy.value_or(1.0);
  k.Iz = mass.Iz.value_or(1.0);
  k.Ixz = mass.Ixz.value_or(0.0);
  k.axes = model::InertiaAxes::kStability;
  k.alpha0 = ctx.si.alpha0;  // [condition]'s, else AVL's Alpha; used by kBody only
  if (ctx.si.inertias_rotated && ctx.si.body_mass) {
    // As the file gives them (body axes); ToDimensional rotates them by α0 as
    // ReadMassExtras / ReadAvlMass did (W0 = 0 here), so that α0 and the
    // body-axis values are keys of the chain.
    k.Ix = *ctx.si.body_mass->Ix;
    k.Iz = *ctx.si.body_mass->Iz;
    k.Ixz = *ctx.si.body_mass->Ixz;
    k.axes = model::InertiaAxes::kBody;
  }
  model::AircraftAsWritten dimensional;
  try {
    dimensional = model::ToDimensional(k);
  } catch (const std::invalid_argument& e) {
    ctx.Error(ctx.avl.st ? ctx.At(*ctx.avl.st_node)
                         : ctx.At(*root.get(ctx.lon_coefficients ? "longitudinal" : "lateral")),
              e.what());
    return;
  }
  dimensional.mass = mass;  // as the file gives it (absent stays absent)
  if (ctx.lon_coefficients) ctx.written.longitudinal = dimensional.longitudinal;
  if (ctx.lat_coefficients) ctx.written.lateral = dimensional.lateral;
  for (std::size_t i = 0; i < ctx.written.controls.size() && i < dimensional.controls.size(); ++i) {
    model::Control& c = ctx.written.controls[i];
    const model::Control& d = dimensional.controls[i];
    if (ctx.lon_coefficients) {
      c.X = d.X, c.Z = d.Z, c.M = d.M;
      c.longitudinal = d.longitudinal;
    }
    if (ctx.lat_coefficients) {
      c.Y = d.Y, c.L = d.L, c.N = d.N;
      c.lateral = d.lateral;
    }
  }
  // A printed C_L0 is used as printed; it should carry the weight.
  if (ctx.lon_coefficients && k.CL0) {
    const double expected = model::WeightCoefficient(k) * std::cos(k.theta0);
    if (std::abs(*k.CL0 - expected) > kLiftCoefficientTolerance * std::abs(expected) && ctx.avl.st)
      ctx.Warn({ctx.avl.st->path, ctx.avl.st->LineOf("CLtot")},
               "CLtot = " + Format(*k.CL0) +
                   " (AVL's trim lift) differs from C_W0 cos(theta0) = "
                   "W/(0.5 rho U0^2 S) cos(theta0) = " +
                   Format(expected) + " of the TOML's condition and mass by " +
                   Format(100.0 * (*k.CL0 - expected) / expected) +
                   "%: the TOML's U0, rho (or altitude), m and g should be AVL's run case; CLtot is used as "
                   "written");
    else if (std::abs(*k.CL0 - expected) > kLiftCoefficientTolerance * std::abs(expected))
      ctx.Warn(
          ctx.At(*root["longitudinal"].as_table()->get("CL0")),
          "CL0 = " + Format(*k.CL0) + " differs from C_W0 cos(theta0) = W/(0.5 rho U0^2 S) cos(theta0) = " +
              Format(expected) + " by " + Format(100.0 * (*k.CL0 - expected) / expected) +
              "%: the trim lift should carry the weight (check W or m, rho, U0, S); CL0 is used as written");
  }
  // Only what came from coefficients: a section given dimensionally is left
  // default (raw = false), which the display skips (export/dimensional_text.hpp).
  if (!ctx.lon_coefficients) dimensional.longitudinal = {};
  if (!ctx.lat_coefficients) dimensional.lateral = {};
  for (model::Control& c : dimensional.controls) {
    c.longitudinal = c.longitudinal && ctx.lon_coefficients;
    c.lateral = c.lateral && ctx.lat_coefficients;
  }
  ctx.from_coefficients = dimensional;
}

}  // namespace aerolin::data::read
