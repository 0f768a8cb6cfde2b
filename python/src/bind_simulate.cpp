// aerolin.simulate: the flight of `aerolin simulate`, with the controls from
// a pilot script, a table, a mapping of per-control values or a Python
// callable, optional Dryden turbulence and discrete gusts; and the
// Trajectory it returns (a read-only mapping of numpy columns).

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/export/flight_csv.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/sim/gust_input.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/start_on_mode.hpp"

namespace aerolin::python {
namespace {

// A finished flight: every logged row as one column-major (n_rows ×
// n_columns) float64 array, so each column is a contiguous view of it.
class Trajectory {
 public:
  Trajectory(const sim::SimulationResult& result, const sim::SimulationOptions& options,
             std::optional<double> amplitude)
      : stopped_(result.stopped),
        validity_(result.validity),
        slices_(result.slices),
        rk_steps_(result.rk_steps),
        rk_rejected_(result.rk_rejected),
        dt_(options.slice.dt),
        integrator_(sim::ToString(options.slice.integrator)),
        amplitude_(amplitude) {
    const sim::FlightLog& log = result.log;
    columns_.push_back("t");
    units_.push_back("s");
    for (const core::Signal& s : sim::FlightStateSignals()) {
      columns_.push_back(s.name);
      units_.push_back(std::string(core::ToString(s.unit)));
    }
    num_controls_ = static_cast<int>(log.control_names.size());
    columns_.insert(columns_.end(), log.control_names.begin(), log.control_names.end());
    units_.insert(units_.end(), log.control_units.begin(), log.control_units.end());
    const auto rows = static_cast<py::ssize_t>(log.size());
    const auto cols = static_cast<py::ssize_t>(columns_.size());
    data_ = py::array_t<double, py::array::f_style>({rows, cols});
    double* d = data_.mutable_data();
    // Filling raw memory needs no GIL; for a long flight this (and the page
    // faults of the fresh array) costs milliseconds other threads can use.
    py::gil_scoped_release release;
    for (py::ssize_t k = 0; k < rows; ++k) {
      // The slice grid's decimals, as `aerolin simulate --csv` writes them.
      d[k] = exporting::SliceGridTime(log.time[k], dt_);
      for (int i = 0; i < sim::kNumFlightStates; ++i) d[(1 + i) * rows + k] = log.state[k][i];
      for (int c = 0; c < num_controls_; ++c)
        d[(1 + sim::kNumFlightStates + c) * rows + k] = log.controls[k][c];
    }
  }

  py::ssize_t rows() const { return data_.shape(0); }

  py::array_t<double> Column(const std::string& name) const {
    for (std::size_t j = 0; j < columns_.size(); ++j)
      if (columns_[j] == name) return ColumnAt(j);
    throw py::key_error(name);
  }

  py::array_t<double> ColumnAt(std::size_t j) const {
    // A view into data_ (kept alive as its base).
    return py::array_t<double>({rows()}, {static_cast<py::ssize_t>(sizeof(double))},
                               data_.data() + static_cast<py::ssize_t>(j) * rows(), data_);
  }

  std::string Csv() const {
    std::ostringstream out;
    std::vector<std::string> controls(columns_.end() - num_controls_, columns_.end());
    out << exporting::FlightCsvHeader(controls) << '\n';
    const double* d = data_.data();
    const py::ssize_t n = rows();
    sim::FlightState x;
    Eigen::VectorXd u(num_controls_);
    for (py::ssize_t k = 0; k < n; ++k) {
      for (int i = 0; i < sim::kNumFlightStates; ++i) x[i] = d[(1 + i) * n + k];
      for (int c = 0; c < num_controls_; ++c) u[c] = d[(1 + sim::kNumFlightStates + c) * n + k];
      exporting::WriteFlightCsvRow(out, d[k], x, u);
    }
    return out.str();
  }

