#include "aerolin/analysis/frequency_response.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;

// A pivot this small relative to ‖H‖ + |s| means s is an eigenvalue of A to
// working precision: the response is unbounded there.
constexpr double kSingularPivot = 1e-14;

}  // namespace

FrequencyResponse::FrequencyResponse(const model::StateSpace& sys) {
  if (sys.num_states() == 0)
    throw std::invalid_argument("FrequencyResponse: the model has no state");
  const Eigen::HessenbergDecomposition<Eigen::MatrixXd> hess(sys.A());
  const Eigen::MatrixXd Q = hess.matrixQ();
  H_ = hess.matrixH();
  Bt_ = Q.transpose() * sys.B();
  Ct_ = sys.C() * Q;
  D_ = sys.D();
}

void FrequencyResponse::Solve(std::complex<double> s, int input, Eigen::MatrixXcd& M,
                              Eigen::VectorXcd& x) const {
  if (input < 0 || input >= Bt_.cols())
    throw std::invalid_argument("FrequencyResponse: input " + std::to_string(input) +
                                " out of range (" + std::to_string(Bt_.cols()) + " inputs)");
  const Eigen::Index n = H_.rows();
  // M = sI − H, upper Hessenberg; eliminate the one sub-diagonal entry of each
  // column, swapping with the row below when that entry is larger: O(n²).
  M = -H_.cast<cd>();
  M.diagonal().array() += s;
  x = Bt_.col(input).cast<cd>();
  const double scale = H_.cwiseAbs().maxCoeff() + std::abs(s);
  for (Eigen::Index k = 0; k + 1 < n; ++k) {
    if (std::abs(M(k + 1, k)) > std::abs(M(k, k))) {
      M.row(k).tail(n - k).swap(M.row(k + 1).tail(n - k));
      std::swap(x(k), x(k + 1));
    }
    if (M(k + 1, k) == 0.0) continue;
    const cd f = M(k + 1, k) / M(k, k);
    M.row(k + 1).tail(n - k - 1) -= f * M.row(k).tail(n - k - 1);
    M(k + 1, k) = 0.0;
    x(k + 1) -= f * x(k);
  }
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    if (std::abs(M(k, k)) <= kSingularPivot * scale)
      throw core::NumericalError("frequency response: sI - A is singular at s = " +
                                 std::to_string(s.real()) + (s.imag() < 0 ? " - " : " + ") +
                                 std::to_string(std::abs(s.imag())) + "i (a pole of the model)");
    cd sum = x(k);
    for (Eigen::Index j = k + 1; j < n; ++j) sum -= M(k, j) * x(j);
    x(k) = sum / M(k, k);
  }
}

Eigen::VectorXcd FrequencyResponse::Evaluate(std::complex<double> s, int input) const {
  Eigen::MatrixXcd M;
  Eigen::VectorXcd x;
  Solve(s, input, M, x);
  return Ct_.cast<cd>() * x + D_.col(input).cast<cd>();
}

std::vector<std::complex<double>> FrequencyResponse::Sweep(const std::vector<double>& omega,
                                                           int input, int output) const {
  if (output < 0 || output >= Ct_.rows())
    throw std::invalid_argument("FrequencyResponse: output " + std::to_string(output) +
                                " out of range (" + std::to_string(Ct_.rows()) + " outputs)");
  std::vector<cd> out;
  out.reserve(omega.size());
  Eigen::MatrixXcd M(H_.rows(), H_.cols());  // workspace, reused at every frequency
  Eigen::VectorXcd x(H_.rows());
  const Eigen::RowVectorXd c = Ct_.row(output);
  for (const double w : omega) {
    Solve(cd(0.0, w), input, M, x);
    cd y = D_(output, input);
    for (Eigen::Index j = 0; j < x.size(); ++j) y += c(j) * x(j);
    out.push_back(y);
  }
  return out;
}

