#include "aerolin/sim/input.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace aerolin::sim {
namespace {

void CheckColumns(const Eigen::MatrixXd& table, Eigen::Index size, const char* what) {
  if (table.cols() != size)
    throw std::invalid_argument(std::string("SampledControls: the ") + what + " table has " +
                                std::to_string(table.cols()) + " columns, the model has " +
                                std::to_string(size) + " " + what + "s");
}

}  // namespace

void HandsOff::InputForSlice(long, double, Eigen::Ref<Eigen::VectorXd> controls,
                             Eigen::Ref<Eigen::VectorXd> disturbance) {
  controls.setZero();
  disturbance.setZero();
}

SampledControls::SampledControls(Eigen::MatrixXd controls, Eigen::MatrixXd disturbances)
    : controls_(std::move(controls)), disturbances_(std::move(disturbances)) {
  if (controls_.rows() < 1)
    throw std::invalid_argument("SampledControls: the control table has no row");
  if (!controls_.allFinite() || !disturbances_.allFinite())
    throw std::invalid_argument("SampledControls: a table entry is not finite");
}

void SampledControls::InputForSlice(long k, double, Eigen::Ref<Eigen::VectorXd> controls,
                                    Eigen::Ref<Eigen::VectorXd> disturbance) {
  CheckColumns(controls_, controls.size(), "control");
  controls = controls_.row(std::min<Eigen::Index>(k, controls_.rows() - 1)).transpose();
  if (disturbances_.rows() == 0) {
    disturbance.setZero();
    return;
  }
  CheckColumns(disturbances_, disturbance.size(), "disturbance");
  disturbance =
      disturbances_.row(std::min<Eigen::Index>(k, disturbances_.rows() - 1)).transpose();
}

FunctionControls::FunctionControls(Writer writer) : writer_(std::move(writer)) {}

FunctionControls::FunctionControls(Function function)
    : writer_([f = std::move(function)](double t, Eigen::Ref<Eigen::VectorXd> controls) {
        const Eigen::VectorXd value = f(t);
        if (value.size() != controls.size())
          throw std::invalid_argument("FunctionControls: the function returned " +
                                      std::to_string(value.size()) +
                                      " controls, the model has " +
                                      std::to_string(controls.size()));
        controls = value;
      }) {}

void FunctionControls::InputForSlice(long k, double dt, Eigen::Ref<Eigen::VectorXd> controls,
                                     Eigen::Ref<Eigen::VectorXd> disturbance) {
  writer_(static_cast<double>(k) * dt, controls);
  disturbance.setZero();
}

}  // namespace aerolin::sim
