// One flight slice of the P2V-7 (data/derivatives/p2v7.toml) with the gust
// input matrix E: hands off and calm, with moderate Dryden turbulence at
// 300 m (b = 31.65 m, the P2V-7's 103 ft 10 in span), and with turbulence plus two
// discrete gusts evaluated inside the slice. RK45 (defaults) and exact.
// Every flight starts from α = β = 0.02 rad, so the calm one flies its
// modes (RK45 takes its real steps) rather than resting at trim.
// Goal: a turbulent slice within 2× a calm one. BM_DrydenNext is the
// generator alone (six normals and the 6-state update).
#include <benchmark/benchmark.h>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/gust_input.hpp"

namespace {

using namespace aerolin;

enum class Weather { kCalm, kTurbulence, kTurbulenceAndGusts };

void BM_GustSlice(benchmark::State& state, sim::Integrator integrator, Weather weather) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  sim::SliceOptions options;
  options.integrator = integrator;
  sim::Flight flight(sim::FlightModel(aircraft, model::BuildGustInput(aircraft)), options,
                     sim::ValidityThresholds{});
  const double U0 = aircraft.condition.U0;
  sim::HandsOff hands_off;
  std::optional<sim::DrydenTurbulence> turbulence;
  std::optional<sim::DiscreteGusts> gusts;
  if (weather != Weather::kCalm)
    turbulence.emplace(sim::DrydenParametersAt(sim::TurbulenceIntensity::kModerate, 300.0), U0,
                       options.dt, 31.65, 1);
  if (weather == Weather::kTurbulenceAndGusts)
    gusts.emplace(std::vector<sim::DiscreteGust>{{sim::GustAxis::kW, 3.0, 100.0, 0.0},
                                                 {sim::GustAxis::kV, 2.0, 60.0, 0.0}},
                  U0);
  sim::GustInput input(hands_off, turbulence, gusts);
  sim::FlightState x0 = sim::FlightState::Zero();
  x0[sim::kAlpha] = 0.02;
  x0[sim::kBeta] = 0.02;
  flight.Reset(x0);
  input.Reset();
  long slices = 0, steps = 0;
  for (auto _ : state) {
    const sim::StepOutcome outcome = flight.Step(input);
    steps += outcome.stats.steps;
    benchmark::DoNotOptimize(flight.state().data());
    if (++slices % 600 == 0) {  // a minute of flight, then start again
      flight.Reset(x0);
      input.Reset();
    }
  }
  state.counters["steps/slice"] = static_cast<double>(steps) / static_cast<double>(slices);
}

BENCHMARK_CAPTURE(BM_GustSlice, rk45_calm, sim::Integrator::kRk45, Weather::kCalm);
BENCHMARK_CAPTURE(BM_GustSlice, rk45_turbulence, sim::Integrator::kRk45, Weather::kTurbulence);
BENCHMARK_CAPTURE(BM_GustSlice, rk45_turbulence_gusts, sim::Integrator::kRk45,
                  Weather::kTurbulenceAndGusts);
BENCHMARK_CAPTURE(BM_GustSlice, exact_calm, sim::Integrator::kExact, Weather::kCalm);
BENCHMARK_CAPTURE(BM_GustSlice, exact_turbulence, sim::Integrator::kExact, Weather::kTurbulence);
BENCHMARK_CAPTURE(BM_GustSlice, exact_turbulence_gusts, sim::Integrator::kExact,
                  Weather::kTurbulenceAndGusts);

void BM_DrydenNext(benchmark::State& state) {
  sim::DrydenTurbulence turbulence(
      sim::DrydenParametersAt(sim::TurbulenceIntensity::kModerate, 300.0), 89.5, 0.1, 31.65, 1);
  for (auto _ : state) {
    Eigen::Vector4d y = turbulence.Next();
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_DrydenNext);

}  // namespace

BENCHMARK_MAIN();
