#include "aerolin/viz/camera.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

namespace aerolin::viz {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Pixel positions are compared to an independently built matrix pipeline;
// both are double precision, so agreement to a micro-pixel is expected.
constexpr double kPixelTol = 1e-6;

// Independent oracle: the classic OpenGL pipeline (gluLookAt, gluPerspective,
// perspective division, viewport transform) as 4x4 homogeneous matrices.
Eigen::Vector2d OpenGlPixel(const OrbitCamera& cam, int w, int h,
                            const Eigen::Vector3d& p) {
  const Eigen::Vector3d eye = cam.Eye();
  const Eigen::Vector3d f = (cam.target - eye).normalized();
  const Eigen::Vector3d s = f.cross(Eigen::Vector3d::UnitZ()).normalized();
  const Eigen::Vector3d u = s.cross(f);
  Eigen::Matrix4d view = Eigen::Matrix4d::Identity();
  view.block<1, 3>(0, 0) = s.transpose();
  view.block<1, 3>(1, 0) = u.transpose();
  view.block<1, 3>(2, 0) = -f.transpose();
  view(0, 3) = -s.dot(eye);
  view(1, 3) = -u.dot(eye);
  view(2, 3) = f.dot(eye);
  const double n = 0.1, far = 1e7, aspect = double(w) / h;
  const double fy = 1.0 / std::tan(cam.fov_y / 2);
  Eigen::Matrix4d proj = Eigen::Matrix4d::Zero();
  proj(0, 0) = fy / aspect;
  proj(1, 1) = fy;
  proj(2, 2) = (far + n) / (n - far);
  proj(2, 3) = 2 * far * n / (n - far);
  proj(3, 2) = -1;
  const Eigen::Vector4d clip = proj * view * p.homogeneous();
  const Eigen::Vector2d ndc = clip.head<2>() / clip.w();
  return {(ndc.x() + 1) / 2 * w, (1 - ndc.y()) / 2 * h};
}

OrbitCamera MakeCamera(double az, double el, double dist) {
  OrbitCamera c;
  c.target = {100, -50, 20};
  c.azimuth = az;
  c.elevation = el;
  c.distance = dist;
  c.fov_y = 0.9;
  return c;
}

TEST(Projector, TargetProjectsToViewportCentre) {
  const Projector proj(MakeCamera(0.3, 0.4, 500), 1280, 800);
  const auto p = proj.Project({100, -50, 20});
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->x, 640, kPixelTol);
  EXPECT_NEAR(p->y, 400, kPixelTol);
  EXPECT_NEAR(p->depth, 500, 1e-9);
}

TEST(Projector, MatchesOpenGlPipeline) {
  for (double az : {-2.5, -0.7, 0.0, 1.1, 3.0})
    for (double el : {-0.6, 0.0, 0.35, 1.4}) {
      const OrbitCamera cam = MakeCamera(az, el, 800);
      const Projector proj(cam, 1280, 800);
      for (const Eigen::Vector3d& q :
           {Eigen::Vector3d(130, -10, 25), Eigen::Vector3d(-200, 40, -90),
            Eigen::Vector3d(100, -50, 300)}) {
        const auto p = proj.Project(q);
        ASSERT_TRUE(p.has_value()) << "az " << az << " el " << el;
        const Eigen::Vector2d gl = OpenGlPixel(cam, 1280, 800, q);
        EXPECT_NEAR(p->x, gl.x(), kPixelTol) << "az " << az << " el " << el;
        EXPECT_NEAR(p->y, gl.y(), kPixelTol) << "az " << az << " el " << el;
      }
    }
}

TEST(Projector, LookingNorthEastIsRightAndUpIsUp) {
  // Eye due south of the target (azimuth -90 deg), level: looking north.
  const Projector proj(MakeCamera(-kPi / 2, 0.0, 300), 1000, 600);
  const auto east = proj.Project({110, -50, 20});
  const auto up = proj.Project({100, -50, 30});
  ASSERT_TRUE(east && up);
  EXPECT_GT(east->x, 500);
  EXPECT_NEAR(east->y, 300, kPixelTol);
  EXPECT_LT(up->y, 300);
  EXPECT_NEAR(up->x, 500, kPixelTol);
}

