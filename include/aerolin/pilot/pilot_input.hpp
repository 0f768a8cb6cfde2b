#pragma once
/// @file
/// The numpad pilot as a simulation input (sim::InputSource): driven by a
/// pilot script (ScriptedPilot) or by the keys a window holds (LiveKeys).
/// Both feed the same `Pilot`, so a recorded live flight replays exactly.

#include <Eigen/Core>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/pilot/pilot.hpp"
#include "aerolin/pilot/pilot_script.hpp"
#include "aerolin/sim/input.hpp"

namespace aerolin::pilot {

/// A numpad pilot as an input source: per slice, a set of held keys (and
/// `set` overrides) goes through `Pilot::Update`; the disturbance is 0.
/// Subclasses say where the keys come from.
class NumpadInput : public sim::InputSource {
 public:
  /// @param controls the aircraft's controls, in data-file order.
  /// @param dt slice length Δt [s], > 0 (the pilot's rates are per second).
  /// @throws std::invalid_argument as Pilot.
  NumpadInput(const std::vector<model::Control>& controls, double dt,
              const PilotSettings& settings = {});

  /// Writes the pilot's controls for slice `k` (Δt is the constructor's).
  /// @throws std::invalid_argument if `dt` differs from the constructor's or
  ///         the sizes are not the aircraft's.
  void InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                     Eigen::Ref<Eigen::VectorXd> disturbance) final;
  /// Returns the pilot's controls to 0.
  void Reset() override { pilot_.Reset(); }

  const Pilot& pilot() const { return pilot_; }
  /// The keys held during the last slice flown.
  KeySet held() const { return held_; }

 protected:
  /// Sets `held` (and `overrides`, cleared by the caller) for slice `k`.
  virtual void KeysForSlice(long k, double dt, KeySet& held,
                            std::vector<ControlOverride>& overrides) = 0;
  /// Reserves room for `n` overrides in one slice (no allocation per slice).
  void ReserveOverrides(std::size_t n) { overrides_.reserve(n); }

 private:
  Pilot pilot_;
  double dt_;
  KeySet held_;
  std::vector<ControlOverride> overrides_;
};

/// The pilot of a script: slice k's keys and `set` lines (a ScriptPlayer,
/// amortized O(1) per slice) through the numpad pilot.
class ScriptedPilot final : public NumpadInput {
 public:
  /// `script` must outlive this source.
  /// @throws std::invalid_argument as Pilot.
  ScriptedPilot(const PilotScript& script, const std::vector<model::Control>& controls,
                double dt, const PilotSettings& settings = {});

  const PilotScript& script() const { return *script_; }

 private:
  void KeysForSlice(long k, double dt, KeySet& held,
                    std::vector<ControlOverride>& overrides) override;
  const PilotScript* script_;
  ScriptPlayer player_;
};

/// The live keyboard: the window sets the keys held (Hold) before each slice.
class LiveKeys final : public NumpadInput {
 public:
  using NumpadInput::NumpadInput;

  /// Sets the keys to hold over the next slice(s) flown.
  void Hold(KeySet keys) { next_ = keys; }
  /// Releases every key and returns the controls to 0.
  void Reset() override {
    NumpadInput::Reset();
    next_ = KeySet();
  }

 private:
  void KeysForSlice(long, double, KeySet& held, std::vector<ControlOverride>&) override {
    held = next_;
  }
  KeySet next_;
};

}  // namespace aerolin::pilot
