#pragma once
// Test helpers for the loader tests: a text with one piece replaced (Edit),
// and the located message a load throws (DataErrorOf).

#include <gtest/gtest.h>

#include <string>

#include "aerolin/core/error.hpp"

namespace aerolin::data::test_support {

/// Returns `text` with its first `from` replaced by `to`; a failure (and
/// `text` unchanged) if `text` has no `from`.
inline std::string Edit(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The message of the core::DataError that `load()` throws, or `none` if it
/// throws none.
template <class Load>
std::string DataErrorOf(Load&& load, const std::string& none = "(no error)") {
  try {
    load();
  } catch (const core::DataError& e) {
    return e.what();
  }
  return none;
}

}  // namespace aerolin::data::test_support
