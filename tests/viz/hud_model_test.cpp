#include "aerolin/viz/hud_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/sim/turbulence.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/rough_air.hpp"
#include "aerolin/viz/flight_session.hpp"

namespace aerolin::viz {
namespace {

namespace fs = std::filesystem;

const std::string kDerivatives = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives";
const std::string kP2V7 = kDerivatives + "/p2v7.toml";
const std::string kB747 = kDerivatives + "/boeing747_cruise_40kft.toml";

// Every bundled aircraft file, sorted so failures read the same each run.
std::vector<std::string> BundledAircraft() {
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(kDerivatives))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The oracle: each mode kind's worst level over the requirements of every
// grade analysis::Grade gives in the file's category (or A, B and C).
std::map<analysis::ModeKind, int> WorstLevels(const model::AircraftData& aircraft,
                                              const std::vector<analysis::Mode>& modes) {
  std::vector<analysis::Mode> lon, lat;
  for (const analysis::Mode& m : modes)
    (m.axis == model::Axis::kLongitudinal ? lon : lat).push_back(m);
  const analysis::ModalSummary summary = analysis::SummarizeModes(lon, lat, aircraft);
  std::map<analysis::ModeKind, int> worst;
  for (analysis::FlightPhaseCategory c : model::kFlightPhaseCategories) {
    if (aircraft.condition.category && *aircraft.condition.category != c) continue;
    for (const analysis::RequirementResult& r :
         analysis::Grade(summary, *aircraft.aircraft_class, c).requirements)
      worst[r.mode] = std::max(worst[r.mode], analysis::ToInt(r.level));
  }
  return worst;
}

// The HUD's mode table of `aircraft` against the oracle: every mode but the
// heading root, in order, each graded mode at WorstLevels' level.
void ExpectModeTableMatchesGrade(const model::AircraftData& aircraft) {
  const FlightSession session(aircraft, SessionOptions{});
  const HudModel hud_model(session, "name");
  const HudState& hud = hud_model.hud();
  const std::map<analysis::ModeKind, int> want = WorstLevels(aircraft, session.modes());
  const std::string category =
      aircraft.condition.category
          ? "cat. " + std::string(analysis::ToString(*aircraft.condition.category))
          : "worst of A/B/C";
  EXPECT_EQ(hud.qualities, "MIL-F-8785C " +
                               std::string(analysis::ToString(*aircraft.aircraft_class)) + ", " +
                               category);
  std::size_t row = 0, graded = 0;
  for (const analysis::Mode& m : session.modes()) {
    if (m.kind == analysis::ModeKind::kHeading) continue;
    ASSERT_LT(row, hud.modes.size());
    const ModeRow& r = hud.modes[row++];
    EXPECT_EQ(r.name, m.full_name());
    EXPECT_EQ(r.natural_frequency, m.natural_frequency);
    EXPECT_EQ(r.damping_ratio, m.damping_ratio);
    EXPECT_EQ(r.stable, m.stable);
    const auto it = want.find(m.kind);
    if (it == want.end()) {
      EXPECT_FALSE(r.level) << r.name;
    } else {
      ASSERT_TRUE(r.level) << r.name;
      EXPECT_EQ(*r.level, it->second) << r.name;
      ++graded;
    }
  }
  EXPECT_EQ(row, hud.modes.size());
  EXPECT_GE(graded, 4u);  // short period, phugoid, Dutch roll, roll and/or spiral
}

// As each file gives it, then without its category (graded in A, B and C).
TEST(HudModel, ModeLevelsAreTheWorstGradeOfEachModeOnEveryBundledAircraft) {
  const std::vector<std::string> files = BundledAircraft();
  ASSERT_GE(files.size(), 7u);
  for (const std::string& file : files) {
    data::LoadResult loaded = data::LoadAircraftFile(file);
    ASSERT_TRUE(loaded.aircraft.aircraft_class) << file;  // every bundled file gives one
    {
      SCOPED_TRACE(file);
      ExpectModeTableMatchesGrade(loaded.aircraft);
    }
    loaded.aircraft.condition.category.reset();
    SCOPED_TRACE(file + " without its category");
    ExpectModeTableMatchesGrade(loaded.aircraft);
  }
}

// Pinned values (derived by hand in tests/analysis/flying_qualities_test.cpp;
// the window test checks their colours): the 747 (Class III, Category B) has
// its short period at Level 1, roll mode at 2 and Dutch roll at 3; the P2V-7's
// Dutch roll is Level 2 and none of its modes is at Level 3.
TEST(HudModel, ModeLevelsOfThe747AndTheP2V7) {
  auto level_of = [](const HudState& hud, const std::string& name) -> std::optional<int> {
    for (const ModeRow& r : hud.modes)
      if (r.name == name) return r.level;
    ADD_FAILURE() << "no mode row " << name;
    return std::nullopt;
  };
  const data::LoadResult b747 = data::LoadAircraftFile(kB747);
  const FlightSession s747(b747.aircraft, SessionOptions{});
  const HudModel m747(s747, "747");
  EXPECT_EQ(level_of(m747.hud(), "short period"), 1);
  EXPECT_EQ(level_of(m747.hud(), "roll subsidence"), 2);
  EXPECT_EQ(level_of(m747.hud(), "dutch roll"), 3);
  // Without its category the worst of A, B and C: the short period fails
  // Category A (Level 4) though it meets Level 1 in B.
  data::LoadResult b747_any = b747;
  b747_any.aircraft.condition.category.reset();
  const FlightSession s747_any(b747_any.aircraft, SessionOptions{});
  const HudModel m747_any(s747_any, "747");
  EXPECT_EQ(m747_any.hud().qualities, "MIL-F-8785C III, worst of A/B/C");
  EXPECT_EQ(level_of(m747_any.hud(), "short period"), 4);

  const data::LoadResult p2v7 = data::LoadAircraftFile(kP2V7);
  const FlightSession sp2v7(p2v7.aircraft, SessionOptions{});
  const HudModel mp2v7(sp2v7, "P2V-7");
  EXPECT_EQ(level_of(mp2v7.hud(), "dutch roll"), 2);
  for (const ModeRow& r : mp2v7.hud().modes) EXPECT_NE(r.level, 3) << r.name;
}

TEST(GradeModeTable, WithoutAClassRowsCarryNoLevel) {
  data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  loaded.aircraft.aircraft_class.reset();
  const FlightSession session(loaded.aircraft, SessionOptions{});
  const ModeTable table = GradeModeTable(session.aircraft(), session.modes());
  EXPECT_EQ(table.qualities, "");
  ASSERT_EQ(table.rows.size(), session.modes().size() - 1);  // no heading row
  for (const ModeRow& r : table.rows) EXPECT_FALSE(r.level) << r.name;
}

TEST(GradeModeTable, AMissingModeLeavesTheTableUngraded) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  const FlightSession session(loaded.aircraft, SessionOptions{});
  std::vector<analysis::Mode> modes = session.modes();
  std::erase_if(modes,
                [](const analysis::Mode& m) { return m.kind == analysis::ModeKind::kDutchRoll; });
  const ModeTable table = GradeModeTable(session.aircraft(), modes);
  EXPECT_EQ(table.qualities, "");
  ASSERT_FALSE(table.rows.empty());
  for (const ModeRow& r : table.rows) EXPECT_FALSE(r.level) << r.name;
}

// The graded table is built at construction and left alone by Update: same
// rows, same storage, frame after frame.
TEST(HudModel, UpdateKeepsTheModeTableOfConstruction) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  FlightSession session(loaded.aircraft, SessionOptions{});
  HudModel hud_model(session, "P2V-7");
  const std::vector<ModeRow> before = hud_model.hud().modes;
  const ModeRow* storage = hud_model.hud().modes.data();
  for (int k = 0; k < 20; ++k) {
    session.Step(pilot::KeySet{});
    hud_model.Update(session.state());
  }
  ASSERT_EQ(hud_model.hud().modes.size(), before.size());
  EXPECT_EQ(hud_model.hud().modes.data(), storage);
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(hud_model.hud().modes[i].name, before[i].name);
    EXPECT_EQ(hud_model.hud().modes[i].level, before[i].level);
  }
}

