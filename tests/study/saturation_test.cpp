#include "aerolin/study/saturation.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/loops.hpp"

namespace aerolin::study {
namespace {

// The commands below are sums of a few products of doubles; the oracle
// forms them in another order (K·x over every sign combination).
constexpr double kRoundOff = 1e-14;

model::AircraftData P2v7() {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
}

AugmentResult Design(const model::AircraftData& a, model::Axis axis) {
  AugmentSpec spec;
  spec.axis = axis;
  spec.method = DesignMethod::kLqr;
  return Augment(a, spec);
}

std::vector<AugmentResult> Loops(const model::AircraftData& a, const std::vector<std::string>& loops) {
  AugmentSpec spec;
  spec.method = DesignMethod::kLoops;
  for (const std::string& l : loops) spec.loops.push_back(ParseLoop(l));
  return AugmentAxes(a, LoopDesignsByAxis(a, spec));
}

// The oracle: the largest |(K x)_i| over every sign combination of the
// stated components (state index, magnitude), x zero elsewhere.
double WorstOverSigns(const Eigen::MatrixXd& K, Eigen::Index row, const std::vector<std::pair<int, double>>& stated) {
  double worst = 0.0;
  for (unsigned mask = 0; mask < (1u << stated.size()); ++mask) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(K.cols());
    for (std::size_t k = 0; k < stated.size(); ++k)
      x(stated[k].first) = ((mask >> k) & 1u ? -1.0 : 1.0) * stated[k].second;
    worst = std::max(worst, std::abs(K.row(row).dot(x)));
  }
  return worst;
}

std::string Message(const std::string& text, const std::vector<AugmentResult>& designs) {
  try {
    ParseDisturbance(text, designs);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(CheckSaturation, CommandIsTheWorstSignCombinationOfTheStatedComponents) {
  const model::AircraftData a = P2v7();
  const double deg = core::kDegToRad;
  {
    const AugmentResult lat = Design(a, model::Axis::kLateral);  // aileron and rudder
    const SaturationCheck check =
        CheckSaturation(lat, ParseDisturbance("beta=5deg,r=2deg/s,p=3deg/s", {lat}), model::CommandPath{});
    ASSERT_EQ(check.inputs.size(), 2u);
    EXPECT_EQ(check.disturbance.size(), 3u);
    for (Eigen::Index i = 0; i < 2; ++i) {
      const double oracle = WorstOverSigns(lat.gain, i, {{0, 5 * deg}, {2, 2 * deg}, {1, 3 * deg}});
      EXPECT_GT(oracle, 0.0);
      EXPECT_NEAR(check.inputs[static_cast<std::size_t>(i)].command, oracle, kRoundOff * oracle);
      EXPECT_EQ(check.inputs[static_cast<std::size_t>(i)].input.name, lat.inputs[static_cast<std::size_t>(i)].name);
      EXPECT_FALSE(check.inputs[static_cast<std::size_t>(i)].limit);
      EXPECT_FALSE(check.inputs[static_cast<std::size_t>(i)].saturates);
    }
  }
  {
    const AugmentResult lon = Design(a, model::Axis::kLongitudinal);  // elevator
    const SaturationCheck check =
        CheckSaturation(lon, ParseDisturbance("alpha=2deg,q=5deg/s,u=10ft/s", {lon}), model::CommandPath{});
    const double oracle = WorstOverSigns(lon.gain, 0, {{1, 2 * deg}, {2, 5 * deg}, {0, 3.048}});
    EXPECT_NEAR(check.inputs.at(0).command, oracle, kRoundOff * oracle);
  }
}

TEST(CheckSaturation, SaturatesIffTheCommandExceedsTheStop) {
  const AugmentResult lat = Design(P2v7(), model::Axis::kLateral);
  const std::vector<DisturbanceComponent> d = ParseDisturbance("beta=5deg,r=2deg/s", {lat});
  const double rudder = CheckSaturation(lat, d, model::CommandPath{}).inputs.at(1).command;
  ASSERT_EQ(lat.inputs.at(1).name, "rudder");
  for (const double factor : {0.9, 1.1}) {
    SCOPED_TRACE(factor);
    model::CommandPath path;
    path.actuators["rudder"] = model::Actuator{0.05, factor * rudder, std::nullopt};
    path.actuators["elevator"] = model::Actuator{0.05, 1e-6, std::nullopt};  // not a designed input
    const SaturationCheck check = CheckSaturation(lat, d, path);
    const InputCommand& r = check.inputs.at(1);
    ASSERT_TRUE(r.limit);
    EXPECT_EQ(*r.limit, factor * rudder);
    EXPECT_NEAR(*r.ratio, 1.0 / factor, 1e-15);
    EXPECT_EQ(r.saturates, factor < 1.0);
    // The aileron has no actuator: not checked, never "saturates".
    EXPECT_FALSE(check.inputs.at(0).limit);
    EXPECT_FALSE(check.inputs.at(0).ratio);
    EXPECT_FALSE(check.inputs.at(0).saturates);
  }
  // A rate limit alone is no position stop.
  model::CommandPath rate_only;
  rate_only.actuators["rudder"] = model::Actuator{0.05, std::nullopt, 1e-6};
  EXPECT_FALSE(CheckSaturation(lat, d, rate_only).inputs.at(1).limit);
}

TEST(ParseDisturbance, DegreesAndRadiansGiveTheSameCommand) {
  const AugmentResult lat = Design(P2v7(), model::Axis::kLateral);
  const auto command = [&](const std::string& text) {
    return CheckSaturation(lat, ParseDisturbance(text, {lat}), model::CommandPath{}).inputs.at(1).command;
  };
  // 5 deg = 0.0872664626 rad and 2 deg/s = 0.0349065850 rad/s, typed to 6-7 digits.
  EXPECT_NEAR(command("beta=5deg,r=2deg/s"), command("beta=0.0872665,r=0.034906585rad/s"),
              1e-6 * command("beta=5deg,r=2deg/s"));
  EXPECT_DOUBLE_EQ(ParseDisturbance("beta=5deg", {lat}).at(0).value, 5 * core::kDegToRad);
  EXPECT_DOUBLE_EQ(ParseDisturbance("beta=0.0872665", {lat}).at(0).value, 0.0872665);
  // The dictionary form reads the same.
  EXPECT_EQ(ParseDisturbance({{"beta", "5deg"}, {"r", "2deg/s"}}, {lat}).at(1).value,
            ParseDisturbance("beta=5deg,r=2deg/s", {lat}).at(1).value);
}

TEST(CheckSaturation, AWashedOutLoopCommandsItsFullGainAtTheOnset) {
  // δr = 1.7 (r − r_w) with r_w = 0 at the onset: |δr| = 1.7 |r|.
  const std::vector<AugmentResult> d = Loops(P2v7(), {"rudder:r=1.7,washout=1.5"});
  ASSERT_EQ(d.size(), 1u);
  ASSERT_EQ(d[0].filter_states, 1);
  const SaturationCheck check = CheckSaturation(d[0], ParseDisturbance("r=2deg/s", d), model::CommandPath{});
  EXPECT_NEAR(check.inputs.at(0).command, 1.7 * 2 * core::kDegToRad, kRoundOff);
  EXPECT_EQ(Message("r_washout=1deg/s", d),
            "'r_washout' is a washout filter's state, 0 at the disturbance's onset: state the output it filters");
}

TEST(CheckSaturation, EachAxisTakesItsOwnComponents) {
  const std::vector<AugmentResult> d = Loops(P2v7(), {"elevator:q=0.5", "rudder:r=0.5,washout=1.5"});
  ASSERT_EQ(d.size(), 2u);
  const std::vector<DisturbanceComponent> stated = ParseDisturbance("q=5deg/s,r=2deg/s,alpha=0", d);
  const SaturationCheck lon = CheckSaturation(d[0], stated, model::CommandPath{});
  const SaturationCheck lat = CheckSaturation(d[1], stated, model::CommandPath{});
  EXPECT_NEAR(lon.inputs.at(0).command, 0.5 * 5 * core::kDegToRad, kRoundOff);
  EXPECT_NEAR(lat.inputs.at(0).command, 0.5 * 2 * core::kDegToRad, kRoundOff);
  ASSERT_EQ(lon.disturbance.size(), 2u);
  EXPECT_EQ(lon.disturbance[0].name, "q");
  EXPECT_EQ(lon.disturbance[1].name, "alpha");
  ASSERT_EQ(lat.disturbance.size(), 1u);
  EXPECT_EQ(lat.disturbance[0].name, "r");
}

TEST(ParseDisturbance, NamesWhatIsWrong) {
  const model::AircraftData a = P2v7();
  const std::vector<AugmentResult> lat = {Design(a, model::Axis::kLateral)};
  EXPECT_EQ(Message("gamma=1deg", lat), "no state 'gamma' on the designed axis (lateral: beta, p, r, phi, psi)");
  EXPECT_EQ(Message("alpha=2deg", lat),
            "'alpha' is a state of the longitudinal axis, which this run does not design (designed: lateral: beta, "
            "p, r, phi, psi)");
  EXPECT_EQ(Message("beta=5parsecs", lat), "'5parsecs' is not a value of beta (a number in rad, or followed by rad, deg)");
  EXPECT_EQ(Message("r=2deg", lat), "'2deg' is not a value of r (a number in rad/s, or followed by rad/s, deg/s)");
  EXPECT_EQ(Message("beta=inf", lat), "beta=inf: the value must be a finite number");
  EXPECT_EQ(Message("beta=nan", lat), "beta=nan: the value must be a finite number");
  EXPECT_EQ(Message("beta=1e999deg", lat), "beta=1e999deg: the value must be a finite number");
  EXPECT_EQ(Message("beta=-5deg", lat),
            "beta=-5deg: a disturbance states magnitudes (the command is taken at the worst signs): give a value >= 0");
  EXPECT_EQ(Message("beta=5deg,beta=1deg", lat), "'beta' is stated twice: state each component once");
  EXPECT_EQ(Message("beta", lat), "expected NAME=VALUE (e.g. beta=5deg), got 'beta'");
  EXPECT_EQ(Message("beta=5deg,", lat), "expected NAME=VALUE (e.g. beta=5deg), got ''");
  try {
    ParseDisturbance(std::vector<std::pair<std::string, std::string>>{}, lat);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no components: give NAME=VALUE pairs, e.g. beta=5deg,r=2deg/s");
  }
  EXPECT_THROW(CheckSaturation(lat[0], {{"beta", -1.0}}, model::CommandPath{}), std::invalid_argument);
  EXPECT_THROW(CheckSaturation(lat[0], {{"beta", NAN}}, model::CommandPath{}), std::invalid_argument);
  // A finite value whose command overflows: refused, not printed as "inf deg".
  try {
    CheckSaturation(lat[0], ParseDisturbance("r=1e308deg/s", lat), model::CommandPath{});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "at this disturbance the command of rudder overflows (not a finite number): state a smaller "
                 "disturbance");
  }
  // Echoed text is clipped (core::Printable), as every message's.
  const std::string long_name(200, 'x');
  for (const std::string& text : {long_name + "=1", "beta=" + long_name}) {
    const std::string echoed = Message(text, lat);
    EXPECT_LT(echoed.size(), 150u) << echoed;
    EXPECT_NE(echoed.find("…"), std::string::npos) << echoed;
  }
}

}  // namespace
}  // namespace aerolin::study
