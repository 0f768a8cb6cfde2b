// Tracked studies of 1000 points, on 1 and 2 threads (the argument):
//  - BM_Sweep1000: the P2V-7's longitudinal.Mq from -0.992 to -10 (both axes:
//    continuation, naming and the pointwise `aerolin modes` names at every point);
//  - BM_SweepLateral1000: its lateral.Nr from -0.215 to -2.15;
//  - BM_Locus1000: the pitch damper elevator:q over K in [-2, 2] (1000 gains).
// bench/sweep_numpy_compare.py runs these against numpy's batched eigvals on
// the same matrices, in the same run. And a point's kernels alone:
//  - BM_RefineLongitudinal: one analysis::RefineRoots of the P2V-7's
//    longitudinal roots (two pairs) from the point before (Mq − 0.009), what
//    most sweep points cost in their eigen-problem;
//  - BM_AnalyzeLongitudinal: the full solve (analysis::AnalyzeRoots) it
//    replaces, which a sweep runs at every 32nd point and where a refinement
//    is refused.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "aerolin/analysis/root_refinement.hpp"
#include "aerolin/analysis/tracking.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/parameters.hpp"
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

// The P2V-7's longitudinal A at Mq = value, with dA/dMq by central differences.
void LongitudinalAt(double value, aerolin::analysis::SmallMatrix& A, aerolin::analysis::SmallMatrix& dA) {
  auto at = [](double mq) {
    aerolin::model::AircraftData a = P2V7().aircraft;
    aerolin::model::SetParameter(a, "longitudinal.Mq", mq);
    return Eigen::MatrixXd(aerolin::model::BuildLongitudinal(a).A());
  };
  const double h = 1e-6 * std::max(1.0, std::abs(value));
  A = at(value);
  dA = (at(value + h) - at(value - h)) / (2 * h);
}

void BM_RefineLongitudinal(benchmark::State& state) {
  const double mq = aerolin::model::GetParameter(P2V7().aircraft, "longitudinal.Mq");
  aerolin::analysis::SmallMatrix A, dA;
  LongitudinalAt(mq, A, dA);
  const aerolin::analysis::RootSet before = aerolin::analysis::AnalyzeRoots(A, dA, mq);
  LongitudinalAt(mq - 0.009, A, dA);
  aerolin::analysis::RootSet out;
  if (!aerolin::analysis::RefineRoots(before, A, dA, mq - 0.009, out)) {
    state.SkipWithError("the refinement refused the step: nothing to time");
    return;
  }
  for (auto _ : state) {
    aerolin::analysis::RefineRoots(before, A, dA, mq - 0.009, out);
    benchmark::DoNotOptimize(out.values.data());
  }
}
BENCHMARK(BM_RefineLongitudinal)->Unit(benchmark::kNanosecond);

void BM_AnalyzeLongitudinal(benchmark::State& state) {
  const double mq = aerolin::model::GetParameter(P2V7().aircraft, "longitudinal.Mq");
  aerolin::analysis::SmallMatrix A, dA;
  LongitudinalAt(mq - 0.009, A, dA);
  for (auto _ : state) {
    aerolin::analysis::RootSet s = aerolin::analysis::AnalyzeRoots(A, dA, mq - 0.009);
    benchmark::DoNotOptimize(s.values.data());
  }
}
BENCHMARK(BM_AnalyzeLongitudinal)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
