// aerolin.modes and the Mode record.

#include "bindings.hpp"
#include "aerolin/analysis/modes.hpp"

namespace aerolin::python {
namespace {

const std::vector<core::Signal>& StatesOf(model::Axis axis) {
  return axis == model::Axis::kLongitudinal ? model::LongitudinalStateSignals()
                                            : model::LateralStateSignals();
}

std::vector<std::string> StateNames(model::Axis axis) {
  std::vector<std::string> names;
  for (const core::Signal& s : StatesOf(axis)) names.push_back(s.name);
  return names;
}

std::vector<analysis::Mode> Modes(const Aircraft& aircraft, const std::optional<std::string>& axis) {
  std::optional<model::Axis> only;
  if (axis) only = ParseAxis(*axis);
  // The aircraft's modal analysis, computed once and kept (Aircraft::modes()).
  const analysis::ModalAnalysis* analysis = &aircraft.modes();
  std::vector<analysis::Mode> out;
  for (model::Axis a : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
    if (only && *only != a) continue;
    const std::vector<analysis::Mode>& modes = analysis->modes(a);
    out.insert(out.end(), modes.begin(), modes.end());
  }
  return out;
}

}  // namespace

void BindModes(py::module_& m) {
  using analysis::Mode;
  py::class_<Mode>(m, "Mode",
                   "One dynamic mode: a real eigenvalue or a complex-conjugate pair, named\n"
                   "from its eigenvector content (see the README's 'How modes are named').")
      .def_property_readonly("name", &Mode::full_name,
                             "display name with qualifier, e.g. 'phugoid (aperiodic)'")
      .def_property_readonly(
          "kind", [](const Mode& mode) { return std::string(analysis::CliName(mode.kind)); },
          "'short-period', 'phugoid', 'dutch-roll', 'roll', 'spiral', 'roll-spiral', 'heading'")
      .def_property_readonly("qualifier", &Mode::qualifier,
                             "e.g. 'aperiodic, divergent'; '' if none")
      .def_property_readonly("axis", [](const Mode& mode) { return std::string(model::AxisName(mode.axis)); },
                             "'longitudinal' or 'lateral'")
      .def_readonly("eigenvalue", &Mode::lambda,
                    "λ [1/s] (complex; the Im > 0 member of a pair)")
      .def_readonly("oscillatory", &Mode::oscillatory, "a complex pair")
      .def_readonly("stable", &Mode::stable)
      .def_readonly("wn", &Mode::natural_frequency, "natural frequency ωn = |λ| [rad/s]")
      .def_readonly("zeta", &Mode::damping_ratio, "damping ratio −Re λ/|λ| (±1 for a real root)")
      .def_readonly("period", &Mode::damped_period, "damped period 2π/ωd [s]; None for a real root")
      .def_readonly("t_half", &Mode::time_to_half, "time to half amplitude [s]; None if not decaying")
      .def_readonly("t_double", &Mode::time_to_double,
                    "time to double amplitude [s]; None if not growing")
      .def_readonly("tau", &Mode::time_constant, "time constant −1/λ [s] of a real root, else None")
      .def_readonly("cycles_to_half", &Mode::cycles_to_half, "t_half / period; stable pairs only")
      .def_property_readonly(
          "shape", [](const Mode& mode) -> Eigen::VectorXcd { return mode.shape; },
          "mode shape (complex128 array over `states`), the right eigenvector scaled so\n"
          "that the reference state is 1∠0°")
      .def_property_readonly(
          "left", [](const Mode& mode) -> Eigen::VectorXcd { return mode.left; },
          "left eigenvector w (wᴴA = λwᴴ, wᴴ·shape = 1); empty where not unique")
      .def_property_readonly("states", [](const Mode& mode) { return StateNames(mode.axis); },
                             "names of the shape's components")
      .def_property_readonly(
          "shape_reference",
          [](const Mode& mode) { return StatesOf(mode.axis).at(mode.reference_state).name; },
          "the state the shape is normalized to")
      .def_readonly("evidence", &Mode::dominant_states,
                    "evidence for the name: states whose scaled magnitude (u/U0, angles in rad,\n"
                    "rates / ωn) is at least 30 % of the largest, largest first")
      .def("__repr__", [](const Mode& mode) {
        return "<aerolin.Mode '" + mode.full_name() + "' λ=" +
               py::repr(py::cast(mode.lambda)).cast<std::string>() + ">";
      });

  m.def("modes", &Modes, py::arg("aircraft"), py::arg("axis") = py::none(),
        "The named dynamic modes, longitudinal then lateral (each axis by ωn\n"
        "descending, heading last): the numbers of `aerolin modes`. axis:\n"
        "'longitudinal' or 'lateral' for one axis only.");
}

}  // namespace aerolin::python
