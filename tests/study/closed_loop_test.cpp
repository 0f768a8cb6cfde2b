#include "aerolin/study/closed_loop.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/LU>
#include <Eigen/QR>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/sim/flight.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/flight_setup.hpp"
#include "aerolin/study/loops.hpp"
#include "aerolin/study/tracked.hpp"
#include "bundled_aircraft.hpp"
#include <Eigen/Eigenvalues>

namespace aerolin::study {
namespace {

const std::string kP2V7 = std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml";

// The P2V-7 with `loops` in [augmentation.lateral], as `augment --write` writes them.
data::LoadResult WithLateralLoops(const std::string& loops) {
  return data::LoadAircraftString(core::ReadInputFile(kP2V7) + "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n" +
                                      loops + "]\n",
                                  "dampers.toml");
}

// The file holding augment's washed-out loops gives augment's closed loop
// bit for bit (one builder, model::BuildAugmented, and one namer, CloseAxis),
// and its filter root is the closed loop's eigenvalue no mode claims.
TEST(AnalyzeClosedLoop, AFileWithAugmentsWashedOutLoopsGivesAugmentsClosedLoop) {
  const model::AircraftData p2v7 = data::LoadAircraftFile(kP2V7).aircraft;
  AugmentSpec spec;
  spec.axis = model::Axis::kLateral;
  spec.method = DesignMethod::kLoops;
  spec.loops = {ParseLoop("aileron:p=-0.3"), ParseLoop("rudder:r=1.7,washout=1.5")};
  const AugmentResult designed = Augment(p2v7, spec);
  ASSERT_TRUE(designed.closed_modes) << designed.not_graded;

  const analysis::ModalAnalysis file = AnalyzeClosedLoop(
      WithLateralLoops("  { input = \"aileron\", output = \"p\", gain = -0.3 },\n"
                       "  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n")
          .aircraft);
  EXPECT_EQ(file.lateral_model.A(), designed.closed_loop.A());
  EXPECT_EQ(file.lateral_model.B(), designed.closed_loop.B());
  ASSERT_EQ(file.lateral.size(), designed.closed_modes->size());
  for (std::size_t k = 0; k < file.lateral.size(); ++k) {
    EXPECT_EQ(file.lateral[k].kind, (*designed.closed_modes)[k].kind);
    EXPECT_EQ(file.lateral[k].lambda, (*designed.closed_modes)[k].lambda);
  }
  ASSERT_EQ(file.filters.size(), 1u);
  EXPECT_EQ(file.filters[0].axis, model::Axis::kLateral);
  EXPECT_EQ(file.filters[0].state.name, "r_washout");
  EXPECT_EQ(analysis::FilterRootName(file.filters[0].state), "washout filter (r_washout)");
  // The filter's root: an eigenvalue of the closed loop, real, and claimed
  // by no mode.
  const std::complex<double> f = file.filters[0].lambda;
  EXPECT_EQ(f.imag(), 0.0);
  bool eigenvalue = false;
  for (const std::complex<double>& l : designed.closed_eigenvalues)
    eigenvalue = eigenvalue || std::abs(l - f) < 1e-9 * std::max(1.0, std::abs(f));
  EXPECT_TRUE(eigenvalue) << f;
  for (const analysis::Mode& m : file.lateral) EXPECT_GT(std::abs(m.lambda - f), 1e-6) << m.full_name();
  // The longitudinal axis is the file's as it was.
  const analysis::ModalAnalysis bare = analysis::AnalyzeModes(p2v7);
  EXPECT_EQ(file.longitudinal_model.A(), bare.longitudinal_model.A());
}

// tf/bode of the file: the rudder to r and to ay through the closed loop
// with its filter, against the state space written out here by hand,
// z = (β, p, r, φ, ψ, w): δa = −0.3 p, δr = δr_pilot + K (r − w), ẇ = (r − w)/τ.
TEST(AnalyzeClosedLoop, BodeOfTheFileIsTheHandBuiltClosedLoopsResponse) {
  const double Ka = -0.3, K = 1.7, tau = 1.5;
  const model::AircraftData a =
      WithLateralLoops("  { input = \"aileron\", output = \"p\", gain = -0.3 },\n"
                       "  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n")
          .aircraft;
  const model::StateSpace bare = model::BuildLateral(model::BareAirframe(a));
  const Eigen::VectorXd b_a = bare.B().col(0), b_r = bare.B().col(1);
  ASSERT_EQ(bare.inputs()[1].name, "rudder");
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(6, 6);
  A.topLeftCorner(5, 5) = bare.A();
  A.block(0, model::lat::kP, 5, 1) += Ka * b_a;
  A.block(0, model::lat::kR, 5, 1) += K * b_r;
  A.block(0, 5, 5, 1) -= K * b_r;
  A(5, model::lat::kR) = 1.0 / tau;
  A(5, 5) = -1.0 / tau;
  Eigen::VectorXd b = Eigen::VectorXd::Zero(6);
  b.head(5) = b_r;

  const analysis::ModalAnalysis modes = AnalyzeClosedLoop(a);
  const analysis::Channel channel = analysis::ResolveChannel(a, modes, "rudder", {"r"});
  EXPECT_EQ(channel.system.outputs().size(), 6u);  // β, p, r, φ, ψ, ay: the filter state is no output
  const std::vector<double> omega = {0.1, 0.5, 1.0, 2.0, 10.0};
  const analysis::BodeDiagram bode = analysis::ComputeBodeDiagram(channel, modes, omega);
  ASSERT_EQ(bode.curves.size(), 1u);
  ASSERT_EQ(bode.curves[0].points.size(), omega.size());
  for (std::size_t k = 0; k < omega.size(); ++k) {
    const std::complex<double> s(0.0, omega[k]);
    const Eigen::VectorXcd x = (s * Eigen::MatrixXcd::Identity(6, 6) - A.cast<std::complex<double>>())
                                   .partialPivLu()
                                   .solve(b.cast<std::complex<double>>());
    const std::complex<double> expected = x(model::lat::kR);
    // Two solves of a 6×6 system condition ~1e3: 1e-12 relative would do; 1e-10 leaves room.
    EXPECT_LT(std::abs(bode.curves[0].points[k].value - expected), 1e-10 * std::abs(expected)) << omega[k];
  }
  // The transfer function's poles are the closed loop's six roots.
  const analysis::TransferFunction tf = analysis::ChannelTransferFunction(channel, modes);
  EXPECT_FALSE(tf.poles.empty());
}

// A start on a mode of the washed-out axis is the closed loop's mode, filter
// state included. Oracle: the eigenpair (λ, v) of model::BuildAugmented's
// lateral A computed here (Eigen's EigenSolver; z = β, p, r, φ, ψ, w): a
// flight started on the mode, z0 = Re(c v) (c fitted here to the start),
// flies z(t) = Re(c v e^{λt}), every state and the filter's. The same start
// with w = 0 does not (what a wrong filter start would fly), and the
// front ends' path (Simulate of the prepared flight) flies the start given.
TEST(AnalyzeClosedLoop, AStartOnTheWashedOutAxissModeFliesThatModeFilterStateIncluded) {
  const model::AircraftData a =
      WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 0.5, washout_s = 1.5 },\n").aircraft;
  const analysis::ModalAnalysis modes = AnalyzeClosedLoop(a);
  FlightSpec spec;
  spec.excite = analysis::ModeKind::kDutchRoll;
  spec.slice.integrator = sim::Integrator::kExact;
  spec.duration = 10.0;
  const PreparedFlight prepared = Prepare(a, modes, spec);
  ASSERT_EQ(prepared.model().num_washout_filters(), 1);
  const int slot = prepared.model().first_filter_slot();
  EXPECT_EQ(prepared.options().auxiliary0, prepared.auxiliary0());

