// Frequency response, 1000 log-spaced frequencies (1e-3 to 1e2 rad/s) of one
// channel of the P2V-7, three methods as peers in the same run:
//   Modal:      FrequencyResponse's default (the modal form of refined
//               eigenpairs where its error estimate allows, else a peeled
//               form, else the Hessenberg form; `hessenberg_share` counts
//               the last);
//   Hessenberg: FrequencyResponse with ResponseMethod::kHessenberg (the
//               method before issue #22: one O(n³) reduction, O(n²) per ω);
//   Direct:     a dense complex LU solve per frequency.
// Modal and Hessenberg include the decomposition of A (what one `aerolin
// bode` curve costs before its points' magnitude and phase); Direct has none.
// Channels: θ/δe and q/δe (longitudinal, 4 states) and φ/δa (lateral, 5).
// bench/bode_compare.py runs this and prints the ratios.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <string>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/outputs.hpp"

namespace {

using cd = std::complex<double>;
using aerolin::analysis::FrequencyResponse;
using aerolin::analysis::ResponseMethod;
const std::string kP2V7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";

struct Channel {
  aerolin::model::Axis axis;
  int input, output;
};
// Indexed by the benchmark's argument.
const Channel kChannels[] = {
    {aerolin::model::Axis::kLongitudinal, 0, aerolin::model::lon::kTheta},  // θ/δe
    {aerolin::model::Axis::kLongitudinal, 0, aerolin::model::lon::kQ},      // q/δe
    {aerolin::model::Axis::kLateral, 0, aerolin::model::lat::kPhi},         // φ/δa
};
const char* const kChannelNames[] = {"theta/elevator", "q/elevator", "phi/aileron"};

aerolin::model::StateSpace System(const Channel& c) {
  return aerolin::model::BuildWithOutputs(aerolin::data::LoadAircraftFile(kP2V7).aircraft, c.axis);
}

const std::vector<double>& Omega() {
  static const std::vector<double> omega = aerolin::analysis::LogSpace(1e-3, 1e2, 1000);
  return omega;
}

void Sweep(benchmark::State& state, ResponseMethod method) {
  const Channel& c = kChannels[state.range(0)];
  state.SetLabel(kChannelNames[state.range(0)]);
  const aerolin::model::StateSpace sys = System(c);
  std::vector<cd> g(Omega().size());
  std::size_t solved = 0;
  for (auto _ : state) {
    const FrequencyResponse response(sys, method);
    solved = response.Sweep(Omega(), c.input, c.output, g);
    benchmark::DoNotOptimize(g.data());
  }
  state.counters["hessenberg_share"] = static_cast<double>(solved) / static_cast<double>(g.size());
}

void BM_Modal1000(benchmark::State& state) { Sweep(state, ResponseMethod::kModalWhereAccurate); }
BENCHMARK(BM_Modal1000)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

void BM_Hessenberg1000(benchmark::State& state) { Sweep(state, ResponseMethod::kHessenberg); }
BENCHMARK(BM_Hessenberg1000)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

void BM_Direct1000(benchmark::State& state) {
  const Channel& c = kChannels[state.range(0)];
  state.SetLabel(kChannelNames[state.range(0)]);
  const aerolin::model::StateSpace sys = System(c);
  const Eigen::Index n = sys.num_states();
  const Eigen::VectorXcd b = sys.B().col(c.input).cast<cd>();
  const Eigen::RowVectorXcd row = sys.C().row(c.output).cast<cd>();
  std::vector<cd> g(Omega().size());
  for (auto _ : state) {
    for (std::size_t k = 0; k < Omega().size(); ++k) {
      const Eigen::MatrixXcd M =
          cd(0.0, Omega()[k]) * Eigen::MatrixXcd::Identity(n, n) - sys.A().cast<cd>();
      g[k] = (row * M.partialPivLu().solve(b))(0) + sys.D()(c.output, c.input);
    }
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_Direct1000)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

// The decomposition alone (no frequency): the fixed part of a curve.
void BM_ModalSetUp(benchmark::State& state) {
  const Channel& c = kChannels[state.range(0)];
  state.SetLabel(kChannelNames[state.range(0)]);
  const aerolin::model::StateSpace sys = System(c);
  for (auto _ : state) {
    const FrequencyResponse response(sys);
    benchmark::DoNotOptimize(&response);
  }
}
BENCHMARK(BM_ModalSetUp)->DenseRange(0, 2, 2)->Unit(benchmark::kMicrosecond);

}  // namespace
BENCHMARK_MAIN();
