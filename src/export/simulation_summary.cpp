#include "aerolin/export/simulation_summary.hpp"

#include <cmath>
#include <cstdio>

namespace aerolin::exporting {
namespace {

nlohmann::json OptionalJson(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

std::string Format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

}  // namespace

const std::vector<std::string>& FlightStateUnits() {
  static const std::vector<std::string> units = {
      "m/s", "rad", "rad/s", "rad", "rad", "rad/s", "rad/s", "rad", "rad",
      "m",   "m",   "m"};
  return units;
}

std::vector<Excursion> MaxExcursions(const sim::FlightLog& log) {
  std::vector<Excursion> out;
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    Excursion e{sim::FlightStateNames()[i], FlightStateUnits()[i], 0.0, 0.0};
    for (std::size_t k = 0; k < log.size(); ++k)
      if (std::abs(log.state[k][i]) > std::abs(e.value)) {
        e.value = log.state[k][i];
        e.time = log.time[k];
      }
    out.push_back(e);
  }
  return out;
}

nlohmann::json SimulationSummaryJson(const sim::SimulationResult& result,
                                     const sim::SimulationOptions& options,
                                     const RunDescription& run) {
  using nlohmann::json;
  const sim::FlightLog& log = result.log;
  json j;
  j["aircraft"] = run.aircraft;
  j["script"] = OptionalJson(run.script);
  j["excite"] = OptionalJson(run.excite);
  j["amplitude"] = run.amplitude ? json(*run.amplitude) : json(nullptr);
  j["duration_s"] = options.duration;
  j["dt_s"] = options.slice.dt;
  j["integrator"] = std::string(sim::ToString(options.slice.integrator));
  j["rtol"] = options.slice.rtol;
  j["atol"] = options.slice.atol;
  j["slices"] = result.slices;
  j["rk_steps"] = result.rk_steps;
  j["rk_rejected"] = result.rk_rejected;
  j["slice_cost_us"] = {{"mean", result.slice_cost_mean_us},
                        {"max", result.slice_cost_max_us}};
  json final_state = json::object();
  const sim::FlightState& x = log.state.back();
  for (int i = 0; i < sim::kNumFlightStates; ++i)
    final_state[sim::FlightStateNames()[i]] = x[i];
  json controls = json::object();
  for (std::size_t c = 0; c < log.control_names.size(); ++c)
    controls[log.control_names[c]] = log.controls.back()[static_cast<Eigen::Index>(c)];
  j["final"] = {{"t", log.time.back()},
                {"state", final_state},
                {"altitude_change_m", -x[sim::kDown]},
                {"controls", controls}};
  json excursions = json::object();
  for (const Excursion& e : MaxExcursions(log))
    excursions[e.name] = {{"value", e.value}, {"t", e.time}};
  j["max_excursions"] = excursions;
  json validity = json::array();
  bool valid = true;
  for (const sim::ValidityFlag& f : result.validity) {
    valid = valid && !f.exceeded();
    validity.push_back(
        {{"name", f.name},
         {"limit", f.limit},
         {"peak", f.peak},
         {"peak_t", f.peak_time},
         {"exceeded", f.exceeded()},
         {"first_exceeded_t",
          f.first_exceeded ? json(*f.first_exceeded) : json(nullptr)}});
  }
  j["validity"] = validity;
  j["valid"] = valid && !result.stopped;
  j["stopped"] = OptionalJson(result.stopped);
  return j;
}

void WriteSimulationSummary(std::ostream& out,
                            const sim::SimulationResult& result,
                            const sim::SimulationOptions& options,
                            const RunDescription& run) {
  const sim::FlightLog& log = result.log;
  const sim::SliceOptions& s = options.slice;
  out << run.aircraft << ": " << result.slices << " slices of "
      << Format("%g", s.dt) << " s, " << sim::ToString(s.integrator);
  if (s.integrator == sim::Integrator::kRk45)
    out << " (rtol " << Format("%g", s.rtol) << ", atol "
        << Format("%g", s.atol) << ")";
  out << '\n';
  if (run.script) out << "script: " << *run.script << '\n';
  if (run.excite)
    out << "excited: " << *run.excite << ", amplitude "
        << Format("%g", run.amplitude.value_or(0.0)) << '\n';
  if (result.stopped) out << "STOPPED: " << *result.stopped << '\n';

  out << "\nstate      final (t = " << Format("%g", log.time.back())
      << " s)     max |x|      at t [s]   unit\n";
  const std::vector<Excursion> excursions = MaxExcursions(log);
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    char line[128];
    std::snprintf(line, sizeof line, "%-8s %16.6g %16.6g %12g   %s\n",
                  excursions[i].name.c_str(), log.state.back()[i],
                  excursions[i].value, excursions[i].time,
                  excursions[i].unit.c_str());
    out << line;
  }
  out << "altitude change " << Format("%.6g", -log.state.back()[sim::kDown])
      << " m\n";

  out << "\nsmall-perturbation validity:\n";
  for (const sim::ValidityFlag& f : result.validity) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-6s peak %-12.4g limit %-10.4g %s",
                  f.name.c_str(), f.peak, f.limit,
                  f.exceeded() ? "EXCEEDED" : "ok");
    out << line;
    if (f.first_exceeded)
      out << " from t = " << Format("%g", *f.first_exceeded) << " s";
    out << '\n';
  }
  const double per_slice =
      result.slices > 0 ? static_cast<double>(result.rk_steps) /
                              static_cast<double>(result.slices)
                        : 0.0;
  char line[200];
  std::snprintf(line, sizeof line,
                "\nsolver: %ld steps (%.3f per slice, %ld rejected); cost per "
                "slice mean %.3f us, max %.3f us\n",
                result.rk_steps, per_slice, result.rk_rejected,
                result.slice_cost_mean_us, result.slice_cost_max_us);
  out << line;
}

}  // namespace aerolin::exporting
