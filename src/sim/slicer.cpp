#include "aerolin/sim/slicer.hpp"

// odeint's controlled stepper copies a default-constructed dopri5 whose
// fixed-size Eigen buffers are not yet initialized (they are written before
// being read); GCC 12 flags the copy. Silenced for this file only.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>
#include <array>
#include <cassert>
// odeint.hpp first: the Eigen adaptor builds on its algebra dispatcher.
#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

#include "aerolin/core/matrix_exponential.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/vector_isa.hpp"
#include "aerolin/sim/sincos_table.hpp"

namespace aerolin::sim {
namespace {

namespace odeint = boost::numeric::odeint;

// Fixed-size 12-vectors keep every RK stage on the stack: no allocation, and
// Eigen unrolls the 9×9 product.
using Dopri5 = odeint::runge_kutta_dopri5<FlightState, double, FlightState,
                                          double, odeint::vector_space_algebra>;
using ErrorChecker =
    odeint::default_error_checker<double, odeint::vector_space_algebra,
                                  odeint::default_operations>;
using ControlledDopri5 = odeint::controlled_runge_kutta<Dopri5, ErrorChecker>;

// A flight with actuators: the 12 flight states and the auxiliary state
// (FlightModel::AddActuators) in one vector, so one stepper integrates both
// under one error control; still fixed-size, on the stack.
using ExtendedState = Eigen::Matrix<double, kNumFlightStates + kMaxAuxiliaryStates, 1>;
using ExtendedDopri5 = odeint::runge_kutta_dopri5<ExtendedState, double, ExtendedState, double,
                                                  odeint::vector_space_algebra>;
using ControlledExtendedDopri5 = odeint::controlled_runge_kutta<ExtendedDopri5, ErrorChecker>;

// A slice that needs more rejected steps than this is not going to finish:
// odeint shrinks the step at least 5× per rejection.
constexpr int kMaxRejectionsPerSlice = 200;

// 4-point Gauss–Legendre nodes on [-1, 1] and weights (Abramowitz & Stegun
// table 25.4); exact for polynomials of degree 7.
constexpr std::array<double, 4> kGaussNodes = {
    -0.86113631159405257522, -0.33998104358485626480, 0.33998104358485626480,
    0.86113631159405257522};
constexpr std::array<double, 4> kGaussWeights = {
    0.34785484513745385737, 0.65214515486254614263, 0.65214515486254614263,
    0.34785484513745385737};

// y += M v for the 9-row B or E (a few columns), column by column:
// t = Σⱼ M(:, j) v(j) in column order, then y + t, the association of
// Eigen's column-major matrix–vector kernel (so results are bit for bit
// those of `y.noalias() += M * v`), without the kernel's set-up, which cost
// a sixth of a turbulent RK45 slice (it runs at every stage).
// `y` is a LinearState or a FlightState (its first 9 entries).
template <typename Vector>
void AddProduct(const Eigen::MatrixXd& M, const Eigen::Ref<const Eigen::VectorXd>& v, Vector& y) {
  LinearState t = LinearState::Zero();
  for (Eigen::Index j = 0; j < M.cols(); ++j) t += M.col(j).template head<kNumLinearStates>() * v(j);
  y.template head<kNumLinearStates>() += t;
}

struct Rhs {
  const FlightModel* model;
  const LinearState* b_delta;
  // A known disturbance g(t0 + τ), evaluated at every stage; `g` is the
  // slicer's scratch vector (num_disturbances), so nothing is allocated.
  const DisturbanceProfile* profile = nullptr;
  double t0 = 0.0;
  Eigen::VectorXd* g = nullptr;
  void operator()(const FlightState& x, FlightState& dxdt, double tau) const {
    model->Derivative(x, *b_delta, dxdt);
    if (profile != nullptr) AddProfile(tau, dxdt);
  }
  void AddProfile(double tau, FlightState& dxdt) const {
    g->setZero();
    profile->Add(t0 + tau, *g);
    AddProduct(model->E(), *g, dxdt);
  }
};

// The right-hand side of a flight with actuators: Rhs plus the actuators'
// terms (FlightModel::AddActuators) with the pilot's held `controls`.
struct ExtendedRhs {
  Rhs base;
  const Eigen::VectorXd* controls;
  void operator()(const ExtendedState& y, ExtendedState& dydt, double tau) const {
    const FlightState x = y.head<kNumFlightStates>();
    const AuxiliaryState aux = y.tail<kMaxAuxiliaryStates>();
    FlightState dxdt;
    AuxiliaryState daux;
    base.model->Derivative(x, *base.b_delta, dxdt);
    base.model->AddActuators(x, aux, *controls, dxdt, daux);
    if (base.profile != nullptr) base.AddProfile(tau, dxdt);
    dydt.head<kNumFlightStates>() = dxdt;
    dydt.tail<kMaxAuxiliaryStates>() = daux;
  }
};

// The zero-order-hold transition over τ: x(τ) = Φ x(0) + Γ δ + Γ_d d. A is
// block-diagonal (longitudinal 4 × 4, lateral 5 × 5), so Φ = e^{Aτ} is too
// (the exponential's off-diagonal blocks are exact zeros: every product that
// forms them has a zero factor); Φ is kept as its two fixed-size blocks.
struct Transition {
  Eigen::Matrix4d phi_lon;
  Eigen::Matrix<double, 5, 5> phi_lat;
  Eigen::MatrixXd gamma;    // 9 × num_controls
  Eigen::MatrixXd gamma_d;  // 9 × num_disturbances
};

// The 4 quadrature nodes' states that the NED velocity reads, node i in
// lane i of each: one array operation per quantity forms all four nodes'
// values (FlightModel::VelocityNedFrom, lane by lane, so each node's numbers
// are bit for bit those of one node at a time).
using NodeLanes = Eigen::Array<double, 4, 1>;
struct NodeStates {
  NodeLanes u, alpha, theta, beta, phi, psi;
};

// An exact slice's five transitions at once: the slice end's (all 9 rows)
// and the 4 quadrature nodes' (only the rows the NED velocity reads: u, α, θ
// and β, φ, ψ), each axis' Φ blocks and Γ, Γ_d stacked into fixed-row
// matrices, so one column loop per axis and one per input forms them all
// (the nodes' states were a third of a slice as five separate products).
// Each row is summed column by column, Σⱼ Φ(:, j) x(j) in column order: the
// order the dense 9 × 9 product took for every row, whose other-axis terms
// are exact zeros, so the end's states are bit for bit those of the dense Φ
// (Eigen's own 5 × 5 product sums the last row pairwise, which moved ψ's
// last digit); then Γ δ summed the same way from 0 and added, then Γ_d d.
// The nodes' rows are grouped by state (u of the 4 nodes, then α, ...), so
// the NodeStates lanes are contiguous segments of the stacks.
struct SliceTransitions {
  static constexpr int kNodes = 4;
  static constexpr std::array<int, 3> kLonRows = {0, 1, 3};  // u, α, θ within the axis
  static constexpr std::array<int, 3> kLatRows = {0, 3, 4};  // β, φ, ψ within the axis
  // Rows: the end's axis block (lateral: and a zero row, so every group of
  // node rows starts on an aligned SSE2 pair), then state r of node i at
  // kLonNodes + 4r + i (kLatNodes + 4r + i).
  static constexpr int kNodeRows = 3 * kNodes, kLonNodes = 4, kLatNodes = 6;
  static constexpr int kLon = kLonNodes + kNodeRows, kLat = kLatNodes + kNodeRows;
  // Γ, Γ_d: the end's 9 rows and a zero row, then the longitudinal node rows
  // in phi_lon's order, then the lateral ones in phi_lat's.
  static constexpr int kNodeLon = kNumLinearStates + 1, kNodeLat = kNodeLon + kNodeRows, kAll = kNodeLat + kNodeRows;
  Eigen::Matrix<double, kLon, 4> phi_lon;
  Eigen::Matrix<double, kLat, 5> phi_lat;
  Eigen::Matrix<double, kAll, Eigen::Dynamic> gamma, gamma_d;