  const Eigen::MatrixXd A = model::BuildAugmented(a, model::Axis::kLateral).A();
  ASSERT_EQ(A.rows(), 6);
  const Eigen::EigenSolver<Eigen::MatrixXd> eig(A);
  ASSERT_EQ(eig.info(), Eigen::Success);
  // The Dutch roll: the oscillatory pair's upper root (at this gain the
  // closed loop's only pair; at 1.7 the Dutch roll is overdamped).
  Eigen::Index dutch = 0;
  for (Eigen::Index i = 1; i < 6; ++i)
    if (eig.eigenvalues()[i].imag() > eig.eigenvalues()[dutch].imag()) dutch = i;
  const std::complex<double> lambda = eig.eigenvalues()[dutch];
  ASSERT_GT(lambda.imag(), 0.1);
  const Eigen::VectorXcd v = eig.eigenvectors().col(dutch);

  auto lateral_z = [&](const sim::Flight& flight) {
    Eigen::VectorXd z(6);
    z.head(5) = flight.state().segment<5>(sim::kBeta);
    z[5] = flight.slicer().auxiliary_state()[slot];
    return z;
  };
  // c with Re(c v) = z0 (least squares over the 6 components: 2 unknowns).
  sim::Flight start(prepared.model(), spec.slice, sim::ValidityThresholds{}, prepared.x0(),
                    prepared.auxiliary0());
  const Eigen::VectorXd z0 = lateral_z(start);
  Eigen::MatrixXd M(6, 2);
  M.col(0) = v.real();
  M.col(1) = -v.imag();
  const Eigen::Vector2d c_parts = M.colPivHouseholderQr().solve(z0);
  const std::complex<double> c(c_parts[0], c_parts[1]);
  const double scale = z0.cwiseAbs().maxCoeff();
  ASSERT_GT(std::abs(z0[5]), 1e-3 * scale);  // the mode moves the filter's state
  EXPECT_LT((M * c_parts - z0).cwiseAbs().maxCoeff(), 1e-14 * scale) << "the start is the mode";
  EXPECT_TRUE(prepared.x0().head<4>().isZero(0.0));  // the other axis at trim

