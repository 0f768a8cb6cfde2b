#pragma once
/// @file
/// Writes a live flight to disk as it happens: the CSV of `aerolin simulate`
/// (row by row) and the recorded pilot script, flushed on demand so a crash
/// loses at most the time since the last flush. The CSV file only ever
/// receives whole rows (each write() is a whole number of rows), so even a
/// `kill -9` leaves a valid CSV.

#include <Eigen/Core>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/sim/flight_log.hpp"

namespace aerolin::viz {

class FlightLogWriter {
 public:
  /// Creates `csv_path` (which must not exist: a log never overwrites
  /// another) and writes the header for `control_names` (then
  /// `NAME_surface` per control if `surfaces`, a flight with an
  /// augmentation or actuators, then `u_g,v_g,w_g,p_g` if `wind`, a flight
  /// with gusts: exporting::FlightCsvHeader); the script goes to
  /// `script_path`.
  /// @throws std::runtime_error if a file cannot be created, naming it and
  ///         the errno text ("File exists" if it is there already).
  FlightLogWriter(std::string csv_path, std::string script_path,
                  const std::vector<std::string>& control_names, bool wind = false,
                  bool surfaces = false);

  FlightLogWriter(const FlightLogWriter&) = delete;
  FlightLogWriter& operator=(const FlightLogWriter&) = delete;
  ~FlightLogWriter();
  /// Appends row (t, x, controls); held in memory until Flush() or until
  /// 64 kB of rows are pending, then written as whole rows.
  void AppendRow(double t, const sim::FlightState& x, const Eigen::VectorXd& controls);
  /// As above; the wind columns (u_g, v_g, w_g [m/s], p_g [rad/s], held over
  /// the slice ending at t) are written if the log was opened with `wind`.
  void AppendRow(double t, const sim::FlightState& x, const Eigen::VectorXd& controls,
                 const Eigen::Vector4d& wind);
  /// As above; the surfaces' deflections at t are written too if the log
  /// was opened with `surfaces`.
  void AppendRow(double t, const sim::FlightState& x, const Eigen::VectorXd& controls,
                 const Eigen::VectorXd& surfaces, const Eigen::Vector4d& wind);
  /// Writes the pending rows and replaces the script file with
  /// `script_text` (written to a temporary file, then renamed, so the file on
  /// disk is always a complete script).
  /// @throws std::runtime_error with the errno text if a write fails.
  void Flush(const std::string& script_text);

  const std::string& csv_path() const { return csv_path_; }
  const std::string& script_path() const { return script_path_; }

 private:
  std::string csv_path_, script_path_;
  void WritePending();
  int fd_ = -1;
  bool wind_ = false;
  bool surfaces_ = false;
  std::ostringstream pending_;
};

/// Checks that `stem` (aerolin-fly's --log-name) names files inside the log
/// directory: not empty, no '/', no "..", no NUL.
/// @throws std::invalid_argument "log name 'STEM': reason" otherwise.
void CheckLogStem(const std::string& stem);

/// Returns `stem` if no flight log of that stem is in `dir` (no
/// `<stem>-<N>.csv` or `<stem>-<N>.script.txt`, N a number; a missing `dir`
/// holds none), else the first free `<stem>_2`, `<stem>_3`, ... So a second
/// flight with the same --log-name (or in the same second, with the default
/// timestamp name) is logged beside the first instead of replacing it.
std::string FreeLogStem(const std::string& dir, const std::string& stem);

/// Returns a flight log's script text with its "# replay: " line
/// (FlightSession::ReplayCommand) pointed at a snapshot's copies: `--script
/// script_path` becomes `--script script_copy` and `--csv replay.csv` becomes
/// `--csv replay_csv`. Other lines are unchanged.
std::string RetargetReplayLine(const std::string& script_text, const std::string& script_path,
                               const std::string& script_copy, const std::string& replay_csv);

}  // namespace aerolin::viz
