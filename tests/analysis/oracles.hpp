#pragma once
// Test-side oracles and fixtures shared by the analysis tests. Each is
// written independently of the code under test (dense solves, polynomial
// products), so a test may compare the library against it.

#include <Eigen/Dense>
#include <complex>
#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::analysis::oracles {

/// The bundled aircraft `name` (a file of data/derivatives/), loaded.
inline model::AircraftData Load(const std::string& name) {
  return data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/" + name)
      .aircraft;
}

/// The direct solve c (sI − A)⁻¹ b + d of one channel, dense LU.
inline std::complex<double> Direct(const model::StateSpace& sys, int in, int out,
                                   std::complex<double> s) {
  using cd = std::complex<double>;
  const Eigen::Index n = sys.num_states();
  const Eigen::MatrixXcd M = s * Eigen::MatrixXcd::Identity(n, n) - sys.A().cast<cd>();
  const Eigen::VectorXcd x = M.partialPivLu().solve(sys.B().col(in).cast<cd>());
  return (sys.C().row(out).cast<cd>() * x)(0) + sys.D()(out, in);
}

/// Coefficients, highest power first, of lead · Π (s − r_i) (real parts: the
/// roots come in conjugate pairs).
inline std::vector<double> PolynomialFromRoots(const std::vector<std::complex<double>>& roots,
                                               double lead = 1.0) {
  using cd = std::complex<double>;
  std::vector<cd> p = {lead};
  for (const cd& r : roots) {
    std::vector<cd> next(p.size() + 1, 0.0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      next[i] += p[i];
      next[i + 1] -= r * p[i];
    }
    p = next;
  }
  std::vector<double> out;
  for (const cd& v : p) out.push_back(v.real());
  return out;
}

}  // namespace aerolin::analysis::oracles
