#pragma once
/// @file
/// What a message may echo of user input, and how many messages one report
/// prints: the bounds on error floods (issue #27). Used by every reader and
/// front end, so a file of 300 000 unknown keys or a 20 MB token cannot
/// flood the terminal, and a name cannot drive it.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/core/error.hpp"

namespace aerolin::core {

/// Most diagnostics (errors, or warnings) one report prints: the first
/// kMaxReportedDiagnostics, then "... and N more" (a file of 300 000 unknown
/// keys printed 41 MB of errors). The one place this number lives.
inline constexpr std::size_t kMaxReportedDiagnostics = 20;

/// Most characters of user text (a key, a token, a name) a message echoes;
/// longer text is clipped with "…" (a 20 MB script token was echoed whole).
inline constexpr std::size_t kMaxEchoedChars = 60;

/// `text` as a message or report may print it: control characters (C0,
/// DEL, C1) escaped as "\x1b" / "\u009b", so a name or key cannot drive the
/// terminal, and, when `clip`, cut after kMaxEchoedChars characters (UTF-8
/// code points) with "…". Bytes that are not UTF-8 are escaped as "\xff".
std::string Printable(std::string_view text, bool clip = true);

/// Joins "path:line: message" lines, at most kMaxReportedDiagnostics of
/// them, then one line "... and N more errors" (`noun`: "errors",
/// "warnings") when there are more; `prefix` (e.g. "warning: ") starts every
/// line. No final newline. DataError's what() is this text (its defects()
/// keep them all).
std::string JoinDiagnostics(const std::vector<Diagnostic>& diagnostics,
                            std::string_view noun = "errors", std::string_view prefix = {});

}  // namespace aerolin::core
