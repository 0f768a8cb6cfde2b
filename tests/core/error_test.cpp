#include "aerolin/core/error.hpp"
#include "aerolin/core/messages.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

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

TEST(DataError, ReportsTheFirstDefectsAndCountsTheRest) {
  std::vector<Diagnostic> defects;
  for (int line = 1; line <= 300; ++line) defects.push_back({{"a.toml", line}, "unknown key"});
  const DataError e(defects);
  const std::string text = e.what();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), static_cast<long>(kMaxReportedDiagnostics));
  EXPECT_NE(text.find("a.toml:20: unknown key\n... and 280 more errors"), std::string::npos) << text;
  EXPECT_EQ(text.find("a.toml:21:"), std::string::npos);
  EXPECT_EQ(e.defects().size(), 300u);  // all kept for a caller that wants them
}

TEST(JoinDiagnostics, AtTheLimitNoCount) {
  std::vector<Diagnostic> warnings(kMaxReportedDiagnostics, Diagnostic{{"w.toml", 2}, "odd"});
  EXPECT_EQ(JoinDiagnostics(warnings, "warnings").find("more"), std::string::npos);
  warnings.push_back(warnings.front());
  EXPECT_EQ(JoinDiagnostics(warnings, "warnings", "warning: ")
                .substr(JoinDiagnostics(warnings, "warnings", "warning: ").rfind('\n')),
            "\nwarning: ... and 1 more warnings");
  EXPECT_EQ(JoinDiagnostics({{{"w.toml", 2}, "odd"}}, "warnings", "warning: "),
            "warning: w.toml:2: odd");
}

TEST(Printable, EscapesControlCharacters) {
  EXPECT_EQ(Printable("a\x1b[31mred\x7f\tb\n"), "a\\x1b[31mred\\x7f\\x09b\\x0a");
  EXPECT_EQ(Printable("csi\xc2\x9b" "2J"), "csi\\u009b2J");  // C1 CSI
  EXPECT_EQ(Printable("bad\xff"), "bad\\xff");               // not UTF-8
  EXPECT_EQ(Printable("δ_élévateur"), "δ_élévateur");         // text stays text
}

TEST(Printable, ClipsLongTextByCharacters) {
  const std::string token(20'000'000, 'x');
  EXPECT_EQ(Printable(token), std::string(kMaxEchoedChars, 'x') + "…");
  std::string greek;
  for (int i = 0; i < 100; ++i) greek += "α";
  EXPECT_EQ(Printable(greek), greek.substr(0, 2 * kMaxEchoedChars) + "…");  // never splits one
  EXPECT_EQ(Printable(std::string(kMaxEchoedChars, 'y')), std::string(kMaxEchoedChars, 'y'));
  EXPECT_EQ(Printable(token, /*clip=*/false).size(), token.size());
}

}  // namespace
}  // namespace aerolin::core
