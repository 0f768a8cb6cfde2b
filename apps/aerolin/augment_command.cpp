// `aerolin augment FILE --axis longitudinal|lateral (--lqr [--max NAME=VALUE,...]
//  [--Q W,... --R W,...] | --place POLES) [--inputs NAME,...] [--heading] [--json]
//  [--write OUT.toml]`, or `aerolin augment FILE --loop INPUT:OUTPUT=K[,washout=TAU] ...`:
// full-state feedback designed by LQR or pole placement, or output-feedback
// loops at given gains, the closed loop's modes named and graded beside the
// bare aircraft's (study/augment.hpp); with `--disturbance STATE=VALUE,...
// [--actuator NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]]]`, each input's command at
// that disturbance against its position stop (study/saturation.hpp).

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/model/conventions.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/export/augment_report.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/loops.hpp"
#include "aerolin/study/mil_std_1797.hpp"
#include "aerolin/study/saturation.hpp"
#include "cli_options.hpp"

namespace aerolin::cli {
namespace {

struct AugmentOptions {
  std::string file;
  std::string axis;
  bool lqr = false;
  std::string place;
  std::string q;
  std::string r;
  std::string max;
  std::string inputs;
  bool heading = false;
  bool json = false;
  std::string write;
  std::vector<std::string> loops;
  std::string disturbance;             // STATE=VALUE[UNIT],...
  std::vector<std::string> actuators;  // NAME=TAU[:LIMIT_DEG[:RATE_DEG_S]], as qualities takes them
};

// "a,b,c" → {"a", "b", "c"}; an empty entry is a usage error.
std::vector<std::string> SplitList(const std::string& text, const std::string& flag) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) throw UsageError(flag + ": an empty entry in '" + text + "'");
    items.push_back(item);
  }
  if (items.empty()) throw UsageError(flag + ": no entries");
  return items;
}

std::vector<double> Weights(const std::string& text, const std::string& flag) {
  std::vector<double> w;
  for (const std::string& item : SplitList(text, flag)) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || !std::isfinite(v) || v < 0)
      throw UsageError(flag + ": '" + item + "' is not a finite weight >= 0 (SI)");
    w.push_back(v);
  }
  return w;
}

