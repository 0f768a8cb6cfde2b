// The exact slicer's position against the libm evaluation of the same
// quadrature (issue #22). The slicer takes the quadrature nodes' sines and
// cosines from a table and short series (sim/sincos_table.hpp), which moves
// the last digits of north, east and down; the reference here is the
// quadrature as it was: each node's state from the test's own
// e^{[A B; 0 0]τ} (with washout filters, of the extended model), its NED velocity by
// FlightModel::VelocityNed (libm's sin and cos of every angle), summed with
// the 4-point Gauss–Legendre weights.

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <unsupported/Eigen/MatrixFunctions>
#include <vector>

#include "aerolin/core/vector_isa.hpp"
#include "aerolin/sim/sincos_table.hpp"
#include "aerolin/sim/slicer.hpp"
#include "p2v7_fixture.hpp"

namespace aerolin::sim {
namespace {

// Per slice. Each node's sine and cosine is within 2 ulp(|f| + 1/128) ≤ 4 u
// (u = 2⁻⁵³) of the exact value (SinCosTable), libm's reference within 1 ulp:
// ≤ 6 u apart. The body velocity's ratios u_b sin β / (cos β cos α),
// u_b tan α amplify a cosine's error by ≤ 1 / (cos α cos β) ≤ 2.6 for the
// angles drawn here (|α0 + α|, |β| ≤ 0.9 rad); each of the three rotations
// adds ≤ 2 × 6 u of |v|. So ‖Δv‖ ≤ (2 × 2.6 × 6 + 3 × 12) u |v| ≈ 67 u |v|
// = 7.5e-15 |v| at worst, and the displacement Σ wᵢ vᵢ is off by ≤ that
// times Σ wᵢ |vᵢ|, the distance flown in the slice (not ‖Σ wᵢ vᵢ‖: a slice
// that turns through a circle nearly cancels). Asserted: 1e-14 of it (the
// bound, with room for the node states' own rounding: the test's
// exponential is not the slicer's).
constexpr double kSliceRelative = 1e-14;
// Over a flight the slices' errors add; a 600 s flight of 6000 slices
// against the path length: also the sum's rounding (½ ulp of the position
// per slice, both sums) may part the two; asserted 1e-12 of the path.
constexpr double kFlightRelative = 1e-12;

constexpr std::array<double, 4> kNodes = {-0.86113631159405257522, -0.33998104358485626480,
                                          0.33998104358485626480, 0.86113631159405257522};
constexpr std::array<double, 4> kWeights = {0.34785484513745385737, 0.65214515486254614263,
                                            0.65214515486254614263, 0.34785484513745385737};

// The libm quadrature of one slice from `z` with held `controls`; z is the
// 9 linear states, or with washout filters the linear states and the
// auxiliary ones (ẋ = A z + B δ with FlightModel::ExtendedLinearA, B).
struct ReferenceQuadrature {
  const FlightModel& model;
  std::array<Eigen::MatrixXd, 4> hold;  // e^{[A B; 0 0]τᵢ}, first 9 rows

  ReferenceQuadrature(const FlightModel& m, double dt) : ReferenceQuadrature(m, dt, m.A(), m.B()) {}
  ReferenceQuadrature(const FlightModel& m, double dt, const Eigen::MatrixXd& A, const Eigen::MatrixXd& B)
      : model(m) {
    const Eigen::Index n = A.rows(), c = B.cols();
    for (std::size_t i = 0; i < kNodes.size(); ++i) {
      Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n + c, n + c);
      M.topLeftCorner(n, n) = A;
      M.topRightCorner(n, c) = B;
      M *= 0.5 * dt * (1.0 + kNodes[i]);
      hold[i] = M.exp().topRows(9);
    }
  }
  FlightState Node(std::size_t i, const Eigen::VectorXd& z, const Eigen::VectorXd& controls) const {
    Eigen::VectorXd zu(z.size() + controls.size());
    zu << z, controls;
    FlightState node = FlightState::Zero();
    node.head<9>() = hold[i] * zu;
    return node;
  }
  // The displacement [m] and the distance flown Σ wᵢ |vᵢ| Δt/2 [m].
  std::pair<Eigen::Vector3d, double> Displacement(const Eigen::VectorXd& z, const Eigen::VectorXd& controls,
                                                  double dt) const {
    Eigen::Vector3d d = Eigen::Vector3d::Zero();
    double flown = 0.0;
    for (std::size_t i = 0; i < kNodes.size(); ++i) {
      const Eigen::Vector3d v = model.VelocityNed(Node(i, z, controls));
      d += 0.5 * dt * kWeights[i] * v;
      flown += 0.5 * dt * kWeights[i] * v.norm();
    }
    return {d, flown};
  }
  // Whether a node's velocity angle lies beyond the table (SinCosTable::kRange).
  bool BeyondTheTable(const Eigen::VectorXd& z, const Eigen::VectorXd& controls) const {
    for (std::size_t i = 0; i < kNodes.size(); ++i)
      for (const double a : model.VelocityAnglesOf(Node(i, z, controls)))
        if (std::abs(a) > SinCosTable::kRange) return true;
    return false;
  }
};

std::string Scientific(double x) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(2) << x;
  return out.str();
}

