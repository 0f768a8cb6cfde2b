// One slice of the P2V-7 (data/derivatives/p2v7.toml): RK45 (dopri5,
// rtol 1e-6, atol 1e-9, the defaults) and the exact ZOH step, each fed the
// seed's elevator doublet (scenario a) through the numpad pilot, so the
// controls change the way they do in a flight.
#include <benchmark/benchmark.h>

#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/pilot/pilot.hpp"
#include "aerolin/sim/slicer.hpp"

namespace {

using namespace aerolin;

// Keys of slice k in the seed's scenario a (8 held 1–2 s, 5 held 2–4 s),
// repeated every 60 s.
pilot::KeySet DoubletKeys(long k) {
  const long s = k % 600;
  if (s >= 10 && s < 20) return {pilot::Key::k8};
  if (s >= 20 && s < 40) return {pilot::Key::k5};
  return {};
}

// The controls of the 600 slices of scenario a, from the numpad pilot.
std::vector<Eigen::VectorXd> DoubletControls(const model::AircraftData& aircraft, double dt) {
  pilot::Pilot numpad(aircraft.controls, dt);
  std::vector<Eigen::VectorXd> controls;
  for (long k = 0; k < 600; ++k) controls.push_back(numpad.Update(DoubletKeys(k)));
  return controls;
}

// One call of Slicer::Advance per iteration, cycling through the scenario.
void BM_Slice(benchmark::State& state, sim::Integrator integrator) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  sim::SliceOptions options;
  options.integrator = integrator;
  sim::Slicer slicer(sim::FlightModel(aircraft), options);
  const std::vector<Eigen::VectorXd> controls = DoubletControls(aircraft, options.dt);
  std::size_t k = 0;
  long slices = 0, steps = 0;
  for (auto _ : state) {
    steps += slicer.Advance(controls[k]).steps;
    benchmark::DoNotOptimize(slicer.state().data());
    if (++k == controls.size()) {
      k = 0;
      slicer.Reset(sim::FlightState::Zero());
    }
    ++slices;
  }
  state.counters["steps/slice"] = static_cast<double>(steps) / static_cast<double>(slices);
}

BENCHMARK_CAPTURE(BM_Slice, rk45, sim::Integrator::kRk45);
BENCHMARK_CAPTURE(BM_Slice, exact, sim::Integrator::kExact);

}  // namespace

BENCHMARK_MAIN();
