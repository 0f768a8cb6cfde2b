#include "cli_common.hpp"

#include <iostream>

namespace aerolin::cli {
namespace {
std::vector<std::string>& Arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}
}  // namespace

void SetCommandLine(int argc, char** argv) { Arguments().assign(argv, argv + argc); }

const std::vector<std::string>& CommandLine() { return Arguments(); }

model::AircraftData LoadAircraftReportingWarnings(const std::string& path) {
  return std::move(LoadFileReportingWarnings(path).aircraft);
}

data::LoadResult LoadFileReportingWarnings(const std::string& path) {
  data::LoadResult result = data::LoadAircraftFile(path);
  for (const core::Diagnostic& w : result.warnings)
    std::cerr << "warning: " << w.ToString() << '\n';
  return result;
}

void AddAircraftFileArgument(CLI::App& cmd, std::string& path) {
  cmd.add_option("FILE", path,
                 "aircraft data file (TOML), e.g. data/derivatives/p2v7.toml")
      ->required()
      ->check(CLI::ExistingFile);
}

}  // namespace aerolin::cli
