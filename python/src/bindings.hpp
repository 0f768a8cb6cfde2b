#pragma once
// Shared pieces of the pybind11 bindings: the Python-side aircraft object and
// one Bind* function per area, called from module.cpp.

#include <pybind11/complex.h>
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <complex>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"
#include "aerolin/study/closed_loop.hpp"

namespace aerolin::python {

namespace py = pybind11;

// A loaded aircraft: the loader's result (SI data, warnings, the keys as
// written) and both axes' state-space models, built once at load.
struct Aircraft {
  data::LoadResult loaded;
  std::string path;  // as given to load (messages name it)
  model::StateSpace longitudinal;
  model::StateSpace lateral;

  Aircraft(data::LoadResult result, std::string path);
  const model::AircraftData& data() const { return loaded.aircraft; }
  // Both axes' modal analysis (study::AnalyzeClosedLoop: washout filters
  // included), computed on first use and kept (an Aircraft
  // does not change once loaded). Call with the GIL held: it guards the
  // first use.
  const analysis::ModalAnalysis& modes() const {
    if (!modes_) modes_ = std::make_shared<const analysis::ModalAnalysis>(study::AnalyzeClosedLoop(data()));
    return *modes_;
  }
  // The Bode channel from control `input` to `outputs` (its model with
  // derived outputs, decomposition and transfer functions: all that does not
  // depend on the frequencies), made on first use and kept, as modes() is.
  // Call with the GIL held. @throws as analysis::ResolveChannel.
  std::shared_ptr<const analysis::BodeChannel> bode_channel(const std::string& input,
                                                            const std::vector<std::string>& outputs) const;

 private:
  mutable std::shared_ptr<const analysis::ModalAnalysis> modes_;
  mutable std::map<std::pair<std::string, std::vector<std::string>>,
                   std::shared_ptr<const analysis::BodeChannel>>
      bode_channels_;
};

// Parses "longitudinal"/"lon" and "lateral"/"lat"; ValueError otherwise.
model::Axis ParseAxis(const std::string& text);

// A 1-D float64 / complex128 numpy array copied from `values`.
py::array_t<double> ToNumpy(const std::vector<double>& values);
py::array_t<std::complex<double>> ToNumpy(const std::vector<std::complex<double>>& values);

// Thrown from a C++ loop that called back into Python, after the Python
// exception was stored: the binding re-raises the stored one.
struct PythonCallbackFailed {};

void BindErrors(py::module_& m);
void BindAircraft(py::module_& m);
void BindModes(py::module_& m);
void BindSimulate(py::module_& m);
void BindQualities(py::module_& m);
void BindFrequency(py::module_& m);
void BindTracked(py::module_& m);
void BindRoughAir(py::module_& m);
void BindMonteCarlo(py::module_& m);
void BindAugment(py::module_& m);
void BindNonlinear(py::module_& m);
void BindIdentify(py::module_& m);

}  // namespace aerolin::python
