#pragma once
// The slice options the actuator and washout tests fly their oracles with:
// RK45 at rtol 1e-10, atol 1e-12 (the exact integrator ignores both).

#include "aerolin/sim/slicer.hpp"

namespace aerolin::sim::testing_sim {

inline SliceOptions Tight(Integrator integrator = Integrator::kRk45, double dt = 0.1) {
  SliceOptions slice;
  slice.integrator = integrator;
  slice.dt = dt;
  slice.rtol = 1e-10;
  slice.atol = 1e-12;
  return slice;
}

}  // namespace aerolin::sim::testing_sim
