#include "aerolin/study/mil_std_1797.hpp"
#include "aerolin/study/closed_loop.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <limits>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <stdexcept>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/matrix_exponential.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/conventions.hpp"
#include "typed_number.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// Refines a sign change of f on [a, b] (f(a), f(b) of opposite signs or
// f(b) = 0) by bisection to the last representable digit.
double Bisect(const std::function<double(double)>& f, double a, double b) {
  double fa = f(a);
  for (int k = 0; k < 200 && b - a > 4.0 * std::numeric_limits<double>::epsilon() * b; ++k) {
    const double m = 0.5 * (a + b);
    const double fm = f(m);
    if ((fm > 0.0) == (fa > 0.0) && fm != 0.0) {
      a = m;
      fa = fm;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

// The lowest root of f on the log grid's [lo, hi], bracketed by a sign
// change between neighbouring grid points and refined; nullopt if none.
std::optional<double> LowestRoot(const std::function<double(double)>& f, double lo, double hi) {
  const double decades = std::log10(hi / lo);
  const int n = std::max(2, static_cast<int>(std::ceil(decades * kBandwidthPointsPerDecade)) + 1);
  double w_prev = lo, f_prev = f(lo);
  if (f_prev == 0.0) return lo;
  for (int k = 1; k < n; ++k) {
    const double w = k == n - 1 ? hi : lo * std::pow(10.0, decades * k / (n - 1));
    const double fw = f(w);
    if (fw == 0.0 || (fw > 0.0) != (f_prev > 0.0)) return Bisect(f, w_prev, w);
    w_prev = w;
    f_prev = fw;
  }
  return std::nullopt;
}

// Golden-section search for the largest f on [a, b]; returns (t, f(t)).
std::pair<double, double> Maximize(const std::function<double(double)>& f, double a, double b) {
  const double r = 0.5 * (std::sqrt(5.0) - 1.0);
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = f(c), fd = f(d);
  for (int k = 0; k < 200 && b - a > 1e-12 * std::max(1.0, std::abs(b)); ++k) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - r * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + r * (b - a);
      fd = f(d);
    }
  }
  return fc > fd ? std::pair{c, fc} : std::pair{d, fd};
}

// The step-and-hold's exact propagator. z = (x, θ[, δ]); δ follows the
// (position-clamped) command through the actuator: a ramp at the rate limit
// while |δc − δ| > R τa (the lag would ask for more than R), then the lag
// δ̇ = (δc − δ)/τa, which it never leaves while δc is constant. Each piece
// is z' = F z + g w with w constant: exp([F g; 0 0] h) [z; w] (Van Loan).
class PitchStepper {
 public:
  PitchStepper(const PitchModel& m, const std::optional<model::Actuator>& actuator)
      : m_(m), actuator_(actuator), n_(static_cast<int>(m.A.rows())) {
    const int size = n_ + 1 + (actuator_ ? 1 : 0);
    lag_ = Eigen::MatrixXd::Zero(size + 1, size + 1);
    lag_.topLeftCorner(n_, n_) = m.A;
    lag_.block(n_, 0, 1, n_) = m.c_q;
    if (actuator_) {
      const double tau = actuator_->time_constant;
      lag_.block(0, n_ + 1, n_, 1) = m.b;
      lag_(n_ + 1, n_ + 1) = -1.0 / tau;
      lag_(n_ + 1, size) = 1.0 / tau;
      ramp_ = lag_;
      ramp_(n_ + 1, n_ + 1) = 0.0;
      ramp_(n_ + 1, size) = 1.0;
    } else {
      lag_.block(0, size, n_, 1) = m.b;
    }
  }

  int size() const { return n_ + 1 + (actuator_ ? 1 : 0); }
  int theta() const { return n_; }
  double q(const Eigen::VectorXd& z) const { return m_.c_q.dot(z.head(n_)); }
  // The states that settle (all but θ).
  Eigen::VectorXd Settling(const Eigen::VectorXd& z) const {
    Eigen::VectorXd y(size() - 1);
    y << z.head(n_), z.tail(size() - n_ - 1);
    return y;
  }
  // The settling states' matrix (θ removed) and its input column.
  Eigen::MatrixXd SettlingMatrix() const {
    const int s = size() - 1;
    Eigen::MatrixXd F(s, s);
    F.topLeftCorner(n_, n_) = lag_.topLeftCorner(n_, n_);
    if (actuator_) {
      F.block(0, n_, n_, 1) = lag_.block(0, n_ + 1, n_, 1);
      F.block(n_, 0, 1, n_).setZero();
      F(n_, n_) = lag_(n_ + 1, n_ + 1);
    }
    return F;
  }
  Eigen::VectorXd SettlingInput() const {
    Eigen::VectorXd g(size() - 1);
    g << lag_.block(0, size(), n_, 1), lag_.block(n_ + 1, size(), size() - n_ - 1, 1);
    return g;
  }
  double Clamp(double command) const {
    if (actuator_ && actuator_->position_limit)
      return std::clamp(command, -*actuator_->position_limit, *actuator_->position_limit);
    return command;
  }
  // Whether δ is on the rate-limited ramp for command `c`.
  bool Ramping(const Eigen::VectorXd& z, double c) const {
    if (!actuator_ || !actuator_->rate_limit) return false;
    return std::abs(c - z(n_ + 1)) > *actuator_->rate_limit * actuator_->time_constant * (1.0 + 1e-12);
  }

  // z after `h` [s] with the command `c` (clamped) held.
  Eigen::VectorXd Advance(Eigen::VectorXd z, double c, double h, bool& limited) const {
    const double clamped = Clamp(c);
    if (clamped != c) limited = true;
    while (h > 0.0) {
      if (Ramping(z, clamped)) {
        limited = true;
        const double rate = *actuator_->rate_limit;
        const double e = clamped - z(n_ + 1);
        const double until = (std::abs(e) - rate * actuator_->time_constant) / rate;
        const double piece = std::min(h, until);
        z = Flow(ramp_, z, std::copysign(rate, e), piece);
        h -= piece;
      } else {
        z = Flow(lag_, z, clamped, h);
        h = 0.0;
      }
    }
    return z;
  }

 private:
  Eigen::VectorXd Flow(const Eigen::MatrixXd& M, const Eigen::VectorXd& z, double w, double h) const {
    Eigen::VectorXd zw(size() + 1);
    zw << z, w;
    const Eigen::MatrixXd E = core::MatrixExponential(M * h);
    return (E * zw).head(size());
  }

  const PitchModel& m_;
  std::optional<model::Actuator> actuator_;
  int n_;
  Eigen::MatrixXd lag_, ramp_;
};

// One flown piece (the hold or the run after release), sampled every dt.
struct Piece {
  std::vector<Eigen::VectorXd> z;  // z[k] at t0 + k dt
};

// Flies from `z0` with command `c` until the settling states are within
// `tol` of `target` (relative to `scale`) on the lag, sampling every dt.
Piece FlyUntilSteady(const PitchStepper& stepper, const Eigen::VectorXd& z0, double c,
                     const Eigen::VectorXd& target, double scale, const DropbackOptions& o,
                     bool& limited, const char* what) {
  Piece p;
  p.z.push_back(z0);
  const long max_steps = static_cast<long>(std::ceil(o.max_duration / o.dt));
  for (long k = 0; k < max_steps; ++k) {
    const Eigen::VectorXd& z = p.z.back();
    if (k > 0 && !stepper.Ramping(z, stepper.Clamp(c)) &&
        (stepper.Settling(z) - target).norm() <= o.steady_tolerance * scale)
      return p;
    p.z.push_back(stepper.Advance(z, c, o.dt, limited));
  }
  throw std::invalid_argument(fmt::format("the pitch response does not settle {} within {:g} s", what,
                                          o.max_duration));
}

}  // namespace

