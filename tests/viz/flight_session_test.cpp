#include "aerolin/viz/flight_session.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/export/flight_csv.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/sim/gust_input.hpp"
#include "aerolin/viz/scene.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/closed_loop.hpp"

namespace aerolin::viz {
namespace {

namespace fs = std::filesystem;

const std::string kP2V7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";

std::string TempDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("aerolin_viz_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir.string();
}

// Reads a CSV written by FlightLogWriter: header, then numeric rows.
std::vector<std::vector<double>> ReadCsv(const std::string& path, std::string* header) {
  std::ifstream in(path);
  std::getline(in, *header);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// A deterministic "person": holds each key for a few slices at a time,
// sometimes two channels at once (fixed LCG, no random_device).
pilot::KeySet KeysForSlice(long k) {
  pilot::KeySet keys;
  const unsigned phase = static_cast<unsigned>((k / 7) * 2654435761u) >> 28;
  if (phase & 1) keys.Set(pilot::Key::k8);
  if (phase & 2) keys.Set(pilot::Key::k4);
  if ((phase & 12) == 4) keys.Set(pilot::Key::k9);
  if ((phase & 12) == 8) keys.Set(pilot::Key::kMinus);
  if ((phase & 12) == 12) keys.Set(pilot::Key::k6);
  return keys;
}

TEST(FlightSession, LiveFlightReplaysBitForBitFromItsRecordedScript) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.log_dir = TempDir("replay");
  options.log_stem = "live";
  constexpr long kSlices = 600;  // 60 s at 0.1 s
  std::string csv, script;
  {
    FlightSession session(loaded.aircraft, options);
    for (long k = 0; k < kSlices; ++k) session.Step(KeysForSlice(k));
    csv = session.csv_path();
    script = session.script_path();
  }  // destructor flushes

  const pilot::PilotScript parsed = pilot::LoadPilotScript(script, loaded.aircraft.controls);
  pilot::ScriptedPilot replay_pilot(parsed, loaded.aircraft.controls, 0.1);
  EXPECT_FALSE(parsed.keys.empty());
  sim::SimulationOptions sim_options;
  sim_options.duration = kSlices * 0.1;
  const sim::SimulationResult replay =
      sim::Simulate(sim::FlightModel(loaded.aircraft), sim::FlightState::Zero(), replay_pilot,
                    sim_options);
  ASSERT_EQ(replay.log.size(), static_cast<std::size_t>(kSlices + 1));

  std::string header;
  const auto rows = ReadCsv(csv, &header);
  ASSERT_EQ(rows.size(), replay.log.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    ASSERT_EQ(rows[k].size(), 1u + sim::kNumFlightStates + 4u);
    // The log writes the slice grid's decimals (k·0.1 read as "0.3").
    EXPECT_EQ(rows[k][0], exporting::SliceGridTime(replay.log.time[k], 0.1)) << "row " << k;
    for (int i = 0; i < sim::kNumFlightStates; ++i)
      ASSERT_EQ(rows[k][1 + i], replay.log.state[k][i]) << "row " << k << " state " << i;
    for (int c = 0; c < 4; ++c)
      ASSERT_EQ(rows[k][1 + sim::kNumFlightStates + c], replay.log.controls[k][c]) << "row " << k;
  }
  fs::remove_all(options.log_dir);
}

TEST(FlightSession, ScriptedFlightEqualsSimulate) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  const std::string script_path =
      std::string(AEROLIN_SOURCE_DIR) + "/tests/viz/fixtures/elevator_doublet.txt";
  const pilot::PilotScript script = pilot::LoadPilotScript(script_path, loaded.aircraft.controls);
  SessionOptions options;  // no log directory: nothing written
  options.script = &script;
  FlightSession session(loaded.aircraft, options);
  for (long k = 0; k < 300; ++k) session.Step();
  pilot::ScriptedPilot pilot(script, loaded.aircraft.controls, 0.1);
  sim::SimulationOptions sim_options;
  sim_options.duration = 30.0;
  const sim::SimulationResult expected =
      sim::Simulate(sim::FlightModel(loaded.aircraft), sim::FlightState::Zero(), pilot, sim_options);
  EXPECT_EQ(session.state(), expected.log.state.back());
  EXPECT_EQ(session.time(), expected.log.time.back());
  EXPECT_TRUE(session.csv_path().empty());
}

TEST(FlightSession, ScriptedLogIsByteForByteTheCsvOfSimulate) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  const std::string script_path =
      std::string(AEROLIN_SOURCE_DIR) + "/tests/viz/fixtures/elevator_doublet.txt";
  const pilot::PilotScript script = pilot::LoadPilotScript(script_path, loaded.aircraft.controls);
  SessionOptions options;
  options.log_dir = TempDir("bytes");
  options.log_stem = "b";
  options.script = &script;
  std::string csv;
  {
    FlightSession session(loaded.aircraft, options);
    for (long k = 0; k < 200; ++k) session.Step();
    csv = session.csv_path();
  }
  sim::SimulationOptions sim_options;
  sim_options.duration = 20.0;
  pilot::ScriptedPilot pilot(script, loaded.aircraft.controls, 0.1);
  const sim::SimulationResult expected =
      sim::Simulate(sim::FlightModel(loaded.aircraft), sim::FlightState::Zero(), pilot, sim_options);
  std::ostringstream want;
  exporting::WriteFlightCsv(expected.log, want, 0.1);  // as `aerolin simulate --csv`
  std::ifstream in(csv, std::ios::binary);
  std::stringstream got;
  got << in.rdbuf();
  EXPECT_EQ(got.str(), want.str());
  fs::remove_all(options.log_dir);
}

