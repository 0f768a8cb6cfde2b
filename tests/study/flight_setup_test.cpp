#include "aerolin/study/flight_setup.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/sim/excitation.hpp"
#include "aerolin/study/start_on_mode.hpp"

namespace aerolin::study {
namespace {

using analysis::ModeKind;

std::vector<std::string> BundledAircraft() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives"))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

model::AircraftData Load(const std::string& name) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name)
      .aircraft;
}

// The defaults every front end inherits: changing one changes the CLI,
// Python and the window together, and this test.
TEST(FlightSpec, DefaultsAreTheCommandLinesDefaults) {
  const FlightSpec spec;
  EXPECT_EQ(kDefaultTurbulenceSeed, 1u);
  EXPECT_EQ(TurbulenceSpec{}.seed, kDefaultTurbulenceSeed);
  EXPECT_FALSE(TurbulenceSpec{}.height);  // the file's altitude
  EXPECT_FALSE(TurbulenceSpec{}.span);    // the file's span
  EXPECT_EQ(spec.slice.dt, 0.1);
  EXPECT_EQ(spec.slice.integrator, sim::Integrator::kRk45);
  EXPECT_EQ(spec.slice.rtol, 1e-6);
  EXPECT_EQ(spec.slice.atol, 1e-9);
  EXPECT_EQ(spec.fallback, ModeFallback::kExact);
  EXPECT_FALSE(spec.windy());
}

TEST(Prepare, TurbulenceDefaultsToTheHeightRuleSpanAndSeedOne) {
  for (const std::string& path : BundledAircraft()) {
    SCOPED_TRACE(path);
    const model::AircraftData aircraft = data::LoadAircraftFile(path).aircraft;
    FlightSpec spec;
    spec.duration = 1.0;
    spec.turbulence.emplace().intensity = sim::TurbulenceIntensity::kModerate;
    const PreparedFlight flight = Prepare(aircraft, analysis::AnalyzeModes(aircraft), spec);
    // The file's altitude when above 0, else 1000 ft above ground.
    const bool from_file = aircraft.condition.altitude && *aircraft.condition.altitude > 0.0;
    const double height = from_file ? *aircraft.condition.altitude : 1000.0 * 0.3048;
    ASSERT_TRUE(flight.turbulence_flown());
    EXPECT_EQ(*flight.turbulence_flown()->height, height);
    EXPECT_EQ(flight.turbulence_height_source(),
              from_file ? HeightSource::kFile : HeightSource::kDefault);
    EXPECT_EQ(flight.turbulence_flown()->span, aircraft.geometry.b);
    EXPECT_EQ(flight.turbulence_flown()->seed, 1u);
    ASSERT_NE(flight.turbulence(), nullptr);
    EXPECT_EQ(flight.turbulence()->parameters().sigma_w,
              sim::DrydenParametersAt(sim::TurbulenceIntensity::kModerate, height).sigma_w);
    EXPECT_EQ(flight.model().num_disturbances(), 4);
  }
}

// The height rule: given (0 too: the caller's choice), else the file's
// altitude when above 0, else the default; a file's altitude 0 is a sea-level
// atmosphere, not a flight at the ground.
TEST(TurbulenceHeight, GivenElseTheFilesAltitudeAboveZeroElseTheDefault) {
  model::AircraftData aircraft = Load("p2v7.toml");
  aircraft.condition.altitude.reset();
  TurbulenceHeightChoice h = TurbulenceHeight(aircraft, std::nullopt);
  EXPECT_EQ(h.height, kDefaultTurbulenceHeight);
  EXPECT_EQ(h.source, HeightSource::kDefault);
  EXPECT_EQ(kDefaultTurbulenceHeight, 1000.0 * 0.3048);
  aircraft.condition.altitude = 0.0;
  h = TurbulenceHeight(aircraft, std::nullopt);
  EXPECT_EQ(h.height, kDefaultTurbulenceHeight);
  EXPECT_EQ(h.source, HeightSource::kDefault);
  aircraft.condition.altitude = 50.0;
  h = TurbulenceHeight(aircraft, std::nullopt);
  EXPECT_EQ(h.height, 50.0);
  EXPECT_EQ(h.source, HeightSource::kFile);
  h = TurbulenceHeight(aircraft, 0.0);
  EXPECT_EQ(h.height, 0.0);
  EXPECT_EQ(h.source, HeightSource::kGiven);
  EXPECT_EQ(ToString(HeightSource::kDefault), "default");
  EXPECT_EQ(ToString(HeightSource::kFile), "[condition] altitude");
  EXPECT_EQ(ToString(HeightSource::kGiven), "given");
}

