#include "aerolin/core/error.hpp"

#include <cassert>

namespace aerolin::core {

std::string Diagnostic::ToString() const {
  std::string text = where.path;
  text += ':';
  text += std::to_string(where.line);
  text += ": ";
  text += message;
  return text;
}

namespace {
std::string JoinLines(const std::vector<Diagnostic>& defects) {
  std::string text;
  for (const Diagnostic& d : defects) {
    if (!text.empty()) text += '\n';
    text += d.ToString();
  }
  return text;
}
}  // namespace

DataError::DataError(SourceLocation where, const std::string& message)
    : DataError(std::vector<Diagnostic>{{std::move(where), message}}) {}

DataError::DataError(std::vector<Diagnostic> defects)
    : std::runtime_error(JoinLines(defects)), defects_(std::move(defects)) {
  assert(!defects_.empty());
}

}  // namespace aerolin::core
