// aerolin.qualities: MIL-F-8785C grading of the modes (`aerolin qualities`).

#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/export/qualities_report.hpp"
#include "aerolin/study/mil_std_1797.hpp"

namespace aerolin::python {
namespace {

using analysis::QualitiesGrade;
using analysis::RequirementResult;

py::object Limit(const std::optional<double>& v) { return v ? py::cast(*v) : py::none(); }

// The class and categories graded, as `aerolin qualities` resolves them.
struct Resolved {
  analysis::AircraftClass cls;
  std::vector<analysis::FlightPhaseCategory> categories;
};

Resolved Resolve(const model::AircraftData& a, const std::optional<std::string>& class_name,
                 const std::optional<std::string>& category) {
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
  return {*cls, categories};
}

std::vector<QualitiesGrade> Grades(const model::AircraftData& a, const Resolved& r, bool combat) {
  analysis::GradeOptions options;
  options.combat_or_ground_attack = combat;
  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(a);
  const analysis::ModalSummary summary =
      analysis::SummarizeModes(modes.longitudinal, modes.lateral, a);
  std::vector<QualitiesGrade> grades;
  for (analysis::FlightPhaseCategory c : r.categories)
    grades.push_back(analysis::Grade(summary, r.cls, c, options));
  return grades;
}

std::vector<QualitiesGrade> Qualities(const Aircraft& aircraft, const std::optional<std::string>& class_name,
                                      const std::optional<std::string>& category, bool combat) {
  return Grades(aircraft.data(), Resolve(aircraft.data(), class_name, category), combat);
}

// The document of `aerolin qualities --json` with the same arguments, as
// Python objects: one writer (exporting::QualitiesJson), one truth.
py::object QualitiesReport(const py::object& aircraft_or_path, const std::optional<std::string>& class_name,
                           const std::optional<std::string>& category, bool combat,
                           const std::vector<std::string>& actuators, std::optional<double> delay,
                           double dropback_step_deg) {
  py::object loaded = aircraft_or_path;
  if (py::isinstance<py::str>(aircraft_or_path))
    loaded = py::module_::import("aerolin._aerolin").attr("load")(aircraft_or_path);
  const Aircraft& aircraft = loaded.cast<const Aircraft&>();
  const model::AircraftData& a = aircraft.data();
  std::string json;
  {
    py::gil_scoped_release release;
    const Resolved r = Resolve(a, class_name, category);
    const model::CommandPath path = study::ResolveCommandPath(a, aircraft.path, actuators, delay);
    study::DropbackOptions dropback;
    dropback.command = study::DropbackStep(dropback_step_deg);
    const exporting::MilStd1797Report mil = exporting::AssessForReport(a, path, r.cls, r.categories, dropback);
    json = exporting::QualitiesJson({aircraft.path, a.name, model::IsAugmented(a)}, Grades(a, r, combat), &mil);
  }
  return py::module_::import("json").attr("loads")(json);
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
  m.def("qualities_report", &QualitiesReport, py::arg("aircraft"), py::arg("aircraft_class") = py::none(),
        py::arg("category") = py::none(), py::arg("combat") = false,
        py::arg("actuators") = std::vector<std::string>{}, py::arg("delay") = py::none(),
        py::arg("dropback_step_deg") = study::kDefaultDropbackStepDeg,
        "The `aerolin qualities --json` document (schema aerolin.qualities/1) as a dict:\n"
        "the MIL-F-8785C grades and the MIL-STD-1797A block ('mil_std_1797'). actuators:\n"
        "['elevator=0.05:25:60', ...] as --actuator (TAU_S[:LIMIT_DEG[:RATE_DEG_S]]),\n"
        "replacing the file's [actuators] entries; delay: seconds, as --delay;\n"
        "dropback_step_deg: as --dropback-step.");
}

}  // namespace aerolin::python
