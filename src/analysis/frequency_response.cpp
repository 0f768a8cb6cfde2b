#include "aerolin/analysis/frequency_response.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <utility>
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

FrequencyGrid FrequencyGrid::LogSpaced(double from, double to, int points) {
  if (!(from > 0.0) || !(to > from) || !std::isfinite(to) || points < 2)
    throw std::invalid_argument("LogSpace: need 0 < from < to and at least 2 points, got " +
                                std::to_string(from) + ", " + std::to_string(to) + ", " +
                                std::to_string(points));
  FrequencyGrid grid;
  grid.from_ = from;
  grid.to_ = to;
  grid.log_from_ = std::log10(from);
  grid.log_to_ = std::log10(to);
  grid.count_ = static_cast<std::size_t>(points);
  return grid;
}

FrequencyGrid FrequencyGrid::Listed(std::vector<double> omega) {
  FrequencyGrid grid;
  grid.listed_ = std::move(omega);
  return grid;
}

double FrequencyGrid::operator[](std::size_t k) const {
  if (!listed_.empty()) return listed_[k];
  if (k == 0) return from_;
  if (k + 1 == count_) return to_;
  const int i = static_cast<int>(k), points = static_cast<int>(count_);
  const double a = log_from_, b = log_to_;
  return std::pow(10.0, a + (b - a) * i / (points - 1));
}