int RunAugment(const AugmentOptions& opt) {
  if (!opt.loops.empty() && (opt.lqr || !opt.place.empty() || !opt.inputs.empty() || opt.heading))
    throw UsageError("augment: --loop is a design of its own (output feedback at given gains): give it "
                     "without --lqr, --place, --inputs and --heading (LQR and pole placement design one "
                     "axis, --axis; loops may act on both axes in one run)");
  if (opt.loops.empty() && opt.axis.empty())
    throw UsageError("augment: --axis longitudinal|lateral is required (or --loop INPUT:OUTPUT=GAIN)");
  if (opt.loops.empty() && opt.lqr == !opt.place.empty())
    throw UsageError("augment: give one of --lqr and --place POLES");
  if (!opt.lqr && (!opt.q.empty() || !opt.r.empty() || !opt.max.empty()))
    throw UsageError("augment: --Q, --R and --max are LQR weights: they need --lqr");
  if (opt.q.empty() != opt.r.empty())
    throw UsageError("augment: --Q and --R go together (or neither: Bryson's rule, --max)");
  if (!opt.q.empty() && !opt.max.empty())
    throw UsageError("augment: --max (Bryson's rule) and --Q/--R (explicit weights) exclude each other");
  if (!opt.actuators.empty() && opt.disturbance.empty())
    throw UsageError("augment: --actuator gives the position stops that --disturbance checks the commands "
                     "against: give it with --disturbance STATE=VALUE,...");
  study::AugmentSpec spec;
  spec.axis = opt.axis.rfind("lon", 0) == 0 ? model::Axis::kLongitudinal : model::Axis::kLateral;
  spec.method = !opt.loops.empty() ? study::DesignMethod::kLoops
                : opt.lqr          ? study::DesignMethod::kLqr
                                   : study::DesignMethod::kPlace;
  for (const std::string& text : opt.loops) {
    try {
      spec.loops.push_back(study::ParseLoop(text));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--loop: ") + e.what());
    }
    if (!spec.loops.back().gain)
      throw UsageError("--loop: " + text + " needs its gain, INPUT:OUTPUT=GAIN (e.g. rudder:r=1.5)");
  }
  spec.include_integrators = opt.heading;
  if (!opt.inputs.empty()) spec.inputs = SplitList(opt.inputs, "--inputs");
  if (!opt.q.empty()) {
    spec.q_diagonal = Weights(opt.q, "--Q");
    spec.r_diagonal = Weights(opt.r, "--R");
  }
  // The written file is the data file with a section added: checked before
  // the design (it must not overwrite an input; an AVL file's relative paths
  // must still hold from its folder).
  OutputRouting routing(opt.write, opt.json, AircraftInputFiles(opt.file));
  const data::LoadResult load = LoadFileReportingWarnings(opt.file);
  const model::AircraftData& aircraft = load.aircraft;
  // The position stops: the file's [actuators], then --actuator's.
  const model::CommandPath stops = [&] {
    try {
      return study::ResolveCommandPath(aircraft, opt.file, opt.actuators, std::nullopt);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }();
  // Loops of both axes: one design per axis (longitudinal first), each
  // with its loops in the order given.
  std::vector<study::AugmentSpec> specs;
  if (!spec.loops.empty()) {
    for (std::size_t k = 0; k < spec.loops.size(); ++k) {
      model::Axis axis{};
      try {
        axis = study::LoopAxis(aircraft, spec.loops[k]);
      } catch (const std::invalid_argument& e) {
        throw UsageError("augment: " + opt.file + ": loop " + study::LoopName(spec.loops[k]) + ": " + e.what());
      }
      if (!opt.axis.empty() && axis != spec.axis)
        throw UsageError("augment: --loop " + opt.loops[k] + " is on the " + std::string(model::AxisName(axis)) +
                         " axis, not --axis " + opt.axis + " (without --axis, loops may act on both axes)");
    }
    specs = study::LoopDesignsByAxis(aircraft, spec);
    spec = specs.front();
  }
  if (routing.has_data()) {
    for (const study::OutputLoop& loop : spec.loops) {
      if (loop.output == "psi")
        throw UsageError("--write: the loop " + study::LoopName(loop) +
                         " is a heading hold, which cannot be written to a file yet: aerolin's lateral "
                         "modes need psi a free integrator");
    }
    if (opt.heading)
      throw UsageError("--write: heading hold (--heading) cannot be written to a file yet: "
                       "aerolin's lateral modes need psi a free integrator");
    for (const study::AugmentSpec& one : specs.empty() ? std::vector<study::AugmentSpec>{spec} : specs)
      if ((one.axis == model::Axis::kLongitudinal ? aircraft.longitudinal_augmentation
                                                  : aircraft.lateral_augmentation))
        throw UsageError("--write: " + opt.file + " already has [augmentation." +
                         std::string(model::AxisName(one.axis)) +
                         "] (the design replaces it, but the file would then hold two): write "
                         "from the file without it");
    if (load.files.size() > 1 && !IsStandardOutput(opt.write) &&
        std::filesystem::absolute(opt.write).parent_path() !=
            std::filesystem::absolute(opt.file).parent_path())
      throw UsageError("--write: " + opt.file + " names other files (" + load.files[1] +
                       ") by paths relative to its folder: write OUT into that folder");
  }
  try {
    if (!opt.max.empty())
      for (const std::string& item : SplitList(opt.max, "--max")) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
          throw UsageError("--max: expected NAME=VALUE (e.g. alpha=2deg), got '" + item + "'");
        spec.maxima.emplace_back(item.substr(0, eq),
                                 study::ParseMaximum(aircraft, spec.axis, item.substr(0, eq),
                                                     item.substr(eq + 1)));
      }
    if (!opt.place.empty()) spec.poles = study::ParsePoles(opt.place);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(opt.max.empty() ? "--place: " : "--max/--place: ") + e.what());
  }
  if (specs.empty()) specs.push_back(spec);
  const std::vector<study::AugmentResult> results = [&] {
    try {
      return study::AugmentAxes(aircraft, specs);
    } catch (const std::invalid_argument& e) {
      throw UsageError("augment: " + opt.file + ": " + e.what());
    }
  }();
  // Each design's commands at the stated disturbance, one check per design.
  std::vector<study::SaturationCheck> checks;
  if (!opt.disturbance.empty()) {
    try {
      checks = study::CheckSaturations(results, study::ParseDisturbance(opt.disturbance, results), stops);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--disturbance: ") + e.what());
    }
  }
  const study::SaturationCheck* first_check = checks.empty() ? nullptr : &checks.front();
  const exporting::AugmentReportHeader header{opt.file, aircraft.name};
  if (opt.json)
    routing.report() << (results.size() == 1
                             ? exporting::AugmentJson(header, results.front(), first_check)
                             : exporting::AugmentAxesJson(header, results, checks.empty() ? nullptr : &checks))
                     << '\n';
  else
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (i > 0) routing.report() << '\n';
      exporting::WriteAugmentText(routing.report(), header, results[i], checks.empty() ? nullptr : &checks[i]);
    }
  for (std::size_t i = 0; i < checks.size(); ++i)
    for (const std::string& line : exporting::SaturationWarnings(results[i], checks[i]))
      std::cerr << "warning: " << line << '\n';
  if (routing.has_data()) {
    std::string command = "aerolin";
    for (std::size_t k = 1; k < CommandLine().size(); ++k) command += " " + CommandLine()[k];
    std::string text = core::ReadInputFile(opt.file);
    if (!text.empty() && text.back() != '\n') text += '\n';
    std::string sections, written;
    int filter_states = 0;
    for (const study::AugmentResult& result : results) {
      try {
        sections += exporting::AugmentationToml(result, command);
      } catch (const std::invalid_argument& e) {
        throw UsageError("--write: " + std::string(e.what()));
      }
      written += std::string(written.empty() ? "[augmentation." : "] and [augmentation.") +
                 std::string(model::AxisName(result.axis));
      filter_states += result.filter_states;
    }
    routing.WriteData([&](std::ostream& out) { out << text << sections; });
    if (!IsStandardOutput(opt.write))
      routing.notes() << (opt.json ? "" : "\n") << "wrote " << opt.write << " (the file with " << written
                      << (filter_states > 0
                              ? "]: modes, qualities, tf, bode, matrices, rms, locus, sweep, simulate and the "
                                "window read the closed loop with its washout filter)\n"
                              : "]: modes, qualities, tf, bode, simulate read the closed loop)\n");
  }
  return 0;
}

}  // namespace

