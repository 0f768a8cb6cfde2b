#include "aerolin/export/flight_csv.hpp"

#include <charconv>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "aerolin/core/files.hpp"

namespace aerolin::exporting {
namespace {

void WriteNumber(std::ostream& out, double v) {
  if (v == 0.0) v = 0.0;  // −0 is written "0"
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.write(buf, ptr - buf);
}

}  // namespace

double SliceGridTime(double t, double dt) {
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (!(dt > 0.0) || !std::isfinite(t) || !std::isfinite(dt)) return t;
  const double k = std::round(t / dt);
  // Only a time on the grid (k·dt up to rounding) is moved.
  if (std::abs(t - k * dt) > 1e-9 * std::max(std::abs(t), dt)) return t;
  double scale = 1.0;  // 10^d
  for (int d = 0; d <= 15; ++d, scale *= 10.0) {
    const double m = std::round(dt * scale);
    if (m > 0.0 && m < kExactIntegers && m / scale == dt) {
      // dt is the decimal m·10^-d; k·m and 10^d are exact, so one division
      // gives the double nearest to the decimal k·m·10^-d.
      const double km = k * m;
      if (std::abs(km) >= kExactIntegers) return t;
      const double on_grid = km / scale;
      return on_grid == 0.0 ? 0.0 : on_grid;
    }
  }
  return t;  // dt is no short decimal (e.g. 1/3): k·dt as computed
}

std::string FlightCsvHeader(const std::vector<std::string>& control_names) {
  std::string header = "t";
  for (const core::Signal& state : sim::FlightStateSignals()) header += "," + state.name;
  for (const std::string& name : control_names) header += "," + name;
  return header;
}

std::string FlightCsvHeader(const std::vector<std::string>& control_names, bool wind, bool surfaces) {
  std::string header = FlightCsvHeader(control_names);
  if (surfaces)
    for (const std::string& name : control_names) header += "," + name + "_surface";
  if (wind) header += ",u_g,v_g,w_g,p_g";
  return header;
}

std::string FlightCsvHeader(const sim::FlightLog& log) { return FlightCsvHeader(log.control_names); }

namespace {

// Writes ",v" for each entry of `values`.
void WriteValues(std::ostream& out, const Eigen::VectorXd& values) {
  for (Eigen::Index c = 0; c < values.size(); ++c) {
    out.put(',');
    WriteNumber(out, values[c]);
  }
}

void WriteRowValues(std::ostream& out, double t, const sim::FlightState& x,
                    const Eigen::VectorXd& controls) {
  WriteNumber(out, t);
  for (int i = 0; i < sim::kNumFlightStates; ++i) {
    out.put(',');
    WriteNumber(out, x[i]);
  }
  WriteValues(out, controls);
}

void WriteWind(std::ostream& out, const Eigen::Vector4d& wind) {
  for (int i = 0; i < 4; ++i) {
    out.put(',');
    WriteNumber(out, wind[i]);
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
  WriteWind(out, wind);
  out.put('\n');
}

void WriteFlightCsvRow(std::ostream& out, double t, const sim::FlightState& x,
                       const Eigen::VectorXd& controls, const Eigen::VectorXd* surfaces,
                       const Eigen::Vector4d* wind) {
  WriteRowValues(out, t, x, controls);
  if (surfaces) WriteValues(out, *surfaces);
  if (wind) WriteWind(out, *wind);
  out.put('\n');
}

void WriteFlightCsv(const sim::FlightLog& log, std::ostream& out, double dt) {
  out << FlightCsvHeader(log) << '\n';
  for (std::size_t k = 0; k < log.size(); ++k)
    WriteFlightCsvRow(out, dt > 0.0 ? SliceGridTime(log.time[k], dt) : log.time[k], log.state[k],
                      log.controls[k]);
}

void WriteFlightCsvFile(const sim::FlightLog& log, const std::string& path) {
  core::AtomicOutput out(path);
  WriteFlightCsv(log, out.stream());
  out.Commit();
}

void FlightCsvRecorder::Begin(const std::vector<std::string>& control_names) {
  out_ << FlightCsvHeader(control_names, wind_ != nullptr, surfaces_ != nullptr) << '\n';
}

void FlightCsvRecorder::Record(double t, const sim::FlightState& x,
                               const Eigen::VectorXd& controls) {
  if (dt_ > 0.0) t = SliceGridTime(t, dt_);
  WriteFlightCsvRow(out_, t, x, controls, surfaces_, wind_);
}

MeasurementNoise::MeasurementNoise(sim::FlightRecorder& next,
                                   std::vector<std::pair<std::string, double>> sigma, std::uint64_t seed)
    : next_(next), sigma_(std::move(sigma)), normal_(seed) {
  for (const auto& [name, s] : sigma_)
    if (!(std::isfinite(s) && s >= 0.0))
      throw std::invalid_argument("--noise " + name + ": sigma must be a finite number >= 0");
}

void MeasurementNoise::Begin(const std::vector<std::string>& control_names) {
  const std::vector<core::Signal>& states = sim::FlightStateSignals();
  column_.clear();
  for (const auto& [name, s] : sigma_) {
    int column = -1;
    for (int i = 0; i < sim::kNumFlightStates; ++i)
      if (states[static_cast<std::size_t>(i)].name == name) column = i;
    for (std::size_t c = 0; c < control_names.size(); ++c)
      if (control_names[c] == name) column = sim::kNumFlightStates + static_cast<int>(c);
    if (column < 0) {
      std::string names = FlightCsvHeader(control_names);
      names = names.substr(names.find(',') + 1);
      throw std::invalid_argument("--noise: no column '" + name + "' (the CSV's columns: " + names + ")");
    }
    column_.push_back(column);
  }
  next_.Begin(control_names);
}

void MeasurementNoise::Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) {
  sim::FlightState noisy = x;
  controls_ = controls;
  for (std::size_t i = 0; i < column_.size(); ++i) {
    const double e = sigma_[i].second * normal_();
    if (column_[i] < sim::kNumFlightStates)
      noisy[column_[i]] += e;
    else
      controls_[column_[i] - sim::kNumFlightStates] += e;
  }
  next_.Record(t, noisy, controls_);
}

}  // namespace aerolin::exporting
