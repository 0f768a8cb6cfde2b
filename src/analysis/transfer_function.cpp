#include "aerolin/analysis/transfer_function.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "aerolin/analysis/eigen.hpp"
#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::analysis {
namespace {

using cd = std::complex<double>;

// Inside the deflation, a feed-through b₂ below this fraction of ‖b‖, or an
// output row a₂₁ below this fraction of ‖A‖, is a structural zero made
// inexact by the reflections (they leave ~1e-16 relative); any physical
// Markov parameter of an aircraft model is many orders larger.
constexpr double kStructuralZero = 1e-10;
// A pole at |p| ≤ this × ρ is an integrator (the heading root is exactly 0).
constexpr double kIntegratorTolerance = 1e-12;
// Re z > this × ρ makes a zero non-minimum-phase (a zero on the axis is not).
constexpr double kRightHalfPlaneTolerance = 1e-9;

struct NamedRoot {
  cd value;
  const Mode* mode = nullptr;
  const FilterRoot* filter = nullptr;  // a washout filter's root, named so
};

std::vector<cd> EigenvaluesOf(const Eigen::MatrixXd& M) {
  if (M.rows() == 0) return {};
  const Eigen::VectorXcd values = Eigenvalues(M);  // eigen.hpp: the one instantiation
  return std::vector<cd>(values.data(), values.data() + values.size());
}

Factor MakeFactor(cd root, const Mode* mode, const FilterRoot* filter) {
  Factor f;
  f.second_order = root.imag() != 0.0;
  f.root = f.second_order ? cd(root.real(), std::abs(root.imag())) : cd(root.real(), 0.0);
  f.natural_frequency = std::abs(f.root);
  if (f.second_order)
    f.damping_ratio = f.natural_frequency > 0.0 ? -f.root.real() / f.natural_frequency : 0.0;
  else
    f.inverse_time_constant = -f.root.real();
  if (filter != nullptr) f.mode_name = FilterRootName(filter->state);
  if (mode != nullptr) {
    f.mode = mode->kind;
    f.mode_name = mode->full_name();
  }
  return f;
}

// Real roots first, then pairs; each group by ωn ascending, then Re.
void SortFactors(std::vector<Factor>& factors) {
  std::stable_sort(factors.begin(), factors.end(), [](const Factor& a, const Factor& b) {
    if (a.second_order != b.second_order) return !a.second_order;
    if (a.natural_frequency != b.natural_frequency)
      return a.natural_frequency < b.natural_frequency;
    return a.root.real() < b.root.real();
  });
}

std::vector<double> PolynomialOf(const std::vector<Factor>& factors, double leading) {
  std::vector<double> p = {leading};
  auto multiply = [&p](const std::vector<double>& q) {
    std::vector<double> out(p.size() + q.size() - 1, 0.0);
    for (std::size_t i = 0; i < p.size(); ++i)
      for (std::size_t j = 0; j < q.size(); ++j) out[i + j] += p[i] * q[j];
    p = std::move(out);
  };
  for (const Factor& f : factors) {
    if (f.second_order)
      multiply({1.0, -2.0 * f.root.real(), std::norm(f.root)});
    else
      multiply({1.0, -f.root.real()});
  }
  return p;
}

std::vector<cd> Expand(const std::vector<Factor>& factors) {
  std::vector<cd> roots;
  for (const Factor& f : factors) {
    roots.push_back(f.root);
    if (f.second_order) roots.push_back(std::conj(f.root));
  }
  return roots;
}

TransferFunction Assemble(const model::StateSpace& sys, int input, int output,
                          std::vector<NamedRoot> poles) {
  const int n = sys.num_states();
  if (input < 0 || input >= sys.num_inputs() || output < 0 || output >= sys.num_outputs())
    throw std::invalid_argument("ComputeTransferFunction: input " + std::to_string(input) +
                                " / output " + std::to_string(output) + " out of range (" +
                                std::to_string(sys.num_inputs()) + " inputs, " +
                                std::to_string(sys.num_outputs()) + " outputs)");
  if (static_cast<int>(poles.size()) != n)
    throw std::invalid_argument("ComputeTransferFunction: " + std::to_string(poles.size()) +
                                " pole roots for " + std::to_string(n) + " states");
  TransferFunction tf;
  tf.input = sys.inputs()[static_cast<std::size_t>(input)];
  tf.output = sys.outputs()[static_cast<std::size_t>(output)];
  const InvariantZeros z = ComputeInvariantZeros(sys.A(), sys.B().col(input),
                                                 sys.C().row(output), sys.D()(output, input));
  if (z.identically_zero) {
    tf.identically_zero = true;
    tf.dc_gain = 0.0;
    return tf;
  }
  tf.gain = z.gain;

  double rho = 0.0;
  for (const NamedRoot& p : poles) rho = std::max(rho, std::abs(p.value));
  // Pair each pole (Im ≥ 0 member) with the nearest zero of the same kind
  // (real with real, pair with pair) and cancel within the tolerance.
  std::vector<cd> zeros = z.zeros;
  // A zero within rounding of the origin is the origin (a differentiator, or
  // an unobservable heading integrator), so that it prints as s and cancels.
  for (cd& zero : zeros)
    if (std::abs(zero) <= kIntegratorTolerance * rho) zero = 0.0;
  std::vector<bool> zero_used(zeros.size(), false);
  std::vector<Factor> pole_factors;
  for (const NamedRoot& p : poles) {
    if (p.value.imag() < 0.0) continue;
    const bool pair = p.value.imag() > 0.0;
    std::size_t best = zeros.size();
    double best_distance = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < zeros.size(); ++i) {
      if (zero_used[i] || (zeros[i].imag() > 0.0) != pair || zeros[i].imag() < 0.0) continue;
      const double distance = std::abs(zeros[i] - p.value);
      if (distance < best_distance) {
        best_distance = distance;
        best = i;
      }
    }
    const Factor factor = MakeFactor(p.value, p.mode, p.filter);
    const double tolerance = kCancellationTolerance * std::max(std::abs(p.value), rho);
    if (best < zeros.size() && best_distance <= tolerance) {
      zero_used[best] = true;
      if (pair) {  // its conjugate partner
        std::size_t partner = zeros.size();
        double partner_distance = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < zeros.size(); ++i)
          if (!zero_used[i] && zeros[i].imag() < 0.0 &&
              std::abs(zeros[i] - std::conj(zeros[best])) < partner_distance) {
            partner_distance = std::abs(zeros[i] - std::conj(zeros[best]));
            partner = i;
          }
        if (partner < zeros.size()) zero_used[partner] = true;
      }
      tf.cancelled.push_back({factor, zeros[best], best_distance});
    } else {
      pole_factors.push_back(factor);
    }
  }
  for (std::size_t i = 0; i < zeros.size(); ++i)
    if (!zero_used[i] && zeros[i].imag() >= 0.0) tf.zeros.push_back(MakeFactor(zeros[i], nullptr, nullptr));
  tf.poles = std::move(pole_factors);
  SortFactors(tf.zeros);
  SortFactors(tf.poles);

  tf.relative_degree = static_cast<int>(Expand(tf.poles).size() - Expand(tf.zeros).size());
  for (const Factor& p : tf.poles)
    if (!p.second_order && std::abs(p.root) <= kIntegratorTolerance * std::max(rho, 1e-300))
      ++tf.integrators;
  for (const Factor& f : tf.zeros)
    if (f.root.real() > kRightHalfPlaneTolerance * rho) tf.non_minimum_phase = true;
  if (tf.integrators == 0) {
    bool zero_at_origin = false;
    for (const Factor& f : tf.zeros)
      if (!f.second_order && std::abs(f.root) <= kIntegratorTolerance * rho) zero_at_origin = true;
    tf.dc_gain = zero_at_origin ? 0.0 : tf.Evaluate(0.0).real();
  }
  return tf;
}

}  // namespace

