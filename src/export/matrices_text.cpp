#include "aerolin/export/matrices_text.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "display_units.hpp"

namespace aerolin::exporting {
namespace {

// Widths count characters; every label here is ASCII. Entry (i, j) is shown
// in (row unit)/s per (column unit) (InDisplayUnits).
void WriteMatrix(std::ostream& out, const std::string& title, const Eigen::MatrixXd& m,
                 const std::vector<core::Signal>& rows, const std::vector<core::Signal>& cols,
                 core::UnitSystem units) {
  out << title << '\n' << fmt::format("  {:<16}", "");
  // Columns 14 wide, wider where a label would touch its left neighbour
  // (the first column's label has the row names' margin to its left).
  std::vector<std::string> labels;
  std::size_t width = 14;
  for (const core::Signal& c : cols) {
    labels.push_back(c.name + " [" + DisplayUnitOf(c.unit, units).name + "]");
    width = std::max(width, labels.size() == 1 ? labels.back().size() : labels.back().size() + 1);
  }
  for (const std::string& label : labels) out << fmt::format("{:>{}}", label, width);
  out << '\n';
  const Eigen::MatrixXd shown = InDisplayUnits(m, rows, cols, units);
  for (Eigen::Index i = 0; i < shown.rows(); ++i) {
    out << fmt::format("  d{:<15}", rows[i].name + "/dt");
    for (Eigen::Index j = 0; j < shown.cols(); ++j) out << fmt::format("{:{}.6g}", shown(i, j), width);
    out << '\n';
  }
}

}  // namespace

void WriteMatricesText(std::ostream& out, const model::AircraftData& aircraft,
                       const model::StateSpace& longitudinal, const model::StateSpace& lateral,
                       std::string_view file, core::UnitSystem units) {
  out << aircraft.name << "  (" << file << ")\n"
      << (units == core::UnitSystem::kSI
              ? std::string("ẋ = A x + B u, SI units (m, s, rad)")
              : "ẋ = A x + B u; u in " + DisplayUnitOf(core::Unit::kMetrePerSecond, units).name +
                    ", otherwise SI (s, rad)")
      << "; columns are x (A) and u (B)\n\n";
  WriteMatrix(out, "Longitudinal A", longitudinal.A(), longitudinal.states(), longitudinal.states(),
              units);
  out << '\n';
  WriteMatrix(out, "Longitudinal B", longitudinal.B(), longitudinal.states(), longitudinal.inputs(),
              units);
  out << '\n';
  WriteMatrix(out, "Lateral-directional A", lateral.A(), lateral.states(), lateral.states(), units);
  out << '\n';
  WriteMatrix(out, "Lateral-directional B", lateral.B(), lateral.states(), lateral.inputs(), units);
}

}  // namespace aerolin::exporting
