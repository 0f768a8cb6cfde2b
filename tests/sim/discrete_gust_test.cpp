#include "aerolin/sim/discrete_gust.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "aerolin/model/gust.hpp"
#include "aerolin/sim/slicer.hpp"
#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

constexpr double kPi = std::numbers::pi;

// The test's own MIL-F-8785C 1 − cos gust, x = U0 (t − t0).
double OneMinusCos(const DiscreteGust& g, double U0, double t) {
  const double x = U0 * (t - g.start);
  if (x < 0) return 0;
  if (x > g.length) return g.amplitude;
  return g.amplitude / 2 * (1 - std::cos(kPi * x / g.length));
}

TEST(DiscreteGusts, HasTheOneMinusCosineShape) {
  const double U0 = 50.0;
  const DiscreteGust g{GustAxis::kW, 4.0, 100.0, 1.0};  // ramp 2 s
  const DiscreteGusts gusts({g}, U0);
  EXPECT_EQ(gusts.Value(g, 0.5), 0.0);
  EXPECT_EQ(gusts.Value(g, 1.0), 0.0);
  EXPECT_NEAR(gusts.Value(g, 2.0), 2.0, 1e-15);  // x = d_m/2: v_m/2
  EXPECT_EQ(gusts.Value(g, 3.0), 4.0);
  EXPECT_EQ(gusts.Value(g, 10.0), 4.0);
  Eigen::VectorXd d = Eigen::VectorXd::Zero(4);
  gusts.Add(2.0, d);
  EXPECT_EQ(d, Eigen::Vector4d(0.0, 0.0, gusts.Value(g, 2.0), 0.0));
}

// AddMean against composite Simpson quadrature of the test's formula, over
// intervals before, across the start, inside, across the end and after.
TEST(DiscreteGusts, MeanIsTheIntegralOverTheInterval) {
  const double U0 = 50.0;
  const std::vector<DiscreteGust> list = {{GustAxis::kU, 1.5, 60.0, 0.33},
                                          {GustAxis::kV, -2.0, 100.0, 0.5},
                                          {GustAxis::kV, 1.0, 40.0, 0.1}};
  const DiscreteGusts gusts(list, U0);
  for (const auto& [t0, t1] : {std::pair{0.0, 0.1}, {0.3, 0.4}, {0.55, 0.65}, {1.4, 1.6},
                               {2.0, 3.0}, {0.0, 5.0}}) {
    Eigen::VectorXd mean = Eigen::VectorXd::Zero(4);
    gusts.AddMean(t0, t1, mean);
    // Simpson on 2·10⁵ panels: the kinks (g'' jumps) cost O(h³) each.
    constexpr int kPanels = 200000;
    const double h = (t1 - t0) / kPanels;
    Eigen::Vector4d sum = Eigen::Vector4d::Zero();
    for (int i = 0; i <= kPanels; ++i) {
      const double w = (i == 0 || i == kPanels) ? 1 : (i % 2 ? 4 : 2);
      const double t = t0 + i * h;
      sum[0] += w * OneMinusCos(list[0], U0, t);
      sum[1] += w * (OneMinusCos(list[1], U0, t) + OneMinusCos(list[2], U0, t));
    }
    const Eigen::Vector4d expected = sum * h / 3 / (t1 - t0);
    EXPECT_LT((mean - expected).cwiseAbs().maxCoeff(), 1e-10) << t0 << ".." << t1;
  }
}

TEST(DiscreteGusts, RejectsInvalidGusts) {
  EXPECT_THROW(DiscreteGusts({{GustAxis::kW, 1.0, 0.0, 0.0}}, 50.0), std::invalid_argument);
  EXPECT_THROW(DiscreteGusts({{GustAxis::kW, 1.0, 10.0, -1.0}}, 50.0), std::invalid_argument);
  EXPECT_THROW(DiscreteGusts({{GustAxis::kW, NAN, 10.0, 0.0}}, 50.0), std::invalid_argument);
  EXPECT_THROW(DiscreteGusts({}, 0.0), std::invalid_argument);
  EXPECT_EQ(*ParseGustAxis("v"), GustAxis::kV);
  EXPECT_FALSE(ParseGustAxis("x"));
}

