#pragma once
/// @file
/// A disturbance known as a function of time (a discrete gust), which the
/// integrators can evaluate inside a slice instead of holding it.

#include <Eigen/Core>

namespace aerolin::sim {

/// A known disturbance g(t), added to the disturbance d held over a slice:
/// the model sees @f$ \dot x = A x + B\delta + E\,(d + g(t)) @f$.
///
/// RK45 evaluates g at every stage (t = slice start + stage time); the exact
/// integrator holds g's mean over the slice, @f$ \bar g_k = \frac{1}{\Delta t}
/// \int_{k\Delta t}^{(k+1)\Delta t} g\,dt @f$ (global error O(Δt²) in the
/// response for a g with a bounded derivative). g should be continuous in t,
/// and Add/AddMean must not allocate: the slicer calls them every slice.
class DisturbanceProfile {
 public:
  virtual ~DisturbanceProfile() = default;
  /// Number of disturbance channels (the model's E columns, in their order).
  virtual int size() const = 0;
  /// Adds g(t) to `d` (size() entries) at time `t` [s].
  virtual void Add(double t, Eigen::Ref<Eigen::VectorXd> d) const = 0;
  /// Adds the mean of g over [t0, t1] (t1 > t0) [s] to `d`.
  virtual void AddMean(double t0, double t1, Eigen::Ref<Eigen::VectorXd> d) const = 0;
};

}  // namespace aerolin::sim
