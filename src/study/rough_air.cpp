#include "aerolin/study/rough_air.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include <fmt/format.h>

#include "aerolin/core/units.hpp"
#include "aerolin/model/gust.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/model/state_space.hpp"
#include "held_gust_step.hpp"

namespace aerolin::study {
namespace {

// The filter states of one gust component in sim::DrydenTurbulence: first
// state, count, its gust (model::gust:: index) and its name.
struct GustBlock {
  int offset;
  int size;
  int gust;
};

std::vector<GustBlock> BlocksOf(model::Axis axis, bool has_span) {
  if (axis == model::Axis::kLongitudinal) return {{0, 1, model::gust::kUg}, {3, 2, model::gust::kWg}};
  std::vector<GustBlock> blocks = {{1, 2, model::gust::kVg}};
  // Without a span the p_g filter is idle (no noise): leave it out.
  if (has_span) blocks.push_back({5, 1, model::gust::kPg});
  return blocks;
}

// Σ_j T^j Q T^jᵀ by Smith's doubling: P ← P + T P Tᵀ, T ← T², until the
// added term no longer changes P. nullopt if it has not settled after 2^64
// slices' worth (an axis whose stability the caller has checked settles in
// about log2(1/(|λ|Δt)) + 6 doublings).
std::optional<Eigen::MatrixXd> SmithDoubling(Eigen::MatrixXd T, Eigen::MatrixXd P) {
  for (int i = 0; i < 64; ++i) {
    const Eigen::MatrixXd added = T * P * T.transpose();
    P += added;
    const double scale = P.cwiseAbs().maxCoeff();
    if (!std::isfinite(scale)) return std::nullopt;
    if (added.cwiseAbs().maxCoeff() <= 1e-17 * scale) return (0.5 * (P + P.transpose())).eval();
    T = (T * T).eval();
  }
  return std::nullopt;
}

// Why `axis` has no stationary statistics, or nullopt: its modes (heading
// aside) must all be stable.
std::optional<std::string> NotStationary(const analysis::ModalAnalysis& modes, model::Axis axis) {
  for (const analysis::Mode& m : modes.modes(axis)) {
    if (m.kind == analysis::ModeKind::kHeading) continue;
    if (m.lambda.real() < 0.0) continue;
    const std::string lambda =
        m.oscillatory ? fmt::format("{:+.4g} ± {:.4g}i", m.lambda.real(), m.lambda.imag())
                      : fmt::format("{:+.4g}", m.lambda.real());
    return fmt::format(
        "the {} mode is {} (λ = {} 1/s): with the controls fixed the {} motion does not settle "
        "to a stationary state, so it has no RMS",
        analysis::ToString(m.kind), m.lambda.real() > 0.0 ? "unstable" : "neutrally stable",
        lambda, axis == model::Axis::kLongitudinal ? "longitudinal" : "lateral");
  }
  // A washout filter's root (a real root of the closed loop).
  for (const analysis::FilterRoot& f : modes.filters_of(axis))
    if (!(f.lambda.real() < 0.0))
      return fmt::format("the washout filter's root ({}) is not stable (λ = {:+.4g} 1/s): the {} motion "
                         "does not settle to a stationary state, so it has no RMS",
                         f.state.name, f.lambda.real(), axis == model::Axis::kLongitudinal ? "longitudinal" : "lateral");
  return std::nullopt;
}

AxisStatistics AxisOf(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                      const Eigen::MatrixXd& E_all, const sim::DrydenTurbulence& dryden, model::Axis axis, double dt) {
  AxisStatistics stats;
  stats.axis = axis;
  const bool lon = axis == model::Axis::kLongitudinal;
  // The axis's model with the gusts as its inputs, and its outputs: the
  // closed loop as `modes` has it (model::BuildAugmented), a washout
  // filter's state after the airframe's (4 or 5). The gusts act on the
  // airframe (model::BuildGustInput); a filter state is driven by what its
  // loop measures, so its row of E is 0 (as the loops' closure, the measured
  // output is the airframe's response C x + D δ).
  const model::StateSpace& bare = modes.model_of(axis);
  const int n_axis = static_cast<int>(bare.A().rows());  // 4 or 5, then the filters
  const int n_airframe = lon ? model::lon::kNumStates : model::lat::kNumStates;
  const int row0 = lon ? 0 : 4;                          // E's rows: (u, α, q, θ) then (β, ..., ψ)
  const std::vector<GustBlock> blocks = BlocksOf(axis, dryden.span().has_value());
  Eigen::MatrixXd E = Eigen::MatrixXd::Zero(n_axis, static_cast<Eigen::Index>(blocks.size()));
  for (std::size_t j = 0; j < blocks.size(); ++j)
    E.block(0, static_cast<Eigen::Index>(j), n_airframe, 1) = E_all.block(row0, blocks[j].gust, n_airframe, 1);
  std::vector<core::Signal> gust_signals;
  for (const GustBlock& b : blocks) gust_signals.push_back(model::GustSignals()[static_cast<std::size_t>(b.gust)]);
  const model::StateSpace windy(bare.A(), E, Eigen::MatrixXd::Identity(n_axis, n_axis),
                                Eigen::MatrixXd::Zero(n_axis, E.cols()), bare.states(),
                                gust_signals, bare.states());
  const model::StateSpace out = model::WithDerivedOutputs(windy, axis, aircraft.condition);

  // Drop ψ (lateral): it feeds nothing back (its column of A and E's row are 0).
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < n_axis; ++i)
    if (lon || i != model::lat::kPsi) keep.push_back(i);
  const auto n = static_cast<int>(keep.size());
  const Eigen::MatrixXd A = out.A()(keep, keep);
  const Eigen::MatrixXd Ex = E(keep, Eigen::all);