  SliceTransitions() = default;
  SliceTransitions(const Transition& end, const std::array<Transition, kNodes>& nodes)
      : phi_lon(decltype(phi_lon)::Zero()),
        phi_lat(decltype(phi_lat)::Zero()),
        gamma(decltype(gamma)::Zero(kAll, end.gamma.cols())),
        gamma_d(decltype(gamma_d)::Zero(kAll, end.gamma_d.cols())) {
    phi_lon.topRows<4>() = end.phi_lon;
    phi_lat.topRows<5>() = end.phi_lat;
    gamma.topRows<kNumLinearStates>() = end.gamma;
    gamma_d.topRows<kNumLinearStates>() = end.gamma_d;
    for (int i = 0; i < kNodes; ++i)
      for (int r = 0; r < 3; ++r) {
        phi_lon.row(kLonNodes + kNodes * r + i) = nodes[i].phi_lon.row(kLonRows[r]);
        phi_lat.row(kLatNodes + kNodes * r + i) = nodes[i].phi_lat.row(kLatRows[r]);
        for (const auto& [at, row] : {std::pair{kNodeLon + kNodes * r + i, kU + kLonRows[r]},
                                      std::pair{kNodeLat + kNodes * r + i, kBeta + kLatRows[r]}}) {
          gamma.row(at) = nodes[i].gamma.row(row);
          gamma_d.row(at) = nodes[i].gamma_d.row(row);
        }
      }
  }