// The P2V-7 and variants: trimmed climbing at θ0 = 0.3 rad with α0 ≠ 0
// (W0), and a fast, agile one (derivatives ×4, twice the speed).
std::vector<model::AircraftData> Aircraft() {
  std::vector<model::AircraftData> all{test::MakeP2V7()};
  model::AircraftData climbing = test::MakeP2V7();
  climbing.condition.theta0 = 0.3;
  climbing.condition.W0 = 0.08 * climbing.condition.U0;
  all.push_back(climbing);
  model::AircraftData agile = test::MakeP2V7();
  agile.condition.U0 *= 2.0;
  for (double* d : {&agile.longitudinal.Ma, &agile.longitudinal.Mq, &agile.longitudinal.Za, &agile.lateral.Lb,
                    &agile.lateral.Lp, &agile.lateral.Nb, &agile.lateral.Nr, &agile.lateral.Yb})
    *d *= 4.0;
  for (model::Control& c : agile.controls) {
    c.L *= 4.0;
    c.M *= 4.0;
    c.N *= 4.0;
  }
  all.push_back(agile);
  return all;
}

// A random state of violent motion at large angles, headings to ±12 rad.
FlightState ViolentState(std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  FlightState x = FlightState::Zero();
  x[kU] = 20.0 * unit(rng);
  x[kAlpha] = 0.6 * unit(rng);
  x[kQ] = 1.5 * unit(rng);
  x[kTheta] = 1.2 * unit(rng);
  x[kBeta] = 0.6 * unit(rng);
  x[kP] = 3.0 * unit(rng);
  x[kR] = 1.5 * unit(rng);
  x[kPhi] = 3.1 * unit(rng);
  x[kPsi] = 12.0 * unit(rng);
  return x;
}

Eigen::VectorXd RandomControls(const FlightModel& model, std::mt19937& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Eigen::VectorXd controls(model.num_controls());
  for (Eigen::Index j = 0; j < controls.size(); ++j) controls[j] = 0.2 * unit(rng);
  return controls;
}

// Random states of violent motion at large angles, one slice each from the
// origin (so the position is the displacement, without a large sum's
// rounding), for slices of 0.01 s to 2 s, headings up to ±12 rad: a third
// of the slices have a node beyond the table (libm's values there).
TEST(SlicerPosition, EachSliceAgreesWithTheLibmQuadrature) {
  std::mt19937 rng(22);
  int in_table = 0, beyond = 0;
  double worst = 0.0;
  for (const model::AircraftData& aircraft : Aircraft()) {
    const FlightModel model(aircraft);
    for (const double dt : {0.01, 0.05, 0.1, 0.3, 1.0, 2.0}) {
      SliceOptions options;
      options.integrator = Integrator::kExact;
      options.dt = dt;
      Slicer slicer(model, options);
      const ReferenceQuadrature reference(model, dt);
      for (int k = 0; k < 200; ++k) {
        const FlightState x = ViolentState(rng);
        const Eigen::VectorXd controls = RandomControls(model, rng);
        slicer.Reset(x);
        slicer.Advance(controls);
        const auto [expected, flown] = reference.Displacement(x.head<9>(), controls, dt);
        const double error = (slicer.state().tail<3>() - expected).norm();
        worst = std::max(worst, error / flown);
        ASSERT_LE(error, kSliceRelative * flown)
            << aircraft.condition.U0 << " m/s, dt " << dt << " s, slice " << k << ": " << slicer.state().tail<3>().transpose()
            << " vs " << expected.transpose();
        (reference.BeyondTheTable(x.head<9>(), controls) ? beyond : in_table) += 1;
      }
    }
  }
  // Both ways were taken many times.
  EXPECT_GT(in_table, 1000);
  EXPECT_GT(beyond, 500);
  RecordProperty("worst_relative", Scientific(worst));
  RecordProperty("slices_in_table", in_table);
  RecordProperty("slices_beyond_table", beyond);
}