std::complex<double> ExactResponse::Value(double omega) const {
  const cd s(0.0, omega);
  cd value = rational.Evaluate(s);
  for (double tau : lags) value /= tau * s + 1.0;
  return value * std::exp(-s * delay);
}

double ExactResponse::Phase(double omega) const {
  double phase = analysis::ContinuousPhase(rational, omega) - omega * delay;
  for (double tau : lags) phase -= std::atan(omega * tau);
  return phase;
}

BandwidthResult ComputeBandwidth(const ExactResponse& g) {
  BandwidthResult r;
  const double lo = kBandwidthOmegaMin, hi = kBandwidthOmegaMax;
  r.omega_180 = LowestRoot([&g](double w) { return g.Phase(w) + core::kPi; }, lo, hi);
  r.omega_phase = LowestRoot([&g](double w) { return g.Phase(w) + 0.75 * core::kPi; }, lo, hi);
  if (!r.omega_180) {
    r.note = g.lags.empty() && g.delay == 0.0
                 ? "no −180° crossing: add an actuator or delay"
                 : fmt::format("no −180° crossing below {:g} rad/s", hi);
    return r;
  }
  const double w180 = *r.omega_180;
  const double level = 2.0 * std::abs(g.Value(w180));  // 6 dB above |G(jω180)|
  // The lowest ω where |G| falls through the level: a root of log|G| − log(level).
  const auto gain = [&g, level](double w) { return std::log(std::abs(g.Value(w)) / level); };
  if (gain(lo) > 0.0) r.omega_gain = LowestRoot(gain, lo, w180);
  r.phase_delay = -(g.Phase(2.0 * w180) + core::kPi) / (2.0 * w180);
  if (r.omega_phase && r.omega_gain) {
    r.gain_limited = *r.omega_gain < *r.omega_phase;
    r.bandwidth = std::min(*r.omega_phase, *r.omega_gain);
  } else if (r.omega_phase) {
    r.bandwidth = r.omega_phase;
    r.note = fmt::format("|G| at {:g} rad/s is already below 6 dB above |G(jω180)|: no gain crossing, "
                         "ω_BW is the phase one", lo);
  } else {
    r.bandwidth = r.omega_gain;
    r.note = "no −135° crossing: ω_BW is the gain one";
    r.gain_limited = r.omega_gain.has_value();
  }
  return r;
}