// The G key's panel: the HUD says whether the file's augmentation flies and
// what it closes, and grades the modes of the aircraft flying now.
TEST(HudModel, AugmentationLineAndTheModeTableOfTheAircraftFlying) {
  const model::AircraftData bare = data::LoadAircraftFile(kP2V7).aircraft;
  study::AugmentSpec spec;
  spec.axis = model::Axis::kLateral;
  spec.inputs = {"rudder"};
  model::AircraftData damped = bare;
  damped.lateral_augmentation = model::AxisAugmentation{{"rudder"}, study::Augment(bare, spec).gain};

  FlightSession plain(bare, SessionOptions{});
  HudModel plain_hud(plain, "P2V-7");
  EXPECT_FALSE(plain_hud.hud().augmentation_on.has_value());
  EXPECT_TRUE(plain_hud.hud().augmentation_loops.empty());

  FlightSession session(damped, SessionOptions{});
  HudModel hud_model(session, "P2V-7");
  ASSERT_TRUE(hud_model.hud().augmentation_on.has_value());
  EXPECT_TRUE(*hud_model.hud().augmentation_on);
  EXPECT_EQ(hud_model.hud().augmentation_loops, std::vector<std::string>{"lateral: rudder"});
  auto rows_of = [](const model::AircraftData& a) {
    const analysis::ModalAnalysis m = analysis::AnalyzeModes(a);
    std::vector<analysis::Mode> all = m.longitudinal;
    all.insert(all.end(), m.lateral.begin(), m.lateral.end());
    return GradeModeTable(a, all).rows;
  };
  auto same_rows = [](const std::vector<ModeRow>& a, const std::vector<ModeRow>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].name != b[i].name || a[i].damping_ratio != b[i].damping_ratio || a[i].level != b[i].level)
        return false;
    return true;
  };
  EXPECT_TRUE(same_rows(hud_model.hud().modes, rows_of(damped)));
  EXPECT_FALSE(same_rows(rows_of(damped), rows_of(bare)));

  ASSERT_TRUE(session.SetAugmentation(false));
  hud_model.Update(session.state());
  EXPECT_FALSE(*hud_model.hud().augmentation_on);
  EXPECT_TRUE(same_rows(hud_model.hud().modes, rows_of(bare)));
  ASSERT_TRUE(session.SetAugmentation(true));
  hud_model.Update(session.state());
  EXPECT_TRUE(*hud_model.hud().augmentation_on);
  EXPECT_TRUE(same_rows(hud_model.hud().modes, rows_of(damped)));

  // A pitch damper too: one line per axis (the panel of an 800-px window is
  // narrow; the two axes on one line ran off its edge).
  model::AircraftData both = damped;
  both.longitudinal_augmentation = model::AxisAugmentation{{"elevator"}, Eigen::RowVector4d(0, 0, -0.5, 0)};
  FlightSession both_session(both, SessionOptions{});
  HudModel both_hud(both_session, "P2V-7");
  EXPECT_EQ(both_hud.hud().augmentation_loops,
            (std::vector<std::string>{"longitudinal: elevator", "lateral: rudder"}));
}