  // The largest gap of a flight from Re(c v e^{λt}) over the duration.
  auto largest_gap = [&](const sim::AuxiliaryState& aux0, sim::FlightState* end) {
    sim::Flight flight(prepared.model(), spec.slice, sim::ValidityThresholds{}, prepared.x0(), aux0);
    sim::HandsOff hands_off;
    double gap = 0.0;
    while (flight.time() < spec.duration - 1e-9) {
      EXPECT_TRUE(flight.Step(hands_off).flown);
      const Eigen::VectorXd expected = (c * v * std::exp(lambda * flight.time())).real();
      gap = std::max(gap, (lateral_z(flight) - expected).cwiseAbs().maxCoeff());
    }
    if (end != nullptr) *end = flight.state();
    return gap;
  };
  sim::FlightState end;
  const double pure = largest_gap(prepared.auxiliary0(), &end);
  // 100 exact slices of a 15 × 15 exponential and one eigen-solve: ~1e-16 each.
  EXPECT_LT(pure, 1e-10 * scale);
  const double without_filter = largest_gap(sim::AuxiliaryState::Zero(), nullptr);
  EXPECT_GT(without_filter, 1e-3 * scale);
  RecordProperty("largest_gap_relative", std::to_string(pure / scale));
  RecordProperty("largest_gap_relative_with_w0_zero", std::to_string(without_filter / scale));

  // What `aerolin simulate` and aerolin.simulate fly: Simulate of the prepared flight.
  PreparedFlight again = Prepare(a, modes, spec);
  const sim::SimulationResult flown = sim::Simulate(again.model(), again.x0(), again.input(), again.options());
  EXPECT_EQ(flown.log.state.back(), end);
}

// `aerolin locus` on the filter's axis of a washout file: the aileron's roll
// damper δa = K·s/(s + 1/τa)·p closed on the P2V-7 whose file holds the
// washed-out yaw damper δr = 0.5·s/(s + 1/1.5)·r. At K = 0 the locus is the
// file's `modes` (names and roots, the filter's root named as modes names
// it); at every K its roots are the eigenvalues of the closed loop written
// out here by hand from the bare airframe, z = (β, p, r, φ, ψ, w_r, w_p):
// δr = Kr (r − w_r), δa = K (p − w_p), ẇ_r = (r − w_r)/τr, ẇ_p = (p − w_p)/τa.
TEST(LocusOnAWashoutFile, AtZeroGainItIsModesAndEachGainTheHandBuiltClosedLoop) {
  const double Kr = 0.5, tau_r = 1.5, tau_a = 3.0;
  const model::AircraftData a =
      WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 0.5, washout_s = 1.5 },\n").aircraft;
  LocusOptions options;
  options.input = "aileron";
  options.output = "p";
  options.washout_tau = tau_a;
  options.gains = {-0.2, 0.0, 0.2, 0.5, 1.0};
  const LocusResult locus = Locus(a, options);
  ASSERT_EQ(locus.study.points.size(), options.gains.size());