std::string ToString(DropbackRegion region) {
  switch (region) {
    case DropbackRegion::kSatisfactory: return "satisfactory";
    case DropbackRegion::kBoundary:
      return "on the boundary (the sources read its top end as 0.055 and 0.06 s)";
    case DropbackRegion::kSluggish: return "sluggish (DB/q_ss < 0)";
    case DropbackRegion::kAbrupt: return "abrupt, bobble tendency";
    case DropbackRegion::kBobbling: return "continuous bobbling (q_pk/q_ss > 3)";
  }
  return "";
}

DropbackRegion ClassifyDropback(double dropback_ratio, double overshoot) {
  if (overshoot > kDropbackMaxOvershoot) return DropbackRegion::kBobbling;
  if (dropback_ratio < 0.0) return DropbackRegion::kSluggish;
  // The line's DB/q_ss at this overshoot, for each reading of its top end.
  const double f = (overshoot - 1.0) / (kDropbackMaxOvershoot - 1.0);
  const auto line = [f](double top) { return (1.0 - f) * kDropbackLineBase + f * top; };
  const double strict = line(kDropbackLineTopLow), loose = line(kDropbackLineTopHigh);
  if (dropback_ratio <= strict) return DropbackRegion::kSatisfactory;
  if (dropback_ratio <= loose) return DropbackRegion::kBoundary;
  return DropbackRegion::kAbrupt;
}

