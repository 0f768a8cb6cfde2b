#pragma once
/// @file
/// The flight window's real-time clock: fixed physics slices on the
/// simulation clock, drawing at the display rate in between, catch-up when
/// the machine falls behind. Pure logic, no SFML, so it is tested with a fake
/// wall clock.

#include <Eigen/Core>
#include <cstdint>

namespace aerolin::viz {

/// Lowest and highest time scales of the `[` / `]` keys.
inline constexpr double kMinTimeScale = 0.25;
inline constexpr double kMaxTimeScale = 16.0;

/// Converts wall time into whole simulation slices. Simulated time is never
/// dropped: wall time × scale accumulates as "owed" simulation time, and each
/// slice run pays one Δt of it. If a frame's budget runs out before the debt
/// is paid, the frame counts as an overrun and the rest is carried over.
class SliceClock {
 public:
  /// `slice_dt` [s] > 0.
  /// @throws std::invalid_argument otherwise.
  explicit SliceClock(double slice_dt);

  /// Adds `wall_dt` [s] of real time, scaled by time_scale(). Paused clocks
  /// accrue nothing.
  void AdvanceWall(double wall_dt);
  /// True if at least one whole slice is owed.
  bool SliceDue() const;
  /// Pays one slice; call after running it. @pre SliceDue().
  void ConsumeSlice();
  /// Records the end of a frame's slice loop: if slices are still due, the
  /// frame was an overrun.
  void EndFrame();

  /// Fraction [0, 1] of the way from the previous slice state to the newest
  /// one at which to draw this frame.
  double Alpha() const;
  /// Simulation time still owed [s] (≥ one slice only while behind).
  double owed() const { return owed_; }
  double slice_dt() const { return slice_dt_; }

  double time_scale() const { return time_scale_; }
  /// Sets the scale, clamped to [kMinTimeScale, kMaxTimeScale].
  void SetTimeScale(double scale);
  /// Halves (`faster` false) or doubles the scale, within the limits.
  void StepTimeScale(bool faster);

  bool paused() const { return paused_; }
  void SetPaused(bool paused) { paused_ = paused; }
  std::uint64_t overruns() const { return overruns_; }
  std::uint64_t slices() const { return slices_; }

 private:
  double slice_dt_;
  double owed_ = 0.0;
  double time_scale_ = 1.0;
  bool paused_ = false;
  std::uint64_t overruns_ = 0;
  std::uint64_t slices_ = 0;
};

/// Returns the state drawn at fraction `alpha` in [0, 1] between two slice
/// states (linear interpolation of every component, including the Euler
/// angles: the linear model's angles are small and continuous, never wrapped).
template <typename Vector>
Vector Interpolate(const Vector& previous, const Vector& newest, double alpha) {
  return previous + alpha * (newest - previous);
}

/// Remembers which of N keys are held, and which were pressed since the last
/// slice, so a tap shorter than a slice still counts for one slice (no input
/// is lost when frames or slices are far apart).
template <int N>
class KeyLatch {
 public:
  void Press(int key) {
    held_[key] = true;
    tapped_[key] = true;
  }
  void Release(int key) { held_[key] = false; }
  void ReleaseAll() {
    for (int k = 0; k < N; ++k) held_[k] = false;
  }
  /// Returns whether `key` counts as held for the slice about to run.
  bool Active(int key) const { return held_[key] || tapped_[key]; }
  /// Call after each slice: forgets taps that have now been applied.
  void SliceDone() {
    for (int k = 0; k < N; ++k) tapped_[k] = false;
  }
  bool held(int key) const { return held_[key]; }

 private:
  bool held_[N] = {};
  bool tapped_[N] = {};
};

}  // namespace aerolin::viz