TEST(FlightSession, LogIsOnDiskBeforeTheFlightEnds) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.log_dir = TempDir("flush");
  options.log_stem = "f";
  options.flush_interval = 0.0;  // flush at every opportunity
  FlightSession session(loaded.aircraft, options);
  for (long k = 0; k < 50; ++k) {
    session.Step(pilot::KeySet{pilot::Key::k8});
    session.MaybeFlush();
  }
  std::string header;
  EXPECT_EQ(ReadCsv(session.csv_path(), &header).size(), 51u);
  EXPECT_EQ(header.rfind("t,u,alpha,q,theta", 0), 0u) << header;
  std::ifstream s(session.script_path());
  std::stringstream text;
  text << s.rdbuf();
  EXPECT_NE(text.str().find("0 5 8"), std::string::npos) << text.str();
  fs::remove_all(options.log_dir);
}

TEST(FlightSession, ResetAndExciteStartNewSegments) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.log_dir = TempDir("segments");
  options.log_stem = "s";
  FlightSession session(loaded.aircraft, options);
  const std::string first = session.csv_path();
  for (long k = 0; k < 10; ++k) session.Step({});
  ASSERT_TRUE(session.Excite(Excitation::kDutchRoll));
  EXPECT_NE(session.csv_path(), first);
  EXPECT_EQ(session.slice_index(), 0);
  EXPECT_NE(session.state()[sim::kBeta], 0.0);
  EXPECT_NE(session.ReplayCommand().find("--excite dutch-roll"), std::string::npos);
  EXPECT_EQ(session.path().num_samples(), 1u);
  session.ResetToTrim();
  EXPECT_TRUE(session.state().isZero());
  EXPECT_FALSE(session.excitation().has_value());
  for (Excitation e : {Excitation::kShortPeriod, Excitation::kPhugoid, Excitation::kRoll,
                       Excitation::kSpiral})
    EXPECT_TRUE(session.Excite(e)) << ToString(e);
  fs::remove_all(options.log_dir);
}