DropbackResult ComputeDropback(const PitchModel& m, const std::optional<model::Actuator>& actuator,
                               double delay, const DropbackOptions& o) {
  const Eigen::Index n = m.A.rows();
  if (m.A.cols() != n || m.b.size() != n || m.c_q.size() != n)
    throw std::invalid_argument(fmt::format("ComputeDropback: A is {}x{}, b has {}, c_q has {} entries",
                                            n, m.A.cols(), m.b.size(), m.c_q.size()));
  const Eigen::VectorXcd eig = analysis::Eigenvalues(m.A);
  for (Eigen::Index k = 0; k < eig.size(); ++k)
    if (eig(k).real() >= 0.0)
      throw std::invalid_argument(fmt::format(
          "the short-term pitch model is not stable (eigenvalue {:.4g}{:+.4g}i): no steady pitch rate to "
          "release from", eig(k).real(), eig(k).imag()));
  const PitchStepper stepper(m, actuator);
  DropbackResult r;
  const double c = o.command;
  // Steady state of the held (clamped) command on the lag: F y + g c = 0.
  const Eigen::MatrixXd F = stepper.SettlingMatrix();
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(F);
  const Eigen::VectorXd y_ss = -lu.solve(stepper.SettlingInput() * stepper.Clamp(c));
  const double q_ss_expected = m.c_q.dot(y_ss.head(n));
  if (!(q_ss_expected > 0.0))
    throw std::invalid_argument(fmt::format("the steady pitch rate of a nose-up step is {:.4g} rad/s, "
                                            "not positive: no dropback to measure", q_ss_expected));

  const Piece hold = FlyUntilSteady(stepper, Eigen::VectorXd::Zero(stepper.size()), c, y_ss, y_ss.norm(), o,
                                    r.limited, "while the command is held");
  const Eigen::VectorXd& z_r = hold.z.back();
  r.hold_time = static_cast<double>(hold.z.size() - 1) * o.dt;
  r.q_ss = stepper.q(z_r);
  // q's peak during the hold: the largest sample, refined between its neighbours.
  std::size_t kq = 0;
  for (std::size_t k = 1; k < hold.z.size(); ++k)
    if (stepper.q(hold.z[k]) > stepper.q(hold.z[kq])) kq = k;
  r.q_peak = stepper.q(hold.z[kq]);
  if (kq > 0 && kq + 1 < hold.z.size()) {
    bool unused = false;
    const Eigen::VectorXd& from = hold.z[kq - 1];
    r.q_peak = std::max(r.q_peak, Maximize([&](double t) { return stepper.q(stepper.Advance(from, c, t, unused)); },
                                           0.0, 2.0 * o.dt).second);
  }
  r.overshoot = r.q_peak / r.q_ss;

  const Piece after = FlyUntilSteady(stepper, z_r, 0.0, Eigen::VectorXd::Zero(y_ss.size()),
                                     stepper.Settling(z_r).norm(), o, r.limited, "after release");
  // θ's final value from the last sample, on the lag with no command:
  // θ(∞) = θ + ∫ q = θ − [c_q 0] F⁻¹ y.
  const Eigen::VectorXd& z_end = after.z.back();
  const Eigen::VectorXd y_end = stepper.Settling(z_end);
  const Eigen::VectorXd integral = -lu.solve(y_end);
  const double theta_final = z_end(stepper.theta()) + m.c_q.dot(integral.head(n));
  std::size_t kt = 0;
  for (std::size_t k = 1; k < after.z.size(); ++k)
    if (after.z[k](stepper.theta()) > after.z[kt](stepper.theta())) kt = k;
  double theta_peak = after.z[kt](stepper.theta());
  if (kt > 0 && kt + 1 < after.z.size()) {
    bool unused = false;
    const Eigen::VectorXd& from = after.z[kt - 1];
    theta_peak = std::max(
        theta_peak,
        Maximize([&](double t) { return stepper.Advance(from, 0.0, t, unused)(stepper.theta()); }, 0.0, 2.0 * o.dt)
            .second);
  }
  const double theta_release = z_r(stepper.theta());
  r.dropback = theta_peak > theta_final ? theta_peak - theta_final : theta_release - theta_final;
  r.dropback_ratio = r.dropback / r.q_ss;
  r.release_ratio = (theta_release - theta_final) / r.q_ss;
  r.region = ClassifyDropback(r.dropback_ratio, r.overshoot);

  // The history on the pilot's time: at rest until the delay, then shifted by it.
  const std::size_t total = hold.z.size() + after.z.size() - 1;
  r.time.reserve(total + 1);
  r.time.push_back(0.0);
  r.q.push_back(0.0);
  r.theta.push_back(0.0);
  for (std::size_t k = 0; k < total; ++k) {
    const Eigen::VectorXd& z = k < hold.z.size() ? hold.z[k] : after.z[k - hold.z.size() + 1];
    r.time.push_back(delay + static_cast<double>(k) * o.dt);
    r.q.push_back(stepper.q(z));
    r.theta.push_back(z(stepper.theta()));
  }
  return r;
}

