#pragma once
/// @file
/// Moments and product of inertia rotated from body axes into the axes the
/// derivatives are written in (stability axes, or any axes in the plane of
/// symmetry), by a rotation about y.
///
/// With ε the angle from the derivatives' x axis up to the body x axis
/// (ε = α0 for stability axes; α0 − atan(W0/U0) when the derivative axes
/// carry a W0), and Ixz = ∫xz dm (Etkin's sign), the new coordinates are
/// x' = x cos ε + z sin ε, z' = −x sin ε + z cos ε, and from the definitions
/// Ix = ∫(y² + z²) dm, Iz = ∫(x² + y²) dm:
///   Ix' = Ix cos²ε + Iz sin²ε − Ixz sin 2ε,
///   Iz' = Ix sin²ε + Iz cos²ε + Ixz sin 2ε,
///   Ixz' = ½(Ix − Iz) sin 2ε + Ixz cos 2ε,   Iy' = Iy.
/// Ix + Iz and Ix Iz − Ixz² (trace and determinant of the xz block) are kept.

#include <cmath>

#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::model {

/// The xz block of an inertia tensor (Ix, Iz, Ixz; Etkin's sign), in a scalar type T.
template <class T>
struct InertiaBlock {
  T Ix, Iz, Ixz;  ///< [kg·m²]
};

/// Returns the block (Ix, Iz, Ixz) rotated by `epsilon` [rad] (file comment),
/// generic in T so that an automatic-differentiation scalar carries ∂/∂α0 and
/// ∂/∂(body-axis inertia) through it; RotateInertias is this in double.
template <class T>
InertiaBlock<T> RotateInertiaBlock(const T& Ix, const T& Iz, const T& Ixz, const T& epsilon) {
  using std::cos;
  using std::sin;
  const T c2 = cos(epsilon) * cos(epsilon);
  const T s2 = sin(epsilon) * sin(epsilon);
  const T sin2e = sin(2.0 * epsilon), cos2e = cos(2.0 * epsilon);
  return {Ix * c2 + Iz * s2 - Ixz * sin2e, Ix * s2 + Iz * c2 + Ixz * sin2e,
          0.5 * (Ix - Iz) * sin2e + Ixz * cos2e};
}

/// Returns `body` (inertias about body axes) rotated by `epsilon` [rad] (see
/// the file comment) into the derivatives' axes; m and absent inertias are
/// carried over. Ix, Iz and Ixz must all be present unless epsilon = 0.
/// @throws std::invalid_argument if one of Ix, Iz, Ixz is absent and epsilon ≠ 0.
MassProperties RotateInertias(const MassProperties& body, double epsilon);

}  // namespace aerolin::model
