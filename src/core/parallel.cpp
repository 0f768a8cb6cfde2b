#include "aerolin/core/parallel.hpp"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace aerolin::core {

void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
  if (n == 0) return;
  std::size_t workers = threads > 0 ? static_cast<std::size_t>(threads)
                                    : std::max(1u, std::thread::hardware_concurrency());
  workers = std::min(workers, n);
  std::vector<std::exception_ptr> errors(workers);
  auto work = [&](std::size_t w) {
    try {
      for (std::size_t k = w; k < n; k += workers) body(k);
    } catch (...) {
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace aerolin::core
