// A 1000-point tracked sweep of one key (both axes: continuation, naming and
// the pointwise `aerolin modes` names at every point), on 1 and 2 threads.

#include <benchmark/benchmark.h>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/tracked.hpp"

namespace {

void BM_Sweep1000(benchmark::State& state) {
  const aerolin::data::LoadResult load =
      aerolin::data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml");
  aerolin::study::SweepOptions o{"longitudinal.Mq", -0.992, -10.0, 1000, static_cast<int>(state.range(0))};
  for (auto _ : state) {
    aerolin::study::TrackedStudy s = aerolin::study::Sweep(load.file, o);
    benchmark::DoNotOptimize(s.points.data());
  }
  state.counters["points_per_s"] =
      benchmark::Counter(1000.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep1000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
