#pragma once
/// @file
/// The system matrices as functions of a data file's numbers *as written*
/// (its units, raw or normalized, α- or w-form, primed or not), generic in the
/// scalar type so that a forward-mode automatic-differentiation scalar (Eigen's
/// `AutoDiffScalar`) gives the exact ∂A/∂(key) through every conversion:
/// ÷ mass or inertia, × U0 of the velocity forms, the Ixz priming, the
/// 1/(1 − Zα̇/U0) of the α row, and the trigonometry of θ0.
///
/// A coefficient file (`form = "coefficients"`, model/coefficients.hpp) adds
/// one link in front: keys → CoefficientsAsWritten → ToDimensional → the
/// coefficient sections of AircraftAsWritten → A (MatricesOfFile), so that its
/// derivatives move with U0, ρ, S, c, b, m or W, g, θ0 and the inertias as the
/// conversion says.
///
/// MatricesOf is no second copy of the formulas: it is ToNormalized<T>
/// (conversions.hpp) then LongitudinalA<T> / LateralA<T> (build.hpp), the code
/// Convert, BuildLongitudinal and BuildLateral run in double, so
/// `MatricesOf<double>` equals `BuildLongitudinal(Convert(written)).A()` and
/// `BuildLateral(...)`'s bit for bit. The templates are instantiated in
/// as_written.cpp for AEROLIN_MODEL_SCALARS (scalar.hpp).

#include <Eigen/Core>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/coefficients.hpp"
#include "aerolin/model/conversions.hpp"
#include "aerolin/model/scalar.hpp"

namespace aerolin::model {

/// One number of a data file, by its key as written.
struct WrittenKey {
  std::string path;  ///< "longitudinal.Mw", "condition.theta0_deg", "controls.rudder.N"
  double value = 0;  ///< as written, in the file's units
  double to_si = 1;  ///< the field FieldOf(path) holds value × to_si
};

/// A number of the file that sensitivities and sweeps do not vary, and why.
struct OmittedKey {
  std::string path;    ///< "condition.altitude"
  std::string reason;  ///< one sentence, e.g. "it gives rho through the standard atmosphere, ..."
};

/// A data file's numbers before model::Convert: what sensitivities and
/// sweeps differentiate and vary.
struct AircraftFile {
  AircraftAsWritten written;     ///< SI, in the file's forms (lateral.primed as the file says)
  /// A file with form = "coefficients" (or an AVL .st): its coefficient data,
  /// SI, per radian, inertias about `coefficients->axes`, from which
  /// ToDimensional gives the coefficient sections of `written` (and its U0,
  /// θ0, g, mass). Absent for a dimensional file.
  std::optional<CoefficientsAsWritten> coefficients;
  bool longitudinal_coefficients = false;  ///< [longitudinal] comes from `coefficients`
  bool lateral_coefficients = false;       ///< [lateral] comes from `coefficients`
  std::vector<WrittenKey> keys;  ///< every numeric key the file gives, by section in file order
  std::vector<OmittedKey> omitted;  ///< numbers the file gives that `keys` leaves out, with why
  /// The file closes a feedback ([augmentation]): `written` is the bare
  /// airframe, so what differentiates its keys (sensitivities, sweeps)
  /// refuses it rather than ignore the gains.
  bool augmented = false;
  /// The file's gains (AircraftData's), which a sweep holds while it varies
  /// the airframe's keys: it sweeps the closed loop A − B_K K.
  std::optional<AxisAugmentation> longitudinal_augmentation, lateral_augmentation;

  /// Returns the key `path`, or nullptr if the file does not give it.
  const WrittenKey* Find(std::string_view path) const;
};

/// Returns the field of `written` that the key `path` sets (condition.theta0_deg
/// sets condition.theta0), or nullptr if `path` is no field of the file's
/// forms: a key of the other angle form, an absent [mass] or optional key, an
/// unknown control or key.
const double* FieldOf(const AircraftAsWritten& written, std::string_view path);
double* FieldOf(AircraftAsWritten& written, std::string_view path);

/// Returns the field of `file` that the key `path` sets: for a coefficient
/// file, a field of `file.coefficients` for its condition ("condition.U0",
/// "condition.rho", "condition.alpha0_deg", "condition.mach"), mass
/// ("mass.W"), geometry ("geometry.S") and coefficient keys
/// ("longitudinal.Cmq", "controls.elevator.Cm") and an AVL file's .st numbers
/// ("avl.CLa", "avl.CLtot", "avl.Sref", "avl.elevator.Cm"), else
/// FieldOf(file.written, path) (a dimensional section of a mixed file).
/// nullptr as FieldOf.
const double* FieldOf(const AircraftFile& file, std::string_view path);
double* FieldOf(AircraftFile& file, std::string_view path);

/// Both axes' system matrices in a scalar type T.
template <class T>
struct AxisMatrices {
  Eigen::Matrix<T, 4, 4> longitudinal;  ///< x = (u, α, q, θ); see BuildLongitudinal
  Eigen::Matrix<T, 5, 5> lateral;       ///< x = (β, p, r, φ, ψ); see BuildLateral
};

/// Returns the A matrices of `written` (Convert, then BuildLongitudinal /
/// BuildLateral), reading every number through `value(field) -> T`, where
/// `field` is a reference into `written`: return `T(field)` to evaluate, or a
/// seeded AD scalar (or another value) for the fields a caller varies. Without
/// Convert's checks (ToNormalized).
template <class T>
AxisMatrices<T> MatricesOf(const AircraftAsWritten& written, FieldValue<T> value);

/// Returns MatricesOf(written) in double.
AxisMatrices<double> MatricesOf(const AircraftAsWritten& written);

/// Returns the A matrices of `file` through its whole chain, reading every
/// number through `value(field) -> T` as MatricesOf, where `field` is a
/// reference into `file` (FieldOf(file, key)): for a dimensional file
/// MatricesOf(file.written); for a coefficient file ToDimensional<T> of
/// `file.coefficients`, whose U0, θ0, g, mass and (coefficient sections')
/// derivatives replace those fields of `file.written` in MatricesOf.
/// `MatricesOfFile<double>(file, identity)` equals MatricesOf(file.written).
template <class T>
AxisMatrices<T> MatricesOfFile(const AircraftFile& file, FieldValue<T> value);

/// Both axes' input matrices B in a scalar type T: one column per control
/// that enters the axis, in file order (BuildLongitudinal's and BuildLateral's
/// B, from the same LongitudinalB / LateralB).
template <class T>
struct AxisInputMatrices {
  Eigen::Matrix<T, 4, Eigen::Dynamic> longitudinal;  ///< 4 × longitudinal controls
  Eigen::Matrix<T, 5, Eigen::Dynamic> lateral;       ///< 5 × lateral controls
};

/// Returns the B matrices of `written` (ToNormalized, ToNormalizedControl,
/// then LongitudinalB / LateralB), reading every number through `value` as
/// MatricesOf.
template <class T>
AxisInputMatrices<T> InputMatricesOf(const AircraftAsWritten& written, FieldValue<T> value);

/// Returns the B matrices of `file` through its whole chain, as
/// MatricesOfFile does for A: a coefficient file's control coefficients enter
/// through ToDimensional<T>, so ∂B/∂(controls.elevator.Cm) or ∂B/∂(condition.U0)
/// is exact.
template <class T>
AxisInputMatrices<T> InputMatricesOfFile(const AircraftFile& file, FieldValue<T> value);

}  // namespace aerolin::model
