// The sections every form shares: [aircraft], [condition] (with the standard
// atmosphere for U0 = mach · a), [mass] (with body-axis inertias rotated into
// stability axes) and [geometry].
#include <cmath>
#include <stdexcept>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "aerolin/model/airplane_class.hpp"
#include "aerolin/model/inertia_axes.hpp"
#include "aerolin/core/messages.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {

using core::Dimension;

std::optional<model::AtmosphereState> StandardAtmosphereAt(ReadContext& ctx, const toml::node& at,
                                                           double altitude, const char* instead) {
  try {
    return model::StandardAtmosphere(altitude);
  } catch (const std::out_of_range&) {
    ctx.Error(ctx.At(at), "altitude " + Format(altitude) + " m is outside the 1976 standard atmosphere (" +
                              Format(model::kStandardAtmosphereFloor) + " m to " +
                              Format(model::kStandardAtmosphereCeiling) + " m): give " + instead);
    return std::nullopt;
  }
}

void SetBodyInertias(ReadContext& ctx, const model::MassProperties& body) {
  // From body axes to the derivatives' axes: by α0 for stability axes (W0 = 0),
  // by α0 − atan(W0/U0) for axes that carry a W0 (model/inertia_axes.hpp).
  ctx.si.body_mass = body;
  ctx.written.mass = model::RotateInertias(body, *ctx.si.alpha0 - std::atan2(ctx.si.W0, ctx.si.U0));
  ctx.si.inertias_rotated = true;
}

namespace {

void ReadConditionExtras(ReadContext& ctx, const toml::table& t, model::FlightCondition& fc) {
  ctx.si.g = fc.g;
  ctx.si.condition_gives_g = t.contains("g");
  ctx.si.W0 = fc.W0;
  ctx.si.theta0 = fc.theta0;
  ctx.si.altitude = fc.altitude;
  ctx.si.mach = fc.mach;
  if (auto rho = Number(ctx, t, "rho", "condition")) {
    if (*rho <= 0.0)
      ctx.Error(ctx.At(*t.get("rho")), "rho (air density) must be > 0");
    else if (ctx.units_known)
      ctx.si.rho = core::ToSI(*rho, ctx.units, kDensity);
  }
  const auto alpha_rad = Number(ctx, t, "alpha0", "condition");
  const auto alpha_deg = Number(ctx, t, "alpha0_deg", "condition");
  if (t.contains("alpha0") && t.contains("alpha0_deg")) {
    ctx.Error(ctx.At(*t.get("alpha0_deg")), "both alpha0 and alpha0_deg given (keep one)");
  } else if (alpha_rad || alpha_deg) {
    const double alpha0 = alpha_rad ? *alpha_rad : *alpha_deg * core::kDegToRad;
    if (std::abs(alpha0) >= core::kPi / 2)
      ctx.Error(ctx.At(*t.get(alpha_rad ? "alpha0" : "alpha0_deg")),
                "|alpha0| must be < 90 deg (trim angle of attack of the body x axis)");
    else
      ctx.si.alpha0 = alpha0;
  }
  // U0 = M a(h) when the file gives the Mach number and altitude instead of U0.
  if (!t.contains("U0") && fc.mach && fc.altitude) {
    if (const auto atmosphere = StandardAtmosphereAt(ctx, *t.get("altitude"), *fc.altitude, "U0")) {
      const double a = atmosphere->speed_of_sound;
      if (*fc.mach <= 0.0) {
        ctx.Error(ctx.At(*t.get("mach")), "mach must be > 0 to give U0 = mach × speed of sound");
      } else {
        fc.U0 = ctx.si.U0 = *fc.mach * a;
        ctx.si.speed_of_sound = a;
      }
    }
  }
}

void ReadMassExtras(ReadContext& ctx, const toml::table& t) {
  model::MassProperties& mass = ctx.written.mass;
  if (auto W = Number(ctx, t, "W", "mass")) {
    if (*W <= 0.0) {
      ctx.Error(ctx.At(*t.get("W")), "'W' (weight) must be > 0");
    } else if (ctx.units_known) {
      ctx.si.W = core::ToSI(*W, ctx.units, core::kForce);
      if (!mass.m) mass.m = *ctx.si.W / ctx.si.g;  // m = W/g with [condition] g
    }
  }
  const std::optional<std::string> axes = String(ctx, t, "axes", "mass", false);
  if (!axes || *axes == "stability") return;
  const toml::node& at = *t.get("axes");
  if (*axes != "body") {
    ctx.Error(ctx.At(at), "unknown axes '" + core::Printable(*axes) + "' (expected \"stability\" or \"body\")");
    return;
  }
  if (!ctx.si.alpha0) {
    ctx.Error(ctx.At(at),
              "axes = \"body\" needs the trim angle of attack [condition] alpha0_deg (or "
              "alpha0) to rotate the inertias into stability axes");
    return;
  }
  if (!mass.Ix || !mass.Iz || !mass.Ixz) {
    ctx.Error(ctx.At(at),
              "axes = \"body\" needs Ix, Iz and Ixz to rotate them into stability axes "
              "(write Ixz = 0.0 if the source gives none)");
    return;
  }
  if (*mass.Ixz * *mass.Ixz >= *mass.Ix * *mass.Iz) {
    ctx.Error(ctx.mass_at, "Ixz² ≥ Ix·Iz: the inertia tensor is not positive definite");
    return;
  }
  SetBodyInertias(ctx, mass);
}

void ReadGeometryExtras(ReadContext& ctx, const toml::table& t) {
  auto positive = [&](std::string_view key, Dimension dim, const char* what) -> std::optional<double> {
    const auto v = Number(ctx, t, key, "geometry");
    if (!v || !ctx.units_known) return std::nullopt;
    if (*v <= 0.0) {
      ctx.Error(ctx.At(*t.get(key)), fmt::format("'{}' ({}) must be > 0", key, what));
      return std::nullopt;
    }
    return core::ToSI(*v, ctx.units, dim);
  };
  ctx.si.S = positive("S", kArea, "reference area");
  ctx.si.c = positive("c", core::kLength, "mean aerodynamic chord");
  // b is read (and checked) by ReadGeometry; its SI value, if valid, for the coefficients.
  if (const toml::node* b = t.get("b"); b && ctx.units_known)
    if (const auto v = b->value<double>(); v && std::isfinite(*v) && *v > 0.0)
      ctx.si.b = core::ToSI(*v, ctx.units, core::kLength);
}

}  // namespace