// The oracle is the chain written out by hand (what the command line did
// before the spec existed): the same model with E, the same Dryden generator
// over hands-off controls, the same discrete gusts, the same start.
TEST(Prepare, FliesBitForBitTheChainWrittenOutByHand) {
  for (const std::string& path : BundledAircraft()) {
    SCOPED_TRACE(path);
    const model::AircraftData aircraft = data::LoadAircraftFile(path).aircraft;
    const double h = aircraft.condition.altitude.value_or(300.0);
    FlightSpec spec;
    spec.duration = 12.0;
    spec.slice.integrator = sim::Integrator::kExact;
    spec.excite = ModeKind::kDutchRoll;
    spec.turbulence.emplace().height = h;  // light by default
    spec.gusts = {{sim::GustAxis::kW, 2.0, 50.0, 1.0}, {sim::GustAxis::kV, -1.0, 30.0, 3.0}};
    const analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
    PreparedFlight flight = Prepare(aircraft, modes, spec);
    const sim::SimulationResult got =
        sim::Simulate(flight.model(), flight.x0(), flight.input(), flight.options());

    const sim::FlightModel model(aircraft, model::BuildGustInput(aircraft));
    sim::HandsOff hands_off;
    sim::GustInput input(hands_off,
                         sim::DrydenTurbulence(sim::DrydenParametersAt(
                                                   sim::TurbulenceIntensity::kLight, h),
                                               aircraft.condition.U0, 0.1, aircraft.geometry.b,
                                               1),
                         sim::DiscreteGusts(spec.gusts, aircraft.condition.U0));
    const std::optional<ModeStart> start = StartOnMode(aircraft, ModeKind::kDutchRoll);
    ASSERT_TRUE(start);
    sim::SimulationOptions options;
    options.duration = 12.0;
    options.slice.integrator = sim::Integrator::kExact;
    const sim::SimulationResult want = sim::Simulate(model, start->state, input, options);

    ASSERT_EQ(got.log.size(), want.log.size());
    for (std::size_t k = 0; k < want.log.size(); ++k)
      ASSERT_EQ(got.log.state[k], want.log.state[k]) << "row " << k;
    EXPECT_EQ(flight.start().mode, ModeKind::kDutchRoll);
    EXPECT_EQ(flight.start().amplitude, 0.02);
  }
}

TEST(Prepare, TheWindOfTheLastSliceIsTheTurbulencePlusTheGustsMean) {
  const model::AircraftData aircraft = Load("p2v7.toml");
  FlightSpec spec;
  spec.duration = 1.0;
  spec.gusts = {{sim::GustAxis::kW, 3.0, 20.0, 0.0}};  // no turbulence
  PreparedFlight flight = Prepare(aircraft, analysis::AnalyzeModes(aircraft), spec);
  EXPECT_TRUE(flight.WindOfLastSlice().isZero());
  Eigen::VectorXd controls = Eigen::VectorXd::Zero(flight.model().num_controls());
  Eigen::VectorXd d = Eigen::VectorXd::Zero(4);
  flight.input().Reset();
  flight.input().InputForSlice(0, 0.1, controls, d);
  // w_g over [0, 0.1]: the mean of 3/2 (1 − cos(π U0 t / 20)), by the
  // midpoint rule on 10^5 panels (an oracle independent of AddMean).
  const double U0 = aircraft.condition.U0;
  double mean = 0.0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double t = 0.1 * (i + 0.5) / n;
    const double x = U0 * t;
    mean += (x < 20.0 ? 1.5 * (1.0 - std::cos(M_PI * x / 20.0)) : 3.0) / n;
  }
  EXPECT_NEAR(flight.WindOfLastSlice()[model::gust::kWg], mean, 1e-9);
  EXPECT_EQ(flight.WindOfLastSlice()[model::gust::kUg], 0.0);
  flight.input().Reset();
  EXPECT_TRUE(flight.WindOfLastSlice().isZero());
}

TEST(Prepare, TurbulenceWithNoHeightAnywhereFliesAtTheDefaultHeight) {
  model::AircraftData aircraft = Load("p2v7.toml");
  aircraft.condition.altitude.reset();
  FlightSpec spec;
  spec.turbulence = TurbulenceSpec{};
  PreparedFlight flight = Prepare(aircraft, analysis::AnalyzeModes(aircraft), spec);
  EXPECT_EQ(*flight.turbulence_flown()->height, kDefaultTurbulenceHeight);
  spec.turbulence->height = 100.0;
  flight = Prepare(aircraft, analysis::AnalyzeModes(aircraft), spec);
  EXPECT_EQ(*flight.turbulence_flown()->height, 100.0);
  EXPECT_EQ(flight.turbulence_height_source(), HeightSource::kGiven);
}

