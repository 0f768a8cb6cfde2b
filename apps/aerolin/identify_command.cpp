// `aerolin identify FILE --flight LOG.csv --axis longitudinal|lateral --free KEY,...
//  [--method output-error|equation-error] [--fix-x0] [--fix-bias] [--json] [--write OUT.toml]`:
// estimates the free keys of FILE from a recorded flight, with their standard errors.

#include <iostream>
#include <string>
#include <vector>

#include "aerolin/export/identify_report.hpp"
#include "aerolin/study/identify.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {
namespace {

struct IdentifyOptions {
  std::string file;
  std::string flight;
  std::string axis;
  std::vector<std::string> free;
  std::string method = "output-error";
  bool fix_x0 = false;
  bool fix_bias = false;
  bool json = false;
  std::string write;
};

int RunIdentify(const IdentifyOptions& opt) {
  std::vector<std::string> inputs = AircraftInputFiles(opt.file);
  inputs.push_back(opt.flight);
  if (!opt.write.empty()) CheckOutputs({opt.write}, inputs);
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  study::IdentifySpec spec;
  spec.axis = opt.axis.rfind("lon", 0) == 0 ? model::Axis::kLongitudinal : model::Axis::kLateral;
  spec.free = opt.free;
  spec.method = *study::ParseIdentifyMethod(opt.method);
  spec.estimate_x0 = !opt.fix_x0;
  spec.estimate_bias = !opt.fix_bias;
  try {
    study::CheckFreeKeys(load.file, spec);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--free: ") + e.what());
  }
  const study::IdentifyResult result = study::IdentifyFlightCsv(load.file, opt.flight, spec);
  // The file with the estimates in place: written by --write, and loaded to
  // name and grade the identified modes as `aerolin modes` would.
  const exporting::IdentifiedFile identified = exporting::IdentifiedFileOf(
      core::ReadInputFile(opt.file), opt.file, opt.write.empty() ? opt.file + " (identified)" : opt.write, result);
  OutputRouting out("", opt.json, {});
  if (opt.json)
    std::cout << exporting::IdentifyJson(result, opt.file, opt.flight, identified.levels) << '\n';
  else
    exporting::WriteIdentifyText(std::cout, result, opt.file, opt.flight, identified.levels);
  if (!identified.note.empty()) out.notes() << "note: " << identified.note << '\n';
  if (!opt.write.empty()) {
    CommandOutput file(opt.write);
    file.stream() << identified.text;
    file.Commit();
    out.notes() << "wrote " << opt.write << '\n';
  }
  if (!result.converged) {
    std::cerr << "warning: " << result.stop_reason << '\n';
    return kExitData;
  }
  return 0;
}

}  // namespace

void RegisterIdentifyCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<IdentifyOptions>();
  CLI::App* cmd = app.add_subcommand(
      "identify",
      "Estimate keys of FILE (as written, in its units) from a recorded flight (the CSV of\n"
      "simulate --csv), with Cramér-Rao and coloured-residual standard errors, the fit,\n"
      "and the identified modes with their standard errors and levels (docs/identify.md).");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--flight", opt->flight, "the flight: CSV with t, the axis's states and its controls")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--axis", opt->axis, "longitudinal or lateral")
      ->required()
      ->transform(CLI::IsMember({"longitudinal", "lateral"}, CLI::ignore_case));
  cmd->add_option("--free", opt->free,
                  "the keys to estimate, as written in FILE (longitudinal.Ma,controls.elevator.M)")
      ->required()
      ->delimiter(',');
  cmd->add_option("--method", opt->method, "output-error (default: maximum likelihood) or equation-error")
      ->transform(CLI::IsMember({"output-error", "equation-error"}, CLI::ignore_case));
  cmd->add_flag("--fix-x0", opt->fix_x0, "output error: start at the first sample instead of estimating x0");
  cmd->add_flag("--fix-bias", opt->fix_bias, "output error: estimate no output biases");
  cmd->add_flag("--json", opt->json, "print one JSON object (schema aerolin.identify/1)");
  cmd->add_option("--write", opt->write,
                  "write FILE with the estimates in place of the free keys (every other line kept)")
      ->check(OutputPathValidator());
  cmd->callback([opt, &action] { action = [opt] { return RunIdentify(*opt); }; });
}

}  // namespace aerolin::cli