// A pitch damper δe = δ_pilot + 0.5 q whose elevator (τa = 0.05 s) stops at
// 2°: the bar shows the surface where its actuator is (lagging pilot +
// damper), held at its stop once the command passes it, and the HUD names
// the saturated surface.
TEST(HudModel, ControlBarsShowTheSurfaceAndASaturatedOne) {
  model::AircraftData damped = data::LoadAircraftFile(kP2V7).aircraft;
  damped.longitudinal_augmentation = model::AxisAugmentation{{"elevator"}, Eigen::RowVector4d(0, 0, -0.5, 0)};
  const double stop = 2.0 * core::kDegToRad;
  damped.command_path.actuators["elevator"] = model::Actuator{0.05, stop, std::nullopt};
  FlightSession session(damped, SessionOptions{});
  HudModel hud_model(session, "P2V-7");
  ASSERT_EQ(hud_model.hud().controls[0].name, "elevator");
  EXPECT_EQ(hud_model.hud().controls[0].limit, stop);
  EXPECT_EQ(hud_model.hud().controls[0].range, stop);  // the bar spans the travel
  EXPECT_FALSE(hud_model.hud().controls[0].rate_limit.has_value());
  EXPECT_FALSE(hud_model.hud().controls[1].limit.has_value());

  // A short push: the surface follows the damper's command, lagging it.
  session.Step(pilot::KeySet{pilot::Key::k8});
  const HudState& small = hud_model.Update(session.state());
  const double pilot_small = session.pilot().controls()[0];
  const ControlGauge& e = small.controls[0];
  EXPECT_FALSE(e.saturated);
  EXPECT_FALSE(e.rate_saturated);
  EXPECT_EQ(e.value, session.auxiliary_state()[0]);
  EXPECT_DOUBLE_EQ(e.commanded, pilot_small + 0.5 * session.state()[sim::kQ]);
  EXPECT_NE(e.value, e.commanded);  // the lag
  EXPECT_NE(e.value, 0.0);
  EXPECT_TRUE(small.warnings.empty());

  // Held: the command passes the stop; the surface stays within it, at it.
  for (int k = 0; k < 15; ++k) session.Step(pilot::KeySet{pilot::Key::k8});
  const HudState& big = hud_model.Update(session.state());
  const ControlGauge& s = big.controls[0];
  const double commanded = session.pilot().controls()[0] + 0.5 * session.state()[sim::kQ];
  ASSERT_GT(std::abs(commanded), stop);
  EXPECT_TRUE(s.saturated);
  EXPECT_LE(std::abs(s.value), stop);
  EXPECT_NEAR(s.value, std::copysign(stop, commanded), 1e-9 * stop);  // 30 τa on the stop
  EXPECT_DOUBLE_EQ(s.commanded, commanded);
  ASSERT_EQ(big.warnings.size(), 1u);
  EXPECT_EQ(big.warnings[0], fmt::format("elevator saturated: commanded {:+.1f}\xc2\xb0, stop \xc2\xb1" "2\xc2\xb0",
                                         commanded * core::kRadToDeg));
}

// The same elevator limited to 1°/s instead: a push asks for more than the
// rate limit, and the HUD shows the surface rate-limited, as a stop.
TEST(HudModel, ControlBarsShowARateSaturatedSurface) {
  model::AircraftData damped = data::LoadAircraftFile(kP2V7).aircraft;
  damped.longitudinal_augmentation = model::AxisAugmentation{{"elevator"}, Eigen::RowVector4d(0, 0, -0.5, 0)};
  const double rate = 1.0 * core::kDegToRad;
  damped.command_path.actuators["elevator"] = model::Actuator{0.05, std::nullopt, rate};
  FlightSession session(damped, SessionOptions{});
  HudModel hud_model(session, "P2V-7");
  EXPECT_EQ(hud_model.hud().controls[0].rate_limit, rate);
  EXPECT_FALSE(hud_model.hud().controls[0].limit.has_value());
  EXPECT_FALSE(hud_model.Update(session.state()).controls[0].rate_saturated);  // at trim, hands off

  for (int k = 0; k < 3; ++k) session.Step(pilot::KeySet{pilot::Key::k8});
  const HudState& h = hud_model.Update(session.state());
  const ControlGauge& g = h.controls[0];
  const double surface = session.auxiliary_state()[0];
  const double asked = (g.commanded - surface) / 0.05;  // the lag's rate, unlimited
  ASSERT_GT(std::abs(asked), rate);
  EXPECT_TRUE(g.rate_saturated);
  EXPECT_FALSE(g.saturated);
  EXPECT_EQ(g.value, surface);
  EXPECT_DOUBLE_EQ(g.demanded_rate, asked);
  // Three slices at the limit from trim: the surface has moved R·0.3 s.
  EXPECT_NEAR(std::abs(surface), rate * 0.3, 1e-9);
  ASSERT_EQ(h.warnings.size(), 1u);
  EXPECT_EQ(h.warnings[0], fmt::format("elevator rate limited: asked {:+.0f}\xc2\xb0/s, limit \xc2\xb1" "1\xc2\xb0/s",
                                       asked * core::kRadToDeg));
}

TEST(ValidityWarnings, OneLinePerQuantityBeyondItsLimit) {
  const double U0 = 100.0;
  sim::FlightState x = sim::FlightState::Zero();
  x[sim::kU] = 9.9;
  x[sim::kAlpha] = 9.9 * core::kDegToRad;
  x[sim::kBeta] = -9.9 * core::kDegToRad;
  x[sim::kPhi] = 29.9 * core::kDegToRad;
  EXPECT_TRUE(ValidityWarnings(x, U0).empty());
  x[sim::kU] = -10.5;
  x[sim::kPhi] = -31.1 * core::kDegToRad;
  const std::vector<std::string> w = ValidityWarnings(x, U0);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "u = -10.5 m/s beyond 10 % of U0: left the small-perturbation range");
  EXPECT_EQ(w[1],
            "\xcf\x86 = -31.1\xc2\xb0 beyond \xc2\xb1" "30\xc2\xb0: left the small-perturbation range");
  x[sim::kAlpha] = 10.5 * core::kDegToRad;
  x[sim::kBeta] = 10.4 * core::kDegToRad;
  EXPECT_EQ(ValidityWarnings(x, U0).size(), 4u);
  sim::ValidityThresholds wide;
  wide.phi = 45.0 * core::kDegToRad;
  EXPECT_EQ(ValidityWarnings(x, U0, wide).size(), 3u);
}

