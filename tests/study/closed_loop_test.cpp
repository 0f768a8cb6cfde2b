#include "aerolin/study/closed_loop.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/LU>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/flight_setup.hpp"
#include "aerolin/study/loops.hpp"
#include "aerolin/study/tracked.hpp"
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

// The flight carries the filter state (sim::FlightModel): Prepare flies
// the file, but a start on a mode of the washed-out axis would need the
// filter's state too and is refused, saying so.
TEST(AnalyzeClosedLoop, TheFlightIsPreparedWithAWashoutFilterButNotStartedOnItsAxissMode) {
  const model::AircraftData a =
      WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 0.5, washout_s = 1.5 },\n").aircraft;
  const PreparedFlight flight = Prepare(a, AnalyzeClosedLoop(a), FlightSpec{});
  EXPECT_EQ(flight.model().num_washout_filters(), 1);
  FlightSpec dutch;
  dutch.excite = analysis::ModeKind::kDutchRoll;
  try {
    (void)Prepare(a, AnalyzeClosedLoop(a), dutch);
    FAIL() << "no exception";
  } catch (const FlightSpecError& e) {
    EXPECT_EQ(e.field(), "excite");
    EXPECT_STREQ(e.what(), ("a start on a lateral mode of " + a.name +
                            ", whose augmentation closes a loop through a washout filter, is not flown yet (the "
                            "start would need the filter's state too): start from trim or x0, or fly the bare "
                            "airframe").c_str());
  }
  FlightSpec phugoid;  // the other axis has no filter
  phugoid.excite = analysis::ModeKind::kPhugoid;
  EXPECT_NO_THROW((void)Prepare(a, AnalyzeClosedLoop(a), phugoid));
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

TEST(AnalyzeClosedLoop, WithoutWashoutIsAnalyzeModes) {
  const model::AircraftData a =
      WithLateralLoops("  { input = \"rudder\", output = \"r\", gain = 1.7 },\n").aircraft;
  const analysis::ModalAnalysis closed = AnalyzeClosedLoop(a), plain = analysis::AnalyzeModes(a);
  EXPECT_EQ(closed.lateral_model.A(), plain.lateral_model.A());
  ASSERT_EQ(closed.lateral.size(), plain.lateral.size());
  for (std::size_t k = 0; k < closed.lateral.size(); ++k) EXPECT_EQ(closed.lateral[k].lambda, plain.lateral[k].lambda);
  EXPECT_TRUE(closed.filters.empty());
}

}  // namespace
}  // namespace aerolin::study