// A lateral mode list with the roll-spiral oscillation and no roll or spiral:
// the command line's policy refuses, the window's falls back.
TEST(StartOn, TheFallbackPolicyDecidesRollAndSpiral) {
  const model::AircraftData aircraft = Load("p2v7.toml");
  analysis::ModalAnalysis modes = analysis::AnalyzeModes(aircraft);
  std::vector<analysis::Mode> lateral;
  for (analysis::Mode m : modes.lateral) {
    if (m.kind == ModeKind::kRollSubsidence) continue;
    if (m.kind == ModeKind::kSpiral) m.kind = ModeKind::kRollSpiral;
    lateral.push_back(m);
  }
  modes.lateral = lateral;
  for (ModeKind asked : {ModeKind::kRollSubsidence, ModeKind::kSpiral}) {
    try {
      StartOn(aircraft, modes, asked, std::nullopt, ModeFallback::kExact);
      ADD_FAILURE() << "no error for " << analysis::ToString(asked);
    } catch (const MissingModeError& e) {
      EXPECT_NE(std::string(e.what()).find("has no " + analysis::ToString(asked) + " mode"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("its lateral modes: "), std::string::npos);
    }
    const FlightStart start =
        StartOn(aircraft, modes, asked, std::nullopt, ModeFallback::kRollSpiral);
    EXPECT_EQ(start.mode, ModeKind::kRollSpiral);
  }
  EXPECT_EQ(StartOn(aircraft, modes, ModeKind::kDutchRoll, 0.05, ModeFallback::kExact).amplitude,
            0.05);
}

TEST(Validate, NamesTheFieldOfEachDefect) {
  auto field_of = [](const FlightSpec& spec) -> std::string {
    try {
      Validate(spec);
    } catch (const FlightSpecError& e) {
      return e.field();
    }
    return "";
  };
  FlightSpec ok;
  ok.duration = 1.0;
  EXPECT_EQ(field_of(ok), "");
  FlightSpec s = ok;
  s.slice.dt = 0.0;
  EXPECT_EQ(field_of(s), "dt");
  s = ok;
  s.slice.rtol = NAN;
  EXPECT_EQ(field_of(s), "rtol");
  s = ok;
  s.duration = 0.15;
  EXPECT_EQ(field_of(s), "duration");
  s = ok;
  s.excite = ModeKind::kPhugoid;
  s.amplitude = -1.0;
  EXPECT_EQ(field_of(s), "amplitude");
  s = ok;
  s.amplitude = 1.0;  // without excite
  EXPECT_EQ(field_of(s), "amplitude");
  s = ok;
  s.excite = ModeKind::kPhugoid;
  s.x0 = sim::FlightState::Zero();
  EXPECT_EQ(field_of(s), "x0");
  s = ok;
  s.x0 = sim::FlightState::Zero();
  (*s.x0)[0] = NAN;
  EXPECT_EQ(field_of(s), "x0");
  s = ok;
  s.excite = ModeKind::kHeading;
  EXPECT_EQ(field_of(s), "excite");
  s = ok;
  s.gusts = {{sim::GustAxis::kW, 1.0, 0.0, 0.0}};
  EXPECT_EQ(field_of(s), "gusts");
  s = ok;
  s.gusts = {{sim::GustAxis::kW, 1.0, 10.0, -1.0}};
  EXPECT_EQ(field_of(s), "gusts");
  s = ok;
  s.turbulence.emplace().height = -1.0;
  EXPECT_EQ(field_of(s), "turbulence.height");
  s = ok;
  s.turbulence.emplace().span = 0.0;
  EXPECT_EQ(field_of(s), "turbulence.span");
}

TEST(ParseGustText, ReadsAxisPeakLengthAndStart) {
  const GustText g = ParseGustText("v:-3.5:120:2");
  EXPECT_EQ(g.axis, sim::GustAxis::kV);
  EXPECT_EQ(g.vm, -3.5);
  EXPECT_EQ(g.dm, 120.0);
  EXPECT_EQ(g.t0, 2.0);
  EXPECT_EQ(ParseGustText("w:10:100").t0, 0.0);
}

TEST(ParseGustText, RefusesWithTheCommandLinesMessages) {
  auto message = [](const char* text) -> std::string {
    try {
      ParseGustText(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message("w:10"), "expected AXIS:VM:DM[:T0] (e.g. w:10:100:2), got 'w:10'");
  EXPECT_EQ(message("x:1:2"), "gust axis must be u, v or w, got 'x' in 'x:1:2'");
  EXPECT_EQ(message("w:1:0"), "DM (gust length) must be a finite number > 0, got '0' in 'w:1:0'");
  EXPECT_EQ(message("w:nan:1"),
            "VM (gust amplitude) must be a finite number, got 'nan' in 'w:nan:1'");
  EXPECT_EQ(message("w:1:1:-2"),
            "T0 (gust start) must be a finite number >= 0, got '-2' in 'w:1:1:-2'");
}

}  // namespace
}  // namespace aerolin::study
