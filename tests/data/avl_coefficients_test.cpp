#include "aerolin/data/avl_coefficients.hpp"

#include <gtest/gtest.h>

#include <string>

#include "aerolin/core/error.hpp"

namespace aerolin::data {
namespace {

constexpr double kTight = 1e-12;
constexpr double kPerDegToPerRad = 57.29577951308232;  // 180/π, typed

AvlStability Bundled(const std::string& name) {
  return ReadAvlStabilityFile(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/" + name);
}

// AVL's b737 example (geometry in feet) into SI: numbers typed from the file,
// the conversions by hand.
TEST(AvlToCoefficients, ClassicFileByHand) {
  const AvlCoefficients result = ToCoefficients(Bundled("b737_classic.st"), 0.3048);
  const model::CoefficientsAsWritten& k = result.coefficients;
  EXPECT_EQ(k.family, model::LongitudinalFamily::kLiftDrag);
  EXPECT_EQ(k.name, "Boeing 737-800");
  EXPECT_NEAR(k.S, 1260.0 * 0.09290304, kTight);  // ft² → m²
  EXPECT_NEAR(k.c, 11.0 * 0.3048, kTight);
  EXPECT_NEAR(k.b, 113.0 * 0.3048, kTight);
  ASSERT_TRUE(k.alpha0);
  EXPECT_NEAR(*k.alpha0, 1.91840 / kPerDegToPerRad, kTight);
  ASSERT_TRUE(k.CL0);
  EXPECT_DOUBLE_EQ(*k.CL0, 0.54444);
  EXPECT_DOUBLE_EQ(k.CD0, 0.01053);
  EXPECT_DOUBLE_EQ(k.CLu, 0.0);
  EXPECT_DOUBLE_EQ(k.CDu, 0.0);
  EXPECT_DOUBLE_EQ(k.Cmu, 0.0);
  EXPECT_DOUBLE_EQ(k.CLadot, 0.0);
  EXPECT_DOUBLE_EQ(k.Cmadot, 0.0);
  EXPECT_DOUBLE_EQ(k.CLa, 7.299206);
  EXPECT_NEAR(k.CDa, 0.282318015, 1e-9);  // 2 · 0.0105289 · 7.299206 / 0.54444
  EXPECT_DOUBLE_EQ(k.CDq, 0.0);
  EXPECT_DOUBLE_EQ(k.CLq, 22.200703);
  EXPECT_DOUBLE_EQ(k.Cma, -1.884644);
  EXPECT_DOUBLE_EQ(k.Cmq, -84.906515);
  EXPECT_DOUBLE_EQ(k.CYb, -1.326015);
  EXPECT_DOUBLE_EQ(k.Clp, -0.570732);
  EXPECT_DOUBLE_EQ(k.Cnb, 0.244427);
  EXPECT_DOUBLE_EQ(k.Cnr, -0.491477);
  ASSERT_EQ(k.controls.size(), 5u);
  EXPECT_EQ(k.controls[3].name, "elevator");
  EXPECT_NEAR(*k.controls[3].CL, 0.015022 * kPerDegToPerRad, kTight);
  EXPECT_NEAR(*k.controls[3].Cm, -0.071575 * kPerDegToPerRad, kTight);
  EXPECT_NEAR(*k.controls[3].CD, 0.000542 * kPerDegToPerRad, kTight);  // Trefftz CDffd
  EXPECT_NEAR(*k.controls[4].Cn, 0.004367 * kPerDegToPerRad, kTight);
  EXPECT_EQ(k.controls[3].unit, core::Unit::kRadian);
  ASSERT_EQ(result.notes.size(), 8u);  // quasi-steady, CDa, CDq, five controls' CDff
  EXPECT_EQ(result.notes[1],
            "the file prints no CDa: CDa = 2 CDind CLa / CL = 0.2823, the parabolic-polar "
            "estimate (induced drag only)");
}

// The parabolic-polar estimate of the classic file against the CDa that
// AVL 3.52 computes for the same example: within 1 %.
TEST(AvlToCoefficients, ParabolicPolarEstimateMatchesAvlsOwnCDa) {
  const model::CoefficientsAsWritten classic =
      ToCoefficients(Bundled("b737_classic.st"), 1.0).coefficients;
  const AvlCoefficients machine_result = ToCoefficients(Bundled("b737_machine.st"), 1.0);
  const model::CoefficientsAsWritten& machine = machine_result.coefficients;
  EXPECT_DOUBLE_EQ(machine.CDa, 2.805855404724963E-01);  // printed
  EXPECT_NEAR(classic.CDa, machine.CDa, 0.01 * machine.CDa);
  EXPECT_DOUBLE_EQ(machine.CDq, 7.405797756094779E-01);
  EXPECT_NEAR(*machine.controls[3].CD, 5.584711475871017E-04 * kPerDegToPerRad, kTight);
  EXPECT_EQ(machine_result.notes.size(), 1u);  // only the quasi-steady one
}

TEST(AvlToCoefficients, BadLengthUnitAndNonLiftingCaseAreErrors) {
  AvlStability st = Bundled("b737_classic.st");
  st.path = "b737.st";
  try {
    ToCoefficients(st, 0.0);
    ADD_FAILURE();
  } catch (const core::DataError& e) {
    EXPECT_STREQ(e.what(), "b737.st:0: avl_length_unit = 0 must be > 0 (AVL's Lunit in the data "
                           "file's length unit, e.g. 0.3048 for feet into SI)");
  }
  st.CLtot = 0.0;
  try {
    ToCoefficients(st, 1.0);
    ADD_FAILURE();
  } catch (const core::DataError& e) {
    EXPECT_STREQ(e.what(), "b737.st:24: CLtot = 0 must be > 0: aerolin takes AVL's run case as "
                           "a trimmed flight condition with C_W0 = CLtot");
  }
}

}  // namespace
}  // namespace aerolin::data
