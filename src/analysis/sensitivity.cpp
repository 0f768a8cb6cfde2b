#include "aerolin/analysis/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unsupported/Eigen/AutoDiff>

#include "aerolin/model/conversions.hpp"

namespace aerolin::analysis {

std::complex<double> EigenvalueDerivative(const Eigen::VectorXcd& left,
                                          const Eigen::VectorXcd& right,
                                          const Eigen::MatrixXd& dA) {
  if (left.size() != right.size() || dA.rows() != right.size() || dA.cols() != right.size())
    throw std::invalid_argument("EigenvalueDerivative: sizes differ (left " +
                                std::to_string(left.size()) + ", right " +
                                std::to_string(right.size()) + ", dA " +
                                std::to_string(dA.rows()) + "x" + std::to_string(dA.cols()) + ")");
  const std::complex<double> wv = left.dot(right);  // wᴴv (dot conjugates its left side)
  if (wv == 0.0) throw std::invalid_argument("EigenvalueDerivative: wᴴv = 0");
  return left.dot(dA.cast<std::complex<double>>() * right) / wv;
}

double FrequencyDerivative(std::complex<double> lambda, std::complex<double> dlambda) {
  const double r = std::abs(lambda);
  if (r == 0.0) return 0.0;
  return (std::conj(lambda) * dlambda).real() / r;
}

double DampingDerivative(std::complex<double> lambda, std::complex<double> dlambda) {
  const double r = std::abs(lambda);
  if (r == 0.0) return 0.0;
  const double dr = FrequencyDerivative(lambda, dlambda);
  return (lambda.real() * dr - r * dlambda.real()) / (r * r);
}

MatrixDerivatives DifferentiateMatrices(const model::AircraftFile& file) {
  if (file.augmented)
    throw std::invalid_argument(
        "the file closes a feedback ([augmentation]): sensitivities differentiate the airframe's "
        "keys and would ignore its gains; run them on the file without [augmentation]");
  // Forward-mode AD with one derivative slot per key: one pass through the
  // conversions and builders gives every ∂A/∂key exactly (to round-off), where
  // A is not affine in the key (Zα̇ divides the α row, U0 and θ0 enter
  // nonlinearly, raw forms divide by m and I, priming couples L and N, and a
  // coefficient file's derivatives are products of ρ, U0, S, c, b and C_W0).
  using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
  const auto n = static_cast<Eigen::Index>(file.keys.size());
  std::vector<const double*> fields;
  for (const model::WrittenKey& k : file.keys) fields.push_back(model::FieldOf(file, k.path));
  const model::AxisMatrices<AD> m =
      model::MatricesOfFile<AD>(file, [&](const double& field) -> AD {
        Eigen::VectorXd d = Eigen::VectorXd::Zero(n);
        for (Eigen::Index i = 0; i < n; ++i)
          if (fields[static_cast<std::size_t>(i)] == &field) d(i) = file.keys[static_cast<std::size_t>(i)].to_si;
        return AD(field, d);
      });
  MatrixDerivatives out;
  auto slice = [n](const auto& M, Eigen::Index i) {
    Eigen::MatrixXd d(M.rows(), M.cols());
    for (Eigen::Index r = 0; r < M.rows(); ++r)
      for (Eigen::Index c = 0; c < M.cols(); ++c)
        d(r, c) = M(r, c).derivatives().size() == n ? M(r, c).derivatives()(i) : 0.0;
    return d;
  };
  for (Eigen::Index i = 0; i < n; ++i) {
    out.keys.push_back(file.keys[static_cast<std::size_t>(i)].path);
    out.longitudinal.push_back(slice(m.longitudinal, i));
    out.lateral.push_back(slice(m.lateral, i));
  }
  return out;
}

std::vector<ModeSensitivity> ModeSensitivities(const model::AircraftFile& file) {
  const ModalAnalysis modes = AnalyzeModes(model::Convert(file.written));
  const MatrixDerivatives d = DifferentiateMatrices(file);
  std::vector<std::size_t> entering;
  for (std::size_t i = 0; i < d.keys.size(); ++i)
    if (!d.longitudinal[i].isZero(0.0) || !d.lateral[i].isZero(0.0)) entering.push_back(i);

  std::vector<ModeSensitivity> out;
  for (model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
    for (const Mode& mode : modes.modes(axis)) {
      if (mode.kind == ModeKind::kHeading || mode.left.size() == 0) continue;
      ModeSensitivity s{mode, {}, {}};
      for (std::size_t i : entering) {
        const Eigen::MatrixXd& dA =
            axis == model::Axis::kLongitudinal ? d.longitudinal[i] : d.lateral[i];
        KeySensitivity k;
        k.key = d.keys[i];
        k.value = file.keys[i].value;
        k.dlambda = EigenvalueDerivative(mode.left, mode.shape, dA);
        if (!mode.oscillatory) k.dlambda.imag(0.0);  // a simple real root moves along the axis
        k.dzeta = mode.oscillatory ? DampingDerivative(mode.lambda, k.dlambda) : 0.0;
        k.dwn = FrequencyDerivative(mode.lambda, k.dlambda);
        k.relative_effect = k.value * (mode.oscillatory ? k.dzeta : k.dlambda.real());
        s.keys.push_back(std::move(k));
      }
      std::vector<int> order(s.keys.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::abs(s.keys[a].relative_effect) > std::abs(s.keys[b].relative_effect);
      });
      for (int i : order)
        if (s.top.size() < 3 && s.keys[i].relative_effect != 0.0) s.top.push_back(i);
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace aerolin::analysis