// The HUD warns about the state it shows, on every bundled aircraft: none at
// trim, the bank warning once φ passes 30°.
TEST(HudModel, WarnsWhenTheShownStatePassesAValidityLimit) {
  for (const std::string& file : BundledAircraft()) {
    SCOPED_TRACE(file);
    const data::LoadResult loaded = data::LoadAircraftFile(file);
    const FlightSession session(loaded.aircraft, SessionOptions{});
    HudModel hud_model(session, "a");
    sim::FlightState x = sim::FlightState::Zero();
    EXPECT_TRUE(hud_model.Update(x).warnings.empty());
    x[sim::kPhi] = 0.6;  // 34.4°
    const HudState& hud = hud_model.Update(x);
    ASSERT_EQ(hud.warnings.size(), 1u);
    EXPECT_EQ(hud.warnings[0].rfind("\xcf\x86 = +34.4\xc2\xb0 beyond", 0), 0u) << hud.warnings[0];
    x[sim::kU] = -0.2 * session.model().U0();
    EXPECT_EQ(hud_model.Update(x).warnings.size(), 2u);
    EXPECT_EQ(hud_model.Update(sim::FlightState::Zero()).warnings.size(), 0u);
  }
}

// The turbulence panel shows the Dryden σ of the intensity at the session's
// altitude, the seed, the altitude and the gusts the session flew; it empties
// when turbulence is switched off.
TEST(HudModel, TurbulencePanelOnEveryBundledAircraft) {
  for (const std::string& file : BundledAircraft()) {
    SCOPED_TRACE(file);
    const data::LoadResult loaded = data::LoadAircraftFile(file);
    SessionOptions options;
    options.turbulence = sim::TurbulenceIntensity::kModerate;
    options.turbulence_altitude = 300.0;
    options.seed = 7;
    FlightSession session(loaded.aircraft, options);
    HudModel hud_model(session, "a");
    const sim::DrydenParameters want =
        sim::DrydenParametersAt(sim::TurbulenceIntensity::kModerate, 300.0);
    for (int k = 0; k < 10; ++k) session.Step(pilot::KeySet{});
    const HudState& hud = hud_model.Update(session.state());
    EXPECT_EQ(hud.turbulence, "moderate");
    EXPECT_EQ(hud.turbulence_sigma, Eigen::Vector3d(want.sigma_u, want.sigma_v, want.sigma_w));
    EXPECT_EQ(hud.turbulence_seed, 7u);
    EXPECT_EQ(hud.turbulence_altitude, 300.0);
    EXPECT_EQ(hud.turbulence_height_source, "--altitude");
    EXPECT_EQ(hud.wind, session.wind());
    EXPECT_GT(hud.wind.head<3>().norm(), 0.0);

    session.SetTurbulence(sim::TurbulenceIntensity::kSevere);
    EXPECT_EQ(hud_model.Update(session.state()).turbulence, "severe");
    session.SetTurbulence(std::nullopt);
    const HudState& off = hud_model.Update(session.state());
    EXPECT_EQ(off.turbulence, "");
    EXPECT_EQ(off.wind, Eigen::Vector4d::Zero());
    EXPECT_EQ(off.turbulence_sigma, Eigen::Vector3d::Zero());
  }
}

// In turbulence the panel shows the running RMS of the segment beside the
// exact RMS: the exact ones are `aerolin rms`'s (study::ExactRoughAirStatistics
// of the same request), the running ones the RMS of the rows flown (the t = 0
// row and one per slice, as simulate's summary), and over a long flight the
// running mean square agrees with the exact one within 5 standard errors of
// the estimator, SE² = (2/N) Σ_k γ(k)² from the exact lag covariances γ(k).
TEST(HudModel, TurbulenceRmsRunBesideTheExactOnes) {
  const data::LoadResult loaded = data::LoadAircraftFile(kDerivatives + "/navion_cruise_sl.toml");
  SessionOptions options;
  options.turbulence = sim::TurbulenceIntensity::kModerate;
  options.turbulence_altitude = 300.0;
  options.seed = 11;
  FlightSession session(loaded.aircraft, options);
  HudModel hud_model(session, "a");
  study::RoughAirSpec spec;
  spec.turbulence = {sim::TurbulenceIntensity::kModerate, 300.0, 11, std::nullopt};
  spec.dt = session.dt();
  const study::RoughAirStatistics exact =
      study::ExactRoughAirStatistics(loaded.aircraft, analysis::AnalyzeModes(loaded.aircraft), spec);
  auto find = [&](const study::AxisStatistics& axis, const std::string& name) {
    for (std::size_t i = 0; i < axis.outputs.size(); ++i)
      if (axis.outputs[i].signal.name == name) return static_cast<Eigen::Index>(i);
    ADD_FAILURE() << name;
    return Eigen::Index{0};
  };
  const int n = 30000;  // slices: 3000 s at 0.1 s
  double alpha2 = 0.0, phi2 = 0.0;
  for (int k = 0; k < n; ++k) {
    session.Step(pilot::KeySet{});
    alpha2 += session.state()[sim::kAlpha] * session.state()[sim::kAlpha];
    phi2 += session.state()[sim::kPhi] * session.state()[sim::kPhi];
  }
  const HudState& hud = hud_model.Update(session.state());
  ASSERT_EQ(hud.turbulence_rms.size(), 4u);
  EXPECT_EQ(hud.turbulence_rms[0].symbol, "n_z");
  EXPECT_EQ(hud.turbulence_rms[1].symbol, "\xce\xb1");
  EXPECT_DOUBLE_EQ(hud.turbulence_rms_time, session.time());
  // Rows: t = 0 (trim, all zero) and n slices.
  EXPECT_NEAR(hud.turbulence_rms[1].running, core::kRadToDeg * std::sqrt(alpha2 / (n + 1)), 1e-9);
  EXPECT_NEAR(hud.turbulence_rms[3].running, core::kRadToDeg * std::sqrt(phi2 / (n + 1)), 1e-9);
  struct Check {
    std::size_t row;
    model::Axis axis;
    const char* name;
    double per_si;
  };
  for (const Check& c : {Check{0, model::Axis::kLongitudinal, "nz", 1.0},
                         Check{1, model::Axis::kLongitudinal, "alpha", core::kRadToDeg},
                         Check{2, model::Axis::kLateral, "beta", core::kRadToDeg},
                         Check{3, model::Axis::kLateral, "phi", core::kRadToDeg}}) {
    SCOPED_TRACE(c.name);
    const study::AxisStatistics& axis = exact.of(c.axis);
    const Eigen::Index i = find(axis, c.name);
    ASSERT_TRUE(hud.turbulence_rms[c.row].exact);
    EXPECT_DOUBLE_EQ(*hud.turbulence_rms[c.row].exact, c.per_si * axis.outputs[static_cast<std::size_t>(i)].rms);
    // SE of the mean square from the lag covariances c T^k P cᵀ.
    const Eigen::RowVectorXd row = axis.output_rows.row(i);
    Eigen::MatrixXd lagged = axis.covariance;
    const double var = (row * lagged * row.transpose())(0, 0);
    double sum = var * var;
    for (int k = 1; k < 20000; ++k) {  // 2000 s of lags: past the spiral's memory
      lagged = axis.transition * lagged;
      const double g = (row * lagged * row.transpose())(0, 0);
      sum += 2.0 * g * g;
    }
    const double se = std::sqrt(2.0 * sum / n);
    const double running = hud.turbulence_rms[c.row].running / c.per_si;
    EXPECT_LT(std::abs(running * running - var), 5.0 * se)
        << "running " << running << " exact " << std::sqrt(var) << " SE(ms) " << se;
    // The check has teeth, except for φ: the Navion's slow spiral keeps
    // bank correlated for minutes, so 3000 s is a short sample of it.
    if (std::string(c.name) != "phi") {
      EXPECT_LT(se, 0.1 * var);
    }
  }
  // Off: no rows.
  session.SetTurbulence(std::nullopt);
  EXPECT_TRUE(hud_model.Update(session.state()).turbulence_rms.empty());
}

