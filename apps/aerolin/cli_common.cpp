#include "cli_common.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>
#include <iostream>
#include <stdexcept>

#include "aerolin/core/files.hpp"
#include "aerolin/model/outputs.hpp"
#include "aerolin/study/flight_setup.hpp"
#include "aerolin/core/messages.hpp"

namespace aerolin::cli {
namespace {
std::vector<std::string>& Arguments() {
  static std::vector<std::string> arguments;
  return arguments;
}
}  // namespace

bool& StrictWarnings() {
  static bool strict = false;
  return strict;
}

void SetCommandLine(int argc, char** argv) { Arguments().assign(argv, argv + argc); }

const std::vector<std::string>& CommandLine() { return Arguments(); }

model::AircraftData LoadAircraftReportingWarnings(const std::string& path) {
  return std::move(LoadFileReportingWarnings(path).aircraft);
}

namespace {
// The load AircraftInputFiles made for the output checks, kept for the
// command's own load (LoadFileReportingWarnings) so that the file is read once.
std::optional<std::pair<std::string, data::LoadResult>>& EarlyLoad() {
  static std::optional<std::pair<std::string, data::LoadResult>> load;
  return load;
}
}  // namespace

std::vector<std::string> AircraftInputFiles(const std::string& path) {
  try {
    data::LoadResult load = data::LoadAircraftFile(path);
    std::vector<std::string> files = load.files;
    EarlyLoad().emplace(path, std::move(load));
    return files;
  } catch (const std::exception&) {
    // Reported by the command's own load, before anything is written.
    return {path};
  }
}

data::LoadResult LoadFileReportingWarnings(const std::string& path) {
  std::optional<std::pair<std::string, data::LoadResult>>& early = EarlyLoad();
  data::LoadResult result = early && early->first == path ? std::move(early->second)
                                                          : data::LoadAircraftFile(path);
  early.reset();
  if (StrictWarnings() && !result.warnings.empty()) throw core::DataError(result.warnings);
  // The first core::kMaxReportedDiagnostics, then a count of the rest.
  if (!result.warnings.empty())
    std::cerr << core::JoinDiagnostics(result.warnings, "warnings", "warning: ") << '\n';
  return result;
}

void WriteAvlNotes(std::ostream& out, const data::LoadResult& load) {
  if (load.avl_notes.empty()) return;
  out << "\nAssumed in converting the AVL stability derivatives:\n";
  for (const std::string& note : load.avl_notes) out << "  - " << note << '\n';
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

void CheckFormatsHavePlot(const std::vector<std::string>& formats, const std::string& plot) {
  if (plot.empty())
    for (const std::string& f : formats)
      if (f != "png") throw UsageError("--format needs --plot PREFIX");
}

namespace {
// Forwards std::cout's output to its own (stdio-synchronized) buffer and
// keeps the errno of the first failed write: the stream goes bad at that
// write and writes nothing more, so by the final flush the errno is gone.
class ErrorKeepingBuffer final : public std::streambuf {
 public:
  void Attach() {
    if (inner_ == nullptr) inner_ = std::cout.rdbuf(this);
  }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    errno = 0;
    const int_type put = inner_->sputc(traits_type::to_char_type(c));
    if (traits_type::eq_int_type(put, traits_type::eof())) Keep();
    return put;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    errno = 0;
    const std::streamsize put = inner_->sputn(s, n);
    if (put < n) Keep();
    return put;
  }
  int sync() override {
    errno = 0;
    const int result = inner_->pubsync();
    if (result != 0) Keep();
    return result;
  }

 private:
  void Keep() {
    if (error_ == 0) error_ = errno != 0 ? errno : EIO;
  }
  std::streambuf* inner_ = nullptr;
  int error_ = 0;
};

ErrorKeepingBuffer& StandardOutputBuffer() {
  static ErrorKeepingBuffer buffer;
  return buffer;
}

// 0 if everything written to standard output arrived, else the errno of the
// first failure (EIO if it was lost).
int FlushStandardOutput() {
  errno = 0;
  std::cout.flush();
  const bool stream_failed = !std::cout;
  const int flush_failed = std::fflush(stdout);
  const int flush_error = errno;
  if (!stream_failed && flush_failed == 0 && !std::ferror(stdout)) return 0;
  if (StandardOutputBuffer().error() != 0) return StandardOutputBuffer().error();
  return flush_error != 0 ? flush_error : EIO;
}
}  // namespace

void KeepStandardOutputErrors() { StandardOutputBuffer().Attach(); }

int FinishStandardOutput(int code) {
  const int error = FlushStandardOutput();
  if (error == 0) return code;
  if (error != EPIPE) std::cerr << "error: standard output: " << std::strerror(error) << '\n';
  return code != 0 ? code : kExitData;
}

CommandOutput::CommandOutput(const std::string& path) {
  if (!IsStandardOutput(path)) file_.emplace(path);
}

std::ostream& CommandOutput::stream() { return file_ ? file_->stream() : std::cout; }

void CommandOutput::Commit() {
  if (file_) {
    file_->Commit();
  } else if (const int error = FlushStandardOutput(); error != 0 && error != EPIPE) {
    throw std::runtime_error(std::string("standard output: ") + std::strerror(error));
  }
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
  if (errno == ENOENT)
    throw UsageError("figures are drawn by aerolin-plot, which is not built ('" + plotter +
                     "' does not exist); build it with: " + kBuildPlotterCommand);
  throw std::runtime_error("cannot run '" + plotter + "': " + std::strerror(errno) +
                           " (aerolin draws figures with aerolin-plot, built beside aerolin)");
}

}  // namespace aerolin::cli
