#include "aerolin/viz/flight_session.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>
#include <stdexcept>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/export/flight_csv.hpp"
#include "aerolin/study/closed_loop.hpp"
#include "aerolin/study/trim.hpp"
#include "aerolin/viz/camera.hpp"

namespace aerolin::viz {
namespace {

Eigen::Vector3d ScenePosition(const sim::FlightState& x) {
  return core::NedToPlot(x[sim::kNorth], x[sim::kEast], x[sim::kDown]);
}

// |φ|, |θ|, |ψ| of `x` [rad].
Eigen::Vector3d Attitude(const sim::FlightState& x) {
  return {std::abs(x[sim::kPhi]), std::abs(x[sim::kTheta]), std::abs(x[sim::kPsi])};
}

// The mode kind key 1..5 asks for.
analysis::ModeKind KindOf(Excitation e) {
  switch (e) {
    case Excitation::kShortPeriod: return analysis::ModeKind::kShortPeriod;
    case Excitation::kPhugoid: return analysis::ModeKind::kPhugoid;
    case Excitation::kDutchRoll: return analysis::ModeKind::kDutchRoll;
    case Excitation::kRoll: return analysis::ModeKind::kRollSubsidence;
    case Excitation::kSpiral: return analysis::ModeKind::kSpiral;
  }
  return analysis::ModeKind::kShortPeriod;
}

std::unique_ptr<pilot::NumpadInput> MakeInput(const model::AircraftData& aircraft,
                                              const SessionOptions& options) {
  if (options.script != nullptr)
    return std::make_unique<pilot::ScriptedPilot>(*options.script, aircraft.controls,
                                                  options.slice.dt, options.pilot);
  return std::make_unique<pilot::LiveKeys>(aircraft.controls, options.slice.dt, options.pilot);
}

}  // namespace

// Keeps the nonlinear shadow's newest row (its state in the linear form).
class FlightSession::LastState final : public sim::FlightRecorder {
 public:
  void Record(double, const sim::FlightState& x, const Eigen::VectorXd&) override { x_ = x; }
  const sim::FlightState& state() const { return x_; }

 private:
  sim::FlightState x_ = sim::FlightState::Zero();
};

std::string ToString(Excitation e) { return std::string(analysis::CliName(KindOf(e))); }

const std::vector<std::string>& ExcitationNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (Excitation e : {Excitation::kShortPeriod, Excitation::kPhugoid, Excitation::kDutchRoll,
                         Excitation::kRoll, Excitation::kSpiral})
      out.push_back(ToString(e));
    return out;
  }();
  return names;
}

std::optional<Excitation> ParseExcitation(const std::string& text) {
  const std::vector<std::string>& names = ExcitationNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == text) return static_cast<Excitation>(i);
  return std::nullopt;
}

