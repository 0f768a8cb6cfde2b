#include "cli_common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

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

int RunInPlotter() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot locate the aerolin executable: " + ec.message());
  const std::string plotter = (self.parent_path() / "aerolin-plot").string();
  std::vector<std::string> arguments = CommandLine();
  arguments.at(0) = plotter;
  std::vector<char*> argv;
  for (std::string& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();
  execv(plotter.c_str(), argv.data());
  throw std::runtime_error("cannot run '" + plotter + "': " + std::strerror(errno) +
                           " (figures are drawn by aerolin-plot, built beside aerolin)");
}

void AddAircraftFileArgument(CLI::App& cmd, std::string& path) {
  cmd.add_option("FILE", path,
                 "aircraft data file (TOML), e.g. data/derivatives/p2v7.toml")
      ->required()
      ->check(CLI::ExistingFile);
}

}  // namespace aerolin::cli
