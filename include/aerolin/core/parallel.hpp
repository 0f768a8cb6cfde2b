#pragma once
/// @file
/// A parallel loop for independent work items (sweep points, grid points),
/// with the lowest-numbered failure rethrown in the caller's thread.

#include <cstddef>
#include <functional>

namespace aerolin::core {

/// Calls `body(k)` for every k in [0, n) on W threads: W = `threads` if > 0,
/// else the hardware concurrency, and never more than n; the caller's thread
/// is one of them. Workers claim runs of consecutive items (about 16 runs per
/// worker) in increasing order as they become free, so a slow item or a
/// worker the system pauses does not hold the others back; which thread runs
/// an item is not fixed, so items must be independent. A worker whose item
/// throws takes no further items (when it is the caller's thread, the items
/// no worker has taken yet are not run); after every item taken has finished,
/// the exception of the lowest-numbered failed item is rethrown (always the
/// same one: every item below it has run). The workers besides the caller's
/// thread are the process's, started once and kept (Boost.Asio's thread
/// pool, one fewer than the hardware threads); a worker that finished its
/// part of a loop stays awake (spinning) for 300 µs and takes a part of the
/// next loop that comes within that time, without a wake-up. A loop inside
/// another loop's item never waits for a busy worker: the caller runs what
/// none takes.
void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body);

/// The threads a `threads` option asks for: itself if > 0, else the hardware
/// concurrency (at least 1), as ParallelFor reads it.
int Threads(int threads);

}  // namespace aerolin::core