// A turbulent live flight: its log has the wind columns, its states are
// those of sim::Simulate flying the recorded script through the same Dryden
// generator (same seed), its wind columns are that generator's samples, and
// a restart (R or T) replays the gusts from the seed.
TEST(FlightSession, TurbulentLiveFlightReplaysWithTheSameSeedAndRestartsItsGusts) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.log_dir = TempDir("turbulence");
  options.log_stem = "t";
  options.turbulence = sim::TurbulenceIntensity::kModerate;
  options.turbulence_altitude = 300.0;
  options.seed = 7;
  constexpr long kSlices = 300;
  std::string csv1, script1, csv2, replay_command;
  {
    FlightSession session(loaded.aircraft, options);
    for (long k = 0; k < kSlices; ++k) session.Step(KeysForSlice(k));
    csv1 = session.csv_path();
    script1 = session.script_path();
    replay_command = session.ReplayCommand();
    session.ResetToTrim();  // segment 2, hands off: the same gusts from the seed
    for (long k = 0; k < 50; ++k) session.Step(pilot::KeySet{});
    csv2 = session.csv_path();
  }
  EXPECT_NE(replay_command.find(" --turbulence moderate --seed 7"), std::string::npos)
      << replay_command;

  const sim::DrydenParameters parameters =
      sim::DrydenParametersAt(sim::TurbulenceIntensity::kModerate, 300.0);
  auto generator = [&] {
    return sim::DrydenTurbulence(parameters, loaded.aircraft.condition.U0, 0.1,
                                 loaded.aircraft.geometry.b, 7);
  };
  const pilot::PilotScript parsed = pilot::LoadPilotScript(script1, loaded.aircraft.controls);
  pilot::ScriptedPilot replay_pilot(parsed, loaded.aircraft.controls, 0.1);
  sim::GustInput replay_input(replay_pilot, generator());
  sim::SimulationOptions sim_options;
  sim_options.duration = kSlices * 0.1;
  const sim::SimulationResult replay = sim::Simulate(
      sim::FlightModel(loaded.aircraft, model::BuildGustInput(loaded.aircraft)),
      sim::FlightState::Zero(), replay_input, sim_options);

  std::string header;
  const auto rows = ReadCsv(csv1, &header);
  EXPECT_EQ(header.substr(header.size() - 16), ",u_g,v_g,w_g,p_g");
  ASSERT_EQ(rows.size(), replay.log.size());
  sim::DrydenTurbulence gusts = generator();
  double moved = 0.0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    ASSERT_EQ(rows[k].size(), 1u + sim::kNumFlightStates + 4u + 4u);
    for (int i = 0; i < sim::kNumFlightStates; ++i)
      ASSERT_EQ(rows[k][1 + i], replay.log.state[k][i]) << "row " << k << " state " << i;
    // Row k holds the gusts of the slice ending at t_k (zeros in row 0).
    const Eigen::Vector4d want = k == 0 ? Eigen::Vector4d::Zero() : gusts.Next();
    for (int j = 0; j < 4; ++j)
      ASSERT_EQ(rows[k][1 + sim::kNumFlightStates + 4 + j], want[j]) << "row " << k;
    moved += std::abs(rows[k][1 + sim::kNumFlightStates + 4 + 2]);
  }
  EXPECT_GT(moved / rows.size(), 0.1);  // w_g is not all zeros [m/s]

  // Segment 2 restarted the generator: its first gusts are segment 1's.
  const auto rows2 = ReadCsv(csv2, &header);
  ASSERT_EQ(rows2.size(), 51u);
  for (std::size_t k = 0; k < rows2.size(); ++k)
    for (int j = 0; j < 4; ++j)
      ASSERT_EQ(rows2[k][1 + sim::kNumFlightStates + 4 + j],
                rows[k][1 + sim::kNumFlightStates + 4 + j]) << "row " << k;
  fs::remove_all(options.log_dir);
}

// The wing-tip trail keeps the segment's last 10 s, one point per slice,
// ending at the newest state; a new segment starts it afresh. The attitude
// peak is the largest |φ|, |θ|, |ψ| of the segment.
TEST(FlightSession, TrailKeepsTheLastTenSecondsAndThePeakAttitude) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.start_on = Excitation::kDutchRoll;
  FlightSession session(loaded.aircraft, options);
  ASSERT_EQ(session.trail().size(), 1u);
  EXPECT_EQ(session.attitude_peak()[0], std::abs(session.state()[sim::kPhi]));
  double largest_phi = std::abs(session.state()[sim::kPhi]);
  for (int k = 0; k < 150; ++k) {
    session.Step(pilot::KeySet{});
    largest_phi = std::max(largest_phi, std::abs(session.state()[sim::kPhi]));
  }
  ASSERT_EQ(session.trail().size(), 101u);  // 10 s of 0.1 s slices, both ends
  EXPECT_EQ(session.trail().back().phi, session.state()[sim::kPhi]);
  EXPECT_EQ(session.trail().back().psi, session.state()[sim::kPsi]);
  EXPECT_EQ(session.trail().back().position.y(), session.state()[sim::kNorth]);
  EXPECT_EQ(session.attitude_peak()[0], largest_phi);
  EXPECT_GT(session.attitude_peak()[2], 0.0);
  session.ResetToTrim();
  EXPECT_EQ(session.trail().size(), 1u);
  EXPECT_EQ(session.attitude_peak(), Eigen::Vector3d::Zero());
}

