#pragma once
/// @file
/// A FlightLog as CSV: SI units, radians, full precision.

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/sim/turbulence.hpp"

namespace aerolin::exporting {

/// Returns the slice-end time `t` = k·dt as the decimal k·dt: when `dt` is a
/// short decimal m·10^-d (d ≤ 15, e.g. 0.1 or 0.05, as typed on a command
/// line), the double nearest to k·m·10^-d, so that 3 × 0.1 is written "0.3"
/// and not "0.30000000000000004". A `t` off the grid, a `dt` that is no such
/// decimal (1/3) or dt ≤ 0 leaves `t` as it is; never returns −0.
double SliceGridTime(double t, double dt);

/// Returns the header line (no newline):
/// `t,u,alpha,q,theta,beta,p,r,phi,psi,north,east,down,` followed by the
/// control names in data-file order, comma-separated.
///
/// | column | unit |
/// |:--|:--|
/// | t | s |
/// | u | m/s (speed perturbation along body x) |
/// | alpha, theta, beta, phi, psi | rad (perturbations) |
/// | q, p, r | rad/s |
/// | north, east, down | m (NED, from the start; altitude change = −down) |
/// | controls | the control's unit: rad, or 1 for throttle |
std::string FlightCsvHeader(const sim::FlightLog& log);
/// As above, for the control names alone (a log being written row by row).
std::string FlightCsvHeader(const std::vector<std::string>& control_names);
/// As above, then `,NAME_surface` for each control if `surfaces` (a flight
/// whose surfaces differ from the pilot's commands: an augmentation or
/// actuators), then `,u_g,v_g,w_g,p_g` if `wind` (a flight with gusts).
std::string FlightCsvHeader(const std::vector<std::string>& control_names, bool wind,
                            bool surfaces = false);

/// Writes one row (no header): t, the 12 states, the controls held during
/// the slice that ends at t; shortest round-trip numbers (−0 written as 0),
/// newline-terminated.
/// WriteFlightCsv is this row for every log entry, so a log written row by
/// row as a flight happens has the same bytes.
void WriteFlightCsvRow(std::ostream& out, double t, const sim::FlightState& x,
                       const Eigen::VectorXd& controls);
/// As above, then the 4 wind columns u_g, v_g, w_g [m/s], p_g [rad/s].
void WriteFlightCsvRow(std::ostream& out, double t, const sim::FlightState& x,
                       const Eigen::VectorXd& controls, const Eigen::Vector4d& wind);
/// As above, then the surfaces' deflections if `surfaces`, then the wind
/// columns if `wind`: FlightCsvRecorder's row, header FlightCsvHeader(names,
/// wind != nullptr, surfaces != nullptr).
void WriteFlightCsvRow(std::ostream& out, double t, const sim::FlightState& x,
                       const Eigen::VectorXd& controls, const Eigen::VectorXd* surfaces,
                       const Eigen::Vector4d* wind);

/// Writes the header and one row per log entry (t = 0, then every slice
/// end); the control columns of a row are the values held during the slice
/// that ends at t (zeros at t = 0). Numbers are written with std::to_chars'
/// shortest round-trip form, so reading them back gives the same doubles.
/// With `dt` > 0 (the slice length), times are written as
/// SliceGridTime(t, dt), as FlightCsvRecorder does.
void WriteFlightCsv(const sim::FlightLog& log, std::ostream& out, double dt = 0.0);

/// As WriteFlightCsv, to the file at `path`, written atomically
/// (core::AtomicOutput: a temporary file renamed over `path` when complete).
/// @throws std::runtime_error "path: cannot write (errno text)".
void WriteFlightCsvFile(const sim::FlightLog& log, const std::string& path);

/// Streams a run to CSV as it is computed: the header at Begin, then one
/// row per Record (WriteFlightCsv's bytes).
///
/// With `wind`, the header and every row end with the wind columns
/// `u_g,v_g,w_g,p_g` (m/s along the model's x, y, z axes; rad/s), read from
/// `*wind` at each Record: the caller keeps it at the wind of the slice that
/// ends at the row's time (the apps: the turbulence held over that slice plus
/// the discrete gusts' mean over it; zeros on the t = 0 row).
///
/// With `dt` > 0 (the slice length), each row's t is written as
/// SliceGridTime(t, dt).
///
/// For a flight whose surfaces differ from the pilot's commands (an
/// augmentation or actuators: sim::FlightRecorder::WatchSurfaces), each
/// control's column stays the pilot's command and a column `NAME_surface`
/// per control follows the controls: the surface's deflection as flown at t
/// (the actuator's position, or δ_pilot − K x for an ideal one), in the
/// control's unit. Other flights' CSVs have no such columns.
class FlightCsvRecorder final : public sim::FlightRecorder {
 public:
  /// `out` (and `wind`, if given) must outlive this.
  explicit FlightCsvRecorder(std::ostream& out, const Eigen::Vector4d* wind = nullptr,
                             double dt = 0.0)
      : out_(out), wind_(wind), dt_(dt) {}
  void Begin(const std::vector<std::string>& control_names) override;
  void WatchSurfaces(const Eigen::VectorXd* surfaces) override { surfaces_ = surfaces; }
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override;

 private:
  std::ostream& out_;
  const Eigen::Vector4d* wind_;
  double dt_;
  const Eigen::VectorXd* surfaces_ = nullptr;
};


/// The seed of MeasurementNoise when none is given (`simulate --noise-seed`).
inline constexpr std::uint64_t kDefaultNoiseSeed = 1;

/// A sensor for rehearsing identification: hands each row on to `next` with
/// seeded white Gaussian noise added to the named columns (states by their
/// CSV names, controls by theirs), σ in the column's unit. Only the rows
/// written are noisy: the flight itself, and anything else recording it, is
/// not. Deviates from sim::StandardNormal(seed), one per noisy column per row
/// in the order given, so the same seed and flags give the same bytes.
class MeasurementNoise final : public sim::FlightRecorder {
 public:
  /// `next` must outlive this. @throws std::invalid_argument if a σ is not
  /// finite and ≥ 0.
  MeasurementNoise(sim::FlightRecorder& next, std::vector<std::pair<std::string, double>> sigma,
                   std::uint64_t seed);
  /// @throws std::invalid_argument naming a column the CSV does not have (and the ones it has).
  void Begin(const std::vector<std::string>& control_names) override;
  /// Hands `surfaces` on to `next` (the surface columns are not noisy).
  void WatchSurfaces(const Eigen::VectorXd* surfaces) override { next_.WatchSurfaces(surfaces); }
  void Record(double t, const sim::FlightState& x, const Eigen::VectorXd& controls) override;

 private:
  sim::FlightRecorder& next_;
  std::vector<std::pair<std::string, double>> sigma_;
  std::vector<int> column_;  // per sigma_: state index, or kNumFlightStates + control index
  sim::StandardNormal normal_;
  Eigen::VectorXd controls_;
};

}  // namespace aerolin::exporting
