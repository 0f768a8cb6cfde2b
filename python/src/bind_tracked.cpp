// aerolin.sensitivities, aerolin.sweep and aerolin.locus (`aerolin modes
// --sensitivity`, `aerolin sweep`, `aerolin locus`).

#include "bindings.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/analysis/sensitivity.hpp"
#include "aerolin/export/tracked_report.hpp"
#include "aerolin/study/limits.hpp"
#include "aerolin/study/maximize_damping.hpp"
#include "aerolin/study/tracked.hpp"
#include "aerolin/study/trim.hpp"

namespace aerolin::python {
namespace {

using analysis::ModeSensitivity;
using study::LocusResult;
using study::TrackedStudy;

std::vector<ModeSensitivity> Sensitivities(const Aircraft& aircraft) {
  py::gil_scoped_release release;
  return analysis::ModeSensitivities(aircraft.loaded.file);
}

TrackedStudy Sweep(const Aircraft& aircraft, const std::string& param, double start, double stop,
                   int steps, int threads) {
  study::CheckSweepSteps(steps, "steps");
  study::SweepOptions options;
  options.param = param;
  options.from = start;
  options.to = stop;
  options.steps = steps;
  options.threads = threads;
  py::gil_scoped_release release;
  return study::Sweep(aircraft.loaded.file, options);
}

TrackedStudy SweepTrimSpeed(const Aircraft& aircraft, double start, double stop, int steps,
                            std::optional<double> altitude, double gamma, int threads) {
  study::CheckSweepSteps(steps, "steps");
  study::TrimSpeedSweepOptions options;
  options.from = start;
  options.to = stop;
  options.steps = steps;
  options.altitude = altitude ? *altitude : study::ReferenceRequest(aircraft.data()).altitude;
  options.gamma = gamma;
  options.threads = threads;
  py::gil_scoped_release release;
  TrackedStudy study = study::SweepTrimSpeed(aircraft.data(), options);
  study.param = "trim speed [m/s]";  // as the CLI's "trim speed [ft/s]" names its unit
  return study;
}

LocusResult Locus(const Aircraft& aircraft, const std::string& input, const std::string& output,
                  std::vector<double> gains, std::optional<double> washout, int threads) {
  study::CheckGains(gains, "gains");
  study::LocusOptions options;
  options.input = input;
  options.output = output;
  options.gains = std::move(gains);
  options.washout_tau = washout;
  options.threads = threads;
  py::gil_scoped_release release;
  return study::Locus(aircraft.data(), options);
}

// `aerolin locus ... --maximize MODE`: the gain of the locus at `gains`
// that maximizes ζ of `mode`, as the "maximize" object of the CLI's JSON.
py::object MaximizeDamping(const Aircraft& aircraft, const std::string& input, const std::string& output,
                           std::vector<double> gains, const std::string& mode,
                           std::optional<double> washout, int threads) {
  study::CheckGains(gains, "gains");
  study::LocusOptions options;
  options.input = input;
  options.output = output;
  options.gains = std::move(gains);
  options.washout_tau = washout;
  options.threads = threads;
  std::string name = mode;
  if (const auto kind = analysis::ParseModeKind(mode)) name = analysis::ToString(*kind);
  std::string text;
  std::string unknown;  // the locus's mode names, if `mode` names none of them
  {
    py::gil_scoped_release release;
    const study::LocusResult locus = study::Locus(aircraft.data(), options);
    const study::DampingOptimum optimum = study::MaximizeDamping(aircraft.data(), options, locus, name);
    // As `aerolin locus --maximize`: a name that is no mode kind and names
    // no mode of this locus is a typo, not an absent mode.
    if (optimum.kind == study::DampingOptimumKind::kAbsent && !analysis::ParseModeKind(mode)) {
      for (const study::TrackedMode& m : locus.study.points.front().modes)
        if (unknown.find("'" + m.origin + "'") == std::string::npos)
          unknown += (unknown.empty() ? "'" : ", '") + m.origin + "'";
      if (unknown.empty()) unknown = "none";
    }
    text = exporting::DampingOptimumJson(optimum);
  }
  if (!unknown.empty())
    throw study::LimitError("maximize_damping: no mode named '" + mode + "' (a mode of this locus: " +
                            unknown + "; or short-period, phugoid, dutch-roll, roll, spiral, roll-spiral)");
  return py::module_::import("json").attr("loads")(text);
}

template <typename F>
py::array_t<double> KeyArray(const ModeSensitivity& s, F f) {
  std::vector<double> v;
  for (const analysis::KeySensitivity& k : s.keys) v.push_back(f(k));
  return ToNumpy(v);
}

// The study in long form, one row per (point, tracked mode), as the CSV of
// `aerolin sweep --csv`: {value, axis, name, origin, eigenvalue, wn, zeta,
// pointwise_name}, numbers as numpy arrays.
py::dict Columns(const TrackedStudy& s) {
  std::vector<double> value, wn, zeta;
  std::vector<std::complex<double>> lambda;
  std::vector<std::string> axis, name, origin, pointwise;
  for (const study::TrackedPoint& p : s.points)
    for (const study::TrackedMode& mode : p.modes) {
      value.push_back(p.value);
      axis.push_back(std::string(model::AxisName(mode.axis)));
      name.push_back(mode.name);
      origin.push_back(mode.origin);
      lambda.push_back(mode.lambda);
      wn.push_back(mode.wn);
      zeta.push_back(mode.zeta);
      pointwise.push_back(mode.pointwise_name);
    }
  py::dict d;
  d[py::str(s.param)] = ToNumpy(value);
  d["axis"] = axis;
  d["name"] = name;
  d["origin"] = origin;
  d["eigenvalue"] = ToNumpy(lambda);
  d["wn"] = ToNumpy(wn);
  d["zeta"] = ToNumpy(zeta);
  d["pointwise_name"] = pointwise;
  return d;
}

}  // namespace

void BindTracked(py::module_& m) {
  py::class_<ModeSensitivity>(
      m, "ModeSensitivity",
      "A mode's exact eigenvalue derivatives (forward-mode AD) with respect to every\n"
      "key of the file that enters A, per unit of the key as written.")
      .def_readonly("mode", &ModeSensitivity::mode)
      .def_property_readonly("keys",
                             [](const ModeSensitivity& s) {
                               std::vector<std::string> v;
                               for (const auto& k : s.keys) v.push_back(k.key);
                               return v;
                             },
                             "the keys, file order ('longitudinal.Mq', ...)")
      .def_property_readonly("values", [](const ModeSensitivity& s) { return KeyArray(s, [](auto& k) { return k.value; }); },
                             "the keys' values as written")
      .def_property_readonly("dlambda",
                             [](const ModeSensitivity& s) {
                               std::vector<std::complex<double>> v;
                               for (const auto& k : s.keys) v.push_back(k.dlambda);
                               return ToNumpy(v);
                             },
                             "dλ/dp [1/s per unit of the key], complex128")
      .def_property_readonly("dzeta", [](const ModeSensitivity& s) { return KeyArray(s, [](auto& k) { return k.dzeta; }); })
      .def_property_readonly("dwn", [](const ModeSensitivity& s) { return KeyArray(s, [](auto& k) { return k.dwn; }); })
      .def_property_readonly("relative_effect",
                             [](const ModeSensitivity& s) { return KeyArray(s, [](auto& k) { return k.relative_effect; }); },
                             "p·dζ/dp (pairs) or p·dλ/dp (real roots): the effect of a 100 % change")
      .def_property_readonly("top",
                             [](const ModeSensitivity& s) {
                               std::vector<std::string> v;
                               for (int i : s.top) v.push_back(s.keys.at(static_cast<std::size_t>(i)).key);
                               return v;
                             },
                             "the (up to) three keys of largest |relative_effect|")
      .def("__repr__", [](const ModeSensitivity& s) {
        return "<aerolin.ModeSensitivity '" + s.mode.full_name() + "', " + std::to_string(s.keys.size()) + " keys>";
      });

  py::class_<TrackedStudy>(m, "Tracked",
                           "A sweep or locus whose modes are tracked by name from the first point.")
      .def_readonly("param", &TrackedStudy::param, "the key as written, or 'gain'")
      .def_property_readonly("values",
                             [](const TrackedStudy& s) {
                               std::vector<double> v;
                               for (const auto& p : s.points) v.push_back(p.value);
                               return ToNumpy(v);
                             },
                             "the parameter at each point")
      .def_property_readonly("columns", &Columns,
                             "one row per (point, mode): {param, axis, name, origin, eigenvalue,\n"
                             "wn, zeta, pointwise_name} (numpy arrays for numbers, lists for names)")
      .def_property_readonly(
          "changes",
          [](const TrackedStudy& s) {
            py::list out;
            for (const study::StructureChange& c : s.changes) {
              py::dict d;
              d["value"] = c.value;
              d["axis"] = std::string(model::AxisName(c.axis));
              d["from"] = c.from;
              d["to"] = c.to;
              out.append(d);
            }
            return out;
          },
          "where a pair splits or two real roots join: dicts {value, axis, from, to}")
      .def_readonly("notes", &TrackedStudy::notes)
      .def_readonly("refinements", &TrackedStudy::refinements)
      .def("__repr__", [](const TrackedStudy& s) {
        return "<aerolin.Tracked " + s.param + ", " + std::to_string(s.points.size()) + " points>";
      });

  py::class_<LocusResult>(m, "Locus", "A root locus: the tracked closed-loop modes and the loop's poles and zeros.")
      .def_readonly("study", &LocusResult::study, "the tracked modes (param 'gain')")
      .def_property_readonly("axis", [](const LocusResult& l) { return std::string(model::AxisName(l.axis)); })
      .def_property_readonly("open_loop_poles", [](const LocusResult& l) { return ToNumpy(l.open_loop_poles); })
      .def_property_readonly("zeros", [](const LocusResult& l) { return ToNumpy(l.zeros); },
                             "finite zeros of y/δ (with the washout)")
      .def_readonly("gain_unit", &LocusResult::gain_unit)
      .def("__repr__", [](const LocusResult& l) {
        return "<aerolin.Locus " + std::to_string(l.study.points.size()) + " gains>";
      });

  m.def("sensitivities", &Sensitivities, py::arg("aircraft"),
        "Every mode but heading with dλ/dp for each key of the file that enters A\n"
        "(`aerolin modes --sensitivity`). The aircraft must come from a file.");
  m.def("sweep", &Sweep, py::arg("aircraft"), py::arg("param"), py::arg("start"), py::arg("stop"),
        py::arg("steps"), py::arg("threads") = 0,
        "Moves one key as written (e.g. 'longitudinal.Mq', see Aircraft.keys) from start\n"
        "to stop in `steps` values and tracks every mode by name (`aerolin sweep`).");
  m.def("sweep_trim_speed", &SweepTrimSpeed, py::arg("aircraft"), py::arg("start"), py::arg("stop"),
        py::arg("steps"), py::arg("altitude") = py::none(), py::arg("gamma") = 0.0, py::arg("threads") = 0,
        "Trims and linearizes the nonlinear model at `steps` airspeeds from start to stop [m/s]\n"
        "(straight flight at `altitude` [m], None: the file's, and `gamma` [rad]) and tracks\n"
        "every mode by name (`aerolin sweep --trim-speed`, which takes the file's units).\n"
        "TrimError names a speed without a trim.");
  m.def("locus", &Locus, py::arg("aircraft"), py::arg("input"), py::arg("output"), py::arg("gains"),
        py::arg("washout") = py::none(), py::arg("threads") = 0,
        "Root locus of δ_input = K·y_output at the gains K, through a washout\n"
        "s/(s + 1/τ) with τ = washout [s] if given (`aerolin locus`).");
  m.def("maximize_damping", &MaximizeDamping, py::arg("aircraft"), py::arg("input"), py::arg("output"),
        py::arg("gains"), py::arg("mode"), py::arg("washout") = py::none(), py::arg("threads") = 0,
        "The gain that maximizes the damping ratio of `mode` (e.g. 'dutch roll') on the\n"
        "locus of δ_input = K·y_output: the best of `gains`, refined between its neighbours\n"
        "(`aerolin locus --maximize`); a dict as the CLI JSON's \"maximize\" object.");
}

}  // namespace aerolin::python
