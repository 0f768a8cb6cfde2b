#include "aerolin/model/state_space.hpp"

#include <stdexcept>
#include <string>

namespace aerolin::model {
namespace {

std::string Size(const Eigen::MatrixXd& m) {
  return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}

void RequireSize(const char* name, const Eigen::MatrixXd& m, Eigen::Index rows,
                 Eigen::Index cols) {
  if (m.rows() != rows || m.cols() != cols)
    throw std::invalid_argument(std::string("StateSpace: ") + name + " is " +
                                Size(m) + ", expected " + std::to_string(rows) +
                                "x" + std::to_string(cols));
  if (!m.allFinite())
    throw std::invalid_argument(std::string("StateSpace: ") + name +
                                " has a non-finite entry");
}

}  // namespace

StateSpace::StateSpace(Eigen::MatrixXd A, Eigen::MatrixXd B, Eigen::MatrixXd C,
                       Eigen::MatrixXd D, std::vector<core::Signal> states,
                       std::vector<core::Signal> inputs,
                       std::vector<core::Signal> outputs)
    : A_(std::move(A)),
      B_(std::move(B)),
      C_(std::move(C)),
      D_(std::move(D)),
      states_(std::move(states)),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)) {
  const auto n = static_cast<Eigen::Index>(states_.size());
  const auto m = static_cast<Eigen::Index>(inputs_.size());
  const auto p = static_cast<Eigen::Index>(outputs_.size());
  RequireSize("A", A_, n, n);
  RequireSize("B", B_, n, m);
  RequireSize("C", C_, p, n);
  RequireSize("D", D_, p, m);
}

StateSpace::StateSpace(Eigen::MatrixXd A, Eigen::MatrixXd B,
                       std::vector<core::Signal> states,
                       std::vector<core::Signal> inputs)
    : StateSpace(A, B,
                 Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(states.size()),
                                           static_cast<Eigen::Index>(states.size())),
                 Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(states.size()),
                                       static_cast<Eigen::Index>(inputs.size())),
                 states, inputs, states) {}

}  // namespace aerolin::model
