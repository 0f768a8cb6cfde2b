// The `aerolin._aerolin` extension module; python/aerolin/__init__.py
// re-exports it as `aerolin`.

#include "bindings.hpp"

PYBIND11_MODULE(_aerolin, m) {
  m.doc() =
      "aerolin: linearized small-perturbation flight stability, from Python.\n\n"
      "The same C++ library as the aerolin command line, with numpy arrays at the\n"
      "boundary. Everything is SI (m, s, rad); see help(aerolin.load),\n"
      "help(aerolin.modes), help(aerolin.simulate).";
  using namespace aerolin::python;
  // Results are numpy arrays: numpy is loaded here, at `import aerolin`,
  // not by the first call that makes an array (pybind11 imports it lazily:
  // a first aerolin.simulate in a process that had not imported numpy took
  // 54-88 ms more, holding the GIL for the import).
  pybind11::module_::import("numpy");
  BindErrors(m);
  BindAircraft(m);
  BindModes(m);
  BindSimulate(m);
  BindQualities(m);
  BindFrequency(m);
  BindTracked(m);
  BindRoughAir(m);
  BindMonteCarlo(m);
  BindAugment(m);
  BindNonlinear(m);
  BindIdentify(m);
}
