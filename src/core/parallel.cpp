#include "aerolin/core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <thread>
#include <vector>

namespace aerolin::core {

void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
  if (n == 0) return;
  std::size_t workers = threads > 0 ? static_cast<std::size_t>(threads)
                                    : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, n);
  // About 16 chunks per worker: few enough claims to cost nothing, enough to
  // even out uneven items and a worker that the system pauses.
  const std::size_t chunk = std::max<std::size_t>(1, n / (16 * workers));
  std::atomic<std::size_t> next{0};
  struct Failure {
    std::size_t item = std::numeric_limits<std::size_t>::max();
    std::exception_ptr error;
  };
  std::vector<Failure> failures(workers);
  auto work = [&](std::size_t w) {
    for (;;) {
      const std::size_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= n) return;
      const std::size_t end = std::min(n, begin + chunk);
      for (std::size_t k = begin; k < end; ++k) {
        try {
          body(k);
        } catch (...) {
          failures[w] = {k, std::current_exception()};
          return;
        }
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  // Chunks are claimed in increasing order and a worker stops only after a
  // failure, so the lowest failing item always ran: rethrowing it is
  // deterministic.
  const auto first = std::min_element(failures.begin(), failures.end(),
                                      [](const Failure& a, const Failure& b) { return a.item < b.item; });
  if (first->error) std::rethrow_exception(first->error);
}

}  // namespace aerolin::core
