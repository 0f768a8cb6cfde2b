#include "aerolin/core/parallel.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace aerolin::core {
namespace {

TEST(ParallelFor, VisitsEveryIndexExactlyOnceForAnyThreadCount) {
  for (int threads : {0, 1, 2, 3, 64}) {
    std::vector<std::atomic<int>> visits(37);
    ParallelFor(visits.size(), threads, [&](std::size_t k) { ++visits[k]; });
    for (std::size_t k = 0; k < visits.size(); ++k)
      EXPECT_EQ(visits[k].load(), 1) << "k = " << k << ", threads = " << threads;
  }
  ParallelFor(0, 2, [](std::size_t) { FAIL() << "no item to visit"; });
}

TEST(ParallelFor, StridesItemsOverWorkersWithTheCallerAsWorkerZero) {
  std::vector<std::thread::id> who(10);
  ParallelFor(who.size(), 2, [&](std::size_t k) { who[k] = std::this_thread::get_id(); });
  for (std::size_t k = 0; k < who.size(); k += 2) EXPECT_EQ(who[k], std::this_thread::get_id());
  for (std::size_t k = 1; k < who.size(); k += 2) EXPECT_NE(who[k], std::this_thread::get_id());
}

TEST(ParallelFor, RethrowsTheFailureInTheCallersThreadAfterEveryWorkerFinished) {
  std::atomic<int> done{0};
  try {
    ParallelFor(8, 2, [&](std::size_t k) {
      if (k == 3) throw std::runtime_error("item 3 failed");
      ++done;
    });
    FAIL() << "expected the failure to be rethrown";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "item 3 failed");
  }
  // Worker 1 takes 1, 3, 5, 7 and stops at 3; worker 0 does 0, 2, 4, 6.
  EXPECT_EQ(done.load(), 5);
}

}  // namespace
}  // namespace aerolin::core
