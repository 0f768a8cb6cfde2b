#include "aerolin/analysis/frequency_response.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/core/vector_isa.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "analysis/oracles.hpp"
#include "aerolin/model/outputs.hpp"

namespace aerolin::analysis {
namespace {

using oracles::Load;
using oracles::Direct;

using cd = std::complex<double>;

// The brief's accuracy requirement for the Hessenberg sweep.
constexpr double kAgreement = 1e-10;

model::StateSpace FirstOrder(double a) {  // G = a/(s + a)
  return model::StateSpace((Eigen::MatrixXd(1, 1) << -a).finished(),
                           (Eigen::MatrixXd(1, 1) << a).finished(), Eigen::MatrixXd::Ones(1, 1),
                           Eigen::MatrixXd::Zero(1, 1), {{"x", core::Unit::kOne, "x"}},
                           {{"u", core::Unit::kOne, "u"}}, {{"y", core::Unit::kOne, "y"}});
}

model::StateSpace SecondOrder(double wn, double zeta) {  // G = wn²/(s² + 2ζωn s + ωn²)
  const Eigen::MatrixXd A = (Eigen::MatrixXd(2, 2) << 0, 1, -wn * wn, -2 * zeta * wn).finished();
  return model::StateSpace(A, (Eigen::MatrixXd(2, 1) << 0, wn * wn).finished(),
                           (Eigen::MatrixXd(1, 2) << 1, 0).finished(), Eigen::MatrixXd::Zero(1, 1),
                           {{"x", core::Unit::kOne, "x"}, {"v", core::Unit::kOne, "v"}},
                           {{"u", core::Unit::kOne, "u"}}, {{"y", core::Unit::kOne, "y"}});
}

TEST(FrequencyResponse, HessenbergSweepEqualsDirectSolveOnEveryBundledChannel) {
  const std::vector<double> omega = LogSpace(1e-3, 1e2, 200);
  for (const std::string f : {"p2v7.toml", "boeing747_cruise_40kft.toml", "navion_cruise_sl.toml",
                              "nt33a_power_approach_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a = Load(f);
    for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
      const model::StateSpace sys = model::BuildWithOutputs(a, axis);
      const FrequencyResponse response(sys);
      for (int in = 0; in < sys.num_inputs(); ++in)
        for (int out = 0; out < sys.num_outputs(); ++out) {
          const std::vector<cd> g = response.Sweep(omega, in, out);
          for (std::size_t k = 0; k < omega.size(); ++k) {
            const cd direct = Direct(sys, in, out, cd(0, omega[k]));
            EXPECT_LE(std::abs(g[k] - direct), kAgreement * std::abs(direct))
                << f << " " << sys.outputs()[out].name << "/" << sys.inputs()[in].name
                << " ω = " << omega[k];
          }
        }
    }
  }
}

// Independent oracle for the 1e-12 requirement: c (jωI − A)⁻¹ b + d by a
// dense complex Gaussian elimination with partial pivoting in long double
// (64-bit mantissa, u ≈ 5.4e-20) per frequency.
std::complex<long double> ExtendedDirect(const model::StateSpace& sys, int in, int out, double w) {
  using cld = std::complex<long double>;
  const int n = sys.num_states();
  std::vector<cld> M(static_cast<std::size_t>(n * n)), x(static_cast<std::size_t>(n));
  auto at = [&](int i, int j) -> cld& { return M[static_cast<std::size_t>(i * n + j)]; };
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      at(i, j) = (i == j ? cld(0.0L, w) : cld(0.0L)) - static_cast<long double>(sys.A()(i, j));
    x[static_cast<std::size_t>(i)] = static_cast<long double>(sys.B()(i, in));
  }
  for (int k = 0; k < n; ++k) {
    int pivot = k;
    for (int i = k + 1; i < n; ++i)
      if (std::abs(at(i, k)) > std::abs(at(pivot, k))) pivot = i;
    for (int j = 0; j < n; ++j) std::swap(at(k, j), at(pivot, j));
    std::swap(x[static_cast<std::size_t>(k)], x[static_cast<std::size_t>(pivot)]);
    for (int i = k + 1; i < n; ++i) {
      const cld f = at(i, k) / at(k, k);
      for (int j = k; j < n; ++j) at(i, j) -= f * at(k, j);
      x[static_cast<std::size_t>(i)] -= f * x[static_cast<std::size_t>(k)];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    cld sum = x[static_cast<std::size_t>(k)];
    for (int j = k + 1; j < n; ++j) sum -= at(k, j) * x[static_cast<std::size_t>(j)];
    x[static_cast<std::size_t>(k)] = sum / at(k, k);
  }
  cld y = static_cast<long double>(sys.D()(out, in));
  for (int j = 0; j < n; ++j) y += static_cast<long double>(sys.C()(out, j)) * x[static_cast<std::size_t>(j)];
  return y;
}

// The accuracy requirement (#22): relative to the extended-precision solve.
constexpr double kExtendedAgreement = 1e-12;

// The channels of the issue (#22): the P2V-7's 4-state θ/δe and q/δe and the
// 5-state lateral model's φ/δa, r/δr and β/δr, at 1000 frequencies over five
// decades, whichever form each frequency takes.
TEST(FrequencyResponse, SweepEqualsAnExtendedPrecisionSolveOnTheP2V7) {
  const model::AircraftData a = Load("p2v7.toml");
  const std::vector<double> omega = LogSpace(1e-3, 1e2, 1000);
  struct Case {
    model::Axis axis;
    int input, output;
  };
  for (const Case& c : {Case{model::Axis::kLongitudinal, 0, model::lon::kTheta},
                        Case{model::Axis::kLongitudinal, 0, model::lon::kQ},
                        Case{model::Axis::kLateral, 0, model::lat::kPhi},
                        Case{model::Axis::kLateral, 1, model::lat::kR},
                        Case{model::Axis::kLateral, 1, model::lat::kBeta}}) {
    const model::StateSpace sys = model::BuildWithOutputs(a, c.axis);
    const FrequencyResponse response(sys);
    std::vector<cd> g(omega.size());
    response.Sweep(omega, c.input, c.output, g);
    for (std::size_t k = 0; k < omega.size(); ++k) {
      const std::complex<long double> ref = ExtendedDirect(sys, c.input, c.output, omega[k]);
      EXPECT_LE(std::abs(std::complex<long double>(g[k].real(), g[k].imag()) - ref),
                kExtendedAgreement * std::abs(ref))
          << sys.outputs()[c.output].name << "/" << sys.inputs()[c.input].name << " ω = " << omega[k];
    }
  }
}

// Every channel of both axes of every bundled aircraft: where Sweep takes
// the modal form it is within 1e-12 of the extended-precision solve; where
// it takes the Hessenberg form the value is that of ResponseMethod::
// kHessenberg bit for bit (the method before #22, whose own error on some
// channels exceeds 1e-12 at 1e-3 rad/s: p/δa and nz/δe of the P2V-7 have a
// zero near s = 0, so |G| is small there, and A's rounding is not).
TEST(FrequencyResponse, ModalFormIsWithin1e12OnEveryBundledChannel) {
  const std::vector<double> omega = LogSpace(1e-3, 1e2, 1000);
  std::size_t modal = 0, total = 0;
  for (const std::string f : {"derivatives/p2v7.toml", "derivatives/boeing747_cruise_40kft.toml",
                              "derivatives/navion_cruise_sl.toml", "derivatives/nt33a_power_approach_sl.toml",
                              "derivatives/a7a_clean_m025_sl.toml", "avl/b737.toml"}) {
    const model::AircraftData a =
        data::LoadAircraftFile(std::string(AEROLIN_SOURCE_DIR) + "/data/" + f).aircraft;
    for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
      const model::StateSpace sys = model::BuildWithOutputs(a, axis);
      const FrequencyResponse response(sys);
      const FrequencyResponse hessenberg(sys, ResponseMethod::kHessenberg);
      EXPECT_TRUE(response.has_modal_form()) << f;
      std::vector<cd> g(omega.size()), h(omega.size());
      for (int in = 0; in < sys.num_inputs(); ++in)
        for (int out = 0; out < sys.num_outputs(); ++out) {
          const std::size_t solved = response.Sweep(omega, in, out, g);
          EXPECT_EQ(hessenberg.Sweep(omega, in, out, h), omega.size());
          std::size_t equal = 0;
          for (std::size_t k = 0; k < omega.size(); ++k) {
            if (g[k] == h[k]) {
              ++equal;
              continue;
            }
            const std::complex<long double> ref = ExtendedDirect(sys, in, out, omega[k]);
            EXPECT_LE(std::abs(std::complex<long double>(g[k].real(), g[k].imag()) - ref),
                      kExtendedAgreement * std::abs(ref))
                << f << " " << sys.outputs()[out].name << "/" << sys.inputs()[in].name << " ω = " << omega[k];
          }
          EXPECT_GE(equal, solved);
          modal += omega.size() - solved;
          total += omega.size();
        }
    }
  }
  // Most frequencies take the modal form (a check that the test exercises it).
  EXPECT_GT(modal, total * 3 / 5) << modal << " of " << total;
}

// Models the team has not seen: 150 random systems of 2 to 8 states (A =
// T M T⁻¹, M block diagonal with complex pairs of ζ from 0.001 to 0.9 and
// ωn from 0.01 to 30, real eigenvalues from −0.001 to −10, sometimes 0 and
// a close neighbour, as the heading and the spiral; T = I + a random matrix,
// κ(T) ≤ 1e3; a third of them with C B = 0), 200 frequencies from 1e-4 to
// 1e4 rad/s: wherever Sweep takes a modal or peeled form (its value not
// the Hessenberg form's bits) it is within 1e-12 of the extended-precision
// solve. Fixed seed.
TEST(FrequencyResponse, ModalFormsMeetTheirEstimateOnRandomModels) {
  std::mt19937 rng(22);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  const std::vector<double> omega = LogSpace(1e-4, 1e4, 200);
  std::size_t modal = 0, total = 0, systems = 0;
  while (systems < 150) {
    const int n = 2 + static_cast<int>(uniform(rng) * 7.0);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n;) {
      const double kind = uniform(rng);
      if (kind < 0.5 && i + 1 < n) {
        const double zetas[] = {1e-3, 0.05, 0.3, 0.9};
        const double zeta = zetas[static_cast<int>(uniform(rng) * 4.0)];
        const double wn = std::pow(10.0, -2.0 + 3.5 * uniform(rng));
        const double a = -zeta * wn, b = wn * std::sqrt(1.0 - zeta * zeta);
        M(i, i) = a;
        M(i, i + 1) = b;
        M(i + 1, i) = -b;
        M(i + 1, i + 1) = a;
        i += 2;
      } else if (kind < 0.65 && i + 1 < n) {
        M(i, i) = 0.0;  // an integrator and a slow neighbour
        M(i + 1, i + 1) = -0.01 * (0.5 + uniform(rng));
        i += 2;
      } else {
        M(i, i) = -std::pow(10.0, -3.0 + 4.0 * uniform(rng));
        ++i;
      }
    }
    Eigen::MatrixXd T = Eigen::MatrixXd::Identity(n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) T(i, j) += 0.5 * normal(rng);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(T);
    if (!(svd.singularValues()(0) < 1e3 * svd.singularValues()(n - 1))) continue;
    const Eigen::MatrixXd A = T * M * T.inverse();
    Eigen::MatrixXd B(n, 1), C(1, n), D = Eigen::MatrixXd::Zero(1, 1);
    for (int i = 0; i < n; ++i) {
      B(i, 0) = normal(rng);
      C(0, i) = normal(rng);
    }
    if (uniform(rng) < 1.0 / 3.0) {  // C B = 0: C reads one state, B does not drive it
      const int k = static_cast<int>(uniform(rng) * n);
      C.setZero();
      C(0, k) = 1.0;
      B(k, 0) = 0.0;
    } else if (uniform(rng) < 0.5) {
      D(0, 0) = normal(rng);
    }
    std::vector<core::Signal> states;
    for (int i = 0; i < n; ++i) {
      std::string name = "x";
      name += std::to_string(i);
      states.push_back({name, core::Unit::kOne, "x"});
    }
    const model::StateSpace sys(A, B, C, D, states, {{"u", core::Unit::kOne, "u"}}, {{"y", core::Unit::kOne, "y"}});
    const FrequencyResponse response(sys), hessenberg(sys, ResponseMethod::kHessenberg);
    std::vector<cd> g(omega.size()), h(omega.size());
    try {
      response.Sweep(omega, 0, 0, g);
      hessenberg.Sweep(omega, 0, 0, h);
    } catch (const core::NumericalError&) {
      continue;  // a frequency on a pole to working precision
    }
    ++systems;
    for (std::size_t k = 0; k < omega.size(); ++k) {
      ++total;
      if (g[k] == h[k]) continue;
      ++modal;
      const std::complex<long double> ref = ExtendedDirect(sys, 0, 0, omega[k]);
      EXPECT_LE(std::abs(std::complex<long double>(g[k].real(), g[k].imag()) - ref),
                kExtendedAgreement * std::abs(ref))
          << "system " << systems << " (" << n << " states) ω = " << omega[k];
    }
  }
  EXPECT_GT(modal, total * 3 / 4) << modal << " of " << total;
}