std::complex<double> Factor::Evaluate(std::complex<double> s) const {
  return second_order ? (s - root) * (s - std::conj(root)) : s - root;
}

std::complex<double> TransferFunction::Evaluate(std::complex<double> s) const {
  cd value = gain;
  for (const Factor& f : zeros) value *= f.Evaluate(s);
  for (const Factor& f : poles) value /= f.Evaluate(s);
  return value;
}

double ContinuousPhase(const TransferFunction& tf, double omega) {
  const cd s(0.0, omega);
  // arg(jω − r) is continuous in ω for Re r ≤ 0 (the argument stays in the
  // right half-plane or on the imaginary axis); for Re r > 0 it would cross
  // atan2's cut on the negative real axis, so take arg(r − jω) + π instead.
  auto term = [&s](cd r) { return r.real() > 0.0 ? std::arg(r - s) + core::kPi : std::arg(s - r); };
  double phase = tf.gain < 0.0 ? core::kPi : 0.0;
  for (const Factor& z : tf.zeros) {
    phase += term(z.root);
    if (z.second_order) phase += term(std::conj(z.root));
  }
  for (const Factor& p : tf.poles) {
    phase -= term(p.root);
    if (p.second_order) phase -= term(std::conj(p.root));
  }
  return phase;
}

std::vector<double> TransferFunction::Numerator() const { return PolynomialOf(zeros, gain); }
std::vector<double> TransferFunction::Denominator() const { return PolynomialOf(poles, 1.0); }
std::vector<cd> TransferFunction::ZeroRoots() const { return Expand(zeros); }
std::vector<cd> TransferFunction::PoleRoots() const { return Expand(poles); }

