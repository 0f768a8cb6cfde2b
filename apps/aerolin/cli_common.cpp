#include "cli_common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <cmath>
#include <limits>
#include <iostream>
#include <stdexcept>

#include "aerolin/core/files.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/study/flight_setup.hpp"

namespace aerolin::cli {
namespace {
std::vector<std::string>& Arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}

// --strict of the running command (every command that loads a file has it).
bool& Strict() {
  static bool strict = false;
  return strict;
}
}  // namespace

void SetCommandLine(int argc, char** argv) { Arguments().assign(argv, argv + argc); }

const std::vector<std::string>& CommandLine() { return Arguments(); }

model::AircraftData LoadAircraftReportingWarnings(const std::string& path) {
  return std::move(LoadFileReportingWarnings(path).aircraft);
}

data::LoadResult LoadFileReportingWarnings(const std::string& path) {
  data::LoadResult result = data::LoadAircraftFile(path);
  if (Strict() && !result.warnings.empty()) throw core::DataError(result.warnings);
  for (const core::Diagnostic& w : result.warnings)
    std::cerr << "warning: " << w.ToString() << '\n';
  return result;
}

void WriteAvlNotes(std::ostream& out, const data::LoadResult& load) {
  if (load.avl_notes.empty()) return;
  out << "\nAssumed in converting the AVL stability derivatives:\n";
  for (const std::string& note : load.avl_notes) out << "  - " << note << '\n';
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

CLI::Validator Finite() {
  return FiniteAtLeast(-std::numeric_limits<double>::infinity(), false, "of any sign");
}

void CheckOutputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  for (const std::string& output : outputs) {
    if (IsStandardOutput(output)) continue;
    try {
      core::CheckOutputPath(output, inputs);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
  }
}

void AddFigureOptions(CLI::App& cmd, std::vector<std::string>& formats, int& width, int& height) {
  cmd.add_option("--format", formats, "comma-separated figure formats: png, svg, eps, pdf")
      ->delimiter(',')
      ->transform(CLI::IsMember({"png", "svg", "eps", "pdf"}, CLI::ignore_case))
      ->default_str("png");
  AddFigureSizeOptions(cmd, width, height);
}

void AddFigureSizeOptions(CLI::App& cmd, int& width, int& height) {
  cmd.add_option("--width", width, "image width [px], 200 to 8192")
      ->default_val(1200)
      ->check(CLI::Range(200, 8192));
  cmd.add_option("--height", height, "image height [px], 200 to 8192")
      ->default_val(900)
      ->check(CLI::Range(200, 8192));
}

void AddUnitsOption(CLI::App& cmd, std::string& units, const std::string& description) {
  cmd.add_option("--units", units, description)
      ->transform(CLI::IsMember({"si", "imperial"}, CLI::ignore_case))
      ->default_val("si");
}

CommandOutput::CommandOutput(const std::string& path) {
  if (!IsStandardOutput(path)) file_.emplace(path);
}

std::ostream& CommandOutput::stream() { return file_ ? file_->stream() : std::cout; }

void CommandOutput::Commit() {
  if (file_)
    file_->Commit();
  else
    std::cout.flush();
}

OutputRouting::OutputRouting(std::string data_path, bool json,
                             const std::vector<std::string>& inputs)
    : data_path_(std::move(data_path)), json_(json) {
  if (has_data()) CheckOutputs({data_path_}, inputs);
}

std::ostream& OutputRouting::OpenData() { return data_.emplace(data_path_).stream(); }

void OutputRouting::CommitData() {
  if (data_) data_->Commit();
}

std::ostream& OutputRouting::report() const {
  return IsStandardOutput(data_path_) ? std::cerr : std::cout;
}

std::ostream& OutputRouting::notes() const {
  return json_ || IsStandardOutput(data_path_) ? std::cerr : std::cout;
}

std::string OutputNames(model::Axis axis) {
  return model::JoinNames(model::StateSignals(axis)) + ", " +
         model::JoinNames(model::DerivedOutputSignals(axis));
}

const std::vector<std::string>& StartableModeNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (analysis::ModeKind kind : study::StartableModes())
      out.emplace_back(analysis::CliName(kind));
    return out;
  }();
  return names;
}

void AddAircraftFileArgument(CLI::App& cmd, std::string& path) {
  cmd.add_option("FILE", path,
                 "aircraft data file (TOML), e.g. data/derivatives/p2v7.toml")
      ->required()
      ->check(CLI::ExistingFile);
  cmd.add_flag("--strict", Strict(),
               "treat the data file's warnings (implausible signs and sizes, a table that\n"
               "looks typed per degree) as errors: print them and exit 1");
}

int ReplaceWithPlotter() {
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
                           " (aerolin draws figures with aerolin-plot, built beside aerolin)");
}

}  // namespace aerolin::cli
