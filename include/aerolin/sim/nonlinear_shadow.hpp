#pragma once
/// @file
/// The nonlinear model flown beside a linear flight from the same inputs
/// (`aerolin simulate --model nonlinear|both`): the two state forms mapped
/// onto each other, and a recorder that advances the nonlinear model one
/// slice per row of the linear flight.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/sim/flight_log.hpp"
#include "aerolin/sim/nonlinear_model.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/sim/validity.hpp"

namespace aerolin::sim {

/// Returns the nonlinear state of the linear flight state `x` (perturbations
/// about `model`'s reference, with sim::FlightModel's exact kinematics:
/// u_b = U0 + u, w = u_b tan(α0 + α), v = u_b tan β / cos(α0 + α); attitude
/// (φ, θ0 + θ, ψ)), at altitude `altitude0` − down [m].
NonlinearState NonlinearStateOf(const NonlinearModel& model, const FlightState& x,
                                double altitude0);

/// Returns the linear flight state's form of the nonlinear state `x`: u =
/// u_b − U0, α = atan2(w, u_b) − α0, β = asin(v/V), the rates, θ − θ0, φ, ψ
/// (quaternion → Euler), and the position relative to (0, 0, −altitude0).
/// The inverse of NonlinearStateOf.
FlightState PerturbationOf(const NonlinearModel& model, const NonlinearState& x, double altitude0);

/// When the nonlinear flight first parted from the linear one, per state.
struct Parting {
  std::string state;  ///< the state's name (FlightStateSignals)
  double time = 0.0;  ///< first time |x_nl − x_lin| > the threshold [s]
};

/// A variable of the nonlinear model's coefficient tables that left the
/// range of its tables: the farthest value it reached, and when it first left.
struct TableDeparture {
  model::TableExcursion farthest;
  double first_time = 0.0;  ///< [s]

  /// "alpha = 47 deg is past CZ's table, -10..45 deg (held at its edge
  /// value), from t = 3.1 s (the farthest value)".
  std::string ToString() const;
};

/// A FlightRecorder that flies the nonlinear model beside the linear flight
/// it records: each row's controls (held over the slice that ends at it)
/// advance a NonlinearSlicer over that slice (RK45 with the flight's slice
/// options), the linear row goes to `linear` and the nonlinear one
/// (PerturbationOf) to `nonlinear` (either may be null).
///
/// A state has parted when |x_nl − x_lin| exceeds kPartingFraction of
/// max(its linear peak so far, its floor: 1 m/s, 1°, 1°/s):
/// the first time of each of the 9 perturbation states is kept.
///
/// The nonlinear flight departs when its perturbation form leaves what the
/// ValidityMonitor accepts (a state diverged, α0 + α or β at 90°, U0 + u at 0)
/// or its integrator fails: from that row on only the linear rows are
/// recorded (the departed row is not), and departed() says what and when.
/// The one rule for every front end: `simulate`/`plot --model` and the
/// window's second aircraft stop there, the linear flight goes on.
class NonlinearShadow final : public FlightRecorder {
 public:
  static constexpr double kPartingFraction = 0.1;

  /// `altitude0`: the altitude [m] the flight starts at (the density's
  /// reference, NonlinearModel).
  NonlinearShadow(NonlinearModel model, const SliceOptions& options, const FlightState& x0,
                  double altitude0, FlightRecorder* linear, FlightRecorder* nonlinear);

  void Begin(const std::vector<std::string>& control_names) override;
  void Record(double t, const FlightState& x, const Eigen::VectorXd& controls) override;

  /// The states that parted, earliest first.
  std::vector<Parting> partings() const;
  /// Each table variable that left its table's breakpoints, in the order
  /// they first left (once per table and variable; empty without tables).
  const std::vector<TableDeparture>& table_departures() const { return departures_; }
  /// The nonlinear flight's validity flags (alpha, beta, phi, u/U0).
  const ValidityMonitor& monitor() const { return monitor_; }
  /// Why and when the nonlinear flight departed ("state diverged at t =
  /// 11.4 s: alpha0 + alpha reached 90 deg: body velocity undefined", or
  /// "integrator failed at t = ...: ..."), or nullopt while it flies.
  const std::optional<std::string>& departed() const { return departed_; }

 private:
  NonlinearSlicer slicer_;
  double altitude0_;
  FlightRecorder* linear_;
  FlightRecorder* nonlinear_;
  ValidityMonitor monitor_;
  NonlinearInput input_;
  std::array<double, 9> peak_{};
  std::array<std::optional<double>, 9> parted_{};
  bool first_ = true;
  std::optional<std::string> departed_;
  std::vector<TableDeparture> departures_;
};

}  // namespace aerolin::sim
