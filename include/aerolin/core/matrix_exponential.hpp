#pragma once
/// @file
/// The matrix exponential e^M, the one place aerolin instantiates Eigen's
/// (unsupported/Eigen/MatrixFunctions: scaling and squaring with a Padé
/// approximant). The exact slice of the linear model, the Dryden filters'
/// discretization and the exact rough-air statistics all ask here: each
/// instantiation costs ~7 s of a core at -O3 (docs/performance.md).

#include <Eigen/Core>

namespace aerolin::core {

/// Returns e^M for a square M (the 0×0 matrix for an empty one).
Eigen::MatrixXd MatrixExponential(const Eigen::MatrixXd& M);

}  // namespace aerolin::core