TEST(FlightSession, AmplitudeFactorScalesTheExcitationAndReachesTheReplayCommand) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  FlightSession session(loaded.aircraft, SessionOptions{});
  ASSERT_TRUE(session.Excite(Excitation::kPhugoid));
  const sim::FlightState one = session.state();
  const double a1 = *session.excite_amplitude();
  EXPECT_EQ(session.ReplayCommand().find("--amplitude"), std::string::npos);
  session.SetAmplitudeFactor(4.0);
  ASSERT_TRUE(session.Excite(Excitation::kPhugoid));
  EXPECT_EQ(*session.excite_amplitude(), 4.0 * a1);
  for (int i = 0; i < sim::kNumFlightStates; ++i)
    EXPECT_NEAR(session.state()[i], 4.0 * one[i], 1e-15 * (1.0 + std::abs(one[i])));
  EXPECT_NE(session.ReplayCommand().find("--excite phugoid --amplitude " +
                                         fmt::format("{}", 4.0 * a1)),
            std::string::npos)
      << session.ReplayCommand();
  session.SetAmplitudeFactor(1000.0);
  EXPECT_EQ(session.amplitude_factor(), 16.0);  // clamped
}

// Regression (#27): a second flight with the same --log-name replaced the
// first one's log; `--log-name ../../x` wrote outside --log-dir.
TEST(FlightSession, ASecondFlightWithTheSameLogNameKeepsTheFirst) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.log_dir = TempDir("same_name");
  options.log_stem = "s";
  std::string first_csv, first_text;
  {
    FlightSession first(loaded.aircraft, options);
    for (long k = 0; k < 20; ++k) first.Step({});
    first_csv = first.csv_path();
  }
  EXPECT_EQ(fs::path(first_csv).filename(), "s-1.csv");
  {
    std::ifstream in(first_csv);
    first_text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  {
    FlightSession second(loaded.aircraft, options);
    EXPECT_EQ(fs::path(second.csv_path()).filename(), "s_2-1.csv");
    EXPECT_EQ(fs::path(second.script_path()).filename(), "s_2-1.script.txt");
    for (long k = 0; k < 5; ++k) second.Step({});
  }
  std::ifstream in(first_csv);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(after, first_text);
  fs::remove_all(options.log_dir);
}

TEST(FlightSession, ALogNameMayNotLeaveTheLogDirectory) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.log_dir = TempDir("escape");
  for (const std::string stem : {"../../x", "sub/x", ""}) {
    options.log_stem = stem;
    EXPECT_THROW(FlightSession(loaded.aircraft, options), std::invalid_argument) << stem;
  }
  EXPECT_FALSE(fs::exists(fs::path(options.log_dir).parent_path().parent_path() / "x-1.csv"));
  fs::remove_all(options.log_dir);
}

// The P2V-7 with an LQR yaw damper on the rudder (Bryson's rule), as
// `aerolin augment --axis lateral --lqr --inputs rudder --write` closes it.
model::AircraftData YawDamped(const model::AircraftData& bare) {
  study::AugmentSpec spec;
  spec.axis = model::Axis::kLateral;
  spec.inputs = {"rudder"};
  model::AircraftData out = bare;
  out.lateral_augmentation = model::AxisAugmentation{{"rudder"}, study::Augment(bare, spec).gain};
  return out;
}

// Largest |β| over slices [from, to) of a session flying hands off [rad].
double PeakBeta(FlightSession& session, long from, long to) {
  double peak = 0.0;
  for (long k = 0; k < to; ++k) {
    session.Step({});
    if (k >= from) peak = std::max(peak, std::abs(session.state()[sim::kBeta]));
  }
  return peak;
}

