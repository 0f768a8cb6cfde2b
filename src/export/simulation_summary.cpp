#include "aerolin/export/simulation_summary.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace aerolin::exporting {
namespace {

nlohmann::json OptionalJson(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

}  // namespace

std::vector<Excursion> MaxExcursions(const sim::FlightLog& log) {
  return FlightDigest::Of(log).excursions();
}

FlightDigest::FlightDigest() {
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    const core::Signal& signal = sim::FlightStateSignals()[i];
    excursions_.push_back({signal.name, signal.unit, 0.0, 0.0});
  }
}

FlightDigest FlightDigest::Of(const sim::FlightLog& log) {
  FlightDigest digest;
  for (std::size_t k = 0; k < log.size(); ++k)
    digest.Record(log.time[k], log.state[k], log.controls[k]);
  return digest;
}

void FlightDigest::Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) {
  ++rows_;
  final_time_ = t;
  final_state_ = x;
  final_controls_ = controls;  // same size every row: no allocation after the first
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    Excursion& e = excursions_[static_cast<std::size_t>(i)];
    if (std::abs(x[i]) > std::abs(e.value)) {
      e.value = x[i];
      e.time = t;
    }
  }
}

std::string SimulationSummaryJson(const sim::SimulationResult& result,
                                  const sim::SimulationOptions& options,
                                  const RunDescription& run, const sim::SliceTiming* timing) {
  return SimulationSummaryJson(result, FlightDigest::Of(result.log), options, run, timing);
}

std::string SimulationSummaryJson(const sim::SimulationResult& result, const FlightDigest& digest,
                                  const sim::SimulationOptions& options,
                                  const RunDescription& run, const sim::SliceTiming* timing) {
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
  j["slice_cost_us"] = timing ? json{{"mean", timing->mean_us()}, {"max", timing->max_us}}
                             : json(nullptr);
  json final_state = json::object();
  const sim::FlightState& x = digest.final_state();
  for (int i = 0; i < sim::kNumFlightStates; ++i)
    final_state[sim::FlightStateSignals()[i].name] = x[i];
  json controls = json::object();
  for (std::size_t c = 0; c < log.control_names.size(); ++c)
    controls[log.control_names[c]] = digest.final_controls()[static_cast<Eigen::Index>(c)];
  j["final"] = {{"t", digest.final_time()},
                {"state", final_state},
                {"altitude_change_m", -x[sim::kDown]},
                {"controls", controls}};
  json excursions = json::object();
  for (const Excursion& e : digest.excursions())
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
  return j.dump(2);
}

void WriteSimulationSummary(std::ostream& out,
                            const sim::SimulationResult& result,
                            const sim::SimulationOptions& options,
                            const RunDescription& run, const sim::SliceTiming* timing) {
  WriteSimulationSummary(out, result, FlightDigest::Of(result.log), options, run, timing);
}

void WriteSimulationSummary(std::ostream& out, const sim::SimulationResult& result,
                            const FlightDigest& digest, const sim::SimulationOptions& options,
                            const RunDescription& run, const sim::SliceTiming* timing) {
  const sim::SliceOptions& s = options.slice;
  out << run.aircraft << ": " << result.slices << " slices of "
      << fmt::format("{:g}", s.dt) << " s, " << sim::ToString(s.integrator);
  if (s.integrator == sim::Integrator::kRk45)
    out << fmt::format(" (rtol {:g}, atol {:g})", s.rtol, s.atol);
  out << '\n';
  if (run.script) out << "script: " << *run.script << '\n';
  if (run.excite)
    out << "excited: " << *run.excite << ", amplitude "
        << fmt::format("{:g}", run.amplitude.value_or(0.0)) << '\n';
  if (result.stopped) out << "STOPPED: " << *result.stopped << '\n';

  out << "\nstate      final (t = " << fmt::format("{:g}", digest.final_time())
      << " s)     max |x|      at t [s]   unit\n";
  const std::vector<Excursion>& excursions = digest.excursions();
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    out << fmt::format("{:<8} {:16.6g} {:16.6g} {:12g}   {}\n", excursions[i].name,
                       digest.final_state()[i], excursions[i].value, excursions[i].time,
                       core::ToString(excursions[i].unit));
  }
  out << "altitude change " << fmt::format("{:.6g}", -digest.final_state()[sim::kDown])
      << " m\n";

  out << "\nsmall-perturbation validity:\n";
  for (const sim::ValidityFlag& f : result.validity) {
    out << fmt::format("  {:<6} peak {:<12.4g} limit {:<10.4g} {}", f.name, f.peak, f.limit,
                       f.exceeded() ? "EXCEEDED" : "ok");
    if (f.first_exceeded) out << fmt::format(" from t = {:g} s", *f.first_exceeded);
    out << '\n';
  }
  const double per_slice =
      result.slices > 0 ? static_cast<double>(result.rk_steps) /
                              static_cast<double>(result.slices)
                        : 0.0;
  out << fmt::format("\nsolver: {} steps ({:.3f} per slice, {} rejected)", result.rk_steps,
                     per_slice, result.rk_rejected);
  if (timing)
    out << fmt::format("; cost per slice mean {:.3f} us, max {:.3f} us", timing->mean_us(),
                       timing->max_us);
  out << '\n';
}

}  // namespace aerolin::exporting
