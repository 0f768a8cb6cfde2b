// aerolin.identify (`aerolin identify --json`): derivatives from a recorded
// flight with their standard errors.

#include <map>
#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/export/identify_report.hpp"
#include "aerolin/study/identify.hpp"

namespace aerolin::python {
namespace {

py::object Identify(const py::object& aircraft_or_path, const std::string& flight, const std::string& axis,
                    const std::vector<std::string>& free, const std::string& method, bool fix_x0, bool fix_bias,
                    const std::map<std::string, std::string>& columns) {
  py::object loaded = aircraft_or_path;
  if (py::isinstance<py::str>(aircraft_or_path))
    loaded = py::module_::import("aerolin._aerolin").attr("load")(aircraft_or_path);
  const Aircraft& aircraft = loaded.cast<const Aircraft&>();
  study::IdentifySpec spec;
  spec.axis = ParseAxis(axis);
  spec.free = free;
  const std::optional<study::IdentifyMethod> parsed = study::ParseIdentifyMethod(method);
  if (!parsed) throw py::value_error("method must be 'output-error' or 'equation-error', got '" + method + "'");
  spec.method = *parsed;
  spec.estimate_x0 = !fix_x0;
  spec.estimate_bias = !fix_bias;
  // The dict as `--columns` entries: one parser, one set of messages.
  std::vector<std::string> entries;
  for (const auto& [name, column] : columns) entries.push_back(name + "=" + column);
  const std::vector<data::ColumnMapping> map = data::ParseColumnMap(entries);
  std::string json;
  {
    py::gil_scoped_release release;
    const study::IdentifyResult result = study::IdentifyFlightCsv(aircraft.loaded.file, flight, spec, map);
    const exporting::IdentifiedFile identified = exporting::IdentifiedFileOf(
        core::ReadInputFile(aircraft.path), aircraft.path, aircraft.path + " (identified)", result);
    json = exporting::IdentifyJson(result, aircraft.path, flight, identified.levels);
  }
  // The document of `aerolin identify --json`, as Python objects: one truth.
  return py::module_::import("json").attr("loads")(json);
}

}  // namespace

void BindIdentify(py::module_& m) {
  m.def("identify", &Identify, py::arg("aircraft"), py::arg("flight"), py::arg("axis"), py::arg("free"),
        py::arg("method") = "output-error", py::arg("fix_x0") = false, py::arg("fix_bias") = false,
        py::arg("columns") = std::map<std::string, std::string>{},
        "Estimates keys of a data file from a recorded flight (`aerolin identify --json`,\n"
        "schema aerolin.identify/1) as a dict.\n"
        "\n"
        "aircraft  an Aircraft, or the path of a data file (its text is read again for the\n"
        "          identified file's levels)\n"
        "flight    the CSV of `simulate --csv` (t, the axis's states and controls)\n"
        "axis      'longitudinal' or 'lateral'\n"
        "free      the keys to estimate, as written in the file\n"
        "method    'output-error' (maximum likelihood) or 'equation-error'\n"
        "fix_x0    start at the first sample instead of estimating x0\n"
        "fix_bias  estimate no output biases\n"
        "columns   any other CSV: {aerolin name: 'COLUMN' or 'COLUMN:UNIT'}, e.g.\n"
        "          {'alpha': 'AoA_deg:deg', 't': 'time_ms:ms'} (`--columns`; no unit: SI)");
}

}  // namespace aerolin::python
