#include "aerolin/model/inertia_axes.hpp"

#include <cmath>
#include <stdexcept>

namespace aerolin::model {

MassProperties RotateInertias(const MassProperties& body, double epsilon) {
  if (epsilon == 0.0) return body;
  if (!body.Ix || !body.Iz || !body.Ixz)
    throw std::invalid_argument("rotating inertias needs Ix, Iz and Ixz");
  const double Ix = *body.Ix, Iz = *body.Iz, Ixz = *body.Ixz;
  const double c2 = std::cos(epsilon) * std::cos(epsilon);
  const double s2 = std::sin(epsilon) * std::sin(epsilon);
  const double sin2e = std::sin(2.0 * epsilon), cos2e = std::cos(2.0 * epsilon);
  MassProperties out = body;
  out.Ix = Ix * c2 + Iz * s2 - Ixz * sin2e;
  out.Iz = Ix * s2 + Iz * c2 + Ixz * sin2e;
  out.Ixz = 0.5 * (Ix - Iz) * sin2e + Ixz * cos2e;
  return out;
}

}  // namespace aerolin::model