// G: the file's augmentation off and on again. Each switch re-analyses the
// modes of the aircraft now flying and starts the same experiment again (the
// Dutch roll, with that aircraft's mode shape) in a new log segment whose
// replay command says --bare while the loop is open. The bare flight is the
// flight of a session started bare, and the damper damps: the Dutch roll's
// |β| after 20 s is a fraction of the bare airframe's.
// A washed-out yaw damper in turbulence: the exact column beside the running
// RMS is `aerolin rms`'s statistics of the closed loop with the filter state
// (study::ExactRoughAirStatistics on study::AnalyzeClosedLoop's modes; that
// function is checked against a Lyapunov solve in tests/study), not the
// bare airframe's.
TEST(FlightSession, AWashedOutLoopsExactRoughAirIsTheClosedLoopsAsRmsGivesIt) {
  const model::AircraftData bare = data::LoadAircraftFile(kP2V7).aircraft;
  model::AircraftData washed = bare;
  washed.lateral_augmentation =
      model::AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", "r", 0.5, 1.5}}};
  SessionOptions options;
  options.log_dir = TempDir("washout_rms");
  options.log_stem = "w";
  options.turbulence = sim::TurbulenceIntensity::kModerate;
  options.turbulence_altitude = 300.0;
  FlightSession session(washed, options);
  const study::RoughAirStatistics* exact = session.exact_rough_air();
  ASSERT_NE(exact, nullptr);
  const study::RoughAirStatistics rms =
      study::ExactRoughAirStatistics(washed, study::AnalyzeClosedLoop(washed), {exact->turbulence, exact->dt});
  const study::RoughAirStatistics of_bare =
      study::ExactRoughAirStatistics(bare, study::AnalyzeClosedLoop(bare), {exact->turbulence, exact->dt});
  ASSERT_EQ(exact->lateral.outputs.size(), rms.lateral.outputs.size());
  for (std::size_t i = 0; i < rms.lateral.outputs.size(); ++i) {
    EXPECT_EQ(exact->lateral.outputs[i].signal.name, rms.lateral.outputs[i].signal.name);
    EXPECT_EQ(exact->lateral.outputs[i].rms, rms.lateral.outputs[i].rms) << rms.lateral.outputs[i].signal.name;
    if (rms.lateral.outputs[i].signal.name == "r") {  // the damper acts: not the bare airframe's
      EXPECT_LT(exact->lateral.outputs[i].rms, 0.9 * of_bare.lateral.outputs[i].rms);
    }
  }
}

// Key 3 on a washed-out yaw damper's file starts on the closed loop's Dutch
// roll, filter state included (study::StartOn, as `aerolin simulate
// --excite dutch-roll`): the session's flight is the replay command's,
// state and filter, slice for slice; pressing it again restarts there.
TEST(FlightSession, TheModeKeyOnAWashedOutAxisStartsOnTheClosedLoopsModeFilterIncluded) {
  model::AircraftData washed = data::LoadAircraftFile(kP2V7).aircraft;
  washed.lateral_augmentation =
      model::AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", "r", 0.5, 1.5}}};
  SessionOptions options;
  options.slice.integrator = sim::Integrator::kExact;
  FlightSession session(washed, options);
  ASSERT_TRUE(session.Excite(Excitation::kDutchRoll));
  EXPECT_NE(session.ReplayCommand().find("--excite dutch-roll"), std::string::npos);
  study::FlightSpec spec;
  spec.slice = options.slice;
  spec.excite = analysis::ModeKind::kDutchRoll;
  spec.duration = 3.0;
  const study::PreparedFlight replay = study::Prepare(washed, study::AnalyzeClosedLoop(washed), spec);
  const int slot = replay.model().first_filter_slot();
  ASSERT_NE(replay.auxiliary0()[slot], 0.0);
  EXPECT_EQ(session.state(), replay.x0());
  EXPECT_EQ(session.auxiliary_state(), replay.auxiliary0());
  sim::Flight flight(replay.model(), spec.slice, sim::ValidityThresholds{}, replay.x0(), replay.auxiliary0());
  sim::HandsOff hands_off;
  for (int k = 0; k < 30; ++k) {
    session.Step({});
    ASSERT_TRUE(flight.Step(hands_off).flown);
  }
  EXPECT_EQ(session.state(), flight.state());
  EXPECT_EQ(session.auxiliary_state(), flight.slicer().auxiliary_state());
  ASSERT_TRUE(session.Excite(Excitation::kDutchRoll));  // again: back to the start
  EXPECT_EQ(session.state(), replay.x0());
  EXPECT_EQ(session.auxiliary_state(), replay.auxiliary0());
}

