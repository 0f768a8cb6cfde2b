// AVL files (data/derivatives/README.md, "AVL files"): [aerodynamics] avl_st
// is the coefficient form with its numbers read from AVL's ST output
// (data/avl_coefficients.hpp); [mass] avl_mass reads AVL's mass file.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <span>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "aerolin/data/avl_coefficients.hpp"
#include "aerolin/data/avl_mass.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {

using core::Diagnostic;
using core::Dimension;
using core::UnitSystem;

namespace {

// SI factors of the unit names an AVL mass file's Lunit / Munit lines carry.
std::optional<double> AvlUnitToSI(std::string_view name, bool length) {
  static constexpr std::pair<std::string_view, double> kLength[] = {
      {"m", 1.0}, {"cm", 0.01}, {"mm", 0.001}, {"ft", core::kMetresPerFoot}, {"in", 0.0254}};
  static constexpr std::pair<std::string_view, double> kMass[] = {
      {"kg", 1.0}, {"g", 0.001}, {"lb", 0.45359237}, {"lbm", 0.45359237}, {"slug", core::kKilogramsPerSlug}};
  for (const auto& [unit, factor] : length ? std::span(kLength) : std::span(kMass))
    if (unit == name) return factor;
  return std::nullopt;
}

// SI factor of the unit name an AVL mass file's Tunit line carries.
std::optional<double> AvlTimeUnitToSI(std::string_view name) {
  if (name == "s") return 1.0;
  return std::nullopt;
}

// The .mass file's g and rho against the TOML's (README "AVL files"): both
// are written to a few digits (9.81, 0.38), so 2 % separates rounding from
// another condition or a unit slip (32.2 ft/s², 0.0024 slug/ft³), as for W
// against m g.
constexpr double kAvlMassConditionTolerance = 0.02;

// `file` as written in the TOML, relative to the TOML file's directory.
std::string Resolve(const ReadContext& ctx, const std::string& file) {
  const std::filesystem::path p(file);
  if (p.is_absolute()) return file;
  return (std::filesystem::path(ctx.path).parent_path() / p).lexically_normal().string();
}

// A defect of an AVL file: its own "file:line" when it has one; one it
// cannot be opened at all, at the TOML key that names it.
void ReportAvlError(ReadContext& ctx, const core::DataError& e, const toml::table& t,
                    std::string_view table_name, std::string_view key) {
  for (const Diagnostic& d : e.defects()) {
    if (d.where.line > 0) {
      ctx.errors.push_back(d);  // the AVL file's own line
    } else {
      ctx.Error(ctx.At(*t.get(key)), "[" + std::string(table_name) + "] " + std::string(key) + ": " +
                                         d.where.path + ": " + d.message +
                                         " (the path is relative to this TOML file)");
    }
  }
}

// Warns where the .mass file's g or rho (AVL's run-case defaults) differ
// from the TOML's condition; `L`, `M`: SI factors of its unit names.
void CheckAvlMassCondition(ReadContext& ctx, const AvlMass& avl, double L, double M) {
  const bool imperial = ctx.units == UnitSystem::kImperial;
  // A value in the TOML's units, for messages.
  auto in_toml_units = [&](double si, Dimension dim, const char* si_unit, const char* imperial_unit) {
    return Format(si / core::ToSIFactor(ctx.units, dim)) + " " + (imperial ? imperial_unit : si_unit);
  };
  // `written` (the mass file's number in `unit`), and its value in the TOML's
  // units when the two differ.
  auto as_written = [&](double written, const std::string& unit, double si, Dimension dim,
                        const char* si_unit, const char* imperial_unit) {
    const std::string toml = in_toml_units(si, dim, si_unit, imperial_unit);
    const std::string text = Format(written) + " " + unit;
    return toml == text ? text : text + " (" + toml + ")";
  };
  auto percent = [](double a, double b) { return Format(100.0 * std::abs(a - b) / std::abs(b)); };
  const std::string tolerance = Format(100.0 * kAvlMassConditionTolerance) + " %";
  if (avl.g) {
    const std::optional<double> T = AvlTimeUnitToSI(avl.time_unit_name);
    const std::string unit = avl.length_unit_name + "/" + avl.time_unit_name + "^2";
    if (!T) {
      ctx.Warn({avl.path, avl.g_line},
               "g: g = " + Format(*avl.g) + " " + unit + " cannot be compared with the TOML's g: the " +
                   "mass file's Tunit line names no time unit aerolin knows (s); add 'Tunit = 1.0 s'");
    } else if (const double g = *avl.g * L / (*T * *T);
               std::abs(g - ctx.si.g) > kAvlMassConditionTolerance * ctx.si.g) {
      ctx.Warn({avl.path, avl.g_line},
               "g: g = " + as_written(*avl.g, unit, g, core::kAcceleration, "m/s^2", "ft/s^2") +
                   " differs from the TOML's g = " +
                   in_toml_units(ctx.si.g, core::kAcceleration, "m/s^2", "ft/s^2") +
                   (ctx.si.condition_gives_g ? "" : " (standard gravity: [condition] gives no g)") + " by " +
                   percent(g, ctx.si.g) + " %, more than " + tolerance +
                   ": AVL's run case takes g from the mass file, so the .st's trim may be for another g; "
                   "aerolin uses the TOML's (make the two agree)");
    }
  }
  if (avl.rho) {
    // The TOML's density: [condition] rho, else the standard atmosphere at
    // its altitude (an altitude outside it is reported where rho is needed).
    std::optional<double> rho = ctx.si.rho;
    std::string from = "[condition] rho";
    if (!rho && ctx.si.altitude) {
      try {
        rho = model::StandardAtmosphere(*ctx.si.altitude).density;
        from = "the 1976 standard atmosphere at [condition] altitude";
      } catch (const std::out_of_range&) {
      }
    }
    const std::string unit = avl.mass_unit_name + "/" + avl.length_unit_name + "^3";
    if (const double written = *avl.rho * M / (L * L * L);
        rho && std::abs(written - *rho) > kAvlMassConditionTolerance * *rho)
      ctx.Warn({avl.path, avl.rho_line},
               "rho: rho = " + as_written(*avl.rho, unit, written, kDensity, "kg/m^3", "slug/ft^3") +
                   " differs from " + in_toml_units(*rho, kDensity, "kg/m^3", "slug/ft^3") + ", " + from +
                   ", by " + percent(written, *rho) + " %, more than " + tolerance +
                   ": AVL's run case takes its density from the mass file, so the .st's trim (CLtot) may "
                   "be for another density; aerolin uses the TOML's (make the two agree)");
  }
}

// Reports a key of [controls.NAME] beside avl_st that is not unit, min,
// max (or CD where the .st prints no drag row for control `st`).
void CheckAvlControlKey(ReadContext& ctx, std::string_view key, const toml::node& node, const AvlControl& st,
                        const std::string& table_name, const std::string& st_file) {
  if (key == "unit" || key == "min" || key == "max") return;
  if (key == "per_degree") {
    ctx.Error(ctx.At(node),
              "per_degree: AVL's control derivatives are always per degree of its control "
              "variable and are converted to per rad on load (remove per_degree)");
    return;
  }
  // AVL's own key of this derivative (Cmd4, CDffd4 ...), if the .st gives it.
  const std::string d = fmt::format("d{}", st.index);
  constexpr std::string_view kAlwaysGiven[] = {"CL", "CY", "Cl", "Cm", "Cn"};
  std::string given_as;
  if (std::find(std::begin(kAlwaysGiven), std::end(kAlwaysGiven), key) != std::end(kAlwaysGiven))
    given_as = std::string(key) + d;
  else if (key == "CD" && (st.CD || st.CDff))
    given_as = (st.CD ? "CD" : "CDff") + d;
  if (!given_as.empty()) {
    ctx.Error(ctx.At(node), "'" + std::string(key) + "' of control '" + st.name + "' is given twice: here " +
                                "and by " + st_file + ":" + std::to_string(ctx.avl.st->LineOf(given_as)) +
                                " (" + given_as + "); remove it here (the .st file's value is used)");
    return;
  }
  if (key == "CD") return;  // the .st prints no drag row for this control: ReadAvlControls reads it
  std::string message = "unknown key '" + std::string(key) + "' in [" + table_name + "] (";
  // A dimensional or force-family derivative is not a misspelt limit.
  const std::vector<const model::Parameter*> dimensional = ControlDerivatives();
  const bool derivative = key == "CX" || key == "CZ" ||
                          std::any_of(dimensional.begin(), dimensional.end(),
                                      [key](const model::Parameter* p) { return p->key == key; });
  if (const auto suggestion = Suggest(key, {"unit", "min", "max"}); suggestion && !derivative)
    message += "did you mean '" + *suggestion + "'?";
  else
    message += "beside avl_st a control takes min, max and unit; its derivatives come from " + st_file;
  ctx.Error(ctx.At(node), message + ")");
}

// [controls.NAME] beside avl_st: unit, limits (and CD where the .st prints
// no drag row) of the .st's controls, by AVL's names.
void ReadAvlControls(ReadContext& ctx, const toml::table& root) {
  const toml::table* controls = OptionalTable(ctx, root, "controls", "a table of [controls.<name>] tables");
  if (controls == nullptr) return;
  std::vector<std::string_view> names;
  std::string listed;
  for (const AvlControl& c : ctx.avl.st->controls) {
    names.push_back(c.name);
    listed += (listed.empty() ? "" : ", ") + c.name;
  }
  const std::string st_file = std::filesystem::path(ctx.avl.st->path).filename().string();
  for (const auto& [key, value] : *controls) {
    const std::string name(key.str());
    const std::string table_name = "controls." + name;
    const toml::table* t = value.as_table();
    if (t == nullptr) {
      ctx.Error(ctx.At(value), "'" + table_name + "' must be a table ([" + table_name + "])");
      continue;
    }
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      std::string message = "control '" + name + "' is not in " + st_file + " (its controls: " +
                            (listed.empty() ? std::string("none") : listed) + ")";
      if (const auto suggestion = Suggest(name, names))
        message += "; did you mean '" + *suggestion + "'?";
      ctx.Error(ctx.At(*t), message +
                                " ([controls.NAME] beside avl_st sets limits of AVL's controls, "
                                "by AVL's names)");
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(it - names.begin());
    const AvlControl& st = ctx.avl.st->controls[i];
    for (const auto& [entry, entry_node] : *t)
      CheckAvlControlKey(ctx, entry.str(), entry_node, st, table_name, st_file);
    model::Control& c = ctx.written.controls[i];
    model::ControlCoefficients& k = ctx.coefficients.controls[i];
    ReadControlUnit(ctx, *t, table_name, c);
    if (c.unit == core::Unit::kOne) {
      // AVL's control variable as it is (a gain other than 1 deg per unit):
      // its derivatives per unit as printed, undoing ToCoefficients' × 180/π.
      for (std::optional<double>* d : {&k.CL, &k.CD, &k.Cm, &k.CY, &k.Cl, &k.Cn})
        if (*d) **d /= core::kRadToDeg;
      ctx.avl.notes.push_back("control '" + name + "': unit = \"1\", its derivatives are per unit of "
                           "AVL's control variable as printed (not converted from per degree)");
    }
    if (!st.CD && !st.CDff)
      if (const auto cd = Number(ctx, *t, "CD", table_name))
        k.CD = *cd;  // per unit of the control (rad or "1"), as any coefficient-form control
    k.unit = c.unit;
    ReadLimits(ctx, *t, table_name, c);
    k.min = c.min;
    k.max = c.max;
  }
}

}  // namespace

