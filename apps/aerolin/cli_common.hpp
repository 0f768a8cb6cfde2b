#pragma once
// Shared wiring helpers of the aerolin CLI (not part of the library) that
// need no CLI11: exit codes, usage errors, loading, output routing. CLI11
// costs seconds of compile time in every file that includes it, so only the
// files that register options include it, through cli_options.hpp (the
// option helpers); here CLI::App is only named.

#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/study/limits.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace aerolin::cli {

/// Exit codes: 0 success, 1 bad data (file contents), 2 usage (flags, paths),
/// 3 `simulate` stopped by divergence (the output so far is written),
/// 4 `trim`/`linearize`: no trim (the equation left and the limit that binds).
inline constexpr int kExitData = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitDiverged = 3;
inline constexpr int kExitTrim = 4;

/// Most points a sweep or locus may ask for: the library's limit, the same in
/// every front end (aerolin/study/limits.hpp says why).
inline constexpr int kMaxStudyPoints = study::kMaxStudyPoints;

/// Makes std::cout remember why its first write failed, for
/// FinishStandardOutput (main() calls it first).
void KeepStandardOutputErrors();

/// Flushes standard output. Returns `code` if everything written to it
/// arrived; otherwise prints "error: standard output: ERRNO TEXT" (e.g. "No
/// space left on device" for `> /dev/full`) and returns kExitData; for a
/// closed pipe (EPIPE, `| head -1` with SIGPIPE ignored) returns kExitData
/// quietly, as other Unix tools end.
int FinishStandardOutput(int code);

/// A usage error found after parsing (e.g. flags that disagree); exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A subcommand's action; returns the process exit code.
using Action = std::function<int()>;

/// Remembers the process's arguments (for a command that hands them on).
void SetCommandLine(int argc, char** argv);
/// The arguments given to SetCommandLine, argv[0] first.
const std::vector<std::string>& CommandLine();

/// The commands that install what `aerolin-plot` needs (MathGL, librsvg: the
/// quick start's scripts/run.sh installs neither) and build it into build/bin.
inline constexpr const char* kBuildPlotterCommand =
    "scripts/install-deps.sh --plotter && scripts/build.sh --plotter";

/// Replaces this process with `aerolin-plot` (beside this executable) run
/// with the same arguments, so that `aerolin` itself never loads MathGL
/// (figures.hpp); returns only by throwing.
/// @throws UsageError (exit 2) if `aerolin-plot` is not there (scripts/run.sh
///         builds `aerolin` alone), saying kBuildPlotterCommand builds it.
/// @throws std::runtime_error if it is there but cannot be run.
int ReplaceWithPlotter();

/// Loads the aircraft file, printing its warnings to stderr as
/// "warning: path:line: ...". Throws as data::LoadAircraftFile, and with
/// --strict (AddAircraftFileArgument) throws core::DataError holding the
/// warnings instead of printing them (exit 1).
model::AircraftData LoadAircraftReportingWarnings(const std::string& path);

/// As LoadAircraftReportingWarnings, returning the whole load (with the file as written).
data::LoadResult LoadFileReportingWarnings(const std::string& path);

/// The files a run on the aircraft file `path` reads (data::LoadResult::files:
/// the file and the AVL `.st` and `.mass` files it names), for CheckOutputs
/// before the command loads it; the load is kept for the command's
/// LoadFileReportingWarnings of the same path. A file that does not load
/// gives {path} (the command's load then reports why, before any output).
std::vector<std::string> AircraftInputFiles(const std::string& path);

/// --strict of the running command: set by the flag AddAircraftFileArgument
/// adds (cli_options.hpp), read by LoadFileReportingWarnings.
bool& StrictWarnings();

/// Checks each of `outputs` with core::CheckOutputPath against `inputs`
/// (before any long computation); "-" (standard output) passes.
/// @throws UsageError naming the output and the reason.
void CheckOutputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

/// Throws UsageError "--format needs --plot PREFIX" when `formats` (of
/// AddFigureOptions) asks for more than the default png and `plot` is empty:
/// a format without figures would be a silent no-op.
void CheckFormatsHavePlot(const std::vector<std::string>& formats, const std::string& plot);

