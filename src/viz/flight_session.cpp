#include "aerolin/viz/flight_session.hpp"

#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "aerolin/model/build.hpp"
#include "aerolin/sim/excitation.hpp"
#include "aerolin/viz/camera.hpp"

namespace aerolin::viz {
namespace {

Eigen::Vector3d ScenePosition(const sim::FlightState& x) {
  return core::NedToPlot(x[sim::kNorth], x[sim::kEast], x[sim::kDown]);
}

// The analysis mode that key 1..5 excites; roll and spiral fall back to the
// coupled roll-spiral oscillation when the aircraft has that instead.
const analysis::Mode* ModeFor(Excitation e, const std::vector<analysis::Mode>& lon,
                              const std::vector<analysis::Mode>& lat) {
  using analysis::FindMode;
  using analysis::ModeKind;
  switch (e) {
    case Excitation::kShortPeriod: return FindMode(lon, ModeKind::kShortPeriod);
    case Excitation::kPhugoid: return FindMode(lon, ModeKind::kPhugoid);
    case Excitation::kDutchRoll: return FindMode(lat, ModeKind::kDutchRoll);
    case Excitation::kRoll: {
      const analysis::Mode* m = FindMode(lat, ModeKind::kRollSubsidence);
      return m ? m : FindMode(lat, ModeKind::kRollSpiral);
    }
    case Excitation::kSpiral: {
      const analysis::Mode* m = FindMode(lat, ModeKind::kSpiral);
      return m ? m : FindMode(lat, ModeKind::kRollSpiral);
    }
  }
  return nullptr;
}

}  // namespace

std::string ToString(Excitation e) {
  switch (e) {
    case Excitation::kShortPeriod: return "short-period";
    case Excitation::kPhugoid: return "phugoid";
    case Excitation::kDutchRoll: return "dutch-roll";
    case Excitation::kRoll: return "roll";
    case Excitation::kSpiral: return "spiral";
  }
  return "?";
}

std::optional<Excitation> ParseExcitation(const std::string& text) {
  for (Excitation e : {Excitation::kShortPeriod, Excitation::kPhugoid, Excitation::kDutchRoll,
                       Excitation::kRoll, Excitation::kSpiral})
    if (ToString(e) == text) return e;
  return std::nullopt;
}

FlightSession::FlightSession(const model::AircraftData& aircraft,
                             const SessionOptions& options)
    : aircraft_(aircraft),
      options_(options),
      slicer_(sim::FlightModel(aircraft), options.slice),
      pilot_(aircraft.controls, options.slice.dt, options.pilot) {
  longitudinal_modes_ = analysis::AnalyzeLongitudinal(
      model::BuildLongitudinal(aircraft), aircraft.condition.U0);
  lateral_modes_ = analysis::AnalyzeLateral(model::BuildLateral(aircraft));
  modes_ = longitudinal_modes_;
  modes_.insert(modes_.end(), lateral_modes_.begin(), lateral_modes_.end());
  if (!options_.log_dir.empty()) std::filesystem::create_directories(options_.log_dir);
  if (options_.start_on) {
    const auto start = ExcitedState(*options_.start_on);
    if (!start)
      throw std::invalid_argument(aircraft.name + " has no " + ToString(*options_.start_on) + " mode");
    excite_spelling_ = start->second;
    StartSegment(start->first, options_.start_on);
  } else {
    StartSegment(sim::FlightState::Zero(), std::nullopt);
  }
}

FlightSession::~FlightSession() {
  try {
    MaybeFlush(true);
  } catch (...) {
    // A destructor must not throw; the last flush is best effort.
  }
}

void FlightSession::StartSegment(const sim::FlightState& x0, std::optional<Excitation> e) {
  if (log_) MaybeFlush(true);
  slicer_.Reset(x0);
  pilot_.Reset();
  previous_ = x0;
  excitation_ = e;
  path_.Clear();
  path_.Append(ScenePosition(x0));
  recorder_ = std::make_unique<sim::KeyRecorder>(slicer_.dt());
  log_.reset();
  ++segment_;
  if (!options_.log_dir.empty()) {
    log_ = std::make_unique<FlightLogWriter>(csv_path(), script_path(),
                                             model().control_names());
    log_->AppendRow(0.0, x0, Eigen::VectorXd::Zero(pilot_.num_controls()));
    MaybeFlush(true);
  }
  last_flush_ = std::chrono::steady_clock::now();
}

void FlightSession::Step(sim::KeySet keys, std::span<const sim::ControlOverride> overrides) {
  previous_ = slicer_.state();
  const Eigen::VectorXd& controls = pilot_.Update(keys, overrides);
  const auto start = std::chrono::steady_clock::now();
  slicer_.Advance(controls);
  cost_last_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  cost_sum_ += cost_last_;
  cost_max_ = std::max(cost_max_, cost_last_);
  ++cost_count_;
  AfterSlice(keys);
}

void FlightSession::StepScript(const sim::PilotScript& script) {
  script.InputForSlice(slicer_.slice_index(), slicer_.dt(), held_scratch_, overrides_scratch_);
  Step(held_scratch_, overrides_scratch_);
}

void FlightSession::AfterSlice(sim::KeySet keys) {
  recorder_->Record(keys);
  path_.Append(ScenePosition(slicer_.state()));
  if (log_) log_->AppendRow(slicer_.time(), slicer_.state(), pilot_.controls());
}

void FlightSession::ResetToTrim() { StartSegment(sim::FlightState::Zero(), std::nullopt); }

std::optional<std::pair<sim::FlightState, std::string>> FlightSession::ExcitedState(
    Excitation e) const {
  const analysis::Mode* mode = ModeFor(e, longitudinal_modes_, lateral_modes_);
  if (mode == nullptr) return std::nullopt;
  const bool lon = e == Excitation::kShortPeriod || e == Excitation::kPhugoid;
  const sim::ModeAxis axis = lon ? sim::ModeAxis::kLongitudinal : sim::ModeAxis::kLateral;
  // Same amplitude and U0 as `aerolin simulate --excite`, so the log replays.
  const double amplitude =
      sim::DefaultExcitationAmplitude(axis, mode->reference_state, aircraft_.condition.U0);
  std::string spelling;
  switch (mode->kind) {
    case analysis::ModeKind::kShortPeriod: spelling = "short-period"; break;
    case analysis::ModeKind::kPhugoid: spelling = "phugoid"; break;
    case analysis::ModeKind::kDutchRoll: spelling = "dutch-roll"; break;
    case analysis::ModeKind::kRollSubsidence: spelling = "roll"; break;
    case analysis::ModeKind::kSpiral: spelling = "spiral"; break;
    case analysis::ModeKind::kRollSpiral: spelling = "roll-spiral"; break;
    case analysis::ModeKind::kHeading: spelling = "heading"; break;
  }
  return std::make_pair(
      sim::ModeInitialState(mode->shape, mode->reference_state, axis, amplitude), spelling);
}

bool FlightSession::Excite(Excitation e) {
  const auto start = ExcitedState(e);
  if (!start) return false;
  excite_spelling_ = start->second;
  StartSegment(start->first, e);
  return true;
}

void FlightSession::MaybeFlush(bool force) {
  if (!log_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && std::chrono::duration<double>(now - last_flush_).count() < options_.flush_interval)
    return;
  std::string script = recorder_->ToScript();
  script += "# replay: " + ReplayCommand() + "\n";
  log_->Flush(script);
  last_flush_ = now;
}

std::string FlightSession::csv_path() const {
  if (options_.log_dir.empty()) return {};
  return (std::filesystem::path(options_.log_dir) /
          (options_.log_stem + "-" + std::to_string(segment_) + ".csv")).string();
}

std::string FlightSession::script_path() const {
  if (options_.log_dir.empty()) return {};
  return (std::filesystem::path(options_.log_dir) /
          (options_.log_stem + "-" + std::to_string(segment_) + ".script.txt")).string();
}

std::string FlightSession::ReplayCommand() const {
  std::ostringstream cmd;
  cmd << "aerolin simulate " << (options_.aircraft_path.empty() ? "FILE" : options_.aircraft_path)
      << " --dt " << slicer_.dt() << " --integrator " << sim::ToString(options_.slice.integrator)
      << " --duration " << slicer_.time();
  if (!script_path().empty()) cmd << " --script " << script_path();
  if (excitation_) cmd << " --excite " << excite_spelling_;
  cmd << " --csv replay.csv";
  return cmd.str();
}

}  // namespace aerolin::viz
