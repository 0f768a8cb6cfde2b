#include "aerolin/export/simulation_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/sim/flight_model.hpp"

namespace aerolin::exporting {
namespace {

sim::SimulationResult MakeResult() {
  sim::SimulationResult r;
  r.log.control_names = {"elevator"};
  r.log.control_units = {"rad"};
  r.log.time = {0.0, 0.1, 0.2};
  sim::FlightState a = sim::FlightState::Zero(), b = a, c = a;
  b[sim::kAlpha] = -0.3;
  c[sim::kAlpha] = 0.1;
  c[sim::kDown] = -2.5;
  r.log.state = {a, b, c};
  r.log.controls = {Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 0.01),
                    Eigen::VectorXd::Constant(1, 0.02)};
  sim::ValidityMonitor monitor(sim::ValidityThresholds{}, 90.0);
  for (std::size_t k = 0; k < 3; ++k) monitor.Check(r.log.time[k], r.log.state[k]);
  r.validity = monitor.flags();
  r.slices = 2;
  r.rk_steps = 3;
  return r;
}

sim::SliceTiming MakeTiming() {
  sim::SliceTiming t;
  t.sum_us = 1.0;
  t.max_us = 2.0;
  t.count = 2;
  return t;
}

TEST(MaxExcursions, KeepsTheSignOfTheLargestMagnitude) {
  const std::vector<Excursion> e = MaxExcursions(MakeResult().log);
  ASSERT_EQ(e.size(), 12u);
  EXPECT_EQ(e[sim::kAlpha].name, "alpha");
  EXPECT_EQ(e[sim::kAlpha].value, -0.3);
  EXPECT_EQ(e[sim::kAlpha].time, 0.1);
  EXPECT_EQ(e[sim::kDown].unit, core::Unit::kMetre);
  EXPECT_EQ(e[sim::kQ].unit, core::Unit::kRadianPerSecond);
}

TEST(SimulationSummaryJson, HasTheDocumentedKeys) {
  sim::SimulationOptions options;
  options.duration = 0.2;
  const sim::SliceTiming timing = MakeTiming();
  const std::string text = SimulationSummaryJson(MakeResult(), options, {"Test", {}, {}, {}, {}}, &timing);
  EXPECT_EQ(text.substr(0, 24), "{\n  \"aircraft\": \"Test\",\n") << text;
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(text, j.dump(2));
  EXPECT_EQ(j["slice_cost_us"]["mean"], 0.5);
  EXPECT_EQ(j["slice_cost_us"]["max"], 2.0);
  EXPECT_EQ(j["rk_steps"], 3);
  EXPECT_EQ(j["integrator"], "rk45");
  EXPECT_EQ(j["final"]["state"]["alpha"], 0.1);
  EXPECT_EQ(j["final"]["altitude_change_m"], 2.5);
  EXPECT_EQ(j["final"]["controls"]["elevator"], 0.02);
  EXPECT_EQ(j["max_excursions"]["alpha"]["value"], -0.3);
  EXPECT_EQ(j["validity"][0]["name"], "alpha");
  EXPECT_EQ(j["validity"][0]["exceeded"], true);
  EXPECT_EQ(j["validity"][0]["first_exceeded_t"], 0.1);
  EXPECT_EQ(j["valid"], false);
  EXPECT_TRUE(j["stopped"].is_null());
  EXPECT_TRUE(j["script"].is_null());
}

TEST(SimulationSummaryJson, SliceCostIsNullWithoutTiming) {
  const nlohmann::json j =
      nlohmann::json::parse(SimulationSummaryJson(MakeResult(), {}, {"Test", {}, {}, {}, {}}));
  EXPECT_TRUE(j["slice_cost_us"].is_null());
  EXPECT_EQ(j["rk_steps"], 3);
}

TEST(WriteSimulationSummary, ReportsValidityAndSolverCost) {
  sim::SimulationOptions options;
  std::ostringstream out;
  const sim::SliceTiming timing = MakeTiming();
  WriteSimulationSummary(out, MakeResult(), options, {"Test", {"s.txt"}, {}, {}, {}}, &timing);
  const std::string text = out.str();
  EXPECT_NE(text.find("Test: 2 slices of 0.1 s, rk45 (rtol 1e-06, atol 1e-09)"), std::string::npos) << text;
  EXPECT_NE(text.find("script: s.txt"), std::string::npos);
  // 0.3 rad = 17.19°; the limit 10° is ValidityThresholds' 0.1745 rad.
  EXPECT_NE(text.find("  alpha  peak 17.19 deg      limit 10 deg       EXCEEDED"), std::string::npos)
      << text;
  EXPECT_NE(text.find("EXCEEDED from t = 0.1 s"), std::string::npos) << text;
  EXPECT_NE(text.find("altitude change 2.5 m"), std::string::npos) << text;
  EXPECT_NE(text.find("solver: 3 steps (1.500 per slice, 0 rejected); cost per slice mean 0.500 us, "
                      "max 2.000 us\n"),
            std::string::npos)
      << text;
  std::ostringstream untimed;
  WriteSimulationSummary(untimed, MakeResult(), options, {"Test", {}, {}, {}, {}});
  EXPECT_NE(untimed.str().find("solver: 3 steps (1.500 per slice, 0 rejected)\n"), std::string::npos)
      << untimed.str();
}

// Angles in degrees, rates in deg/s, max |x| unsigned (α's extreme is
// −0.3 rad = −17.1887°, at t = 0.1 s); with imperial units, lengths in ft.
TEST(WriteSimulationSummary, ShowsDegreesAndMagnitudesInTheChosenUnits) {
  sim::SimulationOptions options;
  RunDescription run{"Test", {}, {}, {}, {}};
  std::ostringstream si;
  WriteSimulationSummary(si, MakeResult(), options, run);
  EXPECT_NE(si.str().find("alpha             5.72958          17.1887          0.1   deg\n"),
            std::string::npos)
      << si.str();
  EXPECT_NE(si.str().find("q                       0                0            0   deg/s\n"),
            std::string::npos)
      << si.str();
  EXPECT_NE(si.str().find("down                 -2.5              2.5          0.2   m\n"),
            std::string::npos)
      << si.str();
  run.units = core::UnitSystem::kImperial;
  std::ostringstream ft;
  WriteSimulationSummary(ft, MakeResult(), options, run);
  // 2.5 m / 0.3048 m/ft = 8.20210 ft
  EXPECT_NE(ft.str().find("down              -8.2021           8.2021          0.2   ft\n"),
            std::string::npos)
      << ft.str();
  EXPECT_NE(ft.str().find("altitude change 8.2021 ft\n"), std::string::npos) << ft.str();
}

// Times are the decimals of the slice grid (3 × 0.1 = 0.30000000000000004
// in doubles is written 0.3), and no −0 reaches the JSON.
TEST(SimulationSummaryJson, TimesAreOnTheSliceGridAndNoNegativeZero) {
  sim::SimulationResult r = MakeResult();
  r.log.time = {0.0, 0.1, 3 * 0.1};
  r.log.state[1][sim::kBeta] = -0.0;
  r.log.state[2][sim::kPhi] = -0.0;
  sim::SimulationOptions options;
  options.slice.dt = 0.1;
  const std::string text = SimulationSummaryJson(r, options, {"Test", {}, {}, {}, {}});
  ASSERT_NE(3 * 0.1, 0.3);
  EXPECT_NE(text.find("\"t\": 0.3"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.30000000000000004"), std::string::npos) << text;
  EXPECT_EQ(text.find("-0.0"), std::string::npos) << text;
}

// An elevator doublet: +A for 1 s ≤ t < 2 s, −A for 2 s ≤ t < 3 s (slice
// start times), no disturbance.
class ElevatorDoublet final : public sim::InputSource {
 public:
  ElevatorDoublet(std::size_t elevator, double amplitude)
      : elevator_(static_cast<Eigen::Index>(elevator)), amplitude_(amplitude) {}
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) override {
    const double t = static_cast<double>(k) * dt + 1e-9;
    controls.setZero();
    disturbance.setZero();
    controls[elevator_] = t >= 1.0 && t < 2.0   ? amplitude_
                          : t >= 2.0 && t < 3.0 ? -amplitude_
                                                : 0.0;
  }
  void Reset() override {}

 private:
  Eigen::Index elevator_;
  double amplitude_;
};

// n_z by hand from the normalized derivatives (Etkin & Reid eq. 4.9,18 and
// outputs.hpp), not through the model's matrices:
//   (U0 − Z_α̇) α̇ = Zu u + Zα α + (U0 + Zq) q − g sin θ0 θ + Σ Z_δ δ,
//   n_z = (U0/g)(q − α̇) − sin θ0 θ.
double NzByHand(const model::AircraftData& a, const sim::FlightState& x,
                const Eigen::VectorXd& controls) {
  const model::LongitudinalDerivatives& d = a.longitudinal;
  const double U0 = a.condition.U0, g = a.condition.g, th0 = a.condition.theta0;
  double z = d.Zu * x[sim::kU] + d.Za * x[sim::kAlpha] + (U0 + d.Zq) * x[sim::kQ] -
             g * std::sin(th0) * x[sim::kTheta];
  for (std::size_t c = 0; c < a.controls.size(); ++c)
    z += a.controls[c].Z * controls[static_cast<Eigen::Index>(c)];
  const double alpha_dot = z / (U0 - d.Zadot);
  return (U0 / g) * (x[sim::kQ] - alpha_dot) - std::sin(th0) * x[sim::kTheta];
}

// Without gusts: an elevator doublet on the 747 (Z_α̇ ≠ 0) and the A-7A
// (body axes, θ0 = 11.2°), the digest's n_z RMS against NzByHand per row; on
// the 747 (stability axes, θ0 = 0: n_z = (U0/g) γ̇, γ = θ − α) also against
// backward differences of γ across rows. Within a slice the controls are
// held, γ is smooth and Δγ/Δt − γ̇(t_k⁻) = −(1/Δt)∫(s − t_{k−1}) γ̈ ds, so
// each row's difference error is at most (U0/g)(Δt/2) max|γ̈| and, by
// Minkowski, |RMS(fd) − RMS(n_z)| ≤ RMS(error) ≤ (U0/g)(Δt/2) max|γ̈|. max|γ̈|
// is estimated per slice as its mean, (γ̇ at the slice's end − γ̇ at its
// start)/Δt with γ̇ = (g/U0) n_z by hand; within a slice γ̈ changes by
// O(ω Δt) ≈ 1 % for the short period, hence the factor 1.1.
TEST(FlightDigest, LoadFactorRmsOfAnElevatorDoubletMatchesTheRowsByHand) {
  for (const std::string file : {"boeing747_cruise_40kft.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData aircraft =
        data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + file)
            .aircraft;
    std::size_t elevator = aircraft.controls.size();
    for (std::size_t c = 0; c < aircraft.controls.size(); ++c)
      if (aircraft.controls[c].name == "elevator") elevator = c;
    ASSERT_LT(elevator, aircraft.controls.size()) << file;
    const sim::FlightModel model(aircraft);
    ElevatorDoublet doublet(elevator, 0.02);
    sim::SimulationOptions options;
    options.duration = 8.0;
    options.slice.dt = 0.01;
    options.slice.integrator = sim::Integrator::kExact;
    const sim::SimulationResult result =
        sim::Simulate(model, sim::FlightState::Zero(), doublet, options);
    const sim::FlightLog& log = result.log;
    ASSERT_EQ(log.size(), 801u) << file;

    FlightDigest digest;
    EXPECT_FALSE(digest.rms_nz().has_value());
    digest.TrackLoadFactor(LoadFactorRowOf(aircraft));  // no wind pointer: no gusts
    double sum = 0.0, peak = 0.0;
    std::vector<double> nz(log.size());
    for (std::size_t k = 0; k < log.size(); ++k) {
      digest.Record(log.time[k], log.state[k], log.controls[k]);
      nz[k] = NzByHand(aircraft, log.state[k], log.controls[k]);
      sum += nz[k] * nz[k];
      peak = std::max(peak, std::abs(nz[k]));
    }
    const double rms = std::sqrt(sum / static_cast<double>(log.size()));
    EXPECT_GT(peak, 0.05) << file;  // a 0.02 rad doublet: a tenth of a g or so
    ASSERT_TRUE(digest.rms_nz().has_value());
    EXPECT_NEAR(*digest.rms_nz(), rms, 1e-12 * rms) << file;

    if (aircraft.condition.theta0 != 0.0 || aircraft.condition.W0 != 0.0) continue;
    const double k_g = aircraft.condition.U0 / aircraft.condition.g, dt = options.slice.dt;
    double fd_sum = 0.0, max_gamma_ddot = 0.0;
    for (std::size_t k = 1; k < log.size(); ++k) {
      const double gamma = log.state[k][sim::kTheta] - log.state[k][sim::kAlpha];
      const double gamma_prev = log.state[k - 1][sim::kTheta] - log.state[k - 1][sim::kAlpha];
      const double fd = k_g * (gamma - gamma_prev) / dt;
      fd_sum += fd * fd;
      // Mean γ̈ over slice k: γ̇ at its end minus γ̇ at its start (the state
      // at t_{k−1} with slice k's controls), over Δt.
      const double nz_start = NzByHand(aircraft, log.state[k - 1], log.controls[k]);
      max_gamma_ddot = std::max(max_gamma_ddot, std::abs(nz[k] - nz_start) / k_g / dt);
    }
    const double fd_rms = std::sqrt(fd_sum / static_cast<double>(log.size()));  // row 0: n_z = 0
    const double bound = 1.1 * k_g * (dt / 2.0) * max_gamma_ddot;
    EXPECT_LT(bound, 0.1 * rms) << file;  // the check means something
    EXPECT_NEAR(*digest.rms_nz(), fd_rms, bound) << file;
  }
}

TEST(FlightDigest, LoadFactorRowNeedsOneCoefficientPerControl) {
  FlightDigest digest;
  LoadFactorRow row;
  row.controls = Eigen::VectorXd::Zero(2);
  digest.TrackLoadFactor(row);
  EXPECT_THROW(digest.Record(0.0, sim::FlightState::Zero(), Eigen::VectorXd::Zero(3)),
               std::invalid_argument);
}

// A digest built from a log (no load-factor row) reports rms.nz as null.
TEST(SimulationSummaryJson, NzRmsIsNullWithoutALoadFactorRow) {
  RunDescription run;
  run.aircraft = "Test";
  run.gusts.emplace();
  const nlohmann::json j =
      nlohmann::json::parse(SimulationSummaryJson(MakeResult(), {}, run));
  ASSERT_TRUE(j["rms"].is_object()) << j.dump();
  EXPECT_TRUE(j["rms"]["nz"].is_null()) << j.dump();
  EXPECT_DOUBLE_EQ(j["rms"]["alpha"].get<double>(), std::sqrt((0.09 + 0.01) / 3.0));
}

}  // namespace
}  // namespace aerolin::exporting
