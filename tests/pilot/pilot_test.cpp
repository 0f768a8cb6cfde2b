#include "aerolin/pilot/pilot.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sim/p2v7_fixture.hpp"

namespace aerolin::pilot {
namespace {

constexpr int kElevator = 0, kThrottle = 1, kAileron = 2, kRudder = 3;

TEST(Pilot, IsTheSeedsNumpadAtTheSeedsSlice) {
  Pilot pilot(test::MakeP2V7().controls, 0.1);
  EXPECT_EQ(pilot.step_per_slice(kElevator), 0.01);
  EXPECT_EQ(pilot.step_per_slice(kThrottle), 1.0);
  EXPECT_EQ(pilot.release_factor_per_slice(), 0.5);
  // The seed's arithmetic, replayed: 8 for 3 slices, 5 for 1, release 2.
  double seed = 0.0;
  for (const KeySet keys : {KeySet{Key::k8}, KeySet{Key::k8}, KeySet{Key::k8},
                            KeySet{Key::k5}, KeySet{}, KeySet{}}) {
    if (keys.Has(Key::k8))
      seed += 0.01;
    else if (keys.Has(Key::k5))
      seed -= 0.01;
    else
      seed *= 0.5;
    EXPECT_EQ(pilot.Update(keys)[kElevator], seed);  // bit for bit
  }
  // P2V-7: L_δa > 0, so 4 (roll left) moves the aileron −; N_δr < 0, so
  // 7 (yaw left) moves the rudder +.
  EXPECT_EQ(pilot.Update({Key::kPlus, Key::k4, Key::k7}),
            (Eigen::Vector4d(seed * 0.5, 1.0, -0.01, 0.01)));
}

TEST(Pilot, RampAndDecayRatesDoNotDependOnSliceLength) {
  // Holding 8 for 1 s then releasing for 0.5 s gives the same elevator at
  // Δt = 0.01 s as at 0.1 s (rounding over 150 operations aside).
  constexpr double kRounding = 1e-14;
  Pilot coarse(test::MakeP2V7().controls, 0.1);
  Pilot fine(test::MakeP2V7().controls, 0.01);
  for (int k = 0; k < 10; ++k) coarse.Update({Key::k8});
  for (int k = 0; k < 100; ++k) fine.Update({Key::k8});
  EXPECT_NEAR(fine.controls()[kElevator], 0.1, kRounding);
  EXPECT_NEAR(coarse.controls()[kElevator], 0.1, kRounding);
  for (int k = 0; k < 5; ++k) coarse.Update({});
  for (int k = 0; k < 50; ++k) fine.Update({});
  EXPECT_NEAR(fine.controls()[kElevator], 0.1 / 32.0, kRounding);
  EXPECT_NEAR(coarse.controls()[kElevator], 0.1 / 32.0, kRounding);
  EXPECT_NEAR(fine.step_per_slice(kThrottle), 0.1, kRounding);
}

// A released control reaches exactly 0 once below 1e-12 of a slice's step,
// and never a subnormal: at Δt < 0.1 s the per-slice factor exceeds 1/2 and
// plain geometric decay would stick at 4.9e-324 for good (the slowdown of
// long scripted runs, sim_bench BM_SliceSubnormalControl).
TEST(Pilot, ReleasedControlReturnsToExactlyZeroWithoutSubnormals) {
  for (double dt : {0.1, 0.02, 0.001}) {
    Pilot pilot(test::MakeP2V7().controls, dt);
    pilot.Update({Key::k8});
    const double step = pilot.step_per_slice(kElevator);
    double plain = step;  // the decay without the flush, for comparison
    bool reached_zero = false;
    for (int k = 0; k < 2'000'000 && !reached_zero; ++k) {
      const double v = pilot.Update({})[kElevator];
      plain *= pilot.release_factor_per_slice();
      ASSERT_NE(std::fpclassify(v), FP_SUBNORMAL) << "dt " << dt << " slice " << k;
      if (v == 0.0) {
        reached_zero = true;
        EXPECT_LT(std::abs(plain), 1e-12 * step) << "dt " << dt;
        EXPECT_GE(std::abs(plain / pilot.release_factor_per_slice()), 1e-12 * step) << "dt " << dt;
      } else {
        EXPECT_EQ(v, plain) << "dt " << dt << " slice " << k;  // unchanged above the threshold
      }
    }
    EXPECT_TRUE(reached_zero) << "dt " << dt;
    EXPECT_EQ(pilot.Update({})[kElevator], 0.0);
  }
  // Without the flush the decay does stick in the subnormal range at Δt = 0.02 s.
  double v = 0.002;
  const double factor = std::pow(0.5, 0.2);
  for (int k = 0; k < 20000; ++k) v *= factor;
  EXPECT_EQ(std::fpclassify(v), FP_SUBNORMAL);
}

TEST(Pilot, FirstKeyWinsWhenBothAreHeld) {
  Pilot pilot(test::MakeP2V7().controls, 0.1);
  // 9 (yaw right) with N_δr = −0.666 < 0: rudder −.
  EXPECT_EQ(pilot.Update({Key::k9, Key::k7})[kRudder], -0.01);
}

TEST(Pilot, FirstKeySenseFollowsTheDominantDerivative) {
  // The table of FirstKeySense, each sign of each dominant derivative, with
  // the other derivatives of the opposite sign (they must not matter).
  auto control = [](const char* name, double X, double M, double L, double N) {
    model::Control c;
    c.name = name;
    c.X = X, c.M = M, c.L = L, c.N = N;
    return c;
  };
  EXPECT_EQ(FirstKeySense(control("elevator", 1, -2.5, 0, 0)), 1.0);   // M < 0: 8 is +
  EXPECT_EQ(FirstKeySense(control("elevator", -1, 2.5, 0, 0)), -1.0);
  EXPECT_EQ(FirstKeySense(control("throttle", 0.01, -1, 0, 0)), 1.0);  // X > 0: + is +
  EXPECT_EQ(FirstKeySense(control("throttle", -0.01, 1, 0, 0)), -1.0);
  EXPECT_EQ(FirstKeySense(control("aileron", 0, 0, 1.72, -0.04)), -1.0);  // P2V-7: 4 is −
  EXPECT_EQ(FirstKeySense(control("aileron", 0, 0, -3.5, 0.05)), 1.0);    // 747: 4 is +
  EXPECT_EQ(FirstKeySense(control("rudder", 0, 0, 0.2, -0.666)), -1.0);  // 9 is −
  EXPECT_EQ(FirstKeySense(control("rudder", 0, 0, -0.2, 0.666)), 1.0);
  // No dominant derivative, or not key-bound: +1.
  EXPECT_EQ(FirstKeySense(control("aileron", 0, 0, 0, -1)), 1.0);
  EXPECT_EQ(FirstKeySense(control("spoiler", 0, 0, 5, 5)), 1.0);
}

TEST(Pilot, ClampsToDataFileOrDefaultLimits) {
  std::vector<model::Control> controls = test::MakeP2V7().controls;
  controls[kElevator].max = 0.035;
  Pilot pilot(controls, 0.1);
  // 6 (roll right) moves the P2V-7's aileron + (L_δa > 0).
  for (int k = 0; k < 10; ++k) pilot.Update({Key::k8, Key::k6, Key::kMinus});
  EXPECT_EQ(pilot.controls()[kElevator], 0.035);
  EXPECT_NEAR(pilot.controls()[kAileron], 0.1, 1e-15);  // not yet at +0.5
  for (int k = 0; k < 200; ++k) pilot.Update({Key::k6, Key::kMinus});
  EXPECT_EQ(pilot.controls()[kAileron], 0.5);      // default ±0.5 rad
  EXPECT_EQ(pilot.controls()[kThrottle], -100.0);  // default ±100
}

TEST(Pilot, OverrideHoldsItsValueThenRestartsFromZero) {
  Pilot pilot(test::MakeP2V7().controls, 0.1);
  const ControlOverride set[] = {{kElevator, 0.03}};
  for (int k = 0; k < 3; ++k)
    EXPECT_EQ(pilot.Update({Key::k5}, set)[kElevator], 0.03);  // keys ignored
  EXPECT_EQ(pilot.Update({})[kElevator], 0.0);
  EXPECT_EQ(pilot.Update(KeySet{}, set)[kElevator], 0.03);
  EXPECT_EQ(pilot.Update({Key::k8})[kElevator], 0.01);
}

TEST(Pilot, ControlsWithOtherNamesAreNotKeyBound) {
  std::vector<model::Control> controls = test::MakeP2V7().controls;
  controls[kAileron].name = "spoiler";
  Pilot pilot(controls, 0.1);
  EXPECT_FALSE(pilot.plus_key(kAileron));
  EXPECT_FALSE(pilot.first_key(kAileron));
  EXPECT_EQ(pilot.first_key(kRudder), Key::k9);
  EXPECT_EQ(pilot.plus_key(kRudder), Key::k7);  // N_δr < 0: 7 moves it +
  EXPECT_EQ(pilot.Update({Key::k4})[kAileron], 0.0);
}

TEST(Pilot, ParsesAndNamesKeys) {
  for (int i = 0; i < kNumKeys; ++i) {
    const Key key = static_cast<Key>(i);
    EXPECT_EQ(ParseKey(KeyText(key)), key);
  }
  EXPECT_FALSE(ParseKey("3"));
  EXPECT_EQ(KeyControlName(Key::kMinus), "throttle");
  EXPECT_EQ(KeyControlName(Key::k7), "rudder");
  EXPECT_EQ(KeyEffect(Key::k4), "roll left");
  EXPECT_EQ(KeyEffect(Key::k9), "yaw right");
  EXPECT_EQ(KeyEffect(Key::k8), "nose down");
  EXPECT_EQ(KeyEffect(Key::kMinus), "less thrust");
}

}  // namespace
}  // namespace aerolin::pilot
