#include "aerolin/model/build.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <Eigen/LU>
#include <unsupported/Eigen/AutoDiff>

#include "aerolin/model/auxiliary_states.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::model {
using namespace lon;
using namespace lat;
namespace {

std::vector<core::Signal> ControlSignals(const AircraftData& aircraft,
                                         bool longitudinal) {
  std::vector<core::Signal> inputs;
  for (const Control& c : aircraft.controls)
    if (longitudinal ? c.longitudinal : c.lateral)
      inputs.push_back({c.name, c.unit, c.name});
  return inputs;
}

// The divisor of the α row, D = 1 - Zα̇/U0 (Etkin & Reid eq. 4.9,18: m - Zẇ).
template <class T>
T AlphaRowDivisor(const FlightConditionOf<T>& c, const LongitudinalDerivativesOf<T>& d) {
  return 1.0 - d.Zadot / c.U0;
}

}  // namespace

template <class T>
Eigen::Matrix<T, 4, 4> LongitudinalA(const FlightConditionOf<T>& c,
                                     const LongitudinalDerivativesOf<T>& d) {
  using std::cos;
  using std::sin;
  Eigen::Matrix<T, 4, 4> A;
  A.setZero();
  A(kU, kU) = d.Xu;
  A(kU, kAlpha) = d.Xa;
  A(kU, kQ) = d.Xq - c.W0;
  A(kU, kTheta) = -c.g * cos(c.theta0);
  const T D = AlphaRowDivisor(c, d);
  A(kAlpha, kU) = (d.Zu / c.U0) / D;
  A(kAlpha, kAlpha) = (d.Za / c.U0) / D;
  A(kAlpha, kQ) = (1.0 + d.Zq / c.U0) / D;
  A(kAlpha, kTheta) = (-(c.g / c.U0) * sin(c.theta0)) / D;
  // q̇ = Mu u + Mα α + Mq q + Mα̇ α̇, with α̇ from the row above.
  A(kQ, kU) = d.Mu + d.Madot * A(kAlpha, kU);
  A(kQ, kAlpha) = d.Ma + d.Madot * A(kAlpha, kAlpha);
  A(kQ, kQ) = d.Mq + d.Madot * A(kAlpha, kQ);
  A(kQ, kTheta) = d.Madot * A(kAlpha, kTheta);
  A(kTheta, kQ) = T(1.0);
  return A;
}

template <class T>
Eigen::Matrix<T, 4, 1> LongitudinalB(const FlightConditionOf<T>& c,
                                     const LongitudinalDerivativesOf<T>& d, const T& X,
                                     const T& Z, const T& M) {
  Eigen::Matrix<T, 4, 1> b;
  b.setZero();
  b(kU) = X;
  b(kAlpha) = (Z / c.U0) / AlphaRowDivisor(c, d);
  b(kQ) = M + d.Madot * b(kAlpha);
  return b;
}

template <class T>
Eigen::Matrix<T, 5, 5> LateralA(const FlightConditionOf<T>& c, const LateralDerivativesOf<T>& d) {
  using std::cos;
  using std::tan;
  Eigen::Matrix<T, 5, 5> A;
  A.setZero();
  A(kBeta, kBeta) = d.Yb / c.U0;
  A(kBeta, kP) = (c.W0 + d.Yp) / c.U0;
  A(kBeta, kR) = d.Yr / c.U0 - 1.0;
  A(kBeta, kPhi) = c.g * cos(c.theta0) / c.U0;
  A(kP, kBeta) = d.Lb;
  A(kP, kP) = d.Lp;
  A(kP, kR) = d.Lr;
  A(kR, kBeta) = d.Nb;
  A(kR, kP) = d.Np;
  A(kR, kR) = d.Nr;
  A(kPhi, kP) = T(1.0);
  A(kPhi, kR) = tan(c.theta0);
  A(kPsi, kR) = 1.0 / cos(c.theta0);
  return A;
}

template <class T>
Eigen::Matrix<T, 5, 1> LateralB(const FlightConditionOf<T>& c, const T& Y, const T& L, const T& N) {
  Eigen::Matrix<T, 5, 1> b;
  b.setZero();
  b(kBeta) = Y / c.U0;
  b(kP) = L;
  b(kR) = N;
  return b;
}