// The channels the benchmark times: over 1000 frequencies from 1e-3 to 1e2
// rad/s none of the P2V-7's θ/δe, q/δe, u/δe, φ/δa, r/δr, β/δr needs the
// Hessenberg form: where the solver's modal sum cancels (q/δe's zero at
// s = 0 at low ω; relative degree 2 at high ω), or where its eigenvectors
// are too far off (the lateral model's spiral and heading, 1e-13), the
// refined sum, plain or peeled, meets the estimate (but at a few
// frequencies of r/δr, below). Where nothing can
// (q/δe at 1e-300 rad/s: |G| ≈ 1e-300 |G'(0)| against G(0)'s error of
// ~1e-18), the Hessenberg form still computes it.
TEST(FrequencyResponse, ModalFormWhereItsErrorEstimateAllows) {
  const model::AircraftData a = Load("p2v7.toml");
  const std::vector<double> omega = LogSpace(1e-3, 1e2, 1000);
  std::vector<cd> g(omega.size());
  const FrequencyResponse lon(model::BuildWithOutputs(a, model::Axis::kLongitudinal));
  ASSERT_TRUE(lon.has_modal_form());
  for (const int out : {model::lon::kTheta, model::lon::kQ, model::lon::kU})
    EXPECT_EQ(lon.Sweep(omega, 0, out, g), 0u) << out;
  for (double w : {1e-300, 1e-200}) {
    cd one;
    EXPECT_EQ(lon.Sweep(std::span<const double>(&w, 1), 0, model::lon::kQ, std::span<cd>(&one, 1)), 1u) << w;
  }
  const FrequencyResponse lat(model::BuildWithOutputs(a, model::Axis::kLateral));
  ASSERT_TRUE(lat.has_modal_form());
  EXPECT_EQ(lat.Sweep(omega, 0, model::lat::kPhi, g), 0u);
  // r/δr has a lightly damped zero pair, 0.0117 ± 0.3635j: near 0.36 rad/s
  // |G| dips 30-fold below its terms, a cancellation no peeling removes.
  EXPECT_LE(lat.Sweep(omega, 1, model::lat::kR, g), 10u);
  EXPECT_EQ(lat.Sweep(omega, 1, model::lat::kBeta, g), 0u);
}