  const analysis::ModalAnalysis modes = AnalyzeClosedLoop(a);
  ASSERT_EQ(modes.filters.size(), 1u);
  const TrackedPoint& zero = locus.study.points[1];
  ASSERT_EQ(zero.value, 0.0);
  auto find = [&](const std::string& name) -> const TrackedMode* {
    for (const TrackedMode& m : zero.modes)
      if (m.name == name) return &m;
    return nullptr;
  };
  for (const analysis::Mode& m : modes.lateral) {
    SCOPED_TRACE(m.full_name());
    const TrackedMode* t = find(m.full_name());
    ASSERT_NE(t, nullptr);
    EXPECT_LT(std::abs(t->lambda - (m.oscillatory ? m.lambda : std::complex<double>(m.lambda.real(), 0.0))),
              1e-12 * std::max(1.0, std::abs(m.lambda)));
  }
  const TrackedMode* filter = find("washout filter (r_washout)");
  ASSERT_NE(filter, nullptr);
  EXPECT_LT(std::abs(filter->lambda - modes.filters[0].lambda), 1e-12);
  const TrackedMode* own = find("washout filter");
  ASSERT_NE(own, nullptr);
  EXPECT_LT(std::abs(own->lambda - (-1.0 / tau_a)), 1e-12);

  const model::StateSpace bare = model::BuildLateral(model::BareAirframe(a));
  ASSERT_EQ(bare.inputs()[0].name, "aileron");
  ASSERT_EQ(bare.inputs()[1].name, "rudder");
  const Eigen::VectorXd b_a = bare.B().col(0), b_r = bare.B().col(1);
  for (const TrackedPoint& point : locus.study.points) {
    SCOPED_TRACE(point.value);
    const double K = point.value;
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(7, 7);
    A.topLeftCorner(5, 5) = bare.A();
    A.block(0, model::lat::kR, 5, 1) += Kr * b_r;
    A.block(0, 5, 5, 1) -= Kr * b_r;
    A.block(0, model::lat::kP, 5, 1) += K * b_a;
    A.block(0, 6, 5, 1) -= K * b_a;
    A(5, model::lat::kR) = 1.0 / tau_r;
    A(5, 5) = -1.0 / tau_r;
    A(6, model::lat::kP) = 1.0 / tau_a;
    A(6, 6) = -1.0 / tau_a;
    const Eigen::VectorXcd direct = Eigen::EigenSolver<Eigen::MatrixXd>(A).eigenvalues();
    std::vector<std::complex<double>> tracked;
    for (const TrackedMode& m : point.modes) {
      tracked.push_back(m.lambda);
      if (m.oscillatory) tracked.push_back(std::conj(m.lambda));
    }
    ASSERT_EQ(tracked.size(), 7u);
    // Each direct root matched to its nearest tracked root, once.
    for (Eigen::Index i = 0; i < direct.size(); ++i) {
      auto nearest = std::min_element(tracked.begin(), tracked.end(), [&](auto x, auto y) {
        return std::abs(x - direct(i)) < std::abs(y - direct(i));
      });
      EXPECT_LT(std::abs(*nearest - direct(i)), 1e-9 * std::max(1.0, std::abs(direct(i)))) << direct(i);
      tracked.erase(nearest);
    }
  }
}

