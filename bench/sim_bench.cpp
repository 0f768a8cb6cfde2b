// One slice of the P2V-7 (data/derivatives/p2v7.toml): RK45 (dopri5,
// rtol 1e-6, atol 1e-9, the defaults) and the exact ZOH step, each fed the
// seed's elevator doublet (scenario a) through the numpad pilot, so the
// controls change the way they do in a flight.
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <vector>

#include "aerolin/core/matrix_exponential.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/pilot/pilot.hpp"
#include "aerolin/sim/slicer.hpp"
#include "aerolin/sim/turbulence.hpp"

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
void AdvanceThroughDoublet(benchmark::State& state, sim::Slicer& slicer,
                           const std::vector<Eigen::VectorXd>& controls) {
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

// Flies `aircraft` through the doublet with `integrator`.
void SliceThroughDoublet(benchmark::State& state, const model::AircraftData& aircraft, sim::Integrator integrator) {
  sim::SliceOptions options;
  options.integrator = integrator;
  sim::Slicer slicer(sim::FlightModel(aircraft), options);
  const std::vector<Eigen::VectorXd> controls = DoubletControls(aircraft, options.dt);
  AdvanceThroughDoublet(state, slicer, controls);
}

void BM_Slice(benchmark::State& state, sim::Integrator integrator) {
  SliceThroughDoublet(state, data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft,
                      integrator);
}

BENCHMARK_CAPTURE(BM_Slice, rk45, sim::Integrator::kRk45);
BENCHMARK_CAPTURE(BM_Slice, exact, sim::Integrator::kExact);

// As BM_Slice, in moderate Dryden turbulence at 300 m (the P2V-7's span
// 31.65 m, seed 1): the model with the 4 gust channels (BuildGustInput) and a
// new disturbance every slice, so the exact slice recomputes its held
// inputs' terms Γ_d d every time (Γ δ only where the doublet moves the
// stick). The 600 samples are drawn before timing: the slice alone is timed,
// not the generator (turbulence_bench times a whole turbulent Flight::Step).
void BM_TurbulentSlice(benchmark::State& state, sim::Integrator integrator) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  sim::SliceOptions options;
  options.integrator = integrator;
  sim::Slicer slicer(sim::FlightModel(aircraft, model::BuildGustInput(aircraft)), options);
  const std::vector<Eigen::VectorXd> controls = DoubletControls(aircraft, options.dt);
  sim::DrydenTurbulence dryden(sim::DrydenParametersAt(sim::TurbulenceIntensity::kModerate, 300.0),
                               aircraft.condition.U0, options.dt, 31.65, 1);
  std::vector<Eigen::VectorXd> gusts;
  for (std::size_t k = 0; k < controls.size(); ++k) gusts.emplace_back(dryden.Next());
  std::size_t k = 0;
  for (auto _ : state) {
    slicer.Advance(controls[k], gusts[k]);
    benchmark::DoNotOptimize(slicer.state().data());
    if (++k == controls.size()) {
      k = 0;
      slicer.Reset(sim::FlightState::Zero());
    }
  }
}
BENCHMARK_CAPTURE(BM_TurbulentSlice, rk45, sim::Integrator::kRk45);
BENCHMARK_CAPTURE(BM_TurbulentSlice, exact, sim::Integrator::kExact);

// As BM_Slice/rk45, the P2V-7 with an elevator, aileron and rudder actuator
// (τa = 0.05 s, ±20°, ±60°/s, [actuators]): the extended RK45 state (12
// flight states + the auxiliary state) and the actuators' terms at every
// stage; the doublet drives the elevator's rate limit.
void BM_ActuatedSlice(benchmark::State& state) {
  model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  constexpr double kDeg = 0.017453292519943295;
  for (const char* surface : {"elevator", "aileron", "rudder"})
    aircraft.command_path.actuators[surface] = model::Actuator{0.05, 20.0 * kDeg, 60.0 * kDeg};
  sim::Slicer slicer(sim::FlightModel(aircraft), sim::SliceOptions{});
  const std::vector<Eigen::VectorXd> controls = DoubletControls(aircraft, slicer.dt());
  AdvanceThroughDoublet(state, slicer, controls);
}
BENCHMARK(BM_ActuatedSlice);

// As BM_Slice, the P2V-7 with the washed-out yaw damper of
// docs/augmentation.md (rudder:r = 0.5 through s/(s + 1/1.5), a filter state
// beside the 12 flight states): RK45 integrates the extended state, exact
// propagates the 9 linear states and the auxiliary ones together (15 × 15).
void BM_WashoutSlice(benchmark::State& state, sim::Integrator integrator) {
  model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  aircraft.lateral_augmentation =
      model::AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", "r", 0.5, 1.5}}};
  SliceThroughDoublet(state, aircraft, integrator);
}
BENCHMARK_CAPTURE(BM_WashoutSlice, rk45, sim::Integrator::kRk45);
BENCHMARK_CAPTURE(BM_WashoutSlice, exact, sim::Integrator::kExact);

