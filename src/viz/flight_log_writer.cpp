#include "viz/flight_log_writer.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace aerolin::viz {
namespace {

void AppendNumber(std::string& out, double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  out += buf;
}

}  // namespace

FlightLogWriter::FlightLogWriter(std::string csv_path, std::string script_path,
                                 const std::vector<std::string>& control_names,
                                 const std::vector<std::string>& control_units)
    : csv_path_(std::move(csv_path)), script_path_(std::move(script_path)) {
  csv_.open(csv_path_, std::ios::out | std::ios::trunc);
  if (!csv_) throw std::runtime_error("cannot write flight log '" + csv_path_ + "'");
  std::string header = "t";
  for (const std::string& n : sim::FlightStateNames()) header += "," + n;
  for (std::size_t i = 0; i < control_names.size(); ++i)
    header += "," + control_names[i];
  (void)control_units;
  csv_ << header << '\n';
  csv_.flush();
}

void FlightLogWriter::AppendRow(double t, const sim::FlightState& x,
                                const Eigen::VectorXd& controls) {
  AppendNumber(pending_, t);
  for (int i = 0; i < x.size(); ++i) {
    pending_ += ',';
    AppendNumber(pending_, x[i]);
  }
  for (int i = 0; i < controls.size(); ++i) {
    pending_ += ',';
    AppendNumber(pending_, controls[i]);
  }
  pending_ += '\n';
}

void FlightLogWriter::Flush(const std::string& script_text) {
  csv_ << pending_;
  csv_.flush();
  pending_.clear();
  const std::string tmp = script_path_ + ".tmp";
  {
    std::ofstream s(tmp, std::ios::out | std::ios::trunc);
    if (!s) throw std::runtime_error("cannot write pilot script '" + tmp + "'");
    s << script_text;
  }
  std::filesystem::rename(tmp, script_path_);
}

}  // namespace aerolin::viz
