#include "aerolin/export/modes_json.hpp"

#include <nlohmann/json.hpp>

#include "display_units.hpp"
#include "json_numbers.hpp"
#include "mode_list_json.hpp"

#include "aerolin/model/conventions.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Mode;

nlohmann::json EigenvalueJson(std::complex<double> l) {
  return {{"re", l.real()}, {"im", l.imag()}};
}

nlohmann::json OptJson(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

}  // namespace

nlohmann::json ModeListJson(const std::vector<Mode>& modes, const model::StateSpace& sys,
                            core::UnitSystem speed_units) {
  nlohmann::json list = nlohmann::json::array();
  for (const Mode& m : modes) {
    nlohmann::json shape = nlohmann::json::array();
    for (Eigen::Index i = 0; i < m.shape.size(); ++i) {
      const double mag =
          std::abs(m.shape(i)) * DisplayUnitOf(sys.states()[i].unit, speed_units).per_si;
      shape.push_back({{"state", sys.states()[i].name},
                       {"magnitude", mag},
                       {"phase_deg", mag > 0.0 ? std::arg(m.shape(i)) * core::kRadToDeg : 0.0}});
    }
    list.push_back({{"name", analysis::ToString(m.kind)},
                    {"qualifier", m.qualifier()},
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

nlohmann::json StateNames(const std::vector<core::Signal>& states) {
  nlohmann::json names = nlohmann::json::array();
  for (const core::Signal& s : states) names.push_back(s.name);
  return names;
}

std::string ModesJson(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                      const std::vector<analysis::Approximation>& approximations,
                      std::string_view file, core::UnitSystem speed_units) {
  const DisplayUnit speed = DisplayUnitOf(core::Unit::kMetrePerSecond, speed_units);
  nlohmann::json approx = nlohmann::json::array();
  for (const analysis::Approximation& a : approximations) {
    const Mode* exact = modes.Find(a.kind);
    analysis::ApproximationError error;
    if (exact) error = analysis::CompareApproximation(a.lambda, exact->lambda);
    auto optional = [](const std::optional<double>& v) {
      return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    approx.push_back(
        {{"mode", analysis::ToString(a.kind)},
         {"method", a.method},
         {"eigenvalue_per_s", EigenvalueJson(a.lambda)},
         {"exact_eigenvalue_per_s", exact ? EigenvalueJson(exact->lambda) : nlohmann::json(nullptr)},
         {"error_percent",
          {{"natural_frequency", optional(error.natural_frequency_percent)},
           {"damping_ratio", optional(error.damping_ratio_percent)},
           {"time_constant", optional(error.time_constant_percent)}}}});
  }
  const model::FlightCondition& fc = aircraft.condition;
  nlohmann::json doc = {
      {"schema", "aerolin.modes/2"},
      {"file", std::string(file)},
      {"aircraft", {{"name", aircraft.name}, {"source", aircraft.source}}},
      {"units", {{"speed", speed.name}, {"time", "s"}, {"angle", "rad"}}},
      {"condition",
       {{"U0", fc.U0 * speed.per_si}, {"theta0_deg", fc.theta0 * core::kRadToDeg}, {"g_m_s2", fc.g}}},
      {"longitudinal",
       {{"states", StateNames(model::LongitudinalStateSignals())},
        {"modes", ModeListJson(modes.longitudinal, modes.longitudinal_model, speed_units)}}},
      {"lateral",
       {{"states", StateNames(model::LateralStateSignals())},
        {"modes", ModeListJson(modes.lateral, modes.lateral_model, speed_units)}}},
      {"approximations", approx}};
  // A washout filter's root (study::AnalyzeClosedLoop), named as `aerolin
  // augment` names it; the key only with filters (other files unchanged).
  for (const analysis::FilterRoot& f : modes.filters) {
    nlohmann::json& list = doc[std::string(model::AxisName(f.axis))]["washout_filters"];
    list.push_back({{"name", analysis::FilterRootName(f.state)},
                    {"state", f.state.name},
                    {"eigenvalue_per_s", EigenvalueJson(f.lambda)},
                    {"time_constant_s", -1.0 / f.lambda.real()}});
  }
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

}  // namespace aerolin::exporting
