// `aerolin modes FILE [--json] [--units si|imperial]`: the named dynamic modes.

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/modes.hpp"
#include "cli_common.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::cli {
namespace {

using analysis::Mode;

struct ModesOptions {
  std::string file;
  bool json = false;
  std::string units = "si";
};

// Display units: SI, or imperial for speeds (the only dimensional quantity
// in the table besides time).
struct SpeedUnit {
  std::string name;
  double per_mps;
};
SpeedUnit SpeedUnitFor(const std::string& units) {
  return units == "imperial" ? SpeedUnit{"ft/s", 1.0 / core::kMetresPerFoot} : SpeedUnit{"m/s", 1.0};
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// Four significant digits, switching to exponent form for tiny values.
std::string Sig(double v) {
  char buf[64];
  if (v != 0.0 && std::abs(v) < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3e", v);
  else
    std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string Eigenvalue(std::complex<double> l) {
  std::string s = Sig(l.real());
  if (l.imag() != 0.0) s += " ± " + Sig(l.imag()) + "i";
  return s;
}

std::string Opt(const std::optional<double>& v) { return v ? Sig(*v) : "-"; }

std::string Pad(const std::string& s, std::size_t width) {
  // Width in code points, so that α and ± count as one column.
  std::size_t points = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++points;
  return points >= width ? s + " " : s + std::string(width - points, ' ');
}

std::string Symbol(const std::vector<core::Signal>& states, const std::string& name) {
  for (const core::Signal& s : states)
    if (s.name == name) return s.symbol;
  return name;
}

void PrintModeTable(std::ostream& out, const std::string& title, const std::vector<Mode>& modes,
                    const model::StateSpace& sys) {
  out << title << '\n';
  out << "  " << Pad("mode", 34) << Pad("eigenvalue λ [1/s]", 22) << Pad("ωn [rad/s]", 11)
      << Pad("ζ", 8) << Pad("period [s]", 11) << Pad("t½ [s]", 9) << Pad("t2 [s]", 9)
      << Pad("τ [s]", 9) << Pad("N½", 7) << "dominant\n";
  for (const Mode& m : modes) {
    std::string dominant;
    for (const std::string& s : m.dominant_states)
      dominant += (dominant.empty() ? "" : ", ") + Symbol(sys.states(), s);
    out << "  " << Pad(m.full_name(), 34) << Pad(Eigenvalue(m.lambda), 22)
        << Pad(Sig(m.natural_frequency), 11)
        << Pad(m.kind == analysis::ModeKind::kHeading ? "-" : Fixed(m.damping_ratio, 3), 8)
        << Pad(Opt(m.damped_period), 11) << Pad(Opt(m.time_to_half), 9)
        << Pad(Opt(m.time_to_double), 9) << Pad(Opt(m.time_constant), 9)
        << Pad(Opt(m.cycles_to_half), 7) << dominant << '\n';
  }
}

void PrintShapes(std::ostream& out, const std::vector<Mode>& modes, const model::StateSpace& sys,
                 const SpeedUnit& speed) {
  out << "  mode shapes: magnitude ∠ phase [deg], relative to the reference state (= 1∠0°);\n"
         "  u in "
      << speed.name << " per rad, angles in rad per rad, rates in rad/s per rad\n";
  out << "  " << Pad("mode", 34);
  for (const core::Signal& s : sys.states()) out << Pad(s.symbol, 17);
  out << "ref\n";
  for (const Mode& m : modes) {
    out << "  " << Pad(m.full_name(), 34);
    for (Eigen::Index i = 0; i < m.shape.size(); ++i) {
      double mag = std::abs(m.shape(i));
      if (sys.states()[i].name == "u") mag *= speed.per_mps;
      const double phase = mag > 0.0 ? std::arg(m.shape(i)) * core::kRadToDeg : 0.0;
      out << Pad(Sig(mag) + "∠" + Fixed(phase, 0), 17);
    }
    out << sys.states()[m.reference_state].symbol << '\n';
  }
}

nlohmann::json EigenvalueJson(std::complex<double> l) { return {{"re", l.real()}, {"im", l.imag()}}; }

nlohmann::json OptJson(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json ModesJson(const std::vector<Mode>& modes, const model::StateSpace& sys,
                         const SpeedUnit& speed) {
  nlohmann::json list = nlohmann::json::array();
  for (const Mode& m : modes) {
    nlohmann::json shape = nlohmann::json::array();
    for (Eigen::Index i = 0; i < m.shape.size(); ++i) {
      double mag = std::abs(m.shape(i));
      if (sys.states()[i].name == "u") mag *= speed.per_mps;
      shape.push_back({{"state", sys.states()[i].name},
                       {"magnitude", mag},
                       {"phase_deg", mag > 0.0 ? std::arg(m.shape(i)) * core::kRadToDeg : 0.0}});
    }
    list.push_back({{"name", analysis::ToString(m.kind)},
                    {"qualifier", m.qualifier},
                    {"eigenvalue_per_s", EigenvalueJson(m.lambda)},
                    {"oscillatory", m.oscillatory},
                    {"natural_frequency_rad_s", m.natural_frequency},
                    {"damping_ratio", m.damping_ratio},
                    {"damped_period_s", OptJson(m.damped_period)},
                    {"time_to_half_s", OptJson(m.time_to_half)},
                    {"time_to_double_s", OptJson(m.time_to_double)},
                    {"time_constant_s", OptJson(m.time_constant)},
                    {"cycles_to_half", OptJson(m.cycles_to_half)},
                    {"stable", m.stable},
                    {"dominant_states", m.dominant_states},
                    {"shape_reference", sys.states()[m.reference_state].name},
                    {"shape", shape}});
  }
  return list;
}

int RunModes(const ModesOptions& opt) {
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const model::StateSpace lon = model::BuildLongitudinal(aircraft);
  const model::StateSpace lat = model::BuildLateral(aircraft);
  const std::vector<Mode> lon_modes = analysis::AnalyzeLongitudinal(lon, aircraft.condition.U0);
  const std::vector<Mode> lat_modes = analysis::AnalyzeLateral(lat);
  const std::vector<analysis::Approximation> approx = analysis::ClassicalApproximations(aircraft);
  const SpeedUnit speed = SpeedUnitFor(opt.units);
  const model::FlightCondition& fc = aircraft.condition;

  auto exact_for = [&](analysis::ModeKind kind) -> const Mode* {
    if (const Mode* m = analysis::FindMode(lon_modes, kind)) return m;
    return analysis::FindMode(lat_modes, kind);
  };

  if (opt.json) {
    nlohmann::json approximations = nlohmann::json::array();
    for (const auto& a : approx) {
      const Mode* exact = exact_for(a.kind);
      approximations.push_back(
          {{"mode", analysis::ToString(a.kind)},
           {"method", a.method},
           {"eigenvalue_per_s", EigenvalueJson(a.lambda)},
           {"exact_eigenvalue_per_s", exact ? EigenvalueJson(exact->lambda) : nlohmann::json(nullptr)},
           {"error_percent", exact ? nlohmann::json(analysis::PercentError(a.lambda, exact->lambda))
                                   : nlohmann::json(nullptr)}});
    }
    const nlohmann::json doc = {
        {"schema", "aerolin.modes/1"},
        {"file", opt.file},
        {"aircraft", {{"name", aircraft.name}, {"source", aircraft.source}}},
        {"units", {{"speed", speed.name}, {"time", "s"}, {"angle", "rad"}}},
        {"condition",
         {{"U0", fc.U0 * speed.per_mps}, {"theta0_deg", fc.theta0 * core::kRadToDeg},
          {"g_m_s2", fc.g}}},
        {"longitudinal",
         {{"states", {"u", "alpha", "q", "theta"}}, {"modes", ModesJson(lon_modes, lon, speed)}}},
        {"lateral",
         {{"states", {"beta", "p", "r", "phi", "psi"}}, {"modes", ModesJson(lat_modes, lat, speed)}}},
        {"approximations", approximations}};
    std::cout << doc.dump(2) << '\n';
    return 0;
  }

  std::ostream& out = std::cout;
  out << aircraft.name << "  (" << opt.file << ")\n";
  out << "source: " << aircraft.source << '\n';
  out << "trim: U0 = " << Sig(fc.U0 * speed.per_mps) << ' ' << speed.name
      << ", θ0 = " << Fixed(fc.theta0 * core::kRadToDeg, 2) << "°, g = " << Sig(fc.g)
      << " m/s²\n\n";
  PrintModeTable(out, "Longitudinal modes  (x = u, α, q, θ)", lon_modes, lon);
  out << '\n';
  PrintShapes(out, lon_modes, lon, speed);
  out << '\n';
  PrintModeTable(out, "Lateral-directional modes  (x = β, p, r, φ, ψ)", lat_modes, lat);
  out << '\n';
  PrintShapes(out, lat_modes, lat, speed);
  out << "\nClassical approximations  (error: of ωn for oscillatory roots, of λ for real ones)\n";
  out << "  " << Pad("mode", 18) << Pad("method", 28) << Pad("approximate λ", 22)
      << Pad("exact λ", 22) << "error\n";
  for (const auto& a : approx) {
    const Mode* exact = exact_for(a.kind);
    out << "  " << Pad(analysis::ToString(a.kind), 18) << Pad(a.method, 28)
        << Pad(Eigenvalue(a.lambda), 22) << Pad(exact ? Eigenvalue(exact->lambda) : "-", 22)
        << (exact ? Fixed(analysis::PercentError(a.lambda, exact->lambda), 1) + " %" : "-") << '\n';
  }
  out << "\nt½ / t2: time to half / double amplitude; τ: time constant of a real root;\n"
         "N½: cycles to half amplitude; dominant: states with ≥ 30 % of the largest scaled\n"
         "component (u/U0, angles, rates/ωn), the evidence for the mode's name.\n";
  return 0;
}

}  // namespace

void RegisterModesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<ModesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "modes", "Eigenvalues, named modes (short period, phugoid, Dutch roll, roll, spiral,\n"
               "heading), their characteristics, mode shapes and classical approximations.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.modes/1) instead of tables");
  cmd->add_option("--units", opt->units, "display units for speeds: si (m/s) or imperial (ft/s)")
      ->check(CLI::IsMember({"si", "imperial"}))
      ->default_val("si");
  cmd->callback([opt, &action] { action = [opt] { return RunModes(*opt); }; });
}

}  // namespace aerolin::cli
