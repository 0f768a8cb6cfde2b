// aerolin.rms (`aerolin rms`): exact rough-air statistics.

#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/export/rough_air_report.hpp"
#include "aerolin/study/rough_air.hpp"

namespace aerolin::python {
namespace {

py::object Rms(const Aircraft& aircraft, const std::string& turbulence,
               std::optional<double> altitude, std::optional<double> span, double dt) {
  const std::optional<sim::TurbulenceIntensity> intensity = sim::ParseTurbulenceIntensity(turbulence);
  if (!intensity)
    throw std::invalid_argument("turbulence '" + turbulence +
                                "' (expected 'light', 'moderate' or 'severe')");
  study::RoughAirSpec spec;
  spec.turbulence.intensity = *intensity;
  spec.turbulence.height = altitude;
  spec.turbulence.span = span;
  spec.dt = dt;
  std::string json;
  const analysis::ModalAnalysis& modes = aircraft.modes();  // kept by the Aircraft
  {
    py::gil_scoped_release release;
    json = exporting::RoughAirJson(aircraft.data(), aircraft.path,
                                   study::ExactRoughAirStatistics(aircraft.data(), modes, spec));
  }
  // The document of `aerolin rms --json`, as Python objects: one truth.
  return py::module_::import("json").attr("loads")(json);
}

}  // namespace

void BindRoughAir(py::module_& m) {
  m.def("rms", &Rms, py::arg("aircraft"), py::arg("turbulence"), py::arg("altitude") = py::none(),
        py::arg("span") = py::none(), py::arg("dt") = study::RoughAirSpec{}.dt,
        "Exact rough-air statistics, no Monte Carlo (`aerolin rms --json`): the RMS of\n"
        "every state and of nz, gamma, ay in Dryden turbulence with the controls fixed,\n"
        "the RMS of their rates and their zero up-crossings per second n0_per_s.\n"
        "\n"
        "turbulence 'light', 'moderate' or 'severe' at `altitude` [m] above ground\n"
        "           (default: the file's [condition] altitude when above 0, else 304.8 m),\n"
        "           wing `span` [m] for the\n"
        "           rolling gust (default: the file's [geometry] b)\n"
        "dt         the slice step [s] the flight is sampled at (as simulate's dt)\n"
        "\n"
        "Returns the aerolin.rms/1 document as a dict: 'outputs' is a list of\n"
        "{'name', 'unit', 'axis', 'rms', 'rate_rms', 'n0_per_s', 'gust_feedthrough'}\n"
        "(SI; nz and ay in g). A level y is exceeded n0_per_s * exp(-y**2 / (2 rms**2))\n"
        "times per second (Rice's formula). An axis with a mode that is not stable has no\n"
        "outputs and is listed in 'not_stationary' with the reason.");
}

}  // namespace aerolin::python
