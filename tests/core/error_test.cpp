#include "aerolin/core/error.hpp"

#include <gtest/gtest.h>

namespace aerolin::core {
namespace {

TEST(DataError, ReadsPathLineMessage) {
  const DataError e({"data/x.toml", 14}, "unknown key 'M_alfa' (did you mean 'Ma'?)");
  EXPECT_STREQ(e.what(), "data/x.toml:14: unknown key 'M_alfa' (did you mean 'Ma'?)");
  ASSERT_EQ(e.defects().size(), 1u);
  EXPECT_EQ(e.defects()[0].where.line, 14);
}

TEST(DataError, OneLinePerDefect) {
  const DataError e({{{"a.toml", 3}, "first"}, {{"a.toml", 9}, "second"}});
  EXPECT_STREQ(e.what(), "a.toml:3: first\na.toml:9: second");
  EXPECT_EQ(e.defects().size(), 2u);
}

}  // namespace
}  // namespace aerolin::core
