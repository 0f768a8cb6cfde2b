// aerolin.simulate: the flight of `aerolin simulate`, set up by the same
// study::Prepare from a study::FlightSpec, with the controls from a pilot
// script, a table, a mapping of per-control values or a Python callable.

#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "bindings.hpp"
#include "simulate_arguments.hpp"
#include "trajectory.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/flight_setup.hpp"

namespace aerolin::python {
namespace {

// The mode `excite` names; ValueError for anything else.
analysis::ModeKind ExciteKind(const std::string& spelling) {
  const std::optional<analysis::ModeKind> kind = analysis::ParseModeKind(spelling);
  if (!kind || *kind == analysis::ModeKind::kHeading)
    throw std::invalid_argument("excite: unknown mode '" + spelling + "' (" +
                                study::StartableModeList() + ")");
  return *kind;
}

Trajectory Simulate(const Aircraft& aircraft, double duration, double dt,
                    const std::string& integrator, const std::optional<std::string>& script,
                    const py::object& controls, const std::optional<std::string>& excite,
                    std::optional<double> amplitude, double rtol, double atol,
                    const py::object& x0, const std::optional<std::string>& turbulence,
                    std::optional<double> altitude, std::optional<double> span,
                    std::uint64_t seed, const py::object& gusts, bool bare) {
  // Keyword arguments -> the one flight request.
  study::FlightSpec spec;
  spec.bare = bare;
  data::RequireFlyable(aircraft.loaded);
  const model::AircraftData a = study::FlownAircraft(aircraft.data(), spec);
  const std::optional<sim::Integrator> parsed = sim::ParseIntegrator(integrator);
  if (!parsed)
    throw std::invalid_argument("integrator '" + integrator + "' (expected 'rk45' or 'exact')");
  spec.slice.integrator = *parsed;
  spec.slice.dt = dt;
  spec.slice.rtol = rtol;
  spec.slice.atol = atol;
  // dt, rtol, atol and the duration's slices are study::Validate's (in
  // study::Prepare), with the messages of every front end; a duration of 0,
  // which the spec reads as "none", is no flight here.
  if (!(duration > 0) || !std::isfinite(duration))
    throw std::invalid_argument("duration must be a finite number > 0, got " +
                                (std::ostringstream() << duration).str());
  spec.duration = duration;
  if (amplitude && !excite) throw std::invalid_argument("amplitude needs excite");
  if (amplitude && !(*amplitude > 0)) throw std::invalid_argument("amplitude must be positive");
  if (script && !controls.is_none())
    throw std::invalid_argument("give the controls as a script or as `controls`, not both");
  if (excite && !x0.is_none()) throw std::invalid_argument("give excite or x0, not both");
  if (excite) spec.excite = ExciteKind(*excite);
  spec.amplitude = amplitude;
  spec.fallback = study::ModeFallback::kExact;
  if (!x0.is_none()) spec.x0 = InitialState(x0);
  if (turbulence) {
    const std::optional<sim::TurbulenceIntensity> intensity =
        sim::ParseTurbulenceIntensity(*turbulence);
    if (!intensity)
      throw std::invalid_argument("turbulence '" + *turbulence +
                                  "' (expected 'light', 'moderate' or 'severe')");
    spec.turbulence = study::TurbulenceSpec{*intensity, altitude, seed, span};
  }
  if (!gusts.is_none()) spec.gusts = Gusts(gusts);
  if (script) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*script, ec)) {
      PyErr_SetObject(PyExc_FileNotFoundError,
                      py::make_tuple(2, "pilot script not found", *script).ptr());
      throw py::error_already_set();
    }
    spec.script = *script;
  }

  // Controls of Python's own (a callable or a table); else the spec's script or hands off.
  std::unique_ptr<sim::InputSource> source;
  std::exception_ptr pending;  // a Python exception raised by a callable
  py::object callable;
  if (!controls.is_none() && PyCallable_Check(controls.ptr())) {
    callable = controls;
    const Eigen::Index n = static_cast<Eigen::Index>(a.controls.size());
    source = std::make_unique<sim::FunctionControls>(sim::FunctionControls::Writer(
        [&callable, &pending, n](double t, Eigen::Ref<Eigen::VectorXd> out) {
          py::gil_scoped_acquire acquire;
          try {
            const py::object value = callable(t);
            const auto array =
                py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
            if (!array || array.ndim() > 1 || array.size() != n)
              throw py::value_error("controls(t) at t = " + std::to_string(t) +
                                    " must return " + std::to_string(n) + " numbers, one per control");
            for (Eigen::Index c = 0; c < n; ++c) out[c] = array.data()[c];
          } catch (...) {
            pending = std::current_exception();
            throw PythonCallbackFailed{};
          }
        }));
  } else if (!controls.is_none()) {
    source = std::make_unique<sim::SampledControls>(ControlTable(controls, a.controls));
  }

  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(a);
  study::PreparedFlight flight = [&] {
    try {
      return study::Prepare(a, modes, spec, source.get());
    } catch (const study::MissingModeError& e) {
      throw std::invalid_argument(e.what());
    }
  }();
  TrajectoryRecorder rows(spec.windy() ? &flight.WindOfLastSlice() : nullptr,
                          sim::NumSlices(duration, dt) + 1);
  sim::SimulationResult result;
  try {
    py::gil_scoped_release release;
    result = sim::Simulate(flight.model(), flight.x0(), flight.input(), flight.options(), rows);
  } catch (const PythonCallbackFailed&) {
    std::rethrow_exception(pending);
  }
  Trajectory trajectory(rows, result.log.control_units, result, flight.options(),
                        excite ? flight.start().amplitude : std::nullopt);
  {
    py::gil_scoped_release release;  // freeing a long row buffer takes a while too
    const TrajectoryRecorder freed = std::move(rows);
  }
  return trajectory;
}

}  // namespace