void ReadAircraft(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* t = RequireTable(ctx, root, "aircraft");
  if (t == nullptr) return;
  CheckKeys(ctx, *t, "aircraft", {"name", "source", "notes", "class"});
  // Printed in every report and figure title: control characters escaped
  // (an escape sequence in a name would drive the user's terminal).
  if (auto name = String(ctx, *t, "name", "aircraft", true)) out.name = core::Printable(*name, false);
  if (auto source = String(ctx, *t, "source", "aircraft", true))
    out.source = core::Printable(*source, false);
  String(ctx, *t, "notes", "aircraft", false);
  // MIL-F-8785C airplane class, for the flying-qualities grading; the parser's
  // message lists the valid classes.
  if (auto text = String(ctx, *t, "class", "aircraft", false)) {
    try {
      out.aircraft_class = model::ParseAircraftClass(*text);
    } catch (const std::invalid_argument& e) {
      ctx.Error(ctx.At(*t->get("class")), e.what());
    }
  }
}

void ReadCondition(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* t = RequireTable(ctx, root, "condition");
  if (t == nullptr) return;
  CheckKeys(ctx, *t, "condition",
            {"units", "U0", "theta0", "theta0_deg", "W0", "g", "altitude", "mach", "category", "rho",
             "alpha0", "alpha0_deg"});
  if (auto text = String(ctx, *t, "category", "condition", false)) {
    try {
      out.condition.category = model::ParseFlightPhaseCategory(*text);
    } catch (const std::invalid_argument& e) {
      ctx.Error(ctx.At(*t->get("category")), e.what());
    }
  }
  if (auto units = String(ctx, *t, "units", "condition", true)) {
    if (auto system = core::ParseUnitSystem(*units)) {
      ctx.units = *system;
      ctx.units_known = true;
    } else {
      ctx.Error(ctx.At(*t->get("units")),
                "unknown unit system '" + core::Printable(*units) + "' (expected \"SI\" or \"imperial\")");
    }
  }
  model::FlightCondition& fc = out.condition;
  if (auto U0 = Number(ctx, *t, "U0", "condition")) {
    if (*U0 <= 0.0)
      ctx.Error(ctx.At(*t->get("U0")), "U0 must be > 0 (trim speed along the stability x axis)");
    else if (ctx.units_known)
      fc.U0 = ctx.si.U0 = core::ToSI(*U0, ctx.units, core::kSpeed);
  } else if (!t->contains("U0") && !(t->contains("mach") && t->contains("altitude"))) {
    Missing(ctx, *t, "condition", "U0", "trim speed in the file's length unit per second");
  }
  const auto theta_rad = Number(ctx, *t, "theta0", "condition");
  const auto theta_deg = Number(ctx, *t, "theta0_deg", "condition");
  if (t->contains("theta0") && t->contains("theta0_deg")) {
    ctx.Error(ctx.At(*t->get("theta0_deg")), "both theta0 and theta0_deg given (keep one)");
  } else if (theta_rad || theta_deg) {
    const double theta0 = theta_rad ? *theta_rad : *theta_deg * core::kDegToRad;
    const toml::node& node = *t->get(theta_rad ? "theta0" : "theta0_deg");
    if (std::abs(theta0) >= core::kPi / 2) {
      std::string message = "|theta0| must be < 90 deg, the Euler-angle singularity";
      if (theta_rad && std::abs(*theta_rad) < 90.0)
        message = "theta0 = " + Format(*theta_rad) + " rad is " +
                  Format(*theta_rad * core::kRadToDeg) +
                  " deg; |theta0| must be < 90 deg (did you mean theta0_deg = " +
                  Format(*theta_rad) + "?)";
      ctx.Error(ctx.At(node), message);
    } else {
      fc.theta0 = theta0;
      if (theta_rad && std::abs(*theta_rad) > 0.35)
        ctx.Warn(ctx.At(node), "theta0 = " + Format(*theta_rad) + " rad is " +
                                   Format(*theta_rad * core::kRadToDeg) +
                                   " deg; if you meant degrees, write theta0_deg");
    }
  }
  if (auto W0 = Number(ctx, *t, "W0", "condition"); W0 && ctx.units_known)
    fc.W0 = core::ToSI(*W0, ctx.units, core::kSpeed);
  if (auto g = Number(ctx, *t, "g", "condition")) {
    if (*g <= 0.0)
      ctx.Error(ctx.At(*t->get("g")), "g must be > 0");
    else if (ctx.units_known)
      fc.g = core::ToSI(*g, ctx.units, core::kAcceleration);
  } else {
    fc.g = core::kStandardGravity;  // documented default: standard gravity
  }
  if (auto h = Number(ctx, *t, "altitude", "condition"); h && ctx.units_known)
    fc.altitude = core::ToSI(*h, ctx.units, core::kLength);
  if (auto mach = Number(ctx, *t, "mach", "condition")) fc.mach = *mach;
  ReadConditionExtras(ctx, *t, fc);
}

