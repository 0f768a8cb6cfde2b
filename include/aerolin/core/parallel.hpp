#pragma once
/// @file
/// A strided parallel loop for independent work items (sweep points, grid
/// points), with the first failure rethrown in the caller's thread.

#include <cstddef>
#include <functional>

namespace aerolin::core {

/// Calls `body(k)` for every k in [0, n): worker w of W takes k = w, w + W,
/// ..., so the assignment is deterministic. W = `threads` if > 0, else the
/// hardware concurrency, and never more than n; the caller's thread is worker
/// 0. After all workers have finished, rethrows the exception of the lowest
/// worker that failed (a failed worker stops its own items only).
void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body);

}  // namespace aerolin::core
