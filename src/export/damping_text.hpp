#pragma once
// The one rule for a damping ratio in the text reports (internal to export):
// the heading root λ = 0 (ψ, a free integrator) has no ζ and every table
// shows "-" for it (`modes`, `sweep`, `locus`); any other root shows its ζ.
// JSON and CSV keep the number the analysis gives, 0 (as `modes --json`
// always has: analysis::Mode's damping_ratio of a root with ωn = 0).

#include <optional>
#include <string>

#include "aerolin/analysis/modes.hpp"

namespace aerolin::exporting {

/// Text a table prints for no damping ratio.
inline constexpr const char* kNoDampingRatio = "-";

/// True unless `kind` is the heading root, which has no damping ratio.
inline bool HasDampingRatio(std::optional<analysis::ModeKind> kind) {
  return kind != analysis::ModeKind::kHeading;
}

}  // namespace aerolin::exporting