void RegisterAugmentCommand(CLI::App& app, Action& action) {
  auto opt = std::make_shared<AugmentOptions>();
  CLI::App* cmd = app.add_subcommand(
      "augment",
      "Full-state feedback u = -K x on one axis by LQR or pole placement; the gain, and the\n"
      "open- and closed-loop modes named and graded (MIL-F-8785C) side by side.\n"
      "States that feed nothing back (psi) get zero gain unless --heading.");
  AddAircraftFileArgument(*cmd, opt->file);
  cmd->add_option("--axis", opt->axis, "longitudinal or lateral (with --loop: the loops' axis, which is the default)")
      ->transform(CLI::IsMember({"longitudinal", "lateral"}, CLI::ignore_case));
  cmd->add_flag("--lqr", opt->lqr,
                "design by LQR; weights by Bryson's rule (--max) unless --Q and --R give them");
  cmd->add_option("--place", opt->place,
                  "design by pole placement: poles -2+3j,-2-3j,... or wn=W,zeta=Z pairs, each\n"
                  "optionally MODE: (short-period:wn=4,zeta=0.7 keeps the other modes)")
      ->check(NonEmpty("poles, e.g. short-period:wn=4,zeta=0.7"));
  cmd->add_option("--max", opt->max,
                  "Bryson maxima NAME=VALUE,... with units (alpha=2deg,q=5deg/s,elevator=10deg);\n"
                  "the others keep their defaults (docs/augmentation.md)")
      ->check(NonEmpty("NAME=VALUE pairs"));
  cmd->add_option("--Q", opt->q, "explicit diagonal state weights, SI, in the design's state order")
      ->check(NonEmpty("weights, e.g. 1,1,1,1"));
  cmd->add_option("--R", opt->r, "explicit diagonal input weights, SI, in --inputs order")
      ->check(NonEmpty("weights, e.g. 1"));
  cmd->add_option("--inputs", opt->inputs,
                  "the inputs to design with (default: elevator; aileron,rudder)")
      ->check(NonEmpty("input names, e.g. aileron,rudder"));
  cmd->add_flag("--heading", opt->heading,
                "lateral: design on psi too (heading hold; psi then needs a weight)");
  cmd->add_option("--loop", opt->loops,
                  "output feedback delta_INPUT = K * y_OUTPUT, INPUT:OUTPUT=K[,washout=TAU] (K's sign\n"
                  "as given, as aerolin locus; TAU [s]); repeat for several loops, on one axis or both")
      ->check(NonEmpty("a loop, e.g. rudder:r=1.5,washout=1.5"));
  cmd->add_option("--disturbance", opt->disturbance,
                  "STATE=VALUE,... with units (beta=5deg,r=2deg/s; alpha=2deg,q=5deg/s): each input's\n"
                  "command at that disturbance, sum_j |K_ij| |x_j| (the worst signs), against its\n"
                  "position stop (the file's [actuators] or --actuator); a warning when it saturates")
      ->check(NonEmpty("STATE=VALUE pairs, e.g. beta=5deg,r=2deg/s"));
  cmd->add_option("--actuator", opt->actuators,
                  "NAME=TAU_S[:LIMIT_DEG[:RATE_DEG_S]]: an actuator on control NAME whose position\n"
                  "stop LIMIT_DEG --disturbance checks (as qualities; replaces the file's [actuators] NAME)");
  cmd->add_flag("--json", opt->json,
                "print one JSON object (schema aerolin.augment/1; loops of both axes: aerolin.augment/2)");
  cmd->add_option("--write", opt->write,
                  "also write OUT.toml: FILE with an [augmentation.AXIS] section (one per axis) holding the gain,\n"
                  "which every command reads as the closed loop ('-': standard output)")
      ->check(OutputPathValidator());
  cmd->callback([opt, &action] { action = [opt] { return RunAugment(*opt); }; });
}

}  // namespace aerolin::cli
