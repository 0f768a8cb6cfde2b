#pragma once
/// @file
/// Error types shared by every aerolin module (see STYLE.md, "Errors").

#include <stdexcept>
#include <string>
#include <vector>

namespace aerolin::core {

/// Where a value came from in an input file; `line` is 1-based (0: whole file).
struct SourceLocation {
  std::string path;
  int line = 0;
};

/// One located problem in an input file: "path:line: message".
struct Diagnostic {
  SourceLocation where;
  std::string message;

  /// Returns the compiler-style text "path:line: message".
  std::string ToString() const;
};

/// Thrown for any defect in a user-supplied file (data file, pilot script).
/// `what()` holds one "path:line: problem (hint)" line per defect, in the
/// compiler format, so editors can jump to each: the first
/// core::kMaxReportedDiagnostics of them, then "... and N more errors"
/// (core::JoinDiagnostics, core/messages.hpp); defects() keeps them all.
class DataError : public std::runtime_error {
 public:
  DataError(SourceLocation where, const std::string& message);
  /// @pre `defects` is not empty.
  explicit DataError(std::vector<Diagnostic> defects);
  const std::vector<Diagnostic>& defects() const { return defects_; }

 private:
  std::vector<Diagnostic> defects_;
};

/// Thrown when a numerical method fails (eigen-decomposition did not converge,
/// the integrator could not make progress, the state diverged).
class NumericalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace aerolin::core