  using Stacked = Eigen::Matrix<double, kAll, 1>;

  // The held inputs' terms Γ δ and Γ_d d of every row, each summed column by
  // column from 0; `inputs` keeps δ and d, so a slice with the same held
  // inputs as the last (a held stick, a piecewise-constant script) reuses
  // them: the same numbers, not recomputed.
  struct InputTerms {
    Stacked controls = Stacked::Zero(), disturbance = Stacked::Zero();
    bool valid = false, with_disturbance = false;
    Eigen::VectorXd held_controls, held_disturbance;
  };
  void UpdateInputTerms(const Eigen::Ref<const Eigen::VectorXd>& controls,
                        const Eigen::Ref<const Eigen::VectorXd>* disturbance, InputTerms& terms) const {
    const bool same = terms.valid && controls == terms.held_controls && (disturbance != nullptr) == terms.with_disturbance &&
                      (disturbance == nullptr || *disturbance == terms.held_disturbance);
    if (same) return;
    terms.controls.setZero();
    for (Eigen::Index j = 0; j < gamma.cols(); ++j) terms.controls += gamma.col(j) * controls(j);
    terms.held_controls = controls;
    terms.with_disturbance = disturbance != nullptr;
    if (disturbance != nullptr) {
      terms.disturbance.setZero();
      for (Eigen::Index j = 0; j < gamma_d.cols(); ++j) terms.disturbance += gamma_d.col(j) * (*disturbance)(j);
      terms.held_disturbance = *disturbance;
    }
    terms.valid = true;
  }

