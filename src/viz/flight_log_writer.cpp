#include "viz/flight_log_writer.hpp"

#include <filesystem>
#include <stdexcept>

#include "export/flight_csv.hpp"

namespace aerolin::viz {

// The CSV format belongs to export/flight_csv (the one `aerolin simulate`
// writes); rows are produced by it through a one-row FlightLog, so a live log
// and a replayed one are the same bytes.
FlightLogWriter::FlightLogWriter(std::string csv_path, std::string script_path,
                                 const std::vector<std::string>& control_names,
                                 const std::vector<std::string>& control_units)
    : csv_path_(std::move(csv_path)), script_path_(std::move(script_path)) {
  row_.control_names = control_names;
  row_.control_units = control_units;
  row_.time.assign(1, 0.0);
  row_.state.assign(1, sim::FlightState::Zero());
  row_.controls.assign(1, Eigen::VectorXd::Zero(static_cast<Eigen::Index>(control_names.size())));
  header_length_ = exporting::FlightCsvHeader(row_).size() + 1;  // + newline
  csv_.open(csv_path_, std::ios::out | std::ios::binary | std::ios::trunc);
  if (!csv_) throw std::runtime_error("cannot write flight log '" + csv_path_ + "'");
  csv_ << exporting::FlightCsvHeader(row_) << '\n';
  csv_.flush();
}

void FlightLogWriter::AppendRow(double t, const sim::FlightState& x,
                                const Eigen::VectorXd& controls) {
  row_.time[0] = t;
  row_.state[0] = x;
  row_.controls[0] = controls;
  scratch_.str(std::string());
  exporting::WriteFlightCsv(row_, scratch_);
  pending_ += scratch_.view().substr(header_length_);
}

void FlightLogWriter::Flush(const std::string& script_text) {
  csv_ << pending_;
  csv_.flush();
  if (!csv_) throw std::runtime_error("cannot write flight log '" + csv_path_ + "'");
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