InvariantZeros ComputeInvariantZeros(const Eigen::MatrixXd& A_in, const Eigen::VectorXd& b_in,
                                     const Eigen::RowVectorXd& c_in, double d) {
  const Eigen::Index n0 = A_in.rows();
  if (A_in.cols() != n0 || b_in.size() != n0 || c_in.size() != n0)
    throw std::invalid_argument("ComputeInvariantZeros: A is " + std::to_string(A_in.rows()) +
                                "x" + std::to_string(A_in.cols()) + ", b has " +
                                std::to_string(b_in.size()) + " rows, c has " +
                                std::to_string(c_in.size()) + " columns");
  if (!A_in.allFinite() || !b_in.allFinite() || !c_in.allFinite() || !std::isfinite(d))
    throw std::invalid_argument("ComputeInvariantZeros: a non-finite entry");
  const double a_norm = A_in.norm();
  Eigen::MatrixXd A = A_in;
  Eigen::VectorXd b = b_in;
  Eigen::RowVectorXd c = c_in;
  InvariantZeros out;
  double gamma = 1.0;
  int steps = 0;
  bool first = true;
  for (;;) {
    const Eigen::Index n = A.rows();
    const bool feedthrough =
        first ? d != 0.0 : std::abs(d) > kStructuralZero * std::hypot(b.norm(), d);
    if (feedthrough) {
      out.zeros = EigenvaluesOf(A - b * c / d);
      out.gain = gamma * d;
      out.relative_degree = steps;
      return out;
    }
    const double c_scale = first ? 0.0 : kStructuralZero * a_norm;
    if (n == 0 || c.norm() <= c_scale) {
      out.identically_zero = true;
      out.relative_degree = static_cast<int>(n0);
      return out;
    }
    // Householder reflection H = I − 2vvᵀ/vᵀv with H cᵀ = α e_n, so y = α z_n.
    const double norm_c = c.norm();
    const double alpha = c(n - 1) >= 0.0 ? -norm_c : norm_c;
    Eigen::VectorXd v = c.transpose();
    v(n - 1) -= alpha;
    const double vv = v.squaredNorm();
    Eigen::MatrixXd H = Eigen::MatrixXd::Identity(n, n) - (2.0 / vv) * v * v.transpose();
    const Eigen::MatrixXd At = H * A * H;
    const Eigen::VectorXd bt = H * b;
    gamma *= alpha;
    // z_n ≡ 0 requires ż_n = a₂₁ z₁ + b₂ u = 0: the deflated system.
    A = At.topLeftCorner(n - 1, n - 1);
    c = At.block(n - 1, 0, 1, n - 1);
    d = bt(n - 1);
    b = bt.head(n - 1);
    ++steps;
    first = false;
  }
}

TransferFunction ComputeTransferFunction(const model::StateSpace& sys, int input, int output,
                                         const std::vector<Mode>& modes, const std::vector<FilterRoot>& filters) {
  std::vector<NamedRoot> poles;
  for (const Mode& m : modes) {
    poles.push_back({m.lambda, &m});
    if (m.oscillatory) poles.push_back({std::conj(m.lambda), &m});
  }
  for (const FilterRoot& f : filters) poles.push_back({f.lambda, nullptr, &f});
  return Assemble(sys, input, output, std::move(poles));
}

TransferFunction ComputeTransferFunction(const model::StateSpace& sys, int input, int output) {
  const EigenDecomposition eig = Decompose(sys.A(), LeftVectors::kIfDiagonalizable);
  std::vector<NamedRoot> poles;
  for (Eigen::Index i = 0; i < eig.values.size(); ++i) {
    cd v = eig.values(i);
    poles.push_back({v, nullptr});
  }
  return Assemble(sys, input, output, std::move(poles));
}

}  // namespace aerolin::analysis