// `aerolin sweep` of a washout file: the closed loop with the filter's
// state, its feedback held while the airframe moves. At the nominal N_r the
// sweep's point is the file's `modes` (names and roots, the filter's root
// named as modes names it); at the moved values the roots are those of a
// file with N_r edited, solved directly (its closed loop's eigenvalues).
TEST(SweepOfAWashoutFile, AtTheFilesValueItIsModesAndElsewhereTheEditedFile) {
  const std::string loops = "  { input = \"rudder\", output = \"r\", gain = 0.5, washout_s = 1.5 },\n";
  const data::LoadResult load = WithLateralLoops(loops);
  SweepOptions options;
  options.param = "lateral.Nr";
  options.from = -0.215;
  options.to = -0.315;
  options.steps = 3;
  const TrackedStudy study = Sweep(load.file, options);
  ASSERT_EQ(study.points.size(), 3u);
  const std::string plain = core::ReadInputFile(kP2V7);
  const std::string written = "Nr = -0.215 ";
  ASSERT_NE(plain.find(written), std::string::npos);
  for (const TrackedPoint& point : study.points) {
    SCOPED_TRACE(point.value);
    std::string edited = plain;
    std::ostringstream value;
    value << std::setprecision(17) << point.value;
    edited.replace(edited.find(written), written.size(), "Nr = " + value.str() + " ");
    const model::AircraftData a =
        data::LoadAircraftString(edited + "\n[augmentation.lateral]\nunits = \"SI\"\nloops = [\n" + loops + "]\n",
                                 "edited.toml")
            .aircraft;
    const analysis::ModalAnalysis modes = AnalyzeClosedLoop(a);
    // Every root of the point is an eigenvalue of the edited file's closed
    // loop (both axes; ψ's 0 among the lateral ones).
    const Eigen::VectorXcd lon = Eigen::EigenSolver<Eigen::MatrixXd>(modes.longitudinal_model.A()).eigenvalues();
    const Eigen::VectorXcd lat = Eigen::EigenSolver<Eigen::MatrixXd>(modes.lateral_model.A()).eigenvalues();
    ASSERT_EQ(lat.size(), 6);
    std::size_t count = 0;
    for (const TrackedMode& m : point.modes) {
      const Eigen::VectorXcd& direct = m.axis == model::Axis::kLongitudinal ? lon : lat;
      double nearest = 1e300;
      for (Eigen::Index i = 0; i < direct.size(); ++i) nearest = std::min(nearest, std::abs(direct(i) - m.lambda));
      EXPECT_LT(nearest, 1e-9 * std::max(1.0, std::abs(m.lambda))) << m.name;
      count += m.oscillatory ? 2 : 1;
    }
    EXPECT_EQ(count, 4u + 6u);
    if (point.value != -0.215) continue;
    // At the file's value: `modes` of the file, name for name.
    for (const analysis::Mode& m : modes.lateral) {
      bool found = false;
      for (const TrackedMode& t : point.modes)
        if (t.axis == model::Axis::kLateral && t.name == m.full_name()) {
          found = true;
          EXPECT_LT(std::abs(t.lambda - m.lambda), 1e-10 * std::max(1.0, std::abs(m.lambda))) << t.name;
        }
      EXPECT_TRUE(found) << m.full_name();
    }
    bool filter = false;
    for (const TrackedMode& t : point.modes)
      if (t.name == "washout filter (r_washout)") {
        filter = true;
        EXPECT_LT(std::abs(t.lambda - modes.filters[0].lambda), 1e-10);
      }
    EXPECT_TRUE(filter);
  }
  // A loop measuring an acceleration is still refused, naming it.
  const data::LoadResult ay = WithLateralLoops("  { input = \"rudder\", output = \"ay\", gain = 0.1, washout_s = 1.5 },\n");
  try {
    (void)Sweep(ay.file, options);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the lateral augmentation loops rudder:ay, an output whose C and D rows move"),
              std::string::npos)
        << e.what();
  }
}

TEST(AnalyzeClosedLoop, WithoutWashoutHasAnalyzeModesRoots) {
  const model::AircraftData a =
      WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 1.7 },\n").aircraft;
  const analysis::ModalAnalysis closed = AnalyzeClosedLoop(a), plain = analysis::AnalyzeModes(a);
  EXPECT_EQ(closed.lateral_model.A(), plain.lateral_model.A());
  ASSERT_EQ(closed.lateral.size(), plain.lateral.size());
  for (std::size_t k = 0; k < closed.lateral.size(); ++k) EXPECT_EQ(closed.lateral[k].lambda, plain.lateral[k].lambda);
  EXPECT_TRUE(closed.filters.empty());
}