  py::array_t<double, py::array::f_style> data_;
  std::vector<std::string> columns_, units_;
  int num_controls_ = 0;
  std::optional<std::string> stopped_;
  std::vector<sim::ValidityFlag> validity_;
  long slices_, rk_steps_, rk_rejected_;
  double dt_;
  std::string integrator_;
  std::optional<double> amplitude_;
};

// The start on a mode, as `aerolin simulate --excite` finds it: no fallback
// from roll or spiral to the roll-spiral oscillation.
sim::FlightState ExcitedState(const Aircraft& aircraft, const std::string& spelling,
                              std::optional<double>& amplitude) {
  const std::optional<analysis::ModeKind> kind = analysis::ParseModeKind(spelling);
  if (!kind || *kind == analysis::ModeKind::kHeading)
    throw std::invalid_argument("excite: unknown mode '" + spelling +
                                "' (short-period, phugoid, dutch-roll, roll, spiral, roll-spiral)");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft.data());
  const std::optional<study::ModeStart> start =
      study::StartOnMode(modes.longitudinal, modes.lateral, *kind,
                         aircraft.data().condition.U0, amplitude);
  if (!start || start->mode != *kind) {
    const bool lon =
        *kind == analysis::ModeKind::kShortPeriod || *kind == analysis::ModeKind::kPhugoid;
    std::string have;
    for (const analysis::Mode& m : modes.modes(lon ? model::Axis::kLongitudinal
                                                   : model::Axis::kLateral))
      have += (have.empty() ? "" : ", ") + m.full_name();
    throw std::invalid_argument(aircraft.data().name + " has no " + analysis::ToString(*kind) +
                                " mode (its " + (lon ? "longitudinal" : "lateral") +
                                " modes: " + have + ")");
  }
  amplitude = start->amplitude;
  return start->state;
}

std::string ControlNames(const std::vector<model::Control>& controls) {
  std::string names;
  for (const model::Control& c : controls) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

// The initial state from {state name: value} or a sequence of 12 values.
sim::FlightState InitialState(const py::handle& x0) {
  sim::FlightState x = sim::FlightState::Zero();
  const std::vector<core::Signal>& signals = sim::FlightStateSignals();
  if (py::isinstance<py::dict>(x0)) {
    for (const auto& [key, value] : x0.cast<py::dict>()) {
      const std::string name = py::str(key);
      int index = -1;
      for (int i = 0; i < sim::kNumFlightStates; ++i)
        if (signals[i].name == name) index = i;
      if (index < 0) {
        std::string valid;
        for (const core::Signal& s : signals) valid += (valid.empty() ? "" : ", ") + s.name;
        throw std::invalid_argument("x0: unknown state '" + name + "' (states: " + valid + ")");
      }
      x[index] = value.cast<double>();
    }
    return x;
  }
  const auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(x0);
  if (!values || values.ndim() != 1 || values.size() != sim::kNumFlightStates)
    throw std::invalid_argument("x0: expected a mapping of state names or 12 values "
                                "(u, alpha, q, theta, beta, p, r, phi, psi, north, east, down)");
  for (int i = 0; i < sim::kNumFlightStates; ++i) x[i] = values.at(i);
  return x;
}

// A control table from an array (1-D: one constant vector; 2-D: a row per
// slice) or a mapping {control: scalar or per-slice values}.
Eigen::MatrixXd ControlTable(const py::handle& controls, const std::vector<model::Control>& list) {
  const auto n = static_cast<Eigen::Index>(list.size());
  if (py::isinstance<py::dict>(controls)) {
    std::vector<std::pair<int, py::array_t<double, py::array::c_style | py::array::forcecast>>> columns;
    py::ssize_t rows = 1;
    for (const auto& [key, value] : controls.cast<py::dict>()) {
      const std::string name = py::str(key);
      int index = -1;
      for (Eigen::Index c = 0; c < n; ++c)
        if (list[c].name == name) index = static_cast<int>(c);
      if (index < 0)
        throw std::invalid_argument("controls: unknown control '" + name +
                                    "' (this aircraft's: " + ControlNames(list) + ")");
      // c_style: a strided view (a table's column) is copied contiguous.
      auto column = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
      if (!column || column.ndim() > 1)
        throw std::invalid_argument("controls['" + name +
                                    "']: expected a number or a 1-D array of per-slice values");
      if (column.ndim() == 1) {
        if (rows > 1 && column.size() != rows && column.size() != 1)
          throw std::invalid_argument("controls: per-slice arrays of different lengths (" +
                                      std::to_string(rows) + " and " +
                                      std::to_string(column.size()) + ")");
        rows = std::max(rows, column.size());
      }
      columns.emplace_back(index, column);
    }
    Eigen::MatrixXd table = Eigen::MatrixXd::Zero(rows, n);
    for (const auto& [index, column] : columns) {
      if (column.size() == 0) throw std::invalid_argument("controls: an empty array");
      for (py::ssize_t k = 0; k < rows; ++k)
        table(k, index) = column.data()[column.size() == 1 ? 0 : k];
    }
    return table;
  }
  const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(controls);
  if (!array) throw std::invalid_argument("controls: expected an array, a mapping or a callable");
  if (array.ndim() == 1) {
    if (array.size() != n)
      throw std::invalid_argument("controls: a 1-D array is one constant vector of the " +
                                  std::to_string(n) + " controls (" + ControlNames(list) +
                                  "), got " + std::to_string(array.size()) + " values");
    Eigen::MatrixXd table(1, n);
    for (Eigen::Index c = 0; c < n; ++c) table(0, c) = array.at(c);
    return table;
  }
  if (array.ndim() != 2 || array.shape(1) != n || array.shape(0) == 0)
    throw std::invalid_argument("controls: expected a (slices, " + std::to_string(n) +
                                ") table, one column per control (" + ControlNames(list) + ")");
  Eigen::MatrixXd table(array.shape(0), n);
  for (py::ssize_t k = 0; k < array.shape(0); ++k)
    for (Eigen::Index c = 0; c < n; ++c) table(k, c) = array.at(k, c);
  return table;
}

sim::GustAxis ParseGustAxisOrThrow(const std::string& text) {
  const std::optional<sim::GustAxis> axis = sim::ParseGustAxis(text);
  if (!axis) throw std::invalid_argument("gust axis '" + text + "' (expected 'u', 'v' or 'w')");
  return *axis;
}

std::vector<sim::DiscreteGust> Gusts(const py::handle& gusts) {
  std::vector<sim::DiscreteGust> out;
  for (const py::handle& g : gusts) {
    if (py::isinstance<sim::DiscreteGust>(g)) {
      out.push_back(g.cast<sim::DiscreteGust>());
      continue;
    }
    if (!py::isinstance<py::dict>(g))
      throw std::invalid_argument("gusts: expected aerolin.Gust objects or dicts "
                                  "{'axis', 'amplitude', 'length', 'start'}");
    const py::dict d = g.cast<py::dict>();
    sim::DiscreteGust gust;
    gust.axis = ParseGustAxisOrThrow(d.contains("axis") ? py::str(d["axis"]) : py::str("w"));
    gust.amplitude = d["amplitude"].cast<double>();
    gust.length = d["length"].cast<double>();
    gust.start = d.contains("start") ? d["start"].cast<double>() : 0.0;
    out.push_back(gust);
  }
  return out;
}

Trajectory Simulate(const Aircraft& aircraft, double duration, double dt,
                    const std::string& integrator, const std::optional<std::string>& script,
                    const py::object& controls, const std::optional<std::string>& excite,
                    std::optional<double> amplitude, double rtol, double atol,
                    const py::object& x0, const std::optional<std::string>& turbulence,
                    std::optional<double> altitude, std::optional<double> span,
                    std::uint64_t seed, const py::object& gusts) {
  const model::AircraftData& a = aircraft.data();
  sim::SimulationOptions options;
  const std::optional<sim::Integrator> parsed = sim::ParseIntegrator(integrator);
  if (!parsed)
    throw std::invalid_argument("integrator '" + integrator + "' (expected 'rk45' or 'exact')");
  options.slice.integrator = *parsed;
  options.slice.dt = dt;
  options.slice.rtol = rtol;
  options.slice.atol = atol;
  options.duration = duration;
  if (!(dt > 0) || !(rtol > 0) || !(atol > 0) || !(duration > 0))
    throw std::invalid_argument("duration, dt, rtol and atol must be positive");
  sim::NumSlices(duration, dt);  // a whole number of slices, else ValueError
  if (amplitude && !excite) throw std::invalid_argument("amplitude needs excite");
  if (amplitude && !(*amplitude > 0)) throw std::invalid_argument("amplitude must be positive");
  if (script && !controls.is_none())
    throw std::invalid_argument("give the controls as a script or as `controls`, not both");
  if (excite && !x0.is_none()) throw std::invalid_argument("give excite or x0, not both");

  sim::FlightState start = sim::FlightState::Zero();
  if (excite) start = ExcitedState(aircraft, *excite, amplitude);
  if (!x0.is_none()) start = InitialState(x0);

  // Sources of the controls: one of these is used.
  std::optional<pilot::PilotScript> parsed_script;
  std::unique_ptr<sim::InputSource> source;
  std::exception_ptr pending;  // a Python exception raised by a callable
  py::object callable;
  if (script) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*script, ec)) {
      PyErr_SetObject(PyExc_FileNotFoundError,
                      py::make_tuple(2, "pilot script not found", *script).ptr());
      throw py::error_already_set();
    }
    parsed_script = pilot::LoadPilotScript(*script, a.controls);
    source = std::make_unique<pilot::ScriptedPilot>(*parsed_script, a.controls, dt);
  } else if (!controls.is_none() && PyCallable_Check(controls.ptr())) {
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
  } else {
    source = std::make_unique<sim::HandsOff>();
  }

  // Gusts: the model gets the gust input matrix E and the source a decorator.
  const std::vector<sim::DiscreteGust> discrete =
      gusts.is_none() ? std::vector<sim::DiscreteGust>() : Gusts(gusts);
  const bool windy = turbulence.has_value() || !discrete.empty();
  std::optional<sim::GustInput> gust_input;
  if (windy) {
    std::optional<sim::DrydenTurbulence> dryden;
    if (turbulence) {
      const std::optional<sim::TurbulenceIntensity> intensity =
          sim::ParseTurbulenceIntensity(*turbulence);
      if (!intensity)
        throw std::invalid_argument("turbulence '" + *turbulence +
                                    "' (expected 'light', 'moderate' or 'severe')");
      const std::optional<double> h = altitude ? altitude : a.condition.altitude;
      if (!h)
        throw std::invalid_argument("turbulence needs an altitude [m] above ground: the file "
                                    "gives none, pass altitude=");
      dryden.emplace(sim::DrydenParametersAt(*intensity, *h), a.condition.U0, dt, span, seed);
    }
    std::optional<sim::DiscreteGusts> profile;
    if (!discrete.empty()) profile.emplace(discrete, a.condition.U0);
    gust_input.emplace(*source, std::move(dryden), std::move(profile));
  }
  sim::InputSource& input = gust_input ? static_cast<sim::InputSource&>(*gust_input) : *source;
  const sim::FlightModel flight_model =
      windy ? sim::FlightModel(a, model::BuildGustInput(a)) : sim::FlightModel(a);

  sim::SimulationResult result;
  try {
    py::gil_scoped_release release;
    result = sim::Simulate(flight_model, start, input, options);
  } catch (const PythonCallbackFailed&) {
    std::rethrow_exception(pending);
  }
  Trajectory trajectory(result, options, excite ? amplitude : std::nullopt);
  {
    py::gil_scoped_release release;  // freeing a long log takes a while too
    const sim::SimulationResult freed = std::move(result);
  }
  return trajectory;
}