std::vector<BodePoint> ComputeBode(const FrequencyResponse& response, const TransferFunction& tf,
                                   int input, int output, const std::vector<double>& omega) {
  if (omega.empty()) throw std::invalid_argument("ComputeBode: no frequency");
  for (std::size_t i = 0; i < omega.size(); ++i) {
    if (!std::isfinite(omega[i]) || omega[i] <= 0.0)
      throw std::invalid_argument("ComputeBode: frequencies must be finite and positive, got " +
                                  std::to_string(omega[i]));
    if (i > 0 && omega[i] <= omega[i - 1])
      throw std::invalid_argument("ComputeBode: frequencies must be ascending");
  }
  const std::vector<cd> values = response.Sweep(omega, input, output);
  std::vector<BodePoint> points;
  points.reserve(omega.size());
  constexpr double kTurn = 360.0;
  for (std::size_t i = 0; i < omega.size(); ++i) {
    const cd s(0.0, omega[i]);
    // Continuous phase of the factored form [deg]. arg(jω − r) is continuous
    // in ω for Re r ≤ 0 (the argument stays in the right half-plane or on the
    // imaginary axis); for Re r > 0 it would cross atan2's cut on the negative
    // real axis, so take arg(r − jω) + 180° instead.
    auto term = [&s](cd r) {
      return r.real() > 0.0 ? std::arg(r - s) * core::kRadToDeg + 180.0
                            : std::arg(s - r) * core::kRadToDeg;
    };
    double continuous = tf.gain < 0.0 ? 180.0 : 0.0;
    for (const Factor& z : tf.zeros) {
      continuous += term(z.root);
      if (z.second_order) continuous += term(std::conj(z.root));
    }
    for (const Factor& p : tf.poles) {
      continuous -= term(p.root);
      if (p.second_order) continuous -= term(std::conj(p.root));
    }
    BodePoint b;
    b.omega = omega[i];
    b.value = values[i];
    b.magnitude = std::abs(values[i]);
    b.magnitude_db = b.magnitude > 0.0 ? 20.0 * std::log10(b.magnitude)
                                       : -std::numeric_limits<double>::infinity();
    b.phase_principal_deg = std::arg(values[i]) * core::kRadToDeg;
    if (b.phase_principal_deg <= -180.0) b.phase_principal_deg += kTurn;  // (−180, 180]
    b.phase_deg = b.phase_principal_deg +
                  kTurn * std::round((continuous - b.phase_principal_deg) / kTurn);
    points.push_back(b);
  }
  // Whole turns so the first point lies in (−360, 0].
  const double turns = std::ceil(points.front().phase_deg / kTurn);  // φ₀ − 360·turns ∈ (−360, 0]
  for (BodePoint& b : points) b.phase_deg -= kTurn * turns;
  return points;
}

std::vector<double> LogSpace(double from, double to, int points) {
  if (!(from > 0.0) || !(to > from) || !std::isfinite(to) || points < 2)
    throw std::invalid_argument("LogSpace: need 0 < from < to and at least 2 points, got " +
                                std::to_string(from) + ", " + std::to_string(to) + ", " +
                                std::to_string(points));
  std::vector<double> out(static_cast<std::size_t>(points));
  const double a = std::log10(from), b = std::log10(to);
  for (int i = 0; i < points; ++i)
    out[static_cast<std::size_t>(i)] = std::pow(10.0, a + (b - a) * i / (points - 1));
  out.front() = from;
  out.back() = to;
  return out;
}

std::pair<double, double> DefaultFrequencyRange(const std::vector<Mode>& modes) {
  double slow = std::numeric_limits<double>::infinity(), fast = 0.0;
  for (const Mode& m : modes)
    if (m.natural_frequency > 0.0) {
      slow = std::min(slow, m.natural_frequency);
      fast = std::max(fast, m.natural_frequency);
    }
  if (!(fast > 0.0))
    throw std::invalid_argument("DefaultFrequencyRange: no mode with a positive frequency");
  return {slow / 10.0, fast * 10.0};
}

