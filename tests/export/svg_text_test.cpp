#include "aerolin/export/svg_text.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace aerolin::exporting {
namespace {

TEST(MathTextToSvg, GreekCommandsBecomeUnicodeAndEatOneSpace) {
  EXPECT_EQ(MathTextToSvg(L"Re \\lambda, 1/s"), "Re λ, 1/s");
  EXPECT_EQ(MathTextToSvg(L"\\alpha, \\theta  = 0"), "α, θ = 0");
  EXPECT_EQ(MathTextToSvg(L"\\phi"), "ϕ");  // the symbol MathGL draws
  EXPECT_EQ(MathTextToSvg(L"\\unknown x"), "unknownx");
}

TEST(MathTextToSvg, SubscriptsSuperscriptsBoldAndItalicAreTspans) {
  EXPECT_EQ(MathTextToSvg(L"u_g"), "u<tspan baseline-shift=\"sub\" font-size=\"70%\">g</tspan>");
  EXPECT_EQ(MathTextToSvg(L"\\omega_{n,sp}"),
            "ω<tspan baseline-shift=\"sub\" font-size=\"70%\">n,sp</tspan>");
  EXPECT_EQ(MathTextToSvg(L"x^2"), "x<tspan baseline-shift=\"super\" font-size=\"70%\">2</tspan>");
  EXPECT_EQ(MathTextToSvg(L"\\b{lateral modes} (squares)"),
            "<tspan font-weight=\"bold\">lateral modes</tspan> (squares)");
  EXPECT_EQ(MathTextToSvg(L"\\i{a}"), "<tspan font-style=\"italic\">a</tspan>");
}

TEST(MathTextToSvg, EscapesXmlAndKeepsUnicode) {
  EXPECT_EQ(MathTextToSvg(L"a < b & c > \"d\""), "a &lt; b &amp; c &gt; &quot;d&quot;");
  EXPECT_EQ(MathTextToSvg(L"\u2212" L"0.5 \u00b1 1"), "\u2212" "0.5 \u00b1 1");
}

// The shape of MathGL 8's SVG: glyph outlines in <defs> over several lines,
// one <g transform=...> line per placed character, other primitives plain.
TEST(ReplaceGlyphsWithText, DropsGlyphOutlinesAndAddsTextElements) {
  const std::string svg =
      "<?xml version=\"1.0\"?>\n<svg width=\"10\" height=\"10\">\n"
      "<defs><g id=\"nn_0000\"><path d=\"\tM 1 2 L 3 4 Z\n\"/></g></defs>\n"
      "<g fill=\"none\">\n"
      "<g stroke=\"#000000\"><path d=\" M 0 0 L 5 5\"/> </g>\n"
      "<g transform=\"translate(3,4) scale(0.04,-0.04) rotate(-0)\" fill=\"#000000\"><use x=\"0\" "
      "y=\"-0\" xlink:href=\"#nn_0000\"/></g>\n"
      "</g></svg>";
  const std::string out = ReplaceGlyphsWithText(
      svg, {{3.0, 4.0, -90.0, 12.0, 0xD62728, L"x & \\lambda", 40.0}});
  EXPECT_EQ(out.find("nn_0000"), std::string::npos);
  EXPECT_EQ(out.find("<use"), std::string::npos);
  EXPECT_NE(out.find("<path d=\" M 0 0 L 5 5\"/>"), std::string::npos);  // lines kept
  EXPECT_NE(out.find("<text transform=\"translate(3.00,4.00) rotate(-90)\" font-size=\"12.00\" "
                     "fill=\"#d62728\" xml:space=\"preserve\" textLength=\"40.00\" "
                     "lengthAdjust=\"spacingAndGlyphs\">x &amp; λ</text>"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.substr(out.size() - 6), "</svg>");
  EXPECT_LT(out.find("</g>\n<g font-family"), out.find("<text"));  // MathGL's group closed first
  EXPECT_THROW(ReplaceGlyphsWithText("<svg>", {}), std::invalid_argument);
}

}  // namespace
}  // namespace aerolin::exporting