#define AEROLIN_INSTANTIATE(T)                                                                 \
  template Eigen::Matrix<T, 4, 4> LongitudinalA(const FlightConditionOf<T>&,                   \
                                                const LongitudinalDerivativesOf<T>&);          \
  template Eigen::Matrix<T, 4, 1> LongitudinalB(const FlightConditionOf<T>&,                   \
                                                const LongitudinalDerivativesOf<T>&, const T&, \
                                                const T&, const T&);                           \
  template Eigen::Matrix<T, 5, 5> LateralA(const FlightConditionOf<T>&,                        \
                                           const LateralDerivativesOf<T>&);                    \
  template Eigen::Matrix<T, 5, 1> LateralB(const FlightConditionOf<T>&, const T&, const T&,    \
                                           const T&);
AEROLIN_MODEL_SCALARS(AEROLIN_INSTANTIATE)
#undef AEROLIN_INSTANTIATE

namespace {

// The column of control `name` among the axis's `inputs`.
Eigen::Index InputColumn(const std::vector<core::Signal>& inputs, const std::string& name,
                         std::string_view axis) {
  for (std::size_t j = 0; j < inputs.size(); ++j)
    if (inputs[j].name == name) return static_cast<Eigen::Index>(j);
  throw std::invalid_argument("the " + std::string(axis) + " augmentation feeds back '" + name +
                              "', which is no " + std::string(axis) + " control");
}

void CheckGainSize(const AxisAugmentation& aug, Eigen::Index states, std::string_view axis) {
  if (aug.gain.rows() != static_cast<Eigen::Index>(aug.inputs.size()) || aug.gain.cols() != states)
    throw std::invalid_argument("the " + std::string(axis) + " augmentation's gain must be " +
                                std::to_string(aug.inputs.size()) + "×" + std::to_string(states) +
                                ", got " + std::to_string(aug.gain.rows()) + "×" +
                                std::to_string(aug.gain.cols()));
}

// The feedback `aug` (with loops on derived outputs) commands, over the
// axis's inputs: C and D of each loop's output are the bare airframe's
// (WithDerivedOutputs of A, B), the one definition of nz, γ and ay.
ClosedFeedback LoopFeedback(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                            const std::vector<core::Signal>& inputs, const AxisAugmentation& aug,
                            Axis axis, const FlightCondition& condition) {
  const std::string name(AxisName(axis));
  const Eigen::Index n = A.cols(), m = B.cols();
  const auto p = static_cast<Eigen::Index>(aug.output_loops.size());
  CheckGainSize(aug, n, name);
  Eigen::MatrixXd K_x = Eigen::MatrixXd::Zero(m, n);
  for (std::size_t i = 0; i < aug.inputs.size(); ++i)
    K_x.row(InputColumn(inputs, aug.inputs[i], name)) += aug.gain.row(static_cast<Eigen::Index>(i));
  const StateSpace measured =
      WithDerivedOutputs(StateSpace(A, B, StateSignals(axis), inputs), axis, condition);
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(m, p), C(p, n), D(p, m);
  std::string loops;
  for (Eigen::Index k = 0; k < p; ++k) {
    const OutputFeedback& loop = aug.output_loops[static_cast<std::size_t>(k)];
    Eigen::Index row = -1;
    std::string derived;
    for (Eigen::Index r = n; r < measured.num_outputs(); ++r) {
      const core::Signal& s = measured.outputs()[static_cast<std::size_t>(r)];
      derived += (derived.empty() ? "" : ", ") + s.name;
      if (s.name == loop.output) row = r;
    }
    if (row < 0)
      throw std::invalid_argument(std::string("the ") + name + " augmentation's loop " + loop.input + ":" +
                                  loop.output + " measures no derived output of the axis (" + derived + ")");
    G(InputColumn(inputs, loop.input, name), k) = loop.gain;
    C.row(k) = measured.C().row(row);
    D.row(k) = measured.D().row(row);
    loops += (loops.empty() ? "" : ", ") + loop.input + ":" + loop.output;
  }
  return SolveOutputFeedback(K_x, G, C, D, std::string("the ") + name + " augmentation's loops " + loops);
}

// The washed-out loops of `aug` (a filter state each), in order.
std::vector<const OutputFeedback*> WashoutLoops(const std::optional<AxisAugmentation>& aug) {
  std::vector<const OutputFeedback*> out;
  if (aug)
    for (const OutputFeedback& loop : aug->output_loops)
      if (loop.washout_s) out.push_back(&loop);
  return out;
}

// The 4- or 5-state builders cannot hold a filter state.
void RefuseWashout(const std::optional<AxisAugmentation>& aug, Axis axis) {
  const std::vector<const OutputFeedback*> washed = WashoutLoops(aug);
  if (!washed.empty())
    throw std::invalid_argument("the " + std::string(AxisName(axis)) + " augmentation's loop " +
                                washed.front()->input + ":" + washed.front()->output +
                                " has a washout filter, a state of its own, which this command's " +
                                std::to_string(StateSignals(axis).size()) +
                                "-state model does not carry yet (modes, qualities, tf and bode analyse it: "
                                "model::BuildAugmented)");
}

// A − B_K K and B for the augmentation `aug` (inputs by name among `inputs`);
// with loops on derived outputs, A − B K and B M of LoopFeedback.
void Close(Eigen::MatrixXd& A, Eigen::MatrixXd& B, const std::vector<core::Signal>& inputs,
           const std::optional<AxisAugmentation>& aug, Axis axis, const FlightCondition& condition) {
  if (!aug) return;
  RefuseWashout(aug, axis);
  const std::string name(AxisName(axis));
  if (!aug->output_loops.empty()) {
    const ClosedFeedback f = LoopFeedback(A, B, inputs, *aug, axis, condition);
    A -= B * f.gain;
    B = B * f.command;
    return;
  }
  CheckGainSize(*aug, A.cols(), name);
  for (std::size_t i = 0; i < aug->inputs.size(); ++i)
    A -= B.col(InputColumn(inputs, aug->inputs[i], name)) * aug->gain.row(static_cast<Eigen::Index>(i));
}

// The bare airframe's A and B of `axis`, B's columns the axis's controls.
void BareMatrices(const AircraftData& aircraft, Axis axis, Eigen::MatrixXd& A, Eigen::MatrixXd& B,
                  std::vector<core::Signal>& inputs) {
  const bool lon = axis == Axis::kLongitudinal;
  inputs = ControlSignals(aircraft, lon);
  B = Eigen::MatrixXd::Zero(lon ? 4 : 5, static_cast<Eigen::Index>(inputs.size()));
  Eigen::Index j = 0;
  for (const Control& c : aircraft.controls) {
    if (lon && c.longitudinal) B.col(j++) = LongitudinalB(aircraft.condition, aircraft.longitudinal, c.X, c.Z, c.M);
    if (!lon && c.lateral) B.col(j++) = LateralB(aircraft.condition, c.Y, c.L, c.N);
  }
  if (lon)
    A = LongitudinalA(aircraft.condition, aircraft.longitudinal);
  else
    A = LateralA(aircraft.condition, aircraft.lateral);
}

StateSpace Build(const AircraftData& aircraft, Axis axis) {
  Eigen::MatrixXd A, B;
  std::vector<core::Signal> inputs;
  BareMatrices(aircraft, axis, A, B, inputs);
  const bool lon = axis == Axis::kLongitudinal;
  Close(A, B, inputs, lon ? aircraft.longitudinal_augmentation : aircraft.lateral_augmentation, axis,
        aircraft.condition);
  return StateSpace(std::move(A), std::move(B), lon ? LongitudinalStateSignals() : LateralStateSignals(),
                    std::move(inputs));
}

}  // namespace

