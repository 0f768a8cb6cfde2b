#pragma once
/// @file
/// The seed's numpad pilot as a reusable component: the set of keys held
/// during a slice goes in, the control values to hold over that slice come
/// out. The scripted pilot (pilot_script.hpp) and the live flight window feed
/// the same `Pilot`, so a recorded flight replays exactly.

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::pilot {

/// Numpad keys, bound by their effect on the aircraft whatever the data's
/// control signs: 8 nose down (stick forward) / 5 nose up, + more thrust /
/// − less, 4 roll left / 6 roll right, 9 yaw right / 7 yaw left. Each pair
/// drives one control, found by name (kKeyBoundControls); which way the
/// pair's first key moves it comes from the sign of the control's dominant
/// derivative (FirstKeySense).
enum class Key : std::uint8_t { k8, k5, kPlus, kMinus, k4, k6, k9, k7 };
inline constexpr int kNumKeys = 8;

/// Key pair i (Key values 2i "first", 2i+1 "second") drives the control of
/// this name (a data file's control names are matched against it; other
/// controls are not key-bound).
inline constexpr std::array<std::string_view, kNumKeys / 2> kKeyBoundControls = {
    "elevator", "throttle", "aileron", "rudder"};

/// Parses "8", "5", "+", "-", "4", "6", "9", "7"; nullopt otherwise.
std::optional<Key> ParseKey(std::string_view text);
/// Returns the key's text as written in scripts ("8", "+", ...).
std::string_view KeyText(Key key);
/// Returns the name of the control `key` drives ("elevator", ...).
std::string_view KeyControlName(Key key);
/// Returns what `key` does to the aircraft: "nose down", "nose up",
/// "more thrust", "less thrust", "roll left", "roll right", "yaw right",
/// "yaw left".
std::string_view KeyEffect(Key key);

/// Returns +1 or −1: the sign of the change the first key of `control`'s
/// pair (8, +, 4, 9) makes, so that the key has its effect (KeyEffect) on
/// this aircraft. It is the sign that makes the dominant derivative act the
/// right way (stability axes; L, N primed):
///
/// | control | first key | dominant derivative | sense |
/// |:--|:--|:--|:--|
/// | elevator | 8 nose down (q̇ < 0) | M_δe | −sign(M_δe) |
/// | throttle | + more thrust (u̇ > 0) | X_δt | +sign(X_δt) |
/// | aileron | 4 roll left (ṗ < 0) | L′_δa | −sign(L′_δa) |
/// | rudder | 9 yaw right (ṙ > 0) | N′_δr | +sign(N′_δr) |
///
/// A dominant derivative of 0 (the key cannot have its effect) gives +1;
/// a control that is not key-bound gives +1.
double FirstKeySense(const model::Control& control);

/// The set of keys held during one slice (a bit mask; no allocation).
class KeySet {
 public:
  KeySet() = default;
  KeySet(std::initializer_list<Key> keys) {
    for (Key k : keys) Set(k);
  }
  void Set(Key key) { bits_ |= Bit(key); }
  void Clear(Key key) { bits_ &= static_cast<std::uint8_t>(~Bit(key)); }
  bool Has(Key key) const { return (bits_ & Bit(key)) != 0; }
  bool empty() const { return bits_ == 0; }
  std::uint8_t bits() const { return bits_; }
  friend bool operator==(KeySet a, KeySet b) { return a.bits_ == b.bits_; }

 private:
  static std::uint8_t Bit(Key key) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(key));
  }
  std::uint8_t bits_ = 0;
};

/// A control forced to a value for one slice (a script's `set` line).
struct ControlOverride {
  int control = 0;     ///< index in data-file order
  double value = 0.0;  ///< [control unit]
};

