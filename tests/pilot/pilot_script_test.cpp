#include "aerolin/pilot/pilot_script.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <random>

#include "aerolin/core/error.hpp"
#include "sim/p2v7_fixture.hpp"
#include "aerolin/pilot/pilot_input.hpp"
#include "aerolin/sim/simulate.hpp"

namespace aerolin::pilot {
namespace {

using namespace aerolin::sim;  // NOLINT: the flight the pilot flies

PilotScript Parse(const std::string& text) {
  return ParsePilotScript(text, "s.txt", test::MakeP2V7().controls);
}

// Returns what() of the DataError `text` raises ("" if none).
std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const core::DataError& e) {
    return e.what();
  }
  return "";
}

TEST(ParsePilotScript, ReadsKeysSetLinesAndComments) {
  const PilotScript s = Parse(
      "# (a) elevator doublet\n"
      "1.0 2.0 8\n"
      "  2.0\t4.0 5   # trailing comment\n"
      "\n"
      "5 6 set rudder -0.02\r\n");
  ASSERT_EQ(s.keys.size(), 2u);
  EXPECT_EQ(s.keys[1].key, Key::k5);
  EXPECT_EQ(s.keys[1].t_end, 4.0);
  EXPECT_EQ(s.keys[1].line, 3);
  ASSERT_EQ(s.sets.size(), 1u);
  EXPECT_EQ(s.sets[0].control, 3);
  EXPECT_EQ(s.sets[0].value, -0.02);
  EXPECT_EQ(s.end_time(), 6.0);
}

TEST(ParsePilotScript, HoldsAKeyInSlicesFromRoundStartToRoundEnd) {
  const PilotScript s = Parse("1.0 2.0 8\n0.26 0.36 4\n0.31 0.34 6\n");
  KeySet held;
  std::vector<ControlOverride> overrides;
  auto held_at = [&](long k, Key key) {
    s.InputForSlice(k, 0.1, held, overrides);
    return held.Has(key);
  };
  EXPECT_FALSE(held_at(9, Key::k8));
  EXPECT_TRUE(held_at(10, Key::k8));
  EXPECT_TRUE(held_at(19, Key::k8));
  EXPECT_FALSE(held_at(20, Key::k8));
  // round(2.6) = 3 ≤ k < round(3.6) = 4: slice 3 only.
  EXPECT_FALSE(held_at(2, Key::k4));
  EXPECT_TRUE(held_at(3, Key::k4));
  EXPECT_FALSE(held_at(4, Key::k4));
  // round(3.1) = 3 ≤ k < round(3.4) = 3: no slice at all.
  EXPECT_FALSE(held_at(3, Key::k6));
}

// Every defect class, its message pinned.
TEST(ParsePilotScript, ReportsEachDefectClass) {
  EXPECT_EQ(ErrorOf("1 2\n"),
            "s.txt:1: expected 't_start t_end KEY' or 't_start t_end set "
            "CONTROL VALUE', got 2 fields");
  EXPECT_EQ(ErrorOf("1 2 set elevator\n"),
            "s.txt:1: expected 't_start t_end KEY' or 't_start t_end set "
            "CONTROL VALUE', got 4 fields");
  EXPECT_EQ(ErrorOf("one 2 8\n"), "s.txt:1: 'one' is not a time in seconds");
  EXPECT_EQ(ErrorOf("1 nan 8\n"), "s.txt:1: 'nan' is not a time in seconds");
  EXPECT_EQ(ErrorOf("-1 2 8\n"), "s.txt:1: t_start -1 is negative");
  EXPECT_EQ(ErrorOf("\n3 2 8\n"), "s.txt:2: t_end 2 is before t_start 3");
  EXPECT_EQ(ErrorOf("1 2 3\n"),
            "s.txt:1: unknown key '3' (keys: 8 5 + - 4 6 9 7, or 'set')");
  EXPECT_EQ(ErrorOf("1 2 set elevon 0.1\n"),
            "s.txt:1: unknown control 'elevon' (controls: elevator, throttle, "
            "aileron, rudder)");
  EXPECT_EQ(ErrorOf("1 2 set elevator x\n"),
            "s.txt:1: 'x' is not a number (value of elevator in rad)");
  EXPECT_EQ(ErrorOf("1 2 set elevator 0.7\n"),
            "s.txt:1: value 0.7 is outside elevator's limits [-0.5, 0.5] rad");
  EXPECT_EQ(ErrorOf("1 3 set throttle 2\n2 4 set throttle 1\n"),
            "s.txt:2: 'set throttle' from 2 to 4 s overlaps line 1");
}

TEST(ParsePilotScript, RejectsAKeyWhoseControlTheAircraftLacks) {
  std::vector<model::Control> controls = test::MakeP2V7().controls;
  controls.erase(controls.begin() + 1);  // no throttle
  try {
    ParsePilotScript("0 1 +\n", "s.txt", controls);
    FAIL();
  } catch (const core::DataError& e) {
    EXPECT_STREQ(e.what(),
                 "s.txt:1: key '+' drives 'throttle', which this aircraft does "
                 "not have (controls: elevator, aileron, rudder)");
  }
}

