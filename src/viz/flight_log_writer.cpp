#include "aerolin/viz/flight_log_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "aerolin/core/files.hpp"
#include "aerolin/export/flight_csv.hpp"

namespace aerolin::viz {
namespace {

// Rows are handed to the file in one write() of whole rows once this much is
// pending (and at every Flush), so memory stays bounded between flushes.
constexpr std::size_t kMaxPendingBytes = 1 << 16;

}  // namespace

// The CSV format belongs to export/flight_csv (the one `aerolin simulate`
// writes): header and rows come from it, so a live log and a replayed one are
// the same bytes.
FlightLogWriter::FlightLogWriter(std::string csv_path, std::string script_path,
                                 const std::vector<std::string>& control_names, bool wind,
                                 bool surfaces)
    : csv_path_(std::move(csv_path)), script_path_(std::move(script_path)), wind_(wind),
      surfaces_(surfaces) {
  // O_EXCL: never truncate an earlier flight's log (FreeLogStem picks a free
  // name; this catches a race with another window logging there).
  fd_ = ::open(csv_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0)
    throw std::runtime_error("cannot write flight log '" + csv_path_ + "' (" +
                             std::strerror(errno) + ")");
  pending_ << exporting::FlightCsvHeader(control_names, wind, surfaces) << '\n';
  WritePending();
}

FlightLogWriter::~FlightLogWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void FlightLogWriter::AppendRow(double t, const sim::FlightState& x,
                                const Eigen::VectorXd& controls) {
  exporting::WriteFlightCsvRow(pending_, t, x, controls);
  if (static_cast<std::size_t>(pending_.tellp()) >= kMaxPendingBytes) WritePending();
}

void FlightLogWriter::AppendRow(double t, const sim::FlightState& x,
                                const Eigen::VectorXd& controls, const Eigen::Vector4d& wind) {
  if (!wind_) {
    AppendRow(t, x, controls);
    return;
  }
  exporting::WriteFlightCsvRow(pending_, t, x, controls, wind);
  if (static_cast<std::size_t>(pending_.tellp()) >= kMaxPendingBytes) WritePending();
}

void FlightLogWriter::AppendRow(double t, const sim::FlightState& x, const Eigen::VectorXd& controls,
                                const Eigen::VectorXd& surfaces, const Eigen::Vector4d& wind) {
  exporting::WriteFlightCsvRow(pending_, t, x, controls, surfaces_ ? &surfaces : nullptr, wind_ ? &wind : nullptr);
  if (static_cast<std::size_t>(pending_.tellp()) >= kMaxPendingBytes) WritePending();
}

void FlightLogWriter::WritePending() {
  const std::string rows = pending_.str();
  pending_.str({});
  pending_.clear();
  std::size_t done = 0;
  while (done < rows.size()) {
    const ssize_t n = ::write(fd_, rows.data() + done, rows.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write flight log '" + csv_path_ + "' (" +
                               std::strerror(errno) + ")");
    }
    done += static_cast<std::size_t>(n);
  }
}

void FlightLogWriter::Flush(const std::string& script_text) {
  WritePending();
  core::WriteFileAtomically(script_path_, script_text);
}

void CheckLogStem(const std::string& stem) {
  const auto refuse = [&](const std::string& reason) {
    throw std::invalid_argument("log name '" + stem + "': " + reason);
  };
  if (stem.empty()) refuse("empty; give a file name stem such as 'flight'");
  if (stem.find('/') != std::string::npos || stem.find("..") != std::string::npos)
    refuse("may not contain '/' or '..' (the log stays in its directory; use --log-dir to move it)");
  if (stem.find('\0') != std::string::npos) refuse("contains a NUL byte");
}

namespace {

// True if `name` is `<stem>-<digits>.csv` or `<stem>-<digits>.script.txt`.
bool IsLogOf(const std::string& name, const std::string& stem) {
  if (name.size() <= stem.size() + 1 || name.compare(0, stem.size(), stem) != 0 ||
      name[stem.size()] != '-')
    return false;
  std::size_t i = stem.size() + 1;
  const std::size_t digits = i;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
  if (i == digits) return false;
  const std::string rest = name.substr(i);
  return rest == ".csv" || rest == ".script.txt";
}

}  // namespace

std::string FreeLogStem(const std::string& dir, const std::string& stem) {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    names.push_back(it->path().filename().string());
  const auto taken = [&](const std::string& candidate) {
    for (const std::string& name : names)
      if (IsLogOf(name, candidate)) return true;
    return false;
  };
  if (!taken(stem)) return stem;
  for (int k = 2;; ++k) {
    const std::string candidate = stem + "_" + std::to_string(k);
    if (!taken(candidate)) return candidate;
  }
}

std::string RetargetReplayLine(const std::string& script_text, const std::string& script_path,
                               const std::string& script_copy, const std::string& replay_csv) {
  const std::string marker = "# replay: ";
  std::size_t begin = 0;  // the start of the replay line
  while (script_text.compare(begin, marker.size(), marker) != 0) {
    const std::size_t newline = script_text.find('\n', begin);
    if (newline == std::string::npos) return script_text;
    begin = newline + 1;
  }
  std::size_t end = script_text.find('\n', begin);
  if (end == std::string::npos) end = script_text.size();
  std::string line = script_text.substr(begin, end - begin);
  auto replace = [&line](const std::string& from, const std::string& to) {
    const std::size_t at = line.find(from);
    if (at != std::string::npos) line.replace(at, from.size(), to);
  };
  replace(" --script " + script_path, " --script " + script_copy);
  replace(" --csv replay.csv", " --csv " + replay_csv);
  return script_text.substr(0, begin) + line + script_text.substr(end);
}

}  // namespace aerolin::viz