std::vector<double> LogSpace(double from, double to, int points) {
  const FrequencyGrid grid = FrequencyGrid::LogSpaced(from, to, points);
  std::vector<double> out(grid.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = grid[k];
  return out;
}

BodeCursor::BodeCursor(const FrequencyResponse& response, const TransferFunction& tf, int input, int output,
                       const FrequencyGrid& omega)
    : response_(response), tf_(tf), input_(input), output_(output), omega_(omega) {
  if (omega.size() == 0) throw std::invalid_argument("ComputeBode: no frequency");
  // Every frequency is checked before any point is computed.
  for (std::size_t i = 0; i < omega.size(); ++i) {
    const double w = omega[i];
    if (!std::isfinite(w) || w <= 0.0)
      throw std::invalid_argument("ComputeBode: frequencies must be finite and positive, got " +
                                  std::to_string(w));
    if (i > 0 && w <= omega[i - 1]) throw std::invalid_argument("ComputeBode: frequencies must be ascending");
  }
}

std::span<const BodePoint> BodeCursor::Next(std::size_t max) {
  const std::size_t m = std::min(max, omega_.size() - next_);
  chunk_omega_.resize(m);
  for (std::size_t i = 0; i < m; ++i) chunk_omega_[i] = omega_[next_ + i];
  const std::vector<cd> values = m ? response_.Sweep(chunk_omega_, input_, output_) : std::vector<cd>{};
  chunk_.resize(m);
  constexpr double kTurn = 360.0;
  for (std::size_t i = 0; i < m; ++i) {
    // Continuous phase of the factored form [deg] (no sweep skips a turn).
    const double continuous = ContinuousPhase(tf_, chunk_omega_[i]) * core::kRadToDeg;
    BodePoint& b = chunk_[i];
    b = BodePoint{};
    b.omega = chunk_omega_[i];
    b.value = values[i];
    b.magnitude = std::abs(values[i]);
    b.magnitude_db = b.magnitude > 0.0 ? 20.0 * std::log10(b.magnitude)
                                       : -std::numeric_limits<double>::infinity();
    b.phase_principal_deg = std::arg(values[i]) * core::kRadToDeg;
    if (b.phase_principal_deg <= -180.0) b.phase_principal_deg += kTurn;  // (−180, 180]
    b.phase_deg = b.phase_principal_deg +
                  kTurn * std::round((continuous - b.phase_principal_deg) / kTurn);
    // Whole turns so the first point lies in (−360, 0].
    if (next_ + i == 0) turns_ = std::ceil(b.phase_deg / kTurn);  // φ₀ − 360·turns ∈ (−360, 0]
    b.phase_deg -= kTurn * turns_;
  }
  next_ += m;
  return chunk_;
}

std::vector<BodePoint> ComputeBode(const FrequencyResponse& response, const TransferFunction& tf,
                                   int input, int output, const std::vector<double>& omega) {
  const FrequencyGrid grid = FrequencyGrid::Listed(omega);
  BodeCursor cursor(response, tf, input, output, grid);
  std::vector<BodePoint> points;
  points.reserve(omega.size());
  for (std::span<const BodePoint> chunk = cursor.Next(); !chunk.empty(); chunk = cursor.Next())
    points.insert(points.end(), chunk.begin(), chunk.end());
  return points;
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

void ResonanceScan::Add(const BodePoint& point) {
  if (count_ == 0) front_ = point;
  back_ = point;
  window_[0] = window_[1];
  window_[1] = window_[2];
  window_[2] = point;
  ++count_;
  for (Bracket* b : {&low_, &high_}) {
    if (b->hi) continue;
    if (point.omega < b->omega) b->lo = point;
    else b->hi = point;
  }
  if (count_ < 3 || !(wn_ > 0.0)) return;
  // The middle of the window is a candidate: an interior local maximum of
  // |G| in [ωn/2, 2ωn], the nearest ωn (log distance) winning, the first on ties.
  const BodePoint& mid = window_[1];
  const double w = mid.omega;
  if (w < 0.5 * wn_ || w > 2.0 * wn_) return;
  if (!(mid.magnitude_db > window_[0].magnitude_db && mid.magnitude_db >= window_[2].magnitude_db)) return;
  if (!best_ || std::abs(std::log(w / wn_)) < std::abs(std::log((*best_)[1].omega / wn_)))
    best_ = std::array<BodePoint, 3>{window_[0], window_[1], window_[2]};
}

std::optional<Resonance> ResonanceScan::Result() const {
  if (count_ < 3 || !(wn_ > 0.0) || !best_) return std::nullopt;
  const std::array<BodePoint, 3>& p = *best_;
  // Parabola through (log ω, dB) of the three samples.
  const double x0 = std::log(p[0].omega), x1 = std::log(p[1].omega), x2 = std::log(p[2].omega);
  const double y0 = p[0].magnitude_db, y1 = p[1].magnitude_db, y2 = p[2].magnitude_db;
  const double d01 = (y1 - y0) / (x1 - x0), d12 = (y2 - y1) / (x2 - x1);
  const double curvature = (d12 - d01) / (x2 - x0);
  Resonance r{p[1].omega, y1, 0.0};
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
  auto db_at = [this](const Bracket& b) {
    if (b.omega <= front_.omega) return front_.magnitude_db;
    if (b.omega >= back_.omega) return back_.magnitude_db;
    const BodePoint& hi = *b.hi;
    const BodePoint& lo = *b.lo;
    const double t = std::log(b.omega / lo.omega) / std::log(hi.omega / lo.omega);
    return lo.magnitude_db + t * (hi.magnitude_db - lo.magnitude_db);
  };
  const double wl = low_.omega, wh = high_.omega;
  const double t = std::log(r.omega / wl) / std::log(wh / wl);
  r.prominence_db = r.magnitude_db - (db_at(low_) + t * (db_at(high_) - db_at(low_)));
  return r;
}

std::optional<Resonance> FindResonance(const std::vector<BodePoint>& bode,
                                       double natural_frequency) {
  ResonanceScan scan(natural_frequency);
  for (const BodePoint& p : bode) scan.Add(p);
  return scan.Result();
}

BandwidthScan::BandwidthScan(std::optional<double> dc_gain) {
  defined_ = dc_gain && *dc_gain != 0.0 && std::isfinite(*dc_gain);
  if (defined_) level_db_ = 20.0 * std::log10(std::abs(*dc_gain)) - 20.0 * std::log10(std::sqrt(2.0));
}

void BandwidthScan::Add(const BodePoint& point) {
  if (!defined_) return;
  // The run of points below the level that ends at the last point, and the
  // sample before it: the crossing lies between the two.
  if (!(point.magnitude_db < level_db_)) {
    crossing_ = false;
  } else if (any_ && !(last_.magnitude_db < level_db_)) {
    crossing_ = true;
    above_ = last_;
    below_ = point;
  }
  last_ = point;
  any_ = true;
}

std::optional<double> BandwidthScan::Result() const {
  // Below the level from the first point (no crossing), or not below it at
  // the last: no bandwidth within the sweep.
  if (!defined_ || !any_ || !crossing_) return std::nullopt;
  const BodePoint& lo = above_;
  const BodePoint& hi = below_;
  const double t = (level_db_ - lo.magnitude_db) / (hi.magnitude_db - lo.magnitude_db);
  return std::exp(std::log(lo.omega) + t * std::log(hi.omega / lo.omega));
}

std::optional<double> Bandwidth(const std::vector<BodePoint>& bode,
                                std::optional<double> dc_gain) {
  BandwidthScan scan(dc_gain);
  for (const BodePoint& p : bode) scan.Add(p);
  return scan.Result();
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

BodeSweep::BodeSweep(const Channel& channel, const ModalAnalysis& modes, FrequencyGrid omega)
    : omega_(std::move(omega)), response_(channel.system), input_(channel.input), outputs_(channel.outputs) {
  const std::vector<Mode>& axis_modes = modes.modes(channel.axis);
  summary_.axis = channel.axis;
  summary_.input = channel.system.inputs()[static_cast<std::size_t>(channel.input)];
  for (const Mode& m : axis_modes)
    if (m.natural_frequency > 0.0) summary_.modes.push_back({m.kind, m.full_name(), m.natural_frequency});
  std::sort(summary_.modes.begin(), summary_.modes.end(),
            [](const ModeMark& a, const ModeMark& b) { return a.natural_frequency < b.natural_frequency; });
  for (std::size_t k = 0; k < outputs_.size(); ++k) {
    BodeCurve curve;
    curve.tf = ChannelTransferFunction(channel, modes, k);
    // The resonances of the short period and Dutch roll, and the bandwidth,
    // found in one pass over the curve's points.
    std::vector<const Mode*> resonant;
    std::vector<ResonanceScan> resonances;
    for (const Mode& m : axis_modes)
      if (m.oscillatory && (m.kind == ModeKind::kShortPeriod || m.kind == ModeKind::kDutchRoll)) {
        resonant.push_back(&m);
        resonances.emplace_back(m.natural_frequency);
      }
    BandwidthScan bandwidth(curve.tf.dc_gain);
    BodeCursor cursor(response_, curve.tf, input_, outputs_[k], omega_);
    for (std::span<const BodePoint> chunk = cursor.Next(); !chunk.empty(); chunk = cursor.Next())
      for (const BodePoint& p : chunk) {
        for (ResonanceScan& r : resonances) r.Add(p);
        bandwidth.Add(p);
      }
    for (std::size_t i = 0; i < resonant.size(); ++i)
      if (const std::optional<Resonance> r = resonances[i].Result())
        curve.resonances.push_back({resonant[i]->kind, resonant[i]->full_name(), *r});
    curve.bandwidth = bandwidth.Result();
    summary_.curves.push_back(std::move(curve));
  }
}

void BodeSweep::ForEachChunk(std::span<const std::size_t> curves,
                             const std::function<void(std::span<const std::span<const BodePoint>>)>& f) const {
  std::vector<BodeCursor> cursors;
  cursors.reserve(curves.size());
  for (std::size_t k : curves)
    cursors.emplace_back(response_, summary_.curves.at(k).tf, input_, outputs_[k], omega_);
  std::vector<std::span<const BodePoint>> chunk(curves.size());
  while (!cursors.empty()) {
    for (std::size_t i = 0; i < cursors.size(); ++i) chunk[i] = cursors[i].Next();
    if (chunk.front().empty()) break;
    f(chunk);
  }
}

BodeDiagram BodeSweep::Diagram() const {
  BodeDiagram diagram = summary_;
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const std::size_t curve[] = {k};
    ForEachChunk(curve, [&](std::span<const std::span<const BodePoint>> chunk) {
      diagram.curves[k].points.insert(diagram.curves[k].points.end(), chunk[0].begin(), chunk[0].end());
    });
  }
  return diagram;
}

BodeDiagram ComputeBodeDiagram(const Channel& channel, const ModalAnalysis& modes,
                               std::vector<double> omega, int points) {
  FrequencyGrid grid = FrequencyGrid::Listed(std::move(omega));
  if (grid.size() == 0) {
    const auto [from, to] = DefaultFrequencyRange(modes.modes(channel.axis));
    grid = FrequencyGrid::LogSpaced(from, to, points);
  }
  return BodeSweep(channel, modes, std::move(grid)).Diagram();
}

}  // namespace aerolin::analysis
