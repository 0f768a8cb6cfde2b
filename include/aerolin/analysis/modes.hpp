#pragma once
/// @file
/// Eigen-analysis of the longitudinal and lateral models: every dynamic mode
/// with its name, characteristics and mode shape.

#include <Eigen/Core>
#include <complex>
#include <span>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::analysis {

/// An eigenvalue whose imaginary part is below this fraction of max(|λ|, 1)
/// is named as a real root: Eigen splits a repeated (defective) real root
/// into a pair whose imaginary parts are of order sqrt(machine epsilon)·|λ|
/// ≈ 1e-8 |λ|.
inline constexpr double kRealRootTolerance = 1e-6;

/// Which classical mode an eigenvalue (or conjugate pair) belongs to.
enum class ModeKind {
  kShortPeriod,
  kPhugoid,
  kDutchRoll,
  kRollSubsidence,
  kSpiral,
  kRollSpiral,  ///< coupled roll–spiral oscillation ("lateral phugoid")
  kHeading,     ///< the ψ integrator, λ = 0
};

// The one place that spells mode names: display names and CLI spellings.

/// Returns the display name: "short period", "phugoid", "dutch roll",
/// "roll subsidence", "spiral", "roll-spiral oscillation", "heading".
std::string ToString(ModeKind kind);
/// Returns the CLI spelling: "short-period", "phugoid", "dutch-roll", "roll",
/// "spiral", "roll-spiral", "heading".
std::string_view CliName(ModeKind kind);
/// Parses the CLI spelling (see CliName) or the display name (ToString), in
/// any case, with '-', '_' or ' ' between words; nullopt otherwise.
std::optional<ModeKind> ParseModeKind(const std::string& text);