// `aerolin modes` of a closed loop names each mode by the open-loop mode its
// root descends from (issue #26). The P2V-7's yaw damper δr = 1.7 r through
// a 1.5 s washout: by their shapes alone the closed loop's roots look like a
// roll-spiral oscillation and an overdamped Dutch roll (AnalyzeWithFilters),
// which graded the damper Level 4. Oracle, sharing no code with the
// continuation aerolin uses: the loop's gain raised from 0 to 1.7 in 4000
// steps, the eigenvalues of each step's (β, p, r, φ, r_washout) block by
// Eigen::EigenSolver, the Dutch-roll pair and the spiral root followed by
// nearest neighbour (each step moves a root far less than its distance to
// the others: checked).
TEST(AnalyzeClosedLoop, EachModeIsTheOneItsRootDescendsFromNotTheOneItsShapeSuggests) {
  const model::AircraftData p2v7 = data::LoadAircraftFile(kP2V7).aircraft;
  auto closed_block = [&](double K) {
    model::AircraftData a = p2v7;
    a.lateral_augmentation = model::AxisAugmentation{{"rudder"}, Eigen::MatrixXd::Zero(1, 5),
                                                     {model::OutputFeedback{"rudder", "r", K, 1.5}}};
    const Eigen::MatrixXd A = model::BuildAugmented(a, model::Axis::kLateral).A();
    const std::vector<Eigen::Index> keep{0, 1, 2, 3, 5};  // without ψ (index 4), a free integrator
    Eigen::MatrixXd block(5, 5);
    for (Eigen::Index r = 0; r < 5; ++r)
      for (Eigen::Index c = 0; c < 5; ++c) block(r, c) = A(keep[static_cast<std::size_t>(r)], keep[static_cast<std::size_t>(c)]);
    return Eigen::EigenSolver<Eigen::MatrixXd>(block, false).eigenvalues().eval();
  };
  auto nearest = [](const Eigen::VectorXcd& roots, std::complex<double> to, double* gap) {
    Eigen::Index best = 0;
    for (Eigen::Index i = 1; i < roots.size(); ++i)
      if (std::abs(roots(i) - to) < std::abs(roots(best) - to)) best = i;
    double second = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < roots.size(); ++i)
      if (i != best && std::abs(roots(i) - to) > 0) second = std::min(second, std::abs(roots(i) - to));
    *gap = second;
    return roots(best);
  };
  Eigen::VectorXcd at0 = closed_block(0.0);
  std::complex<double> dutch_roll{}, spiral{1e9, 0.0};
  for (const std::complex<double>& l : at0) {
    if (l.imag() > 0) dutch_roll = l;
    if (l.imag() == 0 && std::abs(l) < std::abs(spiral)) spiral = l;
  }
  ASSERT_NEAR(dutch_roll.imag(), 1.06, 0.01);
  ASSERT_NEAR(spiral.real(), -0.00875, 1e-4);
  constexpr int kSteps = 4000;
  for (int k = 1; k <= kSteps; ++k) {
    const Eigen::VectorXcd roots = closed_block(1.7 * k / kSteps);
    double gap_dr = 0, gap_spiral = 0;
    const std::complex<double> dr = nearest(roots, dutch_roll, &gap_dr), sp = nearest(roots, spiral, &gap_spiral);
    ASSERT_LT(std::abs(dr - dutch_roll), 0.1 * gap_dr) << "K = " << 1.7 * k / kSteps;
    ASSERT_LT(std::abs(sp - spiral), 0.1 * gap_spiral) << "K = " << 1.7 * k / kSteps;
    dutch_roll = dr;
    spiral = sp;
  }
  const analysis::ModalAnalysis closed = AnalyzeClosedLoop(
      WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 1.7, washout_s = 1.5 },\n").aircraft);
  const analysis::Mode* dr = closed.Find(analysis::ModeKind::kDutchRoll);
  const analysis::Mode* sp = closed.Find(analysis::ModeKind::kSpiral);
  const analysis::Mode* roll = closed.Find(analysis::ModeKind::kRollSubsidence);
  ASSERT_TRUE(dr && sp && roll);
  EXPECT_TRUE(dr->oscillatory);
  EXPECT_EQ(dr->full_name(), "dutch roll");
  EXPECT_NEAR(std::abs(dr->lambda - dutch_roll), 0.0, 1e-9 * std::abs(dutch_roll));
  EXPECT_NEAR(dr->damping_ratio, 0.283, 5e-4);
  EXPECT_EQ(sp->full_name(), "spiral");
  EXPECT_NEAR(std::abs(sp->lambda - spiral), 0.0, 1e-9);
  EXPECT_EQ(roll->full_name(), "roll subsidence");
  EXPECT_FALSE(roll->oscillatory);
  EXPECT_EQ(closed.lateral.size(), 4u);  // roll, Dutch roll, spiral, heading; the filter's root apart
  ASSERT_EQ(closed.filters.size(), 1u);
  // What the shapes alone say, so the test tells the two namings apart.
  const std::vector<std::complex<double>> filter{closed.filters[0].lambda};
  const std::vector<analysis::Mode> by_shape =
      analysis::AnalyzeWithFilters(closed.lateral_model, model::Axis::kLateral, p2v7.condition.U0, filter);
  const analysis::Mode* shape_pair = nullptr;
  for (const analysis::Mode& m : by_shape)
    if (m.oscillatory) shape_pair = &m;
  ASSERT_NE(shape_pair, nullptr);
  EXPECT_EQ(shape_pair->full_name(), "roll-spiral oscillation (lateral phugoid)");
}