  // Writes Φ x + Γ δ (+ Γ_d d) of the slice end into the first 9 entries of
  // `end` and the nodes' u, α, θ, β, φ, ψ into `nodes`.
  void Apply(const FlightState& x, const InputTerms& terms, FlightState& end, NodeStates& nodes) const {
    Eigen::Matrix<double, kLon, 1> lon = phi_lon.col(0) * x[kU];
    for (int j = 1; j < 4; ++j) lon += phi_lon.col(j) * x[kU + j];
    Eigen::Matrix<double, kLat, 1> lat = phi_lat.col(0) * x[kBeta];
    for (int j = 1; j < 5; ++j) lat += phi_lat.col(j) * x[kBeta + j];
    end.head<4>() = lon.head<4>();
    end.segment<5>(kBeta) = lat.head<5>();
    end.head<kNumLinearStates>() += terms.controls.head<kNumLinearStates>();
    Eigen::Matrix<double, kNodeRows, 1> node_lon =
        lon.segment<kNodeRows>(kLonNodes) + terms.controls.segment<kNodeRows>(kNodeLon);
    Eigen::Matrix<double, kNodeRows, 1> node_lat =
        lat.segment<kNodeRows>(kLatNodes) + terms.controls.segment<kNodeRows>(kNodeLat);
    if (terms.with_disturbance) {
      end.head<kNumLinearStates>() += terms.disturbance.head<kNumLinearStates>();
      node_lon += terms.disturbance.segment<kNodeRows>(kNodeLon);
      node_lat += terms.disturbance.segment<kNodeRows>(kNodeLat);
    }
    nodes.u = node_lon.segment<kNodes>(0).array();
    nodes.alpha = node_lon.segment<kNodes>(kNodes).array();
    nodes.theta = node_lon.segment<kNodes>(2 * kNodes).array();
    nodes.beta = node_lat.segment<kNodes>(0).array();
    nodes.phi = node_lat.segment<kNodes>(kNodes).array();
    nodes.psi = node_lat.segment<kNodes>(2 * kNodes).array();
  }
};

// Position: Gauss–Legendre quadrature of the NED velocity along the exact
// linear trajectory (the velocity does not depend on position), from the
// nodes' states `n` and the weights Δt/2 · wᵢ [s], each node's sines and
// cosines from the table (SinCosTable: within 2 ulp of libm's, at a fraction
// of the cost; this moved the position's last digits, issue #22). The 4
// nodes in the lanes of one array per quantity; the sum Σ wᵢ vᵢ in node
// order from 0.
//
// On x86-64 compiled in two versions, one with AVX (256-bit vectors and
// three-operand instructions: half the instructions, measured 1.99× the bare
// step against 2.31× without) and the baseline's SSE2, the one run chosen
// by the processor (core/vector_isa.hpp, as libm chooses its own sincos).
// Neither has FMA, so both make the same roundings: each operation is the
// same IEEE operation in every lane of either width, bit for bit the same
// numbers (ExactStep.BaselineAndAvxQuadratureGiveTheSameBits).
AEROLIN_TWO_ISAS(, Eigen::Vector3d, QuadratureDisplacement, "avx", UseAvx,
                 (const FlightModel& model, const SinCosTable& sin_cos, const NodeStates& n, const NodeLanes& weights),
                 (model, sin_cos, n, weights))
inline Eigen::Vector3d QuadratureDisplacementBody(const FlightModel& model, const SinCosTable& sin_cos,
                                                  const NodeStates& n, const NodeLanes& weights) {
  const std::array<NodeLanes, kNumVelocityAngles> angles = model.VelocityAnglesFrom(n.alpha, n.beta, n.phi, n.theta, n.psi);
  // The table's one vectorized loop over all 20 angles.
  constexpr int kNodes = NodeLanes::SizeAtCompileTime;
  std::array<double, kNodes * kNumVelocityAngles> all_angles, all_s, all_c;
  for (int a = 0; a < kNumVelocityAngles; ++a) Eigen::Map<NodeLanes>(all_angles.data() + kNodes * a) = angles[a];
  sin_cos(all_angles, all_s, all_c);
  std::array<NodeLanes, kNumVelocityAngles> s, c;
  for (int a = 0; a < kNumVelocityAngles; ++a) {
    s[a] = Eigen::Map<const NodeLanes>(all_s.data() + kNodes * a);
    c[a] = Eigen::Map<const NodeLanes>(all_c.data() + kNodes * a);
  }
  const std::array<NodeLanes, 3> v = model.VelocityNedFrom(n.u, s, c);
  const NodeLanes north = weights * v[0], east = weights * v[1], down = weights * v[2];
  Eigen::Vector3d displacement = Eigen::Vector3d::Zero();
  for (Eigen::Index i = 0; i < north.size(); ++i) displacement += Eigen::Vector3d(north[i], east[i], down[i]);
  return displacement;
}

// exp([A B E; 0 0 0]·τ) = [Φ Γ Γ_d; 0 I 0; 0 0 I], E's rows the first of
// A's (the 9 linear states').
Eigen::MatrixXd HoldExponential(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& E,
                                double tau) {
  const Eigen::Index n = A.rows(), m = B.cols(), nd = E.cols();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n + m + nd, n + m + nd);
  M.topLeftCorner(n, n) = A * tau;
  M.block(0, n, n, m) = B * tau;
  M.block(0, n + m, E.rows(), nd) = E * tau;
  return core::MatrixExponential(M);
}

Transition ZeroOrderHold(const FlightModel& model, double tau) {
  const int m = model.num_controls();
  const int n = kNumLinearStates;
  const Eigen::MatrixXd E = HoldExponential(model.A(), model.B(), model.E(), tau);
  assert(E.block(0, 4, 4, 5).isZero(0.0) && E.block(4, 0, 5, 4).isZero(0.0));
  return {E.topLeftCorner<4, 4>(), E.block<5, 5>(4, 4), E.block(0, n, n, m),
          E.block(0, n + m, n, model.num_disturbances())};
}

// The zero-order-hold transition of a flight with washout filters (and no
// actuators): the linear states and the auxiliary ones together,
// z(τ) = Φ z(0) + Γ δ + Γ_d d with z = (x_lin, aux) and Φ = e^{A_z τ},
// A_z = FlightModel::ExtendedLinearA (unused slots: zero rows, so they stay 0).
struct FilteredTransition {
  ExtendedLinearMatrix phi;
  Eigen::Matrix<double, kNumExtendedLinearStates, Eigen::Dynamic> gamma, gamma_d;
  using State = Eigen::Matrix<double, kNumExtendedLinearStates, 1>;

