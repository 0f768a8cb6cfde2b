#pragma once
/// @file
/// One flight, set up once: the typed request every front end fills (the
/// command line's flags, Python's keyword arguments, the flight window's
/// options and keys), its validation, and the one Prepare that turns it into
/// the model, the initial state and the input chain a flight needs.
///
/// Defaults live here and nowhere else: the turbulence seed
/// (kDefaultTurbulenceSeed), the span of the rolling gust (the file's wing
/// span), the height turbulence is flown at (the file's `[condition]
/// altitude`), the excitation amplitude (sim::DefaultExcitationAmplitude).
/// Everything in a FlightSpec is SI and radians: a front end that takes
/// numbers in the data file's units (the command line, the window) converts
/// them before filling it (core::ToSI with the file's unit system).
///
/// The input chain of a prepared flight, innermost first:
///
/// | layer | what it adds |
/// |:--|:--|
/// | controls | the pilot: a script, keys, a table or callable (the caller's), or hands off |
/// | sim::GustInput | Dryden turbulence held per slice, discrete gusts inside the slice |
/// | wind probe | records the wind of the slice just given (WindOfLastSlice) |
///
/// Turbulence and gusts add the gust input matrix E to the model
/// (model::BuildGustInput); without them the model has no disturbance input.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/discrete_gust.hpp"
#include "aerolin/sim/flight_model.hpp"
#include "aerolin/sim/gust_input.hpp"
#include "aerolin/sim/input.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/sim/turbulence.hpp"

namespace aerolin::study {

/// The turbulence random seed when none is given (`aerolin simulate --seed`,
/// `aerolin.simulate(seed=)`, `aerolin-fly --seed`).
inline constexpr std::uint64_t kDefaultTurbulenceSeed = 1;

/// What a flight does when the mode it should start on is absent.
enum class ModeFallback {
  /// The mode asked for, or an error naming the modes the aircraft has
  /// (`aerolin simulate --excite`, `aerolin.simulate(excite=)`): a request
  /// for roll or spiral never silently flies the roll-spiral oscillation.
  kExact,
  /// Roll and spiral fall back to the roll-spiral oscillation when the
  /// aircraft has it instead (the window's keys 4 and 5: a key always flies
  /// something when the aircraft has a related mode).
  kRollSpiral,
};

/// Dryden turbulence (MIL-F-8785C) of a flight.
struct TurbulenceSpec {
  sim::TurbulenceIntensity intensity = sim::TurbulenceIntensity::kLight;
  /// Height above ground h [m]; nullopt: TurbulenceHeight's rule (the data
  /// file's `[condition] altitude` when above 0, else kDefaultTurbulenceHeight).
  std::optional<double> height;
  std::uint64_t seed = kDefaultTurbulenceSeed;
  /// Wing span b [m] for the rolling gust p_g; nullopt: the data file's
  /// `[geometry] b` (no rolling gust if the file gives none).
  std::optional<double> span;
};

/// Which model a flight flies (`aerolin simulate --model`).
enum class FlightModelKind {
  kLinear,     ///< the linear small-perturbation model (sim::FlightModel)
  kNonlinear,  ///< the nonlinear 6-DOF model (sim::NonlinearModel) from the same inputs
  kBoth,       ///< both, side by side (sim::NonlinearShadow)
};

/// Parses "linear" / "nonlinear" / "both"; nullopt otherwise.
std::optional<FlightModelKind> ParseFlightModelKind(std::string_view text);

/// One flight request, SI and radians.
struct FlightSpec {
  sim::SliceOptions slice;  ///< Δt, integrator, RK45 tolerances
  /// Flight time [s], a whole number of slices; 0: open-ended (the window).
  double duration = 0.0;
  /// Start on this mode's eigenvector (real part)...
  std::optional<analysis::ModeKind> excite;
  /// ... with its reference state at this amplitude [m/s, rad or rad/s];
  /// nullopt: sim::DefaultExcitationAmplitude.
  std::optional<double> amplitude;
  ModeFallback fallback = ModeFallback::kExact;
  /// Or start at this state (exclusive with `excite`); nullopt and no excite: trim.
  std::optional<sim::FlightState> x0;
  std::optional<TurbulenceSpec> turbulence;
  std::vector<sim::DiscreteGust> gusts;  ///< discrete 1 − cos gusts (SI)
  /// A pilot script's path, flown by pilot::ScriptedPilot when the caller
  /// brings no controls of its own.
  std::optional<std::string> script;
  /// Fly the bare airframe: the data file's `[augmentation]` sections off
  /// (FlownAircraft; `aerolin simulate --bare`, `simulate(bare=True)`, the
  /// window's G key). False: the aircraft as the file closes its loops.
  bool bare = false;
  /// The model flown; the nonlinear one flies beside the linear flight from
  /// its inputs (sim::NonlinearShadow), without turbulence or gusts.
  FlightModelKind model = FlightModelKind::kLinear;

