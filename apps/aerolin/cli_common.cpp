#include "cli_common.hpp"

#include <cmath>
#include <iostream>

#include "aerolin/core/files.hpp"

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
  data::LoadResult result = data::LoadAircraftFile(path);
  for (const core::Diagnostic& w : result.warnings)
    std::cerr << "warning: " << w.ToString() << '\n';
  return std::move(result.aircraft);
}

namespace {
CLI::Validator FiniteAtLeast(double lowest, bool strict, const std::string& description) {
  return CLI::Validator(
      [=](std::string& input) -> std::string {
        double value = 0.0;
        if (!CLI::detail::lexical_cast(input, value) || !std::isfinite(value) ||
            (strict ? !(value > lowest) : !(value >= lowest)))
          return "expected a finite number " + description + ", got '" + input + "'";
        return {};
      },
      description);
}
}  // namespace

CLI::Validator PositiveFinite() { return FiniteAtLeast(0.0, true, "> 0"); }

CLI::Validator NonNegativeFinite() { return FiniteAtLeast(0.0, false, ">= 0"); }

void CheckOutputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  for (const std::string& output : outputs) {
    try {
      core::CheckOutputPath(output, inputs);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
}

void AddAircraftFileArgument(CLI::App& cmd, std::string& path) {
  cmd.add_option("FILE", path,
                 "aircraft data file (TOML), e.g. data/derivatives/p2v7.toml")
      ->required()
      ->check(CLI::ExistingFile);
}

}  // namespace aerolin::cli
