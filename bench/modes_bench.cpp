// Cost of the core job: load a data file, build both models, analyze modes.
#include <benchmark/benchmark.h>

#include <string>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"

namespace {

const std::string kP2V7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";

void BM_LoadBuildAnalyzeP2V7(benchmark::State& state) {
  for (auto _ : state) {
    const auto aircraft = aerolin::data::LoadAircraftFile(kP2V7).aircraft;
    const auto lon = aerolin::analysis::AnalyzeLongitudinal(
        aerolin::model::BuildLongitudinal(aircraft), aircraft.condition.U0);
    const auto lat = aerolin::analysis::AnalyzeLateral(aerolin::model::BuildLateral(aircraft));
    benchmark::DoNotOptimize(lon.data());
    benchmark::DoNotOptimize(lat.data());
  }
}
BENCHMARK(BM_LoadBuildAnalyzeP2V7)->Unit(benchmark::kMicrosecond);

void BM_AnalyzeOnlyP2V7(benchmark::State& state) {
  const auto aircraft = aerolin::data::LoadAircraftFile(kP2V7).aircraft;
  const auto lon_sys = aerolin::model::BuildLongitudinal(aircraft);
  const auto lat_sys = aerolin::model::BuildLateral(aircraft);
  for (auto _ : state) {
    const auto lon = aerolin::analysis::AnalyzeLongitudinal(lon_sys, aircraft.condition.U0);
    const auto lat = aerolin::analysis::AnalyzeLateral(lat_sys);
    benchmark::DoNotOptimize(lon.data());
    benchmark::DoNotOptimize(lat.data());
  }
}
BENCHMARK(BM_AnalyzeOnlyP2V7)->Unit(benchmark::kMicrosecond);

// The value API: both models built and both axes analysed, left vectors included.
void BM_AnalyzeModesP2V7(benchmark::State& state) {
  const auto aircraft = aerolin::data::LoadAircraftFile(kP2V7).aircraft;
  for (auto _ : state) {
    const aerolin::analysis::ModalAnalysis modes = aerolin::analysis::AnalyzeModes(aircraft);
    benchmark::DoNotOptimize(modes.lateral.data());
  }
}
BENCHMARK(BM_AnalyzeModesP2V7)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