  /// True with turbulence or discrete gusts (the model then has E).
  bool windy() const { return turbulence.has_value() || !gusts.empty(); }
  /// The simulation options of `sim::Simulate` (duration and slices).
  sim::SimulationOptions simulation_options() const;
};

/// A FlightSpec that cannot be flown: std::invalid_argument whose `field()`
/// names the spec's member ("duration", "dt", "amplitude", "x0", "gusts",
/// "turbulence.height", ...), so a front end can name its own flag or keyword.
class FlightSpecError : public std::invalid_argument {
 public:
  FlightSpecError(std::string field, const std::string& message)
      : std::invalid_argument(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// The aircraft has no mode of the kind a flight should start on. Its
/// message names the modes it has on that axis.
class MissingModeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Checks what can be checked without the aircraft: positive finite Δt,
/// tolerances and amplitude, a duration that is 0 or a whole number of
/// slices (sim::NumSlices), a finite x0, excite and x0 not both, finite
/// gusts with a length > 0 and a start ≥ 0, a finite height ≥ 0 and span > 0.
/// @throws FlightSpecError naming the first defect.
void Validate(const FlightSpec& spec);

/// A flight start: the state, and the mode and amplitude it was built from.
struct FlightStart {
  sim::FlightState state = sim::FlightState::Zero();
  /// The mode actually excited (the fallback may change it), if any.
  std::optional<analysis::ModeKind> mode;
  /// Amplitude of the mode's reference state [m/s, rad or rad/s], if excited.
  std::optional<double> amplitude;
  /// The auxiliary state at t = 0: a closed loop's mode's washout filter
  /// states (ModeStart::auxiliary), else 0.
  sim::AuxiliaryState auxiliary = sim::AuxiliaryState::Zero();
};

/// Returns the start on mode `kind` under `fallback` (study::StartOnMode with
/// `amplitude`), for an aircraft with `modes` (each axis closed,
/// AnalyzeClosedLoop: a mode of an axis closed through washout filters
/// starts the filters' states too, FlightStart::auxiliary) and trim speed
/// `U0` [m/s].
/// @throws MissingModeError if the aircraft has no such mode ("NAME has no
///         dutch roll mode (its lateral modes: ...)").
FlightStart StartOn(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                    analysis::ModeKind kind, std::optional<double> amplitude,
                    ModeFallback fallback);

/// Height above ground [m] turbulence is flown at when neither the request
/// nor the data file gives one: 1000 ft, the top of MIL-F-8785C's
/// low-altitude model (its scale lengths are all 1000 ft there).
inline constexpr double kDefaultTurbulenceHeight = 304.8;

/// The rule of TurbulenceHeight as help texts state it.
inline constexpr std::string_view kTurbulenceHeightRule =
    "default: [condition] altitude when above 0, else 1000 ft (304.8 m) above ground";

/// Where the height above ground of a flight's turbulence came from.
enum class HeightSource {
  kGiven,    ///< the request (--altitude, altitude=, a TurbulenceSpec's height)
  kFile,     ///< the data file's `[condition] altitude` (> 0)
  kDefault,  ///< kDefaultTurbulenceHeight
};
/// "given", "[condition] altitude", "default".
std::string_view ToString(HeightSource source);

/// A height above ground [m] and where it came from.
struct TurbulenceHeightChoice {
  double height = kDefaultTurbulenceHeight;
  HeightSource source = HeightSource::kDefault;
};

/// The height above ground turbulence is flown at: `height` when given (0
/// included: the caller asked for a flight at the ground, clipped to 10 ft
/// by sim::DrydenParametersAt), else the file's `[condition] altitude` when
/// it is above 0, else kDefaultTurbulenceHeight. A file altitude of 0 states
/// a sea-level atmosphere (the air's density), not a flight at the ground:
/// the Navion, A-7A and NT-33A files say `altitude = 0` and fly their
/// turbulence at the default height. The one place of this rule: the command
/// line, Python and the window all resolve their height here.
TurbulenceHeightChoice TurbulenceHeight(const model::AircraftData& aircraft,
                                        std::optional<double> height);

/// A flight ready to fly: the model, the start, the input chain.
/// Movable; the input chain keeps its inner pointers valid across moves.
class PreparedFlight {
 public:
  PreparedFlight(PreparedFlight&&) noexcept;
  PreparedFlight& operator=(PreparedFlight&&) noexcept;
  ~PreparedFlight();

  /// The linear model: with E (4 gust channels) if the spec is windy.
  const sim::FlightModel& model() const { return *model_; }
  const FlightStart& start() const { return start_; }
  const sim::FlightState& x0() const { return start_.state; }
  /// The auxiliary state at t = 0 (start().auxiliary), also options().auxiliary0.
  const sim::AuxiliaryState& auxiliary0() const { return start_.auxiliary; }
  /// The outermost input source: what the slices ask for their inputs.
  sim::InputSource& input();
  /// The controls layer (the caller's, the script's pilot or hands off).
  sim::InputSource& controls();
  /// The Dryden generator (nullptr without turbulence).
  const sim::DrydenTurbulence* turbulence() const;
  /// The turbulence flown, with its height and span resolved (nullopt without).
  const std::optional<TurbulenceSpec>& turbulence_flown() const { return turbulence_flown_; }
  /// Where the flown turbulence's height came from (kDefault without turbulence).
  HeightSource turbulence_height_source() const { return height_source_; }
  /// The wind of the slice the input chain gave last: the turbulence held
  /// over it plus the discrete gusts' mean over it (what the exact integrator
  /// uses; RK45 evaluates the gusts inside the slice, whose mean this is):
  /// u_g, v_g, w_g [m/s], p_g [rad/s]; zeros before the first slice and
  /// without gusts. The pointer stays valid for the prepared flight's life.
  const Eigen::Vector4d& WindOfLastSlice() const;
  const sim::SimulationOptions& options() const { return options_; }

 private:
  friend PreparedFlight Prepare(const model::AircraftData&, const analysis::ModalAnalysis&,
                                const FlightSpec&, sim::InputSource*);
  PreparedFlight();
  struct Chain;
  std::unique_ptr<sim::FlightModel> model_;
  FlightStart start_;
  std::optional<TurbulenceSpec> turbulence_flown_;
  HeightSource height_source_ = HeightSource::kDefault;
  sim::SimulationOptions options_;
  std::unique_ptr<Chain> chain_;
};

/// The aircraft a flight of `spec` flies: `aircraft` as loaded, or with
/// spec.bare its bare airframe (model::BareAirframe). Front ends analyze the
/// modes of this aircraft and give both to Prepare.
model::AircraftData FlownAircraft(model::AircraftData aircraft, const FlightSpec& spec);

/// Validates `spec` and prepares its flight of `aircraft` (FlownAircraft of
/// the file's, whose modes are `modes`, analysis::AnalyzeModes): the model
/// (with E if windy), the start
/// (trim, x0 or the mode, under the spec's fallback), and the input chain
/// over `controls` (borrowed: it must outlive the result; nullptr: the spec's
/// script flown by pilot::ScriptedPilot, else hands off).
/// @throws FlightSpecError for a spec that cannot be flown (also "bare"
///         when `aircraft` still closes a feedback: pass FlownAircraft's),
///         MissingModeError, core::DataError for a bad script.
PreparedFlight Prepare(const model::AircraftData& aircraft, const analysis::ModalAnalysis& modes,
                       const FlightSpec& spec, sim::InputSource* controls = nullptr);

/// One `AXIS:VM:DM[:T0]` discrete gust as typed (the command line's --gust):
/// axis u, v or w, peak VM and length DM in the caller's units, start T0 [s].
struct GustText {
  sim::GustAxis axis = sim::GustAxis::kW;
  double vm = 0.0;  ///< peak [speed unit of the caller]
  double dm = 0.0;  ///< length to the peak [length unit of the caller], > 0
  double t0 = 0.0;  ///< start [s], ≥ 0
};

/// Parses `AXIS:VM:DM[:T0]` (e.g. "w:10:100:2").
/// @throws std::invalid_argument saying what is wrong and quoting `text`.
GustText ParseGustText(std::string_view text);

/// The modes a flight can start on, in the order help texts list them:
/// short period, phugoid, Dutch roll, roll subsidence, spiral, roll-spiral
/// oscillation (the heading root, a free integrator, is no mode to start on).
const std::vector<analysis::ModeKind>& StartableModes();
/// Their CLI spellings (analysis::CliName) joined by ", ":
/// "short-period, phugoid, dutch-roll, roll, spiral, roll-spiral".
const std::string& StartableModeList();

}  // namespace aerolin::study
