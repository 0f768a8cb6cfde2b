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

/// The path of tests/fixtures/derivatives/`name`, and that directory.
inline std::string DerivativesFixture(const std::string& name = "") {
  return std::string(AEROLIN_SOURCE_DIR) + "/tests/fixtures/derivatives/" + name;
}

/// DataErrorOf(`load`) with the fixture directory removed wherever it
/// occurs, so the text reads "name:line: ..." (or "(no error)").
template <class Load>
std::string FixtureErrorOf(Load&& load) {
  std::string text = DataErrorOf(load);
  const std::string prefix = DerivativesFixture();
  for (std::size_t pos = text.find(prefix); pos != std::string::npos; pos = text.find(prefix))
    text.erase(pos, prefix.size());
  return text;
}

}  // namespace aerolin::data::test_support