// Far beyond the modes, where G is its Markov series
// D + C B/s + C A B/s² + C A² B/s³ + …, and far below them, where it is its
// Taylor series G(0) − s C A⁻²B − s² C A⁻³B − …, both summed in long double
// (independent of the modal forms): the P2V-7's θ/δe, u/δe and φ/δa (C B = 0:
// relative degree 2) from 1e4 to 1e90 rad/s, θ/δe from 1e-4 to 1e-8 and
// q/δe (G(0) = 0) from 3e-3 to 5e-4, to 1e-12. (The Hessenberg form, used here before the
// peeled forms, was off by orders of magnitude at 1e30: 4e-46 for θ/δe of
// the A-7A where G is 5.4e-60.)
TEST(FrequencyResponse, SweepFollowsTheMarkovAndTaylorSeriesFarFromTheModes) {
  using ld = long double;
  using cld = std::complex<ld>;
  using MatrixXld = Eigen::Matrix<ld, Eigen::Dynamic, Eigen::Dynamic>;
  const model::AircraftData a = Load("p2v7.toml");
  struct Case {
    model::Axis axis;
    int input, output;
    bool high, low;
  };
  for (const Case& c : {Case{model::Axis::kLongitudinal, 0, model::lon::kTheta, true, true},
                        Case{model::Axis::kLongitudinal, 0, model::lon::kU, true, false},
                        Case{model::Axis::kLongitudinal, 0, model::lon::kQ, false, true},
                        Case{model::Axis::kLateral, 0, model::lat::kPhi, true, false}}) {
    const model::StateSpace sys = model::BuildWithOutputs(a, c.axis);
    const FrequencyResponse response(sys);
    const MatrixXld A = sys.A().cast<ld>();
    const MatrixXld b = sys.B().col(c.input).cast<ld>();
    const MatrixXld row = sys.C().row(c.output).cast<ld>();
    const ld d = sys.D()(c.output, c.input);
    std::vector<double> omega;
    if (c.high)
      for (const double w : {1e4, 1e6, 1e10, 1e30, 1e90}) omega.push_back(w);
    // q/δe's G(0) = 0 is known to ~1e-17 (the refined residues' bound), so
    // its low form meets the estimate down to ~3e-4 rad/s; below, the
    // Hessenberg form computes it, to ~1e-16 absolute (1.3e-12 relative at
    // 1e-4 rad/s, as before the modal forms).
    if (c.low)
      for (const double w : c.output == model::lon::kQ ? std::vector<double>{5e-4, 1e-3, 3e-3}
                                                         : std::vector<double>{1e-8, 1e-6, 1e-4})
        omega.push_back(w);
    std::sort(omega.begin(), omega.end());
    std::vector<cd> g(omega.size());
    response.Sweep(omega, c.input, c.output, g);
    for (std::size_t k = 0; k < omega.size(); ++k) {
      const cld s(0.0L, omega[k]);
      cld series = d, power = 1;
      if (omega[k] > 1.0) {
        MatrixXld x = b;  // A^i B
        for (int i = 0; i < 12; ++i, x = A * x) {
          power /= s;
          series += (row * x)(0, 0) * power;
        }
      } else {
        const MatrixXld Ainv = A.inverse();
        MatrixXld x = Ainv * b;  // A^-(i+1) B
        for (int i = 0; i < 12; ++i, x = Ainv * x) {
          series -= (row * x)(0, 0) * power;
          power *= s;
        }
      }
      EXPECT_LE(std::abs(cld(g[k].real(), g[k].imag()) - series), kExtendedAgreement * std::abs(series))
          << sys.outputs()[c.output].name << "/" << sys.inputs()[c.input].name << " ω = " << omega[k] << ": "
          << g[k] << " against " << static_cast<double>(series.real()) << " + j"
          << static_cast<double>(series.imag());
    }
  }
}