// T works on every bundled aircraft: without --altitude the session flies
// turbulence at study::TurbulenceHeight's height (the file's altitude when
// above 0, else 1000 ft; the P2V-7 gives none and used to refuse, the Navion,
// A-7A and NT-33A say 0 and flew at the ground), and the gusts move the
// aircraft. The HUD shows the height and where it came from.
TEST(HudModel, TurbulenceWorksOnEveryBundledAircraftAtTheRulesHeight) {
  std::vector<std::string> files = BundledAircraft();
  files.push_back(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.toml");
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const data::LoadResult loaded = data::LoadAircraftFile(file);
    FlightSession session(loaded.aircraft, SessionOptions{});
    const std::optional<double> file_altitude = loaded.aircraft.condition.altitude;
    const bool from_file = file_altitude && *file_altitude > 0.0;
    EXPECT_EQ(session.turbulence_height().height,
              from_file ? *file_altitude : study::kDefaultTurbulenceHeight);
    EXPECT_EQ(session.turbulence_height().source,
              from_file ? study::HeightSource::kFile : study::HeightSource::kDefault);
    HudModel hud_model(session, "a");
    session.SetTurbulence(sim::TurbulenceIntensity::kSevere);
    ASSERT_TRUE(session.turbulence());
    const HudState& hud = hud_model.Update(session.state());
    EXPECT_EQ(hud.turbulence_altitude, session.turbulence_height().height);
    EXPECT_EQ(hud.turbulence_height_source, from_file ? "file" : "default");
    ASSERT_NE(session.dryden(), nullptr);
    EXPECT_EQ(session.dryden()->parameters().L_w,
              sim::DrydenParametersAt(sim::TurbulenceIntensity::kSevere,
                                      session.turbulence_height().height)
                  .L_w);
    for (int k = 0; k < 20; ++k) session.Step(pilot::KeySet{});
    EXPECT_GT(session.state().head<9>().norm(), 0.0);
    session.SetTurbulence(std::nullopt);  // off is always possible
    EXPECT_FALSE(session.turbulence());
  }
}

// A mode's name longer than its column (the F-16's "short period
// (overdamped)" at 800 × 600 read "short period (over") goes on over the
// next lines: every name aerolin gives (each kind with each set of
// qualifiers) fits line by line in both panel modes and reads whole when the
// lines are joined again; the mode table grows by the lines added.
TEST(HudLayout, LongModeNamesWrapInsteadOfBeingCut) {
  EXPECT_EQ(ModeNameLines("short period (overdamped)", 18),
            (std::vector<std::string>{"short period", " (overdamped)"}));
  EXPECT_EQ(ModeNameLines("dutch roll", 18), std::vector<std::string>{"dutch roll"});
  EXPECT_EQ(ModeNameLines("roll subsidence", ModeNameChars(PanelMode::kCompact)),
            std::vector<std::string>{"roll subsidence"});
  using analysis::ModeFlag;
  using analysis::ModeKind;
  for (const ModeKind kind : {ModeKind::kShortPeriod, ModeKind::kPhugoid, ModeKind::kDutchRoll,
                              ModeKind::kRollSubsidence, ModeKind::kSpiral, ModeKind::kRollSpiral,
                              ModeKind::kHeading})
    for (unsigned f = 0; f < 128; ++f) {
      const std::string& name = analysis::FullName(kind, static_cast<ModeFlag>(f));
      for (const PanelMode mode : {PanelMode::kFull, PanelMode::kCompact}) {
        const std::size_t chars = ModeNameChars(mode);
        const std::vector<std::string> lines = ModeNameLines(name, chars);
        std::string joined;
        for (std::size_t i = 0; i < lines.size(); ++i) {
          EXPECT_LE(lines[i].size(), chars) << name;
          EXPECT_EQ(lines[i].front() == ' ', i > 0) << name;  // continuations indented
          if (i > 0) joined += ' ';
          joined += lines[i].substr(i > 0 ? 1 : 0);
        }
        EXPECT_EQ(joined, name);
        EXPECT_EQ(lines.size() == 1, name.size() <= chars) << name;
      }
    }
  HudState h;
  for (const char* name : {"short period", "phugoid"})
    h.modes.push_back({name, 1.0, 0.5, 6.0, std::nullopt, true, 1});
  for (const PanelMode mode : {PanelMode::kFull, PanelMode::kCompact}) {
    const HudLayout short_names = LayoutHud(h, 800, 600, mode, 1);
    HudState g = h;
    g.modes.front().name = "short period (overdamped)";
    const HudLayout long_name = LayoutHud(g, 800, 600, mode, 1);
    const float row = mode == PanelMode::kCompact ? 17 : short_names.line_height;
    EXPECT_FLOAT_EQ(long_name.mode_table.height, short_names.mode_table.height + row);
  }
}