double DropbackStep(double step_deg) {
  if (!std::isfinite(step_deg) || step_deg <= 0.0 || step_deg > kMaxDropbackStepDeg)
    throw std::invalid_argument(fmt::format("--dropback-step: the step must be > 0 and at most {:g} deg (got {:g})",
                                            kMaxDropbackStepDeg, step_deg));
  return step_deg * core::kDegToRad;
}

analysis::Level GradeCap(double cap, analysis::AircraftClass aircraft_class,
                         analysis::FlightPhaseCategory category) {
  const auto limits = analysis::RequirementLimits(analysis::Criterion::kShortPeriodCap, aircraft_class, category);
  return limits ? analysis::LevelFor(cap, *limits) : analysis::Level::k1;
}

namespace {

// The index of the control `name` among `sys`'s inputs, or -1.
int InputIndex(const model::StateSpace& sys, const std::string& name) {
  for (int k = 0; k < sys.num_inputs(); ++k)
    if (sys.inputs()[k].name == name) return k;
  return -1;
}

// The attitude response of one channel, signed so a positive command is
// nose-up (right roll): the sign of the control's entry in the rate row.
std::optional<BandwidthResult> AttitudeBandwidth(const model::StateSpace& sys, const std::vector<analysis::Mode>& modes,
                                                 const std::vector<analysis::FilterRoot>& filters,
                                                 const std::string& control, int rate, int attitude,
                                                 const model::CommandPath& path, double& sign) {
  const int input = InputIndex(sys, control);
  if (input < 0 || sys.B()(rate, input) == 0.0) return std::nullopt;
  sign = sys.B()(rate, input) > 0.0 ? 1.0 : -1.0;
  ExactResponse g{analysis::ComputeTransferFunction(sys, input, attitude, modes, filters), {}, path.delay};
  g.rational.gain *= sign;
  if (g.rational.dc_gain) *g.rational.dc_gain *= sign;
  if (const auto a = path.actuators.find(control); a != path.actuators.end())
    g.lags.push_back(a->second.time_constant);
  return ComputeBandwidth(g);
}

}  // namespace

MilStd1797Result AssessMilStd1797(const model::AircraftData& aircraft, const model::CommandPath& path,
                                  const DropbackOptions& dropback) {
  namespace lon = model::lon;
  namespace lat = model::lat;
  MilStd1797Result r;
  const analysis::ModalAnalysis modes = AnalyzeClosedLoop(aircraft);
  const model::StateSpace& sys = modes.longitudinal_model;
  r.pitch = AttitudeBandwidth(sys, modes.longitudinal, modes.filters_of(model::Axis::kLongitudinal), "elevator", lon::kQ, lon::kTheta, path, r.elevator_sign);
  r.roll = AttitudeBandwidth(modes.lateral_model, modes.lateral, modes.filters_of(model::Axis::kLateral), "aileron", lat::kP, lat::kPhi, path,
                             r.aileron_sign);
  const int e = InputIndex(sys, "elevator");
  if (!r.pitch) {
    r.dropback_note = r.cap_note = "no elevator acting on q: the pitch criteria need a control named 'elevator'";
    return r;
  }
  // Dropback: the short-term (constant-speed) model, α and q of A (the
  // augmented A with [augmentation]); u and θ's feedback are slow, left out.
  PitchModel pitch;
  const std::array<int, 2> idx = {lon::kAlpha, lon::kQ};
  pitch.A.resize(2, 2);
  pitch.b.resize(2);
  for (int i = 0; i < 2; ++i) {
    pitch.b(i) = r.elevator_sign * sys.B()(idx[i], e);
    for (int j = 0; j < 2; ++j) pitch.A(i, j) = sys.A()(idx[i], idx[j]);
  }
  pitch.c_q = Eigen::RowVector2d(0.0, 1.0);
  std::optional<model::Actuator> actuator;
  if (const auto a = path.actuators.find("elevator"); a != path.actuators.end()) actuator = a->second;
  try {
    r.dropback = ComputeDropback(pitch, actuator, path.delay, dropback);
  } catch (const std::invalid_argument& ex) {
    r.dropback_note = ex.what();
  }
  // CAP from 1/Tθ2: the zero of θ/δe farthest from the origin on the
  // negative real axis (P2V-7: 0.03775 = 1/Tθ1 and 0.7238 = 1/Tθ2).
  const analysis::TransferFunction theta = analysis::ComputeTransferFunction(sys, e, lon::kTheta, modes.longitudinal,
                                                                                   modes.filters_of(model::Axis::kLongitudinal));
  double inverse_t2 = 0.0;
  for (const analysis::Factor& z : theta.zeros)
    if (!z.second_order && z.root.real() < 0.0) inverse_t2 = std::max(inverse_t2, -z.root.real());
  std::optional<analysis::SecondOrderRoots> sp;
  try {
    sp = analysis::SummarizeModes(modes.longitudinal, modes.lateral, aircraft).short_period;
  } catch (const std::invalid_argument& ex) {
    r.cap_note = ex.what();
  }
  if (inverse_t2 == 0.0) {
    r.cap_note = "θ/δe has no real zero in the left half-plane: no 1/Tθ2";
  } else if (sp && sp->natural_frequency_squared() > 0.0) {
    CapTheta2 cap;
    cap.inverse_t_theta2 = inverse_t2;
    cap.n_alpha = aircraft.condition.U0 / aircraft.condition.g * inverse_t2;
    cap.omega_sp = sp->natural_frequency();
    cap.cap = sp->natural_frequency_squared() / cap.n_alpha;
    r.cap = cap;
  } else if (r.cap_note.empty()) {
    r.cap_note = "the short period has no natural frequency (a real root at or right of 0)";
  }
  return r;
}

