#include "aerolin/core/matrix_exponential.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace aerolin::core {

Eigen::MatrixXd MatrixExponential(const Eigen::MatrixXd& M) { return M.exp(); }

}  // namespace aerolin::core