  void Apply(const State& z, const Eigen::Ref<const Eigen::VectorXd>& controls,
             const Eigen::Ref<const Eigen::VectorXd>* disturbance, State& out) const {
    out.noalias() = phi * z;
    for (Eigen::Index j = 0; j < gamma.cols(); ++j) out += gamma.col(j) * controls(j);
    if (disturbance != nullptr)
      for (Eigen::Index j = 0; j < gamma_d.cols(); ++j) out += gamma_d.col(j) * (*disturbance)(j);
  }
};

// exp([A_z B_z E_z; 0 0 0]·τ) = [Φ Γ Γ_d; 0 I 0; 0 0 I], E_z = [E; 0].
FilteredTransition FilteredZeroOrderHold(const FlightModel& model, double tau) {
  const int m = model.num_controls();
  const int n = kNumExtendedLinearStates;
  const Eigen::MatrixXd E = HoldExponential(model.ExtendedLinearA(), model.ExtendedLinearB(), model.E(), tau);
  return {E.topLeftCorner<n, n>(), E.block(0, n, n, m), E.block(0, n + m, n, model.num_disturbances())};
}

void CheckPositive(double v, const char* what) {
  if (!std::isfinite(v) || v <= 0.0)
    throw std::invalid_argument(std::string("Slicer: ") + what +
                                " must be positive and finite, got " +
                                std::to_string(v));
}

}  // namespace

std::optional<Integrator> ParseIntegrator(std::string_view text) {
  if (text == "rk45") return Integrator::kRk45;
  if (text == "exact") return Integrator::kExact;
  return std::nullopt;
}

std::string_view ToString(Integrator integrator) {
  return integrator == Integrator::kRk45 ? "rk45" : "exact";
}

struct Slicer::Impl {
  Impl(FlightModel m, const SliceOptions& o, const FlightState& x0, const AuxiliaryState& aux0)
      : model(std::move(m)),
        options(o),
        x(x0),
        stepper(ErrorChecker(o.atol, o.rtol)),
        new_b_delta(LinearState::Zero()),
        g(Eigen::VectorXd::Zero(model.num_disturbances())),
        extended(model.num_auxiliary_states() > 0),
        extended_stepper(ErrorChecker(o.atol, o.rtol)),
        held_controls(Eigen::VectorXd::Zero(model.num_controls())) {
    if (integrator() == Integrator::kExact && extended) {
      filtered_step = FilteredZeroOrderHold(model, options.dt);
      for (std::size_t i = 0; i < kGaussNodes.size(); ++i) {
        filtered_nodes[i] = FilteredZeroOrderHold(model, 0.5 * options.dt * (1.0 + kGaussNodes[i]));
        node_weights[static_cast<Eigen::Index>(i)] = 0.5 * options.dt * kGaussWeights[i];
      }
      node_state.setZero();
    } else if (integrator() == Integrator::kExact) {
      std::array<Transition, kGaussNodes.size()> nodes;
      for (std::size_t i = 0; i < kGaussNodes.size(); ++i) {
        nodes[i] = ZeroOrderHold(model, 0.5 * options.dt * (1.0 + kGaussNodes[i]));
        node_weights[static_cast<Eigen::Index>(i)] = 0.5 * options.dt * kGaussWeights[i];
      }
      transitions = SliceTransitions(ZeroOrderHold(model, options.dt), nodes);
      node_state.setZero();
    }
    Reset(x0, aux0);
  }

  void Reset(const FlightState& x0, const AuxiliaryState& aux0) {
    const int used = model.num_auxiliary_states();
    if (!aux0.allFinite() || !aux0.tail(kMaxAuxiliaryStates - used).isZero(0.0))
      throw std::invalid_argument("Slicer: the auxiliary start must be finite and 0 beyond the model's " +
                                  std::to_string(used) + " auxiliary states");
    x = x0;
    k = 0;
    h = options.dt;
    fsal_valid = false;
    had_profile = false;
    b_delta.setZero();
    stepper.reset();
    y.setZero();
    y.head<kNumFlightStates>() = x0;
    y.tail<kMaxAuxiliaryStates>() = aux0;
    extended_stepper.reset();
  }

  // The integrator flown: RK45 for a flight with actuators, whatever was
  // asked (the exact propagator is exact for a linear flight only, and the
  // actuators' limits are not linear); washout filters are linear.
  Integrator integrator() const { return model.has_actuators() ? Integrator::kRk45 : options.integrator; }