/// The path that names standard output for a data output (`--csv -`).
inline constexpr const char* kStandardOutputPath = "-";
/// True for "-" and for the paths that name this process's standard output
/// (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`): written through std::cout,
/// so a report on standard output cannot overwrite them (the file behind a
/// shell's `> out.txt` is shared, offset and all).
inline bool IsStandardOutput(const std::string& path) {
  return path == kStandardOutputPath || path == "/dev/stdout" || path == "/dev/fd/1" ||
         path == "/proc/self/fd/1";
}

/// A data output named on the command line: the file at `path`, written
/// atomically (core::AtomicOutput), or standard output for "-".
class CommandOutput {
 public:
  /// @throws std::runtime_error as core::AtomicOutput.
  explicit CommandOutput(const std::string& path);
  std::ostream& stream();
  /// Renames the file over `path`, or flushes standard output.
  void Commit();

 private:
  std::optional<core::AtomicOutput> file_;
};

/// Where a command's outputs go. A data output named by a flag (`--csv OUT`)
/// is a file written atomically, or standard output for "-"; the report then
/// goes to stderr, so that standard output holds the data alone. Side lines
/// (figure paths, notes) go to stderr whenever standard output holds the data
/// or a JSON document.
class OutputRouting {
 public:
  /// `data_path` empty: no data output. Checks `data_path` against `inputs`
  /// at once, before any long computation.
  /// @throws UsageError as CheckOutputs.
  OutputRouting(std::string data_path, bool json, const std::vector<std::string>& inputs);
  bool has_data() const { return !data_path_.empty(); }
  /// Opens the data output and returns its stream (standard output for "-").
  /// @pre has_data(). @throws std::runtime_error as core::AtomicOutput.
  std::ostream& OpenData();
  /// Renames the data file over its path (or flushes standard output), if open.
  void CommitData();
  /// Writes the whole data output with `write(stream)` and commits it;
  /// nothing without a data output.
  template <typename Write>
  void WriteData(Write write) {
    if (!has_data()) return;
    write(OpenData());
    CommitData();
  }
  /// Standard output, or stderr when the data goes to standard output.
  std::ostream& report() const;
  /// Standard output, or stderr when it holds the data or a JSON document.
  std::ostream& notes() const;

 private:
  std::string data_path_;
  bool json_;
  std::optional<CommandOutput> data_;
};

/// The outputs of `axis` that --output accepts, as in model::JoinNames: its
/// states, then its derived outputs, e.g. "u, alpha, q, theta, nz, gamma".
std::string OutputNames(model::Axis axis);

/// The modes a flight can start on (--excite) and a locus can maximize, as
/// their CLI spellings (analysis::CliName): short-period, phugoid,
/// dutch-roll, roll, spiral, roll-spiral. (Heading, a free integrator, is no
/// mode to start on.)
const std::vector<std::string>& StartableModeNames();

/// Writes what the conversion of an AVL `.st` file assumed (load.avl_notes:
/// the quasi-steady model, an estimated CDa, ...) as a titled list; nothing
/// for other files. For the text outputs of `matrices` and `modes --verbose`.
void WriteAvlNotes(std::ostream& out, const data::LoadResult& load);

// Registration functions, one per *_command.cpp. Each adds its subcommand to
// `app` and stores the action to run in `action` when it is selected.
void RegisterModesCommand(CLI::App& app, Action& action);
void RegisterMatricesCommand(CLI::App& app, Action& action);
void RegisterSimulateCommand(CLI::App& app, Action& action);
void RegisterPlotCommand(CLI::App& app, Action& action);
void RegisterQualitiesCommand(CLI::App& app, Action& action);
void RegisterSweepCommand(CLI::App& app, Action& action);
void RegisterLocusCommand(CLI::App& app, Action& action);
void RegisterTfCommand(CLI::App& app, Action& action);
void RegisterBodeCommand(CLI::App& app, Action& action);
void RegisterRmsCommand(CLI::App& app, Action& action);
void RegisterAugmentCommand(CLI::App& app, Action& action);
void RegisterTrimCommand(CLI::App& app, Action& action);
void RegisterLinearizeCommand(CLI::App& app, Action& action);
void RegisterIdentifyCommand(CLI::App& app, Action& action);

}  // namespace aerolin::cli
