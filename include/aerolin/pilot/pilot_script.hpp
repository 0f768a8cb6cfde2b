#pragma once
/// @file
/// Scripted pilots: a text file, one event a line, `#` comments:
///
///     t_start t_end KEY                  # KEY in 8 5 + - 4 6 9 7 (by effect, as the numpad)
///     t_start t_end set CONTROL VALUE    # CONTROL held at VALUE, no decay
///
/// Times in s, t_start ≥ 0, t_end ≥ t_start. An event is active during every
/// slice k (covering [kΔt, (k+1)Δt]) with
/// round(t_start/Δt) ≤ k < round(t_end/Δt). This is also the format the live
/// flight window records (KeyRecorder), so a flight replays exactly.

#include <string>
#include <string_view>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/pilot/pilot.hpp"

namespace aerolin::pilot {

/// A key held from t_start to t_end [s].
struct KeyEvent {
  double t_start = 0.0;
  double t_end = 0.0;
  Key key = Key::k8;
  int line = 0;  ///< 1-based line in the script
};

/// A control held at `value` from t_start to t_end [s].
struct SetEvent {
  double t_start = 0.0;
  double t_end = 0.0;
  int control = 0;     ///< index in data-file order
  double value = 0.0;  ///< [control unit]
  int line = 0;
};

/// The latest time a script may name [s] (about 31.7 years): later times
/// are reported as defects rather than silently never reached.
inline constexpr double kMaxScriptTime = 1e9;

/// Returns the slice index round(t / dt) that a script time maps to,
/// saturated at LONG_MAX where t / dt is not representable (so such an event
/// is active from its start to the end of any flight).
long SliceIndexOf(double t, double dt);

/// A parsed pilot script (independent of Δt until it is played).
struct PilotScript {
  std::string path;
  std::vector<KeyEvent> keys;
  std::vector<SetEvent> sets;

  /// Fills the input of slice `k` for slice length `dt` [s]: the keys held
  /// and the controls forced. `overrides` is cleared first and reuses its
  /// capacity (no allocation once it has grown to the script's width).
  /// Scans every event (O(events) per call): the reference for ScriptPlayer,
  /// which flights use.
  void InputForSlice(long k, double dt, KeySet& held,
                     std::vector<ControlOverride>& overrides) const;
  /// Returns the latest t_end [s] (0 for an empty script).
  double end_time() const;
};

/// Plays a script slice by slice: InputForSlice(k) for k = 0, 1, 2, ... costs
/// amortized O(1) per slice plus the events active in it (the events are
/// sorted once by start and end slice, O(n log n)). Asking for an earlier
/// slice than the last one rewinds (O(n)). Same result as
/// PilotScript::InputForSlice; overrides come in control order.
class ScriptPlayer {
 public:
  /// `script` must outlive the player. @param dt slice length [s], > 0.
  ScriptPlayer(const PilotScript& script, double dt);
  /// As PilotScript::InputForSlice for this player's Δt.
  void InputForSlice(long k, KeySet& held, std::vector<ControlOverride>& overrides);

 private:
  struct Span {
    long k0;
    long k1;
    int event;  // index into keys (is_key) or sets
    bool is_key;
  };
  void Rewind();
  const PilotScript* script_;
  std::vector<Span> by_start_;
  std::vector<Span> by_end_;
  std::size_t next_start_ = 0;
  std::size_t next_end_ = 0;
  long last_k_ = -1;
  std::vector<int> key_count_;   // per Key: active key events
  std::vector<int> set_active_;  // per control: the active set event, or -1
};

/// Parses script `text`; `path` is used in messages only. `controls` are the
/// aircraft's (data-file order): `set` names and values are checked against
/// them and their limits (LimitsOf with `settings`), and a key whose control
/// the aircraft lacks is a defect.
/// Times must be finite, 0 ≤ t_start ≤ t_end ≤ kMaxScriptTime. A UTF-8
/// byte-order mark is ignored; NUL bytes and invalid UTF-8 are defects.
/// Checking `set` lines for overlap costs O(n log n).
/// @throws core::DataError listing every defect, one
///         "path:line: problem (hint)" each.
PilotScript ParsePilotScript(std::string_view text, const std::string& path,
                             const std::vector<model::Control>& controls,
                             const PilotSettings& settings = {});

/// As ParsePilotScript, reading the regular file at `path` (at most
/// core::kMaxInputFileBytes, core::ReadInputFile).
/// @throws core::DataError "path:0: ..." if it cannot be read, is not a
///         regular file or is too large.
PilotScript LoadPilotScript(const std::string& path,
                            const std::vector<model::Control>& controls,
                            const PilotSettings& settings = {});

/// Records the keys held in each slice of a live flight and writes them as a
/// script: one `t_start t_end KEY` line per continuous hold.
class KeyRecorder {
 public:
  /// @param dt slice length [s]
  explicit KeyRecorder(double dt) : dt_(dt) {}
  /// Records the keys held during the next slice (slices 0, 1, 2, ...).
  void Record(KeySet keys);
  /// Returns the script text of everything recorded so far, holds still in
  /// progress closed at the current slice. Times are written so that
  /// round(t/Δt) recovers the slice index.
  std::string ToScript() const;
  long num_slices() const { return slices_; }

 private:
  struct Hold {
    long k_start;
    long k_end;
    Key key;
  };
  double dt_;
  long slices_ = 0;
  std::vector<Hold> holds_;
  std::vector<long> open_since_ = std::vector<long>(kNumKeys, -1);
};

}  // namespace aerolin::pilot