void ReadMass(ReadContext& ctx, const toml::table& root) {
  const toml::table* t = OptionalTable(ctx, root, "mass");
  if (t == nullptr) return;
  ctx.mass_at = ctx.At(*t);
  CheckKeys(ctx, *t, "mass", {"m", "W", "Ix", "Iy", "Iz", "Ixz", "axes", "avl_mass"});
  if (ReadAvlMass(ctx, *t)) return;
  auto read = [&](std::string_view key, Dimension dim, bool positive) -> std::optional<double> {
    const auto v = Number(ctx, *t, key, "mass");
    if (!v || !ctx.units_known) return std::nullopt;
    if (positive && *v <= 0.0) {
      ctx.Error(ctx.At(*t->get(key)), fmt::format("'{}' must be > 0", key));
      return std::nullopt;
    }
    return core::ToSI(*v, ctx.units, dim);
  };
  model::MassProperties& mass = ctx.written.mass;
  mass.m = read("m", core::kMass, true);
  mass.Ix = read("Ix", core::kInertia, true);
  mass.Iy = read("Iy", core::kInertia, true);
  mass.Iz = read("Iz", core::kInertia, true);
  mass.Ixz = read("Ixz", core::kInertia, false);
  if (const toml::node* n = t->get("Ixz")) ctx.ixz_at = ctx.At(*n);
  ReadMassExtras(ctx, *t);
}

void ReadGeometry(ReadContext& ctx, const toml::table& root, model::AircraftData& out) {
  const toml::table* t = OptionalTable(ctx, root, "geometry");
  if (t == nullptr) return;
  CheckKeys(ctx, *t, "geometry", {"b", "S", "c"});
  ReadGeometryExtras(ctx, *t);
  const auto b = Number(ctx, *t, "b", "geometry");
  if (!b || !ctx.units_known) return;
  if (*b <= 0.0) {
    ctx.Error(ctx.At(*t->get("b")), "'b' (wing span) must be > 0");
    return;
  }
  out.geometry.b = core::ToSI(*b, ctx.units, core::kLength);
}

}  // namespace aerolin::data::read