FlightSession::FlightSession(const model::AircraftData& aircraft,
                             const SessionOptions& options)
    : file_aircraft_(aircraft),
      aircraft_(options.bare ? model::BareAirframe(aircraft) : aircraft),
      options_(options),
      input_(MakeInput(aircraft, options)),
      turbulence_(options.turbulence),
      analysis_(study::AnalyzeClosedLoop(aircraft_)) {
  if (options.script == nullptr) live_ = static_cast<pilot::LiveKeys*>(input_.get());
  turbulence_height_ = study::TurbulenceHeight(aircraft, options.turbulence_altitude);
  nonlinear_wanted_ = options.nonlinear;
  BuildFlight();
  modes_ = analysis_.longitudinal;
  modes_.insert(modes_.end(), analysis_.lateral.begin(), analysis_.lateral.end());
  if (!options_.log_dir.empty()) {
    // The log stays in log_dir and never replaces an earlier flight's.
    CheckLogStem(options_.log_stem);
    std::filesystem::create_directories(options_.log_dir);
    options_.log_stem = FreeLogStem(options_.log_dir, options_.log_stem);
  }
  if (options_.start_on) {
    const auto start = ExcitedState(*options_.start_on);
    if (!start)
      throw std::invalid_argument(aircraft.name + " has no " + ToString(*options_.start_on) + " mode");
    excite_spelling_ = start->spelling;
    excite_amplitude_ = start->amplitude;
    StartSegment(start->state, options_.start_on, start->auxiliary);
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

study::FlightSpec FlightSession::Spec() const {
  // As `aerolin simulate` sets a flight up: with turbulence, the gust input
  // matrix E and the Dryden generator for this Δt, U0, span and seed.
  study::FlightSpec spec;
  spec.slice = options_.slice;
  if (turbulence_)
    spec.turbulence = study::TurbulenceSpec{*turbulence_, turbulence_height_.height,
                                            options_.seed, std::nullopt};
  return spec;
}

void FlightSession::BuildFlight() {
  const study::FlightSpec spec = Spec();
  prepared_.reset();
  prepared_.emplace(study::Prepare(aircraft_, analysis_, spec, input_.get()));
  flight_.emplace(prepared_->model(), options_.slice, sim::ValidityThresholds{});
  // What the running RMS of a long flight tends to (the HUD shows both).
  exact_.reset();
  // The exact statistics of the closed loop as flown, washout filters'
  // states included (as `aerolin rms`).
  if (spec.turbulence)
    exact_.emplace(study::ExactRoughAirStatistics(aircraft_, analysis_, {*spec.turbulence, options_.slice.dt}));
}

Eigen::Vector4d FlightSession::wind() const {
  if (!turbulence_) return Eigen::Vector4d::Zero();
  return flight_->disturbance().head<4>();
}

void FlightSession::EndSegment() {
  // The last flush writes the segment's replay command, so it must come
  // before anything that command reads (the model, Δt's flight time, the
  // excitation) changes for the next segment.
  if (!log_) return;
  MaybeFlush(true);
  log_.reset();
}

void FlightSession::SetTurbulence(std::optional<sim::TurbulenceIntensity> intensity) {
  EndSegment();
  turbulence_ = intensity;
  BuildFlight();
  ResetToTrim();
}

bool FlightSession::SetAugmentation(bool on) {
  if (!augmentable()) return false;
  if (on == augmentation_on()) return true;
  EndSegment();
  aircraft_ = on ? file_aircraft_ : model::BareAirframe(file_aircraft_);
  analysis_ = study::AnalyzeClosedLoop(aircraft_);
  modes_ = analysis_.longitudinal;
  modes_.insert(modes_.end(), analysis_.lateral.begin(), analysis_.lateral.end());
  ++modes_generation_;
  nonlinear_model_.reset();  // of the other aircraft
  BuildFlight();
  // The same experiment with the other aircraft: the excitation again, or trim.
  if (!excitation_ || !Excite(*excitation_)) ResetToTrim();
  return true;
}

void FlightSession::SetAmplitudeFactor(double factor) {
  amplitude_factor_ = std::clamp(factor, 1.0 / 16.0, 16.0);
}

void FlightSession::StartSegment(const sim::FlightState& x0, std::optional<Excitation> e,
                                 const sim::AuxiliaryState& aux0) {
  EndSegment();
  flight_->Reset(x0, aux0);
  // The whole input chain restarts: the pilot's controls to 0, and the
  // turbulence from its seed, as a replay starts.
  source().Reset();
  previous_ = x0;
  excitation_ = e;
  path_.Clear();
  path_.Append(ScenePosition(x0));
  attitude_peak_ = Attitude(x0);
  trail_.clear();
  AppendTrail(x0);
  recorder_ = std::make_unique<pilot::KeyRecorder>(flight_->dt());
  // The running statistics restart with the segment, from its t = 0 row.
  digest_ = std::make_unique<exporting::FlightDigest>();
  digest_wind_.setZero();
  digest_->TrackLoadFactor(exporting::LoadFactorRowOf(aircraft_), &digest_wind_);
  digest_->Record(0.0, x0, flight_->controls());
  log_.reset();
  ++segment_;
  if (!options_.log_dir.empty()) {
    // A log segment never overwrites an input of the flight.
    std::vector<std::string> inputs = {options_.aircraft_path};
    if (options_.script != nullptr) inputs.push_back(options_.script->path);
    for (const std::string& output : {csv_path(), script_path()})
      for (const std::string& input : inputs)
        if (!input.empty() && core::SameFile(output, input))
          throw std::runtime_error("flight log '" + output + "' is the input file '" + input +
                                   "'; choose another --log-dir or --log-name");
    log_ = std::make_unique<FlightLogWriter>(csv_path(), script_path(), model().control_names(),
                                             turbulence_.has_value(), model().flies_surfaces());
    flight_->SurfaceDeflections(log_surfaces_);
    log_->AppendRow(0.0, x0, flight_->controls(), log_surfaces_, Eigen::Vector4d::Zero());
    MaybeFlush(true);
  }
  last_flush_ = std::chrono::steady_clock::now();
  StartShadow();
}

std::optional<std::string> FlightSession::nonlinear_refusal() const {
  // study::Validate is where a nonlinear flight in turbulence is refused.
  study::FlightSpec spec = Spec();
  spec.model = study::FlightModelKind::kBoth;
  try {
    study::Validate(spec);
  } catch (const study::FlightSpecError& e) {
    if (e.field() == "model") return std::string(e.what()) + " (T: turbulence off)";
  }
  if (augmentation_on())
    return "the nonlinear model is the bare airframe and the file's [augmentation] flies closed "
           "loop (G: augmentation off)";
  return std::nullopt;
}

bool FlightSession::SetNonlinear(bool on) {
  nonlinear_wanted_ = on;
  StartShadow();
  return nonlinear_on();
}

void FlightSession::StartShadow() {
  shadow_.reset();
  nonlinear_stopped_.reset();
  nonlinear_trail_.clear();
  if (!nonlinear_wanted_ || nonlinear_refusal()) return;
  if (!nonlinear_model_) nonlinear_model_.emplace(aircraft_);
  if (!nonlinear_row_) nonlinear_row_ = std::make_unique<LastState>();
  // As `aerolin simulate --model both` wires it: the same slice options, the
  // flight's state now, the file's altitude as the density's reference.
  shadow_.emplace(*nonlinear_model_, options_.slice, state(),
                  study::ReferenceRequest(aircraft_).altitude, nullptr, nonlinear_row_.get());
  shadow_->Begin(model().control_names());
  shadow_->Record(time(), state(), flight_->controls());
  nonlinear_state_ = nonlinear_previous_ = nonlinear_row_->state();
  AppendTrail(nonlinear_trail_, nonlinear_state_, dt());
}

void FlightSession::RecordShadow() {
  if (!shadow_) return;
  nonlinear_previous_ = nonlinear_state_;
  shadow_->Record(time(), state(), flight_->controls());
  if (shadow_->departed()) {
    // It departed (sim::NonlinearShadow's rule, as `simulate --model` stops
    // it): the linear flight goes on; the next segment restarts it.
    nonlinear_stopped_ = shadow_->departed();
    shadow_.reset();
    nonlinear_trail_.clear();
    return;
  }
  nonlinear_state_ = nonlinear_row_->state();
  AppendTrail(nonlinear_trail_, nonlinear_state_, dt());
}

void FlightSession::Hold(pilot::KeySet keys) {
  if (live_ != nullptr) live_->Hold(keys);
}

void FlightSession::Step() {
  previous_ = flight_->state();
  if (!flight_->Step(source(), &timing_).flown) throw core::NumericalError(*flight_->stopped());
  recorder_->Record(input_->held());
  path_.Append(ScenePosition(flight_->state()));
  attitude_peak_ = attitude_peak_.cwiseMax(Attitude(flight_->state()));
  AppendTrail(flight_->state());
  digest_wind_ = wind();
  digest_->Record(flight_->time(), flight_->state(), flight_->controls());
  RecordShadow();
  // Times as `aerolin simulate` writes them (0.3, not 0.30000000000000004).
  if (log_) {
    flight_->SurfaceDeflections(log_surfaces_);
    log_->AppendRow(exporting::SliceGridTime(flight_->time(), flight_->dt()), flight_->state(),
                    flight_->controls(), log_surfaces_, wind());
  }
}

void FlightSession::AppendTrail(const sim::FlightState& x) { AppendTrail(trail_, x, dt()); }

void FlightSession::AppendTrail(std::deque<TrailPoint>& trail, const sim::FlightState& x,
                                double dt) {
  trail.push_back({ScenePosition(x), x[sim::kPhi], x[sim::kTheta], x[sim::kPsi]});
  const auto keep = static_cast<std::size_t>(std::lround(kTrailSeconds / dt)) + 1;
  while (trail.size() > keep) trail.pop_front();
}

void FlightSession::ResetToTrim() {
  EndSegment();
  excite_amplitude_.reset();
  StartSegment(sim::FlightState::Zero(), std::nullopt);
}

std::optional<FlightSession::Start> FlightSession::ExcitedState(Excitation e) const {
  // The amplitude the replay's `aerolin simulate --excite` gets: the
  // session's (or the default) times the factor of the , . keys. Keys 4 and
  // 5 fall back to the roll-spiral oscillation (study::ModeFallback).
  try {
    const study::FlightStart probe = study::StartOn(aircraft_, analysis_, KindOf(e),
                                                    options_.amplitude,
                                                    study::ModeFallback::kRollSpiral);
    if (amplitude_factor_ == 1.0)
      return Start{probe.state, std::string(analysis::CliName(*probe.mode)), *probe.amplitude,
                   probe.auxiliary};
    const study::FlightStart start =
        study::StartOn(aircraft_, analysis_, KindOf(e), *probe.amplitude * amplitude_factor_,
                       study::ModeFallback::kRollSpiral);
    return Start{start.state, std::string(analysis::CliName(*start.mode)), *start.amplitude,
                 start.auxiliary};
  } catch (const study::MissingModeError&) {
    return std::nullopt;
  }
}

bool FlightSession::Excite(Excitation e) {
  const auto start = ExcitedState(e);
  if (!start) return false;
  EndSegment();
  excite_spelling_ = start->spelling;
  excite_amplitude_ = start->amplitude;
  StartSegment(start->state, e, start->auxiliary);
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
      << " --dt " << flight_->dt() << " --integrator " << sim::ToString(options_.slice.integrator)
      << " --duration " << flight_->time();
  if (!script_path().empty()) cmd << " --script " << script_path();
  if (excitation_) {
    cmd << " --excite " << excite_spelling_;
    // Shortest round-trip spelling: the replay starts from the same bits.
    if (options_.amplitude || amplitude_factor_ != 1.0)
      cmd << " --amplitude " << fmt::format("{}", *excite_amplitude_);
  }
  if (augmentable() && !augmentation_on()) cmd << " --bare";
  if (turbulence_) {
    cmd << " --turbulence " << sim::ToString(*turbulence_);
    if (!options_.altitude_argument.empty()) cmd << " --altitude " << options_.altitude_argument;
    cmd << " --seed " << options_.seed;
  }
  cmd << " --csv replay.csv";
  return cmd.str();
}

}  // namespace aerolin::viz
