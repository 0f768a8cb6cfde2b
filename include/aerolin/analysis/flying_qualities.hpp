#pragma once
/// @file
/// Flying-qualities grading of the linear modes against MIL-F-8785C
/// (5 November 1980), with the short-period frequency requirement expressed as
/// Control Anticipation Parameter bands as in MIL-STD-1797A.
///
/// Every requirement table is written once, as data, in flying_qualities.cpp,
/// next to its paragraph number and the source of its numbers. A value that
/// lies exactly on a limit meets it (all boundaries are inclusive).
///
/// Levels (8785C §1.5): Level 1 is adequate for the mission flight phase,
/// Level 2 adequate with some increase in pilot workload or degradation of
/// mission effectiveness, Level 3 controllable. aerolin adds Level 4, "worse
/// than Level 3", for a value that meets no level.
///
/// Only what the linear modes determine is graded: no stick forces, no
/// control power, no time delays, no pilot-in-the-loop or nonlinear criteria.

#include <array>
#include <complex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/airplane_class.hpp"

namespace aerolin::analysis {

/// The class and category enums, their names and parsers live in the model
/// (model/airplane_class.hpp), because a data file may declare them.
using model::AircraftClass;
using model::FlightPhaseCategory;
using model::ParseAircraftClass;
using model::ParseFlightPhaseCategory;
using model::ToString;

/// Level of flying qualities reached; 4 means worse than Level 3.
enum class Level { k1 = 1, k2 = 2, k3 = 3, k4 = 4 };

/// Returns 1, 2, 3 or 4.
inline int ToInt(Level level) { return static_cast<int>(level); }

/// One second-order mode: an oscillatory pair, or two real roots (an
/// overdamped or aperiodic mode). Two real roots λ1, λ2 are graded through
/// the equivalent second-order characteristics
/// @f$\omega_n = \sqrt{\lambda_1\lambda_2}@f$,
/// @f$\zeta = -(\lambda_1+\lambda_2)/(2\omega_n)@f$, defined when
/// @f$\lambda_1\lambda_2 > 0@f$.
struct SecondOrderRoots {
  std::complex<double> lambda;        ///< the Im ≥ 0 root of a pair, or the first real root [1/s]
  std::optional<double> second_root;  ///< the second real root [1/s]; empty for a pair

  /// A complex pair; `lambda` is either member [1/s].
  static SecondOrderRoots Pair(std::complex<double> lambda);
  /// Two real roots [1/s].
  static SecondOrderRoots Real(double first, double second);

  bool overdamped() const { return second_root.has_value(); }
  /// Equivalent @f$\omega_n^2 = \lambda_1\lambda_2@f$ [rad²/s²]; ≤ 0 when a
  /// real root is zero or the two real roots have opposite signs.
  double natural_frequency_squared() const;
  /// @f$\sqrt{\max(\omega_n^2, 0)}@f$ [rad/s].
  double natural_frequency() const;
  /// Equivalent ζ [-]; NaN when natural_frequency_squared() ≤ 0.
  double damping_ratio() const;
  /// @f$-(\lambda_1+\lambda_2)/2 = \zeta\omega_n@f$ [1/s].
  double damping_rate() const;
  /// Largest real part [1/s]: > 0 means a divergence.
  double largest_real_part() const;
};

/// The modal analysis as plain numbers: what Grade() needs, independent of
/// how the modes were found.
struct ModalSummary {
  std::optional<SecondOrderRoots> short_period;
  std::optional<SecondOrderRoots> phugoid;
  std::optional<SecondOrderRoots> dutch_roll;
  /// |φ/β| of the Dutch-roll eigenvector [rad/rad]; empty when unknown (an
  /// overdamped Dutch roll), and then the ωn²|φ/β| increase is not applied.
  std::optional<double> dutch_roll_phi_beta;
  std::optional<double> roll;    ///< roll-subsidence root λR [1/s]
  std::optional<double> spiral;  ///< spiral root λS [1/s]
  /// Coupled roll–spiral pair [1/s] (Im ≥ 0 member); when present, `roll`
  /// and `spiral` are absent.
  std::optional<std::complex<double>> roll_spiral;
  /// Steady normal-load-factor change per unit angle of attack at constant
  /// speed, @f$n/\alpha = -Z_\alpha/g@f$ [g/rad], with @f$Z_\alpha@f$ the
  /// normalized α-derivative (= q̄SC_Lα/m in stability axes).
  double n_alpha = 0.0;
};

/// Builds the summary from the modes of AnalyzeLongitudinal() and
/// AnalyzeLateral() and from `aircraft` (n/α = −Zα/g, with
/// `aircraft.longitudinal.Za` [m/s²] and `aircraft.condition.g` [m/s²]).
/// Two real short-period (phugoid, Dutch-roll) modes become one overdamped
/// SecondOrderRoots. |φ/β| is |shape(φ)|/|shape(β)| of the Dutch-roll mode.
/// @throws std::invalid_argument if a mode the grading needs is missing
///         (naming it) or |β| of the Dutch-roll shape is 0.
ModalSummary SummarizeModes(const std::vector<Mode>& longitudinal,
                            const std::vector<Mode>& lateral,
                            const model::AircraftData& aircraft);

/// A lower and/or upper limit of one level; an empty side is no limit.
struct Limits {
  std::optional<double> min;
  std::optional<double> max;
};

/// One requirement applied to one mode.
struct RequirementResult {
  ModeKind mode;
  /// "zeta", "CAP", "wn", "zeta*wn", "T2", "tau_R".
  std::string criterion;
  double value = 0.0;  ///< the aircraft's value, in `unit` (+inf for "never doubles")
  /// "1", "1/(s^2 g)" (CAP, i.e. rad/s² per g/rad), "rad/s", "1/s", "s".
  std::string unit;
  std::array<Limits, 3> limits;  ///< Level 1, 2, 3, in `unit`; inclusive
  Level level = Level::k4;       ///< best level whose limits the value meets
  std::string paragraph;         ///< MIL-F-8785C paragraph, e.g. "3.3.1.1"
  std::string note;              ///< how the value was obtained, when not plain
};

/// The grading for one class and category.
struct QualitiesGrade {
  AircraftClass aircraft_class;
  FlightPhaseCategory category;
  double n_alpha = 0.0;  ///< [g/rad], as graded
  std::vector<RequirementResult> requirements;  ///< in table order, by mode
  Level level = Level::k1;                      ///< worst over all requirements

