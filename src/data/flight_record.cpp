#include "aerolin/data/flight_record.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::data {
namespace {

std::string_view TrimCell(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Calls f(index, cell) for each comma-separated cell of `line`.
template <class F>
int ForEachCell(std::string_view line, F f) {
  int index = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    f(index++, TrimCell(line.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                         : comma - start)));
    if (comma == std::string_view::npos) return index;
    start = comma + 1;
  }
}

std::string Join(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The entry as typed back: "alpha=AoA_deg:deg".
std::string EntryText(const ColumnMapping& m) { return m.name + "=" + m.column + (m.unit.empty() ? "" : ":" + m.unit); }

// "column 'u'", or "column 'AoA_deg' (alpha)" for a mapped one.
std::string ColumnText(const ColumnSource& s) {
  return "column '" + s.column + "'" + (s.mapped ? " (" + s.name + ")" : "");
}

}  // namespace

std::vector<ColumnMapping> ParseColumnMap(const std::vector<std::string>& entries) {
  std::vector<ColumnMapping> out;
  for (const std::string& entry : entries) {
    const std::size_t eq = entry.find('=');
    ColumnMapping m;
    if (eq != std::string::npos) {
      m.name = std::string(TrimCell(std::string_view(entry).substr(0, eq)));
      const std::string_view rest = std::string_view(entry).substr(eq + 1);
      const std::size_t colon = rest.rfind(':');
      m.column = std::string(TrimCell(rest.substr(0, colon)));
      if (colon != std::string_view::npos) m.unit = std::string(TrimCell(rest.substr(colon + 1)));
    }
    if (eq == std::string::npos || m.name.empty() || m.column.empty() ||
        (m.unit.empty() && entry.find(':', eq) != std::string::npos))
      throw std::invalid_argument("'" + entry +
                                  "' is not NAME=COLUMN or NAME=COLUMN:UNIT (aerolin's name, the CSV's column, "
                                  "its unit; e.g. alpha=AoA_deg:deg)");
    for (const ColumnMapping& before : out)
      if (before.name == m.name)
        throw std::invalid_argument(m.name + " is mapped twice ('" + EntryText(before) + "' and '" + EntryText(m) +
                                    "'): keep one");
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<ColumnSource> ResolveColumns(const std::vector<core::Signal>& wanted,
                                         const std::vector<ColumnMapping>& map,
                                         const std::vector<std::string>& ignored) {
  std::vector<core::Signal> signals{{"t", core::Unit::kSecond, "t"}};
  for (const core::Signal& s : wanted)
    if (s.name != "t") signals.push_back(s);
  std::vector<std::string> names;
  for (const core::Signal& s : signals) names.push_back(s.name);
  for (const ColumnMapping& m : map) {
    const bool read = std::find(names.begin(), names.end(), m.name) != names.end();
    const bool other = std::find(ignored.begin(), ignored.end(), m.name) != ignored.end();
    if (!read && !other)
      throw std::invalid_argument("'" + EntryText(m) + "': " + m.name + " is not a name aerolin reads here (" +
                                  Join(names) + (ignored.empty() ? "" : "; also accepted: " + Join(ignored)) + ")");
  }
  std::vector<ColumnSource> out;
  for (const core::Signal& s : signals) {
    ColumnSource source{s.name, s.name, std::string(core::ToString(s.unit)), 1.0, false};
    for (const ColumnMapping& m : map) {
      if (m.name != s.name) continue;
      source.column = m.column;
      source.mapped = true;
      if (!m.unit.empty()) {
        const std::optional<double> to_si = core::ToSIFactor(s.unit, m.unit);
        if (!to_si) {
          std::vector<std::string> units;
          for (const core::UnitSpelling& u : core::SpellingsOf(s.unit)) units.emplace_back(u.spelling);
          throw std::invalid_argument("'" + EntryText(m) + "': " + m.unit + " is not a unit of " + s.name + " (a " +
                                      std::string(core::ToString(s.unit)) + " quantity: write " + Join(units) + ")");
        }
        source.unit = m.unit;
        source.to_si = *to_si;
      }
    }
    out.push_back(std::move(source));
  }
  // Each CSV column is one quantity.
  for (std::size_t i = 0; i < out.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      if (out[i].column != out[j].column) continue;
      const ColumnSource &first = out[j], &second = out[i];
      if (first.mapped && second.mapped)
        throw std::invalid_argument(fmt::format("{} and {} are both mapped to the CSV column '{}' (each column is "
                                                "one quantity: map each to its own)",
                                                first.name, second.name, first.column));
      const ColumnSource& mapped = first.mapped ? first : second;
      const ColumnSource& own = first.mapped ? second : first;
      throw std::invalid_argument(fmt::format("{} is mapped to the CSV column '{}', which is also {}'s own (not "
                                              "mapped): map {} to its column too",
                                              mapped.name, mapped.column, own.name, own.name));
    }
  return out;
}

int FlightRecord::IndexOf(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

FlightRecord ReadFlightCsv(const std::string& path, const std::vector<std::string>& columns,
                           int min_rows) {
  std::ifstream in(path);
  if (!in) throw core::DataError({path, 0}, "cannot open file");
  return ReadFlightCsv(in, path, columns, min_rows);
}

FlightRecord ReadFlightCsv(std::istream& in, const std::string& path,
                           const std::vector<std::string>& columns, int min_rows) {
  std::vector<ColumnSource> sources{{"t", "t", "s", 1.0, false}};
  for (const std::string& c : columns)
    if (c != "t") sources.push_back({c, c, "", 1.0, false});
  return ReadFlightColumns(in, path, sources, min_rows);
}

FlightRecord ReadFlightColumns(const std::string& path, const std::vector<ColumnSource>& sources, int min_rows,
                               const std::function<void(double)>& progress) {
  std::ifstream in(path);
  if (!in) throw core::DataError({path, 0}, "cannot open file");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::is_regular_file(path, error) ? std::filesystem::file_size(path, error) : 0;
  return ReadFlightColumns(in, path, sources, min_rows, progress, error ? 0 : size);
}

FlightRecord ReadFlightColumns(std::istream& in, const std::string& path, const std::vector<ColumnSource>& sources,
                               int min_rows, const std::function<void(double)>& progress, std::uintmax_t size) {
  // The chunks as read, then one column-major matrix, each chunk released as
  // it is copied (no regrowth of one large buffer, which would briefly hold
  // the flight three times).
  std::vector<FlightRows> chunks;
  const FlightShape shape = ReadFlightChunks(
      in, path, sources, min_rows, [&](Eigen::Index, const FlightRows& rows) { chunks.push_back(rows); }, progress,
      size);
  FlightRecord record;
  record.path = shape.path;
  record.columns = shape.columns;
  record.dt = shape.dt;
  record.first_line = shape.first_line;
  record.values.resize(shape.rows, static_cast<Eigen::Index>(shape.columns.size()));
  Eigen::Index row = 0;
  for (FlightRows& chunk : chunks) {
    record.values.middleRows(row, chunk.rows()) = chunk;
    row += chunk.rows();
    FlightRows().swap(chunk);
  }
  return record;
}

FlightShape ReadFlightChunks(std::istream& in, const std::string& path, const std::vector<ColumnSource>& sources,
                             int min_rows, const FlightChunkFunction& chunk,
                             const std::function<void(double)>& progress, std::uintmax_t size) {
  FlightShape record;
  record.path = path;
  for (const ColumnSource& s : sources) record.columns.push_back(s.name);
  const std::size_t wanted = record.columns.size();

  std::string line;
  int line_number = 0;
  // The header: the first line that is not blank.
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++line_number;
    if (TrimCell(line).empty()) continue;
    ForEachCell(line, [&](int, std::string_view cell) { header.emplace_back(cell); });
  }
  if (header.empty()) throw core::DataError({path, 1}, "empty file (expected a header line: t,u,alpha,...)");
  const int header_line = line_number;
  // Column of the file that holds each wanted column; −1: none.
  std::vector<int> source(wanted, -1);
  std::vector<int> target(header.size(), -1);
  for (std::size_t w = 0; w < wanted; ++w) {
    for (std::size_t h = 0; h < header.size(); ++h)
      if (header[h] == sources[w].column) source[w] = static_cast<int>(h);
    if (source[w] < 0)
      throw core::DataError({path, header_line},
                            "no column '" + sources[w].column + "' (" +
                                (sources[w].mapped ? "the column map reads " + sources[w].name + " from it; " : "") +
                                "the header has: " + Join(header) +
                                (sources[w].mapped ? ")"
                                                   : "; aerolin simulate --csv writes t, the states and the "
                                                     "controls)"));
    target[static_cast<std::size_t>(source[w])] = static_cast<int>(w);
  }

  // The rows go into a chunk, handed on when it is full.
  FlightRows rows(kFlightChunkRows, static_cast<Eigen::Index>(wanted));
  Eigen::Index filled = 0;
  Eigen::Index n = 0;
  std::vector<double> row(wanted);
  double previous_t = 0;
  std::uintmax_t bytes = static_cast<std::uintmax_t>(in.tellg() > 0 ? static_cast<std::uintmax_t>(in.tellg()) : 0);
  int percent = -1;
  while (std::getline(in, line)) {
    ++line_number;
    bytes += line.size() + 1;
    if (progress && size > 0 && (line_number & 0xffff) == 0) {
      const int now = static_cast<int>(std::min<std::uintmax_t>(100, 100 * bytes / size));
      if (now != percent) progress(static_cast<double>(now) / 100.0), percent = now;
    }
    if (TrimCell(line).empty()) continue;
    if (n == 0) record.first_line = line_number;
    bool nan = false;
    const int cells = ForEachCell(line, [&](int h, std::string_view cell) {
      if (h >= static_cast<int>(target.size()) || target[static_cast<std::size_t>(h)] < 0) return;
      const std::size_t w = static_cast<std::size_t>(target[static_cast<std::size_t>(h)]);
      double v = 0;
      if (cell.empty() || cell == "nan" || cell == "NaN" || cell == "-nan") {
        nan = true;
        v = std::nan("");
      } else {
        const auto [ptr, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
        if (ec != std::errc() || ptr != cell.data() + cell.size())
          throw core::DataError({path, line_number},
                                ColumnText(sources[w]) + ": '" + std::string(cell) +
                                    "' is not a number (every cell of a flight must be a number)");
        if (std::isnan(v)) nan = true;
        if (std::isinf(v))
          throw core::DataError({path, line_number},
                                ColumnText(sources[w]) + " is infinite (remove the row's flight or the row)");
        if (sources[w].mapped) v *= sources[w].to_si;  // once, as read: SI from here on
      }
      row[w] = v;
    });
    if (cells != static_cast<int>(header.size()))
      throw core::DataError({path, line_number},
                            fmt::format("{} cells, the header has {} (every row needs one cell per column)",
                                        cells, header.size()));
    if (nan)
      throw core::DataError({path, line_number},
                            "a NaN (or empty) cell in the columns used (identification needs every sample; "
                            "cut the record before or after it)");
    const double t = row[0];
    if (n == 1) {
      record.dt = t - previous_t;
      if (!(record.dt > 0))
        throw core::DataError({path, line_number},
                              fmt::format("t = {} does not increase (previous row t = {})", t, previous_t));
    } else if (n > 1) {
      const double step = t - previous_t;
      if (std::abs(step - record.dt) > kSampleStepTolerance * record.dt) {
        const double steps = step / record.dt;
        if (!(step > 0))
          throw core::DataError({path, line_number},
                                fmt::format("t = {} does not increase (previous row t = {})", t, previous_t));
        if (steps > 1.5 && std::abs(steps - std::round(steps)) <= kSampleStepTolerance * steps)
          throw core::DataError(
              {path, line_number},
              fmt::format("a gap: t jumps from {} to {}, {} samples of step {} s missing (identify "
                          "needs one even record; split it at the gap)",
                          previous_t, t, std::lround(steps) - 1, record.dt));
        throw core::DataError(
            {path, line_number},
            fmt::format("uneven sampling: step {:.6g} s from t = {}, expected {:.6g} s (the first step) "
                        "within a relative {} (resample the record to one step)",
                        step, previous_t, record.dt, kSampleStepTolerance));
      }
    }
    previous_t = t;
    rows.row(filled) = Eigen::Map<const Eigen::RowVectorXd>(row.data(), static_cast<Eigen::Index>(wanted));
    if (++filled == kFlightChunkRows) {
      chunk(n + 1 - filled, rows);
      filled = 0;
    }
    ++n;
  }
  if (n < min_rows)
    throw core::DataError({path, line_number},
                          fmt::format("{} rows of samples, at least {} needed", n, min_rows));
  if (filled > 0) {
    rows.conservativeResize(filled, Eigen::NoChange);
    chunk(n - filled, rows);
  }
  if (progress && size > 0 && percent != 100) progress(1.0);
  record.rows = n;
  return record;
}

SpooledFlight::SpooledFlight(const std::string& path, const std::vector<ColumnSource>& sources, int min_rows,
                             const std::function<void(double)>& progress) {
  std::ifstream in(path);
  if (!in) throw core::DataError({path, 0}, "cannot open file");
  std::error_code error;
  const std::uintmax_t size = std::filesystem::is_regular_file(path, error) ? std::filesystem::file_size(path, error) : 0;
  *this = SpooledFlight(in, path, sources, min_rows, progress, error ? 0 : size);
}

SpooledFlight::SpooledFlight(std::istream& in, const std::string& path, const std::vector<ColumnSource>& sources,
                             int min_rows, const std::function<void(double)>& progress, std::uintmax_t size)
    : file_(core::OpenScratchFile("the flight " + path)) {
  FlightRows kept;  // the columns after t, as stored
  Eigen::Index written = 0;
  shape_ = ReadFlightChunks(
      in, path, sources, min_rows,
      [&](Eigen::Index, const FlightRows& rows) {
        kept = rows.rightCols(rows.cols() - 1);
        file_.write(reinterpret_cast<const char*>(kept.data()),
                    static_cast<std::streamsize>(kept.size() * static_cast<Eigen::Index>(sizeof(double))));
        written += kept.size();
        if (!file_)
          throw std::runtime_error(fmt::format(
              "{}: cannot keep the flight's samples in a temporary file ({} MB written, 8 bytes per row and "
              "column read): the disk of $TMPDIR (else /tmp) is full? (set TMPDIR to a directory with room)",
              path, written * 8 / 1000000));
      },
      progress, size);
  file_.flush();
  if (!file_)
    throw std::runtime_error(path + ": cannot keep the flight's samples in a temporary file (the disk of $TMPDIR "
                                    "(else /tmp) is full? set TMPDIR to a directory with room)");
}

void SpooledFlight::Replay(const FlightChunkFunction& chunk) {
  const auto columns = static_cast<Eigen::Index>(shape_.columns.size()) - 1;
  file_.clear();
  file_.seekg(0);
  FlightRows rows(kFlightChunkRows, columns);
  for (Eigen::Index first = 0; first < shape_.rows; first += kFlightChunkRows) {
    const Eigen::Index n = std::min(kFlightChunkRows, shape_.rows - first);
    if (n < rows.rows()) rows.resize(n, columns);
    file_.read(reinterpret_cast<char*>(rows.data()),
               static_cast<std::streamsize>(rows.size() * static_cast<Eigen::Index>(sizeof(double))));
    if (!file_)
      throw std::runtime_error(shape_.path + ": cannot read back the flight's samples from their temporary file");
    chunk(first, rows);
  }
}

}  // namespace aerolin::data