// The oracle: classical RK4 on ẋ = A x + E g(t) (the 9 linear states),
// h = 1 ms, with the test's own g: its error, O(h⁴) away from the gust's
// kinks and O(h³) per kink, is far below the tolerances below.
std::vector<LinearState> Oracle(const FlightModel& model, const std::vector<DiscreteGust>& list,
                                double dt, int slices) {
  constexpr int kSub = 100;
  const double h = dt / kSub;
  auto g = [&](double t) {
    Eigen::Vector4d d = Eigen::Vector4d::Zero();
    for (const DiscreteGust& gust : list)
      d[gust.axis == GustAxis::kU ? 0 : gust.axis == GustAxis::kV ? 1 : 2] +=
          OneMinusCos(gust, model.U0(), t);
    return d;
  };
  auto f = [&](double t, const LinearState& x) -> LinearState {
    return model.A() * x + model.E() * g(t);
  };
  std::vector<LinearState> out;
  LinearState x = LinearState::Zero();
  for (int k = 0; k < slices; ++k) {
    for (int i = 0; i < kSub; ++i) {
      const double t = k * dt + i * h;
      const LinearState k1 = f(t, x), k2 = f(t + h / 2, x + h / 2 * k1),
                        k3 = f(t + h / 2, x + h / 2 * k2), k4 = f(t + h, x + h * k3);
      x += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    out.push_back(x);
  }
  return out;
}

const std::vector<DiscreteGust> kGusts = {{GustAxis::kW, 5.0, 100.0, 1.0},
                                          {GustAxis::kV, -3.0, 60.0, 2.05},
                                          {GustAxis::kU, 4.0, 150.0, 0.33}};

// Flies the gusts with `integrator`; returns the linear state at slice ends.
std::vector<LinearState> Fly(const FlightModel& model, Integrator integrator, double dt,
                             int slices, bool profile) {
  SliceOptions o;
  o.integrator = integrator;
  o.dt = dt;
  Slicer slicer(model, o);
  const DiscreteGusts gusts(kGusts, model.U0());
  const Eigen::VectorXd controls = Eigen::VectorXd::Zero(model.num_controls());
  Eigen::VectorXd held = Eigen::VectorXd::Zero(4);
  std::vector<LinearState> out;
  for (int k = 0; k < slices; ++k) {
    if (profile) {
      slicer.Advance(controls, held, &gusts);
    } else {  // the gust sampled at the slice start and held: what the hook avoids
      Eigen::VectorXd d = Eigen::VectorXd::Zero(4);
      gusts.Add(k * dt, d);
      slicer.Advance(controls, d);
    }
    out.push_back(slicer.state().head<kNumLinearStates>());
  }
  return out;
}

// Per-component max over the run of |x − oracle|, and of |oracle|.
LinearState MaxError(const std::vector<LinearState>& a, const std::vector<LinearState>& b) {
  LinearState e = LinearState::Zero();
  for (std::size_t k = 0; k < a.size(); ++k) e = e.cwiseMax((a[k] - b[k]).cwiseAbs());
  return e;
}

TEST(DiscreteGusts, Rk45EvaluatesTheGustInsideTheSlice) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const FlightModel model(aircraft, model::BuildGustInput(aircraft));
  const double dt = 0.1;
  const int slices = 200;
  const std::vector<LinearState> oracle = Oracle(model, kGusts, dt, slices);
  LinearState peak = LinearState::Zero();
  for (const LinearState& x : oracle) peak = peak.cwiseMax(x.cwiseAbs());
  // As tests/sim/slicer_test.cpp: a global error within 10 per-step
  // tolerances atol + rtol·|x|max (defaults 1e-9, 1e-6).
  const LinearState tol = 10.0 * (LinearState::Constant(1e-9) + 1e-6 * peak);
  const LinearState error = MaxError(Fly(model, Integrator::kRk45, dt, slices, true), oracle);
  for (int i = 0; i < kNumLinearStates; ++i)
    EXPECT_LE(error[i], tol[i]) << "state " << i << " (peak " << peak[i] << ")";
  // Holding the gust's slice-start value instead misses by far more: the
  // comparison can tell.
  const LinearState held = MaxError(Fly(model, Integrator::kRk45, dt, slices, false), oracle);
  EXPECT_GT(held[kAlpha], 100 * tol[kAlpha]);
  EXPECT_GT(held[kBeta], 100 * tol[kBeta]);
}

// The exact integrator holds the gust's slice mean: ∫(g − ḡ) = 0 over each
// slice, so the local error is O(Δt³)·|A E ġ| and the global error O(Δt²):
// halving Δt divides it by 4 (between 3 and 5 allowed: the constant varies
// a little as the gust's kinks move within their slices). Measured, worst
// component relative to its peak: 2.4e-2, 6.2e-3,
// 1.5e-3 at Δt = 0.2, 0.1, 0.05 s; RK45 is the accurate choice for gusts.
TEST(DiscreteGusts, ExactIntegratorConvergesAtSecondOrder) {
  const model::AircraftData aircraft = test::MakeP2V7();
  const FlightModel model(aircraft, model::BuildGustInput(aircraft));
  const double T = 16.0;
  double previous = 0.0;
  for (const double dt : {0.2, 0.1, 0.05}) {
    const int slices = static_cast<int>(std::lround(T / dt));
    const std::vector<LinearState> fine = Oracle(model, kGusts, dt, slices);
    LinearState peak = LinearState::Zero();
    for (const LinearState& x : fine) peak = peak.cwiseMax(x.cwiseAbs());
    // The worst component's error relative to its peak.
    const double error = MaxError(Fly(model, Integrator::kExact, dt, slices, true), fine)
                             .cwiseQuotient(peak)
                             .maxCoeff();
    if (previous > 0.0) {
      EXPECT_GT(previous / error, 3.0) << "dt = " << dt;
      EXPECT_LT(previous / error, 5.0) << "dt = " << dt;
    }
    previous = error;
  }
}

TEST(Slicer, RejectsAProfileOfTheWrongSize) {
  const model::AircraftData aircraft = test::MakeP2V7();
  Slicer slicer(FlightModel(aircraft), SliceOptions{});
  const DiscreteGusts gusts(kGusts, 50.0);
  const Eigen::VectorXd controls = Eigen::VectorXd::Zero(4);
  const Eigen::VectorXd none(0);
  EXPECT_THROW(slicer.Advance(controls, none, &gusts), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::sim