namespace {

// A number of --actuator's text, or an error naming the spec.
double ActuatorNumber(const std::string& text, const std::string& spec) {
  const std::optional<double> v = detail::TypedNumber(text);
  if (!v)
    throw std::invalid_argument("--actuator " + spec + ": '" + text +
                                "' is not a number (NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]])");
  return *v;
}

}  // namespace

model::CommandPath ResolveCommandPath(const model::AircraftData& aircraft, const std::string& file,
                                      const std::vector<std::string>& actuators, std::optional<double> delay) {
  std::map<std::string, model::Actuator> given;
  for (const std::string& spec : actuators) {
    const std::size_t eq = spec.find('=');
    const std::string name = spec.substr(0, eq);
    const model::Control* control = nullptr;
    std::string names;
    for (const model::Control& c : aircraft.controls) {
      if (c.name == name) control = &c;
      if (c.unit == core::Unit::kRadian) names += (names.empty() ? "" : ", ") + c.name;
    }
    if (eq == std::string::npos || control == nullptr || control->unit != core::Unit::kRadian)
      throw std::invalid_argument("--actuator " + spec + ": expected NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]] with NAME a "
                       "control surface of " + file + " (" + names + ")");
    std::vector<std::string> parts;
    for (std::size_t from = eq + 1;;) {
      const std::size_t colon = spec.find(':', from);
      parts.push_back(spec.substr(from, colon - from));
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
    if (parts.size() > 3) throw std::invalid_argument("--actuator " + spec + ": at most TAU_S:LIMIT_DEG:RATE_DEG_S");
    model::Actuator a;
    a.time_constant = ActuatorNumber(parts[0], spec);
    if (const std::string p = model::TimeConstantProblem(a.time_constant); !p.empty())
      throw std::invalid_argument("--actuator " + spec + ": " + p);
    for (std::size_t k = 1; k < parts.size(); ++k) {
      const double v = ActuatorNumber(parts[k], spec);
      if (const std::string p = model::LimitProblem(v); !p.empty()) throw std::invalid_argument("--actuator " + spec + ": " + p);
      (k == 1 ? a.position_limit : a.rate_limit) = v * core::kDegToRad;
    }
    given[name] = a;
  }
  if (delay)
    if (const std::string p = model::DelayProblem(*delay); !p.empty()) throw std::invalid_argument("--delay: " + p);
  return model::Override(aircraft.command_path, given, delay);
}

}  // namespace aerolin::study
