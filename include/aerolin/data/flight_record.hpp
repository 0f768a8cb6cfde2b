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
/// rows × columns doubles; a row is parsed in place, without allocating).

#include <Eigen/Core>
#include <istream>
#include <string>
#include <vector>

namespace aerolin::data {

/// Largest relative difference |step − dt|/dt between a sampling step and the
/// first one that still counts as even: the CSV's times are k·Δt written in
/// shortest round-trip form, whose differences agree with Δt to ~1e-12 even at
/// 10⁷ rows, while a skipped or repeated slice differs by 100 %.
inline constexpr double kSampleStepTolerance = 1e-6;

/// Samples of a flight, the columns asked for.
struct FlightRecord {
  std::string path;                  ///< where it was read from (for messages)
  std::vector<std::string> columns;  ///< "t" then the columns asked for, in that order
  Eigen::MatrixXd values;            ///< rows × columns, as written (SI, rad)
  double dt = 0;                     ///< sampling step [s]
  int first_line = 2;                ///< the file line of row 0

  Eigen::Index rows() const { return values.rows(); }
  /// Returns the index of `name` in `columns`, or −1.
  int IndexOf(const std::string& name) const;
};

/// Returns the columns `t` and `columns` (names as in the header) of the CSV
/// at `path`.
/// @throws core::DataError as described in the file comment; "path:0: cannot
///         open file" if it cannot be read.
FlightRecord ReadFlightCsv(const std::string& path, const std::vector<std::string>& columns,
                           int min_rows);

/// As above, from a stream; `path` is used in messages only.
FlightRecord ReadFlightCsv(std::istream& in, const std::string& path,
                           const std::vector<std::string>& columns, int min_rows);

}  // namespace aerolin::data
