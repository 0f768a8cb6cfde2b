#pragma once
// The inputs shared by every command that flies the model (`simulate`,
// `plot`): aircraft file, pilot script, mode excitation, duration, slices
// and integrator; and the one place that turns them into a flight.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/export/simulation_summary.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/sim/nonlinear_shadow.hpp"
#include "aerolin/sim/simulate.hpp"
#include "aerolin/study/flight_setup.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace aerolin::cli {

struct FlightInputs {
  std::string file;
  std::string script;
  std::string excite;
  std::optional<double> amplitude;
  double duration = 0.0;
  double dt = 0.1;
  std::string integrator = "rk45";
  double rtol = 1e-6;
  double atol = 1e-9;
  std::string turbulence;            ///< light|moderate|severe, or empty
  std::optional<double> altitude;    ///< --altitude [file's length unit]
  std::uint64_t seed = study::kDefaultTurbulenceSeed;
  std::vector<std::string> gusts;    ///< --gust AXIS:VM:DM[:T0], as typed
  bool bare = false;                 ///< --bare: the file's [augmentation] off
  std::string model = "linear";      ///< --model linear|nonlinear|both (simulate, plot)

  bool has_gusts() const { return !turbulence.empty() || !gusts.empty(); }
};

/// Adds FILE, --script, --excite, --amplitude, --duration, --dt,
/// --integrator, --rtol, --atol, --turbulence, --altitude, --seed, --gust
/// and --bare
/// to `cmd`, stored into `inputs`.
void AddFlightInputOptions(CLI::App& cmd, FlightInputs& inputs);

/// Adds --model linear|nonlinear|both to `cmd`, stored into inputs.model;
/// `both_does` says what the command does with both flights (its help).
void AddModelOption(CLI::App& cmd, FlightInputs& inputs, const std::string& both_does);

/// A flown flight with what produced it.
struct Flight {
  model::AircraftData aircraft;
  std::vector<analysis::Mode> longitudinal_modes;
  std::vector<analysis::Mode> lateral_modes;
  sim::SimulationOptions options;
  sim::SimulationResult result;
  sim::SliceTiming timing;  ///< wall-clock cost per slice (for the summary)
  std::optional<double> amplitude;  ///< the excitation amplitude used, if any
  /// The gusts flown (SI), if --turbulence or --gust was given.
  std::optional<exporting::GustDescription> gusts;
  /// With --model nonlinear or both: where the nonlinear flight parted from
  /// the linear one (sim::NonlinearShadow), earliest first.
  std::optional<std::vector<sim::Parting>> partings;
  /// With --model nonlinear|both: the coefficient-table variables that left
  /// their tables (sim::NonlinearShadow::table_departures).
  std::vector<sim::TableDeparture> table_departures;
  /// With --model nonlinear|both: why and when the nonlinear flight departed
  /// (sim::NonlinearShadow::departed; its rows stop there), if it did.
  std::optional<std::string> departed;
};

/// The wind of the slice that ends at each recorded row, for the CSV's and
/// the figures' u_g, v_g, w_g, p_g: the turbulence held over that slice plus
/// the discrete gusts' mean over it (what the exact integrator uses; RK45
/// evaluates the gusts inside the slice, whose mean this is); zeros before the
/// first slice. Fly keeps it current before each row reaches the recorder.
struct WindProbe {
  Eigen::Vector4d wind = Eigen::Vector4d::Zero();
};

/// "nonlinear flight departed (state diverged at t = ...: ...): it stops there,
/// the linear flight goes on", with `csv`: "(its nl_ and d_ columns are empty
/// from then on)" — what `simulate`/`plot --model both` say of
/// Flight::departed, as the window's HUD does.
std::string DepartureNote(const std::string& departed, bool csv);

/// The input files of a flight (FILE with the files it names, as
/// AircraftInputFiles, and --script, if given), for the checks that no output
/// overwrites one.
std::vector<std::string> InputFiles(const FlightInputs& inputs);

/// The flight the flags ask for (study::FlightSpec, SI): --altitude and
/// --gust's VM and DM converted from the data file's unit system `units`.
/// @throws UsageError for a --gust that does not parse.
study::FlightSpec FlightSpecOf(const FlightInputs& inputs, core::UnitSystem units);

/// Loads the aircraft (printing its warnings), analyzes its modes, and flies
/// FlightSpecOf(inputs) as study::Prepare sets it up. With `recorder`, the
/// rows go to it as they are computed and the result's log stays empty
/// (streaming, memory independent of the duration).
/// With gusts, `wind` (if given) holds the wind of the slice ending at each
/// row when the row reaches `recorder`. `before_flying` (if given) sees the
/// loaded aircraft before the first row (e.g. to set up a recorder).
/// With --model nonlinear, `recorder` gets the nonlinear flight's rows (the
/// linear one is flown underneath, from the same inputs, and the result's
/// validity flags are the nonlinear flight's); with --model both, `recorder`
/// gets the linear rows and `nonlinear` the nonlinear ones.
/// @throws UsageError if --duration is not a whole number of --dt slices, or
///         --model is not linear without a recorder.
/// @throws core::DataError for a bad data file or script.
/// @throws std::runtime_error if the aircraft has no mode of the asked kind.
Flight Fly(const FlightInputs& inputs, sim::FlightRecorder* recorder = nullptr,
           WindProbe* wind = nullptr,
           const std::function<void(const model::AircraftData&)>& before_flying = {},
           sim::FlightRecorder* nonlinear = nullptr);

}  // namespace aerolin::cli
