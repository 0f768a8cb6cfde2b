// `aerolin trim FILE --speed V --altitude H [--gamma DEG] [--turn-rate DEG/S | --bank DEG]
//  [--sideslip DEG] [--json]` and `aerolin linearize FILE [trim options] [--write OUT.toml]
//  [--json]`: the nonlinear 6-DOF model's trim and its linearization (study/trim.hpp,
//  study/linearize.hpp; docs/nonlinear.md).

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "aerolin/core/units.hpp"
#include "aerolin/export/nonlinear_report.hpp"
#include "aerolin/study/linearize.hpp"
#include "aerolin/study/trim.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {
namespace {

struct TrimOptions {
  std::string file;
  std::optional<double> speed;     // file's speed unit
  std::optional<double> altitude;  // file's length unit
  std::optional<double> gamma_deg;
  std::optional<double> turn_rate_deg_s;
  std::optional<double> bank_deg;
  double sideslip_deg = 0.0;
  bool json = false;
  std::string write;
};

// True if any trim option is given (linearize: else at the file's reference).
bool Asked(const TrimOptions& opt) {
  return opt.speed || opt.altitude || opt.gamma_deg || opt.turn_rate_deg_s || opt.bank_deg ||
         opt.sideslip_deg != 0.0;
}

// The request the flags ask for, SI: speeds and heights in the file's units
// (as simulate's flags); without --speed or --altitude, the reference's; γ
// level unless --gamma, once any trim option is given.
study::TrimRequest RequestOf(const TrimOptions& opt, const data::LoadResult& load) {
  study::TrimRequest r = study::ReferenceRequest(load.aircraft);
  if (opt.speed) r.speed = core::ToSI(*opt.speed, load.units, core::kSpeed);
  if (opt.altitude) r.altitude = core::ToSI(*opt.altitude, load.units, core::kLength);
  if (Asked(opt)) r.gamma = opt.gamma_deg.value_or(0.0) * core::kDegToRad;
  if (opt.turn_rate_deg_s) r.turn_rate = *opt.turn_rate_deg_s * core::kDegToRad;
  if (opt.bank_deg) r.bank = *opt.bank_deg * core::kDegToRad;
  r.sideslip = opt.sideslip_deg * core::kDegToRad;
  return r;
}

// A trim that does not exist: exit kExitTrim with the solver's reason.
int TrimFailed(const study::TrimError& e) {
  std::cerr << "error: trim: " << e.what() << '\n';
  return kExitTrim;
}

int RunTrim(const TrimOptions& opt) {
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  const study::TrimRequest request = RequestOf(opt, load);
  const exporting::NonlinearReportHeader header{opt.file, load.aircraft.name, request};
  try {
    const study::TrimResult result = study::Trim(load.aircraft, request);
    if (opt.json)
      std::cout << exporting::TrimJson(header, result) << '\n';
    else
      exporting::WriteTrimText(std::cout, header, result);
  } catch (const study::TrimError& e) {
    return TrimFailed(e);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return 0;
}

int RunLinearize(const TrimOptions& opt) {
  OutputRouting routing(opt.write, opt.json, AircraftInputFiles(opt.file));
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  const bool asked = Asked(opt);
  const study::TrimRequest request = RequestOf(opt, load);
  const exporting::NonlinearReportHeader header{opt.file, load.aircraft.name, request};
  std::optional<study::LinearizeResult> result;
  try {
    result = study::Linearize(load.aircraft, asked ? std::optional(request) : std::nullopt);
  } catch (const study::TrimError& e) {
    return TrimFailed(e);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  if (opt.json)
    routing.report() << exporting::LinearizeJson(header, *result) << '\n';
  else
    exporting::WriteLinearizeText(routing.report(), header, *result);
  if (routing.has_data()) {
    std::string command = "aerolin";
    for (std::size_t k = 1; k < CommandLine().size(); ++k) command += " " + CommandLine()[k];
    routing.WriteData(
        [&](std::ostream& out) { out << exporting::LinearizedToml(header, *result, command); });
    if (!IsStandardOutput(opt.write))
      routing.notes() << (opt.json ? "" : "\n") << "wrote " << opt.write
                      << " (the linearization as a data file: every command reads it)\n";
  }
  return 0;
}

void AddTrimOptions(CLI::App& cmd, TrimOptions& opt, bool required) {
  AddAircraftFileArgument(cmd, opt.file);
  CLI::Option* speed = cmd.add_option("--speed", opt.speed,
                                      "airspeed V in the file's speed unit (as simulate's flags)")
                           ->check(PositiveFinite());
  CLI::Option* altitude =
      cmd.add_option("--altitude", opt.altitude, "altitude H in the file's length unit")
          ->check(Finite());
  if (required) {
    speed->required();
    altitude->required();
  }
  cmd.add_option("--gamma", opt.gamma_deg, "flight-path angle [deg] (default 0: level)")
      ->check(CLI::Range(-89.0, 89.0));
  CLI::Option* turn = cmd.add_option("--turn-rate", opt.turn_rate_deg_s,
                                     "steady turn rate [deg/s] (> 0 turns right)")
                          ->check(Finite());
  CLI::Option* bank =
      cmd.add_option("--bank", opt.bank_deg, "bank angle [deg] of a steady turn")
          ->check(CLI::Range(-89.0, 89.0));
  turn->excludes(bank);
  cmd.add_option("--sideslip", opt.sideslip_deg, "sideslip [deg] (default 0: coordinated)")
      ->check(CLI::Range(-89.0, 89.0));
  cmd.add_flag("--json", opt.json, required ? "print one JSON object (schema aerolin.trim/1)"
                                            : "print one JSON object (schema aerolin.linearize/1)");
}

}  // namespace

void RegisterTrimCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<TrimOptions>();
  CLI::App* cmd = app.add_subcommand(
      "trim",
      "Trim the nonlinear 6-DOF model (the file's derivatives as a linear aerodynamic model):\n"
      "alpha, attitude, controls and throttle (or thrust) of steady straight, climbing and\n"
      "turning flight. A trim that does not exist exits 4 and names the equation left and\n"
      "the limit that binds (docs/nonlinear.md).");
  AddTrimOptions(*cmd, *opt, true);
  cmd->callback([opt, &action] { action = [opt] { return RunTrim(*opt); }; });
}

void RegisterLinearizeCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<TrimOptions>();
  CLI::App* cmd = app.add_subcommand(
      "linearize",
      "Linearize the nonlinear 6-DOF model at a trim (default: the file's reference) into\n"
      "the file's normalized derivatives; --write makes a data file every command reads.");
  AddTrimOptions(*cmd, *opt, false);
  cmd->add_option("--write", opt->write,
                  "also write OUT.toml: the linearization as a data file ('-': standard output)")
      ->check(OutputPathValidator());
  cmd->callback([opt, &action] { action = [opt] { return RunLinearize(*opt); }; });
}

}  // namespace aerolin::cli
