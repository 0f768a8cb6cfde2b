#pragma once
// aerolin.simulate's keyword arguments, converted to the library's types:
// the initial state, control tables, gusts (SI, as the Python API is).

#include <vector>

#include <Eigen/Core>

#include "bindings.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/discrete_gust.hpp"
#include "aerolin/sim/flight_log.hpp"

namespace aerolin::python {

// The initial state from {state name: value} or a sequence of 12 values.
// ValueError for an unknown name, a wrong length or a non-finite value.
sim::FlightState InitialState(const py::handle& x0);

// A control table from an array (1-D: one constant vector; 2-D: a row per
// slice) or a mapping {control: scalar or per-slice values}.
Eigen::MatrixXd ControlTable(const py::handle& controls, const std::vector<model::Control>& list);

// "u", "v" or "w"; ValueError otherwise.
sim::GustAxis ParseGustAxisOrThrow(const std::string& text);

// aerolin.Gust objects or dicts {'axis', 'amplitude', 'length', 'start'}.
std::vector<sim::DiscreteGust> Gusts(const py::handle& gusts);

}  // namespace aerolin::python