TEST(ParsePilotScript, ReportsEveryDefectOnItsOwnLine) {
  try {
    Parse("1 2 8\n1 2 x\n\n5 4 9\n");
    FAIL();
  } catch (const core::DataError& e) {
    ASSERT_EQ(e.defects().size(), 2u);
    EXPECT_EQ(e.defects()[0].where.line, 2);
    EXPECT_EQ(e.defects()[1].where.line, 4);
  }
}

TEST(LoadPilotScript, ReportsAMissingFile) {
  try {
    LoadPilotScript("/nonexistent/script.txt", test::MakeP2V7().controls);
    FAIL();
  } catch (const core::DataError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/script.txt:0: cannot open file: No such file or directory (check the path)");
  }
}

TEST(KeyRecorder, WritesHoldsAsScriptLines) {
  KeyRecorder rec(0.1);
  for (int k = 0; k < 30; ++k)
    rec.Record(k >= 3 && k < 23 ? KeySet{Key::k8} : KeySet{});
  rec.Record({Key::kPlus});
  EXPECT_EQ(rec.ToScript(),
            "# recorded by aerolin, slice length 0.1 s\n"
            "0.3 2.3 8\n"
            "3 3.1 +\n");
}

TEST(KeyRecorder, ReplayOfARecordedFlightIsBitForBitIdentical) {
  // A "live" flight: random keys per slice (fixed seed) fed straight to the
  // pilot and the slicer, recorded; then the recording replayed by Simulate.
  const model::AircraftData aircraft = test::MakeP2V7();
  for (const double dt : {0.1, 0.02}) {
    SliceOptions options;
    options.dt = dt;
    Slicer live(FlightModel(aircraft), options);
    Pilot pilot(aircraft.controls, dt);
    KeyRecorder recorder(dt);
    std::mt19937 rng(7);
    std::bernoulli_distribution press(0.15);
    std::vector<FlightState> live_states;
    const long n = std::lround(60.0 / dt);
    for (long k = 0; k < n; ++k) {
      KeySet keys;
      for (int i = 0; i < kNumKeys; ++i)
        if (press(rng)) keys.Set(static_cast<Key>(i));
      recorder.Record(keys);
      live.Advance(pilot.Update(keys));
      live_states.push_back(live.state());
    }
    const PilotScript script =
        ParsePilotScript(recorder.ToScript(), "rec.txt", aircraft.controls);
    SimulationOptions o;
    o.slice = options;
    o.duration = 60.0;
    ScriptedPilot scripted(script, aircraft.controls, dt);
    const SimulationResult replay = Simulate(FlightModel(aircraft), FlightState::Zero(), scripted, o);
    ASSERT_EQ(replay.log.size(), live_states.size() + 1);
    for (std::size_t k = 0; k < live_states.size(); ++k)
      ASSERT_EQ(replay.log.state[k + 1], live_states[k]) << "dt " << dt << " k " << k;
  }
}

// ScriptPlayer against the O(n) reference, slice by slice, on fixed
// pseudo-random scripts with keys, touching and separate `set` lines, events
// shorter than a slice, and a rewind.
TEST(ScriptPlayer, AgreesWithTheReferenceOnRandomScripts) {
  std::mt19937 rng(2024);
  std::uniform_int_distribution<int> tenth(0, 300);
  std::uniform_int_distribution<int> key(0, kNumKeys - 1);
  const char* const keys[] = {"8", "5", "+", "-", "4", "6", "9", "7"};
  for (int trial = 0; trial < 40; ++trial) {
    std::string text;
    for (int i = 0; i < 30; ++i) {
      int a = tenth(rng), b = tenth(rng);
      if (a > b) std::swap(a, b);
      const double shift = 0.03 * (i % 3);  // off the slice grid
      text += std::to_string(a * 0.1 + shift) + " " + std::to_string(b * 0.1 + shift) + " " +
              keys[key(rng)] + "\n";
    }
    // Back-to-back sets of one control (touching, allowed) and one apart.
    text += "1 2.05 set throttle 3\n2.05 3 set throttle -2\n5 7 set aileron 0.1\n";
    const PilotScript script = Parse(text);
    for (const double dt : {0.1, 0.05, 0.3}) {
      ScriptPlayer player(script, dt);
      KeySet a, b;
      std::vector<ControlOverride> oa, ob;
      for (int pass = 0; pass < 2; ++pass)  // the second pass rewinds
        for (long k = 0; k < static_cast<long>(40.0 / dt); ++k) {
          player.InputForSlice(k, a, oa);
          script.InputForSlice(k, dt, b, ob);
          ASSERT_EQ(a.bits(), b.bits()) << trial << " dt " << dt << " k " << k;
          ASSERT_EQ(oa.size(), ob.size()) << trial << " dt " << dt << " k " << k;
          std::sort(ob.begin(), ob.end(),
                    [](const ControlOverride& x, const ControlOverride& y) { return x.control < y.control; });
          for (std::size_t i = 0; i < oa.size(); ++i) {
            EXPECT_EQ(oa[i].control, ob[i].control);
            EXPECT_EQ(oa[i].value, ob[i].value);
          }
        }
    }
  }
}

