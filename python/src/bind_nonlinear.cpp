// aerolin.trim and aerolin.linearize (`aerolin trim --json`, `aerolin
// linearize --json`): the nonlinear 6-DOF model's trim and linearization,
// SI keyword arguments, the CLI's JSON documents as Python objects.

#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/export/nonlinear_report.hpp"
#include "aerolin/study/linearize.hpp"
#include "aerolin/study/trim.hpp"

namespace aerolin::python {
namespace {

py::object Loaded(const py::object& aircraft_or_path) {
  if (py::isinstance<py::str>(aircraft_or_path))
    return py::module_::import("aerolin._aerolin").attr("load")(aircraft_or_path);
  return aircraft_or_path;
}

// The request of the keywords: each None is the file's reference (speed,
// altitude, gamma), as `aerolin linearize` without trim options.
study::TrimRequest RequestOf(const model::AircraftData& a, std::optional<double> speed,
                             std::optional<double> altitude, std::optional<double> gamma,
                             std::optional<double> turn_rate, std::optional<double> bank,
                             double sideslip) {
  study::TrimRequest r = study::ReferenceRequest(a);
  if (speed) r.speed = *speed;
  if (altitude) r.altitude = *altitude;
  if (gamma) r.gamma = *gamma;
  r.turn_rate = turn_rate;
  r.bank = bank;
  r.sideslip = sideslip;
  return r;
}

py::object Json(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

py::object Trim(const py::object& aircraft_or_path, std::optional<double> speed,
                std::optional<double> altitude, std::optional<double> gamma,
                std::optional<double> turn_rate, std::optional<double> bank, double sideslip) {
  const py::object loaded = Loaded(aircraft_or_path);
  const Aircraft& aircraft = loaded.cast<const Aircraft&>();
  const study::TrimRequest r = RequestOf(aircraft.data(), speed, altitude, gamma, turn_rate, bank, sideslip);
  std::string json;
  {
    py::gil_scoped_release release;
    json = exporting::TrimJson({aircraft.path, aircraft.data().name, r}, study::Trim(aircraft.data(), r));
  }
  return Json(json);
}

py::object Linearize(const py::object& aircraft_or_path, std::optional<double> speed,
                     std::optional<double> altitude, std::optional<double> gamma) {
  const py::object loaded = Loaded(aircraft_or_path);
  const Aircraft& aircraft = loaded.cast<const Aircraft&>();
  const study::TrimRequest r = RequestOf(aircraft.data(), speed, altitude, gamma, std::nullopt,
                                         std::nullopt, 0.0);
  std::string json, toml;
  {
    py::gil_scoped_release release;
    const study::LinearizeResult result = study::Linearize(aircraft.data(), r);
    const exporting::NonlinearReportHeader header{aircraft.path, aircraft.data().name, r};
    json = exporting::LinearizeJson(header, result);
    toml = exporting::LinearizedToml(header, result, "aerolin.linearize (Python)");
  }
  py::object doc = Json(json);
  doc["toml"] = toml;
  return doc;
}

}  // namespace

void BindNonlinear(py::module_& m) {
  static py::exception<study::TrimError> trim_error(m, "TrimError", PyExc_RuntimeError);
  trim_error.doc() =
      "No trim exists within the model and the limits: str(e) names the equation left\n"
      "unsatisfied, by how much, and the limit that binds (`aerolin trim` exits 4).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const study::TrimError& e) {
      trim_error(e.what());
    }
  });
  m.def("trim", &Trim, py::arg("aircraft"), py::arg("speed") = py::none(),
        py::arg("altitude") = py::none(), py::arg("gamma") = py::none(),
        py::arg("turn_rate") = py::none(), py::arg("bank") = py::none(), py::arg("sideslip") = 0.0,
        "Trim of the nonlinear 6-DOF model (`aerolin trim --json`, schema aerolin.trim/1):\n"
        "speed [m/s], altitude [m], gamma, bank, sideslip [rad], turn_rate [rad/s], SI (the\n"
        "CLI takes the file's units); None: the file's reference speed, altitude, gamma.\n"
        "ValueError for a bad request; TrimError when there is no trim.");
  m.def("linearize", &Linearize, py::arg("aircraft"), py::arg("speed") = py::none(),
        py::arg("altitude") = py::none(), py::arg("gamma") = py::none(),
        "Linearization of the nonlinear model at a straight trim (`aerolin linearize --json`,\n"
        "schema aerolin.linearize/1), plus 'toml': the data file `--write` writes (aerolin.loads\n"
        "reads it). None: the file's reference.");
}

}  // namespace aerolin::python
