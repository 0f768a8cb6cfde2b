#include "aerolin/export/modes_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/analysis/approximations.hpp"
#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/conventions.hpp"
#include "export/report_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::Contains;
using testing::Lines;

// The tables print 4 significant digits ("{:.4g}", or "{:.3e}" below 1e-3):
// half a unit in the 4th digit, relative.
constexpr double kFourDigits = 5e-4;

// The lines of the section whose first line starts with `title`, from its
// third line up to the next blank line: for a mode table its rows, for a
// table whose title takes two lines its column heading and rows.
std::vector<std::string> Section(const std::vector<std::string>& lines, const std::string& title) {
  std::size_t at = 0;
  while (at < lines.size() && lines[at].rfind(title, 0) != 0) ++at;
  std::vector<std::string> rows;
  for (std::size_t i = at + 2; i < lines.size() && !lines[i].empty(); ++i) rows.push_back(lines[i]);
  if (at == lines.size()) ADD_FAILURE() << "no section " << title;
  return rows;
}

// The whitespace-separated words of `row` after the mode name `name`.
std::vector<std::string> WordsAfter(const std::string& row, const std::string& name) {
  EXPECT_EQ(row.rfind("  " + name + " ", 0), 0u) << row;
  std::istringstream in(row.substr(2 + name.size()));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

void ExpectFourDigits(const std::string& shown, double value, const std::string& what) {
  EXPECT_NEAR(std::stod(shown), value, kFourDigits * std::abs(value)) << what << ": " << shown;
}

// Each mode's row: λ, ωn and ζ as the analysis gives them; one row per mode,
// in the analysis's order.
TEST(WriteModesText, EachModesRowShowsItsEigenvalueFrequencyAndDamping) {
  for (const char* file : {"p2v7.toml", "navion_cruise_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a = testing::Bundled(file);
    const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
    std::ostringstream out;
    WriteModesText(out, a, modes, {}, file, core::UnitSystem::kSI);
    const std::vector<std::string> lines = Lines(out.str());
    const std::pair<std::string, const std::vector<analysis::Mode>*> tables[] = {
        {"Longitudinal modes  (x = " + model::JoinSymbols(model::LongitudinalStateSignals()) + ")",
         &modes.longitudinal},
        {"Lateral-directional modes  (x = " + model::JoinSymbols(model::LateralStateSignals()) + ")",
         &modes.lateral}};
    for (const auto& [title, list] : tables) {
      const std::vector<std::string> rows = Section(lines, title);
      ASSERT_EQ(rows.size(), list->size()) << file << ": " << title;
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const analysis::Mode& m = (*list)[k];
        const std::vector<std::string> words = WordsAfter(rows[k], m.full_name());
        ASSERT_GE(words.size(), 3u) << rows[k];
        ExpectFourDigits(words[0], m.lambda.real(), "Re λ");
        std::size_t next = 1;
        if (m.lambda.imag() != 0.0) {
          ASSERT_EQ(words[1], "±") << rows[k];
          ASSERT_EQ(words[2].back(), 'i') << rows[k];
          ExpectFourDigits(words[2].substr(0, words[2].size() - 1), m.lambda.imag(), "Im λ");
          next = 3;
        }
        ExpectFourDigits(words[next], m.natural_frequency, "ωn");
        if (m.kind == analysis::ModeKind::kHeading)
          EXPECT_EQ(words[next + 1], "-");
        else
          EXPECT_NEAR(std::stod(words[next + 1]), m.damping_ratio, 5e-4) << rows[k];  // 3 decimals
      }
    }
  }
}

// The code-point column of byte `at` of `line` (α, λ and ∠ are one column).
std::size_t Column(const std::string& line, std::size_t at) {
  std::size_t column = 0;
  for (std::size_t i = 0; i < at && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;
  return column;
}

// A name longer than the mode column's 34 ("roll-spiral oscillation
// (lateral phugoid)", the P2V-7 with N_r = −2 /s) widens its axis's tables:
// in the mode table and the shapes every row's second column starts where
// the heading's does, two spaces after the longest name; the other axis's
// tables keep their 34 (every file without such a name prints as before).
TEST(WriteModesText, ALongModeNameWidensItsAxissColumns) {
  model::AircraftData a = testing::Bundled("p2v7.toml");
  a.lateral.Nr = -2.0;
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
  const std::string name = "roll-spiral oscillation (lateral phugoid)";
  bool found = false;
  for (const analysis::Mode& m : modes.lateral) found = found || m.full_name() == name;
  ASSERT_TRUE(found);
  std::ostringstream out;
  WriteModesText(out, a, modes, {}, "p2v7.toml", core::UnitSystem::kSI);
  const std::vector<std::string> lines = Lines(out.str());
  // The table under the first line starting with `title` (then `then`):
  // its heading, the first line after them starting with "  mode ".
  auto check = [&](const std::string& title, const std::string& then, const std::string& second,
                   std::size_t width) {
    SCOPED_TRACE(title + then);
    std::size_t at = 0;
    while (at < lines.size() && lines[at].rfind(title, 0) != 0) ++at;
    if (!then.empty())
      while (at < lines.size() && lines[at].rfind(then, 0) != 0) ++at;
    ++at;
    while (at < lines.size() && lines[at].rfind("  mode ", 0) != 0) ++at;
    ASSERT_LT(at, lines.size());
    const std::string& heading = lines[at];
    EXPECT_EQ(Column(heading, heading.find(second)), 2 + width) << heading;
    for (std::size_t i = at + 1; i < lines.size() && !lines[i].empty(); ++i) {
      SCOPED_TRACE(lines[i]);
      // Two spaces at least after the name, and the next column at the heading's.
      std::size_t end = lines[i].find("  ", 2);
      ASSERT_NE(end, std::string::npos);
      const std::size_t next = lines[i].find_first_not_of(' ', end);
      EXPECT_EQ(Column(lines[i], next), 2 + width);
    }
  };
  check("Lateral-directional modes", "", "eigenvalue", name.size() + 2);
  check("Lateral-directional modes", "  mode shapes", "β", name.size() + 2);
  check("Longitudinal modes", "", "eigenvalue", 34);
  check("Longitudinal modes", "  mode shapes", "u ", 34);
  // The qualities summary: the name and its level apart.
  EXPECT_TRUE(Contains(out.str(), "\n  roll-spiral oscillation  Level ")) << out.str();
}

// Mode shapes: |component| ∠ phase, u in the speed unit asked for.
TEST(WriteModesText, ShapesAreMagnitudeAndPhaseWithSpeedsInTheAskedUnit) {
  const model::AircraftData a = testing::Bundled("p2v7.toml");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(a);
  for (const core::UnitSystem units : {core::UnitSystem::kSI, core::UnitSystem::kImperial}) {
    std::ostringstream out;
    WriteModesText(out, a, modes, {}, "p.toml", units);
    const std::vector<std::string> lines = Lines(out.str());
    const double per_mps = units == core::UnitSystem::kImperial ? 1.0 / core::kMetresPerFoot : 1.0;
    EXPECT_TRUE(Contains(out.str(), std::string("  u in ") +
                                        (units == core::UnitSystem::kImperial ? "ft/s" : "m/s") +
                                        " per rad"));
    // The first shapes table after the longitudinal modes.
    const std::vector<std::string> rows = Section(lines, "  mode shapes:");
    ASSERT_EQ(rows.size(), modes.longitudinal.size() + 1);  // + the column heading
    for (std::size_t k = 0; k < modes.longitudinal.size(); ++k) {
      const analysis::Mode& m = modes.longitudinal[k];
      const std::vector<std::string> words = WordsAfter(rows[1 + k], m.full_name());
      ASSERT_EQ(words.size(), 5u) << rows[1 + k];  // u α q θ, then the reference state
      for (Eigen::Index i = 0; i < 4; ++i) {
        const std::size_t angle = words[i].find("∠");
        ASSERT_NE(angle, std::string::npos) << words[i];
        const double magnitude = std::abs(m.shape(i)) * (i == model::lon::kU ? per_mps : 1.0);
        ExpectFourDigits(words[i].substr(0, angle), magnitude, "|shape|");
        if (magnitude > 0.0) {
          EXPECT_NEAR(std::stod(words[i].substr(angle + std::string("∠").size())),
                      std::arg(m.shape(i)) * core::kRadToDeg, 0.5)
              << words[i];
        }
      }
      EXPECT_EQ(words[4], model::LongitudinalStateSignals()[m.reference_state].symbol);
    }
  }
}

// A file that names its class gets a one-line flying-qualities verdict per
// mode, the levels those of analysis::Grade; a file without one gets none.
TEST(WriteModesText, QualitiesSummaryOnlyWithAClassAndWithTheGradesLevels) {
  const model::AircraftData navion = testing::Bundled("navion_cruise_sl.toml");
  const analysis::ModalAnalysis modes = analysis::AnalyzeModes(navion);
  std::ostringstream out;
  WriteModesText(out, navion, modes, analysis::ClassicalApproximations(navion), "n.toml",
                 core::UnitSystem::kSI);
  const std::vector<std::string> lines = Lines(out.str());
  const analysis::QualitiesGrade grade =
      analysis::Grade(analysis::SummarizeModes(modes.longitudinal, modes.lateral, navion),
                      *navion.aircraft_class, *navion.condition.category);
  const std::vector<std::string> rows = [&] {
    std::size_t at = 0;
    while (at < lines.size() && lines[at].rfind("Flying qualities  (MIL-F-8785C, Class I, Category B", 0) != 0)
      ++at;
    std::vector<std::string> r;
    for (std::size_t i = at + 1; i < lines.size() && !lines[i].empty(); ++i) r.push_back(lines[i]);
    return r;
  }();
  ASSERT_FALSE(rows.empty()) << out.str();
  for (const analysis::RequirementResult& req : grade.requirements) {
    const std::string name = analysis::ToString(req.mode);
    const std::string expected = "Level " + std::to_string(analysis::ToInt(*grade.LevelOf(req.mode)));
    bool found = false;
    for (const std::string& row : rows)
      if (row.rfind("  " + name + " ", 0) == 0) {
        found = true;
        EXPECT_TRUE(Contains(row, expected)) << expected << " in: " << row;
      }
    EXPECT_TRUE(found) << name;
  }
  // The approximations table: one row per approximation.
  const std::vector<analysis::Approximation> approx = analysis::ClassicalApproximations(navion);
  EXPECT_EQ(Section(lines, "Classical approximations").size(), approx.size() + 1);  // + the column heading

  model::AircraftData classless = navion;
  classless.aircraft_class.reset();
  std::ostringstream none;
  WriteModesText(none, classless, modes, {}, "n.toml", core::UnitSystem::kSI);
  EXPECT_FALSE(Contains(none.str(), "Flying qualities"));
}

}  // namespace
}  // namespace aerolin::exporting