// A pivot of I − G D below this, relative to its largest entry (at least 1),
// is singular: the deflection would be 1e12 times the pilot's command or more.
constexpr double kSingularFeedthrough = 1e-12;

ClosedFeedback SolveOutputFeedback(const Eigen::MatrixXd& K_x, const Eigen::MatrixXd& G,
                                   const Eigen::MatrixXd& C, const Eigen::MatrixXd& D,
                                   const std::string& what) {
  const Eigen::Index m = K_x.rows();
  if (G.rows() != m || C.rows() != G.cols() || D.rows() != G.cols() || D.cols() != m || C.cols() != K_x.cols())
    throw std::invalid_argument("SolveOutputFeedback: K_x is " + std::to_string(m) + "×" +
                                std::to_string(K_x.cols()) + ", G " + std::to_string(G.rows()) + "×" +
                                std::to_string(G.cols()) + ", C " + std::to_string(C.rows()) + "×" +
                                std::to_string(C.cols()) + ", D " + std::to_string(D.rows()) + "×" +
                                std::to_string(D.cols()));
  const Eigen::MatrixXd I_GD = Eigen::MatrixXd::Identity(m, m) - G * D;
  Eigen::FullPivLU<Eigen::MatrixXd> lu(I_GD);
  lu.setThreshold(kSingularFeedthrough);
  if (!I_GD.allFinite() || !lu.isInvertible())
    throw std::invalid_argument(
        what + ": I - K D is singular (delta = K*y with y = C x + D delta: the gain K times the "
               "control's own effect D on what it measures is 1, so the surface deflection would be "
               "infinite); change the gain");
  ClosedFeedback f;
  f.command = lu.inverse();
  f.gain = f.command * (K_x - G * C);
  return f;
}