  /// Worst level over the requirements of `mode`; nullopt if none graded it.
  std::optional<Level> LevelOf(ModeKind mode) const;
};

/// Identifies one requirement table (one criterion of one mode).
enum class Criterion {
  kShortPeriodDamping,     ///< ζsp [-], 3.2.2.1.2 (Table IV)
  kShortPeriodCap,         ///< CAP [1/(s²·g)], 3.2.2.1.1 (bands per MIL-STD-1797A)
  kShortPeriodFrequency,   ///< minimum ωsp [rad/s], 3.2.2.1.1
  kPhugoidDamping,         ///< ζp [-], 3.2.1.2
  kPhugoidTimeToDouble,    ///< T2 [s], 3.2.1.2 (Levels 1, 2: +inf, no divergence)
  kDutchRollDamping,       ///< ζd [-], 3.3.1.1 (Table VI)
  kDutchRollDampingRate,   ///< ζd·ωnd [rad/s], 3.3.1.1, before the ωn²|φ/β| increase
  kDutchRollFrequency,     ///< ωnd [rad/s], 3.3.1.1
  kRollTimeConstant,       ///< maximum τR [s], 3.3.1.2 (Table VII)
  kSpiralTimeToDouble,     ///< minimum T2 [s], 3.3.1.3 (Table VIII)
  kRollSpiralDampingRate,  ///< ζRS·ωnRS [rad/s], 3.3.1.4 (Category A: +inf, not permitted)
};

/// Options that select table rows the modes alone cannot.
struct GradeOptions {
  /// The flight phase is Category A combat (CO) or ground attack (GA), which
  /// for Class IV selects 8785C Table VI's stricter Dutch-roll row
  /// (ζ ≥ 0.4, ωn ≥ 1.0 rad/s at Level 1).
  bool combat_or_ground_attack = false;
};

/// Returns the Level 1, 2, 3 limits of `criterion` for the class and
/// category, exactly as tabulated; nullopt where the specification sets none
/// (the short-period ωn floor in Category B). A minimum of +inf cannot be met
/// (used for "must not diverge" and "not permitted").
std::optional<std::array<Limits, 3>> RequirementLimits(Criterion criterion,
                                                       AircraftClass aircraft_class,
                                                       FlightPhaseCategory category,
                                                       const GradeOptions& options = {});

/// Returns the raise of the minimum Dutch-roll ζd·ωnd [rad/s] at Levels 1, 2, 3
/// for @f$x = \omega_{nd}^2|\phi/\beta|_d@f$ [rad²/s²] (3.3.1.1):
/// (0.014, 0.009, 0.005)·(x − 20) when x > 20, else zeros.
std::array<double, 3> DutchRollDampingRateIncrease(double wn2_phi_beta);

/// Returns the best level whose limits contain `value` (inclusive on both
/// sides), or Level::k4 if none does; NaN meets no level.
Level LevelFor(double value, const std::array<Limits, 3>& limits);

/// Grades `modes` for one class and category. Grading all categories is a
/// loop over FlightPhaseCategory in the caller.
/// @throws std::invalid_argument if the short period, phugoid or Dutch roll is
///         missing, if neither roll and spiral nor a roll–spiral pair is
///         given, or if n/α is not finite.
QualitiesGrade Grade(const ModalSummary& modes, AircraftClass aircraft_class,
                     FlightPhaseCategory category, const GradeOptions& options = {});

}  // namespace aerolin::analysis
