#pragma once
/// @file
/// An aircraft's trim condition and dimensional stability derivatives, in SI,
/// normalized (divided by mass or inertia), α/β form, primed lateral moments.
/// This is what every data file becomes after loading (see data/).

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/model/aero_tables.hpp"
#include "aerolin/model/actuators.hpp"
#include "aerolin/model/airplane_class.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::model {

/// Trim (reference) flight condition, in a scalar type T (model/scalar.hpp);
/// FlightCondition is the `double` one.
template <class T>
struct FlightConditionOf {
  T U0 = 0.0;      ///< trim speed along stability x [m/s], > 0
  T W0 = 0.0;      ///< trim speed along z [m/s] (0 in stability axes)
  T theta0 = 0.0;  ///< trim pitch attitude θ0 [rad], |θ0| < π/2
  T g = core::kStandardGravity;  ///< gravity [m/s²]
  std::optional<T> altitude;  ///< informational [m]
  std::optional<T> mach;      ///< informational [-]
  /// MIL-F-8785C flight-phase category of this condition, when the file
  /// declares it (`[condition] category`); selects the flying-qualities rows.
  std::optional<FlightPhaseCategory> category;
};
using FlightCondition = FlightConditionOf<double>;

/// Mass and inertia in stability axes, SI; each absent when a file does not
/// give it. They enter only through the raw → normalized conversion
/// (conversions.hpp): the derivatives of AircraftData are already normalized.
/// In a scalar type T; MassProperties is the `double` one.
template <class T>
struct MassPropertiesOf {
  std::optional<T> m;    ///< mass [kg]
  std::optional<T> Ix;   ///< roll inertia [kg·m²]
  std::optional<T> Iy;   ///< pitch inertia [kg·m²]
  std::optional<T> Iz;   ///< yaw inertia [kg·m²]
  std::optional<T> Ixz;  ///< product of inertia [kg·m²] (Etkin's Izx sign)
};
using MassProperties = MassPropertiesOf<double>;

/// Geometry the linear model does not need but the disturbance models do;
/// each absent when a file does not give it (`[geometry]`).
struct Geometry {
  /// Wing span [m]: the rolling gust p_g of Dryden turbulence needs it
  /// (sim/turbulence.hpp); without it there is no p_g.
  std::optional<double> b;
};

/// Normalized longitudinal derivatives (Kato ch. 3; Etkin & Reid §4.9):
/// forces divided by mass, moments by Iy. Per radian. In a scalar type T;
/// LongitudinalDerivatives is the `double` one.
template <class T>
struct LongitudinalDerivativesOf {
  T Xu = 0.0;     ///< [1/s]
  T Zu = 0.0;     ///< [1/s]
  T Mu = 0.0;     ///< [1/(m·s)]
  T Xa = 0.0;     ///< X_α [m/s²]
  T Za = 0.0;     ///< Z_α [m/s²]
  T Ma = 0.0;     ///< M_α [1/s²]
  T Zadot = 0.0;  ///< Z_α̇ [m/s]
  T Madot = 0.0;  ///< M_α̇ [1/s]
  T Xq = 0.0;     ///< [m/s]
  T Zq = 0.0;     ///< [m/s]
  T Mq = 0.0;     ///< [1/s]
};
using LongitudinalDerivatives = LongitudinalDerivativesOf<double>;

/// Normalized lateral-directional derivatives; L and N are *primed*
/// (Ixz coupling included). Per radian. In a scalar type T;
/// LateralDerivatives is the `double` one.
template <class T>
struct LateralDerivativesOf {
  T Yb = 0.0;  ///< Y_β [m/s²]
  T Yp = 0.0;  ///< [m/s]
  T Yr = 0.0;  ///< [m/s]
  T Lb = 0.0;  ///< L'_β [1/s²]
  T Lp = 0.0;  ///< L'_p [1/s]
  T Lr = 0.0;  ///< L'_r [1/s]
  T Nb = 0.0;  ///< N'_β [1/s²]
  T Np = 0.0;  ///< N'_p [1/s]
  T Nr = 0.0;  ///< N'_r [1/s]
};
using LateralDerivatives = LateralDerivativesOf<double>;

/// One control effector and its normalized derivatives per unit of control.
struct Control {
  std::string name;          ///< e.g. "elevator"
  core::Unit unit = core::Unit::kRadian;  ///< kRadian or kOne (dimensionless)
  bool longitudinal = false;  ///< enters the longitudinal B (X, Z or M given)
  bool lateral = false;       ///< enters the lateral B (Y, L or N given)
  double X = 0.0;  ///< [m/s² per unit]
  double Z = 0.0;  ///< [m/s² per unit]
  double M = 0.0;  ///< [1/s² per unit]
  double Y = 0.0;  ///< [m/s² per unit]
  double L = 0.0;  ///< primed [1/s² per unit]
  double N = 0.0;  ///< primed [1/s² per unit]
  std::optional<double> min;  ///< lower limit [unit]
  std::optional<double> max;  ///< upper limit [unit]
};

