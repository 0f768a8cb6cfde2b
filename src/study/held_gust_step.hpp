#pragma once
// The exact step of x' = A x + E d over one slice with the gust d held
// (internal to study: rough_air.cpp and monte_carlo.cpp fly the same step).

#include <Eigen/Core>

#include "aerolin/core/matrix_exponential.hpp"

namespace aerolin::study::detail {

/// x(Δt) = Φ x(0) + Γ_E d: [Φ Γ_E] is the top of exp([A E; 0 0]Δt).
struct HeldGustStep {
  Eigen::MatrixXd phi;      ///< n × n
  Eigen::MatrixXd gamma_e;  ///< n × m
};

inline HeldGustStep ExactHeldGustStep(const Eigen::MatrixXd& A, const Eigen::MatrixXd& E, double dt) {
  const Eigen::Index n = A.rows(), m = E.cols();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n + m, n + m);
  M.topLeftCorner(n, n) = A * dt;
  M.topRightCorner(n, m) = E * dt;
  const Eigen::MatrixXd F = core::MatrixExponential(M);
  return {F.topLeftCorner(n, n), F.topRightCorner(n, m)};
}

}  // namespace aerolin::study::detail
