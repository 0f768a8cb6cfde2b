// aerolin.simulate's keyword arguments, converted (see simulate_arguments.hpp).

#include "simulate_arguments.hpp"

#include <stdexcept>
#include <string>
#include <utility>

#include "aerolin/sim/simulate.hpp"

namespace aerolin::python {
namespace {

std::string ControlNames(const std::vector<model::Control>& controls) {
  std::string names;
  for (const model::Control& c : controls) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

}  // namespace

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
    if (!x.allFinite()) throw std::invalid_argument("x0: the initial state must be finite");
    return x;
  }
  const auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(x0);
  if (!values || values.ndim() != 1 || values.size() != sim::kNumFlightStates)
    throw std::invalid_argument("x0: expected a mapping of state names or 12 values "
                                "(u, alpha, q, theta, beta, p, r, phi, psi, north, east, down)");
  for (int i = 0; i < sim::kNumFlightStates; ++i) x[i] = values.at(i);
  if (!x.allFinite()) throw std::invalid_argument("x0: the initial state must be finite");
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

}  // namespace aerolin::python
