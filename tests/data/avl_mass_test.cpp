#include "aerolin/data/avl_mass.hpp"

#include <gtest/gtest.h>

#include <string>

#include "aerolin/core/error.hpp"
#include "data/loader_test_support.hpp"

namespace aerolin::data {
namespace {

std::string ErrorOf(const std::string& text) {
  return test_support::DataErrorOf([&] { ParseAvlMass(text, "t.mass"); });
}

// The oracle is AVL itself: its run file for this example (AVLWrapper's
// b737.run, written by AVL from this mass file) prints mass = 77146.0 kg,
// X_cg = 65.2686, Z_cg = 1.16559 Lunit, Ixx = 706684., Iyy = 0.270824E+07,
// Izz = 0.330763E+07 kg-m^2 and Izx = 26994.4 kg-m^2, the tensor entry −Ixz;
// and the machine-format ST file of the same run has Xref = X_cg to 16
// digits.
TEST(AvlMass, B737TotalsEqualAvlsOwnPrint) {
  const AvlMass m = ReadAvlMassFile(std::string(AEROLIN_SOURCE_DIR) + "/data/avl/b737.mass");
  EXPECT_EQ(m.length_unit_name, "m");
  EXPECT_DOUBLE_EQ(m.length_unit, 0.3048);
  EXPECT_EQ(m.mass_unit_name, "kg");
  EXPECT_DOUBLE_EQ(m.mass_unit, 0.4535);
  EXPECT_EQ(m.time_unit_name, "s");
  EXPECT_DOUBLE_EQ(*m.g, 9.81);
  EXPECT_DOUBLE_EQ(*m.rho, 0.38);
  EXPECT_EQ(m.g_line, 18);
  EXPECT_EQ(m.rho_line, 19);
  EXPECT_EQ(m.items, 11);
  EXPECT_NEAR(m.mass, 77146.0, 0.05);
  EXPECT_NEAR(m.x_cg / 0.3048, 6.526859063854802E+01, 1e-9);
  EXPECT_NEAR(m.y_cg, 0.0, 1e-12);
  EXPECT_NEAR(m.z_cg / 0.3048, 1.165588948489970E+00, 1e-9);
  EXPECT_NEAR(m.Ixx, 706684.0, 0.5);
  EXPECT_NEAR(m.Iyy, 0.270824E+07, 5.0);
  EXPECT_NEAR(m.Izz, 0.330763E+07, 5.0);
  // AVL sums in single precision: m x_cg z_cg ≈ 1.3e7 Munit·Lunit² = 5.4e5 kg·m²
  // cancels to 2.7e4, so float's 6e-8 leaves ≈ 0.03 kg·m², plus the print's
  // last digit 0.05.
  EXPECT_NEAR(-m.Ixz, 26994.4, 0.1);
  const AvlMassBodyAxes b = ToBodyAxes(m);
  EXPECT_DOUBLE_EQ(b.m, m.mass);
  EXPECT_DOUBLE_EQ(b.Ix, m.Ixx);
  EXPECT_DOUBLE_EQ(b.Iz, m.Izz);
  EXPECT_DOUBLE_EQ(b.Ixz, m.Ixz);  // ∫xz dm: x and z both flip
  EXPECT_DOUBLE_EQ(b.x_cg, -m.x_cg);
  EXPECT_DOUBLE_EQ(b.z_cg, -m.z_cg);
}

// Two point masses by hand: m = 1 at (x, z) = (1, 1) and (-1, -1) give
// Ixz = Σ m x z = 2, Iyy = Σ m (x² + z²) = 4; a '*' line scales what follows.
TEST(AvlMass, ParallelAxisByHand) {
  AvlMass m = ParseAvlMass("Lunit = 1 m\nMunit = 1 kg\n1 1 0 1\n1 -1 0 -1 ! comment\n", "t.mass");
  EXPECT_DOUBLE_EQ(m.mass, 2.0);
  EXPECT_DOUBLE_EQ(m.Ixz, 2.0);
  EXPECT_DOUBLE_EQ(m.Iyy, 4.0);
  EXPECT_DOUBLE_EQ(m.Ixx, 2.0);
  m = ParseAvlMass("* 2 1 1 1 10\n1 0 0 0 3\n", "t.mass");
  EXPECT_DOUBLE_EQ(m.mass, 2.0);
  EXPECT_DOUBLE_EQ(m.Ixx, 30.0);
}

TEST(AvlMass, MalformedLinesAreLocated) {
  EXPECT_EQ(ErrorOf("Lunit = 1 m\n1 2 x 4\n"),
            "t.mass:2: 'x' is not a number (an AVL mass line is: mass x y z Ixx Iyy Izz [Ixy "
            "Ixz Iyz])");
  EXPECT_EQ(ErrorOf("1 2 3 4 5 6 7 8 9 10 11\n"),
            "t.mass:1: more than 10 values (mass x y z Ixx Iyy Izz Ixy Ixz Iyz)");
  EXPECT_EQ(ErrorOf("Lunit = foot\n1 0 0 0\n"), "t.mass:1: 'Lunit =' needs a number");
  EXPECT_EQ(ErrorOf("Wunit = 1 N\n1 0 0 0\n"),
            "t.mass:1: unknown keyword 'Wunit' (AVL's mass file knows Lunit, Munit, Tunit, g, "
            "rho)");
  EXPECT_EQ(ErrorOf("# nothing\n"), "t.mass:1: no mass lines (mass x y z Ixx Iyy Izz ...)");
}

// A row of 1e308 overflowed the totals with no line to show (and the load
// failed in the model's "Priming: Ixz² >= Ix·Iz"): named at its row, once.
TEST(AvlMass, TotalsBeyondThePhysicalRangeAreLocatedAtTheirRow) {
  const std::string beyond =
      "this item takes the totals beyond 1e+100 (the sums of mass, mass x distance and "
      "inertia): a value far outside the physical range (check the numbers, the '*' scale "
      "factors and Lunit, Munit)";
  EXPECT_EQ(ErrorOf("Lunit = 1 m\n1 2 0 0\n1e308 58 0 -1\n1 0 0 0\n"), "t.mass:3: " + beyond);
  EXPECT_EQ(ErrorOf("1 0 0 0 1e308 1 1\n"), "t.mass:1: " + beyond);          // an inertia
  EXPECT_EQ(ErrorOf("1e60 1e30 0 0\n"), "t.mass:1: " + beyond);             // m x² = 1e120
  EXPECT_EQ(ErrorOf("* 1e300\n1e10 0 0 0\n"), "t.mass:2: " + beyond);       // by a scale factor
  EXPECT_EQ(ErrorOf("Lunit = 1e90 m\n1 1e20 0 0\n"),
            "t.mass:1: Lunit = 1e+90, Munit = 1 take the totals beyond 1e+100 in SI units: check "
            "the units' values");
  EXPECT_NO_THROW(ParseAvlMass("1e40 1e30 0 0 1e99\n", "t.mass"));  // at the bound: 1e100
}

}  // namespace
}  // namespace aerolin::data