void BindSimulate(py::module_& m) {
  py::class_<sim::DiscreteGust>(
      m, "Gust",
      "A MIL-F-8785C discrete '1 − cos' gust along the model's u, v or w axis:\n"
      "v(x) = v_m/2 (1 − cos(π x/d_m)) over the first d_m metres flown into it\n"
      "(x = U0 (t − start)), then v_m.")
      .def(py::init([](const std::string& axis, double amplitude, double length, double start) {
             return sim::DiscreteGust{ParseGustAxisOrThrow(axis), amplitude, length, start};
           }),
           py::arg("axis"), py::arg("amplitude"), py::arg("length"), py::arg("start") = 0.0,
           "axis 'u', 'v' or 'w'; amplitude v_m [m/s] (signed, + along the axis: w down);\n"
           "length d_m [m] to reach v_m; start t0 [s]")
      .def_property_readonly("axis",
                             [](const sim::DiscreteGust& g) { return std::string(sim::ToString(g.axis)); })
      .def_readonly("amplitude", &sim::DiscreteGust::amplitude)
      .def_readonly("length", &sim::DiscreteGust::length)
      .def_readonly("start", &sim::DiscreteGust::start);

  BindTrajectory(m);

  m.def("simulate", &Simulate, py::arg("aircraft"), py::arg("duration"), py::arg("dt") = 0.1,
        py::arg("integrator") = "rk45", py::arg("script") = py::none(),
        py::arg("controls") = py::none(), py::arg("excite") = py::none(),
        py::arg("amplitude") = py::none(), py::arg("rtol") = 1e-6, py::arg("atol") = 1e-9,
        py::arg("x0") = py::none(), py::arg("turbulence") = py::none(),
        py::arg("altitude") = py::none(), py::arg("span") = py::none(), py::arg("seed") = study::kDefaultTurbulenceSeed,
        py::arg("gusts") = py::none(), py::arg("bare") = false,
        "Flies the 12-state linear model in slices of dt [s] with the controls held\n"
        "over each slice, as `aerolin simulate` does (same engine, same numbers:\n"
        "with a script the columns equal the CLI's CSV bit for bit).\n\n"
        "duration   flight time [s], a whole number of slices\n"
        "integrator 'rk45' (Dormand–Prince, rtol/atol) or 'exact' (matrix exponential)\n"
        "script     path of a pilot script ('t0 t1 KEY' / 't0 t1 set CONTROL VALUE')\n"
        "controls   instead of a script: a callable f(t) -> one value per control\n"
        "           (called at each slice start t = k·dt, held over the slice); a\n"
        "           (slices, n_controls) array, row k held over slice k and the last\n"
        "           row after it; a 1-D array of n_controls constants; or a dict\n"
        "           {control name: number or per-slice array} (others 0)\n"
        "excite     start on a mode: 'short-period', 'phugoid', 'dutch-roll', 'roll',\n"
        "           'spiral', 'roll-spiral'; amplitude of its reference state\n"
        "           (default 0.02 rad or rad/s, 0.02·U0 for u)\n"
        "x0         or an initial state: {state name: value} or 12 values\n"
        "turbulence Dryden turbulence (MIL-F-8785C) 'light', 'moderate', 'severe' at\n"
        "           `altitude` [m] above ground (default: the file's [condition]\n"
        "           altitude when above 0, else 1000 ft = 304.8 m), wing `span` [m]\n"
        "           for the rolling gust (default: the file's [geometry] b; none if it\n"
        "           gives none), random `seed` (default 1)\n"
        "gusts      discrete 1 − cos gusts: aerolin.Gust objects or dicts\n"
        "           {'axis', 'amplitude', 'length', 'start'}\n"
        "bare       fly the bare airframe: the file's [augmentation] off (`--bare`)\n\n"
        "Everything is SI (the command line takes --altitude and --gust in the data\n"
        "file's units): with the same flight, the columns and to_csv() equal\n"
        "`aerolin simulate --csv` bit for bit, default arguments included. With\n"
        "turbulence or gusts the trajectory has the wind columns u_g, v_g, w_g, p_g.\n"
        "Controls are in data-file order and units (rad, or 1 for throttle). The GIL is\n"
        "released while the flight runs (a callable re-acquires it per slice). Raises\n"
        "ValueError for bad arguments, aerolin.DataError for a bad script.");
}

}  // namespace aerolin::python
