#include "aerolin/study/loops.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/tracked.hpp"
#include "bundled_aircraft.hpp"

namespace aerolin::study {
namespace {

using cd = std::complex<double>;

// Two eigen-solves of matrices equal to rounding (or of similar matrices,
// the washout state scaled by 1/τ) agree to a few ulps of the largest
// entry; the brief's tolerance for the closed-loop eigenvalues.
constexpr double kEigenvalueTolerance = 1e-10;

model::AircraftData Load(const std::string& name) { return test::LoadBundled("derivatives/" + name); }

std::vector<cd> EigenvaluesOf(const Eigen::MatrixXd& A) {
  const Eigen::VectorXcd v = Eigen::EigenSolver<Eigen::MatrixXd>(A, false).eigenvalues();
  return {v.data(), v.data() + v.size()};
}

// Every root of `expected` has one of `actual` within the tolerance, one to one.
void ExpectSameRoots(std::vector<cd> actual, const std::vector<cd>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (const cd& e : expected) {
    auto nearest = std::min_element(actual.begin(), actual.end(), [&](const cd& a, const cd& b) {
      return std::abs(a - e) < std::abs(b - e);
    });
    EXPECT_LT(std::abs(*nearest - e), kEigenvalueTolerance) << "root " << e << " nearest " << *nearest;
    actual.erase(nearest);
  }
}

AugmentSpec LoopSpec(model::Axis axis, const std::vector<std::string>& loops) {
  AugmentSpec spec;
  spec.axis = axis;
  spec.method = DesignMethod::kLoops;
  for (const std::string& text : loops) spec.loops.push_back(ParseLoop(text));
  return spec;
}

int Column(const model::StateSpace& sys, const std::string& input) {
  for (int j = 0; j < sys.num_inputs(); ++j)
    if (sys.inputs()[static_cast<std::size_t>(j)].name == input) return j;
  ADD_FAILURE() << "no input " << input;
  return 0;
}

TEST(ParseLoop, ReadsInputOutputGainAndWashout) {
  const OutputLoop a = ParseLoop("rudder:r");
  EXPECT_EQ(a.input, "rudder");
  EXPECT_EQ(a.output, "r");
  EXPECT_FALSE(a.gain);
  EXPECT_FALSE(a.washout_tau);
  const OutputLoop b = ParseLoop("rudder:r=1.5,washout=2");
  EXPECT_EQ(*b.gain, 1.5);
  EXPECT_EQ(*b.washout_tau, 2.0);
  const OutputLoop c = ParseLoop("elevator:q=-0.25");
  EXPECT_EQ(*c.gain, -0.25);
  EXPECT_EQ(*ParseLoop("rudder:r,washout=1").washout_tau, 1.0);
  for (const std::string bad : {"rudder", "rudder:", ":r", "rudder:r=", "rudder:r=x", "rudder:r=1,tau=1",
                                "rudder:r=1,washout=", "a:b:c"})
    EXPECT_THROW(ParseLoop(bad), std::invalid_argument) << bad;
  try {
    ParseLoop("rudder");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "expected INPUT:OUTPUT, e.g. rudder:r, optionally =GAIN and ,washout=TAU "
              "(rudder:r=1.5,washout=1.5), got 'rudder'");
  }
}

// One loop at gain K: augment's closed loop and the locus's (its own code
// path, δ = K·y through A + K b c) have the same roots, with and without a
// washout, on both axes.
TEST(AugmentLoops, OneLoopHasTheRootsOfTheLocusAtThatGain) {
  for (const std::string file : {"p2v7.toml", "navion_cruise_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a = Load(file);
    struct Case {
      model::Axis axis;
      std::string input, output;
      double K;
      std::optional<double> tau;
    };
    for (const Case& c : {Case{model::Axis::kLateral, "rudder", "r", 1.2, std::nullopt},
                          Case{model::Axis::kLateral, "rudder", "r", 1.7, 1.5},
                          Case{model::Axis::kLongitudinal, "elevator", "q", 0.4, std::nullopt},
                          Case{model::Axis::kLongitudinal, "elevator", "q", 0.7, 1.0},
                          // Accelerations: D ≠ 0 (the locus's K/(1 − K d) closes them).
                          Case{model::Axis::kLongitudinal, "elevator", "nz", 0.05, std::nullopt},
                          Case{model::Axis::kLongitudinal, "elevator", "n_z", -0.1, 1.0},
                          Case{model::Axis::kLateral, "rudder", "ay", -0.4, std::nullopt},
                          Case{model::Axis::kLateral, "rudder", "a_y", 0.3, 2.0}}) {
      SCOPED_TRACE(file + " " + c.input + ":" + c.output);
      AugmentSpec spec;
      spec.axis = c.axis;
      spec.method = DesignMethod::kLoops;
      spec.loops = {{c.input, c.output, c.K, c.tau}};
      const AugmentResult r = Augment(a, spec);
      EXPECT_EQ(r.filter_states, c.tau ? 1 : 0);
      const Eigen::MatrixXd locus = ClosedLoopMatrix(a, {c.input, c.output, c.tau, {}, 1}, c.K);
      ExpectSameRoots(r.closed_eigenvalues, EigenvaluesOf(locus));
    }
  }
}

// Two loops: the roots of A − B K C built here from the bare model (δa =
// Kp·p, δr = Kr·r), and with a washout on r the augmented matrix
// [A + b_a Kp e_p + b_r Kr e_r, −b_r Kr a; e_r, −a] in the locus's filter
// state (ẋ_w = r − a x_w, filtered r = r − a x_w).
TEST(AugmentLoops, TwoLoopsHaveTheRootsOfTheHandBuiltClosedLoop) {
  using namespace model::lat;
  const model::AircraftData a = Load("p2v7.toml");
  const model::StateSpace lat = model::BuildLateral(a);
  const Eigen::VectorXd ba = lat.B().col(Column(lat, "aileron")), br = lat.B().col(Column(lat, "rudder"));
  const double Kp = 0.3, Kr = 1.2;
  {
    Eigen::MatrixXd A = lat.A();
    A.col(kP) += ba * Kp;
    A.col(kR) += br * Kr;
    const AugmentResult r = Augment(a, LoopSpec(model::Axis::kLateral, {"aileron:p=0.3", "rudder:r=1.2"}));
    ExpectSameRoots(r.closed_eigenvalues, EigenvaluesOf(A));
    ASSERT_TRUE(r.closed_modes);
    EXPECT_EQ(r.inputs.size(), 2u);
  }
  {
    const double tau = 1.5, w = 1.0 / tau;
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(6, 6);
    A.topLeftCorner(5, 5) = lat.A();
    A.topLeftCorner(5, 5).col(kP) += ba * Kp;
    A.topLeftCorner(5, 5).col(kR) += br * Kr;
    A.block(0, 5, 5, 1) = -br * Kr * w;
    A(5, kR) = 1.0;
    A(5, 5) = -w;
    const AugmentResult r =
        Augment(a, LoopSpec(model::Axis::kLateral, {"aileron:p=0.3", "rudder:r=1.2,washout=1.5"}));
    ExpectSameRoots(r.closed_eigenvalues, EigenvaluesOf(A));
    EXPECT_EQ(r.filter_states, 1);
    EXPECT_EQ(r.states.back().name, "r_washout");
    EXPECT_EQ(r.gain.cols(), 6);
    // The aircraft's modes are named from their aircraft states; the filter's
    // real root (near −1/τ) is not among them.
    ASSERT_TRUE(r.closed_modes) << r.not_graded;
    EXPECT_TRUE(analysis::FindMode(*r.closed_modes, analysis::ModeKind::kDutchRoll));
    EXPECT_EQ(r.closed_modes->size(), 4u);  // roll, dutch roll, spiral, heading
  }
}

// The P2V-7's washed-out yaw damper damps the Dutch roll (N_δr < 0, K > 0)
// and grades it, with the washout's root left out of the modes.
TEST(AugmentLoops, WashedOutYawDamperDampsTheDutchRoll) {
  const model::AircraftData a = Load("p2v7.toml");
  const AugmentResult r = Augment(a, LoopSpec(model::Axis::kLateral, {"rudder:r=1.7,washout=1.5"}));
  const analysis::Mode* open = analysis::FindMode(r.open_modes, analysis::ModeKind::kDutchRoll);
  ASSERT_TRUE(r.closed_modes) << r.not_graded;
  const analysis::Mode* closed = analysis::FindMode(*r.closed_modes, analysis::ModeKind::kDutchRoll);
  ASSERT_TRUE(open && closed);
  EXPECT_GT(closed->damping_ratio, open->damping_ratio + 0.1);
  EXPECT_FALSE(r.grades.empty());
  EXPECT_TRUE(r.grades.front().closed_loop);
}

// An acceleration loop moves the pilot's command too: δ = M δp − K x with
// M = 1/(1 − K d) for one loop (d = D of nz for the elevator), and the gain
// reported is M K c, the locus's K/(1 − K d) · c.
TEST(AugmentLoops, AnNzLoopScalesThePilotsCommand) {
  const model::AircraftData a = Load("p2v7.toml");
  const double K = 0.05;
  const AugmentResult r = Augment(a, LoopSpec(model::Axis::kLongitudinal, {"elevator:n_z=0.05"}));
  const model::StateSpace lon = model::BuildWithOutputs(a, model::Axis::kLongitudinal);
  const int e = Column(lon, "elevator");
  const double d = lon.D()(model::lon_out::kNz, e);
  ASSERT_NE(d, 0.0);
  ASSERT_EQ(r.command.rows(), 1);
  EXPECT_NEAR(r.command(0, e), 1.0 / (1.0 - K * d), 1e-14);
  const Eigen::RowVectorXd expected = -K / (1.0 - K * d) * lon.C().row(model::lon_out::kNz);
  EXPECT_TRUE(r.gain.isApprox(expected, 1e-13)) << r.gain << "\n" << expected;
  EXPECT_EQ(r.loops.front().output, "nz");
  EXPECT_TRUE(r.closed_loop.B().col(e).isApprox(lon.B().col(e) / (1.0 - K * d), 1e-13));
}

TEST(AugmentLoops, NamesWhatIsWrong) {
  const model::AircraftData a = Load("p2v7.toml");
  auto message = [&](model::Axis axis, const std::vector<OutputLoop>& loops) -> std::string {
    AugmentSpec spec;
    spec.axis = axis;
    spec.method = DesignMethod::kLoops;
    spec.loops = loops;
    try {
      Augment(a, spec);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  const auto lat = model::Axis::kLateral;
  EXPECT_EQ(message(lat, {{"spoiler", "r", 1.0, {}}}),
            "loop spoiler:r: unknown input 'spoiler' (this aircraft's controls: elevator, throttle, aileron, rudder)");
  EXPECT_EQ(message(lat, {{"rudder", "load", 1.0, {}}}),
            "loop rudder:load: unknown output 'load' (outputs: u alpha q theta nz gamma | beta p r phi psi ay)");
  EXPECT_EQ(message(lat, {{"rudder", "nz", 1.0, {}}}),
            "loop rudder:nz: input 'rudder' does not act on the longitudinal axis of output 'nz'");
  EXPECT_EQ(message(lat, {{"rudder", "ay", 1.0, {}}, {"rudder", "a_y", 2.0, {}}}),
            "loop rudder:a_y is given twice: give each loop once, with its gain");
  EXPECT_EQ(message(lat, {{"elevator", "r", 1.0, {}}}),
            "loop elevator:r: input 'elevator' does not act on the lateral axis of output 'r'");
  EXPECT_EQ(message(lat, {{"rudder", "r", 1.0, {}}, {"rudder", "r", 2.0, {}}}),
            "loop rudder:r is given twice: give each loop once, with its gain");
  EXPECT_EQ(message(lat, {{"rudder", "r", 1.0, 0.0}}), "loop rudder:r: washout time constant must be > 0");
  EXPECT_EQ(message(lat, {{"rudder", "r", 1.0, -1.0}}), "loop rudder:r: washout time constant must be > 0");
  EXPECT_EQ(message(lat, {{"elevator", "q", 1.0, {}}}),
            "loop elevator:q is on the longitudinal axis, the design on the lateral: one design closes the "
            "loops of one axis (without an axis, `aerolin augment --loop` and aerolin.augment(loops=...) "
            "design both)");
  EXPECT_EQ(message(lat, {{"rudder", "r", std::nullopt, {}}}),
            "loop rudder:r needs a gain (rudder:r=K, K in rad/(rad/s))");
  EXPECT_EQ(message(lat, {}), "output feedback needs at least one loop");
}

}  // namespace
}  // namespace aerolin::study
