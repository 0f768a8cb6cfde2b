// aerolin.qualities: MIL-F-8785C grading of the modes (`aerolin qualities`).

#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/analysis/flying_qualities.hpp"

namespace aerolin::python {
namespace {

using analysis::QualitiesGrade;
using analysis::RequirementResult;

py::object Limit(const std::optional<double>& v) { return v ? py::cast(*v) : py::none(); }

std::vector<QualitiesGrade> Qualities(const Aircraft& aircraft,
                                      const std::optional<std::string>& class_name,
                                      const std::optional<std::string>& category, bool combat) {
  const model::AircraftData& a = aircraft.data();
  std::optional<analysis::AircraftClass> cls = a.aircraft_class;
  if (class_name) cls = analysis::ParseAircraftClass(*class_name);
  if (!cls)
    throw std::invalid_argument(
        "no airplane class: the file gives no [aircraft] class; pass aircraft_class= "
        "'I', 'II-C', 'II-L', 'III' or 'IV'");
  std::vector<analysis::FlightPhaseCategory> categories;
  if (category && *category != "all")
    categories = {analysis::ParseFlightPhaseCategory(*category)};
  else if (!category && a.condition.category)
    categories = {*a.condition.category};
  else
    categories.assign(model::kFlightPhaseCategories.begin(), model::kFlightPhaseCategories.end());
  analysis::GradeOptions options;
  options.combat_or_ground_attack = combat;
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
  const analysis::ModalSummary summary =
      analysis::SummarizeModes(modes.longitudinal, modes.lateral, a);
  std::vector<QualitiesGrade> grades;
  for (analysis::FlightPhaseCategory c : categories)
    grades.push_back(analysis::Grade(summary, *cls, c, options));
  return grades;
}

}  // namespace

void BindQualities(py::module_& m) {
  py::class_<RequirementResult>(m, "Requirement", "One MIL-F-8785C requirement applied to one mode.")
      .def_property_readonly("mode", [](const RequirementResult& r) { return analysis::ToString(r.mode); },
                             "display name of the mode, e.g. 'short period'")
      .def_readonly("criterion", &RequirementResult::criterion,
                    "'zeta', 'CAP', 'wn', 'zeta*wn', 'T2' or 'tau_R'")
      .def_readonly("value", &RequirementResult::value, "the aircraft's value in `unit` (inf: never doubles)")
      .def_readonly("unit", &RequirementResult::unit)
      .def_property_readonly(
          "limits",
          [](const RequirementResult& r) {
            py::list out;
            for (const analysis::Limits& l : r.limits) out.append(py::make_tuple(Limit(l.min), Limit(l.max)));
            return out;
          },
          "[(min, max)] for Levels 1, 2, 3 (None: no limit on that side; inclusive)")
      .def_property_readonly("level", [](const RequirementResult& r) { return analysis::ToInt(r.level); },
                             "1, 2, 3, or 4 (worse than Level 3)")
      .def_readonly("paragraph", &RequirementResult::paragraph)
      .def_readonly("note", &RequirementResult::note)
      .def("__repr__", [](const RequirementResult& r) {
        return "<aerolin.Requirement " + analysis::ToString(r.mode) + " " + r.criterion +
               " level " + std::to_string(analysis::ToInt(r.level)) + ">";
      });

  py::class_<QualitiesGrade>(m, "QualitiesGrade", "The grading for one class and category.")
      .def_property_readonly("aircraft_class",
                             [](const QualitiesGrade& g) { return std::string(model::ToString(g.aircraft_class)); })
      .def_property_readonly("category",
                             [](const QualitiesGrade& g) { return std::string(model::ToString(g.category)); })
      .def_readonly("n_alpha", &QualitiesGrade::n_alpha, "n/α = −Zα/g [g/rad]")
      .def_readonly("requirements", &QualitiesGrade::requirements)
      .def_property_readonly("level", [](const QualitiesGrade& g) { return analysis::ToInt(g.level); },
                             "worst level over all requirements")
      .def_property_readonly(
          "mode_levels",
          [](const QualitiesGrade& g) {
            py::dict out;
            for (const RequirementResult& r : g.requirements) {
              const std::string name = analysis::ToString(r.mode);
              if (!out.contains(name)) out[py::str(name)] = analysis::ToInt(*g.LevelOf(r.mode));
            }
            return out;
          },
          "{mode name: worst level of its requirements}")
      .def("__repr__", [](const QualitiesGrade& g) {
        return "<aerolin.QualitiesGrade class " + std::string(model::ToString(g.aircraft_class)) +
               " category " + std::string(model::ToString(g.category)) + ": level " +
               std::to_string(analysis::ToInt(g.level)) + ">";
      });

  m.def("qualities", &Qualities, py::arg("aircraft"), py::arg("aircraft_class") = py::none(),
        py::arg("category") = py::none(), py::arg("combat") = false,
        "Grades the modes against MIL-F-8785C as `aerolin qualities` does: class and\n"
        "category from the file unless given ('I', 'II-C', 'II-L', 'III', 'IV';\n"
        "'A', 'B', 'C' or 'all'); a file without a category is graded in all three.\n"
        "combat: Category A combat / ground attack (Class IV Dutch-roll row).");
}

}  // namespace aerolin::python
