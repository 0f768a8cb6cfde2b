#include "aerolin/export/glyph.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

namespace aerolin::exporting {
namespace {

TEST(PaperPlaneBody, IsTheSeedsTrianglesScaled) {
  const auto g = PaperPlaneBody(2.0);
  EXPECT_TRUE(g[kRightWing][0].isApprox(Eigen::Vector3d(4, 0, 0)));
  EXPECT_TRUE(g[kRightWing][1].isApprox(Eigen::Vector3d(-2, 2, 0)));
  EXPECT_TRUE(g[kRightWing][2].isApprox(Eigen::Vector3d(-2, 0.2, 0)));
  EXPECT_TRUE(g[kRightBody][1].isApprox(Eigen::Vector3d(-2, 0, 0.2)));
  // The left half mirrors the right in y.
  for (int v = 0; v < 3; ++v) {
    EXPECT_DOUBLE_EQ(g[kLeftWing][v].y(), -g[kRightWing][v].y());
    EXPECT_DOUBLE_EQ(g[kLeftBody][v].x(), g[kRightBody][v].x());
    EXPECT_DOUBLE_EQ(g[kLeftBody][v].z(), g[kRightBody][v].z());
  }
}

TEST(PaperPlaneBody, KeelDepthMovesOnlyTheKeel) {
  const auto seed = PaperPlaneBody(1.0);
  const auto window = PaperPlaneBody(1.0, kWindowKeelDepth);
  EXPECT_EQ(window[kRightBody][1], Eigen::Vector3d(-1, 0, 0.3));
  EXPECT_EQ(window[kLeftBody][1], Eigen::Vector3d(-1, 0, 0.3));
  for (int part = 0; part < kNumGlyphParts; ++part)
    for (int v = 0; v < 3; ++v) {
      if (!IsWing(static_cast<GlyphPart>(part)) && v == 1) continue;  // the keel
      EXPECT_EQ(window[part][v], seed[part][v]) << "part " << part << " vertex " << v;
    }
}

TEST(PaperPlaneFin, StandsUpFromTheTailInTheSymmetryPlane) {
  const Triangle fin = PaperPlaneFin(2.0);
  const auto body = PaperPlaneBody(2.0);
  EXPECT_EQ(fin[0], Eigen::Vector3d(-2, 0, 0));  // on the tail, where the body halves end
  EXPECT_EQ(fin[0].x(), body[kRightBody][1].x());
  for (const Eigen::Vector3d& v : fin) EXPECT_EQ(v.y(), 0.0);  // symmetry plane
  EXPECT_LT(fin[2].z(), 0.0);                                 // up (body z is down)
  // Side-on area (x–z plane) 0.5 · 0.75 s · 0.7 s: a shape, not a line.
  const double area = 0.5 * std::abs((fin[1] - fin[0]).cross(fin[2] - fin[0]).y());
  EXPECT_DOUBLE_EQ(area, 0.5 * 1.5 * 1.4);
}

TEST(GlyphColour, WingsAreOrangeredAndBodyHalvesLime) {
  for (GlyphPart wing : {kRightWing, kLeftWing}) {
    const Rgb c = GlyphColour(wing);
    EXPECT_EQ((std::array<int, 3>{c.r, c.g, c.b}), (std::array<int, 3>{255, 69, 0}));
  }
  for (GlyphPart body : {kRightBody, kLeftBody}) {
    const Rgb c = GlyphColour(body);
    EXPECT_EQ((std::array<int, 3>{c.r, c.g, c.b}), (std::array<int, 3>{0, 255, 0}));
  }
}

}  // namespace
}  // namespace aerolin::exporting