// A defective A (a double integrator, G = 1/s²) and a nearly defective one
// (κ(V) ≈ 1e9) have no modal form; Sweep is then the Hessenberg form alone.
TEST(FrequencyResponse, NoModalFormForADefectiveOrNearlyDefectiveA) {
  for (const double gap : {0.0, 1e-9}) {
    const Eigen::MatrixXd A = (Eigen::MatrixXd(2, 2) << -1, 1, 0, -1 - gap).finished();
    const model::StateSpace sys(A, (Eigen::MatrixXd(2, 1) << 0, 1).finished(),
                                (Eigen::MatrixXd(1, 2) << 1, 0).finished(), Eigen::MatrixXd::Zero(1, 1),
                                {{"x", core::Unit::kOne, "x"}, {"v", core::Unit::kOne, "v"}},
                                {{"u", core::Unit::kOne, "u"}}, {{"y", core::Unit::kOne, "y"}});
    const FrequencyResponse response(sys);
    EXPECT_FALSE(response.has_modal_form()) << gap << " κ = " << response.modal_condition();
    const std::vector<double> omega = LogSpace(1e-2, 1e2, 50);
    std::vector<cd> g(omega.size());
    EXPECT_EQ(response.Sweep(omega, 0, 0, g), omega.size());
    for (std::size_t k = 0; k < omega.size(); ++k) {
      const cd exact = 1.0 / ((cd(0, omega[k]) + 1.0) * (cd(0, omega[k]) + 1.0 + gap));
      EXPECT_LE(std::abs(g[k] - exact), kExtendedAgreement * std::abs(exact)) << omega[k];
    }
  }
}

// The Hessenberg solves of a sweep are made four frequencies at a time
// (SolveLanes), a lone frequency by Solve itself: every value of a sweep over
// many frequencies, whichever form each takes, is the one-frequency sweep's
// to the bit, on every bundled channel, for frequencies from 1e-90 to 1e90
// rad/s (where some lanes fall back to Solve).
TEST(FrequencyResponse, SweepOfManyFrequenciesIsTheOneFrequencySweepBitForBit) {
  std::vector<double> omega = LogSpace(1e-3, 1e2, 203);
  for (const double w : {1e-90, 1e-30, 1e-8, 1e8, 1e30, 1e90}) omega.push_back(w);
  std::sort(omega.begin(), omega.end());
  auto same = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  std::size_t channels = 0, hessenberg = 0;
  for (const std::string f : {"p2v7.toml", "boeing747_cruise_40kft.toml", "navion_cruise_sl.toml",
                              "nt33a_power_approach_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a = Load(f);
    for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
      const model::StateSpace sys = model::BuildWithOutputs(a, axis);
      for (const ResponseMethod method : {ResponseMethod::kModalWhereAccurate, ResponseMethod::kHessenberg}) {
        const FrequencyResponse response(sys, method);
        for (int in = 0; in < sys.num_inputs(); ++in)
          for (int out = 0; out < sys.num_outputs(); ++out) {
            // One frequency at a time; where one is singular (the heading
            // integrator's pole at 0, below 1e-30 rad/s) the whole sweep must
            // throw too, and the rest is compared without those frequencies.
            std::vector<double> regular;
            std::vector<cd> one;
            bool singular = false;
            for (const double w : omega) {
              cd g;
              try {
                response.Sweep(std::span<const double>(&w, 1), in, out, std::span<cd>(&g, 1));
              } catch (const core::NumericalError&) {
                singular = true;
                continue;
              }
              regular.push_back(w);
              one.push_back(g);
            }
            std::vector<cd> g(omega.size());
            if (singular) {
              EXPECT_THROW(response.Sweep(omega, in, out, g), core::NumericalError);
            }
            g.resize(regular.size());
            hessenberg += response.Sweep(regular, in, out, g);
            ++channels;
            for (std::size_t k = 0; k < regular.size(); ++k)
              ASSERT_TRUE(same(g[k].real(), one[k].real()) && same(g[k].imag(), one[k].imag()))
                  << f << " " << sys.outputs()[out].name << "/" << sys.inputs()[in].name << " ω = " << regular[k]
                  << ": " << g[k] << " vs " << one[k];
          }
      }
    }
  }
  EXPECT_GT(channels, 100u);
  EXPECT_GT(hessenberg, channels * omega.size() / 2);  // the forced method's at least
}

// The loops over frequencies (factor phases, unwrapping, the modal sum, the
// Hessenberg lanes) run in AVX2 where the processor has it and in the
// baseline SSE2 elsewhere (core/vector_isa.hpp): both must give every Bode
// number to the bit, on every channel of five aircraft, both methods,
// frequencies from 1e-90 to 1e101 rad/s (past 1e100 the factor phases are
// taken one factor at a time).
TEST(FrequencyResponse, BaselineAndAvx2KernelsGiveTheSameBits) {
  if (!core::UseAvx2()) GTEST_SKIP() << "this processor has no AVX2: only the baseline kernels run here";
  struct Baseline {
    Baseline() { core::ForceBaselineVectors(true); }
    ~Baseline() { core::ForceBaselineVectors(false); }
  };
  auto same = [](double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); };
  std::vector<double> omega = LogSpace(1e-3, 1e2, 203);
  for (const double w : {1e-90, 1e-30, 1e-8, 1e8, 1e30, 1e90}) omega.push_back(w);
  std::sort(omega.begin(), omega.end());
  // Without the frequencies next to the heading's pole at 0 (a channel that
  // has it throws on the full grid), and past 1e100.
  std::vector<double> moderate;
  for (const double w : omega)
    if (w >= 1e-8) moderate.push_back(w);
  std::vector<double> beyond = moderate;
  beyond.push_back(1e101);
  std::size_t compared = 0;
  for (const std::string f : {"p2v7.toml", "boeing747_cruise_40kft.toml", "navion_cruise_sl.toml",
                              "nt33a_power_approach_sl.toml", "a7a_clean_m025_sl.toml"}) {
    const model::AircraftData a = Load(f);
    const ModalAnalysis modes = AnalyzeModes(a);
    for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral}) {
      const model::StateSpace sys = model::BuildWithOutputs(a, axis);
      for (const core::Signal& input : sys.inputs())
        for (const core::Signal& output : sys.outputs()) {
          const Channel channel = ResolveChannel(a, modes, input.name, {output.name});
          const TransferFunction tf = ChannelTransferFunction(channel, modes);
          for (const ResponseMethod method : {ResponseMethod::kModalWhereAccurate, ResponseMethod::kHessenberg}) {
            const FrequencyResponse response(channel.system, method);
            for (const std::vector<double>* grid : {&omega, &moderate, &beyond}) {
              auto bode = [&](bool baseline) -> std::optional<std::vector<BodePoint>> {
                std::optional<Baseline> forced;
                if (baseline) forced.emplace();
                try {
                  return ComputeBode(response, tf, channel.input, channel.outputs[0], *grid);
                } catch (const core::NumericalError&) {
                  return std::nullopt;  // a frequency on a pole (the heading's, at 0)
                }
              };
              const auto wide = bode(false), base = bode(true);
              ASSERT_EQ(wide.has_value(), base.has_value()) << f << " " << output.name << "/" << input.name;
              if (!wide) continue;
              for (std::size_t k = 0; k < wide->size(); ++k) {
                const BodePoint &p = (*wide)[k], &q = (*base)[k];
                ASSERT_TRUE(same(p.value.real(), q.value.real()) && same(p.value.imag(), q.value.imag()) &&
                            same(p.magnitude, q.magnitude) && same(p.magnitude_db, q.magnitude_db) &&
                            same(p.phase_deg, q.phase_deg) && same(p.phase_principal_deg, q.phase_principal_deg))
                    << f << " " << output.name << "/" << input.name << " ω = " << p.omega << ": " << p.value
                    << " " << p.phase_deg << " vs " << q.value << " " << q.phase_deg;
              }
              ++compared;
            }
          }
        }
    }
  }
  EXPECT_GT(compared, 400u);
}

