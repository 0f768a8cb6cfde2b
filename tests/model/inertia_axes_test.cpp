#include "aerolin/model/inertia_axes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "aerolin/core/units.hpp"

namespace aerolin::model {
namespace {

MassProperties Body() {
  MassProperties m;
  m.m = 1000.0;
  m.Ix = 1.2e4;
  m.Iy = 3.0e4;
  m.Iz = 4.0e4;
  m.Ixz = 1.5e3;
  return m;
}

TEST(RotateInertias, NinetyDegreesSwapsIxIzAndFlipsIxz) {
  // ε = 90°: x' = z, z' = −x, so Ix' = ∫(y² + x²) = Iz, Iz' = Ix, Ixz' = ∫z(−x) = −Ixz.
  const MassProperties r = RotateInertias(Body(), core::kPi / 2);
  EXPECT_NEAR(*r.Ix, 4.0e4, 1e-9);
  EXPECT_NEAR(*r.Iz, 1.2e4, 1e-9);
  EXPECT_NEAR(*r.Ixz, -1.5e3, 1e-9);
  EXPECT_EQ(*r.Iy, 3.0e4);
  EXPECT_EQ(*r.m, 1000.0);
}

TEST(RotateInertias, KeepsTraceAndDeterminantOfTheXzBlock) {
  const MassProperties b = Body();
  for (double deg : {-20.0, 3.0, 11.2, 45.0, 130.0}) {
    SCOPED_TRACE(deg);
    const MassProperties r = RotateInertias(b, deg * core::kDegToRad);
    EXPECT_NEAR(*r.Ix + *r.Iz, *b.Ix + *b.Iz, 1e-9);
    const double det_b = *b.Ix * *b.Iz - *b.Ixz * *b.Ixz;
    EXPECT_NEAR(*r.Ix * *r.Iz - *r.Ixz * *r.Ixz, det_b, 1e-9 * det_b);
  }
}

TEST(RotateInertias, SmallAngleHandCase) {
  // ε = 10°: cos² = 0.96984631, sin² = 0.03015369, sin 2ε = 0.34202014, cos 2ε = 0.93969262.
  // Ix' = 1.2e4·0.96984631 + 4e4·0.03015369 − 1.5e3·0.34202014 = 12331.27
  // Iz' = 1.2e4·0.03015369 + 4e4·0.96984631 + 1.5e3·0.34202014 = 39668.73
  // Ixz' = ½(1.2e4 − 4e4)·0.34202014 + 1.5e3·0.93969262 = −3378.74
  const MassProperties r = RotateInertias(Body(), 10.0 * core::kDegToRad);
  EXPECT_NEAR(*r.Ix, 12331.27, 0.01);
  EXPECT_NEAR(*r.Iz, 39668.73, 0.01);
  EXPECT_NEAR(*r.Ixz, -3378.74, 0.01);
}

TEST(RotateInertias, RotatingBackRestoresTheBodyValues) {
  const MassProperties b = Body();
  const MassProperties back = RotateInertias(RotateInertias(b, 0.3), -0.3);
  EXPECT_NEAR(*back.Ix, *b.Ix, 1e-9);
  EXPECT_NEAR(*back.Iz, *b.Iz, 1e-9);
  EXPECT_NEAR(*back.Ixz, *b.Ixz, 1e-9);
}

TEST(RotateInertias, NeedsIxIzIxzUnlessTheAngleIsZero) {
  MassProperties partial;
  partial.Ix = 1.0;
  EXPECT_THROW(RotateInertias(partial, 0.1), std::invalid_argument);
  EXPECT_EQ(*RotateInertias(partial, 0.0).Ix, 1.0);
}

}  // namespace
}  // namespace aerolin::model
