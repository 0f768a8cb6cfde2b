// aerolin.Trajectory: the rows of a flight as numpy columns.

#include "trajectory.hpp"

#include <algorithm>
#include <sstream>

#include "aerolin/export/flight_csv.hpp"
#include "aerolin/model/gust.hpp"

namespace aerolin::python {
namespace {

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

void TrajectoryRecorder::Begin(const std::vector<std::string>& names) {
  control_names = names;
  width_ = 1 + sim::kNumFlightStates + static_cast<int>(names.size()) * (surfaces_ ? 2 : 1) + (wind_ ? 4 : 0);
  values_.reserve(static_cast<std::size_t>(std::max(0L, rows_hint_)) *
                  static_cast<std::size_t>(width_));
}

void TrajectoryRecorder::Record(double t, const sim::FlightState& x,
                                const Eigen::VectorXd& controls) {
  values_.push_back(t);
  values_.insert(values_.end(), x.data(), x.data() + sim::kNumFlightStates);
  values_.insert(values_.end(), controls.data(), controls.data() + controls.size());
  if (surfaces_) values_.insert(values_.end(), surfaces_->data(), surfaces_->data() + surfaces_->size());
  if (wind_) values_.insert(values_.end(), wind_->data(), wind_->data() + 4);
}

Trajectory::Trajectory(const TrajectoryRecorder& rows,
                       const std::vector<std::string>& control_units,
                       const sim::SimulationResult& result, const sim::SimulationOptions& options,
                       std::optional<double> amplitude)
    : surfaces_(rows.has_surfaces()),
      wind_(rows.has_wind()),
      stopped_(result.stopped),
      validity_(result.validity),
      slices_(result.slices),
      rk_steps_(result.rk_steps),
      rk_rejected_(result.rk_rejected),
      dt_(options.slice.dt),
      integrator_(sim::ToString(result.integrator_flown.value_or(options.slice.integrator))),
      amplitude_(amplitude) {
  columns_.push_back("t");
  units_.push_back("s");
  for (const core::Signal& s : sim::FlightStateSignals()) {
    columns_.push_back(s.name);
    units_.push_back(std::string(core::ToString(s.unit)));
  }
  num_controls_ = static_cast<int>(rows.control_names.size());
  columns_.insert(columns_.end(), rows.control_names.begin(), rows.control_names.end());
  units_.insert(units_.end(), control_units.begin(), control_units.end());
  if (surfaces_) {
    for (const std::string& name : rows.control_names) columns_.push_back(name + "_surface");
    units_.insert(units_.end(), control_units.begin(), control_units.end());
  }
  if (wind_)
    for (const core::Signal& s : model::GustSignals()) {
      columns_.push_back(s.name);
      units_.push_back(std::string(core::ToString(s.unit)));
    }
  const auto cols = static_cast<py::ssize_t>(columns_.size());
  const auto n = static_cast<py::ssize_t>(rows.width() == 0 ? 0 : rows.values().size() /
                                                                      rows.width());
  data_ = py::array_t<double, py::array::f_style>({n, cols});
  double* d = data_.mutable_data();
  const double* v = rows.values().data();
  // Filling raw memory needs no GIL; for a long flight this (and the page
  // faults of the fresh array) costs milliseconds other threads can use.
  py::gil_scoped_release release;
  for (py::ssize_t k = 0; k < n; ++k) {
    const double* row = v + k * cols;
    // The slice grid's decimals, as `aerolin simulate --csv` writes them.
    d[k] = exporting::SliceGridTime(row[0], dt_);
    for (py::ssize_t j = 1; j < cols; ++j) d[j * n + k] = row[j];
  }
}

py::array_t<double> Trajectory::Column(const std::string& name) const {
  for (std::size_t j = 0; j < columns_.size(); ++j)
    if (columns_[j] == name) return ColumnAt(j);
  throw py::key_error(name);
}

py::array_t<double> Trajectory::ColumnAt(std::size_t j) const {
  // A view into data_ (kept alive as its base).
  return py::array_t<double>({rows()}, {static_cast<py::ssize_t>(sizeof(double))},
                             data_.data() + static_cast<py::ssize_t>(j) * rows(), data_);
}

std::string Trajectory::Csv() const {
  std::ostringstream out;
  const auto first_control = columns_.begin() + 1 + sim::kNumFlightStates;
  const std::vector<std::string> controls(first_control, first_control + num_controls_);
  out << exporting::FlightCsvHeader(controls, wind_, surfaces_) << '\n';
  const double* d = data_.data();
  const py::ssize_t n = rows();
  sim::FlightState x;
  Eigen::VectorXd u(num_controls_), surfaces(num_controls_);
  Eigen::Vector4d wind;
  const int first_wind = 1 + sim::kNumFlightStates + num_controls_ * (surfaces_ ? 2 : 1);
  for (py::ssize_t k = 0; k < n; ++k) {
    for (int i = 0; i < sim::kNumFlightStates; ++i) x[i] = d[(1 + i) * n + k];
    for (int c = 0; c < num_controls_; ++c) u[c] = d[(1 + sim::kNumFlightStates + c) * n + k];
    if (surfaces_)
      for (int c = 0; c < num_controls_; ++c)
        surfaces[c] = d[(1 + sim::kNumFlightStates + num_controls_ + c) * n + k];
    if (wind_)
      for (int w = 0; w < 4; ++w) wind[w] = d[(first_wind + w) * n + k];
    exporting::WriteFlightCsvRow(out, d[k], x, u, surfaces_ ? &surfaces : nullptr, wind_ ? &wind : nullptr);
  }
  return out.str();
}

void BindTrajectory(py::module_& m) {
  py::class_<Trajectory>(
      m, "Trajectory",
      "A flown trajectory: a read-only mapping from the CLI CSV's column names\n"
      "(t, u, alpha, q, theta, beta, p, r, phi, psi, north, east, down, then the\n"
      "controls in data-file order) to float64 numpy arrays, one value at t = 0\n"
      "and one per slice end (controls: the values held during the slice that\n"
      "ends at t), then, for a flight with an augmentation or actuators, each\n"
      "control's surface, NAME_surface (its deflection as flown at t), then, for\n"
      "a flight with turbulence or gusts, the wind of the\n"
      "slice that ends at t: u_g, v_g, w_g [m/s], p_g [rad/s]. Columns are views\n"
      "of one (rows × columns) array, `array`.")
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
          "{column: unit}: s, m/s, rad, rad/s, m, each control's unit, and the wind's")
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

}

}  // namespace aerolin::python
