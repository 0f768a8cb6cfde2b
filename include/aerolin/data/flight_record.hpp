#pragma once
/// @file
/// Reads a recorded flight back: the CSV that `aerolin simulate --csv` and the
/// flight window's log write (export/flight_csv.hpp: a header of column names,
/// then one row per sample, SI and radians), by column name.
///
/// The rows must be evenly sampled: every step t[i] − t[i−1] equals the first
/// step within kSampleStepTolerance of it. A defect is a core::DataError
/// "path:line: what is wrong (what to do)" on the line where it is found:
/// a missing column (naming the header's columns), a cell that is no number,
/// a row with NaN, a step that is uneven, a gap (a step that is a whole
/// number ≥ 2 of steps: rows missing), time that does not increase, fewer
/// rows than asked for. Only the columns asked for are kept (memory is
/// rows × columns doubles, read in chunks of 65 536 rows that are released as
/// the matrix is filled; a row is parsed in place, without allocating).
///
/// Any other CSV is read through a column map (`--columns` of `aerolin
/// identify`): aerolin's name = the CSV's column [: its unit], e.g.
/// `alpha=AoA_deg:deg,q=pitch_rate:deg/s,t=time_ms:ms`; each mapped value is
/// converted to SI once, as it is read, through core/units.hpp's table.
/// Columns not mapped are read by aerolin's own names, in SI.

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"

namespace aerolin::data {

/// Largest relative difference |step − dt|/dt between a sampling step and the
/// first one that still counts as even: the CSV's times are k·Δt written in
/// shortest round-trip form, whose differences agree with Δt to ~1e-12 even at
/// 10⁷ rows, while a skipped or repeated slice differs by 100 %.
inline constexpr double kSampleStepTolerance = 1e-6;

/// Samples of a flight, the columns asked for.
struct FlightRecord {
  std::string path;                  ///< where it was read from (for messages)
  std::vector<std::string> columns;  ///< "t" then the columns asked for, in that order (aerolin's names)
  Eigen::MatrixXd values;            ///< rows × columns, SI and rad (as written, or converted by a column map)
  double dt = 0;                     ///< sampling step [s]
  int first_line = 2;                ///< the file line of row 0

  Eigen::Index rows() const { return values.rows(); }
  /// Returns the index of `name` in `columns`, or −1.
  int IndexOf(const std::string& name) const;
};

/// One entry of a column map: aerolin's column `name` is read from the CSV's
/// column `column`, whose values are in `unit` (a spelling of
/// core::SpellingsOf for the name's SI unit; empty: that SI unit).
struct ColumnMapping {
  std::string name;    ///< "alpha"
  std::string column;  ///< "AoA_deg"
  std::string unit;    ///< "deg", or ""
};

/// Parses column map entries "NAME=COLUMN[:UNIT]" (as `--columns` splits them
/// at commas): the name up to the first '=', the unit after the last ':'.
/// @throws std::invalid_argument naming an entry without '=', an empty name
///         or column, or a name mapped twice.
std::vector<ColumnMapping> ParseColumnMap(const std::vector<std::string>& entries);

/// Where one column of a FlightRecord comes from.
struct ColumnSource {
  std::string name;    ///< aerolin's name ("alpha")
  std::string column;  ///< the CSV's header name ("AoA_deg"; = name if not mapped)
  std::string unit;    ///< as written in the CSV ("deg"; the SI symbol if not mapped)
  double to_si = 1.0;  ///< value_SI = value * to_si
  bool mapped = false; ///< named by the column map
};

/// Resolves the columns to read: `t` (s) then `wanted` (aerolin's signals,
/// whose units are SI), each from the CSV column `map` gives it, else from
/// its own name.
/// @throws std::invalid_argument (the map is wrong whatever the file says):
///         a name that is neither `t`, a wanted signal nor one of `ignored`
///         (names of another reading, e.g. the other axis, accepted and not
///         read), a unit that is not one of the quantity's (deg for a speed),
///         a CSV column that would be read for two names (mapped twice, or
///         mapped while it is another name's own).
std::vector<ColumnSource> ResolveColumns(const std::vector<core::Signal>& wanted,
                                         const std::vector<ColumnMapping>& map,
                                         const std::vector<std::string>& ignored = {});

/// Returns the columns `t` and `columns` (names as in the header) of the CSV
/// at `path`.
/// @throws core::DataError as described in the file comment; "path:0: cannot
///         open file" if it cannot be read.
FlightRecord ReadFlightCsv(const std::string& path, const std::vector<std::string>& columns,
                           int min_rows);

/// As above, from a stream; `path` is used in messages only.
FlightRecord ReadFlightCsv(std::istream& in, const std::string& path,
                           const std::vector<std::string>& columns, int min_rows);

/// Returns the columns `sources` (ResolveColumns: `t` first) of the CSV at
/// `path`, in SI; FlightRecord::columns holds their aerolin names. A mapped
/// column missing from the header is named with the name it was mapped to.
/// `progress`, if set, is called with the fraction of the file read (0–1),
/// when it passes each whole percent (checked every 65 536 lines) and at the end.
FlightRecord ReadFlightColumns(const std::string& path, const std::vector<ColumnSource>& sources, int min_rows,
                               const std::function<void(double)>& progress = {});

/// As above, from a stream; `path` is used in messages only; progress is
/// reported only if the stream's `size` in bytes is given.
FlightRecord ReadFlightColumns(std::istream& in, const std::string& path, const std::vector<ColumnSource>& sources,
                               int min_rows, const std::function<void(double)>& progress = {},
                               std::uintmax_t size = 0);

}  // namespace aerolin::data