TEST(FlightSession, AugmentationSwitchesBetweenTheClosedLoopAndTheBareAirframe) {
  const model::AircraftData bare = data::LoadAircraftFile(kP2V7).aircraft;
  const model::AircraftData damped = YawDamped(bare);
  SessionOptions options;
  options.log_dir = TempDir("augmentation");
  options.log_stem = "g";
  options.start_on = Excitation::kDutchRoll;
  FlightSession session(damped, options);
  ASSERT_TRUE(session.augmentable());
  ASSERT_TRUE(session.augmentation_on());
  EXPECT_EQ(session.ReplayCommand().find("--bare"), std::string::npos);
  auto damping_of_dutch_roll = [](const std::vector<analysis::Mode>& modes) {
    for (const analysis::Mode& m : modes)
      if (m.kind == analysis::ModeKind::kDutchRoll) return m.damping_ratio;
    ADD_FAILURE() << "no Dutch roll";
    return 0.0;
  };
  const double zeta_closed = damping_of_dutch_roll(session.modes());
  EXPECT_EQ(zeta_closed, damping_of_dutch_roll(analysis::AnalyzeModes(damped).lateral));
  const double closed_peak = PeakBeta(session, 200, 300);

  const std::string closed_log = session.csv_path();
  ASSERT_TRUE(session.SetAugmentation(false));
  EXPECT_FALSE(session.augmentation_on());
  EXPECT_EQ(session.modes_generation(), 1);
  EXPECT_NE(session.csv_path(), closed_log);
  EXPECT_EQ(session.slice_index(), 0);
  ASSERT_EQ(session.excitation(), Excitation::kDutchRoll);
  const double zeta_bare = damping_of_dutch_roll(session.modes());
  EXPECT_EQ(zeta_bare, damping_of_dutch_roll(analysis::AnalyzeModes(bare).lateral));
  EXPECT_GT(zeta_closed, zeta_bare + 0.05);
  EXPECT_NE(session.ReplayCommand().find(" --bare"), std::string::npos) << session.ReplayCommand();

  // The same as a session that started bare (aerolin-fly --bare), and as the
  // bare airframe itself: state for state.
  SessionOptions started_bare = options;
  started_bare.log_dir.clear();
  started_bare.bare = true;
  FlightSession reference(damped, started_bare);
  FlightSession airframe(bare, [&] { SessionOptions o = started_bare; o.bare = false; return o; }());
  EXPECT_FALSE(reference.augmentation_on());
  EXPECT_FALSE(airframe.augmentable());
  EXPECT_EQ(session.state(), reference.state());
  EXPECT_EQ(session.state(), airframe.state());
  const double bare_peak = PeakBeta(session, 200, 300);
  PeakBeta(reference, 0, 300);
  PeakBeta(airframe, 0, 300);
  EXPECT_EQ(session.state(), reference.state());
  EXPECT_EQ(session.state(), airframe.state());
  EXPECT_LT(closed_peak, 0.25 * bare_peak) << closed_peak << " vs " << bare_peak;

  ASSERT_TRUE(session.SetAugmentation(true));
  EXPECT_TRUE(session.augmentation_on());
  EXPECT_EQ(session.modes_generation(), 2);
  EXPECT_EQ(damping_of_dutch_roll(session.modes()), zeta_closed);
  EXPECT_EQ(session.ReplayCommand().find("--bare"), std::string::npos);
  EXPECT_EQ(PeakBeta(session, 200, 300), closed_peak);

  // Switching to what flies already changes nothing.
  const std::string log = session.csv_path();
  EXPECT_TRUE(session.SetAugmentation(true));
  EXPECT_EQ(session.csv_path(), log);
  EXPECT_EQ(session.modes_generation(), 2);
  fs::remove_all(options.log_dir);
}

TEST(FlightSession, AFileWithoutAugmentationHasNothingToSwitch) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  FlightSession session(loaded.aircraft, SessionOptions{});
  EXPECT_FALSE(session.augmentable());
  EXPECT_FALSE(session.augmentation_on());
  for (long k = 0; k < 5; ++k) session.Step({});
  EXPECT_FALSE(session.SetAugmentation(false));
  EXPECT_FALSE(session.SetAugmentation(true));
  EXPECT_EQ(session.slice_index(), 5);
  EXPECT_EQ(session.modes_generation(), 0);
  EXPECT_EQ(session.ReplayCommand().find("--bare"), std::string::npos);
}