  // The filters of the axis's gusts: A_d, Q_d, C_f (gust rows) restricted.
  int nf = 0;
  for (const GustBlock& b : blocks) nf += b.size;
  Eigen::MatrixXd Ad = Eigen::MatrixXd::Zero(nf, nf), Qd = Eigen::MatrixXd::Zero(nf, nf);
  Eigen::MatrixXd Cf = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(blocks.size()), nf);
  {
    int o = 0;
    for (std::size_t j = 0; j < blocks.size(); ++j) {
      const GustBlock& b = blocks[j];
      Ad.block(o, o, b.size, b.size) = dryden.Ad().block(b.offset, b.offset, b.size, b.size);
      Qd.block(o, o, b.size, b.size) = dryden.Qd().block(b.offset, b.offset, b.size, b.size);
      Cf.block(static_cast<Eigen::Index>(j), o, 1, b.size) =
          dryden.C().block(b.gust, b.offset, 1, b.size);
      const std::string& g = gust_signals[j].name;
      for (int i = 0; i < b.size; ++i)
        stats.state_names.push_back(g + (i == 0 ? "" : std::string(static_cast<std::size_t>(i), '\'')));
      o += b.size;
    }
  }
  std::vector<std::string> names;
  for (const Eigen::Index i : keep) names.push_back(bare.states()[static_cast<std::size_t>(i)].name);
  names.insert(names.end(), stats.state_names.begin(), stats.state_names.end());
  stats.state_names = std::move(names);

  // The slice's exact propagation with its gust held.
  const detail::HeldGustStep step = detail::ExactHeldGustStep(A, Ex, dt);
  const Eigen::MatrixXd& Phi = step.phi;
  const Eigen::MatrixXd& GammaE = step.gamma_e;

  const Eigen::Index ns = n + nf;
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(ns, ns);
  T.topLeftCorner(n, n) = Phi;
  T.topRightCorner(n, nf) = GammaE * Cf * Ad;
  T.bottomRightCorner(nf, nf) = Ad;
  Eigen::MatrixXd G(ns, nf);
  G.topRows(n) = GammaE * Cf;
  G.bottomRows(nf) = Eigen::MatrixXd::Identity(nf, nf);
  stats.transition = T;

  stats.not_stationary = NotStationary(modes, axis);
  if (stats.not_stationary) return stats;
  if (!T.allFinite()) {
    stats.not_stationary = fmt::format(
        "the slice step dt = {:g} s is too long to propagate (the step overflows): use a shorter step",
        dt);
    return stats;
  }
  const std::optional<Eigen::MatrixXd> P = SmithDoubling(T, G * Qd * G.transpose());
  if (!P) {
    stats.not_stationary = "the covariance did not settle (a mode too close to neutral)";
    return stats;
  }
  stats.covariance = *P;

