// `aerolin tf FILE --input CONTROL (--output OUTPUT | --all) [--json]
//  [--units si|imperial]`: transfer functions in factored textbook form.

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/study/closed_loop.hpp"
#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/frequency_report.hpp"
#include "aerolin/model/outputs.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {
namespace {

struct TfOptions {
  std::string file;
  std::string input;
  std::string output;
  bool all = false;
  bool json = false;
  std::string units = "si";
};

int RunTf(const TfOptions& opt) {
  if (opt.all == !opt.output.empty())
    throw UsageError("give exactly one of --output OUTPUT and --all");
  const model::AircraftData aircraft = LoadAircraftReportingWarnings(opt.file);
  const analysis::ModalAnalysis modes = study::AnalyzeClosedLoop(aircraft);
  std::vector<std::string> outputs = {opt.output};
  if (opt.all) {
    // Every output of the axis the control enters (longitudinal first).
    outputs.clear();
    for (const model::Control& c : aircraft.controls)
      if (c.name == opt.input) {
        const model::Axis axis = c.longitudinal ? model::Axis::kLongitudinal : model::Axis::kLateral;
        const model::StateSpace sys =
            model::WithDerivedOutputs(modes.model_of(axis), axis, aircraft.condition);
        for (const core::Signal& s : sys.outputs()) outputs.push_back(s.name);
      }
    if (outputs.empty()) outputs.push_back("u");  // no such control: ResolveChannel says so
  }
  analysis::Channel channel = [&] {
    try {
      return analysis::ResolveChannel(aircraft, modes, opt.input, outputs);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }();
  std::vector<analysis::TransferFunction> tfs;
  for (std::size_t k = 0; k < channel.outputs.size(); ++k)
    tfs.push_back(analysis::ChannelTransferFunction(channel, modes, k));
  const core::UnitSystem units = *core::ParseUnitSystem(opt.units);
  if (opt.json) {
    std::cout << exporting::TransferFunctionJson(aircraft, opt.file, tfs, opt.all, units) << '\n';
    return 0;
  }
  exporting::WriteTransferFunctionHeading(std::cout, aircraft, opt.file, channel.axis, units);
  for (std::size_t k = 0; k < tfs.size(); ++k) {
    if (k > 0) std::cout << '\n';
    exporting::WriteTransferFunctionText(std::cout, tfs[k], units);
  }
  return 0;
}

}  // namespace

void RegisterTfCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<TfOptions>();
  CLI::App* cmd = app.add_subcommand(
      "tf",
      "Transfer function from a control to an output in factored textbook form:\n"
      "high-frequency gain, zeros, poles named by mode, DC gain, cancelled pairs,\n"
      "non-minimum-phase zeros.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--input", opt->input, "control name as in the data file, e.g. elevator")
      ->required();
  cmd->add_option("--output", opt->output,
                  OutputNames(model::Axis::kLongitudinal) + " (longitudinal) or " +
                      OutputNames(model::Axis::kLateral));
  cmd->add_flag("--all", opt->all, "every output of the control's axis");
  cmd->add_flag("--json", opt->json, "one JSON object (schema aerolin.tf/1)");
  AddUnitsOption(*cmd, opt->units, "speeds (u) in si (m/s) or imperial (ft/s)");
  cmd->callback([opt, &action] { action = [opt] { return RunTf(*opt); }; });
}

}  // namespace aerolin::cli
