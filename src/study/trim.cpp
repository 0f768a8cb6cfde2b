#include "aerolin/study/trim.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <numbers>

#include "aerolin/sim/validity.hpp"

namespace aerolin::study {
namespace {

// Central-difference step of the trim Jacobian, relative to max(1, |z|):
// truncation O(h²) and rounding O(ε/h) are both ~1e-9 relative here, ample
// for Newton's quadratic convergence (the Jacobian only steers the step).
constexpr double kJacobianStep = 1e-7;
constexpr int kMaxIterations = 60;
constexpr int kMaxHalvings = 40;

// The unknowns: α, φ or ψ̇, then the file's controls except the throttle, then
// the throttle (or the thrust T [m/s²] of a file without one).
struct Unknowns {
  bool bank_given = false;
  std::vector<int> controls;  // indices into the aircraft's controls (trimmed ones)
  int throttle = -1;          // index of the throttle control, or -1: thrust T
  int size() const { return 2 + static_cast<int>(controls.size()) + 1; }
};

class TrimProblem {
 public:
  TrimProblem(const sim::NonlinearModel& model, const TrimRequest& request, Unknowns unknowns)
      : model_(model), request_(request), unknowns_(std::move(unknowns)) {}

  // The state and input of the unknowns `z`, with the bank, turn rate and
  // pitch attitude they imply.
  void Build(const Eigen::VectorXd& z, sim::NonlinearState& x, sim::NonlinearInput& in,
             double& phi, double& turn_rate, double& theta) const {
    const double alpha = z(0);
    const double beta = request_.sideslip;
    const double V = request_.speed;
    if (unknowns_.bank_given) {
      phi = *request_.bank;
      turn_rate = z(1);
    } else {
      phi = z(1);
      turn_rate = request_.turn_rate.value_or(0.0);
    }
    // Rate-of-climb constraint (Stevens, Lewis & Johnson 3rd ed. eq. 3.6-3).
    const double a = std::cos(alpha) * std::cos(beta);
    const double b = std::sin(phi) * std::sin(beta) + std::cos(phi) * std::sin(alpha) * std::cos(beta);
    const double sg = std::sin(request_.gamma);
    theta = std::atan2(a * b + sg * std::sqrt(std::max(0.0, a * a - sg * sg + b * b)), a * a - sg * sg);
    x.setZero();
    x(sim::nl::kU) = V * std::cos(alpha) * std::cos(beta);
    x(sim::nl::kV) = V * std::sin(beta);
    x(sim::nl::kW) = V * std::sin(alpha) * std::cos(beta);
    x(sim::nl::kP) = -turn_rate * std::sin(theta);
    x(sim::nl::kQ) = turn_rate * std::sin(phi) * std::cos(theta);
    x(sim::nl::kR) = turn_rate * std::cos(phi) * std::cos(theta);
    x.segment<4>(sim::nl::kQ0) = sim::QuaternionFromEuler(phi, theta, 0.0);
    x(sim::nl::kDown) = -request_.altitude;
    in.controls = fixed_controls_;
    in.thrust = fixed_thrust_;
    for (std::size_t i = 0; i < unknowns_.controls.size(); ++i)
      in.controls(unknowns_.controls[i]) = z(2 + static_cast<Eigen::Index>(i));
    const double last = z(unknowns_.size() - 1);
    if (unknowns_.throttle >= 0)
      in.controls(unknowns_.throttle) = last;
    else
      in.thrust = last;
  }

  Eigen::Matrix<double, 6, 1> Residual(const Eigen::VectorXd& z) const {
    sim::NonlinearState x, dx;
    sim::NonlinearInput in;
    double phi, turn_rate, theta;
    Build(z, x, in, phi, turn_rate, theta);
    model_.Derivative(x, in, dx);
    return dx.head<6>();
  }