void ReadAerodynamics(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* t = OptionalTable(ctx, root, "aerodynamics");
  if (t == nullptr) return;
  CheckKeys(ctx, *t, "aerodynamics", {"avl_st", "avl_length_unit"});
  const std::optional<std::string> file = String(ctx, *t, "avl_st", "aerodynamics", true);
  ctx.avl.requested = t->contains("avl_st");
  ctx.avl.st_node = t->get("avl_st");
  const std::optional<double> length_unit = Number(ctx, *t, "avl_length_unit", "aerodynamics");
  if (!t->contains("avl_length_unit")) {
    Missing(ctx, *t, "aerodynamics", "avl_length_unit",
            "AVL's Lunit in this file's length unit: 1.0 if the AVL geometry is in this file's "
            "unit, 0.3048 for an AVL geometry in feet read into an SI file");
  } else if (length_unit && *length_unit <= 0.0) {
    ctx.Error(ctx.At(*t->get("avl_length_unit")),
              "avl_length_unit must be > 0 (AVL's Lunit in this file's length unit, e.g. 0.3048 for "
              "an AVL geometry in feet read into an SI file)");
  }
  // The AVL file gives the derivatives, the reference geometry and the controls.
  for (const auto& [section, what] :
       {std::pair{"longitudinal", "the longitudinal derivatives"},
        std::pair{"lateral", "the lateral derivatives"},
        std::pair{"geometry", "Sref, Cref, Bref (S, c, b)"}})
    if (const toml::node* n = root.get(section))
      ctx.Error(ctx.At(*n), std::string("[") + section +
                                "] conflicts with [aerodynamics] avl_st, which gives " + what + " (remove [" +
                                section + "], or remove avl_st)");
  if (!ctx.avl.requested || !file || !length_unit || *length_unit <= 0.0 || !ctx.units_known) return;

  AvlCoefficients avl;
  try {
    const std::string path = Resolve(ctx, *file);
    AvlStability st = ReadAvlStabilityFile(path);
    ctx.files.push_back(path);
    avl = ToCoefficients(st, *length_unit);
    ctx.avl.st = std::move(st);
  } catch (const core::DataError& e) {
    ReportAvlError(ctx, e, *t, "aerodynamics", "avl_st");
    return;
  }
  // The file's coefficients; the condition (U0, ρ, g, θ0) and the mass are
  // the TOML's (ApplyCoefficients). Geometry in the TOML's length unit → SI.
  model::CoefficientsAsWritten& k = ctx.coefficients;
  k = std::move(avl.coefficients);
  ctx.si.S = core::ToSI(k.S, ctx.units, kArea);
  ctx.si.c = core::ToSI(k.c, ctx.units, core::kLength);
  ctx.si.b = core::ToSI(k.b, ctx.units, core::kLength);
  out.geometry.b = *ctx.si.b;
  if (!ctx.si.alpha0) ctx.si.alpha0 = k.alpha0;  // AVL's Alpha, unless [condition] gives alpha0
  ctx.lon_coefficients = ctx.lat_coefficients = true;
  ctx.written.longitudinal.raw = ctx.written.lateral.raw = true;  // filled by ApplyCoefficients
  ctx.written.longitudinal.form = ctx.written.lateral.form = model::AngleForm::kVelocity;
  ctx.lateral_primed = false;
  for (const model::ControlCoefficients& control : k.controls) {
    model::Control c;
    c.name = control.name;
    c.unit = core::Unit::kRadian;
    ctx.written.controls.push_back(std::move(c));
  }
  ctx.avl.notes = std::move(avl.notes);
  ReadAvlControls(ctx, root);
}

