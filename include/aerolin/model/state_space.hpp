#pragma once
/// @file
/// Continuous-time linear time-invariant model.

#include <Eigen/Core>
#include <vector>

#include "aerolin/core/signal.hpp"

namespace aerolin::model {

/// Continuous-time LTI model of small perturbations about a trim point:
///   @f[ \dot{x} = A x + B u, \qquad y = C x + D u. @f]
/// | Matrix | Rows        | Cols       |
/// |:------:|:-----------:|:----------:|
/// | A      | num_states  | num_states |
/// | B      | num_states  | num_inputs |
/// | C      | num_outputs | num_states |
/// | D      | num_outputs | num_inputs |
/// Everything is SI (m, s, kg, rad); see conventions.hpp for axes and signs.
class StateSpace {
 public:
  /// @throws std::invalid_argument if sizes disagree or an entry is not
  ///         finite; the message names the matrix and both sizes.
  StateSpace(Eigen::MatrixXd A, Eigen::MatrixXd B, Eigen::MatrixXd C,
             Eigen::MatrixXd D, std::vector<core::Signal> states,
             std::vector<core::Signal> inputs,
             std::vector<core::Signal> outputs);

  /// A model whose outputs are its states (C = I, D = 0).
  /// @throws std::invalid_argument as the full constructor.
  StateSpace(Eigen::MatrixXd A, Eigen::MatrixXd B,
             std::vector<core::Signal> states,
             std::vector<core::Signal> inputs);

  const Eigen::MatrixXd& A() const { return A_; }
  const Eigen::MatrixXd& B() const { return B_; }
  const Eigen::MatrixXd& C() const { return C_; }
  const Eigen::MatrixXd& D() const { return D_; }
  const std::vector<core::Signal>& states() const { return states_; }
  const std::vector<core::Signal>& inputs() const { return inputs_; }
  const std::vector<core::Signal>& outputs() const { return outputs_; }
  int num_states() const { return static_cast<int>(states_.size()); }
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }

 private:
  Eigen::MatrixXd A_, B_, C_, D_;
  std::vector<core::Signal> states_, inputs_, outputs_;
};

}  // namespace aerolin::model
