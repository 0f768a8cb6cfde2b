#pragma once
/// @file
/// Nonlinear aerodynamic coefficient tables (a data file's `[tables]`,
/// docs/nonlinear.md): body-axis force and moment coefficients as functions
/// of the angle of attack and, optionally, one more variable (β or a
/// control's deflection), linearly interpolated and held at their edge
/// values outside their breakpoints. The nonlinear model
/// (sim/nonlinear_model.hpp) takes from them the terms of its linear
/// aerodynamic model that they replace.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aerolin::model {

/// What a table gives, in the axes of the data file (x forward, z down; body
/// axes when the file gives W0). Static coefficients are per q̄S (forces) or
/// q̄Sc̄ (C_m); damping coefficients per unit of q c̄/(2V).
enum class TableCoefficient {
  kCX,   ///< C_X: X = q̄ S C_X
  kCZ,   ///< C_Z: Z = q̄ S C_Z
  kCm,   ///< C_m: M = q̄ S c̄ C_m
  kCXq,  ///< C_Xq: X += q̄ S C_Xq q c̄/(2V)
  kCZq,  ///< C_Zq
  kCmq,  ///< C_mq: M += q̄ S c̄ C_mq q c̄/(2V)
};

/// Returns the coefficient's name as a file writes it ("CX", "CZ", "Cm", "CXq", "CZq", "Cmq").
std::string_view ToString(TableCoefficient c);
/// Returns the coefficient named `name` (case matters), or nullopt.
std::optional<TableCoefficient> TableCoefficientNamed(std::string_view name);
/// The names every table may have, in enum order.
const std::vector<std::string_view>& TableCoefficientNames();
/// True for the static coefficients C_X, C_Z, C_m (which may take a second variable).
bool IsStatic(TableCoefficient c);

/// The variable of a table's second dimension.
enum class TableVariable {
  kNone,     ///< a 1-D table of α
  kBeta,     ///< sideslip β = asin(v/V) [rad]
  kControl,  ///< a control's deflection (its setting, not the deviation) [its unit]
};

/// One table: values over α (and a second variable), SI and radians.
struct CoefficientTable {
  TableCoefficient coefficient = TableCoefficient::kCX;
  TableVariable second = TableVariable::kNone;
  int control = -1;         ///< with kControl: the index into AircraftData::controls
  std::string second_name;  ///< "beta" or the control's name (messages)
  bool second_is_angle = true;  ///< the second variable is an angle (shown in degrees)
  std::vector<double> alpha;    ///< α breakpoints [rad], strictly increasing, ≥ 2
  std::vector<double> other;    ///< the second variable's breakpoints (empty for 1-D), strictly increasing, ≥ 2
  /// Row-major: one row per `other` breakpoint (one row for 1-D), one
  /// entry per α breakpoint; as the file writes it.
  std::vector<double> values;

  /// Returns the coefficient at (`alpha` [rad], `second_value`), linearly
  /// interpolated (bilinearly for 2-D); each variable is clamped to its
  /// breakpoints first (held at the edge value).
  double At(double alpha, double second_value = 0.0) const;
};

/// Returns y at x of the piecewise-linear function through (xs, ys), held at
/// ys.front()/ys.back() outside [xs.front(), xs.back()].
/// @pre xs strictly increasing, xs.size() == ys.size() ≥ 2.
double InterpolateClamped(const std::vector<double>& xs, const std::vector<double>& ys, double x);

/// A data file's `[tables]`, with what its coefficients are scaled by; SI.
struct AeroTables {
  double S = 0.0;     ///< reference area [m²]
  double c = 0.0;     ///< mean aerodynamic chord c̄ [m]
  double m = 0.0;     ///< mass [kg]
  double Iy = 0.0;    ///< pitch inertia [kg·m²] (needed by C_m, C_mq; 0 when neither is given)
  double rho0 = 0.0;  ///< air density at the reference condition [kg/m³]
  /// Each control's setting at the reference condition, in file order, in
  /// its unit (rad or 1): the tables take deflections, aerolin's controls
  /// are deviations from these.
  std::vector<double> reference_controls;
  std::vector<CoefficientTable> tables;  ///< in TableCoefficient order, one per coefficient

  /// The table of `c`, or nullptr.
  const CoefficientTable* Find(TableCoefficient c) const;
};

/// A variable outside the breakpoints of one or more tables with the same
/// range (they then hold their edge values): "alpha = 47 deg is past CZ's
/// table, -10..45 deg".
struct TableExcursion {
  std::vector<std::string> tables;  ///< "CZ", ... (AeroTables::tables' order)
  std::string variable;  ///< "alpha", "beta" or a control's name
  double value = 0.0;    ///< [rad, or the control's unit]
  double low = 0.0, high = 0.0;  ///< the breakpoints' range, same unit
  bool angle = true;     ///< shown in degrees

  /// "alpha = 47 deg is past CZ's table, -10..45 deg (held at its edge
  /// value)", or "... past the tables CX, CZ, Cm, -10..45 deg (held at their
  /// edge values)".
  std::string ToString() const;
};

/// Returns every variable of `tables` outside its tables' breakpoints at
/// (`alpha`, `beta`) [rad] and `controls` (the *settings*, each control's
/// unit): one per variable and range, naming every table of that range.
std::vector<TableExcursion> TableExcursions(const AeroTables& tables, double alpha, double beta,
                                            const std::vector<double>& controls);

}  // namespace aerolin::model
