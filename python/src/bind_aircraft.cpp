// Errors, signals, state-space models, the aircraft and aerolin.load.

#include <filesystem>
#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/model/airplane_class.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::python {

Aircraft::Aircraft(data::LoadResult result, std::string path_in)
    : loaded(std::move(result)),
      path(std::move(path_in)),
      longitudinal(model::BuildAugmented(loaded.aircraft, model::Axis::kLongitudinal)),
      lateral(model::BuildAugmented(loaded.aircraft, model::Axis::kLateral)) {}

model::Axis ParseAxis(const std::string& text) {
  if (text == "longitudinal" || text == "lon") return model::Axis::kLongitudinal;
  if (text == "lateral" || text == "lat") return model::Axis::kLateral;
  throw std::invalid_argument("unknown axis '" + text + "' (expected 'longitudinal' or 'lateral')");
}

py::array_t<double> ToNumpy(const std::vector<double>& values) {
  py::array_t<double> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

py::array_t<std::complex<double>> ToNumpy(const std::vector<std::complex<double>>& values) {
  py::array_t<std::complex<double>> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

namespace {

// A file that is not there is Python's FileNotFoundError (the CLI's usage
// error, exit 2), not a defect of its contents.
// A directory is IsADirectoryError; a device or FIFO (`/dev/zero`) goes on to
// the reader, whose DataError says what it is without reading it.
void RequireFile(const std::string& path, const char* what) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::directory) {
    PyErr_SetObject(PyExc_IsADirectoryError,
                    py::make_tuple(21, std::string(what) + " is a directory", path).ptr());
    throw py::error_already_set();
  }
  if (!std::filesystem::exists(status)) {
    PyErr_SetObject(PyExc_FileNotFoundError,
                    py::make_tuple(2, std::string(what) + " not found", path).ptr());
    throw py::error_already_set();
  }
}

std::shared_ptr<Aircraft> Load(const std::string& path) {
  RequireFile(path, "aircraft data file");
  data::LoadResult result;
  {
    py::gil_scoped_release release;
    result = data::LoadAircraftFile(path);
  }
  return std::make_shared<Aircraft>(std::move(result), path);
}

std::shared_ptr<Aircraft> Loads(const std::string& text, const std::string& path) {
  data::LoadResult result;
  {
    py::gil_scoped_release release;
    result = data::LoadAircraftString(text, path);
  }
  return std::make_shared<Aircraft>(std::move(result), path);
}

py::list SignalList(const std::vector<core::Signal>& signals) {
  py::list out;
  for (const core::Signal& s : signals) out.append(py::cast(s));
  return out;
}

std::optional<std::string> ClassName(const model::AircraftData& a) {
  if (!a.aircraft_class) return std::nullopt;
  return std::string(model::ToString(*a.aircraft_class));
}

std::optional<std::string> CategoryName(const model::FlightCondition& c) {
  if (!c.category) return std::nullopt;
  return std::string(model::ToString(*c.category));
}

}  // namespace

void BindErrors(py::module_& m) {
  static py::exception<core::DataError> data_error(m, "DataError", PyExc_ValueError);
  data_error.doc() =
      "A defect in a data file or pilot script. str(e) holds one\n"
      "'path:line: problem (hint)' line per defect (the compiler format, as the\n"
      "CLI prints it); e.defects is a list of (path, line, message) tuples.";
  static py::exception<core::NumericalError> numerical_error(m, "NumericalError",
                                                             PyExc_ArithmeticError);
  numerical_error.doc() =
      "A numerical method failed (eigen-decomposition did not converge, the\n"
      "integrator could not meet its tolerance).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const core::DataError& e) {
      py::list defects;
      for (const core::Diagnostic& d : e.defects())
        defects.append(py::make_tuple(d.where.path, d.where.line, d.message));
      py::object instance = py::handle(data_error.ptr())(e.what());
      instance.attr("defects") = defects;
      PyErr_SetObject(data_error.ptr(), instance.ptr());
    } catch (const core::NumericalError& e) {
      numerical_error(e.what());
    }
  });
}