// A pole among the frequencies of a lane: Solve reports it.
TEST(FrequencyResponse, HessenbergSweepThroughAPoleThrows) {
  const FrequencyResponse response(SecondOrder(2.0, 0.0), ResponseMethod::kHessenberg);
  std::vector<cd> g(6);
  EXPECT_THROW(response.Sweep(std::vector<double>{0.5, 1.0, 1.5, 2.0, 2.5, 3.0}, 0, 0, g), core::NumericalError);
  EXPECT_NO_THROW(response.Sweep(std::vector<double>{0.5, 1.0, 1.5, 2.5, 3.0, 3.5}, 0, 0, g));
}

// On an undamped pole the modal sum is not finite: Sweep falls back to the
// Hessenberg solve, which reports the pole.
TEST(FrequencyResponse, SweepOnAPoleThrows) {
  const FrequencyResponse response(SecondOrder(2.0, 0.0));
  ASSERT_TRUE(response.has_modal_form());
  std::vector<cd> g(2);
  EXPECT_THROW(response.Sweep(std::vector<double>{1.0, 2.0}, 0, 0, g), core::NumericalError);
  EXPECT_THROW(response.Sweep(std::vector<double>{1.0, 2.0}, 0, 0, std::span<cd>(g.data(), 1)),
               std::invalid_argument);
}

TEST(FrequencyResponse, SingularAtAPoleThrows) {
  const model::AircraftData a = Load("p2v7.toml");
  const FrequencyResponse response(model::BuildWithOutputs(a, model::Axis::kLateral));
  EXPECT_THROW(response.Evaluate(0.0, 0), core::NumericalError);  // the heading integrator
  EXPECT_THROW(response.Evaluate(cd(0, 1), 9), std::invalid_argument);
}

// The phase starts in (−360, 0], never jumps by 180° or more between
// neighbours of a dense sweep, equals the principal value modulo 360°, and a
// sparse sweep finds the same branch as the dense one.
TEST(ComputeBode, PhaseIsUnwrappedContinuouslyFromTheFirstTurn) {
  const model::AircraftData a = Load("p2v7.toml");
  const ModalAnalysis modes = AnalyzeModes(a);
  for (const auto& [input, output] : std::vector<std::pair<std::string, std::string>>{
           {"elevator", "q"}, {"elevator", "u"}, {"elevator", "theta"}, {"aileron", "phi"},
           {"rudder", "r"}, {"rudder", "psi"}, {"aileron", "ay"}}) {
    const Channel ch = ResolveChannel(a, modes, input, {output});
    const TransferFunction tf = ChannelTransferFunction(ch, modes);
    const FrequencyResponse response(ch.system);
    const std::vector<double> dense_w = LogSpace(1e-3, 1e2, 5001);
    const std::vector<BodePoint> dense = ComputeBode(response, tf, ch.input, ch.outputs[0], dense_w);
    EXPECT_GT(dense.front().phase_deg, -360.0) << output;
    EXPECT_LE(dense.front().phase_deg, 0.0) << output;
    for (std::size_t k = 0; k < dense.size(); ++k) {
      const double turns = (dense[k].phase_deg - dense[k].phase_principal_deg) / 360.0;
      EXPECT_NEAR(turns, std::round(turns), 1e-9);
      EXPECT_GT(dense[k].phase_principal_deg, -180.0);
      EXPECT_LE(dense[k].phase_principal_deg, 180.0);
      if (k > 0) {
        EXPECT_LT(std::abs(dense[k].phase_deg - dense[k - 1].phase_deg), 20.0) << output;
      }
    }
    // Every 1250th point: four frequencies straddling every mode.
    std::vector<double> sparse_w;
    for (std::size_t k = 0; k < dense_w.size(); k += 1250) sparse_w.push_back(dense_w[k]);
    const std::vector<BodePoint> sparse =
        ComputeBode(response, tf, ch.input, ch.outputs[0], sparse_w);
    for (std::size_t k = 0; k < sparse.size(); ++k)
      EXPECT_NEAR(sparse[k].phase_deg, dense[k * 1250].phase_deg, 1e-9) << output;
  }
}