// Every way to start a new segment (a key 1-5, R, T, G) leaves the previous
// segment's script with the replay command of the flight it holds: its
// duration, excitation, turbulence and augmentation, not the next one's.
TEST(FlightSession, ANewSegmentLeavesThePreviousOnesReplayCommandAsFlown) {
  const model::AircraftData damped = YawDamped(data::LoadAircraftFile(kP2V7).aircraft);
  SessionOptions options;
  options.log_dir = TempDir("ends");
  options.log_stem = "e";
  FlightSession session(damped, options);
  auto replay_of = [](const std::string& script) {
    std::ifstream in(script);
    std::string line, last;
    while (std::getline(in, line))
      if (line.rfind("# replay: ", 0) == 0) last = line;
    return last;
  };
  auto fly_then = [&](long slices, const std::function<void()>& next) {
    for (long k = 0; k < slices; ++k) session.Step({});
    const std::string script = session.script_path();
    const std::string expected = "# replay: " + session.ReplayCommand();
    next();
    EXPECT_EQ(replay_of(script), expected);
  };
  fly_then(20, [&] { ASSERT_TRUE(session.Excite(Excitation::kPhugoid)); });  // trim -> phugoid
  session.SetAmplitudeFactor(2.0);
  fly_then(30, [&] { ASSERT_TRUE(session.Excite(Excitation::kDutchRoll)); });
  EXPECT_NE(replay_of(session.script_path()), "");
  fly_then(25, [&] { session.ResetToTrim(); });  // the doubled amplitude stays in the replay
  fly_then(15, [&] { session.SetTurbulence(sim::TurbulenceIntensity::kLight); });
  fly_then(12, [&] { ASSERT_TRUE(session.SetAugmentation(false)); });
  fly_then(18, [&] { ASSERT_TRUE(session.SetAugmentation(true)); });
  EXPECT_NE(replay_of(session.script_path()).find("--turbulence light"), std::string::npos);
  fs::remove_all(options.log_dir);
}

// The nonlinear aircraft beside (N), switched on from the start, flies what
// `aerolin simulate --model both` flies for the same script: its state at
// every slice equals the CSV's nl_ columns. The CLI is the program built
// beside this test (skipped when it is not built).
TEST(FlightSession, NonlinearBesideEqualsSimulateModelBoth) {
  const std::string cli = std::string(AEROLIN_BINARY_DIR) + "/aerolin";
  if (!fs::exists(cli)) GTEST_SKIP() << cli << " not built";
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  const std::string script_path =
      std::string(AEROLIN_SOURCE_DIR) + "/tests/viz/fixtures/elevator_doublet.txt";
  const pilot::PilotScript script = pilot::LoadPilotScript(script_path, loaded.aircraft.controls);
  SessionOptions options;
  options.script = &script;
  options.nonlinear = true;
  FlightSession session(loaded.aircraft, options);
  ASSERT_TRUE(session.nonlinear_on());
  std::vector<sim::FlightState> flown = {session.nonlinear_state()};
  for (long k = 0; k < 100; ++k) {
    session.Step();
    ASSERT_TRUE(session.nonlinear_on()) << "slice " << k;
    flown.push_back(session.nonlinear_state());
  }
  const std::string dir = TempDir("both");
  fs::create_directories(dir);
  const std::string csv = dir + "/both.csv";
  const std::string cmd = "'" + cli + "' simulate '" + kP2V7 + "' --script '" + script_path +
                          "' --duration 10 --model both --csv '" + csv + "' > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string header;
  const std::vector<std::vector<double>> rows = ReadCsv(csv, &header);
  ASSERT_EQ(rows.size(), flown.size());
  std::vector<std::string> columns;
  std::stringstream names(header);
  for (std::string name; std::getline(names, name, ',');) columns.push_back(name);
  const std::vector<core::Signal>& states = sim::FlightStateSignals();
  // The CSV's numbers are written in shortest round-trip form; 1e-9 allows
  // for nothing but that.
  constexpr double kTolerance = 1e-9;
  double largest_move = 0.0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const auto at = std::find(columns.begin(), columns.end(), "nl_" + states[i].name);
    ASSERT_NE(at, columns.end()) << "nl_" << states[i].name << " in " << header;
    const auto c = static_cast<std::size_t>(at - columns.begin());
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const double want = rows[k][c];
      const double got = flown[k][static_cast<int>(i)];
      ASSERT_NEAR(got, want, kTolerance * std::max(1.0, std::abs(want)))
          << states[i].name << " at row " << k;
      if (static_cast<int>(i) == sim::kTheta) largest_move = std::max(largest_move, std::abs(want));
    }
  }
  EXPECT_GT(largest_move, 0.01) << "the doublet pitches the nonlinear aircraft";
  fs::remove_all(dir);
}