bool ReadAvlMass(ReadContext& ctx, const toml::table& t) {
  const std::size_t errors_before = ctx.errors.size();
  const std::optional<std::string> file = String(ctx, t, "avl_mass", "mass", false);
  if (!t.contains("avl_mass")) return false;
  for (const char* key : {"m", "W", "Ix", "Iy", "Iz", "Ixz"})
    if (const toml::node* n = t.get(key))
      ctx.Error(ctx.At(*n), std::string("'") + key +
                                "' conflicts with avl_mass, which gives the mass and "
                                "inertias (remove one)");
  if (const auto axes = String(ctx, t, "axes", "mass", false); axes && *axes != "body")
    ctx.Error(ctx.At(*t.get("axes")),
              "avl_mass gives body-axis inertias (AVL's geometry axes turned 180 deg "
              "about y); remove axes or write axes = \"body\"");
  if (!ctx.si.alpha0 && !ctx.avl.requested)  // with avl_st, its own error says why there is no Alpha
    ctx.Error(ctx.At(*t.get("avl_mass")),
              "avl_mass needs the trim angle of attack to rotate its body-axis inertias into stability "
              "axes: [condition] alpha0_deg (or alpha0), or [aerodynamics] avl_st (its Alpha)");
  if (!file || !ctx.si.alpha0 || ctx.errors.size() != errors_before || !ctx.units_known) return true;
  AvlMass avl;
  try {
    const std::string path = Resolve(ctx, *file);
    avl = ReadAvlMassFile(path);
    ctx.files.push_back(path);
  } catch (const core::DataError& e) {
    ReportAvlError(ctx, e, t, "mass", "avl_mass");
    return true;
  }
  const std::optional<double> L = AvlUnitToSI(avl.length_unit_name, true);
  const std::optional<double> M = AvlUnitToSI(avl.mass_unit_name, false);
  if (!L || !M) {
    ctx.Error({avl.path, 1}, std::string("aerolin needs the ") + (!L ? "Lunit" : "Munit") +
                                 " line with its unit name to convert the totals, e.g. " +
                                 (!L ? "'Lunit = 0.3048 m' (m, cm, mm, ft, in)"
                                     : "'Munit = 0.4536 kg' (kg, g, lb, lbm, slug)"));
    return true;
  }
  const AvlMassBodyAxes body = ToBodyAxes(avl);
  model::MassProperties mass;
  mass.m = body.m * *M;
  mass.Ix = body.Ix * *M * *L * *L;
  mass.Iy = body.Iy * *M * *L * *L;
  mass.Iz = body.Iz * *M * *L * *L;
  mass.Ixz = body.Ixz * *M * *L * *L;
  if (*mass.Ixz * *mass.Ixz >= *mass.Ix * *mass.Iz) {
    ctx.Error({avl.path, 1}, "Ixz² ≥ Ix·Iz for the totals: the inertia tensor is not positive definite");
    return true;
  }
  SetBodyInertias(ctx, mass);
  ctx.ixz_at = ctx.mass_at = ctx.At(*t.get("avl_mass"));
  CheckAvlMassCondition(ctx, avl, *L, *M);
  return true;
}

}  // namespace aerolin::data::read