// A HUD as an aircraft with four controls and six modes shows it.
HudState LayoutExample() {
  HudState h;
  h.aircraft = "North American Navion, sea level cruise (Teper CR-96008)";
  for (const char* name : {"elevator", "throttle", "aileron", "rudder"})
    h.controls.push_back({name, core::Unit::kRadian, 0.0, 0.1, "8 nose down"});
  for (const char* name : {"short period", "phugoid", "roll subsidence", "dutch roll", "spiral",
                           "heading"})
    h.modes.push_back({name, 1.0, 0.5, 6.0, std::nullopt, true, 1});
  h.message = "a status message";
  return h;
}

// At 800×600 and 1280×800, in every panel mode: the panels stay in the
// window and off each other, and none covers the scene's central area (where
// the chase view puts the aircraft). An 800×600 window opens compact, which
// leaves the scene a band of 40 % of the width (full panels: 31 %); hidden
// panels leave it all.
TEST(HudLayout, PanelsKeepOffTheSceneCentreAndTheEdgesAt800x600And1280x800) {
  const HudState h = LayoutExample();
  EXPECT_EQ(DefaultPanelMode(800, 600), PanelMode::kCompact);
  EXPECT_EQ(DefaultPanelMode(1280, 800), PanelMode::kFull);
  EXPECT_EQ(DefaultPanelMode(1280, 600), PanelMode::kCompact);
  EXPECT_EQ(NextPanelMode(PanelMode::kFull), PanelMode::kCompact);
  EXPECT_EQ(NextPanelMode(PanelMode::kCompact), PanelMode::kHidden);
  EXPECT_EQ(NextPanelMode(PanelMode::kHidden), PanelMode::kFull);
  for (const auto& [w, hgt] : {std::pair{800.0f, 600.0f}, std::pair{1280.0f, 800.0f}}) {
    std::map<PanelMode, float> band;
    for (const PanelMode mode : {PanelMode::kFull, PanelMode::kCompact, PanelMode::kHidden}) {
      // The status strip wraps to 4 lines at 800 px, 2 at 1280 px.
      const HudLayout l = LayoutHud(h, w, hgt, mode, w < 1000 ? 4 : 2);
      SCOPED_TRACE(fmt::format("{}x{} {}", w, hgt, ToString(mode)));
      const std::vector<std::pair<std::string, HudRect>> rects = {
          {"state", l.state_panel}, {"modes", l.mode_table}, {"column", l.right_column},
          {"strip", l.strip}};
      const HudRect centre = l.SceneCentre(hgt);
      ASSERT_FALSE(centre.empty());
      for (std::size_t i = 0; i < rects.size(); ++i) {
        const auto& [name, r] = rects[i];
        EXPECT_EQ(r.empty(), mode == PanelMode::kHidden && name != "strip") << name;
        if (r.empty()) continue;
        EXPECT_TRUE(r.left >= 0 && r.top >= 0 && r.right() <= w && r.bottom() <= hgt) << name;
        EXPECT_FALSE(r.Intersects(centre)) << name;
        for (std::size_t j = i + 1; j < rects.size(); ++j)
          EXPECT_FALSE(r.Intersects(rects[j].second)) << name << " and " << rects[j].first;
      }
      // The band lies between the side panels.
      if (mode != PanelMode::kHidden) {
        EXPECT_GE(l.scene_left, l.state_panel.right());
        EXPECT_LE(l.scene_right, l.right_column.left);
      }
      band[mode] = (l.scene_right - l.scene_left) / w;
    }
    EXPECT_EQ(band[PanelMode::kHidden], 1.0f);
    EXPECT_GT(band[PanelMode::kCompact], band[PanelMode::kFull]);
    if (w == 800) {
      EXPECT_GE(band[PanelMode::kCompact], 0.4f);
    }
  }
}

// A message wraps at spaces into lines no wider than the width; a word too
// long for a line (a log path) is cut at character boundaries.
TEST(HudLayout, WrapTextKeepsEveryLineWithinTheWidth) {
  auto measure = [](const std::string& s) {  // 8 px per code point
    float n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 8.0f : 0.0f;
    return n;
  };
  const std::string message =
      "turbulence light at 305 m above ground (default); new log "
      "/home/pilot/.local/share/aerolin/flights/flight-20261126-010203-2.csv";
  const std::vector<std::string> lines = WrapText(message, 300, measure);
  ASSERT_GE(lines.size(), 3u);
  std::string joined;
  for (const std::string& line : lines) {
    EXPECT_LE(measure(line), 300.0f) << line;
    EXPECT_FALSE(line.empty());
    joined += line;
  }
  std::string no_spaces = message;
  std::erase(no_spaces, ' ');
  std::erase(joined, ' ');
  EXPECT_EQ(joined, no_spaces);  // nothing lost but the spaces at the breaks
  EXPECT_EQ(lines[0], "turbulence light at 305 m above");  // 31 code points: 248 px
  EXPECT_EQ(WrapText("\xce\xb8\xce\xb8\xce\xb8", 16, measure),
            (std::vector<std::string>{"\xce\xb8\xce\xb8", "\xce\xb8"}));
  EXPECT_TRUE(WrapText("", 300, measure).empty());
  EXPECT_EQ(WrapText("short", 300, measure), std::vector<std::string>{"short"});
}