  // Solves for the unknowns not in `held` (index → value), from `z`.
  Eigen::VectorXd Solve(Eigen::VectorXd z, const std::vector<bool>& held, int& iterations) const {
    const int n = static_cast<int>(z.size());
    Eigen::Matrix<double, 6, 1> r = Residual(z);
    for (iterations = 0; iterations < kMaxIterations; ++iterations) {
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, n);
      for (int j = 0; j < n; ++j) {
        if (held[j]) continue;
        const double h = kJacobianStep * std::max(1.0, std::abs(z(j)));
        Eigen::VectorXd zp = z, zm = z;
        zp(j) += h;
        zm(j) -= h;
        J.col(j) = (Residual(zp) - Residual(zm)) / (2 * h);
      }
      const Eigen::VectorXd dz = J.completeOrthogonalDecomposition().solve(-r);
      double lambda = 1.0;
      bool improved = false;
      for (int k = 0; k < kMaxHalvings; ++k, lambda /= 2) {
        const Eigen::VectorXd trial = z + lambda * dz;
        const Eigen::Matrix<double, 6, 1> rt = Residual(trial);
        if (rt.allFinite() && rt.norm() < (1.0 - 1e-4 * lambda) * r.norm()) {
          z = trial;
          r = rt;
          improved = true;
          break;
        }
      }
      if (!improved) break;  // converged to rounding, or stalled
    }
    return z;
  }

  void Hold(const Eigen::VectorXd& controls, double thrust) {
    fixed_controls_ = controls;
    fixed_thrust_ = thrust;
  }

 private:
  const sim::NonlinearModel& model_;
  const TrimRequest& request_;
  Unknowns unknowns_;
  Eigen::VectorXd fixed_controls_;
  double fixed_thrust_ = 0.0;
};

std::string Units(const model::Control& c) { return std::string(core::ToString(c.unit)); }

// "q_dot = 0 is left at 0.12 rad/s²": the largest residual.
std::string LargestResidual(const Eigen::Matrix<double, 6, 1>& r) {
  Eigen::Index i = 0;
  r.cwiseAbs().maxCoeff(&i);
  return fmt::format("{} = 0 is left at {:.3g} {}", TrimEquationNames()[static_cast<std::size_t>(i)],
                     r(i), i < 3 ? "m/s²" : "rad/s²");
}

constexpr double kDeg = 180.0 / std::numbers::pi;
// A control setting below this [rad or 1] is printed as 0: Newton leaves
// unused controls at 1e-170 and the like, far below any deflection.
constexpr double kNoSetting = 1e-12;

// "past the stall: needs C_L 2.3 > C_L,max 1.826 at alpha 36.35 deg ...": the
// lift the request needs (n W cos γ per q̄S, thrust left out) against the
// tables' extreme; `high`: past the positive stall, else the negative one.
std::string PastTheStall(const sim::NonlinearModel& model, const TrimRequest& request,
                         const sim::NonlinearModel::LiftLimits& lift, double alpha, bool high) {
  const double g = model.g();
  const double n = request.bank ? 1.0 / std::cos(*request.bank)
                                : std::hypot(1.0, request.speed * request.turn_rate.value_or(0.0) / g);
  const double qs = model.DynamicPressureOverMass(request.speed, request.altitude);
  const double needed = n * g * std::cos(request.gamma) / qs;
  const double limit = high ? lift.cl_max : lift.cl_min;
  const double alpha_limit = high ? lift.alpha_max : lift.alpha_min;
  const std::string what = fmt::format("alpha would be {:.4g} deg; the stall of the file's tables is at alpha "
                                       "{:.4g} deg", alpha * kDeg, alpha_limit * kDeg);
  if (high && needed > limit)
    return fmt::format("past the stall: needs C_L {:.4g} > C_L,max {:.4g} at alpha {:.4g} deg ({}, held there)",
                       needed, limit, alpha_limit * kDeg, what.substr(0, what.find(';')));
  return fmt::format("past the {}stall: {} (C_L {} {:.4g}), held there", high ? "" : "negative ", what,
                     high ? "max" : "min", limit);
}

}  // namespace

const std::vector<std::string>& TrimEquationNames() {
  static const std::vector<std::string> names = {"u_dot", "v_dot", "w_dot",
                                                 "p_dot", "q_dot", "r_dot"};
  return names;
}

TrimRequest ReferenceRequest(const model::AircraftData& aircraft) {
  const model::FlightCondition& c = aircraft.condition;
  TrimRequest r;
  r.speed = std::hypot(c.U0, c.W0);
  r.gamma = c.theta0 - std::atan2(c.W0, c.U0);
  r.altitude = c.altitude.value_or(0.0);
  return r;
}

