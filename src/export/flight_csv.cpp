#include "aerolin/export/flight_csv.hpp"

#include <charconv>
#include <stdexcept>

#include "aerolin/core/files.hpp"

namespace aerolin::exporting {
namespace {

void WriteNumber(std::ostream& out, double v) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.write(buf, ptr - buf);
}

}  // namespace

std::string FlightCsvHeader(const std::vector<std::string>& control_names) {
  std::string header = "t";
  for (const core::Signal& state : sim::FlightStateSignals()) header += "," + state.name;
  for (const std::string& name : control_names) header += "," + name;
  return header;
}

std::string FlightCsvHeader(const std::vector<std::string>& control_names, bool wind) {
  std::string header = FlightCsvHeader(control_names);
  if (wind) header += ",u_g,v_g,w_g,p_g";
  return header;
}

std::string FlightCsvHeader(const sim::FlightLog& log) { return FlightCsvHeader(log.control_names); }

namespace {

void WriteRowValues(std::ostream& out, double t, const sim::FlightState& x,
                    const Eigen::VectorXd& controls) {
  WriteNumber(out, t);
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    out.put(',');
    WriteNumber(out, x[i]);
  }
  for (Eigen::Index c = 0; c < controls.size(); ++c) {
    out.put(',');
    WriteNumber(out, controls[c]);
  }
}

}  // namespace

void WriteFlightCsvRow(std::ostream& out, double t, const sim::FlightState& x,
                       const Eigen::VectorXd& controls) {
  WriteRowValues(out, t, x, controls);
  out.put('\n');
}

void WriteFlightCsvRow(std::ostream& out, double t, const sim::FlightState& x,
                       const Eigen::VectorXd& controls, const Eigen::Vector4d& wind) {
  WriteRowValues(out, t, x, controls);
  for (int i = 0; i < 4; ++i) {
    out.put(',');
    WriteNumber(out, wind[i]);
  }
  out.put('\n');
}

void WriteFlightCsv(const sim::FlightLog& log, std::ostream& out) {
  out << FlightCsvHeader(log) << '\n';
  for (std::size_t k = 0; k < log.size(); ++k) WriteFlightCsvRow(out, log.time[k], log.state[k], log.controls[k]);
}

void WriteFlightCsvFile(const sim::FlightLog& log, const std::string& path) {
  core::AtomicOutput out(path);
  WriteFlightCsv(log, out.stream());
  out.Commit();
}

void FlightCsvRecorder::Begin(const std::vector<std::string>& control_names) {
  out_ << FlightCsvHeader(control_names, wind_ != nullptr) << '\n';
}

void FlightCsvRecorder::Record(double t, const sim::FlightState& x,
                               const Eigen::VectorXd& controls) {
  if (wind_)
    WriteFlightCsvRow(out_, t, x, controls, *wind_);
  else
    WriteFlightCsvRow(out_, t, x, controls);
}

}  // namespace aerolin::exporting
