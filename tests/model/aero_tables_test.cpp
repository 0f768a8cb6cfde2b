#include "aerolin/model/aero_tables.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace aerolin::model {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
// Linear interpolation of short decimals: exact to a few ulps.
constexpr double kRounding = 1e-15;

// C_m(α, δe) over α = −10, 0, 10 deg (columns) and δe = −20, 20 deg (rows).
CoefficientTable TwoByThree() {
  CoefficientTable t;
  t.coefficient = TableCoefficient::kCm;
  t.second = TableVariable::kControl;
  t.control = 0;
  t.second_name = "elevator";
  t.alpha = {-10 * kDeg, 0.0, 10 * kDeg};
  t.other = {-20 * kDeg, 20 * kDeg};
  t.values = {0.2, 0.1, -0.1,    // δe = −20°
              -0.2, -0.3, -0.5};  // δe = +20°
  return t;
}

TEST(InterpolateClamped, IsLinearBetweenBreakpointsAndHeldOutside) {
  const std::vector<double> x = {0.0, 1.0, 3.0}, y = {1.0, 3.0, -1.0};
  EXPECT_DOUBLE_EQ(InterpolateClamped(x, y, 0.5), 2.0);
  EXPECT_DOUBLE_EQ(InterpolateClamped(x, y, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(InterpolateClamped(x, y, 3.0), -1.0);   // the last breakpoint
  EXPECT_DOUBLE_EQ(InterpolateClamped(x, y, -5.0), 1.0);   // held below
  EXPECT_DOUBLE_EQ(InterpolateClamped(x, y, 10.0), -1.0);  // held above
  EXPECT_DOUBLE_EQ(InterpolateClamped(x, y, std::nan("")), 1.0);
}

TEST(CoefficientTable, InterpolatesBilinearlyInRowsOfTheSecondVariable) {
  const CoefficientTable t = TwoByThree();
  EXPECT_NEAR(t.At(0.0, -20 * kDeg), 0.1, kRounding);   // a breakpoint of each
  EXPECT_NEAR(t.At(10 * kDeg, 20 * kDeg), -0.5, kRounding);
  // α = 5°: halfway along each row (0.0 and −0.4); δe = 10°: 3/4 of the way.
  EXPECT_NEAR(t.At(5 * kDeg, 10 * kDeg), 0.0 + 0.75 * (-0.4 - 0.0), kRounding);
  // Outside: each variable held at its edge.
  EXPECT_NEAR(t.At(30 * kDeg, 40 * kDeg), -0.5, kRounding);
  EXPECT_NEAR(t.At(-30 * kDeg, 0.0), 0.0, kRounding);
}

TEST(CoefficientTable, OneDimensionalTableIgnoresTheSecondValue) {
  CoefficientTable t;
  t.coefficient = TableCoefficient::kCZ;
  t.alpha = {0.0, 0.2};
  t.values = {-0.1, -1.1};
  EXPECT_NEAR(t.At(0.1, 123.0), -0.6, kRounding);
}

TEST(TableCoefficient, NamesRoundTripAndCaseMatters) {
  for (std::string_view name : TableCoefficientNames())
    EXPECT_EQ(ToString(*TableCoefficientNamed(name)), name);
  EXPECT_FALSE(TableCoefficientNamed("cz").has_value());
  EXPECT_FALSE(TableCoefficientNamed("CL").has_value());
  EXPECT_TRUE(IsStatic(TableCoefficient::kCm));
  EXPECT_FALSE(IsStatic(TableCoefficient::kCmq));
}

TEST(TableExcursions, NameTheTableTheVariableAndItsRange) {
  AeroTables tables;
  tables.reference_controls = {0.0};
  tables.tables.push_back(TwoByThree());
  EXPECT_TRUE(TableExcursions(tables, 5 * kDeg, 0.0, {0.0}).empty());
  const std::vector<TableExcursion> e = TableExcursions(tables, 47 * kDeg, 0.0, {25 * kDeg});
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].ToString(), "alpha = 47 deg is past Cm's table, -10..10 deg (held at its edge value)");
  EXPECT_EQ(e[1].ToString(), "elevator = 25 deg is past Cm's table, -20..20 deg (held at its edge value)");
  // Tables of the same range: one excursion naming each.
  CoefficientTable cx = TwoByThree();
  cx.coefficient = TableCoefficient::kCX;
  tables.tables.insert(tables.tables.begin(), cx);
  const std::vector<TableExcursion> both = TableExcursions(tables, 47 * kDeg, 0.0, {0.0});
  ASSERT_EQ(both.size(), 1u);
  EXPECT_EQ(both[0].ToString(),
            "alpha = 47 deg is past the tables CX, Cm, -10..10 deg (held at their edge values)");
}

}  // namespace
}  // namespace aerolin::model
