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
/// rows than asked for. Only the columns asked for are kept; a row is parsed
/// in place, without allocating. The rows are handed on in chunks as they are
/// read (ReadFlightChunks), collected into one matrix (ReadFlightColumns:
/// rows × columns doubles), or kept on disk to be read again and again
/// (SpooledFlight: memory of one chunk, whatever the flight's length).
///
/// Any other CSV is read through a column map (`--columns` of `aerolin
/// identify`): aerolin's name = the CSV's column [: its unit], e.g.
/// `alpha=AoA_deg:deg,q=pitch_rate:deg/s,t=time_ms:ms`; each mapped value is
/// converted to SI once, as it is read, through core/units.hpp's table.
/// Columns not mapped are read by aerolin's own names, in SI.

#include <Eigen/Core>
#include <cstdint>
#include <fstream>
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

/// Rows of a flight as read: one sample a row (row-major), SI and rad.
using FlightRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Called with consecutive chunks of a flight's rows, in order: the index of
/// the chunk's first row and its rows.
using FlightChunkFunction = std::function<void(Eigen::Index first_row, const FlightRows& rows)>;

/// Most rows in a chunk of ReadFlightChunks and SpooledFlight::Replay.
inline constexpr Eigen::Index kFlightChunkRows = 16384;

/// What reading a flight found, besides its values.
struct FlightShape {
  std::string path;                  ///< where it was read from (for messages)
  std::vector<std::string> columns;  ///< "t" then the columns asked for, in that order (aerolin's names)
  Eigen::Index rows = 0;             ///< samples
  double dt = 0;                     ///< sampling step [s]
  int first_line = 2;                ///< the file line of row 0
};

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

/// Reads the CSV from `in` as ReadFlightColumns does, handing its rows on as
/// they are read: `chunk` gets the columns `sources` (`t` first), SI, in
/// chunks of kFlightChunkRows rows (the last may be shorter); nothing is kept.
/// A defect found after some chunks were handed on still throws.
/// @throws core::DataError as ReadFlightColumns.
FlightShape ReadFlightChunks(std::istream& in, const std::string& path, const std::vector<ColumnSource>& sources,
                             int min_rows, const FlightChunkFunction& chunk,
                             const std::function<void(double)>& progress = {}, std::uintmax_t size = 0);

/// A flight read once from its CSV and kept, to be read again pass after
/// pass, as doubles in an unnamed temporary file (core::OpenScratchFile, in
/// $TMPDIR): 8 bytes per row and column after `t`, on disk, not in memory.
/// Reading it back is much faster than parsing the text again, and a flight
/// on standard input or a pipe, which cannot be read twice, works the same.
/// Memory: one chunk (kFlightChunkRows rows).
class SpooledFlight {
 public:
  /// Reads the CSV at `path` (ReadFlightColumns: every defect is found
  /// here) into the temporary file.
  /// @throws core::DataError as ReadFlightColumns; std::runtime_error if the
  ///         temporary file cannot be made or written (a full disk), naming
  ///         where and the space it needs.
  SpooledFlight(const std::string& path, const std::vector<ColumnSource>& sources, int min_rows,
                const std::function<void(double)>& progress = {});
  /// As above, from a stream (`path` for messages; `size` for progress).
  SpooledFlight(std::istream& in, const std::string& path, const std::vector<ColumnSource>& sources, int min_rows,
                const std::function<void(double)>& progress = {}, std::uintmax_t size = 0);

  /// Rows, step, columns (`t` first) and path of the flight.
  const FlightShape& shape() const { return shape_; }
  /// Calls chunk(first_row, rows) for every row in order, in chunks of
  /// kFlightChunkRows rows: the columns after `t` (rows × (columns − 1)).
  /// @throws std::runtime_error if the temporary file cannot be read back.
  void Replay(const FlightChunkFunction& chunk);

 private:
  FlightShape shape_;
  std::fstream file_;
};

}  // namespace aerolin::data
