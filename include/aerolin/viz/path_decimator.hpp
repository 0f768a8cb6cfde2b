#pragma once
/// @file
/// Bounded-memory storage of the drawn trajectory: the frame cost of drawing
/// the path does not grow with flight length (the full-resolution record is
/// the flight log on disk, not this).

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "aerolin/viz/camera.hpp"

namespace aerolin::viz {

/// Keeps every point of the newest `tail` samples and, for the older part,
/// every stride-th sample, where the stride doubles whenever the coarse store
/// reaches `capacity` (so it holds between capacity/2 and capacity points).
/// Appending is amortized O(1); at most capacity + tail + 1 points are ever
/// drawn, whatever the number of samples. Also tracks the bounds of *all*
/// samples in O(1) per sample, for the overview camera.
class PathDecimator {
 public:
  /// @throws std::invalid_argument if capacity < 4 or tail < 1.
  explicit PathDecimator(std::size_t capacity = 2048, std::size_t tail = 1024);

  /// Appends sample number num_samples() (scene frame, [m]).
  void Append(const Eigen::Vector3d& p);
  /// Forgets every sample (a reset to trim starts a new path).
  void Clear();

  /// Writes the points to draw, oldest first, into `out` (cleared first):
  /// coarse samples older than the tail, then the whole tail, ending at the
  /// newest sample.
  void Collect(std::vector<Eigen::Vector3d>* out) const;

  std::size_t num_samples() const { return num_samples_; }
  std::size_t stride() const { return stride_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t tail_size() const { return tail_size_; }
  /// Bounds of every sample ever appended since the last Clear().
  const Bounds& bounds() const { return bounds_; }
  /// Upper limit of Collect()'s output size.
  std::size_t max_drawn() const { return capacity_ + tail_size_; }

 private:
  std::size_t capacity_, tail_size_;
  std::size_t num_samples_ = 0;
  std::size_t stride_ = 1;
  std::vector<Eigen::Vector3d> coarse_;  // sample k*stride_ at [k]
  std::vector<Eigen::Vector3d> tail_;    // ring buffer of the newest samples
  std::size_t tail_next_ = 0;            // ring write position
  Bounds bounds_;
};

}  // namespace aerolin::viz
