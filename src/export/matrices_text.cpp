#include "aerolin/export/matrices_text.hpp"

#include <fmt/format.h>

namespace aerolin::exporting {
namespace {

// Widths count characters; every label here is ASCII.
void WriteMatrix(std::ostream& out, const std::string& title, const Eigen::MatrixXd& m,
                 const std::vector<core::Signal>& rows, const std::vector<core::Signal>& cols) {
  out << title << '\n' << fmt::format("  {:<16}", "");
  for (const core::Signal& c : cols)
    out << fmt::format("{:>14}", c.name + " [" + std::string(core::ToString(c.unit)) + "]");
  out << '\n';
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out << fmt::format("  d{:<15}", rows[i].name + "/dt");
    for (Eigen::Index j = 0; j < m.cols(); ++j) out << fmt::format("{:14.6g}", m(i, j));
    out << '\n';
  }
}

}  // namespace

void WriteMatricesText(std::ostream& out, const model::AircraftData& aircraft,
                       const model::StateSpace& longitudinal, const model::StateSpace& lateral,
                       std::string_view file) {
  out << aircraft.name << "  (" << file << ")\n"
      << "ẋ = A x + B u, SI units (m, s, rad); columns are x (A) and u (B)\n\n";
  WriteMatrix(out, "Longitudinal A", longitudinal.A(), longitudinal.states(), longitudinal.states());
  out << '\n';
  WriteMatrix(out, "Longitudinal B", longitudinal.B(), longitudinal.states(), longitudinal.inputs());
  out << '\n';
  WriteMatrix(out, "Lateral-directional A", lateral.A(), lateral.states(), lateral.states());
  out << '\n';
  WriteMatrix(out, "Lateral-directional B", lateral.B(), lateral.states(), lateral.inputs());
}

}  // namespace aerolin::exporting
