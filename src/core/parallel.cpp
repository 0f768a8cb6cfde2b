#include "aerolin/core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

namespace aerolin::core {
namespace {

struct Loop;

// A part of a loop (worker index w) offered to a warm worker.
struct Offer {
  std::shared_ptr<Loop> loop;
  std::size_t w = 0;
};

// Workers that finished their part of a loop stay awake for kWarmFor in case
// the next loop comes: a sweep runs several loops a few hundred µs apart, and
// waking a sleeping worker took 45–80 µs on the 2-core development machine
// (a loop of 64 items of 5 µs on 2 threads: 205–240 µs against the ideal
// 160), a large share of such a loop. A loop offers its parts to the warm
// workers first (no post, no wake-up) and posts the rest to the pool.
constexpr auto kWarmFor = std::chrono::microseconds(300);
struct Warm {
  std::mutex mutex;
  std::size_t idle = 0;      // warm workers no offer is reserved for
  std::vector<Offer> offers;  // parts offered, each taken by one warm worker
  std::atomic<std::size_t> pending{0};  // offers.size(), read while spinning without the lock
};

// The process's worker threads, started on the first parallel loop and kept
// (a sweep runs several loops per chunk of points; starting threads for each
// cost 20-50 µs a thread), with their warm state. One fewer than the hardware
// threads: the caller's thread works too. A process forked after they started
// has none of them, so a child makes its own (the parent's are left alone:
// their threads are not ours, and a lock may have been held at the fork).
struct Workers {
  boost::asio::thread_pool* pool = nullptr;
  Warm* warm = nullptr;
};
Workers TheWorkers() {
  static std::mutex mutex;
  static Workers workers;
  static pid_t owner = 0;
  const std::lock_guard<std::mutex> lock(mutex);
  if (workers.pool == nullptr || owner != ::getpid()) {
    const unsigned hardware = std::max(2u, std::thread::hardware_concurrency());
    workers.pool = new boost::asio::thread_pool(hardware - 1);  // never destroyed: workers idle at exit
    workers.warm = new Warm;  // never destroyed: a warm worker may still look at it at exit
    owner = ::getpid();
  }
  return workers;
}

void Pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

struct Failure {
  std::size_t item = std::numeric_limits<std::size_t>::max();
  std::exception_ptr error;
};

// One loop, shared by the caller and the workers it posts to: a worker that
// starts after every item is settled finds nothing to claim and leaves
// without touching `body`, so the caller waits for the items, not for the
// workers (and never for a worker busy elsewhere, e.g. in an enclosing loop).
struct Loop {
  Loop(std::size_t n_, std::size_t chunk_, std::size_t workers,
       const std::function<void(std::size_t)>& body_)
      : n(n_), chunk(chunk_), body(body_), failures(workers) {}
  const std::size_t n, chunk;
  const std::function<void(std::size_t)>& body;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> settled{0};  // items run, or given up after a failure
  std::vector<Failure> failures;        // [w]: worker w's failed item
  std::mutex mutex;
  std::condition_variable all_settled;

  void Settle(std::size_t count) {
    if (settled.fetch_add(count, std::memory_order_acq_rel) + count == n) {
      const std::lock_guard<std::mutex> lock(mutex);
      all_settled.notify_all();
    }
  }

  // Runs chunks until none is left; false if an item threw (the rest of its
  // chunk is given up and this worker takes no further chunks).
  bool Work(std::size_t w) {
    for (;;) {
      const std::size_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= n) return true;
      const std::size_t end = std::min(n, begin + chunk);
      for (std::size_t k = begin; k < end; ++k) {
        try {
          body(k);
        } catch (...) {
          failures[w] = {k, std::current_exception()};
          Settle(end - begin);
          return false;
        }
      }
      Settle(end - begin);
    }
  }