TEST(Projector, RollTurnsTheSceneCounterClockwiseAboutTheCentre) {
  // Oracle: the unrolled picture turned by the roll about the viewport
  // centre (counter-clockwise on screen, y down); a point right of the
  // target rises for a camera banked right.
  OrbitCamera camera;
  camera.target = {100, 200, 50};
  camera.azimuth = 0.7;
  camera.elevation = 0.2;
  camera.distance = 400;
  OrbitCamera rolled = camera;
  rolled.roll = 0.35;
  const Projector flat(camera, 800, 600), banked(rolled, 800, 600);
  const double cr = std::cos(rolled.roll), sr = std::sin(rolled.roll);
  for (const Eigen::Vector3d& p : {Eigen::Vector3d(130, 190, 80), Eigen::Vector3d(60, 260, 20),
                                   Eigen::Vector3d(100, 200, 150)}) {
    const ScreenPoint a = *flat.Project(p), b = *banked.Project(p);
    const double dx = a.x - 400, dy = a.y - 300;
    EXPECT_NEAR(b.x - 400, dx * cr + dy * sr, 1e-9);
    EXPECT_NEAR(b.y - 300, -dx * sr + dy * cr, 1e-9);
    EXPECT_NEAR(b.depth, a.depth, 1e-9);
  }
  const Eigen::Vector3d right_of_target =
      camera.target + 50.0 * flat.rotation().row(0).transpose();
  EXPECT_LT(banked.Project(right_of_target)->y, 300.0 - 10.0);
}

TEST(Projector, PointBehindEyeIsNotProjected) {
  const OrbitCamera cam = MakeCamera(0.0, 0.0, 100);
  const Projector proj(cam, 640, 480);
  const Eigen::Vector3d behind = cam.Eye() + (cam.Eye() - cam.target);
  EXPECT_FALSE(proj.Project(behind).has_value());
}

TEST(Projector, SegmentIsClippedAtNearPlane) {
  const OrbitCamera cam = MakeCamera(0.0, 0.0, 100);
  const Projector proj(cam, 640, 480);
  const Eigen::Vector3d behind = cam.Eye() + (cam.Eye() - cam.target) + Eigen::Vector3d(0, 5, 0);
  const auto seg = proj.ProjectSegment(cam.target, behind);
  ASSERT_TRUE(seg.has_value());
  EXPECT_NEAR(seg->first.depth, 100, 1e-9);
  EXPECT_NEAR(seg->second.depth, proj.near(), 1e-9);
  EXPECT_FALSE(proj.ProjectSegment(behind, behind + Eigen::Vector3d(1, 1, 1)).has_value());
}

TEST(Projector, WorldPerPixelInvertsProjection) {
  const Projector proj(MakeCamera(0.2, 0.2, 400), 1280, 800);
  const double d = proj.WorldPerPixel(400, 50);
  // Offset d along the camera's right axis at the target's depth moves 50 px.
  const Eigen::Vector3d right = proj.rotation().row(0).transpose();
  const auto p = proj.Project(Eigen::Vector3d(100, -50, 20) + d * right);
  ASSERT_TRUE(p.has_value());
  EXPECT_NEAR(p->x - 640, 50, 1e-6);
}

TEST(Projector, RejectsEmptyViewportAndBadCamera) {
  EXPECT_THROW(Projector(MakeCamera(0, 0, 1), 0, 10), std::invalid_argument);
  EXPECT_THROW(Projector(MakeCamera(0, 0, 0), 10, 10), std::invalid_argument);
  OrbitCamera c = MakeCamera(0, 0, 1);
  c.fov_y = kPi;
  EXPECT_THROW(Projector(c, 10, 10), std::invalid_argument);
}

