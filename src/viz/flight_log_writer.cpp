#include "aerolin/viz/flight_log_writer.hpp"

#include <filesystem>
#include <stdexcept>

#include "aerolin/export/flight_csv.hpp"

namespace aerolin::viz {

// The CSV format belongs to export/flight_csv (the one `aerolin simulate`
// writes): header and rows come from it, so a live log and a replayed one are
// the same bytes.
FlightLogWriter::FlightLogWriter(std::string csv_path, std::string script_path,
                                 const std::vector<std::string>& control_names)
    : csv_path_(std::move(csv_path)), script_path_(std::move(script_path)) {
  csv_.open(csv_path_, std::ios::out | std::ios::binary | std::ios::trunc);
  if (!csv_) throw std::runtime_error("cannot write flight log '" + csv_path_ + "'");
  csv_ << exporting::FlightCsvHeader(control_names) << '\n';
  csv_.flush();
}

void FlightLogWriter::AppendRow(double t, const sim::FlightState& x,
                                const Eigen::VectorXd& controls) {
  exporting::WriteFlightCsvRow(csv_, t, x, controls);
}

void FlightLogWriter::Flush(const std::string& script_text) {
  csv_.flush();
  if (!csv_) throw std::runtime_error("cannot write flight log '" + csv_path_ + "'");
  const std::string tmp = script_path_ + ".tmp";
  {
    std::ofstream s(tmp, std::ios::out | std::ios::trunc);
    if (!s) throw std::runtime_error("cannot write pilot script '" + tmp + "'");
    s << script_text;
  }
  std::filesystem::rename(tmp, script_path_);
}

}  // namespace aerolin::viz
