#include "aerolin/viz/path_decimator.hpp"

#include <gtest/gtest.h>

namespace aerolin::viz {
namespace {

// Sample i is stored as (i, 0, -i) so a drawn point names its sample.
Eigen::Vector3d Sample(std::size_t i) { return {double(i), 0.0, -double(i)}; }

TEST(PathDecimator, DrawnPointsStayBoundedForAnHourAtTenMilliseconds) {
  PathDecimator path(4096, 1024);
  std::vector<Eigen::Vector3d> out;
  for (std::size_t i = 0; i < 360000; ++i) {
    path.Append(Sample(i));
    if (i % 9973 == 0 || i + 1 == 360000) {
      path.Collect(&out);
      ASSERT_LE(out.size(), path.max_drawn()) << "after " << i + 1 << " samples";
      EXPECT_EQ(out.front().x(), 0.0);
      EXPECT_EQ(out.back().x(), double(i));
    }
  }
  EXPECT_EQ(path.num_samples(), 360000u);
  EXPECT_GE(out.size(), 2048u + 1024u);  // never decimated below capacity/2
}

TEST(PathDecimator, PointsAreInOrderAndTheTailIsComplete) {
  PathDecimator path(64, 16);
  std::vector<Eigen::Vector3d> out;
  for (std::size_t i = 0; i < 5000; ++i) path.Append(Sample(i));
  path.Collect(&out);
  for (std::size_t k = 1; k < out.size(); ++k) EXPECT_LT(out[k - 1].x(), out[k].x());
  // The newest 16 samples are all there, consecutive.
  for (std::size_t k = 0; k < 16; ++k)
    EXPECT_EQ(out[out.size() - 16 + k].x(), double(5000 - 16 + k));
  // Older samples are evenly spaced at the current stride.
  for (std::size_t k = 1; k + 16 < out.size(); ++k)
    EXPECT_EQ(out[k].x() - out[k - 1].x(), double(path.stride()));
}

TEST(PathDecimator, ShortPathIsKeptWhole) {
  PathDecimator path(64, 16);
  std::vector<Eigen::Vector3d> out;
  for (std::size_t i = 0; i < 10; ++i) path.Append(Sample(i));
  path.Collect(&out);
  ASSERT_EQ(out.size(), 10u);
  for (std::size_t k = 0; k < 10; ++k) EXPECT_EQ(out[k].x(), double(k));
}

TEST(PathDecimator, BoundsCoverEverySample) {
  PathDecimator path(8, 2);
  for (std::size_t i = 0; i < 1000; ++i) path.Append(Sample(i));
  EXPECT_EQ(path.bounds().max.x(), 999.0);
  EXPECT_EQ(path.bounds().min.z(), -999.0);
  path.Clear();
  EXPECT_TRUE(path.bounds().empty);
  EXPECT_EQ(path.num_samples(), 0u);
}

TEST(PathDecimator, RejectsTinyCapacity) {
  EXPECT_THROW(PathDecimator(3, 1), std::invalid_argument);
  EXPECT_THROW(PathDecimator(8, 0), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::viz