py::dict ValidityRecord(const sim::ValidityFlag& f) {
  py::dict d;
  d["name"] = f.name;
  d["limit"] = f.limit;
  d["peak"] = f.peak;
  d["peak_time"] = f.peak_time;
  d["first_exceeded"] = f.first_exceeded;
  return d;
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

  py::class_<Trajectory>(
      m, "Trajectory",
      "A flown trajectory: a read-only mapping from the CLI CSV's column names\n"
      "(t, u, alpha, q, theta, beta, p, r, phi, psi, north, east, down, then the\n"
      "controls in data-file order) to float64 numpy arrays, one value at t = 0\n"
      "and one per slice end (controls: the values held during the slice that\n"
      "ends at t). Columns are views of one (rows × columns) array, `array`.")
      .def("__getitem__", &Trajectory::Column, py::arg("column"))
      .def("__len__", [](const Trajectory& t) { return t.columns_.size(); })
      .def("__contains__", [](const Trajectory& t, const std::string& name) {
        return std::find(t.columns_.begin(), t.columns_.end(), name) != t.columns_.end();
      })
      .def("__iter__", [](const Trajectory& t) { return py::iter(py::cast(t.columns_)); })
      .def("keys", [](const Trajectory& t) { return t.columns_; }, "the column names, in CSV order")
      .def("values",
           [](const Trajectory& t) {
             py::list out;
             for (std::size_t j = 0; j < t.columns_.size(); ++j) out.append(t.ColumnAt(j));
             return out;
           })
      .def("items",
           [](const Trajectory& t) {
             py::list out;
             for (std::size_t j = 0; j < t.columns_.size(); ++j)
               out.append(py::make_tuple(t.columns_[j], t.ColumnAt(j)));
             return out;
           })
      .def(
          "get",
          [](const Trajectory& t, const std::string& name, py::object fallback) -> py::object {
            for (std::size_t j = 0; j < t.columns_.size(); ++j)
              if (t.columns_[j] == name) return t.ColumnAt(j);
            return fallback;
          },
          py::arg("column"), py::arg("default") = py::none())
      .def_property_readonly("columns", [](const Trajectory& t) { return t.columns_; })
      .def_property_readonly(
          "units",
          [](const Trajectory& t) {
            py::dict d;
            for (std::size_t j = 0; j < t.columns_.size(); ++j) d[py::str(t.columns_[j])] = t.units_[j];
            return d;
          },
          "{column: unit}: s, m/s, rad, rad/s, m, and each control's unit")
      .def_property_readonly("array", [](const Trajectory& t) { return t.data_; },
                             "all columns as one (rows × columns) float64 array (Fortran order)")
      .def_property_readonly("stopped", [](const Trajectory& t) { return t.stopped_; },
                             "why the run stopped early (divergence, RK45 failure), or None")
      .def_property_readonly(
          "validity",
          [](const Trajectory& t) {
            py::list out;
            for (const sim::ValidityFlag& f : t.validity_) out.append(ValidityRecord(f));
            return out;
          },
          "small-perturbation range checks: dicts {name, limit, peak, peak_time, first_exceeded}")
      .def_property_readonly("slices", [](const Trajectory& t) { return t.slices_; })
      .def_property_readonly("rk_steps", [](const Trajectory& t) { return t.rk_steps_; })
      .def_property_readonly("rk_rejected", [](const Trajectory& t) { return t.rk_rejected_; })
      .def_property_readonly("dt", [](const Trajectory& t) { return t.dt_; })
      .def_property_readonly("integrator", [](const Trajectory& t) { return t.integrator_; })
      .def_property_readonly("amplitude", [](const Trajectory& t) { return t.amplitude_; },
                             "the excitation amplitude used (excite only), else None")
      .def("to_csv", &Trajectory::Csv,
           "Returns the CSV text `aerolin simulate --csv` writes for this flight.")
      .def("__repr__", [](const Trajectory& t) {
        return "<aerolin.Trajectory " + std::to_string(t.rows()) + " rows × " +
               std::to_string(t.columns_.size()) + " columns" +
               (t.stopped_ ? ", stopped" : "") + ">";
      });

  m.def("simulate", &Simulate, py::arg("aircraft"), py::arg("duration"), py::arg("dt") = 0.1,
        py::arg("integrator") = "rk45", py::arg("script") = py::none(),
        py::arg("controls") = py::none(), py::arg("excite") = py::none(),
        py::arg("amplitude") = py::none(), py::arg("rtol") = 1e-6, py::arg("atol") = 1e-9,
        py::arg("x0") = py::none(), py::arg("turbulence") = py::none(),
        py::arg("altitude") = py::none(), py::arg("span") = py::none(), py::arg("seed") = 0,
        py::arg("gusts") = py::none(),
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
        "           `altitude` [m] above ground (default: the file's), wing `span` [m]\n"
        "           for the rolling gust (none without), random `seed`\n"
        "gusts      discrete 1 − cos gusts: aerolin.Gust objects or dicts\n"
        "           {'axis', 'amplitude', 'length', 'start'}\n\n"
        "Controls are in data-file order and units (rad, or 1 for throttle). The GIL is\n"
        "released while the flight runs (a callable re-acquires it per slice). Raises\n"
        "ValueError for bad arguments, aerolin.DataError for a bad script.");
}

}  // namespace aerolin::python