/// The washout time constants a data file's `washout_s` accepts [s]: below 10 ms the filter passes nothing a pilot sees (and makes
/// the model stiff); above 100 s it washes out nothing an analysis sees.
inline constexpr double kMinWashout_s = 0.01;
inline constexpr double kMaxWashout_s = 100.0;

/// Washed-out loops an axis may have: each adds a filter state, and the
/// studies follow an axis's roots on matrices of at most 8 states
/// (analysis::kMaxSmallStates): the airframe's 4 (the lateral without ψ)
/// and 4 filters.
inline constexpr int kMaxWashoutsPerAxis = 4;

/// A loop δ_input = K·y_output on a derived output of an axis (the
/// accelerations nz, ay, or γ: model/outputs.hpp), which may depend on the
/// controls directly (D ≠ 0), or through a washout filter s/(s + 1/τ) on a
/// state or a derived output. K's sign as given (study/loops.hpp).
struct OutputFeedback {
  std::string input;   ///< a control of the axis, e.g. "elevator"
  /// A derived output's name, e.g. "nz" (outputs.hpp); with a washout, also
  /// a state of the axis, e.g. "r".
  std::string output;
  double gain = 0.0;   ///< K [input unit per output unit, e.g. rad/g]
  /// τ [s] of the washout s/(s + 1/τ) on the output: a filter state of its
  /// own (BuildAugmented); empty: the output fed back as it is.
  std::optional<double> washout_s = std::nullopt;
};

/// A feedback on one axis, closed by BuildLongitudinal / BuildLateral: a
/// full-state gain u = −K x, plus loops on derived outputs. Without such
/// loops the model is ẋ = (A − B_K K) x + B u, B_K the columns of the inputs
/// named (the pilot's inputs stay the inputs); with them, the loops are
/// closed through their feedthrough (FeedbackOf, build.hpp). A data file's
/// `[augmentation.longitudinal]` / `[augmentation.lateral]`, as
/// `aerolin augment --write` writes it.
struct AxisAugmentation {
  /// The controls fed back, each once: the rows of `gain` (a control fed
  /// back only through `output_loops` has a zero row).
  std::vector<std::string> inputs;
  /// inputs × the axis's states (conventions.hpp order), SI: input unit per
  /// state unit (rad per rad/s, rad per m/s, ...).
  Eigen::MatrixXd gain;
  /// Loops on derived outputs, closed with `gain` (each input among `inputs`).
  std::vector<OutputFeedback> output_loops = {};
};

/// Everything aerolin knows about one aircraft at one flight condition.
struct AircraftData {
  std::string name;
  std::string source;  ///< citation of the derivatives
  /// MIL-F-8785C airplane class, when the file declares it (`[aircraft] class`).
  std::optional<AircraftClass> aircraft_class;
  FlightCondition condition;
  LongitudinalDerivatives longitudinal;
  LateralDerivatives lateral;
  std::vector<Control> controls;  ///< in file order
  /// As the file gave it (informational: changing it does not re-normalize
  /// the derivatives; convert an AircraftAsWritten again for that).
  MassProperties mass;
  Geometry geometry;  ///< as the file gave it (`[geometry]`)
  /// Feedback closed on each axis by the model builders; empty: the bare airframe.
  std::optional<AxisAugmentation> longitudinal_augmentation;
  std::optional<AxisAugmentation> lateral_augmentation;
  /// Actuators and delay of the pilot's commands (`[actuators]`); empty: ideal.
  /// The MIL-STD-1797A criteria use them (model/actuators.hpp); the flight
  /// limits the surfaces to their position limits (sim::FlightModel).
  CommandPath command_path;
  /// Nonlinear coefficient tables (`[tables]`); only the nonlinear model
  /// (sim/nonlinear_model.hpp) uses them: the linear model is the derivatives'.
  std::optional<AeroTables> tables;
};

/// True if the aircraft closes a feedback on either axis (the file's
/// `[augmentation]`).
inline bool IsAugmented(const AircraftData& aircraft) {
  return aircraft.longitudinal_augmentation.has_value() || aircraft.lateral_augmentation.has_value();
}

/// `aircraft` without its augmentation: the bare airframe (`aerolin simulate
/// --bare`, the flight window's G key).
inline AircraftData BareAirframe(AircraftData aircraft) {
  aircraft.longitudinal_augmentation.reset();
  aircraft.lateral_augmentation.reset();
  return aircraft;
}

}  // namespace aerolin::model
