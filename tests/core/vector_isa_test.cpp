// The choice between the wide and the baseline versions of the vectorized
// loops (their numbers are compared in the analysis and sim tests).

#include "aerolin/core/vector_isa.hpp"

#include <gtest/gtest.h>

namespace aerolin::core {
namespace {

AEROLIN_TWO_ISAS(, int, WhichVersion, "avx2", UseAvx2, (int x), (x))
inline int WhichVersionBody(int x) { return x + 1; }

TEST(VectorIsa, ForcingTheBaselineTurnsBothChoicesOffAndBack) {
  const bool avx2 = UseAvx2(), avx = UseAvx();
  EXPECT_TRUE(!avx2 || avx) << "a processor with AVX2 has AVX";
  ForceBaselineVectors(true);
  EXPECT_FALSE(UseAvx2());
  EXPECT_FALSE(UseAvx());
  ForceBaselineVectors(false);
  EXPECT_EQ(UseAvx2(), avx2);
  EXPECT_EQ(UseAvx(), avx);
}

TEST(VectorIsa, TheChosenVersionFollowsTheSwitch) {
  EXPECT_EQ(WhichVersion(41), 42);
  ForceBaselineVectors(true);
  const auto baseline = WhichVersionChosen();
  EXPECT_EQ(baseline(1), 2);
  ForceBaselineVectors(false);
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  EXPECT_EQ(baseline, &WhichVersionBaseline);
  if (UseAvx2()) {
    EXPECT_EQ(WhichVersionChosen(), &WhichVersionWide);
  }
#endif
}

}  // namespace
}  // namespace aerolin::core
