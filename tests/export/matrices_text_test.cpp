#include "aerolin/export/matrices_text.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/model/build.hpp"
#include "export/report_test_support.hpp"

namespace aerolin::exporting {
namespace {

using testing::Lines;

// The tables print 6 significant digits ("{:.6g}"): half a unit in the 6th
// digit, relative.
constexpr double kSixDigits = 5e-6;

// The table titled `title` in `lines`, read back: the column labels and
// the entries of the rows labelled "dX/dt".
struct Table {
  std::vector<std::string> labels;
  std::vector<std::string> rows;
  Eigen::MatrixXd values;
};

Table ReadTable(const std::vector<std::string>& lines, const std::string& title) {
  Table t;
  std::size_t at = 0;
  while (at < lines.size() && lines[at] != title) ++at;
  if (at + 1 >= lines.size()) {
    ADD_FAILURE() << "no table " << title;
    return t;
  }
  // Labels are "name [unit]": split the heading at "] ".
  const std::string heading = lines[at + 1] + " ";
  for (std::size_t from = 0, close; (close = heading.find("] ", from)) != std::string::npos; from = close + 2) {
    std::string label = heading.substr(from, close + 1 - from);
    label.erase(0, label.find_first_not_of(' '));
    t.labels.push_back(label);
  }
  std::vector<std::vector<double>> rows;
  for (std::size_t i = at + 2; i < lines.size() && !lines[i].empty(); ++i) {
    std::istringstream in(lines[i]);
    std::string name;
    in >> name;
    t.rows.push_back(name);
    rows.emplace_back();
    for (double v; in >> v;) rows.back().push_back(v);
  }
  t.values.resize(static_cast<Eigen::Index>(rows.size()), rows.empty() ? 0 : static_cast<Eigen::Index>(rows[0].size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      t.values(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i][j];
  return t;
}

void ExpectShows(const Table& t, const Eigen::MatrixXd& m, const std::string& what) {
  ASSERT_EQ(t.values.rows(), m.rows()) << what;
  ASSERT_EQ(t.values.cols(), m.cols()) << what;
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      EXPECT_NEAR(t.values(i, j), m(i, j), kSixDigits * std::abs(m(i, j)))
          << what << " (" << i << ", " << j << ")";
}

TEST(WriteMatricesText, PrintsEveryEntryOfBothModelsLabelledBySignal) {
  for (const char* file : {"p2v7.toml", "navion_cruise_sl.toml"}) {
    const model::AircraftData a = testing::Bundled(file);
    const model::StateSpace lon = model::BuildLongitudinal(a);
    const model::StateSpace lat = model::BuildLateral(a);
    std::ostringstream out;
    WriteMatricesText(out, a, lon, lat, file);
    const std::vector<std::string> lines = Lines(out.str());
    EXPECT_EQ(lines[0], a.name + "  (" + file + ")");
    const std::pair<const char*, const model::StateSpace*> axes[] = {{"Longitudinal", &lon},
                                                                     {"Lateral-directional", &lat}};
    for (const auto& [title, sys] : axes) {
      const Table A = ReadTable(lines, std::string(title) + " A");
      const Table B = ReadTable(lines, std::string(title) + " B");
      ExpectShows(A, sys->A(), std::string(file) + " " + title + " A");
      ExpectShows(B, sys->B(), std::string(file) + " " + title + " B");
      ASSERT_EQ(A.rows.size(), sys->states().size());
      ASSERT_EQ(A.labels.size(), sys->states().size());
      ASSERT_EQ(B.labels.size(), sys->inputs().size());
      for (std::size_t i = 0; i < sys->states().size(); ++i) {
        const core::Signal& s = sys->states()[i];
        EXPECT_EQ(A.rows[i], "d" + s.name + "/dt");
        EXPECT_EQ(A.labels[i], s.name + " [" + std::string(core::ToString(s.unit)) + "]");
      }
      for (std::size_t i = 0; i < sys->inputs().size(); ++i)
        EXPECT_EQ(B.labels[i], sys->inputs()[i].name + " [" +
                                   std::string(core::ToString(sys->inputs()[i].unit)) + "]");
    }
  }
}

TEST(WriteMatricesText, ImperialScalesTheSpeedRowAndColumnOnly) {
  const model::AircraftData a = testing::Bundled("p2v7.toml");
  const model::StateSpace lon = model::BuildLongitudinal(a);
  const model::StateSpace lat = model::BuildLateral(a);
  std::ostringstream out;
  WriteMatricesText(out, a, lon, lat, "p.toml", core::UnitSystem::kImperial);
  const std::vector<std::string> lines = Lines(out.str());
  EXPECT_NE(lines[1].find("u in ft/s"), std::string::npos) << lines[1];
  const Table A = ReadTable(lines, "Longitudinal A");
  const Table B = ReadTable(lines, "Longitudinal B");
  Eigen::MatrixXd expected_a = lon.A(), expected_b = lon.B();
  expected_a.row(0) /= core::kMetresPerFoot;  // du/dt in ft/s²
  expected_a.col(0) *= core::kMetresPerFoot;  // per ft/s of u
  expected_b.row(0) /= core::kMetresPerFoot;
  ExpectShows(A, expected_a, "A");
  ExpectShows(B, expected_b, "B");
  EXPECT_EQ(A.labels[0], "u [ft/s]");
  ExpectShows(ReadTable(lines, "Lateral-directional A"), lat.A(), "lateral A");
}

}  // namespace
}  // namespace aerolin::exporting