/// How the numpad moves the controls. Rates are given per reference period
/// of 0.1 s (the seed's slice) and scaled to the slice length Δt, so the feel
/// does not depend on Δt: per slice a held key adds
/// `step · Δt / reference_period` and a released control is multiplied by
/// `release_factor^(Δt / reference_period)`, and set to exactly 0 once below
/// 1e-12 of its per-slice step (never a subnormal). At Δt = 0.1 s these are exactly
/// the seed's ±0.01 (surfaces), ±1 (throttle) and ×0.5.
struct PilotSettings {
  double reference_period = 0.1;  ///< [s]
  double surface_step = 0.01;     ///< [rad per reference period] = 0.1 rad/s
  double throttle_step = 1.0;     ///< [1 per reference period] = 10 /s
  double release_factor = 0.5;    ///< per reference period (half-life 0.1 s)
  /// Limits of a control whose data file gives none: ±0.5 rad for a "rad"
  /// control (beyond any real surface, so the seed's behaviour is unchanged),
  /// ±100 for a dimensionless one.
  double default_angle_limit = 0.5;            ///< [rad]
  double default_dimensionless_limit = 100.0;  ///< [1]
};

/// Closed interval a control is kept in [control unit].
struct ControlLimits {
  double min = 0.0;
  double max = 0.0;
};

/// Returns the limits of `control`: the data file's min/max where given,
/// else the symmetric default of `settings` for its unit.
ControlLimits LimitsOf(const model::Control& control,
                       const PilotSettings& settings);

/// The numpad pilot. Per slice and per key-bound control: if its pair's first
/// key (8, +, 4, 9) is held the value moves one step in FirstKeySense's
/// direction, else if the second key (5, −, 6, 7) is held one step the other
/// way, else it is multiplied by the release factor; the result is
/// clamped to the control's limits. A control under a `ControlOverride` takes
/// the override's value (no ramp, no decay); in the first slice after an
/// override ends it restarts from 0 (so pulses end cleanly). Controls not
/// bound to a key (other names) stay at 0 unless overridden.
class Pilot {
 public:
  /// @param controls the aircraft's controls, in data-file order.
  /// @param dt slice length Δt [s], > 0.
  /// @throws std::invalid_argument if `dt` or a setting is not positive/finite.
  Pilot(const std::vector<model::Control>& controls, double dt,
        PilotSettings settings = {});

  /// Applies one slice's input and returns the control values to hold over
  /// that slice (data-file order, control units). Does not allocate.
  /// @throws std::invalid_argument if an override's index is out of range.
  const Eigen::VectorXd& Update(KeySet keys,
                                std::span<const ControlOverride> overrides = {});

  /// Returns all controls to 0.
  void Reset();

  const Eigen::VectorXd& controls() const { return values_; }
  int num_controls() const { return static_cast<int>(values_.size()); }
  /// Change of control `c` per slice while its key is held [control unit].
  double step_per_slice(int c) const { return step_[c]; }
  /// Factor applied per slice to a released control.
  double release_factor_per_slice() const { return decay_; }
  const ControlLimits& limits(int c) const { return limits_[c]; }
  /// The key that moves control `c` toward + / − (its value, in control
  /// units), or nullopt if it is not key-bound.
  std::optional<Key> plus_key(int c) const;
  std::optional<Key> minus_key(int c) const;
  /// The first key of control `c`'s pair (8, +, 4, 9) and the second (5, −,
  /// 6, 7), or nullopt if it is not key-bound.
  std::optional<Key> first_key(int c) const;
  std::optional<Key> second_key(int c) const;
  /// FirstKeySense of control `c` (+1 or −1).
  double first_key_sense(int c) const { return sense_[c]; }

 private:
  Eigen::VectorXd values_;
  std::vector<double> step_;
  std::vector<ControlLimits> limits_;
  std::vector<int> pair_;  // key pair index 0..3 (Key = 2·pair, 2·pair+1) or -1
  std::vector<double> sense_;  // FirstKeySense per control
  std::vector<char> overridden_;
  double decay_ = 0.5;
  // A released control's next value: × decay_, then exactly 0 once below
  // 1e-12 of `step` (see pilot.cpp: no subnormal controls).
  double Released(double v, double step) const;
};

}  // namespace aerolin::pilot
