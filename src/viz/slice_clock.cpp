#include "aerolin/viz/slice_clock.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace aerolin::viz {
namespace {

// Owed time within this fraction of a slice counts as a whole slice, so
// rounding in the wall-clock sum does not delay a slice by a frame.
constexpr double kSliceTolerance = 1e-9;

}  // namespace

SliceClock::SliceClock(double slice_dt) : slice_dt_(slice_dt) {
  if (!(slice_dt > 0.0) || !std::isfinite(slice_dt))
    throw std::invalid_argument("SliceClock: slice_dt must be > 0, got " +
                                std::to_string(slice_dt));
}

void SliceClock::AdvanceWall(double wall_dt) {
  if (paused_ || !(wall_dt > 0.0)) return;
  owed_ += wall_dt * time_scale_;
}

bool SliceClock::SliceDue() const {
  return owed_ >= slice_dt_ * (1.0 - kSliceTolerance);
}

void SliceClock::ConsumeSlice() {
  owed_ = std::max(0.0, owed_ - slice_dt_);
  ++slices_;
}

void SliceClock::EndFrame() {
  if (SliceDue()) ++overruns_;
}

double SliceClock::Alpha() const { return std::clamp(owed_ / slice_dt_, 0.0, 1.0); }

void SliceClock::SetTimeScale(double scale) {
  time_scale_ = std::clamp(scale, kMinTimeScale, kMaxTimeScale);
}

void SliceClock::StepTimeScale(bool faster) {
  SetTimeScale(faster ? time_scale_ * 2.0 : time_scale_ * 0.5);
}

}  // namespace aerolin::viz