  // Steps `y` over the whole slice [0, Δt] with `rhs`, carrying the step size
  // h over from slice to slice; `dydt` is the derivative at `y` (FSAL).
  template <typename Stepper, typename System, typename State>
  SliceStats StepThroughSlice(Stepper& controlled, const System& rhs, State& y, State& dydt) {
    const double T = options.dt;
    SliceStats stats;
    double tau = 0.0;  // time within the slice (the profile adds t0)
    while (T - tau > 1e-12 * T) {
      const double remaining = T - tau;
      const bool clamped = h >= remaining;
      double step = clamped ? remaining : h;
      const odeint::controlled_step_result result = controlled.try_step(rhs, y, dydt, tau, step);
      if (result == odeint::success) {
        ++stats.steps;
        // A step shortened to land on the slice end says little about the
        // step size the dynamics allow; keep the larger estimate.
        h = clamped ? std::max(h, step) : step;
        if (clamped) tau = T;
        if (!y.allFinite() || !std::isfinite(h)) break;  // caller flags it
      } else {
        ++stats.rejected;
        h = step;
        if (stats.rejected > kMaxRejectionsPerSlice || !(h > 1e-14 * T))
          throw core::NumericalError(FailureMessage(stats.rejected));
      }
    }
    return stats;
  }

  SliceStats AdvanceRk45(const DisturbanceProfile* profile) {
    Rhs rhs{&model, &b_delta, profile, static_cast<double>(k) * options.dt, &g};
    // FSAL: the derivative at the end of the last step is the one at the start
    // of this slice, except for the control term; the kinematics part (the
    // trigonometry) is reused, the linear part is redone only if δ changed,
    // or a profile is (or was) on: its term is then redone at this slice's
    // start time, whatever the last slice's profile was.
    if (!fsal_valid) {
      b_delta = new_b_delta;
      rhs(x, dxdt, 0.0);
      fsal_valid = true;
    } else if (new_b_delta != b_delta || profile != nullptr || had_profile) {
      b_delta = new_b_delta;
      model.LinearDerivative(x, b_delta, dxdt);
      if (profile != nullptr) rhs.AddProfile(0.0, dxdt);
    }
    had_profile = profile != nullptr;
    return StepThroughSlice(stepper, rhs, x, dxdt);
  }

  // A flight with actuators or washout filters: the 12 states and the
  // auxiliary state in one stepper. The actuators' terms depend on the pilot's controls themselves,
  // not only on B δ: a change of them redoes the reused derivative (whole:
  // the kinematics are cheap beside the extended state's stages).
  SliceStats AdvanceActuated(const Eigen::Ref<const Eigen::VectorXd>& controls,
                             const DisturbanceProfile* profile) {
    const bool controls_changed = controls != held_controls;
    held_controls = controls;
    const ExtendedRhs rhs{Rhs{&model, &b_delta, profile, static_cast<double>(k) * options.dt, &g},
                          &held_controls};
    if (!fsal_valid || controls_changed || new_b_delta != b_delta || profile != nullptr || had_profile) {
      b_delta = new_b_delta;
      rhs(y, dydt, 0.0);
      fsal_valid = true;
    }
    had_profile = profile != nullptr;
    const SliceStats stats = StepThroughSlice(extended_stepper, rhs, y, dydt);
    x = y.head<kNumFlightStates>();
    return stats;
  }

  // Hands off, every mode decays, and after ~1e5 s the linear states reach
  // the subnormal range, where rounding makes a fixed point (the P2V-7 stays
  // at u = -5.6e-321 m/s, α = 2e-323 rad, ... for good) and every slice's
  // arithmetic takes subnormal operands (x86 microcode assists; sim_bench
  // BM_DerivativeAt). A perturbation below kNegligible in SI units (m/s, rad,
  // rad/s) is nothing physical (1e-150 m/s is 1e-115 Planck lengths per
  // second), so an axis whose decaying states (u, α, q, θ or β, p, r, φ) are
  // all below it has finished its decay and is set to exactly 0. Whole axes,
  // not single states: A is block-diagonal, so a zeroed axis stays a solution
  // (zeroing p alone would freeze φ̇ = p). ψ, an integrator, keeps its value.
  // A run that never gets there is unchanged bit for bit; RK45's reused
  // derivative is recomputed where an axis was zeroed.
  void FlushNegligible() {
    constexpr double kNegligible = 1e-150;
    // A washout filter couples its axis to its state: the axis is zeroed
    // only once the filters have decayed too.
    if (model.num_washout_filters() > 0 && y.tail<kMaxAuxiliaryStates>().cwiseAbs().maxCoeff() >= kNegligible)
      return;
    bool flushed = false;
    for (const int first : {kU, kBeta}) {
      auto axis = x.segment<4>(first);
      if (axis.cwiseAbs().maxCoeff() < kNegligible && !axis.isZero(0.0)) {
        axis.setZero();
        flushed = true;
      }
    }
    if (flushed) fsal_valid = false;
  }

