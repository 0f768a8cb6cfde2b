// Key provenance: every number the file gives, as written, with its factor
// to the SI field of the written form (model/as_written.hpp), so that
// sensitivities and sweeps vary a key as the user wrote it; what they leave
// out, with why.
#include <algorithm>
#include <filesystem>
#include <toml++/toml.h>

#include "read_context.hpp"

namespace aerolin::data::read {

using core::Dimension;
using model::Divisor;
using model::Parameter;

namespace {

// A coefficient file's key of [condition], [mass], [geometry] or of its
// coefficient sections (a field of coefficients), with its SI factor; a
// number it gives but sensitivities and sweeps leave out goes to `omitted`.
std::optional<model::WrittenKey> CoefficientKey(const ReadContext& ctx, const toml::table& t,
                                                std::string_view section, const std::string& prefix,
                                                std::string_view key,
                                                std::vector<model::OmittedKey>& omitted) {
  const std::string path = prefix + std::string(key);
  const double value = *t.get(key)->value<double>();
  auto si = [&](Dimension dim) { return model::WrittenKey{path, value, core::ToSIFactor(ctx.units, dim)}; };
  auto one = [&](double to_si) { return model::WrittenKey{path, value, to_si}; };
  auto omit = [&](std::string reason) -> std::optional<model::WrittenKey> {
    omitted.push_back({path, std::move(reason)});
    return std::nullopt;
  };
  if (section == "condition") {
    if (key == "U0") return si(core::kSpeed);
    if (key == "g") return si(core::kAcceleration);
    if (key == "rho") return si(kDensity);
    if (key == "theta0" || key == "alpha0" || key == "mach") return one(1.0);
    if (key == "theta0_deg" || key == "alpha0_deg") return one(core::kDegToRad);
    if (key == "altitude") {
      if (!ctx.si.rho || ctx.si.speed_of_sound)
        return omit(std::string("it gives ") + (!ctx.si.rho ? "rho" : "") + (!ctx.si.rho && ctx.si.speed_of_sound ? " and " : "") +
                    (ctx.si.speed_of_sound ? "the speed of sound for U0 = mach x a" : "") +
                    " through the 1976 standard atmosphere, which aerolin does not differentiate "
                    "(give rho" + (ctx.si.speed_of_sound ? " and U0" : "") + " to vary them)");
      return si(core::kLength);  // informational: rho and U0 are given
    }
    if (key == "W0")
      return omit("coefficients are in stability axes, where W0 = 0");
    return std::nullopt;
  }
  if (section == "mass") {
    if (key == "m") return si(core::kMass);
    if (key == "W") return si(core::kForce);
    return si(core::kInertia);  // Ix Iy Iz Ixz, about the file's axes
  }
  if (section == "geometry") return si(key == "S" ? kArea : core::kLength);
  if (key == "CXadot") return omit("it must be 0: aerolin's model has no X_wdot term");
  // A coefficient (per radian inside; per degree as written under per_degree = true).
  double to_si = 1.0;
  if (const auto it = ctx.per_degree.find(prefix.substr(0, prefix.size() - 1)); it != ctx.per_degree.end())
    if (section == "controls" || IsPerAngleKey(key)) to_si = it->second;
  return one(to_si);
}

// The TOML's own keys.
std::vector<model::WrittenKey> TomlKeys(const ReadContext& ctx, const toml::table& root,
                                        std::vector<model::OmittedKey>& omitted) {
  std::vector<model::WrittenKey> keys;
  // `raw(key)`: whether the key is in the raw form (a control's X, Z, M follow
  // [longitudinal], its Y, L, N [lateral]). `coefficient(key)`: whether it
  // sets a field of ctx.coefficients (CoefficientKey) rather than of ctx.written.
  auto add = [&](const toml::table& t, std::string_view section, const std::string& prefix,
                 auto raw, auto coefficient) {
    // toml++ keeps keys sorted; list them in file order.
    std::vector<std::pair<int, std::string_view>> present;
    for (const auto& [key, node] : t)
      if (node.is_number()) present.emplace_back(static_cast<int>(node.source().begin.line), key.str());
    std::sort(present.begin(), present.end());
    for (const auto& [line, key] : present) {
      if (coefficient(key)) {
        if (auto k = CoefficientKey(ctx, t, section, prefix, key, omitted)) keys.push_back(std::move(*k));
        continue;
      }
      const Parameter* row = model::FindParameter(section, key);
      if (row == nullptr) continue;
      // Body-axis Ix, Iz, Ixz of a dimensional file reach the model through the
      // rotation, which MatricesOf does not model: not offered.
      if (ctx.si.inertias_rotated && section == "mass" && (key == "Ix" || key == "Iz" || key == "Ixz")) {
        omitted.push_back({prefix + std::string(key),
                           "a body-axis inertia of a dimensional file reaches A through the rotation by "
                           "alpha0, which sensitivities and sweeps model for coefficient files only"});
        continue;
      }
      Dimension dim = row->dimension;
      if (row->divisor != Divisor::kNone && raw(key))
        dim = dim * (row->divisor == Divisor::kMass ? core::kMass : core::kInertia);
      double to_si = core::ToSIFactor(ctx.units, dim);
      if (key == "theta0_deg") to_si = core::kDegToRad;
      // Dimensionless, or a limit in the control's own unit.
      if (key == "mach" || (section == "controls" && row->divisor == Divisor::kNone)) to_si = 1.0;
      // per_degree = true: the file's value is per degree (PerDegreeFactor, read on load).
      if (const auto it = ctx.per_degree.find(prefix.substr(0, prefix.size() - 1)); it != ctx.per_degree.end())
        if (row->divisor != Divisor::kNone && (section == "controls" || IsPerAngleKey(key)))
          to_si *= it->second;
      keys.push_back({prefix + std::string(key), *t.get(key)->template value<double>(), to_si});
    }
  };
  const bool lon_raw = ctx.written.longitudinal.raw, lat_raw = ctx.written.lateral.raw;
  const bool coefficients = ctx.lon_coefficients || ctx.lat_coefficients;
  for (std::string_view section : {"condition", "mass", "geometry", "longitudinal", "lateral"}) {
    // A coefficient file's [condition], [mass], [geometry] enter through ToDimensional.
    const bool from_coefficients = section == "longitudinal" ? ctx.lon_coefficients
                                   : section == "lateral"    ? ctx.lat_coefficients
                                                             : coefficients;
    if (section == "geometry" && !coefficients) continue;  // b is informational there
    if (const toml::table* t = root[section].as_table())
      add(
          *t, section, std::string(section) + ".",
          [&](std::string_view) { return section == "longitudinal" ? lon_raw : lat_raw; },
          [&](std::string_view) { return from_coefficients; });
  }
  if (const toml::table* controls = root["controls"].as_table()) {
    std::vector<std::pair<int, std::string>> ordered;
    for (const auto& [name, value] : *controls)
      if (value.is_table())
        ordered.emplace_back(static_cast<int>(value.source().begin.line), std::string(name.str()));
    std::sort(ordered.begin(), ordered.end());
    for (const auto& [line, name] : ordered)
      add(
          *(*controls)[name].as_table(), "controls", "controls." + name + ".",
          [&](std::string_view key) { return IsLongitudinalControlKey(key) ? lon_raw : lat_raw; },
          [&](std::string_view key) { return IsControlCoefficientKey(key); });
  }
  return keys;
}

// An AVL file's .st numbers that reach A, as keys "avl.NAME" (AVL's
// names) and "avl.CONTROL.{CL,CD,CY,Cl,Cm,Cn}"; what does not, in `omitted`.
std::vector<model::WrittenKey> AvlKeys(const ReadContext& ctx, const toml::table& root,
                                       std::vector<model::OmittedKey>& omitted) {
  const AvlStability& st = *ctx.avl.st;
  const model::CoefficientsAsWritten& k = ctx.coefficients;
  const std::string st_file = std::filesystem::path(st.path).filename().string();
  std::vector<model::WrittenKey> keys;
  auto add = [&](const std::string& name, double value, double to_si) {
    keys.push_back({"avl." + name, value, to_si});
  };
  auto omit = [&](const std::string& name, std::string reason) {
    omitted.push_back({"avl." + name, std::move(reason)});
  };
  // Geometry: Lunit × avl_length_unit → the TOML's unit → SI (k.S, k.c, k.b are SI).
  const double length_unit = *root["aerodynamics"]["avl_length_unit"].value<double>();
  const double length = length_unit * core::ToSIFactor(ctx.units, core::kLength);
  const double area = length_unit * length_unit * core::ToSIFactor(ctx.units, kArea);
  omitted.push_back({"aerodynamics.avl_length_unit",
                     "it scales Sref, Cref and Bref together; vary avl.Sref, avl.Cref, avl.Bref"});
  add("Sref", st.Sref, area);
  add("Cref", st.Cref, length);
  add("Bref", st.Bref, length);
  // AVL's Alpha rotates body-axis inertias (avl_mass, or [mass] axes = "body")
  // unless [condition] gives alpha0.
  const toml::table* condition = root["condition"].as_table();
  const bool condition_alpha0 =
      condition != nullptr && (condition->contains("alpha0") || condition->contains("alpha0_deg"));
  if (k.axes == model::InertiaAxes::kBody && !condition_alpha0)
    add("Alpha", st.alpha_deg, core::kDegToRad);
  else
    omit("Alpha", condition_alpha0 ? "[condition] alpha0 rotates the inertias in its place"
                                   : "it only rotates body-axis inertias, and this file's are in stability axes");
  // Without a printed CDa, the load estimates it as 2 CDind CLa / CLtot
  // (ToCoefficients); the chain holds CDa as a number, so CLa and CLtot, which
  // move the estimate when the .st is edited, are not offered.
  if (st.CDa) {
    add("CLtot", st.CLtot, 1.0);
    add("CLa", st.CLa, 1.0);
    add("CDa", *st.CDa, 1.0);
  } else {
    const std::string estimate = st_file + " prints no CDa, so the load estimates it as 2 CDind CLa / CLtot, ";
    omit("CLtot", estimate + "which sensitivities and sweeps hold fixed (a file that prints CDa, as AVL 3.52's "
                             "do, offers CLtot and CLa)");
    omit("CLa", estimate + "which sensitivities and sweeps hold fixed (a file that prints CDa, as AVL 3.52's "
                           "do, offers CLtot and CLa)");
    omit("CDa", estimate + "not a number of the file");
  }
  add("CDtot", st.CDtot, 1.0);
  for (const auto& [name, value] : {std::pair{"Cma", st.Cma}, std::pair{"CLq", st.CLq}, std::pair{"Cmq", st.Cmq}})
    add(name, value, 1.0);
  if (st.CDq) add("CDq", *st.CDq, 1.0);
  for (const auto& [name, value] :
       {std::pair{"CYb", st.CYb}, std::pair{"CYp", st.CYp}, std::pair{"CYr", st.CYr}, std::pair{"Clb", st.Clb},
        std::pair{"Clp", st.Clp}, std::pair{"Clr", st.Clr}, std::pair{"Cnb", st.Cnb}, std::pair{"Cnp", st.Cnp},
        std::pair{"Cnr", st.Cnr}})
    add(name, value, 1.0);
  // Controls: per degree as printed (× 180/π inside), or per unit with unit = "1".
  for (std::size_t i = 0; i < st.controls.size() && i < k.controls.size(); ++i) {
    const AvlControl& c = st.controls[i];
    const double to_si = k.controls[i].unit == core::Unit::kOne ? 1.0 : core::kRadToDeg;
    for (const auto& [name, value] : {std::pair{"CL", c.CL}, std::pair{"CY", c.CY}, std::pair{"Cl", c.Cl},
                                      std::pair{"Cm", c.Cm}, std::pair{"Cn", c.Cn}})
      add(c.name + "." + name, value, to_si);
    if (c.CD || c.CDff) add(c.name + ".CD", c.CD ? *c.CD : *c.CDff, to_si);  // else [controls.NAME] CD, a TOML key
  }
  omitted.push_back({"avl (other numbers)",
                     "CDind (only through the CDa estimate), Mach, Xnp and the cross-axis derivatives (CLb, Cla, "
                     "Cmb, Cna, CLp, CLr, CYa, CYq, Clq, Cmp, Cmr, Cnq, dropped by the decoupled model) of " +
                         st_file + " do not enter A"});
  return keys;
}

}  // namespace

std::vector<model::WrittenKey> WrittenKeys(const ReadContext& ctx, const toml::table& root,
                                           std::vector<model::OmittedKey>& omitted) {
  // An AVL file: its TOML's keys, then the .st's numbers.
  std::vector<model::WrittenKey> keys = TomlKeys(ctx, root, omitted);
  if (ctx.avl.st) {
    std::vector<model::WrittenKey> avl = AvlKeys(ctx, root, omitted);
    keys.insert(keys.end(), std::make_move_iterator(avl.begin()), std::make_move_iterator(avl.end()));
  }
  return keys;
}

}  // namespace aerolin::data::read