// A locus and `aerolin modes` name a closed loop alike: at every listed gain
// (both signs, with and without a washout, on each axis of every bundled
// aircraft) each mode the locus tracks is the mode AnalyzeClosedLoop names of
// the aircraft with that loop written as its augmentation (the continuation
// from the open loop along the same straight line, by a grid of its own),
// the washout filter's root one of its filters'. Gains where the locus has a
// coupled pair (no classical name), or after one (two real roots that
// joined and split again: which is which is each grid's choice), are left out.
TEST(AnalyzeClosedLoop, NamesEveryGainsModesAsTheLocusDoes) {
  struct Loop {
    const char* input;
    const char* output;
    std::optional<double> tau;
  };
  const Loop loops[] = {{"rudder", "r", std::nullopt}, {"rudder", "r", 1.5}, {"aileron", "p", std::nullopt},
                        {"elevator", "q", std::nullopt}, {"elevator", "q", 1.0}};
  const std::vector<double> gains{-0.5, 0.25, 0.8, 1.7, 3.0};
  int compared = 0, differ_by_shape = 0, after_coupling = 0;
  for (const std::string& path : test::kBundledAircraft) {
    const model::AircraftData aircraft = test::LoadBundled(path);
    for (const Loop& loop : loops) {
      const LocusResult locus = Locus(aircraft, {loop.input, loop.output, loop.tau, gains, 1});
      const model::Axis axis = locus.axis;
      const std::size_t n = model::StateSignals(axis).size();
      for (const TrackedPoint& point : locus.study.points) {
        const std::string where = path + " " + loop.input + ":" + loop.output + " K = " + std::to_string(point.value) +
                                  (loop.tau ? " washout" : "");
        const auto coupled = [](const std::string& name) { return name.find("coupled") != std::string::npos; };
        if (std::any_of(point.modes.begin(), point.modes.end(), [&](const TrackedMode& m) { return coupled(m.name); }))
          continue;
        // Two real roots that joined into a pair and split again have no
        // identities to keep: which is which is each grid's choice.
        if (std::any_of(locus.study.changes.begin(), locus.study.changes.end(), [&](const StructureChange& c) {
              return (coupled(c.from) || coupled(c.to)) && c.value * point.value > 0 &&
                     std::abs(c.value) < std::abs(point.value);
            })) {
          ++after_coupling;
          continue;
        }
        // As `augment --write` writes the loop: through a washout, a loop; else a row of u = −K x.
        model::AxisAugmentation aug{{loop.input}, Eigen::MatrixXd::Zero(1, static_cast<Eigen::Index>(n)), {}};
        if (loop.tau) {
          aug.output_loops.push_back(model::OutputFeedback{loop.input, loop.output, point.value, loop.tau});
        } else {
          const std::vector<core::Signal>& states = model::StateSignals(axis);
          const auto state = std::find_if(states.begin(), states.end(),
                                          [&](const core::Signal& x) { return x.name == loop.output; });
          ASSERT_NE(state, states.end()) << where;
          aug.gain(0, state - states.begin()) = -point.value;
        }
        model::AircraftData a = aircraft;
        (axis == model::Axis::kLongitudinal ? a.longitudinal_augmentation : a.lateral_augmentation) = aug;
        const analysis::ModalAnalysis closed = AnalyzeClosedLoop(a);
        const std::vector<analysis::Mode>& modes = closed.modes(axis);
        for (const TrackedMode& t : point.modes) {
          if (t.name == "heading") continue;
          if (t.name == "washout filter") {
            ASSERT_EQ(closed.filters.size(), 1u) << where;
            EXPECT_NEAR(std::abs(closed.filters[0].lambda - t.lambda), 0.0, 1e-8 * std::max(1.0, t.wn)) << where;
            continue;
          }
          const analysis::Mode* m = nullptr;
          for (const analysis::Mode& c : modes)
            if (m == nullptr || std::abs(c.lambda - t.lambda) < std::abs(m->lambda - t.lambda)) m = &c;
          ASSERT_NE(m, nullptr) << where;
          EXPECT_NEAR(std::abs(m->lambda - t.lambda), 0.0, 1e-8 * std::max(1.0, t.wn)) << where << " " << t.name;
          EXPECT_EQ(m->full_name(), t.name) << where;
          ++compared;
        }
        // Where the shapes alone name a mode otherwise (AnalyzeWithFilters), the comparison is not idle.
        std::vector<std::complex<double>> filter_roots;
        for (const analysis::FilterRoot& f : closed.filters) filter_roots.push_back(f.lambda);
        const std::vector<analysis::Mode> by_shape = analysis::AnalyzeWithFilters(
            closed.model_of(axis), axis, a.condition.U0, filter_roots);
        for (std::size_t k = 0; k < by_shape.size() && k < modes.size(); ++k)
          if (by_shape[k].full_name() != modes[k].full_name()) {
            ++differ_by_shape;
            break;
          }
      }
    }
  }
  EXPECT_GT(compared, 500);
  EXPECT_GT(differ_by_shape, 0);
  std::cout << compared << " modes compared; " << differ_by_shape << " gains named otherwise by shape; "
            << after_coupling << " gains after a coupling left out\n";
}