void BindAircraft(py::module_& m) {
  py::class_<core::Signal>(m, "Signal",
                           "A named, unit-tagged quantity (a state, input or output).")
      .def_readonly("name", &core::Signal::name, "ASCII name, as in CSV headers: 'alpha'")
      .def_property_readonly(
          "unit", [](const core::Signal& s) { return std::string(core::ToString(s.unit)); },
          "SI unit: '1', 'rad', 'rad/s', 'm', 'm/s', 's' or 'g'")
      .def_readonly("symbol", &core::Signal::symbol, "typographic symbol: 'α'")
      .def("__repr__", [](const core::Signal& s) {
        return "Signal('" + s.name + "', '" + std::string(core::ToString(s.unit)) + "')";
      });

  py::class_<model::StateSpace>(
      m, "StateSpace",
      "A continuous-time linear model  ẋ = A x + B u,  y = C x + D u  (SI units).\n"
      "A, B, C, D are float64 numpy arrays (copies); states, inputs and outputs are\n"
      "lists of Signal (name and unit).")
      .def_property_readonly("A", [](const model::StateSpace& s) -> Eigen::MatrixXd { return s.A(); },
                             "num_states × num_states")
      .def_property_readonly("B", [](const model::StateSpace& s) -> Eigen::MatrixXd { return s.B(); },
                             "num_states × num_inputs")
      .def_property_readonly("C", [](const model::StateSpace& s) -> Eigen::MatrixXd { return s.C(); },
                             "num_outputs × num_states")
      .def_property_readonly("D", [](const model::StateSpace& s) -> Eigen::MatrixXd { return s.D(); },
                             "num_outputs × num_inputs")
      .def_property_readonly("states", [](const model::StateSpace& s) { return SignalList(s.states()); })
      .def_property_readonly("inputs", [](const model::StateSpace& s) { return SignalList(s.inputs()); })
      .def_property_readonly("outputs", [](const model::StateSpace& s) { return SignalList(s.outputs()); })
      .def("__repr__", [](const model::StateSpace& s) {
        std::string states;
        for (const core::Signal& x : s.states()) states += (states.empty() ? "" : ", ") + x.name;
        return "StateSpace(states=[" + states + "], " + std::to_string(s.num_inputs()) +
               " inputs, " + std::to_string(s.num_outputs()) + " outputs)";
      });

  py::class_<model::FlightCondition>(m, "Condition", "The trim (reference) flight condition, SI.")
      .def_readonly("U0", &model::FlightCondition::U0, "trim speed along stability x [m/s]")
      .def_readonly("W0", &model::FlightCondition::W0, "trim speed along z [m/s]")
      .def_readonly("theta0", &model::FlightCondition::theta0, "trim pitch attitude [rad]")
      .def_readonly("g", &model::FlightCondition::g, "gravity [m/s²]")
      .def_readonly("altitude", &model::FlightCondition::altitude, "[m], or None")
      .def_readonly("mach", &model::FlightCondition::mach, "or None")
      .def_property_readonly("category", &CategoryName,
                             "MIL-F-8785C flight-phase category 'A', 'B', 'C', or None")
      .def("__repr__", [](const model::FlightCondition& c) {
        return "Condition(U0=" + py::repr(py::float_(c.U0)).cast<std::string>() +
               ", theta0=" + py::repr(py::float_(c.theta0)).cast<std::string>() + ")";
      });

  py::class_<model::Control>(m, "Control", "A control effector and its normalized derivatives.")
      .def_readonly("name", &model::Control::name)
      .def_property_readonly(
          "unit", [](const model::Control& c) { return std::string(core::ToString(c.unit)); },
          "'rad' or '1'")
      .def_readonly("min", &model::Control::min, "lower limit [unit], or None")
      .def_readonly("max", &model::Control::max, "upper limit [unit], or None")
      .def_readonly("longitudinal", &model::Control::longitudinal, "enters the longitudinal B")
      .def_readonly("lateral", &model::Control::lateral, "enters the lateral B")
      .def("__repr__", [](const model::Control& c) {
        return "Control('" + c.name + "', '" + std::string(core::ToString(c.unit)) + "')";
      });

  py::class_<Aircraft, std::shared_ptr<Aircraft>>(
      m, "Aircraft",
      "An aircraft at one flight condition, loaded by aerolin.load (SI inside).")
      .def_property_readonly("name", [](const Aircraft& a) { return a.data().name; })
      .def_property_readonly("source", [](const Aircraft& a) { return a.data().source; },
                             "citation of the derivatives")
      .def_property_readonly("path", [](const Aircraft& a) { return a.path; },
                             "the file it was loaded from")
      .def_property_readonly("aircraft_class", [](const Aircraft& a) { return ClassName(a.data()); },
                             "MIL-F-8785C class 'I', 'II-C', 'II-L', 'III', 'IV', or None")
      .def_property_readonly("condition", [](const Aircraft& a) { return a.data().condition; })
      .def_property_readonly("controls", [](const Aircraft& a) { return a.data().controls; },
                             "the controls, in data-file order (the simulate columns' order)")
      .def_property_readonly(
          "warnings",
          [](const Aircraft& a) {
            std::vector<std::string> out;
            for (const core::Diagnostic& d : a.loaded.warnings) out.push_back(d.ToString());
            return out;
          },
          "'path:line: ...' lines for implausible values that did not stop the load")
      .def_property_readonly("longitudinal", [](const Aircraft& a) { return a.longitudinal; },
                             "StateSpace of (u, alpha, q, theta) and the controls")
      .def_property_readonly("lateral", [](const Aircraft& a) { return a.lateral; },
                             "StateSpace of (beta, p, r, phi, psi) and the controls")
      .def(
          "with_outputs",
          [](const Aircraft& a, const std::string& axis) {
            return model::BuildWithOutputs(a.data(), ParseAxis(axis));
          },
          py::arg("axis"),
          "Returns the axis's StateSpace with the derived outputs appended to the\n"
          "states: nz [g] and gamma [rad] (longitudinal), ay [g] (lateral).")
      .def_property_readonly(
          "gust_input", [](const Aircraft& a) { return model::BuildGustInput(a.data()); },
          "E (9 × 4): state rates of (u, alpha, q, theta, beta, p, r, phi, psi) per\n"
          "wind (u_g, v_g, w_g [m/s], p_g [rad/s]).")
      .def_property_readonly(
          "keys",
          [](const Aircraft& a) {
            py::dict out;
            for (const model::WrittenKey& k : a.loaded.file.keys) out[py::str(k.path)] = k.value;
            return out;
          },
          "Every numeric key of the file as written (its units): {'longitudinal.Mq': -1.2, ...};\n"
          "the names aerolin.sweep and aerolin.sensitivities use.")
      .def("__repr__", [](const Aircraft& a) { return "<aerolin.Aircraft '" + a.data().name + "'>"; });

  m.def("load", &Load, py::arg("path"),
        "Reads an aircraft data file (TOML, data/derivatives/README.md) and converts it\n"
        "once to SI. Raises aerolin.DataError (a ValueError) listing every defect as\n"
        "'path:line: problem (hint)', FileNotFoundError if there is no such file.");
  m.def("loads", &Loads, py::arg("text"), py::arg("path") = "<string>",
        "As load, for TOML text in memory; `path` is used in messages only.");
}

}  // namespace aerolin::python