  // Output rows on s = (x, ξ): y = C_y x + D_y C_f ξ; ẏ = C_y (A x + E C_f ξ).
  std::vector<Eigen::RowVectorXd> rows;
  auto add = [&](const core::Signal& signal, const Eigen::RowVectorXd& c,
                 const std::optional<Eigen::RowVectorXd>& c_rate, bool feedthrough) {
    OutputStatistics o;
    o.signal = signal;
    o.gust_feedthrough = feedthrough;
    const double var = (c * *P * c.transpose())(0, 0);
    o.rms = std::sqrt(std::max(var, 0.0));
    if (c_rate) o.rate_rms = std::sqrt(std::max((*c_rate * *P * c_rate->transpose())(0, 0), 0.0));
    if (var > 0.0) {
      const double rho = std::clamp((c * T * *P * c.transpose())(0, 0) / var, -1.0, 1.0);
      o.n0_per_s = std::acos(rho) / (2.0 * std::numbers::pi * dt);
    }
    stats.outputs.push_back(std::move(o));
    rows.push_back(c);
  };
  Eigen::MatrixXd rate_map(n, ns);  // ẋ = [A, E C_f] s
  rate_map.leftCols(n) = A;
  rate_map.rightCols(nf) = Ex * Cf;
  for (int k = 0; k < out.num_outputs(); ++k) {
    if (!lon && k == model::lat::kPsi) continue;
    Eigen::RowVectorXd c(ns);
    c.head(n) = out.C()(k, keep);
    const Eigen::RowVectorXd d = out.D().row(k);
    c.tail(nf) = d * Cf;
    const Eigen::RowVectorXd c_rate = c.head(n) * rate_map;
    add(out.outputs()[static_cast<std::size_t>(k)], c, c_rate, d.cwiseAbs().maxCoeff() > 0.0);
  }
  for (std::size_t j = 0; j < blocks.size(); ++j) {
    Eigen::RowVectorXd c = Eigen::RowVectorXd::Zero(ns);
    c.tail(nf) = Cf.row(static_cast<Eigen::Index>(j));
    add(gust_signals[j], c, std::nullopt, true);
  }
  stats.output_rows.resize(static_cast<Eigen::Index>(rows.size()), ns);
  for (std::size_t i = 0; i < rows.size(); ++i) stats.output_rows.row(static_cast<Eigen::Index>(i)) = rows[i];
  return stats;
}

}  // namespace

RoughAirStatistics ExactRoughAirStatistics(const model::AircraftData& aircraft,
                                           const analysis::ModalAnalysis& modes,
                                           const RoughAirSpec& spec) {
  // The flight this describes, prepared as any other: one rule for the
  // height, the span, the filters and the model.
  FlightSpec flight;
  flight.slice.dt = spec.dt;
  flight.slice.integrator = sim::Integrator::kExact;
  flight.turbulence = spec.turbulence;
  // The turbulence and the gusts' input matrix are the airframe's
  // (model::BuildGustInput): prepared on it, so a closed loop whose washout
  // filter a flight does not carry has its statistics too.
  const PreparedFlight prepared = Prepare(model::BareAirframe(aircraft), modes, flight);
  const sim::DrydenTurbulence& dryden = *prepared.turbulence();

  RoughAirStatistics stats;
  stats.turbulence = *prepared.turbulence_flown();
  stats.height_source = prepared.turbulence_height_source();
  stats.dryden = dryden.parameters();
  stats.sigma_p = dryden.sigma_p();
  stats.airspeed = dryden.airspeed();
  stats.dt = spec.dt;
  stats.longitudinal = AxisOf(aircraft, modes, prepared.model().E(), dryden,
                                model::Axis::kLongitudinal, spec.dt);
  stats.lateral = AxisOf(aircraft, modes, prepared.model().E(), dryden,
                           model::Axis::kLateral, spec.dt);
  return stats;
}

RoughAirProfile RoughAirHeightProfile(const model::AircraftData& aircraft,
                                      const analysis::ModalAnalysis& modes,
                                      const RoughAirSpec& spec) {
  constexpr double kPerDecade = 24.0;
  const double lowest = 10.0 * core::kMetresPerFoot, highest = 80000.0 * core::kMetresPerFoot;
  RoughAirProfile profile;
  const int steps = static_cast<int>(std::ceil(kPerDecade * std::log10(highest / lowest)));
  for (int k = 0; k <= steps; ++k)
    profile.heights.push_back(lowest * std::pow(highest / lowest, static_cast<double>(k) / steps));
  for (const double h : sim::DrydenBreakpointHeights()) profile.heights.push_back(h);
  std::sort(profile.heights.begin(), profile.heights.end());
  // Breakpoints that the log spacing already hit (10 ft, 80 000 ft) once.
  profile.heights.erase(std::unique(profile.heights.begin(), profile.heights.end(),
                                    [](double a, double b) { return std::abs(a - b) <= 1e-9 * b; }),
                        profile.heights.end());
  for (int i = 0; i < 3; ++i) {
    RoughAirSpec at = spec;
    at.turbulence.intensity = static_cast<sim::TurbulenceIntensity>(i);
    for (const double h : profile.heights) {
      at.turbulence.height = h;
      profile.statistics[static_cast<std::size_t>(i)].push_back(
          ExactRoughAirStatistics(aircraft, modes, at));
    }
  }
  return profile;
}

double ExceedanceRate(const OutputStatistics& output, double level) {
  if (output.rms <= 0.0) return 0.0;
  const double r = level / output.rms;
  return output.n0_per_s * std::exp(-0.5 * r * r);
}

}  // namespace aerolin::study