// Issue #22's floor for an exact step: a bare fixed-size 9 × 9 mat-vec
// (the P2V-7's Φ = e^{AΔt}, Δt = 0.1 s) and the three sincos of the
// attitude (φ, θ0 + θ, ψ) of the result. bench/exact_step_compare.py prints
// BM_Slice/exact over this, measured in the same run.
void BM_BareStep(benchmark::State& state) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  const sim::FlightModel model(aircraft);
  const sim::LinearMatrix phi = core::MatrixExponential(Eigen::MatrixXd(model.A() * 0.1));
  sim::LinearState x;
  x << -5.61e-3, 0.0198, -0.0198, 0.0247, 0.0642, -0.0247, 0.282, 0.0267, 1.05;
  sim::LinearState next;
  double attitude[6];
  for (auto _ : state) {
    benchmark::DoNotOptimize(x.data());
    next.noalias() = phi * x;
    const double theta = model.theta0() + next[sim::kTheta];
    attitude[0] = std::sin(next[sim::kPhi]);
    attitude[1] = std::cos(next[sim::kPhi]);
    attitude[2] = std::sin(theta);
    attitude[3] = std::cos(theta);
    attitude[4] = std::sin(next[sim::kPsi]);
    attitude[5] = std::cos(next[sim::kPsi]);
    benchmark::DoNotOptimize(next.data());
    benchmark::DoNotOptimize(attitude);
  }
}
BENCHMARK(BM_BareStep);

// What the exact step's position quadrature cost with libm's sin and cos:
// the NED velocity at its 4 Gauss–Legendre nodes, each with the sincos of
// five angles (α0 + α, β, φ, θ0 + θ, ψ), 20 in all (the slicer now takes
// them from sim::SinCosTable; this is the RK45 right-hand side's way).
void BM_FourNodeVelocities(benchmark::State& state) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  const sim::FlightModel model(aircraft);
  std::array<sim::FlightState, 4> nodes;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    nodes[i] = sim::FlightState::Zero();
    nodes[i].head<9>() << -5.61e-3, 0.0198, -0.0198, 0.0247, 0.0642, -0.0247, 0.282, 0.0267, 1.05;
    nodes[i].head<9>() *= 1.0 + 0.01 * static_cast<double>(i);
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(nodes.data());
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    for (const sim::FlightState& x : nodes) sum += model.VelocityNed(x);
    benchmark::DoNotOptimize(sum.data());
  }
}
BENCHMARK(BM_FourNodeVelocities);

// The slowdown of long scripted runs: a released control used to decay into
// the subnormal range and, at Δt < 0.1 s, stay there (1.5e-323 after a
// 1000 s run at Δt = 0.02 s), so every slice multiplied B by a subnormal.
// The same flight (from α = β = 0.02 rad, re-started every 600 slices) with
// the controls exactly 0, as the pilot now leaves them, and at that
// subnormal value.
void BM_SliceSubnormalControl(benchmark::State& state, sim::Integrator integrator, double control) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  sim::SliceOptions options;
  options.integrator = integrator;
  options.dt = 0.02;
  sim::Slicer slicer(sim::FlightModel(aircraft), options);
  const Eigen::VectorXd controls = Eigen::VectorXd::Constant(aircraft.controls.size(), control);
  sim::FlightState x0 = sim::FlightState::Zero();
  x0[sim::kAlpha] = 0.02;
  x0[sim::kBeta] = 0.02;
  slicer.Reset(x0);
  long slices = 0;
  for (auto _ : state) {
    slicer.Advance(controls);
    benchmark::DoNotOptimize(slicer.state().data());
    if (++slices % 600 == 0) slicer.Reset(x0);
  }
}
// The other half: hands off, every mode decays, and after ~1e5 s the linear
// states reach the subnormal range and stay there (rounding makes a fixed
// point: the P2V-7 ends at u = -5.6e-321 m/s, α = 2e-323 rad, ...). What that
// costs: one derivative evaluation A x + B δ (+ kinematics) at a normal
// state, and at those subnormal values with ψ and the position kept normal.
void BM_DerivativeAt(benchmark::State& state, double scale) {
  const model::AircraftData aircraft =
      data::LoadAircraftFile(AEROLIN_SOURCE_DIR "/data/derivatives/p2v7.toml").aircraft;
  const sim::FlightModel model(aircraft);
  sim::FlightState x = sim::FlightState::Zero();
  const double shape[] = {-5.61, 0.0198, -0.0198, 0.0247, 0.0642, -0.0247, 0.282, 2.67};
  for (int i = 0; i < 8; ++i) x[i < 4 ? i : i + 1] = shape[i] * scale;
  x[sim::kPsi] = 1.05;
  const sim::LinearState b = sim::LinearState::Zero();
  sim::FlightState dxdt;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x.data());
    model.Derivative(x, b, dxdt);
    benchmark::DoNotOptimize(dxdt.data());
  }
}
BENCHMARK_CAPTURE(BM_DerivativeAt, normal, 1e-3);
BENCHMARK_CAPTURE(BM_DerivativeAt, subnormal, 1e-321);

BENCHMARK_CAPTURE(BM_SliceSubnormalControl, rk45_zero, sim::Integrator::kRk45, 0.0);
BENCHMARK_CAPTURE(BM_SliceSubnormalControl, rk45_subnormal, sim::Integrator::kRk45, 1.5e-323);
BENCHMARK_CAPTURE(BM_SliceSubnormalControl, exact_zero, sim::Integrator::kExact, 0.0);
BENCHMARK_CAPTURE(BM_SliceSubnormalControl, exact_subnormal, sim::Integrator::kExact, 1.5e-323);

}  // namespace

BENCHMARK_MAIN();
