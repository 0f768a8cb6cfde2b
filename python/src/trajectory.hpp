#pragma once
// aerolin.Trajectory: a finished flight as a read-only mapping of numpy
// columns (the CLI CSV's columns, in its order), and the recorder that
// collects its rows as the flight is flown.

#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "aerolin/sim/simulate.hpp"

namespace aerolin::python {

// Collects every row of a run (t, the 12 states, the controls and, with a
// `wind` to read, u_g, v_g, w_g, p_g) row-major, as they are computed.
class TrajectoryRecorder final : public sim::FlightRecorder {
 public:
  // `wind` (the prepared flight's wind of the last slice) must outlive this;
  // nullptr: a flight without gusts (no wind columns). `rows` is a capacity hint.
  TrajectoryRecorder(const Eigen::Vector4d* wind, long rows) : wind_(wind), rows_hint_(rows) {}
  void Begin(const std::vector<std::string>& control_names) override;
  // The surfaces' columns, NAME_surface after the controls (as the CLI CSV).
  void WatchSurfaces(const Eigen::VectorXd* surfaces) override { surfaces_ = surfaces; }
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override;

  std::vector<std::string> control_names;
  bool has_wind() const { return wind_ != nullptr; }
  bool has_surfaces() const { return surfaces_ != nullptr; }
  int width() const { return width_; }
  const std::vector<double>& values() const { return values_; }  // row-major

 private:
  const Eigen::Vector4d* wind_;
  const Eigen::VectorXd* surfaces_ = nullptr;
  long rows_hint_;
  int width_ = 0;
  std::vector<double> values_;
};

// A finished flight: every recorded row as one column-major (n_rows ×
// n_columns) float64 array, so each column is a contiguous view of it.
class Trajectory {
 public:
  Trajectory(const TrajectoryRecorder& rows, const std::vector<std::string>& control_units,
             const sim::SimulationResult& result, const sim::SimulationOptions& options,
             std::optional<double> amplitude);

  py::ssize_t rows() const { return data_.shape(0); }
  py::array_t<double> Column(const std::string& name) const;
  py::array_t<double> ColumnAt(std::size_t j) const;
  // The CSV text `aerolin simulate --csv` writes for this flight.
  std::string Csv() const;

  py::array_t<double, py::array::f_style> data_;
  std::vector<std::string> columns_, units_;
  int num_controls_ = 0;
  bool surfaces_ = false;  // NAME_surface columns after the controls
  bool wind_ = false;
  std::optional<std::string> stopped_;
  std::vector<sim::ValidityFlag> validity_;
  long slices_, rk_steps_, rk_rejected_;
  double dt_;
  std::string integrator_;
  std::optional<double> amplitude_;
};

// Binds aerolin.Trajectory.
void BindTrajectory(py::module_& m);

}  // namespace aerolin::python