std::optional<Resonance> FindResonance(const std::vector<BodePoint>& bode,
                                       double natural_frequency) {
  if (bode.size() < 3 || !(natural_frequency > 0.0)) return std::nullopt;
  std::optional<std::size_t> best;
  for (std::size_t i = 1; i + 1 < bode.size(); ++i) {
    const double w = bode[i].omega;
    if (w < 0.5 * natural_frequency || w > 2.0 * natural_frequency) continue;
    if (!(bode[i].magnitude_db > bode[i - 1].magnitude_db &&
          bode[i].magnitude_db >= bode[i + 1].magnitude_db))
      continue;
    if (!best || std::abs(std::log(w / natural_frequency)) <
                     std::abs(std::log(bode[*best].omega / natural_frequency)))
      best = i;
  }
  if (!best) return std::nullopt;
  const std::size_t i = *best;
  // Parabola through (log ω, dB) of the three samples.
  const double x0 = std::log(bode[i - 1].omega), x1 = std::log(bode[i].omega),
               x2 = std::log(bode[i + 1].omega);
  const double y0 = bode[i - 1].magnitude_db, y1 = bode[i].magnitude_db,
               y2 = bode[i + 1].magnitude_db;
  const double d01 = (y1 - y0) / (x1 - x0), d12 = (y2 - y1) / (x2 - x1);
  const double curvature = (d12 - d01) / (x2 - x0);
  Resonance r{bode[i].omega, y1, 0.0};
  if (curvature < 0.0) {
    // y = y1 + slope (x − x1) + curvature (x − x0)(x − x1)... vertex of the
    // Newton form y0 + d01 (x − x0) + curvature (x − x0)(x − x1).
    const double xv = 0.5 * (x0 + x1) - d01 / (2.0 * curvature);
    if (xv > x0 && xv < x2) {
      r.omega = std::exp(xv);
      r.magnitude_db = y0 + d01 * (xv - x0) + curvature * (xv - x0) * (xv - x1);
    }
  }
  // Prominence over the trend line between ωn/2 and 2ωn (log-linear interpolation).
  auto db_at = [&bode](double w) {
    if (w <= bode.front().omega) return bode.front().magnitude_db;
    if (w >= bode.back().omega) return bode.back().magnitude_db;
    const auto it = std::lower_bound(bode.begin(), bode.end(), w,
                                     [](const BodePoint& b, double v) { return b.omega < v; });
    const BodePoint& hi = *it;
    const BodePoint& lo = *(it - 1);
    const double t = std::log(w / lo.omega) / std::log(hi.omega / lo.omega);
    return lo.magnitude_db + t * (hi.magnitude_db - lo.magnitude_db);
  };
  const double wl = 0.5 * natural_frequency, wh = 2.0 * natural_frequency;
  const double t = std::log(r.omega / wl) / std::log(wh / wl);
  r.prominence_db = r.magnitude_db - (db_at(wl) + t * (db_at(wh) - db_at(wl)));
  return r;
}

std::optional<double> Bandwidth(const std::vector<BodePoint>& bode,
                                std::optional<double> dc_gain) {
  if (!dc_gain || *dc_gain == 0.0 || !std::isfinite(*dc_gain) || bode.empty())
    return std::nullopt;
  const double level_db = 20.0 * std::log10(std::abs(*dc_gain)) - 20.0 * std::log10(std::sqrt(2.0));
  if (bode.back().magnitude_db >= level_db) return std::nullopt;
  // The last sample at or above the level; the crossing follows it.
  std::size_t i = bode.size() - 1;
  while (i > 0 && bode[i - 1].magnitude_db < level_db) --i;
  if (i == 0) return std::nullopt;  // below the level from the start: below the sweep
  const BodePoint& lo = bode[i - 1];
  const BodePoint& hi = bode[i];
  const double t = (level_db - lo.magnitude_db) / (hi.magnitude_db - lo.magnitude_db);
  return std::exp(std::log(lo.omega) + t * std::log(hi.omega / lo.omega));
}

}  // namespace aerolin::analysis

