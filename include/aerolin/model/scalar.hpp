#pragma once
/// @file
/// The scalar types the model's formulas are written for, once, as templates
/// on T (Drake's default scalars): `double`, and two forward-mode
/// automatic-differentiation scalars (Eigen's `AutoDiffScalar`) that carry
/// exact derivatives through the conversions and the system matrices.
///
/// | T            | derivatives      | used by                                   |
/// |:-------------|:-----------------|:------------------------------------------|
/// | `double`     | none             | loading, BuildLongitudinal, BuildLateral  |
/// | `AutoDiffXd` | one per file key | sensitivities (analysis/sensitivity.hpp)  |
/// | `AutoDiff1d` | one parameter    | sweeps' dλ/dp (study/tracked.hpp)         |
///
/// The headers of model/ declare the templates; each is defined in one `.cpp`
/// and instantiated there for these three types only (AEROLIN_MODEL_SCALARS),
/// so a file that includes the loader does not compile the formulas, and
/// another T is a link error rather than a silent second copy.

#include <Eigen/Core>
#include <type_traits>
#include <utility>

namespace Eigen {
template <typename DerivativeType>
class AutoDiffScalar;  // <unsupported/Eigen/AutoDiff>
}  // namespace Eigen

namespace aerolin::model {

/// AD scalar with a dynamic number of derivatives (one per varied key).
using AutoDiffXd = Eigen::AutoDiffScalar<Eigen::VectorXd>;
/// AD scalar with one derivative (one swept parameter).
using AutoDiff1d = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;

/// Calls X(T) for each scalar the model's templates are instantiated for. A
/// `.cpp` defining a template includes <unsupported/Eigen/AutoDiff> and writes
/// `#define INSTANTIATE(T) template ... F<T>(...);` then
/// `AEROLIN_MODEL_SCALARS(INSTANTIATE)`.
#define AEROLIN_MODEL_SCALARS(X) \
  X(double)                      \
  X(::aerolin::model::AutoDiffXd) \
  X(::aerolin::model::AutoDiff1d)

/// How a formula reads one number of a file: called with a reference to the
/// field (a `double` inside the file's struct), it returns the field's value
/// as a T: `T(field)` to evaluate, or a seeded AD scalar for the fields a
/// caller varies (the field's address says which). A non-owning reference to
/// a callable, valid while the call it is passed to runs (a `function_ref`).
template <class T>
class FieldValue {
 public:
  /// Refers to `f`, callable as `T f(const double& field)`.
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FieldValue> &&
             std::is_invocable_r_v<T, F&, const double&>)
  FieldValue(F&& f)  // NOLINT(google-explicit-constructor): a lambda converts
      : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* callable, const double& field) -> T {
          return (*static_cast<std::remove_reference_t<F>*>(callable))(field);
        }) {}

  /// Returns the value of `field` as a T.
  T operator()(const double& field) const { return call_(callable_, field); }

 private:
  void* callable_;
  T (*call_)(void*, const double&);
};

}  // namespace aerolin::model