// Regression: 10^6 `set` lines took 11 minutes (each compared with every
// earlier one). Sorted, 200 000 lines take well under a second; the quadratic
// check needed about 2·10^10 comparisons, minutes. The bound is generous for
// a sanitizer build on a loaded machine.
TEST(ParsePilotScript, ChecksManySetLinesForOverlapInNLogN) {
  std::string text;
  constexpr int kLines = 200000;
  for (int i = kLines - 1; i >= 0; --i)  // reverse order: sorting is needed
    text += std::to_string(i) + " " + std::to_string(i + 1) + " set elevator 0.1\n";
  const auto start = std::chrono::steady_clock::now();
  const PilotScript script = Parse(text);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(script.sets.size(), static_cast<std::size_t>(kLines));
  EXPECT_LT(seconds, 20.0);
  // And an overlap among them is still found, on the later line.
  EXPECT_EQ(ErrorOf(text + "7.5 8 set elevator 0.2\n"),
            "s.txt:200001: 'set elevator' from 7.5 to 8 s overlaps line " +
                std::to_string(kLines - 7));
}

// Playing 200 000 events over 400 000 slices: amortized O(1) per slice (the
// reference scan would do 8·10^10 event checks).
TEST(ScriptPlayer, PlaysManyEventsInLinearTime) {
  std::string text;
  constexpr int kLines = 200000;
  for (int i = 0; i < kLines; ++i)
    text += std::to_string(0.2 * i) + " " + std::to_string(0.2 * i + 0.1) + " 8\n";
  const PilotScript script = Parse(text);
  ScriptPlayer player(script, 0.1);
  KeySet held;
  std::vector<ControlOverride> overrides;
  long held_slices = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k < 2L * kLines; ++k) {
    player.InputForSlice(k, held, overrides);
    held_slices += held.Has(Key::k8) ? 1 : 0;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(held_slices, kLines);
  EXPECT_LT(seconds, 20.0);
}

// Regression: "0 1e300 8" was accepted, and lround(1e300 / dt) overflowed, so
// the key was never held.
TEST(ParsePilotScript, RejectsTimesBeyondTheLongestFlight) {
  EXPECT_EQ(ErrorOf("0 1e300 8\n"),
            "s.txt:1: time 1e300 s is beyond the longest flight (1e+09 s)");
  EXPECT_EQ(ErrorOf("1e10 2e10 set elevator 0.1\n"),
            "s.txt:1: time 2e10 s is beyond the longest flight (1e+09 s)");
  const PilotScript s = Parse("0 1e9 8\n");
  KeySet held;
  std::vector<ControlOverride> overrides;
  s.InputForSlice(5, 1e-12, held, overrides);  // 1e21 slices: saturated, held
  EXPECT_TRUE(held.Has(Key::k8));
  EXPECT_EQ(SliceIndexOf(1e300, 0.1), std::numeric_limits<long>::max());
}

// Regression: a script saved with a byte-order mark failed on its first line
// ("unknown key" / "not a time"); data files already ignored it.
TEST(ParsePilotScript, IgnoresAByteOrderMark) {
  const PilotScript s = Parse("\xEF\xBB\xBF" "1 2 8\n");
  ASSERT_EQ(s.keys.size(), 1u);
  EXPECT_EQ(s.keys[0].t_start, 1.0);
}

TEST(ParsePilotScript, RejectsNulAndInvalidUtf8WithTheirLine) {
  EXPECT_EQ(ErrorOf(std::string("1 2 8\n3 4\0 5\n", 12)),
            "s.txt:2: NUL byte at column 4 (aerolin reads UTF-8 text files)");
  EXPECT_EQ(ErrorOf("1 2 8 # caf\xE9 ok\n"),
            "s.txt:1: invalid UTF-8 sequence 0xE9 0x20 at column 12 (aerolin reads UTF-8 text files)");
}

// Regression: /dev/zero or a FIFO as --script read forever (or blocked).
TEST(LoadPilotScript, AcceptsRegularFilesOnly) {
  const std::vector<model::Control> controls = test::MakeP2V7().controls;
  for (const char* path : {"/dev/zero", "/dev/null", "/tmp"}) {
    try {
      LoadPilotScript(path, controls);
      ADD_FAILURE() << path << " was read";
    } catch (const core::DataError& e) {
      EXPECT_NE(std::string(e.what()).find(":0: not a regular file"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace aerolin::pilot