namespace aerolin::analysis {
namespace {

std::string NameList(const std::vector<core::Signal>& signals) {
  std::string out;
  for (const core::Signal& s : signals) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}

int IndexOf(const std::vector<core::Signal>& signals, const std::string& name) {
  for (std::size_t i = 0; i < signals.size(); ++i)
    if (signals[i].name == name) return static_cast<int>(i);
  return -1;
}

}  // namespace

Channel ResolveChannel(const model::AircraftData& aircraft, const ModalAnalysis& modes,
                       const std::string& input, const std::vector<std::string>& outputs) {
  if (outputs.empty()) throw std::invalid_argument("no output given");
  const model::StateSpace lon =
      model::WithDerivedOutputs(modes.longitudinal_model, model::Axis::kLongitudinal, aircraft.condition);
  const model::StateSpace lat =
      model::WithDerivedOutputs(modes.lateral_model, model::Axis::kLateral, aircraft.condition);
  const model::Control* control = nullptr;
  std::string controls;
  for (const model::Control& c : aircraft.controls) {
    controls += (controls.empty() ? "" : ", ") + c.name;
    if (c.name == input) control = &c;
  }
  if (control == nullptr)
    throw std::invalid_argument("unknown control '" + input + "' (this aircraft has: " +
                                controls + ")");
  std::optional<model::Axis> axis;
  for (const std::string& name : outputs) {
    model::Axis this_axis;
    if (IndexOf(lon.outputs(), name) >= 0)
      this_axis = model::Axis::kLongitudinal;
    else if (IndexOf(lat.outputs(), name) >= 0)
      this_axis = model::Axis::kLateral;
    else
      throw std::invalid_argument("unknown output '" + name + "' (longitudinal: " +
                                  NameList(lon.outputs()) + "; lateral: " +
                                  NameList(lat.outputs()) + ")");
    if (axis && *axis != this_axis)
      throw std::invalid_argument("outputs '" + outputs.front() + "' and '" + name +
                                  "' belong to different axes (one figure shows one axis)");
    axis = this_axis;
  }
  const bool longitudinal = *axis == model::Axis::kLongitudinal;
  if (longitudinal ? !control->longitudinal : !control->lateral)
    throw std::invalid_argument("control '" + input + "' does not enter the " +
                                std::string(longitudinal ? "longitudinal" : "lateral") +
                                " model (output '" + outputs.front() + "'): its transfer "
                                "function is zero");
  const model::StateSpace& sys = longitudinal ? lon : lat;
  Channel channel{*axis, sys, IndexOf(sys.inputs(), input), {}};
  for (const std::string& name : outputs) channel.outputs.push_back(IndexOf(sys.outputs(), name));
  return channel;
}

TransferFunction ChannelTransferFunction(const Channel& channel, const ModalAnalysis& modes,
                                         std::size_t k) {
  return ComputeTransferFunction(channel.system, channel.input, channel.outputs.at(k),
                                 modes.modes(channel.axis));
}

BodeDiagram ComputeBodeDiagram(const Channel& channel, const ModalAnalysis& modes,
                               std::vector<double> omega, int points) {
  const std::vector<Mode>& axis_modes = modes.modes(channel.axis);
  if (omega.empty()) {
    const auto [from, to] = DefaultFrequencyRange(axis_modes);
    omega = LogSpace(from, to, points);
  }
  BodeDiagram diagram;
  diagram.axis = channel.axis;
  diagram.input = channel.system.inputs()[static_cast<std::size_t>(channel.input)];
  for (const Mode& m : axis_modes)
    if (m.natural_frequency > 0.0) diagram.modes.push_back({m.kind, m.full_name(), m.natural_frequency});
  std::sort(diagram.modes.begin(), diagram.modes.end(),
            [](const ModeMark& a, const ModeMark& b) { return a.natural_frequency < b.natural_frequency; });
  const FrequencyResponse response(channel.system);
  for (std::size_t k = 0; k < channel.outputs.size(); ++k) {
    BodeCurve curve;
    curve.tf = ChannelTransferFunction(channel, modes, k);
    curve.points = ComputeBode(response, curve.tf, channel.input, channel.outputs[k], omega);
    for (const Mode& m : axis_modes)
      if (m.oscillatory &&
          (m.kind == ModeKind::kShortPeriod || m.kind == ModeKind::kDutchRoll))
        if (const std::optional<Resonance> r = FindResonance(curve.points, m.natural_frequency))
          curve.resonances.push_back({m.kind, m.full_name(), *r});
    curve.bandwidth = Bandwidth(curve.points, curve.tf.dc_gain);
    diagram.curves.push_back(std::move(curve));
  }
  return diagram;
}

}  // namespace aerolin::analysis