/// Qualifiers of a mode, as bit flags. `Mode::qualifier()` spells the set
/// flags in this enumeration's order, separated by ", ".
enum class ModeFlag : std::uint8_t {
  kNone = 0,
  kOverdamped = 1 << 0,      ///< "overdamped": short period or Dutch roll as two real roots
  kAperiodic = 1 << 1,       ///< "aperiodic": phugoid as two real roots
  kLateralPhugoid = 1 << 2,  ///< "lateral phugoid": the roll-spiral oscillation's other name
  kNeutral = 1 << 3,         ///< "neutral": |Re λ| ≤ 1e-12 /s (not set on heading)
  kUnstable = 1 << 4,        ///< "unstable": an oscillation with Re λ > 0
  kDivergent = 1 << 5,       ///< "divergent": a real root with λ > 0
  kRepeatedRoot = 1 << 6,    ///< "repeated root": two coinciding real roots of one mode
};
constexpr ModeFlag operator|(ModeFlag a, ModeFlag b) {
  return static_cast<ModeFlag>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr ModeFlag operator&(ModeFlag a, ModeFlag b) {
  return static_cast<ModeFlag>(static_cast<unsigned>(a) & static_cast<unsigned>(b));
}
constexpr ModeFlag& operator|=(ModeFlag& a, ModeFlag b) { return a = a | b; }

/// The set flags spelt out in ModeFlag's order, separated by ", ", e.g.
/// "aperiodic, divergent"; "" if none. Spelt once per process: a reference
/// to a string that lives as long as the program.
const std::string& Qualifier(ModeFlag flags);
/// Kind plus qualifier, e.g. "phugoid (aperiodic)" (ToString(kind) alone
/// without flags); as Qualifier, spelt once per process.
const std::string& FullName(ModeKind kind, ModeFlag flags);

/// One real eigenvalue or one complex-conjugate pair.
struct Mode {
  ModeKind kind;
  model::Axis axis = model::Axis::kLongitudinal;  ///< which model it is a mode of
  ModeFlag flags = ModeFlag::kNone;  ///< qualifiers; see ModeFlag
  std::complex<double> lambda;  ///< eigenvalue [1/s]; the Im > 0 member of a pair
  bool oscillatory = false;     ///< complex pair
  double natural_frequency = 0;  ///< ωn = |λ| [rad/s]
  double damping_ratio = 0;      ///< ζ = −Re λ / |λ| (±1 for real roots)
  std::optional<double> damped_period;   ///< T = 2π/ωd [s], pairs only
  std::optional<double> time_to_half;    ///< ln 2 / (−σ) [s], stable only
  std::optional<double> time_to_double;  ///< ln 2 / σ [s], unstable only
  std::optional<double> time_constant;   ///< τ = −1/λ [s], real roots only
  std::optional<double> cycles_to_half;  ///< t½ / T, stable pairs only
  bool stable = true;                    ///< Re λ < 0 (heading: neutral, true)
  /// Eigenvector normalized so that component `reference_state` is 1∠0°.
  Eigen::VectorXcd shape;
  int reference_state = 0;
  /// Left eigenvector w of the model's A for `lambda` (wᴴA = λwᴴ), scaled so
  /// that wᴴ·shape = 1; empty where it is not unique (a defective A, or the
  /// heading root when the (β, p, r, φ) block is singular).
  Eigen::VectorXcd left;
  /// Evidence for the name: states whose scaled magnitude (u/U0, angles in
  /// rad, rates divided by ωn) is at least 30 % of the largest, largest first.
  std::vector<std::string> dominant_states;
  /// True if every flag in `f` is set.
  bool has(ModeFlag f) const { return (flags & f) == f && f != ModeFlag::kNone; }
  /// The set flags spelt out, e.g. "aperiodic, divergent"; "" if none.
  std::string qualifier() const;
  std::string full_name() const;  ///< kind plus qualifier, e.g. "phugoid (aperiodic)"
};

/// Returns the longitudinal modes of `lon` (states u, α, q, θ; see
/// conventions.hpp), named from eigenvector content, sorted by ωn descending.
/// `U0` [m/s] scales u to u/U0 for the content comparison.
/// @throws core::NumericalError if the eigen-decomposition fails.
/// @throws std::invalid_argument if `lon` does not have 4 states.
std::vector<Mode> AnalyzeLongitudinal(const model::StateSpace& lon, double U0);

/// Returns the lateral-directional modes of `lat` (β, p, r, φ, ψ): the heading
/// integrator plus the modes of the (β, p, r, φ) block, sorted by ωn
/// descending with heading last.
/// @throws core::NumericalError if the eigen-decomposition fails.
/// @throws std::invalid_argument if `lat` does not have 5 states.
std::vector<Mode> AnalyzeLateral(const model::StateSpace& lat);

/// Returns the modes of an axis model whose states are the axis's aircraft
/// states (u, α, q, θ or β, p, r, φ, ψ) followed by washout-filter states
/// (an output-feedback loop's, study/augment.hpp): the filters' roots
/// `filter_roots` (one real root per filter state, as the caller identified
/// them: the root nearest a filter's pole need not be its own) are taken out
/// and the other roots are named as AnalyzeLongitudinal / AnalyzeLateral
/// name them, from their vectors' aircraft states; the modes' shapes are
/// over those states and have no left vectors. Without filter states it is
/// AnalyzeLongitudinal / AnalyzeLateral.
/// @throws std::invalid_argument if the model has fewer states than the
///         axis, ψ is fed back, the filter roots are not one per filter
///         state, or one is complex (the filter has joined an aircraft mode:
///         nothing to name the others by) or no real root of A.
std::vector<Mode> AnalyzeWithFilters(const model::StateSpace& sys, model::Axis axis, double U0,
                                     std::span<const std::complex<double>> filter_roots);

/// Gives the modes of one axis (as AnalyzeLongitudinal, AnalyzeLateral or
/// AnalyzeWithFilters return them) the kinds `kinds` (one per mode, in the
/// modes' order; nullopt keeps a mode's kind) and qualifies them again by
/// those functions' rules (overdamped, aperiodic, lateral phugoid, stability,
/// repeated root), sorted as they sort them. The closed loop's naming by
/// continuation from the open loop (study::NameClosedAxis) uses it.
/// @throws std::invalid_argument unless there is one kind per mode, or if a
///         kind would make heading of a root that is not, or not of one that is.
void RenameModes(std::vector<Mode>& modes, model::Axis axis, std::span<const std::optional<ModeKind>> kinds);

/// The name of one root or pair as AnalyzeLongitudinal / AnalyzeLateral give
/// it (kind and qualifiers), without the mode's shape and timing: what a
/// sweep needs at each of its thousands of points.
struct RootName {
  ModeKind kind;
  ModeFlag flags = ModeFlag::kNone;
  std::complex<double> lambda;  ///< eigenvalue [1/s]; the Im > 0 member of a pair
  bool oscillatory = false;
  double natural_frequency = 0;  ///< |λ| [rad/s]
  bool has(ModeFlag f) const { return (flags & f) == f && f != ModeFlag::kNone; }
  std::string full_name() const;  ///< as Mode::full_name()
};

/// Names the roots of a longitudinal A from its eigen-decomposition
/// (`values`, right vectors as columns of `vectors`, whose first four rows are
/// u, α, q, θ; further rows, e.g. a loop's filter state, are ignored) by the
/// rules of AnalyzeLongitudinal, which calls it: for the decomposition of
/// the same A the kinds, flags and order are AnalyzeLongitudinal's.
/// @throws std::invalid_argument unless there are 4 values and ≥ 4 rows.
std::vector<RootName> NameLongitudinalRoots(const Eigen::Ref<const Eigen::VectorXcd>& values,
                                            const Eigen::Ref<const Eigen::MatrixXcd>& vectors,
                                            double U0);
/// As NameLongitudinalRoots for the (β, p, r, φ) block of a lateral A (first
/// four rows β, p, r, φ); heading is not among them (AnalyzeLateral adds it).
std::vector<RootName> NameLateralRoots(const Eigen::Ref<const Eigen::VectorXcd>& values,
                                       const Eigen::Ref<const Eigen::MatrixXcd>& vectors);

/// Returns the first mode of `kind`, or nullptr.
const Mode* FindMode(const std::vector<Mode>& modes, ModeKind kind);

/// Both axes' models and modes of one aircraft: the value `AnalyzeModes`
/// returns.
/// The root of a washout filter in a closed loop (study::AnalyzeClosedLoop):
/// the filter's state (model::BuildAugmented) and its real root.
struct FilterRoot {
  model::Axis axis = model::Axis::kLateral;
  core::Signal state;           ///< e.g. "r_washout"
  std::complex<double> lambda;  ///< [1/s]
};

/// The name of a washout filter's root, as `aerolin augment` and `aerolin
/// modes` name it: "washout filter (r_washout)".
std::string FilterRootName(const core::Signal& filter_state);

struct ModalAnalysis {
  /// BuildLongitudinal(aircraft) (study::AnalyzeClosedLoop: BuildAugmented,
  /// washout filters' states after the airframe's)
  model::StateSpace longitudinal_model;
  model::StateSpace lateral_model;       ///< BuildLateral(aircraft) (likewise)
  std::vector<Mode> longitudinal;        ///< AnalyzeLongitudinal(longitudinal_model, U0)
  std::vector<Mode> lateral;             ///< AnalyzeLateral(lateral_model)
  /// The washout filters' roots, longitudinal then lateral (not among the
  /// modes: AnalyzeWithFilters); empty without filters.
  std::vector<FilterRoot> filters = {};

  /// The washout filters' roots of one axis.
  std::vector<FilterRoot> filters_of(model::Axis axis) const {
    std::vector<FilterRoot> out;
    for (const FilterRoot& f : filters)
      if (f.axis == axis) out.push_back(f);
    return out;
  }
  /// The modes of one axis.
  const std::vector<Mode>& modes(model::Axis axis) const {
    return axis == model::Axis::kLongitudinal ? longitudinal : lateral;
  }
  /// The model of one axis.
  const model::StateSpace& model_of(model::Axis axis) const {
    return axis == model::Axis::kLongitudinal ? longitudinal_model : lateral_model;
  }
  /// Returns the first mode of `kind` on either axis, or nullptr.
  const Mode* Find(ModeKind kind) const;
};

/// Builds both axes' models of `aircraft` and returns their modes.
/// @throws core::NumericalError if an eigen-decomposition fails.
ModalAnalysis AnalyzeModes(const model::AircraftData& aircraft);

}  // namespace aerolin::analysis