// Each bar spans the control's travel when the file limits it, else 0.1 rad
// or 10 units, and widens to the largest deflection seen (never narrows).
TEST(HudModel, ControlBarsSpanTheTravelAndTheLargestDeflection) {
  data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  ASSERT_EQ(loaded.aircraft.controls[1].name, "throttle");
  loaded.aircraft.controls[1].min = -30.0;  // the P2V-7 file limits no control
  loaded.aircraft.controls[1].max = 20.0;
  FlightSession session(loaded.aircraft, SessionOptions{});
  HudModel hud_model(session, "P2V-7");
  const HudState& hud = hud_model.hud();
  const std::vector<model::Control>& controls = session.model().controls();
  ASSERT_EQ(hud.controls.size(), controls.size());
  std::vector<double> initial;
  for (std::size_t c = 0; c < controls.size(); ++c) {
    const ControlGauge& g = hud.controls[c];
    EXPECT_EQ(g.name, controls[c].name);
    EXPECT_EQ(g.unit, controls[c].unit);
    const double base = controls[c].min || controls[c].max
                            ? std::max(std::abs(controls[c].min.value_or(0.0)),
                                       std::abs(controls[c].max.value_or(0.0)))
                            : controls[c].unit == core::Unit::kRadian ? 0.1 : 10.0;
    EXPECT_EQ(g.range, base) << g.name;
    initial.push_back(g.range);
  }
  EXPECT_EQ(hud.controls[0].keys.empty(), !session.pilot().first_key(0));
  EXPECT_NE(hud.controls[0].keys.find("\xc2\xb7"), std::string::npos) << hud.controls[0].keys;

  pilot::KeySet nose_up;
  nose_up.Set(pilot::Key::k5);
  std::vector<double> widest(controls.size(), 0.0);
  for (int k = 0; k < 60; ++k) {
    session.Step(k < 30 ? nose_up : pilot::KeySet{});
    hud_model.Update(session.state());
    for (std::size_t c = 0; c < controls.size(); ++c) {
      const ControlGauge& g = hud.controls[c];
      EXPECT_EQ(g.value, session.pilot().controls()[static_cast<int>(c)]);
      widest[c] = std::max(widest[c], std::abs(g.value));
      ASSERT_EQ(g.range, std::max(initial[c], widest[c])) << g.name << " slice " << k;
    }
  }
  EXPECT_EQ(initial[1], 30.0);  // the throttle's travel
  ASSERT_EQ(hud.controls[0].name, "elevator");
  EXPECT_GT(widest[0], 0.1);  // held for 3 s: the elevator bar widened
  EXPECT_EQ(hud.controls[0].range, widest[0]);
}

TEST(HudModel, TimeStateAttitudeAndExcitation) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  FlightSession session(loaded.aircraft, SessionOptions{});
  pilot::PilotScript script;
  script.path = "/some/dir/doublet.txt";
  HudModel hud_model(session, "P2V-7 patrol", &script);
  EXPECT_EQ(hud_model.hud().aircraft, "P2V-7 patrol");
  EXPECT_EQ(hud_model.hud().pilot, "script: doublet.txt");
  EXPECT_EQ(HudModel(session, "x").hud().pilot, "");

  EXPECT_EQ(hud_model.Update(session.state(), 0.05).time, 0.0);  // before the first slice
  for (int k = 0; k < 10; ++k) session.Step(pilot::KeySet{});
  sim::FlightState shown = session.state();
  shown[sim::kTheta] = 0.01;
  const HudState& hud = hud_model.Update(shown, 0.05);
  EXPECT_EQ(hud.time, session.time() - 0.05);
  EXPECT_EQ(hud.slices, 10u);
  EXPECT_EQ(hud.slice_dt, session.dt());
  EXPECT_EQ(hud.state, shown);
  EXPECT_EQ(hud.U0, session.model().U0());
  EXPECT_EQ(hud.trim_pitch, session.model().theta0());
  EXPECT_EQ(hud.pitch_attitude, session.model().theta0() + 0.01);
  EXPECT_EQ(hud.excitation, "");

  ASSERT_TRUE(session.Excite(Excitation::kPhugoid));
  session.SetAmplitudeFactor(2.0);
  const HudState& excited = hud_model.Update(session.state());
  EXPECT_EQ(excited.amplitude_factor, 2.0);
  EXPECT_EQ(excited.excitation.rfind("phugoid, A = ", 0), 0u) << excited.excitation;
  EXPECT_EQ(excited.excitation.substr(13), fmt::format("{:.3g}", *session.excite_amplitude()));
  session.ResetToTrim();
  EXPECT_EQ(hud_model.Update(session.state()).excitation, "");
}

// The status strip names every exaggeration the glyph is drawn with.
TEST(HudModel, AttitudeExaggerationTextNamesTheHeadingsWhenItDiffers) {
  HudState h;
  h.attitude_exaggeration = 20.0;
  h.heading_exaggeration = 20.0;
  h.attitude_exaggeration_auto = false;
  EXPECT_EQ(AttitudeExaggerationText(h), "attitude \xc3\x97" "20 (A)");
  h.heading_exaggeration = 100.0;
  h.attitude_exaggeration_auto = true;
  EXPECT_EQ(AttitudeExaggerationText(h), "attitude \xc3\x97" "20, heading \xc3\x97" "100 auto (A)");
}