  // A flight with washout filters, exactly: the linear states and the
  // filters' propagated together (FilteredTransition), the position by the
  // same quadrature as AdvanceExact.
  SliceStats AdvanceExactFiltered(const Eigen::Ref<const Eigen::VectorXd>& controls,
                                  const Eigen::Ref<const Eigen::VectorXd>* disturbance) {
    z.head<kNumLinearStates>() = x.head<kNumLinearStates>();
    z.tail<kMaxAuxiliaryStates>() = y.tail<kMaxAuxiliaryStates>();
    for (std::size_t i = 0; i < filtered_nodes.size(); ++i) {
      filtered_nodes[i].Apply(z, controls, disturbance, z_next);
      const auto n = static_cast<Eigen::Index>(i);
      node_lanes.u[n] = z_next[kU];
      node_lanes.alpha[n] = z_next[kAlpha];
      node_lanes.theta[n] = z_next[kTheta];
      node_lanes.beta[n] = z_next[kBeta];
      node_lanes.phi[n] = z_next[kPhi];
      node_lanes.psi[n] = z_next[kPsi];
    }
    const Eigen::Vector3d displacement = NodeDisplacement();
    filtered_step.Apply(z, controls, disturbance, z_next);
    x.head<kNumLinearStates>() = z_next.head<kNumLinearStates>();
    x.tail<3>() += displacement;
    y.tail<kMaxAuxiliaryStates>() = z_next.tail<kMaxAuxiliaryStates>();
    return {1, 0};
  }

  Eigen::Vector3d NodeDisplacement() const { return QuadratureDisplacement(model, sin_cos, node_lanes, node_weights); }

  std::string FailureMessage(int rejected) const {
    return fmt::format(
        "RK45 cannot meet rtol {:g}, atol {:g} in slice {} (t = {:g} s): step size {:g} s "
        "after {} rejections",
        options.rtol, options.atol, k, static_cast<double>(k) * options.dt, h, rejected);
  }

  SliceStats AdvanceExact(const Eigen::Ref<const Eigen::VectorXd>& controls,
                          const Eigen::Ref<const Eigen::VectorXd>* disturbance) {
    transitions.UpdateInputTerms(controls, disturbance, input_terms);
    transitions.Apply(x, input_terms, node_state, node_lanes);
    const Eigen::Vector3d displacement = NodeDisplacement();
    x.head<kNumLinearStates>() = node_state.head<kNumLinearStates>();
    x.tail<3>() += displacement;
    return {1, 0};
  }

  FlightModel model;
  SliceOptions options;
  FlightState x;
  long k = 0;
  // RK45
  ControlledDopri5 stepper;
  FlightState dxdt;
  LinearState b_delta, new_b_delta;
  bool fsal_valid = false;
  bool had_profile = false;  // the last slice's derivative included a profile
  Eigen::VectorXd g;         // profile scratch: g(t), or the held d + mean g
  double h = 0.0;  // step size carried over from the last slice [s]
  // Actuators or washout filters: the extended state (flight states, then
  // the auxiliary state), its stepper and derivative, and the pilot's held
  // controls.
  bool extended = false;
  ControlledExtendedDopri5 extended_stepper;
  ExtendedState y = ExtendedState::Zero(), dydt = ExtendedState::Zero();
  Eigen::VectorXd held_controls;
  // Exact
  static_assert(SliceTransitions::kNodes == kGaussNodes.size());
  SliceTransitions transitions;
  SliceTransitions::InputTerms input_terms;  // the last slice's held inputs' terms
  NodeLanes node_weights = NodeLanes::Zero();  // Δt/2 · wᵢ [s]
  FlightState node_state;  // the slice end's state
  NodeStates node_lanes;   // the nodes' states the NED velocity reads
  const SinCosTable& sin_cos = SinCosTable::Get();  // the nodes' sines and cosines
  // Exact with washout filters
  FilteredTransition filtered_step;
  std::array<FilteredTransition, kGaussNodes.size()> filtered_nodes;
  FilteredTransition::State z, z_next;  // (x_lin, aux) at the slice start, at a node
};