ClosedFeedback FeedbackOf(const AircraftData& aircraft, Axis axis) {
  Eigen::MatrixXd A, B;
  std::vector<core::Signal> inputs;
  BareMatrices(aircraft, axis, A, B, inputs);
  const bool lon = axis == Axis::kLongitudinal;
  const std::optional<AxisAugmentation>& aug = lon ? aircraft.longitudinal_augmentation
                                                   : aircraft.lateral_augmentation;
  const auto m = B.cols();
  RefuseWashout(aug, axis);
  if (aug && !aug->output_loops.empty()) return LoopFeedback(A, B, inputs, *aug, axis, aircraft.condition);
  ClosedFeedback f{Eigen::MatrixXd::Zero(m, A.cols()), Eigen::MatrixXd::Identity(m, m)};
  if (!aug) return f;
  const std::string name(AxisName(axis));
  CheckGainSize(*aug, A.cols(), name);
  for (std::size_t i = 0; i < aug->inputs.size(); ++i)
    f.gain.row(InputColumn(inputs, aug->inputs[i], name)) = aug->gain.row(static_cast<Eigen::Index>(i));
  return f;
}

std::string WashoutLimitText() {
  return "at most " + std::to_string(kMaxWashoutsPerAxis) +
         " per axis (each adds a filter state; the modes are followed on at most " +
         std::to_string(4 + kMaxWashoutsPerAxis) + " states); wash out fewer loops";
}

int FilterStates(const AircraftData& aircraft, Axis axis) {
  return static_cast<int>(WashoutLoops(axis == Axis::kLongitudinal ? aircraft.longitudinal_augmentation
                                                                   : aircraft.lateral_augmentation)
                              .size());
}

