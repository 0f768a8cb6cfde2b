// The numpad acts by its effect on every bundled aircraft, whatever the signs
// its data source chose for the controls: the oracle is the sign of the
// rate the model itself produces while the key is held (flown with the
// engine, sim::Flight), not the pilot's own sense table.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/sim/flight.hpp"

namespace aerolin::pilot {
namespace {

std::vector<std::string> BundledAircraft() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(AEROLIN_SOURCE_DIR) +
                                                           "/data/derivatives"))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  EXPECT_GE(files.size(), 5u);
  return files;
}

// Flies `slices` slices of 0.1 s from trim holding `keys` and returns the end state.
sim::FlightState FlyHolding(const model::AircraftData& aircraft, KeySet keys, int slices) {
  sim::Flight flight(sim::FlightModel(aircraft), sim::SliceOptions{}, sim::ValidityThresholds{});
  LiveKeys live(aircraft.controls, 0.1);
  live.Hold(keys);
  for (int k = 0; k < slices; ++k) EXPECT_TRUE(flight.Step(live).flown);
  return flight.state();
}

bool Has(const model::AircraftData& aircraft, const std::string& control) {
  for (const model::Control& c : aircraft.controls)
    if (c.name == control) return true;
  return false;
}

TEST(KeyEffects, EveryBundledAircraftRollsYawsAndPitchesTheWayTheKeySays) {
  for (const std::string& file : BundledAircraft()) {
    SCOPED_TRACE(file);
    const model::AircraftData aircraft = data::LoadAircraftFile(file).aircraft;
    // Held 1 s (10 slices): the aileron reaches 0.1 rad, the rudder too.
    const int kHold = 10;
    ASSERT_TRUE(Has(aircraft, "aileron") && Has(aircraft, "rudder") && Has(aircraft, "elevator"));
    EXPECT_LT(FlyHolding(aircraft, {Key::k4}, kHold)[sim::kPhi], 0.0) << "4 must bank left";
    EXPECT_GT(FlyHolding(aircraft, {Key::k6}, kHold)[sim::kPhi], 0.0) << "6 must bank right";
    EXPECT_LT(FlyHolding(aircraft, {Key::k7}, kHold)[sim::kR], 0.0) << "7 must yaw left";
    EXPECT_GT(FlyHolding(aircraft, {Key::k9}, kHold)[sim::kR], 0.0) << "9 must yaw right";
    EXPECT_LT(FlyHolding(aircraft, {Key::k8}, kHold)[sim::kQ], 0.0) << "8 must pitch nose down";
    EXPECT_GT(FlyHolding(aircraft, {Key::k5}, kHold)[sim::kQ], 0.0) << "5 must pitch nose up";
    if (Has(aircraft, "throttle")) {
      EXPECT_GT(FlyHolding(aircraft, {Key::kPlus}, kHold)[sim::kU], 0.0) << "+ must speed up";
      EXPECT_LT(FlyHolding(aircraft, {Key::kMinus}, kHold)[sim::kU], 0.0) << "- must slow down";
    }
  }
}

TEST(KeyEffects, ALiveFlightOfEveryAircraftReplaysFromItsRecordedScriptBitForBit) {
  for (const std::string& file : BundledAircraft()) {
    SCOPED_TRACE(file);
    const model::AircraftData aircraft = data::LoadAircraftFile(file).aircraft;
    const sim::FlightModel model(aircraft);
    sim::Flight live_flight(model, sim::SliceOptions{}, sim::ValidityThresholds{});
    LiveKeys live(aircraft.controls, 0.1);
    KeyRecorder recorder(0.1);
    std::vector<sim::FlightState> states;
    for (int k = 0; k < 120; ++k) {
      KeySet keys;
      if (k % 40 < 6) keys.Set(Key::k4);
      if (k % 25 >= 20) keys.Set(Key::k9);
      if (k >= 30 && k < 34) keys.Set(Key::k8);
      if (k >= 50 && k < 53) keys.Set(Key::k7);
      if (k >= 70 && k < 75) keys.Set(Key::k6);
      live.Hold(keys);
      ASSERT_TRUE(live_flight.Step(live).flown);
      recorder.Record(live.held());
      states.push_back(live_flight.state());
    }
    const PilotScript script =
        ParsePilotScript(recorder.ToScript(), "recorded", aircraft.controls);
    ScriptedPilot replay(script, aircraft.controls, 0.1);
    sim::Flight replay_flight(model, sim::SliceOptions{}, sim::ValidityThresholds{});
    for (int k = 0; k < 120; ++k) {
      ASSERT_TRUE(replay_flight.Step(replay).flown);
      ASSERT_EQ(replay_flight.state(), states[k]) << "slice " << k;
    }
  }
}

}  // namespace
}  // namespace aerolin::pilot