TEST(OrbitCamera, ElevationIsClampedAndAzimuthWraps) {
  OrbitCamera c = MakeCamera(3.0, 1.5, 10);
  c.Orbit(1.0, 1.0);
  EXPECT_DOUBLE_EQ(c.elevation, kMaxElevation);
  EXPECT_NEAR(c.azimuth, 4.0 - 2 * kPi, 1e-12);
  c.Orbit(0, -10);
  EXPECT_DOUBLE_EQ(c.elevation, -kMaxElevation);
  c.Zoom(1e-9, 5, 50);
  EXPECT_DOUBLE_EQ(c.distance, 5);
  c.Zoom(1e9, 5, 50);
  EXPECT_DOUBLE_EQ(c.distance, 50);
}

TEST(FitToBounds, WholeBoxIsInView) {
  Bounds b;
  b.Extend({-300, 2000, -50});
  b.Extend({4000, -800, 600});
  for (double az : {0.0, 1.0, 2.5, -2.0})
    for (double el : {0.1, 0.6, 1.3})
      for (double aspect : {0.6, 1.6}) {
        OrbitCamera c;
        c.azimuth = az;
        c.elevation = el;
        const int h = 800, w = static_cast<int>(aspect * h);
        const OrbitCamera fit = FitToBounds(b, c, aspect, 100.0);
        const Projector proj(fit, w, h);
        for (int i = 0; i < 8; ++i) {
          const Eigen::Vector3d corner(i & 1 ? b.max.x() : b.min.x(),
                                       i & 2 ? b.max.y() : b.min.y(),
                                       i & 4 ? b.max.z() : b.min.z());
          const auto p = proj.Project(corner);
          ASSERT_TRUE(p.has_value());
          EXPECT_GE(p->x, 0);
          EXPECT_LE(p->x, w);
          EXPECT_GE(p->y, 0);
          EXPECT_LE(p->y, h);
        }
      }
}

TEST(FitToBounds, EmptyBoundsUseMinimumRadius) {
  const OrbitCamera fit = FitToBounds(Bounds{}, OrbitCamera{}, 1.5, 200.0, 1.0);
  EXPECT_NEAR(fit.distance, 200.0 / std::sin(0.4), 1e-9);
  EXPECT_TRUE(fit.target.isZero());
}

TEST(SmoothApproach, ConvergesMonotonicallyWithoutOvershoot) {
  double v = 0.0;
  double prev = v;
  for (int i = 0; i < 600; ++i) {
    v = SmoothApproach(v, 100.0, 1.0 / 60, 0.5);
    EXPECT_GE(v, prev);
    EXPECT_LE(v, 100.0);
    prev = v;
  }
  EXPECT_NEAR(v, 100.0, 1e-6);
  EXPECT_DOUBLE_EQ(SmoothApproach(3.0, 7.0, 0.1, 0.0), 7.0);
}

TEST(SmoothApproachAngle, TakesTheShortWayRound) {
  const double a = SmoothApproachAngle(3.0, -3.0, 0.01, 1.0);
  // From 3 rad to -3 rad the short way crosses ±π, so the angle increases.
  EXPECT_GT(std::remainder(a - 3.0, 2 * kPi), 0.0);
}

TEST(NiceStep, PicksOneTwoFive) {
  EXPECT_DOUBLE_EQ(NiceStep(1000, 10), 100);
  EXPECT_DOUBLE_EQ(NiceStep(2400, 10), 200);
  EXPECT_DOUBLE_EQ(NiceStep(4500, 10), 500);
  EXPECT_DOUBLE_EQ(NiceStep(90000, 10), 10000);
  EXPECT_DOUBLE_EQ(NiceStep(0, 10), 1);
}

TEST(Bounds, TracksMinMaxAndRadius) {
  Bounds b;
  EXPECT_EQ(b.Radius(), 0.0);
  b.Extend({1, 2, 3});
  b.Extend({-1, 4, 3});
  EXPECT_TRUE(b.min.isApprox(Eigen::Vector3d(-1, 2, 3)));
  EXPECT_TRUE(b.max.isApprox(Eigen::Vector3d(1, 4, 3)));
  EXPECT_NEAR(b.Radius(), std::sqrt(2.0), 1e-12);
}

}  // namespace
}  // namespace aerolin::viz