namespace {

// The open loop over z = (x, w₁, …, w_f) (the airframe and its filters) and
// the feedback its loops close, δ = M δ_pilot − K z: BuildAugmented's and
// AugmentedFeedbackOf's one derivation. `aug` has a washed-out loop.
struct FilteredLoops {
  Eigen::MatrixXd Az, Bz;
  ClosedFeedback feedback;
  std::vector<core::Signal> states, inputs;
};

FilteredLoops CloseThroughFilters(const AircraftData& aircraft, Axis axis, const AxisAugmentation& aug) {
  const std::string name(AxisName(axis));
  if (const int f = FilterStates(aircraft, axis); f > kMaxWashoutsPerAxis)
    throw std::invalid_argument("the " + name + " augmentation has " + std::to_string(f) + " washed-out loops: " +
                                WashoutLimitText());
  Eigen::MatrixXd A, B;
  std::vector<core::Signal> inputs;
  BareMatrices(aircraft, axis, A, B, inputs);
  const Eigen::Index n = A.cols(), m = B.cols();
  const Eigen::Index N = n + FilterStates(aircraft, axis);
  const auto p = static_cast<Eigen::Index>(aug.output_loops.size());
  CheckGainSize(aug, n, name);
  // What the loops measure: the bare airframe's states and derived outputs
  // (WithDerivedOutputs, the one definition of nz, γ and ay).
  const StateSpace measured =
      WithDerivedOutputs(StateSpace(A, B, StateSignals(axis), inputs), axis, aircraft.condition);
  Eigen::MatrixXd Az = Eigen::MatrixXd::Zero(N, N), Bz = Eigen::MatrixXd::Zero(N, m);
  Az.topLeftCorner(n, n) = A;
  Bz.topRows(n) = B;
  Eigen::MatrixXd K_x = Eigen::MatrixXd::Zero(m, N);
  for (std::size_t i = 0; i < aug.inputs.size(); ++i)
    K_x.row(InputColumn(inputs, aug.inputs[i], name)).head(n) += aug.gain.row(static_cast<Eigen::Index>(i));
  // The loops as δ = G y_fed, y_fed = C_fed z + D_fed δ: a washed-out loop
  // feeds back y − w.
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(m, p), C_fed = Eigen::MatrixXd::Zero(p, N), D_fed(p, m);
  std::vector<core::Signal> states = StateSignals(axis);
  std::string loops;
  Eigen::Index f = n;
  for (Eigen::Index k = 0; k < p; ++k) {
    const OutputFeedback& loop = aug.output_loops[static_cast<std::size_t>(k)];
    const std::string loop_name = loop.input + ":" + loop.output;
    Eigen::Index row = -1;
    std::string measurable;
    // A loop without washout measures a derived output; with one, a state too.
    for (Eigen::Index r = loop.washout_s ? 0 : n; r < measured.num_outputs(); ++r) {
      const core::Signal& s = measured.outputs()[static_cast<std::size_t>(r)];
      measurable += (measurable.empty() ? "" : ", ") + s.name;
      if (s.name == loop.output) row = r;
    }
    if (row < 0)
      throw std::invalid_argument("the " + name + " augmentation's loop " + loop_name + " measures no " +
                                  (loop.washout_s ? "output" : "derived output") + " of the axis (" +
                                  measurable + ")");
    G(InputColumn(inputs, loop.input, name), k) = loop.gain;
    C_fed.row(k).head(n) = measured.C().row(row);
    D_fed.row(k) = measured.D().row(row);
    loops += (loops.empty() ? "" : ", ") + loop_name;
    if (const std::optional<double> tau = loop.washout_s) {
      if (!std::isfinite(*tau) || !(*tau > 0.0))
        throw std::invalid_argument("the " + name + " augmentation's loop " + loop_name +
                                    ": the washout's time constant must be a finite number > 0 [s]");
      Az.block(f, 0, 1, n) = measured.C().row(row) / *tau;
      Az(f, f) = -1.0 / *tau;
      Bz.row(f) = measured.D().row(row) / *tau;
      C_fed(k, f) = -1.0;
      const core::Signal& y = measured.outputs()[static_cast<std::size_t>(row)];
      states.push_back({y.name + "_washout", y.unit, y.symbol + "_w"});
      ++f;
    }
  }
  ClosedFeedback fb = SolveOutputFeedback(K_x, G, C_fed, D_fed, "the " + name + " augmentation's loops " + loops);
  return {std::move(Az), std::move(Bz), std::move(fb), std::move(states), std::move(inputs)};
}

const std::optional<AxisAugmentation>& AugmentationOf(const AircraftData& aircraft, Axis axis) {
  return axis == Axis::kLongitudinal ? aircraft.longitudinal_augmentation : aircraft.lateral_augmentation;
}

}  // namespace

int FilterStates(const AircraftData& aircraft) {
  return FilterStates(aircraft, Axis::kLongitudinal) + FilterStates(aircraft, Axis::kLateral);
}

StateSpace BuildAugmented(const AircraftData& aircraft, Axis axis) {
  const std::optional<AxisAugmentation>& aug = AugmentationOf(aircraft, axis);
  if (WashoutLoops(aug).empty()) return Build(aircraft, axis);
  FilteredLoops z = CloseThroughFilters(aircraft, axis, *aug);
  Eigen::MatrixXd Acl = z.Az - z.Bz * z.feedback.gain;
  Eigen::MatrixXd Bcl = z.Bz * z.feedback.command;
  return StateSpace(std::move(Acl), std::move(Bcl), std::move(z.states), std::move(z.inputs));
}

ClosedFeedback AugmentedFeedbackOf(const AircraftData& aircraft, Axis axis) {
  const std::optional<AxisAugmentation>& aug = AugmentationOf(aircraft, axis);
  if (WashoutLoops(aug).empty()) return FeedbackOf(aircraft, axis);
  return CloseThroughFilters(aircraft, axis, *aug).feedback;
}

StateSpace BuildLongitudinal(const AircraftData& aircraft) { return Build(aircraft, Axis::kLongitudinal); }

StateSpace BuildLateral(const AircraftData& aircraft) { return Build(aircraft, Axis::kLateral); }

}  // namespace aerolin::model
