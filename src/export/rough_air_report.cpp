#include "aerolin/export/rough_air_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "aerolin/core/signal.hpp"

namespace aerolin::exporting {
namespace {

constexpr std::string_view kMethod =
    "stationary covariance of the flight sampled at the slice step dt (discrete Lyapunov "
    "equation; each Dryden gust sample held over its slice, controls fixed)";


}  // namespace

void WriteRoughAirText(std::ostream& out, const model::AircraftData& aircraft,
                       const study::RoughAirStatistics& stats) {
  const sim::DrydenParameters& d = stats.dryden;
  out << fmt::format("{}: {} Dryden turbulence (MIL-F-8785C) at {:.6g} m above ground ({}), "
                     "V = {:.4g} m/s\n",
                     aircraft.name, sim::ToString(stats.turbulence.intensity),
                     *stats.turbulence.height, study::ToString(stats.height_source), stats.airspeed);
  out << fmt::format("  σu = {:.3g} m/s (Lu = {:.4g} m), σv = {:.3g} m/s (Lv = {:.4g} m), "
                     "σw = {:.3g} m/s (Lw = {:.4g} m)",
                     d.sigma_u, d.L_u, d.sigma_v, d.L_v, d.sigma_w, d.L_w);
  if (stats.turbulence.span)
    out << fmt::format(", σp = {:.3g} rad/s (span {:.4g} m)\n", stats.sigma_p, *stats.turbulence.span);
  else
    out << "; no rolling gust (the file gives no [geometry] b)\n";
  out << fmt::format("Stationary statistics, controls fixed, the flight sampled every Δt = {:g} s\n",
                     stats.dt);
  for (const study::AxisStatistics* axis : {&stats.longitudinal, &stats.lateral}) {
    out << fmt::format("{}\n", axis->axis == model::Axis::kLongitudinal ? "Longitudinal"
                                                                          : "Lateral-directional");
    if (axis->not_stationary) {
      out << "  none: " << *axis->not_stationary << '\n';
      continue;
    }
    out << fmt::format("  {:<8} {:<6} {:>12} {:>14} {:>12}\n", "output", "unit", "RMS", "rate RMS [/s]",
                       "N0 [1/s]");
    for (const study::OutputStatistics& o : axis->outputs) {
      const std::string rate = o.rate_rms ? fmt::format("{:.4g}", *o.rate_rms) : "-";
      out << fmt::format("  {:<8} {:<6} {:>12.4g} {:>14} {:>12.4g}{}\n", o.signal.name,
                         core::ToString(o.signal.unit), o.rms, rate, o.n0_per_s,
                         o.gust_feedthrough && o.rate_rms ? "  *" : "");
    }
  }
  out << "N0: zero up-crossings per second of the sampled flight; a level y is exceeded\n"
         "N0·exp(−y²/2σ²) times per second (Rice). * direct gust feed-through: N0 counts the\n"
         "gust's jumps between slices and grows as Δt shrinks (quote it with Δt).\n";
}

std::string RoughAirJson(const model::AircraftData& aircraft, std::string_view file,
                         const study::RoughAirStatistics& stats) {
  using nlohmann::json;
  const sim::DrydenParameters& d = stats.dryden;
  json outputs = json::array(), not_stationary = json::array();
  for (const study::AxisStatistics* axis : {&stats.longitudinal, &stats.lateral}) {
    if (axis->not_stationary)
      not_stationary.push_back({{"axis", model::AxisName(axis->axis)}, {"reason", *axis->not_stationary}});
    for (const study::OutputStatistics& o : axis->outputs)
      outputs.push_back({{"name", o.signal.name},
                         {"unit", core::ToString(o.signal.unit)},
                         {"axis", model::AxisName(axis->axis)},
                         {"rms", o.rms},
                         {"rate_rms", o.rate_rms ? json(*o.rate_rms) : json(nullptr)},
                         {"n0_per_s", o.n0_per_s},
                         {"gust_feedthrough", o.gust_feedthrough}});
  }
  const json j = {
      {"schema", "aerolin.rms/1"},
      {"file", std::string(file)},
      {"aircraft", {{"name", aircraft.name}, {"source", aircraft.source}}},
      {"method", kMethod},
      {"turbulence",
       {{"intensity", sim::ToString(stats.turbulence.intensity)},
        {"height_m", *stats.turbulence.height},
        {"height_source", study::ToString(stats.height_source)},
        {"span_m", stats.turbulence.span ? json(*stats.turbulence.span) : json(nullptr)},
        {"airspeed_m_s", stats.airspeed},
        {"sigma_u_m_s", d.sigma_u},
        {"sigma_v_m_s", d.sigma_v},
        {"sigma_w_m_s", d.sigma_w},
        {"sigma_p_rad_s", stats.sigma_p},
        {"L_u_m", d.L_u},
        {"L_v_m", d.L_v},
        {"L_w_m", d.L_w}}},
      {"dt_s", stats.dt},
      {"outputs", outputs},
      {"not_stationary", not_stationary}};
  return j.dump(2);
}

}  // namespace aerolin::exporting
