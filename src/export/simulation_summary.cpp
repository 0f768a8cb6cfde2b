#include "aerolin/export/simulation_summary.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "aerolin/model/gust.hpp"
#include "aerolin/model/outputs.hpp"

#include "aerolin/export/flight_csv.hpp"
#include "display_units.hpp"
#include "json_numbers.hpp"

namespace aerolin::exporting {
namespace {

nlohmann::json OptionalJson(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

// Formats v with `spec` ("{:g}"-style); a value that prints as zero is
// printed without a sign.
std::string Number(double v, std::string_view spec) {
  return WithoutNegativeZero(fmt::format(fmt::runtime(spec), v));
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
  sum_squares_ += x.cwiseAbs2();
  if (nz_row_) {
    if (controls.size() != nz_row_->controls.size())
      throw std::invalid_argument("FlightDigest: the load-factor row has " +
                                  std::to_string(nz_row_->controls.size()) +
                                  " control coefficients, the row " +
                                  std::to_string(controls.size()) + " controls");
    double nz = nz_row_->state.dot(x) + nz_row_->controls.dot(controls);
    if (nz_wind_) nz += nz_row_->wind.dot(*nz_wind_);
    nz_sum_squares_ += nz * nz;
  }
}

double FlightDigest::rms(int i) const {
  return rows_ > 0 ? std::sqrt(sum_squares_[i] / static_cast<double>(rows_)) : 0.0;
}

void FlightDigest::TrackLoadFactor(LoadFactorRow row, const Eigen::Vector4d* wind) {
  nz_row_ = std::move(row);
  nz_wind_ = wind;
}

std::optional<double> FlightDigest::rms_nz() const {
  if (!nz_row_) return std::nullopt;
  return rows_ > 0 ? std::sqrt(nz_sum_squares_ / static_cast<double>(rows_)) : 0.0;
}

LoadFactorRow LoadFactorRowOf(const model::AircraftData& aircraft) {
  const model::StateSpace lon = model::BuildWithOutputs(aircraft, model::Axis::kLongitudinal);
  LoadFactorRow row;
  row.state.head<4>() = lon.C().row(model::lon_out::kNz).transpose();
  // The longitudinal model's inputs are the longitudinal controls in
  // data-file order; scatter D's columns back to every control.
  row.controls = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(aircraft.controls.size()));
  Eigen::Index j = 0;
  for (std::size_t c = 0; c < aircraft.controls.size(); ++c)
    if (aircraft.controls[c].longitudinal)
      row.controls[static_cast<Eigen::Index>(c)] = lon.D()(model::lon_out::kNz, j++);
  // The wind enters α̇ through E's α row: n_z gains −(U0/g) E_α d.
  const double k = aircraft.condition.U0 / aircraft.condition.g;
  row.wind = -k * model::BuildGustInput(aircraft).row(model::lon::kAlpha).transpose();
  return row;
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
  j["integrator"] = std::string(sim::ToString(result.integrator_flown.value_or(options.slice.integrator)));
  if (result.integrator_flown)  // only where it differs: other summaries keep their bytes
    j["integrator_asked"] = std::string(sim::ToString(options.slice.integrator));
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
  const double dt = options.slice.dt;
  j["final"] = {{"t", SliceGridTime(digest.final_time(), dt)},
                {"state", final_state},
                {"altitude_change_m", -x[sim::kDown]},
                {"controls", controls}};
  json excursions = json::object();
  for (const Excursion& e : digest.excursions())
    excursions[e.name] = {{"value", e.value}, {"t", SliceGridTime(e.time, dt)}};
  j["max_excursions"] = excursions;
  json validity = json::array();
  bool valid = true;
  for (const sim::ValidityFlag& f : result.validity) {
    valid = valid && !f.exceeded();
    validity.push_back(
        {{"name", f.name},
         {"limit", f.limit},
         {"peak", f.peak},
         {"peak_t", SliceGridTime(f.peak_time, dt)},
         {"exceeded", f.exceeded()},
         {"first_exceeded_t",
          f.first_exceeded ? json(SliceGridTime(*f.first_exceeded, dt)) : json(nullptr)}});
  }
  j["validity"] = validity;
  j["valid"] = valid && !result.stopped;
  j["stopped"] = OptionalJson(result.stopped);
  if (run.gusts) {
    const GustDescription& g = *run.gusts;
    if (g.turbulence) {
      const TurbulenceDescription& t = *g.turbulence;
      const sim::DrydenParameters& p = t.parameters;
      j["turbulence"] = {{"intensity", std::string(sim::ToString(t.intensity))},
                         {"altitude_m", t.altitude},
                         {"seed", t.seed},
                         {"sigma_u", p.sigma_u},
                         {"sigma_v", p.sigma_v},
                         {"sigma_w", p.sigma_w},
                         {"L_u", p.L_u},
                         {"L_v", p.L_v},
                         {"L_w", p.L_w},
                         {"sigma_p", t.sigma_p ? json(*t.sigma_p) : json(nullptr)},
                         {"span_m", t.span ? json(*t.span) : json(nullptr)}};
    } else {
      j["turbulence"] = nullptr;
    }
    json gusts = json::array();
    for (const sim::DiscreteGust& d : g.discrete)
      gusts.push_back({{"axis", std::string(sim::ToString(d.axis))},
                       {"amplitude_mps", d.amplitude},
                       {"length_m", d.length},
                       {"t0_s", d.start}});
    j["gusts"] = gusts;
    const std::optional<double> nz = digest.rms_nz();
    j["rms"] = {{"alpha", digest.rms(sim::kAlpha)},
                {"beta", digest.rms(sim::kBeta)},
                {"phi", digest.rms(sim::kPhi)},
                {"nz", nz ? json(*nz) : json(nullptr)}};
  }
  RemoveNegativeZeros(j);
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
  const core::UnitSystem units = run.units;
  const DisplayUnit speed = DisplayUnitOf(core::Unit::kMetrePerSecond, units);
  const DisplayUnit length = DisplayUnitOf(core::Unit::kMetre, units);
  const DisplayUnit angle = DisplayUnitOf(core::Unit::kRadian, units, true);
  const DisplayUnit rate = DisplayUnitOf(core::Unit::kRadianPerSecond, units, true);
  auto time = [&](double t) { return Number(SliceGridTime(t, s.dt), "{:g}"); };
  out << run.aircraft << ": " << result.slices << " slices of "
      << fmt::format("{:g}", s.dt) << " s, " << sim::ToString(result.integrator_flown.value_or(s.integrator));
  if (result.integrator_flown.value_or(s.integrator) == sim::Integrator::kRk45)
    out << fmt::format(" (rtol {:g}, atol {:g})", s.rtol, s.atol);
  if (result.integrator_flown)
    out << "; " << sim::ToString(s.integrator) << " asked: the actuators' lag and limits are flown by "
        << sim::ToString(*result.integrator_flown);
  out << '\n';
  if (run.script) out << "script: " << *run.script << '\n';
  if (run.excite)
    out << "excited: " << *run.excite << ", amplitude "
        << fmt::format("{:g}", run.amplitude.value_or(0.0))
        << " (SI: m/s, rad or rad/s of the mode's reference state)\n";
  if (run.gusts && run.gusts->turbulence) {
    const TurbulenceDescription& t = *run.gusts->turbulence;
    const sim::DrydenParameters& p = t.parameters;
    out << fmt::format("turbulence: {} (MIL-F-8785C Dryden) at h = {:g} {}, seed {}\n",
                       sim::ToString(t.intensity), t.altitude * length.per_si, length.name,
                       t.seed);
    out << fmt::format("  sigma_u {:.4g}, sigma_v {:.4g}, sigma_w {:.4g} {}; "
                       "L_u {:.4g}, L_v {:.4g}, L_w {:.4g} {}\n",
                       p.sigma_u * speed.per_si, p.sigma_v * speed.per_si,
                       p.sigma_w * speed.per_si, speed.name, p.L_u * length.per_si,
                       p.L_v * length.per_si, p.L_w * length.per_si, length.name);
    if (t.sigma_p)
      out << fmt::format("  sigma_p {:.4g} {} (span {:g} {})\n", *t.sigma_p * rate.per_si,
                         rate.name, t.span.value_or(0.0) * length.per_si, length.name);
    else
      out << "  no rolling gust p_g (the file gives no [geometry] b)\n";
  }
  if (run.gusts)
    for (const sim::DiscreteGust& d : run.gusts->discrete)
      out << fmt::format("gust: {} {} {} over {:g} {} from t = {:g} s (1 - cos)\n",
                         sim::ToString(d.axis), Number(d.amplitude * speed.per_si, "{:g}"),
                         speed.name, d.length * length.per_si, length.name, d.start);
  if (result.stopped) out << "STOPPED: " << *result.stopped << '\n';

  // Angles in degrees and rates in deg/s, as the flight window's HUD shows
  // them; "max |x|" is the magnitude, the sign being in the CSV and JSON.
  out << "\nstate      final (t = " << time(digest.final_time())
      << " s)     max |x|      at t [s]   unit\n";
  const std::vector<Excursion>& excursions = digest.excursions();
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    const DisplayUnit unit = DisplayUnitOf(excursions[i].unit, units, true);
    out << fmt::format("{:<8} {:>16} {:>16} {:>12}   {}\n", excursions[i].name,
                       Number(digest.final_state()[i] * unit.per_si, "{:.6g}"),
                       Number(std::abs(excursions[i].value) * unit.per_si, "{:.6g}"),
                       time(excursions[i].time), unit.name);
  }
  out << "altitude change "
      << Number(-digest.final_state()[sim::kDown] * length.per_si, "{:.6g}") << ' '
      << length.name << '\n';
  if (run.gusts) {
    out << fmt::format("RMS over the run: alpha {:.4g}, beta {:.4g}, phi {:.4g} {}",
                       digest.rms(sim::kAlpha) * angle.per_si,
                       digest.rms(sim::kBeta) * angle.per_si, digest.rms(sim::kPhi) * angle.per_si,
                       angle.name);
    if (const std::optional<double> nz = digest.rms_nz()) out << fmt::format("; nz {:.4g} g", *nz);
    out << '\n';
  }

  out << "\nsmall-perturbation validity:\n";
  for (const sim::ValidityFlag& f : result.validity) {
    // alpha, beta, phi are angles (shown in degrees); u/U0 is a ratio.
    const bool is_angle = f.name != "u/U0";
    const double scale = is_angle ? angle.per_si : 1.0;
    const std::string unit = is_angle ? " " + angle.name : "";
    out << fmt::format("  {:<6} peak {:<14} limit {:<12} {}", f.name,
                       Number(f.peak * scale, "{:.4g}") + unit,
                       Number(f.limit * scale, "{:.4g}") + unit,
                       f.exceeded() ? "EXCEEDED" : "ok");
    if (f.first_exceeded) out << " from t = " << time(*f.first_exceeded) << " s";
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
