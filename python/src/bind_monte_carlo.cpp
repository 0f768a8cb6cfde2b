// aerolin.monte_carlo: batched rough-air Monte Carlo (study/monte_carlo.hpp).

#include <map>
#include <stdexcept>

#include "bindings.hpp"
#include "aerolin/study/monte_carlo.hpp"

namespace aerolin::python {
namespace {

py::object MonteCarlo(const Aircraft& aircraft, std::uint64_t runs, double duration,
                    const std::string& turbulence, std::optional<double> altitude,
                    std::optional<double> span, std::uint64_t seed, double dt,
                    std::uint64_t first_run, const std::optional<std::map<std::string, double>>& levels,
                    long history_every, int threads, bool check_only) {
  data::RequireFlyable(aircraft.loaded);
  const std::optional<sim::TurbulenceIntensity> intensity = sim::ParseTurbulenceIntensity(turbulence);
  if (!intensity)
    throw std::invalid_argument("turbulence '" + turbulence +
                                "' (expected 'light', 'moderate' or 'severe')");
  study::MonteCarloSpec spec;
  spec.turbulence = study::TurbulenceSpec{*intensity, altitude, seed, span};
  spec.runs = runs;
  spec.first_run = first_run;
  spec.duration = duration;
  spec.dt = dt;
  if (levels)
    for (const auto& [name, level] : *levels) spec.levels.push_back({name, level});
  spec.history_every = history_every;
  spec.threads = threads;
  study::MonteCarloResult r;
  const analysis::ModalAnalysis& modes = aircraft.modes();  // kept by the Aircraft
  {
    py::gil_scoped_release release;
    if (check_only) {
      study::CheckMonteCarlo(aircraft.data(), modes, spec);
    } else {
      r = study::RunMonteCarlo(aircraft.data(), modes, spec);
    }
  }
  if (check_only) return py::none();
  py::dict out;
  py::list names, units, level_names, level_values;
  for (const core::Signal& s : study::MonteCarloOutputs()) {
    names.append(s.name);
    units.append(std::string(core::ToString(s.unit)));
  }
  for (const study::ExceedanceLevel& l : spec.levels) {
    level_names.append(l.output);
    level_values.append(l.level);
  }
  out["outputs"] = names;
  out["units"] = units;
  out["run"] = py::array_t<std::uint64_t>(static_cast<py::ssize_t>(r.run.size()), r.run.data());
  out["seed"] = py::array_t<std::uint64_t>(static_cast<py::ssize_t>(r.seed.size()), r.seed.data());
  out["rows"] = r.rows;
  // Eigen matrices become float64 numpy arrays (pybind11/eigen.h).
  out["rms"] = py::cast(r.rms);
  out["peak"] = py::cast(r.peak);
  out["peak_time"] = py::cast(r.peak_time);
  out["zero_upcrossings"] = py::cast(r.zero_upcrossings);
  out["levels"] = py::make_tuple(level_names, level_values);
  out["exceedances"] = py::cast(r.exceedances);
  if (history_every > 0) {
    const auto kept = static_cast<py::ssize_t>(r.history_time.size());
    const auto n_out = static_cast<py::ssize_t>(study::MonteCarloOutputs().size());
    py::array_t<double> h({static_cast<py::ssize_t>(r.history.size()), kept, n_out});
    auto v = h.mutable_unchecked<3>();
    for (std::size_t i = 0; i < r.history.size(); ++i)
      for (py::ssize_t k = 0; k < kept; ++k)
        for (py::ssize_t o = 0; o < n_out; ++o) v(static_cast<py::ssize_t>(i), k, o) = r.history[i](k, o);
    out["history_time"] = ToNumpy(r.history_time);
    out["history"] = h;
  }
  return out;
}

}  // namespace

void BindMonteCarlo(py::module_& m) {
  m.def("monte_carlo", &MonteCarlo, py::arg("aircraft"), py::arg("runs"),
        py::arg("duration"), py::arg("turbulence"), py::arg("altitude") = py::none(),
        py::arg("span") = py::none(), py::arg("seed") = study::kDefaultTurbulenceSeed,
        py::arg("dt") = 0.1, py::arg("first_run") = 0, py::arg("levels") = py::none(),
        py::arg("history_every") = 0, py::arg("threads") = 0, py::arg("check_only") = false,
        "Many seeded hands-off flights through Dryden turbulence, propagated together\n"
        "(exact step per slice), each summarized. Run i flies the turbulence seed\n"
        "aerolin.run_seed(seed, i): its result depends on (seed, i) only, not on\n"
        "first_run, chunking or threads, and equals simulate(..., seed=run_seed(seed, i),\n"
        "integrator='exact') to rounding.\n"
        "\n"
        "turbulence, altitude [m], span [m]  as for simulate; dt the slice step [s]\n"
        "levels         {output: level}: count each run's upward crossings of level\n"
        "history_every  keep every n-th row of each run (0: none)\n"
        "check_only     check the request (limits, height, levels) and return None\n"
        "\n"
        "Returns a dict: 'outputs' (names as the simulate CSV), 'units', 'run', 'seed',\n"
        "'rows', and (runs x outputs) arrays 'rms', 'peak' (signed value of largest |y|),\n"
        "'peak_time', 'zero_upcrossings'; 'levels' and (runs x levels) 'exceedances';\n"
        "with history_every, 'history_time' and 'history' (runs x rows kept x outputs).");
  m.def("run_seed", &study::RunSeed, py::arg("seed"), py::arg("run"),
        "The turbulence seed monte_carlo gives run `run` of a study seeded `seed`.");
}

}  // namespace aerolin::python