// The same with washout filters (the P2V-7 variants with the washed-out yaw
// damper of docs/augmentation.md, rudder:r = 1.7 through s/(s + 1/1.5)): the
// exact slicer propagates the linear states and the filter's together
// (FilteredTransition) and takes the position by the same quadrature; the
// reference's nodes from its own e^{[A_z B_z; 0 0]τ} of the extended model,
// each slice from a random filter state too.
TEST(SlicerPosition, EachWashedOutSliceAgreesWithTheLibmQuadrature) {
  std::mt19937 rng(26);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  int in_table = 0, beyond = 0;
  double worst = 0.0;
  for (model::AircraftData aircraft : Aircraft()) {
    aircraft.lateral_augmentation =
        model::AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5), {{"rudder", "r", 1.7, 1.5}}};
    const FlightModel model(aircraft);
    ASSERT_EQ(model.num_washout_filters(), 1);
    ASSERT_FALSE(model.has_actuators());
    for (const double dt : {0.01, 0.1, 1.0, 2.0}) {
      SliceOptions options;
      options.integrator = Integrator::kExact;
      options.dt = dt;
      Slicer slicer(model, options);
      ASSERT_EQ(slicer.integrator(), Integrator::kExact);
      const ReferenceQuadrature reference(model, dt, model.ExtendedLinearA(), model.ExtendedLinearB());
      for (int k = 0; k < 200; ++k) {
        const FlightState x = ViolentState(rng);
        AuxiliaryState aux = AuxiliaryState::Zero();
        aux[0] = 1.5 * unit(rng);  // the filter's state [rad/s]
        const Eigen::VectorXd controls = RandomControls(model, rng);
        slicer.Reset(x, aux);
        slicer.Advance(controls);
        Eigen::VectorXd z(kNumExtendedLinearStates);
        z << x.head<9>(), aux;
        const auto [expected, flown] = reference.Displacement(z, controls, dt);
        const double error = (slicer.state().tail<3>() - expected).norm();
        worst = std::max(worst, error / flown);
        ASSERT_LE(error, kSliceRelative * flown)
            << aircraft.condition.U0 << " m/s, dt " << dt << " s, slice " << k << ": " << slicer.state().tail<3>().transpose()
            << " vs " << expected.transpose();
        (reference.BeyondTheTable(z, controls) ? beyond : in_table) += 1;
      }
    }
  }
  EXPECT_GT(in_table, 1000);
  EXPECT_GT(beyond, 300);
  RecordProperty("worst_relative", Scientific(worst));
  RecordProperty("slices_in_table", in_table);
  RecordProperty("slices_beyond_table", beyond);
}

// A 600 s flight of violent stick and rudder (square waves, a slow roll
// through large bank) with the P2V-7: the slicer's position against the
// reference quadrature summed from the slicer's own slice starts (its
// linear states are the dense transition's, bit for bit: slicer_test.cpp).
TEST(SlicerPosition, A600sFlightAgreesWithTheLibmQuadrature) {
  const FlightModel model(test::MakeP2V7());
  SliceOptions options;
  options.integrator = Integrator::kExact;
  Slicer slicer(model, options);
  const ReferenceQuadrature reference(model, options.dt);
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  double path = 0.0;
  Eigen::VectorXd controls(model.num_controls());
  for (int k = 0; k < 6000; ++k) {
    const double t = 0.1 * k;
    controls << 0.05 * std::copysign(1.0, std::sin(0.7 * t)), 0.3, 0.1 * std::copysign(1.0, std::sin(0.13 * t)),
        0.08 * std::sin(0.9 * t);
    const FlightState start = slicer.state();
    const auto [d, flown] = reference.Displacement(start.head<9>(), controls, options.dt);
    position += d;
    path += flown;
    slicer.Advance(controls);
  }
  const FlightState& end = slicer.state();
  EXPECT_GT(std::abs(end[kPhi]) + std::abs(end[kPsi]), 1.0);  // it turned hard
  EXPECT_LE((end.tail<3>() - position).norm(), kFlightRelative * path)
      << end.tail<3>().transpose() << " vs " << position.transpose() << " over " << path << " m";
  EXPECT_GT(path, 40e3);
  RecordProperty("relative_to_path", Scientific((end.tail<3>() - position).norm() / path));
  RecordProperty("path_m", Scientific(path));
}

// The quadrature's lanes run in AVX where the processor has it and in the
// baseline SSE2 elsewhere (core/vector_isa.hpp): both must fly the same
// flight to the bit (a hard, turning 600 s flight, every state of every
// slice).
TEST(SlicerPosition, BaselineAndAvxQuadratureGiveTheSameBits) {
  if (!core::UseAvx()) GTEST_SKIP() << "this processor has no AVX: only the baseline quadrature runs here";
  const FlightModel model(test::MakeP2V7());
  SliceOptions options;
  options.integrator = Integrator::kExact;
  auto fly = [&](bool baseline) {
    core::ForceBaselineVectors(baseline);
    Slicer slicer(model, options);
    std::vector<FlightState> states;
    Eigen::VectorXd controls(model.num_controls());
    for (int k = 0; k < 6000; ++k) {
      const double t = 0.1 * k;
      controls << 0.05 * std::copysign(1.0, std::sin(0.7 * t)), 0.3, 0.1 * std::copysign(1.0, std::sin(0.13 * t)),
          0.08 * std::sin(0.9 * t);
      slicer.Advance(controls);
      states.push_back(slicer.state());
    }
    core::ForceBaselineVectors(false);
    return states;
  };
  const std::vector<FlightState> wide = fly(false), base = fly(true);
  ASSERT_EQ(wide.size(), base.size());
  for (std::size_t k = 0; k < wide.size(); ++k)
    for (Eigen::Index i = 0; i < wide[k].size(); ++i)
      ASSERT_EQ(std::bit_cast<std::uint64_t>(wide[k][i]), std::bit_cast<std::uint64_t>(base[k][i]))
          << "slice " << k << ", state " << i << ": " << wide[k][i] << " vs " << base[k][i];
  EXPECT_GT(std::abs(wide.back()[kPhi]) + std::abs(wide.back()[kPsi]), 1.0);  // it turned hard
}

}  // namespace
}  // namespace aerolin::sim
