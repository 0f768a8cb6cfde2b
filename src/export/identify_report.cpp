#include "aerolin/export/identify_report.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/edit_values.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "json_numbers.hpp"

namespace aerolin::exporting {
namespace {

const study::ModeEstimate* ModeOf(const study::IdentifyResult& r, analysis::ModeKind kind) {
  for (const study::ModeEstimate& m : r.modes)
    if (m.mode.kind == kind) return &m;
  return nullptr;
}

std::optional<double> SigmaOf(const analysis::RequirementResult& q, const study::ModeEstimate& m) {
  const double re = m.mode.lambda.real();
  if (q.criterion == "zeta" && m.mode.oscillatory) return m.zeta_sigma;
  if (q.criterion == "wn" && m.mode.oscillatory) return m.wn_sigma;
  if (q.criterion == "zeta*wn" && m.mode.oscillatory) return m.re_sigma;
  if ((q.criterion == "tau_R") && !m.mode.oscillatory && re != 0) return m.re_sigma / (re * re);
  if (q.criterion == "T2" && re != 0) return std::log(2.0) * m.re_sigma / (re * re);
  return std::nullopt;
}

const char* MethodName(study::IdentifyMethod m) {
  return m == study::IdentifyMethod::kOutputError ? "output-error" : "equation-error";
}

}  // namespace

std::vector<IdentifiedLevel> LevelsWithUncertainty(const analysis::QualitiesGrade& grade,
                                                   const study::IdentifyResult& result) {
  std::vector<IdentifiedLevel> out;
  for (const analysis::RequirementResult& q : grade.requirements) {
    const study::ModeEstimate* m = ModeOf(result, q.mode);
    if (m == nullptr) continue;  // a mode of the other axis
    IdentifiedLevel l{q, std::isfinite(q.value) ? SigmaOf(q, *m) : std::nullopt, q.level, q.level};
    if (l.sigma) {
      l.low = analysis::LevelFor(q.value - 2.0 * *l.sigma, q.limits);
      l.high = analysis::LevelFor(q.value + 2.0 * *l.sigma, q.limits);
    }
    out.push_back(l);
  }
  return out;
}

IdentifiedFile IdentifiedFileOf(const std::string& file_text, const std::string& path, const std::string& name,
                                const study::IdentifyResult& result) {
  std::vector<std::pair<std::string, double>> values;
  for (const study::Estimate& e : result.estimates)
    if (e.file_key) values.emplace_back(e.key, e.value);
  IdentifiedFile out;
  out.text = data::WithValues(file_text, path, values);
  try {
    const data::LoadResult identified = data::LoadAircraftString(out.text, name);
    const model::AircraftData& aircraft = identified.aircraft;
    if (aircraft.aircraft_class && aircraft.condition.category) {
      const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
      const analysis::ModalSummary summary = analysis::SummarizeModes(modes.longitudinal, modes.lateral, aircraft);
      out.levels = LevelsWithUncertainty(
          analysis::Grade(summary, *aircraft.aircraft_class, *aircraft.condition.category), result);
    } else {
      out.note = "the file declares no class and category: no MIL-F-8785C levels";
    }
  } catch (const std::exception& e) {
    out.note = std::string("no MIL-F-8785C levels: ") + e.what();
  }
  return out;
}

void WriteIdentifyText(std::ostream& out, const study::IdentifyResult& r, const std::string& file,
                       const std::string& flight, const std::vector<IdentifiedLevel>& levels) {
  out << fmt::format("Identified from {} ({} samples), model {}\n", flight, r.samples, file);
  out << fmt::format("Method: {}, {} iteration{}{}\n", MethodName(r.method), r.iterations,
                     r.iterations == 1 ? "" : "s",
                     r.converged ? ", converged" : ", NOT converged: " + r.stop_reason);
  out << "\nEstimates (keys as written in the file, in its units; x0 and bias in SI):\n";
  out << fmt::format("  {:<26} {:>13} {:>13} {:>11} {:>11} {:>8}\n", "key", "start", "estimate",
                     "σ (CR)", "σ (corr.)", "% error");
  for (const study::Estimate& e : r.estimates) {
    // A % error of an offset (x0, a bias) near zero says nothing: shown for the keys only.
    const std::string pct = e.file_key && e.value != 0
                                ? fmt::format("{:.2f}", 100.0 * e.std_error_corrected / std::abs(e.value))
                                : "-";
    out << fmt::format("  {:<26} {:>13.6g} {:>13.6g} {:>11.3g} {:>11.3g} {:>8}\n", e.key, e.start, e.value,
                       e.std_error, e.std_error_corrected, pct);
  }
  out << "  (σ (CR): Cramér–Rao bound; σ (corr.): corrected for coloured residuals, Morelli & Klein;\n"
         "   % error: σ (corr.) / |estimate|, for the keys)\n";
  if (!r.correlated.empty()) {
    out << "\nHighly correlated estimates (|ρ| > 0.9):\n";
    for (const study::Correlated& c : r.correlated)
      out << fmt::format("  {} ~ {}: ρ = {:.3f}\n", r.estimates[static_cast<std::size_t>(c.a)].key,
                         r.estimates[static_cast<std::size_t>(c.b)].key, c.rho);
  }
  out << fmt::format("\nFit ({}):\n", r.method == study::IdentifyMethod::kOutputError
                                          ? "measured vs simulated outputs"
                                          : "smoothed derivatives vs regression");
  for (const study::OutputFit& f : r.fit)
    out << fmt::format("  {:<10} RMS {:.4g} {}, R² {:.4f}\n", f.name, f.rms, f.unit, f.r2);
  // Standard errors in 3 significant digits (as the table's): a σ far below
  // the value's last decimal still shows how small it is.
  out << "\nModes at the estimate (± 1σ corrected):\n";
  for (const study::ModeEstimate& m : r.modes) {
    if (m.mode.oscillatory)
      out << fmt::format("  {:<20} λ = {:.4f} ± {:.4f}i /s (σ {:.3g}, {:.3g}i), ζ = {:.4f} ± {:.3g}, "
                         "ωn = {:.4f} ± {:.3g} rad/s\n",
                         m.mode.full_name(), m.mode.lambda.real(), m.mode.lambda.imag(), m.re_sigma,
                         m.im_sigma, m.mode.damping_ratio, m.zeta_sigma, m.mode.natural_frequency,
                         m.wn_sigma);
    else
      out << fmt::format("  {:<20} λ = {:.4f} ± {:.3g} /s\n", m.mode.full_name(), m.mode.lambda.real(),
                         m.re_sigma);
  }
  if (!levels.empty()) {
    out << "\nMIL-F-8785C at the estimate (and at ∓2σ of the graded quantity):\n";
    for (const IdentifiedLevel& l : levels) {
      // A stable mode's T2 (infinite: it never doubles) reads "-", as `modes` prints it.
      const bool finite = std::isfinite(l.requirement.value);
      out << fmt::format("  {:<20} {:<8} {:>10} {:<10} Level {}", analysis::ToString(l.requirement.mode),
                         l.requirement.criterion, finite ? fmt::format("{:.4g}", l.requirement.value) : "-",
                         finite ? l.requirement.unit : "", analysis::ToInt(l.requirement.level));
      if (l.sigma)
        out << fmt::format("  (−2σ: Level {}, +2σ: Level {})", analysis::ToInt(l.low), analysis::ToInt(l.high));
      out << '\n';
    }
  }
}

std::string IdentifyJson(const study::IdentifyResult& r, const std::string& file, const std::string& flight,
                         const std::vector<IdentifiedLevel>& levels) {
  nlohmann::json j;
  j["schema"] = "aerolin.identify/1";
  j["file"] = file;
  j["flight"] = flight;
  j["method"] = MethodName(r.method);
  j["samples"] = r.samples;
  j["iterations"] = r.iterations;
  j["converged"] = r.converged;
  if (!r.converged) j["stop_reason"] = r.stop_reason;
  nlohmann::json estimates = nlohmann::json::array();
  nlohmann::json keys = nlohmann::json::array();
  for (const study::Estimate& e : r.estimates) {
    estimates.push_back({{"key", e.key}, {"file_key", e.file_key}, {"start", e.start}, {"value", e.value},
                         {"std_error", e.std_error_corrected}, {"std_error_cramer_rao", e.std_error}});
    keys.push_back(e.key);
  }
  j["estimates"] = estimates;
  nlohmann::json matrix = nlohmann::json::array();
  for (Eigen::Index a = 0; a < r.correlation.rows(); ++a) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index b = 0; b < r.correlation.cols(); ++b) row.push_back(r.correlation(a, b));
    matrix.push_back(row);
  }
  nlohmann::json high = nlohmann::json::array();
  for (const study::Correlated& c : r.correlated)
    high.push_back({{"a", r.estimates[static_cast<std::size_t>(c.a)].key},
                    {"b", r.estimates[static_cast<std::size_t>(c.b)].key}, {"rho", c.rho}});
  j["correlation"] = {{"keys", keys}, {"matrix", matrix}, {"high", high}};
  nlohmann::json fit = nlohmann::json::array();
  for (const study::OutputFit& f : r.fit) fit.push_back({{"output", f.name}, {"unit", f.unit}, {"rms", f.rms}, {"r2", f.r2}});
  j["fit"] = fit;
  nlohmann::json modes = nlohmann::json::array();
  for (const study::ModeEstimate& m : r.modes)
    modes.push_back({{"mode", m.mode.full_name()},
                     {"eigenvalue_per_s", {{"re", m.mode.lambda.real()}, {"im", m.mode.lambda.imag()}}},
                     {"std_error", {{"re", m.re_sigma}, {"im", m.im_sigma}}},
                     {"std_error_cramer_rao", {{"re", m.re_sigma_cr}, {"im", m.im_sigma_cr}}},
                     {"zeta", m.mode.damping_ratio},
                     {"zeta_std_error", m.zeta_sigma},
                     {"wn_rad_per_s", m.mode.natural_frequency},
                     {"wn_std_error", m.wn_sigma}});
  j["modes"] = modes;
  nlohmann::json lv = nlohmann::json::array();
  for (const IdentifiedLevel& l : levels) {
    nlohmann::json o = {{"mode", analysis::ToString(l.requirement.mode)},
                        {"criterion", l.requirement.criterion},
                        {"value", l.requirement.value},
                        {"unit", l.requirement.unit},
                        {"level", analysis::ToInt(l.requirement.level)}};
    if (l.sigma) {
      o["std_error"] = *l.sigma;
      o["level_minus_2sigma"] = analysis::ToInt(l.low);
      o["level_plus_2sigma"] = analysis::ToInt(l.high);
    }
    lv.push_back(o);
  }
  j["levels"] = lv;
  RemoveNegativeZeros(j);
  return j.dump(2);
}

}  // namespace aerolin::exporting