// A sweep of an augmented file without a washout starts from `modes`' names
// of the file (continuation from the open loop) and, as `modes` no longer
// names a closed loop by its shapes, gives no pointwise names on that axis.
// (On this file the shapes and the continuation agree at these values, so
// the test guards the rule rather than tells the two namings apart; the
// tests above do that.)
TEST(SweepOfAnAugmentedFile, StartsFromModesNamesAndHasNoPointwiseNamesOnTheClosedAxis) {
  const data::LoadResult load = WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 1.7 },\n");
  SweepOptions options;
  options.param = "lateral.Nr";
  options.from = -0.215;
  options.to = -0.6;
  options.steps = 5;
  const TrackedStudy study = Sweep(load.file, options);
  ASSERT_EQ(study.points.size(), 5u);
  const analysis::ModalAnalysis modes = AnalyzeClosedLoop(load.aircraft);
  int lateral = 0;
  for (const TrackedMode& t : study.points[0].modes) {
    if (t.axis != model::Axis::kLateral) continue;
    ++lateral;
    const analysis::Mode* m = nullptr;
    for (const analysis::Mode& c : modes.lateral)
      if (m == nullptr || std::abs(c.lambda - t.lambda) < std::abs(m->lambda - t.lambda)) m = &c;
    ASSERT_NE(m, nullptr);
    EXPECT_LT(std::abs(m->lambda - t.lambda), 1e-10 * std::max(1.0, t.wn)) << t.name;
    EXPECT_EQ(m->full_name(), t.name);
  }
  EXPECT_EQ(lateral, 4);
  for (const TrackedPoint& p : study.points)
    for (const TrackedMode& t : p.modes)
      if (t.axis == model::Axis::kLateral) {
        EXPECT_EQ(t.pointwise_name, "") << p.value << " " << t.name;
      }
}

}  // namespace
}  // namespace aerolin::study
