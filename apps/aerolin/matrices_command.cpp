// `aerolin matrices FILE [--json]`: the state-space matrices A and B, labelled.

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "aerolin/model/build.hpp"

namespace aerolin::cli {
namespace {

struct MatricesOptions {
  std::string file;
  bool json = false;
};

void PrintMatrix(std::ostream& out, const std::string& title, const Eigen::MatrixXd& m,
                 const std::vector<core::Signal>& rows, const std::vector<core::Signal>& cols) {
  out << title << '\n';
  char buf[64];
  std::snprintf(buf, sizeof buf, "  %-16s", "");
  out << buf;
  for (const core::Signal& c : cols) {
    std::snprintf(buf, sizeof buf, "%14s", (c.name + " [" + std::string(core::ToString(c.unit)) + "]").c_str());
    out << buf;
  }
  out << '\n';
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    std::snprintf(buf, sizeof buf, "  d%-15s", (rows[i].name + "/dt").c_str());
    out << buf;
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      std::snprintf(buf, sizeof buf, "%14.6g", m(i, j));
      out << buf;
    }
    out << '\n';
  }
}

nlohmann::json MatrixJson(const Eigen::MatrixXd& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

nlohmann::json SignalsJson(const std::vector<core::Signal>& signals) {
  nlohmann::json list = nlohmann::json::array();
  for (const core::Signal& s : signals) list.push_back({{"name", s.name}, {"unit", core::ToString(s.unit)}});
  return list;
}

int RunMatrices(const MatricesOptions& opt) {
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const model::StateSpace lon = model::BuildLongitudinal(aircraft);
  const model::StateSpace lat = model::BuildLateral(aircraft);
  if (opt.json) {
    auto system = [](const model::StateSpace& s) {
      return nlohmann::json{{"states", SignalsJson(s.states())},
                            {"inputs", SignalsJson(s.inputs())},
                            {"A", MatrixJson(s.A())},
                            {"B", MatrixJson(s.B())}};
    };
    std::cout << nlohmann::json{{"schema", "aerolin.matrices/1"},
                                {"file", opt.file},
                                {"aircraft", aircraft.name},
                                {"longitudinal", system(lon)},
                                {"lateral", system(lat)}}
                     .dump(2)
              << '\n';
    return 0;
  }
  std::cout << aircraft.name << "  (" << opt.file << ")\n"
            << "ẋ = A x + B u, SI units (m, s, rad); columns are x (A) and u (B)\n\n";
  PrintMatrix(std::cout, "Longitudinal A", lon.A(), lon.states(), lon.states());
  std::cout << '\n';
  PrintMatrix(std::cout, "Longitudinal B", lon.B(), lon.states(), lon.inputs());
  std::cout << '\n';
  PrintMatrix(std::cout, "Lateral-directional A", lat.A(), lat.states(), lat.states());
  std::cout << '\n';
  PrintMatrix(std::cout, "Lateral-directional B", lat.B(), lat.states(), lat.inputs());
  return 0;
}

}  // namespace

void RegisterMatricesCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<MatricesOptions>();
  CLI::App* cmd = app.add_subcommand(
      "matrices", "The longitudinal and lateral state-space matrices A and B (SI), labelled.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.matrices/1)");
  cmd->callback([opt, &action] { action = [opt] { return RunMatrices(*opt); }; });
}

}  // namespace aerolin::cli