Slicer::Slicer(FlightModel model, const SliceOptions& options,
               const FlightState& x0, const AuxiliaryState& aux0) {
  CheckPositive(options.dt, "dt");
  CheckPositive(options.rtol, "rtol");
  CheckPositive(options.atol, "atol");
  impl_ = std::make_unique<Impl>(std::move(model), options, x0, aux0);
}

Slicer::~Slicer() = default;
Slicer::Slicer(Slicer&&) noexcept = default;
Slicer& Slicer::operator=(Slicer&&) noexcept = default;

SliceStats Slicer::Advance(const Eigen::Ref<const Eigen::VectorXd>& controls) {
  return AdvanceWith(controls, nullptr, nullptr);
}

SliceStats Slicer::Advance(const Eigen::Ref<const Eigen::VectorXd>& controls,
                           const Eigen::Ref<const Eigen::VectorXd>& disturbance) {
  return Advance(controls, disturbance, nullptr);
}

SliceStats Slicer::Advance(const Eigen::Ref<const Eigen::VectorXd>& controls,
                           const Eigen::Ref<const Eigen::VectorXd>& disturbance,
                           const DisturbanceProfile* profile) {
  if (disturbance.size() != impl_->model.num_disturbances())
    throw std::invalid_argument(
        "Slicer::Advance: disturbance has " + std::to_string(disturbance.size()) +
        " entries, the model has " + std::to_string(impl_->model.num_disturbances()) +
        " disturbances");
  return AdvanceWith(controls, &disturbance, profile);
}

SliceStats Slicer::AdvanceWith(const Eigen::Ref<const Eigen::VectorXd>& controls,
                               const Eigen::Ref<const Eigen::VectorXd>* disturbance,
                               const DisturbanceProfile* profile) {
  Impl& s = *impl_;
  if (controls.size() != s.model.num_controls())
    throw std::invalid_argument(
        "Slicer::Advance: controls has " + std::to_string(controls.size()) +
        " entries, the model has " + std::to_string(s.model.num_controls()) +
        " controls");
  if (profile != nullptr && profile->size() != s.model.num_disturbances())
    throw std::invalid_argument(
        "Slicer::Advance: the disturbance profile has " + std::to_string(profile->size()) +
        " channels, the model has " + std::to_string(s.model.num_disturbances()) +
        " disturbances");
  SliceStats stats;
  if (s.integrator() == Integrator::kExact) {
    if (profile != nullptr) {
      // Hold d + the profile's mean over the slice (see DisturbanceProfile).
      if (disturbance != nullptr)
        s.g = *disturbance;
      else
        s.g.setZero();
      const double t0 = static_cast<double>(s.k) * s.options.dt;
      profile->AddMean(t0, t0 + s.options.dt, s.g);
      const Eigen::Ref<const Eigen::VectorXd> held(s.g);
      stats = s.extended ? s.AdvanceExactFiltered(controls, &held) : s.AdvanceExact(controls, &held);
    } else {
      stats = s.extended ? s.AdvanceExactFiltered(controls, disturbance) : s.AdvanceExact(controls, disturbance);
    }
  } else {
    s.new_b_delta.setZero();
    AddProduct(s.model.B(), controls, s.new_b_delta);
    if (disturbance != nullptr) AddProduct(s.model.E(), *disturbance, s.new_b_delta);
    stats = s.extended ? s.AdvanceActuated(controls, profile) : s.AdvanceRk45(profile);
  }
  s.FlushNegligible();
  if (s.extended) s.y.head<kNumFlightStates>() = s.x;
  ++s.k;
  return stats;
}

void Slicer::Reset(const FlightState& x0, const AuxiliaryState& aux0) { impl_->Reset(x0, aux0); }
const FlightState& Slicer::state() const { return impl_->x; }
long Slicer::slice_index() const { return impl_->k; }
double Slicer::dt() const { return impl_->options.dt; }
const SliceOptions& Slicer::options() const { return impl_->options; }
const FlightModel& Slicer::model() const { return impl_->model; }
Integrator Slicer::integrator() const { return impl_->integrator(); }
AuxiliaryState Slicer::auxiliary_state() const {
  return impl_->extended ? AuxiliaryState(impl_->y.tail<kMaxAuxiliaryStates>()) : AuxiliaryState::Zero();
}

}  // namespace aerolin::sim
