#pragma once
// A long run's progress on a terminal (simulate, identify): one line of
// stderr rewritten in place, from kProgressAfter of wall-clock time on (a short
// run shows nothing), at most every kProgressEvery, erased by Erase() (or on
// destruction) before what follows. The caller decides whether stderr is a
// terminal.

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>

namespace aerolin::cli {

class TerminalLine {
 public:
  static constexpr std::chrono::milliseconds kProgressAfter{2000};
  static constexpr std::chrono::milliseconds kProgressEvery{250};

  ~TerminalLine() { Erase(); }
  /// True (and the clock restarted) when a new line may be shown now.
  bool Due() {
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < kProgressAfter || now - last_ < kProgressEvery) return false;
    last_ = now;
    return true;
  }
  /// Rewrites the line with `text` (blanking what a longer line left).
  void Show(const std::string& text) {
    const int length = static_cast<int>(text.size());
    std::cerr << '\r' << text << std::string(static_cast<std::size_t>(std::max(0, width_ - length)), ' ')
              << std::flush;
    width_ = std::max(width_, length);
  }
  void Erase() {
    if (width_ == 0) return;
    std::cerr << '\r' << std::string(static_cast<std::size_t>(width_), ' ') << '\r' << std::flush;
    width_ = 0;
  }

 private:
  int width_ = 0;  // of the longest line shown; 0: none shown
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace aerolin::cli
