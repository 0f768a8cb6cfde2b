#include "aerolin/data/flight_record.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <string_view>

#include <fmt/format.h>

#include "aerolin/core/error.hpp"

namespace aerolin::data {
namespace {

std::string_view Trim(std::string_view s) {
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
    f(index++, Trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                         : comma - start)));
    if (comma == std::string_view::npos) return index;
    start = comma + 1;
  }
}

}  // namespace

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
  FlightRecord record;
  record.path = path;
  record.columns.push_back("t");
  for (const std::string& c : columns)
    if (c != "t") record.columns.push_back(c);
  const std::size_t wanted = record.columns.size();

  std::string line;
  int line_number = 0;
  // The header: the first line that is not blank.
  std::vector<std::string> header;
  while (header.empty() && std::getline(in, line)) {
    ++line_number;
    if (Trim(line).empty()) continue;
    ForEachCell(line, [&](int, std::string_view cell) { header.emplace_back(cell); });
  }
  if (header.empty()) throw core::DataError({path, 1}, "empty file (expected a header line: t,u,alpha,...)");
  const int header_line = line_number;
  // Column of the file that holds each wanted column; −1: none.
  std::vector<int> source(wanted, -1);
  std::vector<int> target(header.size(), -1);
  for (std::size_t w = 0; w < wanted; ++w) {
    for (std::size_t h = 0; h < header.size(); ++h)
      if (header[h] == record.columns[w]) source[w] = static_cast<int>(h);
    if (source[w] < 0) {
      std::string names;
      for (const std::string& h : header) names += (names.empty() ? "" : ", ") + h;
      throw core::DataError({path, header_line},
                            "no column '" + record.columns[w] + "' (the header has: " + names +
                                "; aerolin simulate --csv writes t, the states and the controls)");
    }
    target[static_cast<std::size_t>(source[w])] = static_cast<int>(w);
  }

  std::vector<double> values;  // row-major
  std::vector<double> row(wanted);
  double previous_t = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (Trim(line).empty()) continue;
    if (values.empty()) record.first_line = line_number;
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
                                "column '" + record.columns[w] + "': '" + std::string(cell) +
                                    "' is not a number (every cell of a flight must be a number)");
        if (std::isnan(v)) nan = true;
        if (std::isinf(v))
          throw core::DataError({path, line_number},
                                "column '" + record.columns[w] + "' is infinite (remove the row's flight or the row)");
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
    const std::size_t n = values.size() / wanted;
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
    values.insert(values.end(), row.begin(), row.end());
  }
  const Eigen::Index n = static_cast<Eigen::Index>(values.size() / wanted);
  if (n < min_rows)
    throw core::DataError({path, line_number},
                          fmt::format("{} rows of samples, at least {} needed", n, min_rows));
  record.values = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), n, static_cast<Eigen::Index>(wanted));
  return record;
}

}  // namespace aerolin::data