TrimResult Trim(const model::AircraftData& aircraft, const TrimRequest& request,
                const sim::NonlinearOptions& options) {
  if (!(request.speed > 0.0) || !std::isfinite(request.speed))
    throw std::invalid_argument(fmt::format("trim: the speed must be > 0, got {} m/s", request.speed));
  if (!(std::abs(request.gamma) < std::numbers::pi / 2))
    throw std::invalid_argument(fmt::format("trim: |gamma| must be < 90 deg, got {} rad", request.gamma));
  if (request.turn_rate && request.bank)
    throw std::invalid_argument("trim: give a turn rate or a bank angle, not both");
  if (!std::isfinite(request.altitude) || !std::isfinite(request.sideslip) ||
      (request.turn_rate && !std::isfinite(*request.turn_rate)) ||
      (request.bank && !(std::abs(*request.bank) < std::numbers::pi / 2)))
    throw std::invalid_argument("trim: altitude, sideslip and turn rate must be finite, |bank| < 90 deg");

  const sim::NonlinearModel model(aircraft, options);
  Unknowns unknowns;
  unknowns.bank_given = request.bank.has_value();
  unknowns.throttle = model.throttle_index();
  for (int i = 0; i < model.num_controls(); ++i)
    if (i != unknowns.throttle) unknowns.controls.push_back(i);
  TrimProblem problem(model, request, unknowns);
  problem.Hold(Eigen::VectorXd::Zero(model.num_controls()), 0.0);

  const int n = unknowns.size();
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  z(0) = std::atan2(model.W0(), model.U0());
  const double g = model.g();
  if (request.bank)
    z(1) = g * std::tan(*request.bank) / request.speed;
  else
    z(1) = std::atan(request.speed * request.turn_rate.value_or(0.0) / g);
  std::vector<bool> held(static_cast<std::size_t>(n), false);
  int iterations = 0;
  z = problem.Solve(z, held, iterations);

  // The limits of the unknowns: each control's min/max, and α within the
  // small-perturbation range of the file's derivatives around its reference
  // (sim::ValidityThresholds: beyond it the linear aerodynamic model, which
  // has no stall, is no model of the aircraft). An unknown beyond its limit is
  // held there, and the rest solved again.
  struct Limit {
    std::string name, unit, what;
    std::optional<double> min, max;
  };
  const sim::ValidityThresholds validity;
  const double alpha0 = std::atan2(model.W0(), model.U0());
  std::vector<Limit> limits(static_cast<std::size_t>(n));
  limits[0] = {"alpha", "rad", " (the small-perturbation range of the file's derivatives, ±" +
                                   fmt::format("{:g}", validity.alpha * 180 / std::numbers::pi) +
                                   " deg of its reference: the linear aerodynamic model has no stall)",
               alpha0 - validity.alpha, alpha0 + validity.alpha};
  for (int j = 2; j < n; ++j) {
    const int k = j < n - 1 ? unknowns.controls[static_cast<std::size_t>(j - 2)] : unknowns.throttle;
    if (k < 0) continue;
    const model::Control& c = model.controls()[static_cast<std::size_t>(k)];
    limits[static_cast<std::size_t>(j)] = {c.name, Units(c), "", c.min, c.max};
  }
  // With a lift table the α limits are the stall's instead: the α of the
  // largest (and smallest) C_L of the file's tables.
  const auto& lift = model.lift_limits();
  if (lift) limits[0] = {"alpha", "rad", "", lift->alpha_min, lift->alpha_max};
  std::string bound;
  for (;;) {
    int worst = -1;
    double worst_excess = 0.0, worst_limit = 0.0;
    for (int j = 0; j < n; ++j) {
      const Limit& l = limits[static_cast<std::size_t>(j)];
      if (held[static_cast<std::size_t>(j)]) continue;
      if (l.max && z(j) - *l.max > worst_excess) worst = j, worst_excess = z(j) - *l.max, worst_limit = *l.max;
      if (l.min && *l.min - z(j) > worst_excess) worst = j, worst_excess = *l.min - z(j), worst_limit = *l.min;
    }
    if (worst < 0) break;
    const Limit& l = limits[static_cast<std::size_t>(worst)];
    if (worst == 0 && lift) {
      bound += (bound.empty() ? "" : "; ") + PastTheStall(model, request, *lift, z(0), worst_limit == lift->alpha_max);
    } else {
    bound += fmt::format("{}{} would be {:.4g} {}, beyond its limit {} = {:.4g} {}{}", bound.empty() ? "" : "; ",
                         l.name, z(worst), l.unit, l.max && worst_limit == *l.max ? "max" : "min",
                         worst_limit, l.unit, l.what);
    }
    z(worst) = worst_limit;
    held[static_cast<std::size_t>(worst)] = true;
    int more = 0;
    z = problem.Solve(z, held, more);
    iterations += more;
  }

  const Eigen::Matrix<double, 6, 1> r = problem.Residual(z);
  if (!r.allFinite() || r.cwiseAbs().maxCoeff() > kTrimTolerance) {
    const std::string where = fmt::format("V = {:g} m/s, h = {:g} m, gamma = {:g} rad", request.speed,
                                          request.altitude, request.gamma);
    if (!bound.empty())
      throw TrimError(fmt::format("no trim within the limits at {}: {}; held there, {} "
                                  "(the largest residual)",
                                  where, bound, LargestResidual(r)));
    throw TrimError(fmt::format(
        "no trim at {}: after {} Newton iterations {} (the largest residual; the equations are "
        "singular or have no solution in reach of the linear aerodynamic model)",
        where, iterations, LargestResidual(r)));
  }

  TrimResult result;
  problem.Build(z, result.state, result.input, result.phi, result.turn_rate, result.theta);
  result.alpha = z(0);
  result.beta = request.sideslip;
  result.gamma = request.gamma;
  result.residuals = r;
  result.iterations = iterations;
  {
    // Non-gravitational specific force = v̇ + ω × v − g_b (zero v̇ here).
    const Eigen::Vector3d v = result.state.segment<3>(sim::nl::kU);
    const Eigen::Vector3d w = result.state.segment<3>(sim::nl::kP);
    const Eigen::Matrix3d R = sim::QuaternionToBodyToEarth(result.state.segment<4>(sim::nl::kQ0));
    const Eigen::Vector3d f = w.cross(v) - g * R.row(2).transpose();
    result.load_factor = f.norm() / g;
  }
  std::vector<TrimVariable>& out = result.variables;
  out.push_back({"alpha", result.alpha, "rad"});
  out.push_back({"beta", result.beta, "rad"});
  out.push_back({"phi", result.phi, "rad"});
  out.push_back({"theta", result.theta, "rad"});
  for (int i = 0; i < model.num_controls(); ++i) {
    const model::Control& c = model.controls()[static_cast<std::size_t>(i)];
    out.push_back({c.name, result.input.controls(i), Units(c)});
  }
  if (unknowns.throttle < 0) out.push_back({"thrust", result.input.thrust, "m/s^2"});
  out.push_back({"turn_rate", result.turn_rate, "rad/s"});
  out.push_back({"load_factor", result.load_factor, "1"});
  out.push_back({"gamma", result.gamma, "rad"});

  if (model.inertia_assumed())
    result.notes.push_back(
        "the file gives no inertias: Ix = Iy = Iz and Ixz = 0 assumed, so the inertial coupling of "
        "the body rates is left out");
  if (model.density_fixed())
    result.notes.push_back("the file gives no altitude: the density is the reference's at every height");
  if (unknowns.throttle < 0)
    result.notes.push_back(
        "the file has no throttle: 'thrust' is the change of thrust along body x per unit mass");
  if (!bound.empty()) result.notes.push_back("held at a limit: " + bound);
  if (model.has_tables()) {
    if (model.reference_thrust() != 0.0)
      result.notes.push_back(fmt::format(
          "the C_X table gives the drag: a constant reference thrust of {:.6g} m/s^2 (per unit mass, "
          "along body x) balances it at the reference condition, and 'thrust' is the change from it",
          model.reference_thrust()));
    std::vector<std::string> settings;
    for (int i = 0; i < model.num_controls(); ++i) {
      const model::Control& c = model.controls()[static_cast<std::size_t>(i)];
      double v = model.tables()->reference_controls[static_cast<std::size_t>(i)] + result.input.controls(i);
      if (std::abs(v) < kNoSetting) v = 0.0;
      settings.push_back(c.unit == core::Unit::kRadian ? fmt::format("{} {:.6g} deg", c.name, v * kDeg)
                                                       : fmt::format("{} {:.6g}", c.name, v));
    }
    result.notes.push_back(fmt::format("the controls' settings (the tables' reference settings plus the "
                                       "deviations above): {}", fmt::join(settings, ", ")));
    for (const model::TableExcursion& e : model.TableExcursionsAt(result.state, result.input))
      result.notes.push_back(e.ToString());
  }
  return result;
}

}  // namespace aerolin::study