// Oracle: the second-order resonance ω_r = ωn √(1 − 2ζ²),
// M_r = 1/(2ζ √(1 − ζ²)); the parabola through three samples 0.1 % apart in
// ω is exact to ~1e-4 relative.
// A BodeCursor's points do not depend on how many it is asked for at a
// time (the phase's whole turns are fixed by the first point), and a
// log-spaced FrequencyGrid is LogSpace's grid, computed point by point.
TEST(BodeCursor, ChunksOfAnySizeGiveComputeBodesPoints) {
  const model::AircraftData aircraft = data::LoadAircraftFile(
      std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
  const ModalAnalysis modes = AnalyzeModes(aircraft);
  const Channel channel = ResolveChannel(aircraft, modes, "elevator", {"theta"});
  const FrequencyResponse response(channel.system);
  const TransferFunction tf = ChannelTransferFunction(channel, modes);
  const std::vector<double> omega = LogSpace(0.003, 300.0, 1000);
  const FrequencyGrid grid = FrequencyGrid::LogSpaced(0.003, 300.0, 1000);
  ASSERT_EQ(grid.size(), omega.size());
  EXPECT_EQ(grid[0], 0.003);
  EXPECT_EQ(grid[999], 300.0);
  for (std::size_t k = 1; k + 1 < omega.size(); ++k)
    EXPECT_EQ(grid[k], std::pow(10.0, std::log10(0.003) + (std::log10(300.0) - std::log10(0.003)) *
                                          static_cast<int>(k) / 999))
        << k;
  const std::vector<BodePoint> whole = ComputeBode(response, tf, channel.input, channel.outputs[0], omega);
  for (const std::size_t size : {std::size_t{1}, std::size_t{7}, std::size_t{999}, kBodeChunk}) {
    BodeCursor cursor(response, tf, channel.input, channel.outputs[0], grid);
    std::vector<BodePoint> points;
    for (std::span<const BodePoint> chunk = cursor.Next(size); !chunk.empty(); chunk = cursor.Next(size)) {
      EXPECT_LE(chunk.size(), size);
      points.insert(points.end(), chunk.begin(), chunk.end());
    }
    ASSERT_EQ(points.size(), whole.size()) << size;
    for (std::size_t k = 0; k < whole.size(); ++k) {
      EXPECT_EQ(points[k].omega, whole[k].omega) << size << " " << k;
      EXPECT_EQ(points[k].value, whole[k].value) << size << " " << k;
      EXPECT_EQ(points[k].phase_deg, whole[k].phase_deg) << size << " " << k;
      EXPECT_EQ(points[k].phase_principal_deg, whole[k].phase_principal_deg) << size << " " << k;
    }
  }
}

// A channel prepared once (as aerolin.bode keeps it on its aircraft) and
// swept over different frequencies, in either order, gives each time the
// diagram that a channel prepared for that sweep alone gives, to the bit.
TEST(BodeChannel, SharedBySweepsGivesEachSweepsOwnDiagram) {
  const model::AircraftData aircraft = data::LoadAircraftFile(
      std::string(AEROLIN_SOURCE_DIR) + "/data/derivatives/p2v7.toml").aircraft;
  const ModalAnalysis modes = AnalyzeModes(aircraft);
  const Channel channel = ResolveChannel(aircraft, modes, "elevator", {"q", "theta"});
  const auto shared = std::make_shared<const BodeChannel>(channel, modes);
  const std::vector<std::vector<double>> sweeps = {LogSpace(0.01, 100.0, 1000), {0.1, 1.0, 2.0, 10.0}, {}};
  for (int pass = 0; pass < 2; ++pass)
    for (const std::vector<double>& omega : sweeps) {
      const BodeDiagram want = ComputeBodeDiagram(channel, modes, omega, 300);
      const BodeDiagram got = ComputeBodeDiagram(shared, modes, omega, 300);
      EXPECT_EQ(got.input.name, want.input.name);
      ASSERT_EQ(got.modes.size(), want.modes.size());
      for (std::size_t i = 0; i < want.modes.size(); ++i) {
        EXPECT_EQ(got.modes[i].name, want.modes[i].name);
        EXPECT_EQ(got.modes[i].natural_frequency, want.modes[i].natural_frequency);
      }
      ASSERT_EQ(got.curves.size(), 2u);
      for (std::size_t c = 0; c < 2; ++c) {
        const BodeCurve& g = got.curves[c];
        const BodeCurve& w = want.curves[c];
        EXPECT_EQ(g.tf.Numerator(), w.tf.Numerator());
        EXPECT_EQ(g.tf.Denominator(), w.tf.Denominator());
        EXPECT_EQ(g.bandwidth, w.bandwidth);
        ASSERT_EQ(g.resonances.size(), w.resonances.size());
        for (std::size_t i = 0; i < w.resonances.size(); ++i) {
          EXPECT_EQ(g.resonances[i].name, w.resonances[i].name);
          EXPECT_EQ(g.resonances[i].resonance.omega, w.resonances[i].resonance.omega);
          EXPECT_EQ(g.resonances[i].resonance.magnitude_db, w.resonances[i].resonance.magnitude_db);
        }
        ASSERT_EQ(g.points.size(), omega.empty() ? 300u : omega.size());
        ASSERT_EQ(g.points.size(), w.points.size());
        for (std::size_t k = 0; k < w.points.size(); ++k) {
          EXPECT_EQ(g.points[k].value, w.points[k].value) << pass << " " << k;
          EXPECT_EQ(g.points[k].magnitude_db, w.points[k].magnitude_db) << pass << " " << k;
          EXPECT_EQ(g.points[k].phase_deg, w.points[k].phase_deg) << pass << " " << k;
        }
      }
    }
}

// The scans see the points one at a time: the result is that of a direct
// search of the whole sweep (written here), including a peak nearest ωn
// among several and a −3 dB level crossed more than once.
TEST(ResonanceScan, FindsThePeakNearestTheNaturalFrequencyAsADirectSearch) {
  // |G| in dB with local maxima at ω = 0.8 (farther from ωn = 1) and 1.1.
  std::vector<BodePoint> sweep;
  for (int k = 0; k <= 60; ++k) {
    BodePoint p;
    p.omega = 0.4 * std::pow(10.0, k / 60.0);  // 0.4 .. 4
    const double x = std::log(p.omega);
    p.magnitude_db = 6.0 * std::exp(-std::pow((x - std::log(1.1)) / 0.05, 2)) +
                     8.0 * std::exp(-std::pow((x - std::log(0.8)) / 0.05, 2)) - 10.0 * x;
    sweep.push_back(p);
  }
  // Direct search: interior local maxima in [ωn/2, 2ωn], the nearest ωn in log distance.
  std::size_t best = 0;
  for (std::size_t i = 1; i + 1 < sweep.size(); ++i)
    if (sweep[i].omega >= 0.5 && sweep[i].omega <= 2.0 && sweep[i].magnitude_db > sweep[i - 1].magnitude_db &&
        sweep[i].magnitude_db >= sweep[i + 1].magnitude_db &&
        (best == 0 || std::abs(std::log(sweep[i].omega)) < std::abs(std::log(sweep[best].omega))))
      best = i;
  ASSERT_NE(best, 0u);
  ResonanceScan scan(1.0);
  for (const BodePoint& p : sweep) scan.Add(p);
  const std::optional<Resonance> r = scan.Result();
  ASSERT_TRUE(r);
  // The parabola's vertex lies between the best sample's neighbours.
  EXPECT_GT(r->omega, sweep[best - 1].omega);
  EXPECT_LT(r->omega, sweep[best + 1].omega);
  EXPECT_NEAR(r->omega, 1.1, 0.05);
  // Below the level, above it again, then below to the end: the last crossing.
  BandwidthScan bandwidth(1.0);  // level −3.0103 dB
  const double db[] = {0.0, -1.0, -4.0, -2.0, -3.5, -6.0, -9.0};
  for (int k = 0; k < 7; ++k) bandwidth.Add(BodePoint{std::pow(10.0, k), {}, 0.0, db[k], 0.0, 0.0});
  const double level = -20.0 * std::log10(std::sqrt(2.0));
  const double t = (level - (-2.0)) / (-3.5 - (-2.0));
  ASSERT_TRUE(bandwidth.Result());
  EXPECT_NEAR(*bandwidth.Result(), std::pow(10.0, 3.0 + t), 1e-9);
  BandwidthScan never_below(1.0);
  for (int k = 0; k < 3; ++k) never_below.Add(BodePoint{std::pow(10.0, k), {}, 0.0, 0.0, 0.0, 0.0});
  EXPECT_FALSE(never_below.Result());
}

// The scans given a sweep in chunks of any size (as BodeSweep gives them a
// cursor's chunks) find what they find given it one point at a time: the
// same peak and bandwidth, to the bit, whichever chunk holds the peak's
// neighbours, the brackets at ωn/2 and 2ωn, or the crossing.
TEST(ResonanceScan, ChunksOfAnySizeGiveThePointByPointResult) {
  std::vector<BodePoint> sweep;
  for (int k = 0; k <= 60; ++k) {
    BodePoint p;
    p.omega = 0.4 * std::pow(10.0, k / 60.0);
    const double x = std::log(p.omega);
    p.magnitude_db = 6.0 * std::exp(-std::pow((x - std::log(1.1)) / 0.05, 2)) +
                     8.0 * std::exp(-std::pow((x - std::log(0.8)) / 0.05, 2)) - 10.0 * x;
    sweep.push_back(p);
  }
  ResonanceScan one(1.0);
  BandwidthScan one_bw(std::pow(10.0, 0.5));  // the level crossed in the sweep
  for (const BodePoint& p : sweep) {
    one.Add(p);
    one_bw.Add(p);
  }
  const std::optional<Resonance> want = one.Result();
  const std::optional<double> want_bw = one_bw.Result();
  ASSERT_TRUE(want);
  ASSERT_TRUE(want_bw);
  for (std::size_t size = 1; size <= sweep.size(); ++size) {
    ResonanceScan scan(1.0);
    BandwidthScan bandwidth(std::pow(10.0, 0.5));
    for (std::size_t k = 0; k < sweep.size(); k += size) {
      const std::span<const BodePoint> chunk(sweep.data() + k, std::min(size, sweep.size() - k));
      scan.Add(chunk);
      bandwidth.Add(chunk);
    }
    const std::optional<Resonance> got = scan.Result();
    ASSERT_TRUE(got) << size;
    EXPECT_EQ(got->omega, want->omega) << size;
    EXPECT_EQ(got->magnitude_db, want->magnitude_db) << size;
    EXPECT_EQ(got->prominence_db, want->prominence_db) << size;
    EXPECT_EQ(bandwidth.Result(), want_bw) << size;
  }
  // A level crossed more than once, split at every place: the last crossing.
  const double db[] = {0.0, -1.0, -4.0, -2.0, -3.5, -6.0, -9.0};
  std::vector<BodePoint> steps;
  for (int k = 0; k < 7; ++k) steps.push_back(BodePoint{std::pow(10.0, k), {}, 0.0, db[k], 0.0, 0.0});
  const double level = -20.0 * std::log10(std::sqrt(2.0));
  const double t = (level - (-2.0)) / (-3.5 - (-2.0));
  for (std::size_t cut = 0; cut <= steps.size(); ++cut) {
    BandwidthScan bandwidth(1.0);
    bandwidth.Add(std::span<const BodePoint>(steps.data(), cut));
    bandwidth.Add(std::span<const BodePoint>(steps.data() + cut, steps.size() - cut));
    ASSERT_TRUE(bandwidth.Result()) << cut;
    EXPECT_NEAR(*bandwidth.Result(), std::pow(10.0, 3.0 + t), 1e-9) << cut;
  }
}

// Oracle: on a sweep dense enough that G's phase moves less than 180°
// between neighbours, the unwrapped phase is the principal phase unwrapped
// point to point (the nearest turn to the previous point's phase). The
// factored form's phase is taken two factors at a time inside [1e-100,
// 1e100] rad/s and one at a time outside (per chunk): a sweep with one more
// point above 1e100 in the same chunk gives every point the turns of the
// sweep without it, computed two factors at a time.
TEST(ComputeBode, UnwrappedPhaseIsThePrincipalPhaseUnwrappedPointToPoint) {
  const model::AircraftData aircraft = Load("p2v7.toml");
  const ModalAnalysis modes = AnalyzeModes(aircraft);
  const std::vector<std::pair<std::string, std::string>> channels = {
      {"elevator", "theta"}, {"elevator", "q"}, {"elevator", "nz"}, {"elevator", "u"},
      {"aileron", "phi"},    {"rudder", "beta"}, {"rudder", "r"},   {"aileron", "ay"}};
  std::vector<double> omega = LogSpace(1e-3, 1e3, 20000);
  for (const auto& [input, output] : channels) {
    const Channel channel = ResolveChannel(aircraft, modes, input, {output});
    const FrequencyResponse response(channel.system);
    const TransferFunction tf = ChannelTransferFunction(channel, modes);
    const std::vector<BodePoint> bode = ComputeBode(response, tf, channel.input, channel.outputs[0], omega);
    for (std::size_t k = 1; k < bode.size(); ++k) {
      double step = bode[k].phase_principal_deg - bode[k - 1].phase_principal_deg;
      step -= 360.0 * std::round(step / 360.0);
      ASSERT_LT(std::abs(step), 90.0) << output << "/" << input << " " << k;  // dense enough
      EXPECT_NEAR(bode[k].phase_deg, bode[k - 1].phase_deg + step, 1e-9) << output << "/" << input << " " << k;
    }
    std::vector<double> with_huge = omega;
    with_huge.push_back(1e101);
    const FrequencyGrid grid = FrequencyGrid::Listed(with_huge);
    BodeCursor singles(response, tf, channel.input, channel.outputs[0], grid);
    BodeCursor pairs(response, tf, channel.input, channel.outputs[0], grid);
    const std::span<const BodePoint> all = singles.Next(with_huge.size());
    const std::span<const BodePoint> paired = pairs.Next(omega.size());
    ASSERT_EQ(paired.size() + 1, all.size());
    for (std::size_t k = 0; k < paired.size(); ++k) {
      EXPECT_EQ(paired[k].phase_deg, all[k].phase_deg) << output << "/" << input << " " << k;
      EXPECT_EQ(paired[k].phase_deg, bode[k].phase_deg) << output << "/" << input << " " << k;
    }
  }
}

TEST(FindResonance, MatchesTheSecondOrderFormula) {
  for (const double zeta : {0.1, 0.3, 0.5}) {
    const model::StateSpace sys = SecondOrder(2.0, zeta);
    const TransferFunction tf = ComputeTransferFunction(sys, 0, 0);
    const std::vector<BodePoint> bode =
        ComputeBode(FrequencyResponse(sys), tf, 0, 0, LogSpace(0.2, 20.0, 4001));
    const std::optional<Resonance> r = FindResonance(bode, 2.0);
    ASSERT_TRUE(r.has_value()) << zeta;
    EXPECT_NEAR(r->omega, 2.0 * std::sqrt(1 - 2 * zeta * zeta), 1e-4 * 2.0) << zeta;
    EXPECT_NEAR(r->magnitude_db, 20 * std::log10(1 / (2 * zeta * std::sqrt(1 - zeta * zeta))),
                1e-4)
        << zeta;
  }
  // ζ > 1/√2: no peak.
  const model::StateSpace flat = SecondOrder(2.0, 0.8);
  EXPECT_FALSE(FindResonance(ComputeBode(FrequencyResponse(flat), ComputeTransferFunction(flat, 0, 0),
                                         0, 0, LogSpace(0.2, 20.0, 400)),
                             2.0)
                   .has_value());
}

// Oracle: |a/(jω + a)| = 1/√2 at ω = a; log-linear interpolation between
// samples 0.23 % apart errs by < 1e-5 relative.
// A crossing between points whose frequencies' ratio overflows a double
// (1e-200 and 1e200 rad/s, as `bode --omega` may list): a frequency between
// them, not NaN (which the text report printed as "-nan rad/s").
TEST(Bandwidth, OfPointsFarApartIsFinite) {
  BodePoint a, b;
  a.omega = 1e-200;
  a.magnitude = 1.0;
  a.magnitude_db = 0.0;
  b.omega = 1e200;
  b.magnitude = 0.0;
  b.magnitude_db = -std::numeric_limits<double>::infinity();
  const std::optional<double> bw = Bandwidth({a, b}, 1.0);
  ASSERT_TRUE(bw.has_value());
  EXPECT_TRUE(std::isfinite(*bw));
  EXPECT_GE(*bw, a.omega * (1.0 - 1e-12));  // exp(log ω) is ω to rounding
  EXPECT_LE(*bw, b.omega * (1.0 + 1e-12));
  b.magnitude = 0.5;
  b.magnitude_db = 20.0 * std::log10(0.5);
  const std::optional<double> mid = Bandwidth({a, b}, 1.0);
  ASSERT_TRUE(mid.has_value());
  EXPECT_TRUE(std::isfinite(*mid) && *mid > a.omega && *mid < b.omega) << *mid;
}

TEST(Bandwidth, FirstOrderLagIsItsCornerFrequency) {
  const model::StateSpace sys = FirstOrder(0.7);
  const TransferFunction tf = ComputeTransferFunction(sys, 0, 0);
  ASSERT_TRUE(tf.dc_gain.has_value());
  EXPECT_NEAR(*tf.dc_gain, 1.0, 1e-15);
  const std::vector<BodePoint> bode =
      ComputeBode(FrequencyResponse(sys), tf, 0, 0, LogSpace(0.01, 100.0, 4001));
  const std::optional<double> bw = Bandwidth(bode, tf.dc_gain);
  ASSERT_TRUE(bw.has_value());
  EXPECT_NEAR(*bw, 0.7, 1e-5 * 0.7);
  EXPECT_FALSE(Bandwidth(bode, std::nullopt).has_value());
  EXPECT_FALSE(Bandwidth(bode, 0.0).has_value());
}

TEST(DefaultFrequencyRange, IsADecadeBeyondTheSlowestAndFastestModes) {
  const model::AircraftData a = Load("p2v7.toml");
  const ModalAnalysis modes = AnalyzeModes(a);
  const auto [lo, hi] = DefaultFrequencyRange(modes.longitudinal);
  EXPECT_DOUBLE_EQ(lo, FindMode(modes.longitudinal, ModeKind::kPhugoid)->natural_frequency / 10);
  EXPECT_DOUBLE_EQ(hi, FindMode(modes.longitudinal, ModeKind::kShortPeriod)->natural_frequency * 10);
  // Lateral: the heading root (ωn = 0) is skipped; the spiral is the slowest.
  const auto [llo, lhi] = DefaultFrequencyRange(modes.lateral);
  EXPECT_DOUBLE_EQ(llo, FindMode(modes.lateral, ModeKind::kSpiral)->natural_frequency / 10);
  EXPECT_GT(lhi, 10.0);
}

TEST(ComputeBode, RejectsBadFrequencies) {
  const model::StateSpace sys = FirstOrder(1.0);
  const TransferFunction tf = ComputeTransferFunction(sys, 0, 0);
  const FrequencyResponse r(sys);
  EXPECT_THROW(ComputeBode(r, tf, 0, 0, {}), std::invalid_argument);
  EXPECT_THROW(ComputeBode(r, tf, 0, 0, {1.0, 0.5}), std::invalid_argument);
  EXPECT_THROW(ComputeBode(r, tf, 0, 0, {-1.0}), std::invalid_argument);
  EXPECT_THROW(ComputeBode(r, tf, 0, 0, {std::nan("")}), std::invalid_argument);
  EXPECT_THROW(LogSpace(1.0, 1.0, 10), std::invalid_argument);
}

TEST(ResolveChannel, NamesWhatIsWrong) {
  const model::AircraftData a = Load("p2v7.toml");
  const ModalAnalysis modes = AnalyzeModes(a);
  try {
    ResolveChannel(a, modes, "elevator", {"qq"});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown output 'qq'"), std::string::npos);
  }
  EXPECT_THROW(ResolveChannel(a, modes, "flaps", {"q"}), std::invalid_argument);
  EXPECT_THROW(ResolveChannel(a, modes, "elevator", {"q", "p"}), std::invalid_argument);
  EXPECT_THROW(ResolveChannel(a, modes, "aileron", {"q"}), std::invalid_argument);
  const Channel ch = ResolveChannel(a, modes, "rudder", {"r", "ay"});
  EXPECT_EQ(ch.axis, model::Axis::kLateral);
  EXPECT_EQ(ch.outputs, (std::vector<int>{model::lat::kR, model::lat_out::kAy}));
}

}  // namespace
}  // namespace aerolin::analysis