// Switched on mid-flight, the nonlinear aircraft starts at the linear state
// (the same up to the rounding of NonlinearStateOf and back); a new segment
// keeps the switch and restarts it at the segment's start; off drops it.
// Its trail is bounded as the linear one's.
TEST(FlightSession, NonlinearBesideStartsAtTheLinearStateAndFollowsNewSegments) {
  const data::LoadResult loaded = data::LoadAircraftFile(kP2V7);
  SessionOptions options;
  options.start_on = Excitation::kDutchRoll;
  options.amplitude = 0.3;
  FlightSession session(loaded.aircraft, options);
  EXPECT_FALSE(session.nonlinear_on());
  EXPECT_EQ(session.shadow(), nullptr);
  for (long k = 0; k < 37; ++k) session.Step({});
  ASSERT_TRUE(session.SetNonlinear(true));
  // Rounding of the state mapped to the nonlinear form and back [rad, m/s, m].
  constexpr double kRoundTrip = 1e-12;
  EXPECT_LT((session.nonlinear_state() - session.state()).cwiseAbs().maxCoeff(), kRoundTrip);
  EXPECT_NE(session.state()[sim::kBeta], 0.0);
  for (long k = 0; k < 20; ++k) session.Step({});
  // 0.3 rad of Dutch roll: the two part (the docs' `--model both` example).
  EXPECT_GT(std::abs(session.nonlinear_state()[sim::kU] - session.state()[sim::kU]), 1e-3);
  EXPECT_FALSE(session.shadow()->partings().empty());

  for (int segment = 0; segment < 2; ++segment) {
    if (segment == 0) session.ResetToTrim(); else ASSERT_TRUE(session.Excite(Excitation::kRoll));
    ASSERT_TRUE(session.nonlinear_on());
    EXPECT_TRUE(session.shadow()->partings().empty());
    EXPECT_LT((session.nonlinear_state() - session.state()).cwiseAbs().maxCoeff(), kRoundTrip);
    EXPECT_EQ(session.nonlinear_trail().size(), 1u);
  }
  for (long k = 0; k < 300; ++k) session.Step({});
  EXPECT_EQ(session.nonlinear_trail().size(), session.trail().size());
  EXPECT_EQ(session.nonlinear_trail().size(),
            static_cast<std::size_t>(FlightSession::kTrailSeconds / 0.1) + 1);
  EXPECT_FALSE(session.SetNonlinear(false));
  EXPECT_FALSE(session.nonlinear_wanted());
  EXPECT_EQ(session.shadow(), nullptr);
  EXPECT_TRUE(session.nonlinear_trail().empty());
}

// Turbulence and a closed loop: the switch stays on, nothing flies beside,
// and nonlinear_refusal says why; the nonlinear aircraft returns with calm
// air and the bare airframe.
TEST(FlightSession, NonlinearBesideIsRefusedInTurbulenceAndClosedLoop) {
  const model::AircraftData bare = data::LoadAircraftFile(kP2V7).aircraft;
  SessionOptions options;
  options.nonlinear = true;
  FlightSession session(YawDamped(bare), options);
  ASSERT_TRUE(session.augmentation_on());
  EXPECT_TRUE(session.nonlinear_wanted());
  EXPECT_FALSE(session.nonlinear_on());
  ASSERT_TRUE(session.nonlinear_refusal());
  EXPECT_EQ(*session.nonlinear_refusal(),
            "the nonlinear model is the bare airframe and the file's [augmentation] flies closed "
            "loop (G: augmentation off)");
  ASSERT_TRUE(session.SetAugmentation(false));
  EXPECT_TRUE(session.nonlinear_on());
  EXPECT_FALSE(session.nonlinear_refusal());

  session.SetTurbulence(sim::TurbulenceIntensity::kLight);
  EXPECT_TRUE(session.nonlinear_wanted());
  EXPECT_FALSE(session.nonlinear_on());
  ASSERT_TRUE(session.nonlinear_refusal());
  EXPECT_EQ(*session.nonlinear_refusal(),
            "the nonlinear model flies no turbulence or gusts yet: fly them with the linear model "
            "(T: turbulence off)");
  EXPECT_FALSE(session.SetNonlinear(true));  // still refused
  for (long k = 0; k < 5; ++k) session.Step({});
  session.SetTurbulence(std::nullopt);
  EXPECT_TRUE(session.nonlinear_on());
}

}  // namespace
}  // namespace aerolin::viz
