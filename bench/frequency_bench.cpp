// Frequency response of the P2V-7's lateral model (5 states, 6 outputs):
// the Hessenberg sweep (one O(n³) reduction, O(n²) per frequency) against a
// dense complex LU solve per frequency, 1000 log-spaced frequencies.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <string>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/outputs.hpp"

namespace {

using cd = std::complex<double>;
const std::string kP2V7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";

aerolin::model::StateSpace Lateral() {
  return aerolin::model::BuildWithOutputs(aerolin::data::LoadAircraftFile(kP2V7).aircraft,
                                          aerolin::model::Axis::kLateral);
}

const std::vector<double>& Omega() {
  static const std::vector<double> omega = aerolin::analysis::LogSpace(1e-3, 1e2, 1000);
  return omega;
}

// Includes the reduction: what one `aerolin bode` curve costs.
void BM_HessenbergSweep1000(benchmark::State& state) {
  const aerolin::model::StateSpace sys = Lateral();
  for (auto _ : state) {
    const aerolin::analysis::FrequencyResponse response(sys);
    const std::vector<cd> g = response.Sweep(Omega(), 1, aerolin::model::lat::kPhi);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_HessenbergSweep1000)->Unit(benchmark::kMicrosecond);

void BM_DirectSolve1000(benchmark::State& state) {
  const aerolin::model::StateSpace sys = Lateral();
  const Eigen::Index n = sys.num_states();
  const Eigen::VectorXcd b = sys.B().col(1).cast<cd>();
  const Eigen::RowVectorXcd c = sys.C().row(aerolin::model::lat::kPhi).cast<cd>();
  std::vector<cd> g(Omega().size());
  for (auto _ : state) {
    for (std::size_t k = 0; k < Omega().size(); ++k) {
      const Eigen::MatrixXcd M =
          cd(0.0, Omega()[k]) * Eigen::MatrixXcd::Identity(n, n) - sys.A().cast<cd>();
      g[k] = (c * M.partialPivLu().solve(b))(0);
    }
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_DirectSolve1000)->Unit(benchmark::kMicrosecond);

}  // namespace
BENCHMARK_MAIN();