  // Gives up every chunk no worker has claimed: the caller's, after its own
  // item threw, since workers that have not started may never start (all
  // busy in an enclosing loop). Every given-up item lies above the caller's
  // failed item, so the lowest failure is still always found.
  void GiveUpTheRest() {
    for (;;) {
      const std::size_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= n) return;
      Settle(std::min(n, begin + chunk) - begin);
    }
  }
};

// A pool worker's task: its part of `loop`, then, while warm, the parts
// offered by the loops that come within kWarmFor of its last one. Every
// offer is taken: a worker leaves only when none is left, and a loop offers
// no more parts than there are warm workers not yet reserved.
void Help(Warm& warm, std::shared_ptr<Loop> loop, std::size_t w) {
  for (;;) {
    loop->Work(w);
    loop.reset();
    {
      const std::lock_guard<std::mutex> lock(warm.mutex);
      ++warm.idle;
    }
    const auto until = std::chrono::steady_clock::now() + kWarmFor;
    for (;;) {
      const bool late = std::chrono::steady_clock::now() >= until;
      if (late || warm.pending.load(std::memory_order_acquire) > 0) {
        const std::lock_guard<std::mutex> lock(warm.mutex);
        if (!warm.offers.empty()) {
          // Taking an offer leaves the warm set and the offers alike: idle is unchanged.
          loop = std::move(warm.offers.back().loop);
          w = warm.offers.back().w;
          warm.offers.pop_back();
          warm.pending.store(warm.offers.size(), std::memory_order_release);
          break;
        }
        if (late) {
          --warm.idle;
          return;
        }
      }
      Pause();
    }
  }
}

}  // namespace

int Threads(int threads) {
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void ParallelFor(std::size_t n, int threads, const std::function<void(std::size_t)>& body) {
  if (n == 0) return;
  const std::size_t workers = std::min(static_cast<std::size_t>(Threads(threads)), n);
  // About 16 chunks per worker: few enough claims to cost nothing, enough to
  // even out uneven items and a worker that the system pauses.
  const std::size_t chunk = std::max<std::size_t>(1, n / (16 * workers));
  const auto loop = std::make_shared<Loop>(n, chunk, workers, body);
  if (workers > 1) {
    const Workers pool = TheWorkers();
    std::size_t offered = 0;
    {
      const std::lock_guard<std::mutex> lock(pool.warm->mutex);
      offered = std::min(workers - 1, pool.warm->idle);
      pool.warm->idle -= offered;
      for (std::size_t w = 1; w <= offered; ++w) pool.warm->offers.push_back({loop, w});
      pool.warm->pending.store(pool.warm->offers.size(), std::memory_order_release);
    }
    for (std::size_t w = offered + 1; w < workers; ++w)
      boost::asio::post(*pool.pool, [warm = pool.warm, loop, w] { Help(*warm, loop, w); });
  }
  if (!loop->Work(0)) loop->GiveUpTheRest();
  {
    // The workers' last items usually settle within a few µs of the
    // caller's: wait for them awake for up to kWarmFor, as a warm worker
    // waits for the next loop, before sleeping on the condition (a sleep and
    // wake-up took tens of µs on the 2-core development machine, several
    // times per sweep: a 1000-point locus on 2 threads 1.38-1.39 -> 1.31-1.32 ms).
    const auto until = std::chrono::steady_clock::now() + kWarmFor;
    while (loop->settled.load(std::memory_order_acquire) != n && std::chrono::steady_clock::now() < until) Pause();
    std::unique_lock<std::mutex> lock(loop->mutex);
    loop->all_settled.wait(lock, [&] { return loop->settled.load(std::memory_order_acquire) == n; });
  }
  // Chunks are claimed in increasing order and a worker stops only after a
  // failure, so the lowest failing item always ran: rethrowing it is
  // deterministic.
  const auto first = std::min_element(loop->failures.begin(), loop->failures.end(),
                                      [](const Failure& a, const Failure& b) { return a.item < b.item; });
  if (first->error) std::rethrow_exception(first->error);
}

}  // namespace aerolin::core
