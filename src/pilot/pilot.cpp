#include "aerolin/pilot/pilot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>


namespace aerolin::pilot {

namespace {

// Key text, in Key order; pairs (2i, 2i+1) drive kKeyBoundControls[i].
constexpr std::array<std::string_view, kNumKeys> kKeyTexts = {
    "8", "5", "+", "-", "4", "6", "9", "7"};

constexpr std::array<std::string_view, kNumKeys> kKeyEffects = {
    "nose down", "nose up", "more thrust", "less thrust",
    "roll left", "roll right", "yaw right", "yaw left"};

int PairOf(std::string_view control_name) {
  for (std::size_t i = 0; i < kKeyBoundControls.size(); ++i)
    if (kKeyBoundControls[i] == control_name) return static_cast<int>(i);
  return -1;
}

double SignOr1(double v) { return v < 0.0 ? -1.0 : 1.0; }

bool PositiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

}  // namespace

std::optional<Key> ParseKey(std::string_view text) {
  for (int i = 0; i < kNumKeys; ++i)
    if (kKeyTexts[i] == text) return static_cast<Key>(i);
  return std::nullopt;
}

std::string_view KeyText(Key key) {
  return kKeyTexts[static_cast<std::size_t>(key)];
}

std::string_view KeyControlName(Key key) {
  return kKeyBoundControls[static_cast<std::size_t>(key) / 2];
}

std::string_view KeyEffect(Key key) {
  return kKeyEffects[static_cast<std::size_t>(key)];
}

double FirstKeySense(const model::Control& control) {
  // The wanted sign of (derivative × change): 8 nose down wants M·δ < 0,
  // + more thrust X·δ > 0, 4 roll left L·δ < 0, 9 yaw right N·δ > 0.
  switch (PairOf(control.name)) {
    case 0: return control.M == 0.0 ? 1.0 : -SignOr1(control.M);
    case 1: return SignOr1(control.X);
    case 2: return control.L == 0.0 ? 1.0 : -SignOr1(control.L);
    case 3: return SignOr1(control.N);
    default: return 1.0;
  }
}

ControlLimits LimitsOf(const model::Control& control,
                       const PilotSettings& settings) {
  const double d = control.unit == core::Unit::kRadian ? settings.default_angle_limit
                                         : settings.default_dimensionless_limit;
  return {control.min.value_or(-d), control.max.value_or(d)};
}

Pilot::Pilot(const std::vector<model::Control>& controls, double dt,
             PilotSettings settings) {
  if (!PositiveFinite(dt))
    throw std::invalid_argument("Pilot: slice length dt must be > 0, got " +
                                std::to_string(dt));
  if (!PositiveFinite(settings.reference_period) ||
      !PositiveFinite(settings.surface_step) ||
      !PositiveFinite(settings.throttle_step) ||
      !(settings.release_factor >= 0.0 && settings.release_factor < 1.0))
    throw std::invalid_argument(
        "Pilot: steps and reference period must be > 0 and the release "
        "factor in [0, 1)");
  // At dt == reference_period the ratio is exactly 1, so the step and the
  // factor are exactly the seed's 0.01 / 1 and 0.5.
  const double ratio = dt / settings.reference_period;
  decay_ = std::pow(settings.release_factor, ratio);
  const auto n = static_cast<Eigen::Index>(controls.size());
  values_ = Eigen::VectorXd::Zero(n);
  for (const model::Control& c : controls) {
    pair_.push_back(PairOf(c.name));
    sense_.push_back(FirstKeySense(c));
    const double step = c.name == "throttle" ? settings.throttle_step
                                             : settings.surface_step;
    step_.push_back(step * ratio);
    limits_.push_back(LimitsOf(c, settings));
  }
  overridden_.assign(controls.size(), 0);
}

std::optional<Key> Pilot::first_key(int c) const {
  if (pair_[c] < 0) return std::nullopt;
  return static_cast<Key>(2 * pair_[c]);
}

std::optional<Key> Pilot::second_key(int c) const {
  if (pair_[c] < 0) return std::nullopt;
  return static_cast<Key>(2 * pair_[c] + 1);
}

std::optional<Key> Pilot::plus_key(int c) const {
  return sense_[c] > 0 ? first_key(c) : second_key(c);
}

std::optional<Key> Pilot::minus_key(int c) const {
  return sense_[c] > 0 ? second_key(c) : first_key(c);
}

double Pilot::Released(double v, double step) const {
  // The release decays geometrically and never reaches 0 exactly. In binary64
  // it would end in the subnormal range, and for a per-slice factor above 1/2
  // (Δt < 0.1 s) stay there for good: 4.9e-324 × 0.87 rounds back to
  // 4.9e-324. Every slice then multiplies B by a subnormal, which x86 does in
  // microcode (~8× slower RK45 slices, sim_bench BM_SliceSubnormalControl).
  // Below kNeutral of one slice's key step a control moves no state by more
  // than that fraction of what a single key step does (the model is linear),
  // 1e-14 rad for a surface at Δt = 0.1 s, far below any actuator's
  // resolution, so it is neutral: exactly 0.
  constexpr double kNeutral = 1e-12;
  v *= decay_;
  return std::abs(v) < kNeutral * step ? 0.0 : v;
}

const Eigen::VectorXd& Pilot::Update(KeySet keys,
                                     std::span<const ControlOverride> overrides) {
  for (const ControlOverride& o : overrides)
    if (o.control < 0 || o.control >= num_controls())
      throw std::invalid_argument("Pilot::Update: override of control " +
                                  std::to_string(o.control) + ", have " +
                                  std::to_string(num_controls()) + " controls");
  for (int c = 0; c < num_controls(); ++c) {
    const ControlOverride* forced = nullptr;
    for (const ControlOverride& o : overrides)
      if (o.control == c) forced = &o;  // the last one wins
    if (forced != nullptr) {
      values_[c] = forced->value;
      overridden_[c] = 1;
      continue;
    }
    if (overridden_[c]) {
      values_[c] = 0.0;
      overridden_[c] = 0;
    }
    double v = values_[c];
    const int pair = pair_[c];
    // if / else if / else, as the seed: the first key wins when both are
    // held. ±1 · step is exact, so a sense of +1 gives the seed's bits.
    if (pair >= 0 && keys.Has(static_cast<Key>(2 * pair)))
      v += sense_[c] * step_[c];
    else if (pair >= 0 && keys.Has(static_cast<Key>(2 * pair + 1)))
      v -= sense_[c] * step_[c];
    else
      v = Released(v, step_[c]);
    values_[c] = std::clamp(v, limits_[c].min, limits_[c].max);
  }
  return values_;
}

void Pilot::Reset() {
  values_.setZero();
  std::fill(overridden_.begin(), overridden_.end(), 0);
}

}  // namespace aerolin::pilot
