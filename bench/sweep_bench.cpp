// Tracked studies of 1000 points, on 1 and 2 threads (the argument):
//  - BM_Sweep1000: the P2V-7's longitudinal.Mq from -0.992 to -10 (both axes:
//    continuation, naming and the pointwise `aerolin modes` names at every point);
//  - BM_SweepLateral1000: its lateral.Nr from -0.215 to -2.15;
//  - BM_Locus1000: the pitch damper elevator:q over K in [-2, 2] (1000 gains).
// bench/sweep_numpy_compare.py runs these against numpy's batched eigvals on
// the same matrices, in the same run.

#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/tracked.hpp"

namespace {

const aerolin::data::LoadResult& P2V7() {
  static const aerolin::data::LoadResult load = [] {
    std::string path = AEROLIN_SOURCE_DIR;
    path += "/data/derivatives/p2v7.toml";
    return aerolin::data::LoadAircraftFile(path);
  }();
  return load;
}

void Sweep(benchmark::State& state, const char* key, double from, double to) {
  aerolin::study::SweepOptions o{key, from, to, 1000, static_cast<int>(state.range(0))};
  for (auto _ : state) {
    aerolin::study::TrackedStudy s = aerolin::study::Sweep(P2V7().file, o);
    benchmark::DoNotOptimize(s.points.data());
  }
  state.counters["points_per_s"] =
      benchmark::Counter(1000.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Sweep1000(benchmark::State& state) { Sweep(state, "longitudinal.Mq", -0.992, -10.0); }
BENCHMARK(BM_Sweep1000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SweepLateral1000(benchmark::State& state) { Sweep(state, "lateral.Nr", -0.215, -2.15); }
BENCHMARK(BM_SweepLateral1000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Locus1000(benchmark::State& state) {
  aerolin::study::LocusOptions o{.input = "elevator", .output = "q", .washout_tau = std::nullopt, .gains = {}, .threads = 0};
  for (int k = 0; k < 1000; ++k) o.gains.push_back(-2.0 + 4.0 * k / 999.0);
  o.threads = static_cast<int>(state.range(0));
  for (auto _ : state) {
    aerolin::study::LocusResult r = aerolin::study::Locus(P2V7().aircraft, o);
    benchmark::DoNotOptimize(r.study.points.data());
  }
  state.counters["points_per_s"] =
      benchmark::Counter(1000.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Locus1000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
