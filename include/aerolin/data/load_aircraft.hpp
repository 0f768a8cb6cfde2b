#pragma once
/// @file
/// Reads an aircraft data file (TOML, format in data/derivatives/README.md)
/// into SI, normalized, primed `model::AircraftData`. The reader reads values,
/// locates them and reports defects; the conversions (raw → normalized,
/// w/v → α/β, priming) are model::Convert's (model/conversions.hpp), and the
/// keys and their dimensions come from the parameter table
/// (model/parameters.hpp).

#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/as_written.hpp"

namespace aerolin::data {

/// A loaded aircraft plus the warnings (implausible signs, likely
/// degree/radian mix-ups) that did not stop the load.
struct LoadResult {
  model::AircraftData aircraft;
  std::vector<core::Diagnostic> warnings;
  /// What the file gives that a flight (sim::FlightModel) cannot carry,
  /// located, one sentence each with what to do: more actuators and washout
  /// filters than model::kMaxAuxiliaryStates. Empty: it flies.
  /// RequireFlyable throws them.
  std::vector<core::Diagnostic> not_flyable;
  /// Each loop through a washout filter, located ("the loop rudder:r in
  /// [augmentation.lateral] has a washout (washout_s)"), for the commands
  /// that cannot carry its filter state yet (RefuseWashout).
  std::vector<core::Diagnostic> washout_loops;
  /// The file's numbers as written (keys, their values in the file's units
  /// and SI factors) and its forms, for sensitivities and sweeps.
  model::AircraftFile file;
  /// The unit system the file declares (`[condition] units`), for numbers
  /// given elsewhere in the file's units (e.g. command-line flags).
  core::UnitSystem units = core::UnitSystem::kSI;
  /// For a file with a `form = "coefficients"` section (or an AVL `.st`):
  /// the raw dimensional derivatives its coefficients produced
  /// (model::ToDimensional: SI, raw, w/v-form, unprimed), for display next to
  /// a textbook's dimensional table. Absent for a dimensional file; in a
  /// file with one coefficient section, the other section is left default
  /// (raw = false) and the controls flag only their coefficient parts.
  std::optional<model::AircraftAsWritten> from_coefficients;
  /// For a file with `[aerodynamics] avl_st`: the assumptions the AVL
  /// conversion applied (data/avl_coefficients.hpp), one sentence each — not
  /// warnings (nothing is wrong), for a verbose display.
  std::vector<std::string> avl_notes;
  /// Every file the load read: the aircraft file itself (LoadAircraftFile;
  /// not LoadAircraftString, whose text is in memory), then each file it names
  /// (an AVL `.st`, a `.mass`) as opened, relative to the working directory.
  /// The inputs an output of the same run must not replace
  /// (core::CheckOutputPath).
  std::vector<std::string> files;
};

/// Returns the aircraft in `path`, converted once to SI.
/// @throws core::DataError listing every defect found, one
///         "path:line: problem (hint)" line each; a file that cannot be
///         opened is reported as "path:0: cannot open file".
LoadResult LoadAircraftFile(const std::string& path);

/// Checks that the flight can fly `load`'s aircraft (the front ends of a
/// flight: simulate, plot, sweep, identify, the window, Python's simulate
/// and monte_carlo call it after loading).
/// @throws core::DataError with LoadResult::not_flyable, one
///         "path:line: ..." line each, saying why and what to do.
void RequireFlyable(const LoadResult& load);

/// Refuses `load`'s loops through a washout filter for a command that cannot
/// carry the filter's state (sweep, Python's monte_carlo).
/// @throws core::DataError with LoadResult::washout_loops, one
///         "path:line: the loop ... has a washout (washout_s): `why`" line
///         each, if there are any.
void RefuseWashout(const LoadResult& load, const std::string& why);

/// As LoadAircraftFile, for TOML text already in memory; `path` is used in
/// messages only.
LoadResult LoadAircraftString(const std::string& text, const std::string& path);

}  // namespace aerolin::data
