// One slice of the P2V-7 (data/derivatives/p2v7.toml): RK45 (dopri5,
// rtol 1e-6, atol 1e-9, the defaults) and the exact ZOH step, each fed the
// seed's elevator doublet (scenario a) through the numpad pilot, so the
// controls change the way they do in a flight.
#include <benchmark/benchmark.h>

#include "data/load_aircraft.hpp"
#include "sim/pilot.hpp"
#include "sim/slicer.hpp"

namespace {

using namespace aerolin;

// Keys of slice k in the seed's scenario a (8 held 1–2 s, 5 held 2–4 s),
// repeated every 60 s.
sim::KeySet DoubletKeys(long k) {
  const long s = k % 600;
  if (s >= 10 && s < 20) return {sim::Key::k8};
  if (s >= 20 && s < 40) return {sim::Key::k5};
  return {};
}

void BM_Slice(benchmark::State& state, sim::Integrator integrator) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  sim::SliceOptions options;
  options.integrator = integrator;
  sim::Slicer slicer(sim::FlightModel(aircraft), options);
  sim::Pilot pilot(aircraft.controls, options.dt);
  long k = 0, steps = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const Eigen::VectorXd& u = pilot.Update(DoubletKeys(k++));
    state.ResumeTiming();
    steps += slicer.Advance(u).steps;
    benchmark::DoNotOptimize(slicer.state().data());
  }
  state.counters["steps/slice"] = static_cast<double>(steps) / static_cast<double>(k);
}

// Without PauseTiming (whose cost is ~0.1–0.2 µs per call): pilot + slice,
// the whole per-slice work of a flight.
void BM_PilotAndSlice(benchmark::State& state, sim::Integrator integrator) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  sim::SliceOptions options;
  options.integrator = integrator;
  sim::Slicer slicer(sim::FlightModel(aircraft), options);
  sim::Pilot pilot(aircraft.controls, options.dt);
  long k = 0;
  for (auto _ : state) {
    slicer.Advance(pilot.Update(DoubletKeys(k++)));
    benchmark::DoNotOptimize(slicer.state().data());
  }
}

BENCHMARK_CAPTURE(BM_Slice, rk45, sim::Integrator::kRk45);
BENCHMARK_CAPTURE(BM_Slice, exact, sim::Integrator::kExact);
BENCHMARK_CAPTURE(BM_PilotAndSlice, rk45, sim::Integrator::kRk45);
BENCHMARK_CAPTURE(BM_PilotAndSlice, exact, sim::Integrator::kExact);

}  // namespace

BENCHMARK_MAIN();
