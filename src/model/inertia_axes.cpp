#include "aerolin/model/inertia_axes.hpp"

#include <stdexcept>

namespace aerolin::model {

MassProperties RotateInertias(const MassProperties& body, double epsilon) {
  if (epsilon == 0.0) return body;
  if (!body.Ix || !body.Iz || !body.Ixz)
    throw std::invalid_argument("rotating inertias needs Ix, Iz and Ixz");
  const InertiaBlock<double> r = RotateInertiaBlock(*body.Ix, *body.Iz, *body.Ixz, epsilon);
  MassProperties out = body;
  out.Ix = r.Ix;
  out.Iz = r.Iz;
  out.Ixz = r.Ixz;
  return out;
}

}  // namespace aerolin::model