// The nonlinear aircraft beside (N): the difference line's numbers are
// linear − nonlinear, computed here from the two states with the kinematics
// written out (airspeed (U0 + u)·√(1 + tan²(α0 + α) + tan²β / cos²(α0 + α)),
// h = −down); the parting line is the one of `aerolin simulate --model both`
// for the P2V-7's 0.5 rad Dutch roll (`--excite dutch-roll --amplitude 0.5
// --duration 10`: u after 0.1 s, theta after 0.1 s, alpha after 0.2 s, q
// after 0.3 s, and five more states by 3.6 s).
TEST(HudModel, NonlinearDifferenceLineAndWhenTheStatesParted) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.start_on = Excitation::kDutchRoll;
  options.amplitude = 0.5;
  FlightSession session(loaded.aircraft, options);
  HudModel hud_model(session, "P2V-7");
  EXPECT_FALSE(hud_model.Update(session.state()).nonlinear_difference);
  EXPECT_EQ(hud_model.hud().nonlinear, "");
  ASSERT_TRUE(session.SetNonlinear(true));
  for (int k = 0; k < 100; ++k) session.Step(pilot::KeySet{});
  const HudState& h = hud_model.Update(session.state());
  ASSERT_TRUE(h.nonlinear_difference);
  const sim::FlightState& lin = session.state();
  const sim::FlightState& nl = session.nonlinear_state();
  const double U0 = loaded.aircraft.condition.U0;
  const double alpha0 = std::atan2(loaded.aircraft.condition.W0, U0);
  auto airspeed = [&](const sim::FlightState& x) {
    const double a = alpha0 + x[sim::kAlpha];
    const double tb = std::tan(x[sim::kBeta]) / std::cos(a);
    return (U0 + x[sim::kU]) * std::sqrt(1.0 + std::tan(a) * std::tan(a) + tb * tb);
  };
  const HudState::NonlinearDifference& d = *h.nonlinear_difference;
  constexpr double kRounding = 1e-12;  // the same sums in another order
  EXPECT_NEAR(d.theta, lin[sim::kTheta] - nl[sim::kTheta], kRounding);
  EXPECT_NEAR(d.phi, lin[sim::kPhi] - nl[sim::kPhi], kRounding);
  EXPECT_NEAR(d.speed, airspeed(lin) - airspeed(nl), 1e-9);
  EXPECT_NEAR(d.altitude, -lin[sim::kDown] + nl[sim::kDown], kRounding);
  EXPECT_GT(std::abs(d.speed), 0.05) << "0.5 rad of Dutch roll slows the nonlinear aircraft";
  EXPECT_EQ(h.nonlinear,
            fmt::format("nonlinear beside (N): \xce\x94\xce\xb8 {:.1f}\xc2\xb0, \xce\x94\xcf\x86 "
                        "{:.1f}\xc2\xb0, \xce\x94V {:.1f} m/s, \xce\x94h {:.0f} m",
                        core::kRadToDeg * d.theta, core::kRadToDeg * d.phi, d.speed, d.altitude));
  HudState::NonlinearDifference tiny;
  tiny.theta = -0.0001;  // rounds to 0.0°
  tiny.altitude = -0.3;  // rounds to 0 m
  EXPECT_EQ(NonlinearDifferenceText(tiny),
            "nonlinear beside (N): \xce\x94\xce\xb8 0.0\xc2\xb0, \xce\x94\xcf\x86 0.0\xc2\xb0, "
            "\xce\x94V 0.0 m/s, \xce\x94h 0 m");
  ASSERT_FALSE(h.nonlinear_notes.empty());
  EXPECT_EQ(h.nonlinear_notes[0],
            "u parted 10 % at 0.1 s, \xce\xb8 at 0.1 s, \xce\xb1 at 0.2 s, q at 0.3 s (+5 more)");

  // Interpolated frames show the difference of the two states drawn.
  sim::FlightState nl_shown = nl;
  nl_shown[sim::kPhi] += 0.01;
  EXPECT_NEAR(hud_model.Update(lin, 0.0, &nl_shown).nonlinear_difference->phi,
              lin[sim::kPhi] - nl[sim::kPhi] - 0.01, kRounding);

  // Refused: one line saying why, no numbers.
  session.SetTurbulence(sim::TurbulenceIntensity::kLight);
  const HudState& refused = hud_model.Update(session.state());
  EXPECT_FALSE(refused.nonlinear_difference);
  EXPECT_EQ(refused.nonlinear.rfind("nonlinear beside (N): not flown: the nonlinear model flies "
                                    "no turbulence", 0),
            0u)
      << refused.nonlinear;
  EXPECT_TRUE(refused.nonlinear_notes.empty());
  session.SetNonlinear(false);
  EXPECT_EQ(hud_model.Update(session.state()).nonlinear, "");
}

// A departure: the F-16's 0.8 rad Dutch roll takes the nonlinear aircraft
// past 90° of α (`aerolin simulate ... --model nonlinear` shows α = -95°
// by 6.6 s). The nonlinear aircraft stops, the HUD says what departed,
// when and why and which keys bring it back; the linear flight flies on to
// the end without a stall or a throw; R (ResetToTrim) flies both again.
TEST(HudModel, NonlinearDepartureSaysWhenAndWhyAndOffersTheResetKey) {
  const data::LoadResult loaded =
      data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/f16_tables_sl.toml");
  SessionOptions options;
  options.start_on = Excitation::kDutchRoll;
  options.amplitude = 0.8;
  options.nonlinear = true;
  FlightSession session(loaded.aircraft, options);
  HudModel hud_model(session, "F-16");
  ASSERT_TRUE(session.nonlinear_on());
  int departed_at = -1;
  for (int k = 0; k < 200; ++k) {  // 20 s
    session.Step(pilot::KeySet{});
    if (departed_at < 0 && !session.nonlinear_on()) departed_at = k;
  }
  ASSERT_GE(departed_at, 0) << "the nonlinear F-16 departs";
  EXPECT_NEAR(session.time(), 20.0, 1e-9) << "the linear flight flew on";
  ASSERT_TRUE(session.nonlinear_stopped());
  const std::string why = *session.nonlinear_stopped();
  EXPECT_EQ(why.rfind("state diverged at t = ", 0), 0u) << why;
  EXPECT_EQ(why.find("run stopped"), std::string::npos) << why << ": only the nonlinear flight stopped";
  const HudState& h = hud_model.Update(session.state());
  EXPECT_FALSE(h.nonlinear_difference);
  // What and when; why; the keys: short enough for an 800 x 600 window.
  const std::size_t colon = why.find(": ");
  EXPECT_EQ(h.nonlinear, "nonlinear beside (N): departed: " + why.substr(0, colon));
  ASSERT_EQ(h.nonlinear_notes.size(), 2u);
  EXPECT_EQ(h.nonlinear_notes[0], why.substr(colon + 2));
  EXPECT_NE(h.nonlinear_notes[0].find("reached 90 deg"), std::string::npos) << h.nonlinear_notes[0];
  EXPECT_NE(h.nonlinear_notes[1].find("R: reset to trim"), std::string::npos) << h.nonlinear_notes[1];
  for (const std::string& line : {h.nonlinear, h.nonlinear_notes[0], h.nonlinear_notes[1]})
    EXPECT_LE(line.size(), 72u) << line;
  session.ResetToTrim();
  EXPECT_TRUE(session.nonlinear_on());
  EXPECT_FALSE(session.nonlinear_stopped());
  EXPECT_TRUE(hud_model.Update(session.state()).nonlinear_difference);
}

}  // namespace
}  // namespace aerolin::viz
