#include "aerolin/viz/path_decimator.hpp"

#include <stdexcept>
#include <string>

namespace aerolin::viz {

PathDecimator::PathDecimator(std::size_t capacity, std::size_t tail)
    : capacity_(capacity), tail_size_(tail) {
  if (capacity < 4 || tail < 1)
    throw std::invalid_argument(
        "PathDecimator: need capacity >= 4 and tail >= 1, got capacity " +
        std::to_string(capacity) + ", tail " + std::to_string(tail));
  coarse_.reserve(capacity);
  tail_.reserve(tail);
}

void PathDecimator::Append(const Eigen::Vector3d& p) {
  bounds_.Extend(p);
  if (num_samples_ % stride_ == 0) {
    if (coarse_.size() == capacity_) {
      // Keep samples 0, 2·stride, 4·stride, ...: the stride doubles, the
      // store halves, and the kept samples stay evenly spaced in time.
      std::size_t kept = 0;
      for (std::size_t k = 0; k < coarse_.size(); k += 2) coarse_[kept++] = coarse_[k];
      coarse_.resize(kept);
      stride_ *= 2;
    }
    if (num_samples_ % stride_ == 0) coarse_.push_back(p);
  }
  if (tail_.size() < tail_size_) {
    tail_.push_back(p);
  } else {
    tail_[tail_next_] = p;
  }
  tail_next_ = (tail_next_ + 1) % tail_size_;
  ++num_samples_;
}

void PathDecimator::Clear() {
  num_samples_ = 0;
  stride_ = 1;
  coarse_.clear();
  tail_.clear();
  tail_next_ = 0;
  bounds_ = Bounds{};
}

void PathDecimator::Collect(std::vector<Eigen::Vector3d>* out) const {
  out->clear();
  const std::size_t in_tail = tail_.size();
  const std::size_t tail_start = num_samples_ - in_tail;  // first sample index in the tail
  for (std::size_t k = 0; k < coarse_.size() && k * stride_ < tail_start; ++k)
    out->push_back(coarse_[k]);
  // Oldest tail sample sits at tail_next_ once the ring is full, else at 0.
  const std::size_t first = in_tail < tail_size_ ? 0 : tail_next_;
  for (std::size_t i = 0; i < in_tail; ++i) out->push_back(tail_[(first + i) % tail_size_]);
}

}  // namespace aerolin::viz
