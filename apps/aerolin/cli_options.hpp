#pragma once
// The option helpers of the aerolin CLI: validators and the options several
// commands share. Only the files that register options include this header
// (and with it CLI11, which costs seconds of compile time per file); the
// rest of the CLI's helpers are in cli_common.hpp.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli_common.hpp"

namespace aerolin::cli {

/// An output path flag's check: a non-empty path ("--csv ''" would mean
/// nothing, and `--out ''` wrote `_trajectory.png` into the current
/// directory). Every output flag uses it.
CLI::Validator OutputPathValidator();

/// A finite number > 0. CLI::PositiveNumber lets "nan" through (every
/// comparison with NaN is false) and "inf"; every numeric flag uses these.
CLI::Validator PositiveFinite();
/// A finite number >= 0.
CLI::Validator NonNegativeFinite();
/// Any finite number.
CLI::Validator Finite();
/// A non-empty value: `--class ''` or `--maximize ''` would otherwise mean
/// "not given" and run as if the flag were absent. `what` names the value
/// ("an airplane class") in "expected WHAT, got ''".
CLI::Validator NonEmpty(const std::string& what);

/// Adds `--format` (png, svg, eps, pdf; comma-separated, any case, stored
/// lower-case; default png) and `--width`/`--height` (200 to 8192 px: the
/// flight window's limits, 8192² RGBA being 256 MB) for the figures of `cmd`.
void AddFigureOptions(CLI::App& cmd, std::vector<std::string>& formats, int& width, int& height);

/// As AddFigureOptions with the size spelled `--plot-width`/`--plot-height`,
/// for a command whose `--height` means something else (`rms`: the
/// turbulence's height above ground). `--width` is refused there with a
/// message naming the right flags, so `--width 800 --height 600` is not read
/// as an image width and a 600 ft turbulence height.
void AddPlotFigureOptions(CLI::App& cmd, std::vector<std::string>& formats, int& width, int& height);

/// Adds only `--width`/`--height` of AddFigureOptions (figures always PNG).
void AddFigureSizeOptions(CLI::App& cmd, int& width, int& height);

/// Adds `--units si|imperial` (any case, stored lower-case; default si),
/// described by `description`, to `cmd`; core::ParseUnitSystem reads it.
void AddUnitsOption(CLI::App& cmd, std::string& units, const std::string& description);

/// Adds the positional FILE argument (must exist) and --strict to `cmd`.
void AddAircraftFileArgument(CLI::App& cmd, std::string& path);

}  // namespace aerolin::cli
