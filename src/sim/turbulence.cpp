#include "aerolin/sim/turbulence.hpp"

#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "aerolin/core/matrix_exponential.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::sim {
namespace {

constexpr double kFoot = core::kMetresPerFoot;
constexpr double kKnot = core::kMetresPerSecondPerKnot;

// MIL-F-8785C fig. 7, probability-of-exceedance σ [ft/s] against altitude
// [ft]: the rows of 10⁻² (light), 10⁻³ (moderate) and 10⁻⁵ (severe), as
// tabulated in JSBSim's FGWinds.cpp (rows 3, 4 and 6).
constexpr std::array<double, 12> kPoeAltitudeFt = {500.0,   1750.0,  3750.0,  7500.0,
                                                   15000.0, 25000.0, 35000.0, 45000.0,
                                                   55000.0, 65000.0, 75000.0, 80000.0};
constexpr std::array<std::array<double, 12>, 3> kPoeSigmaFtPerS = {{
    {6.6, 6.9, 7.4, 6.7, 4.6, 2.7, 0.4, 0.0, 0.0, 0.0, 0.0, 0.0},
    {8.6, 9.6, 10.6, 10.1, 8.0, 6.6, 5.0, 4.2, 2.7, 0.0, 0.0, 0.0},
    {15.6, 17.6, 23.0, 23.6, 22.1, 20.0, 16.0, 15.1, 12.1, 7.9, 6.2, 5.1},
}};

// Wind at 20 ft [kt]: light, moderate, severe.
constexpr std::array<double, 3> kW20Knots = {15.0, 30.0, 45.0};

double PoeSigmaFtPerS(TurbulenceIntensity intensity, double h_ft) {
  const std::array<double, 12>& row = kPoeSigmaFtPerS[static_cast<int>(intensity)];
  if (h_ft <= kPoeAltitudeFt.front()) return row.front();
  if (h_ft >= kPoeAltitudeFt.back()) return row.back();
  std::size_t i = 1;
  while (kPoeAltitudeFt[i] < h_ft) ++i;
  const double f = (h_ft - kPoeAltitudeFt[i - 1]) / (kPoeAltitudeFt[i] - kPoeAltitudeFt[i - 1]);
  return row[i - 1] + f * (row[i] - row[i - 1]);
}

// Both models in feet: {σ_u, σ_v, σ_w [ft/s], L_u, L_v, L_w [ft]}.
DrydenParameters LowAltitudeFt(TurbulenceIntensity intensity, double h_ft) {
  const double sigma_w = 0.1 * kW20Knots[static_cast<int>(intensity)] * kKnot / kFoot;
  const double f = 0.177 + 0.000823 * h_ft;
  const double L_uv = h_ft / std::pow(f, 1.2);
  const double sigma_uv = sigma_w / std::pow(f, 0.4);
  return {sigma_uv, sigma_uv, sigma_w, L_uv, L_uv, h_ft};
}

DrydenParameters HighAltitudeFt(TurbulenceIntensity intensity, double h_ft) {
  const double sigma = PoeSigmaFtPerS(intensity, h_ft);
  return {sigma, sigma, sigma, 1750.0, 1750.0, 1750.0};
}

// A single-input, single-output shaping filter ẋ = A x + B η, y = C x.
struct Filter {
  Eigen::MatrixXd A, B, C;
};

// gain/(1 + τ s).
Filter FirstOrder(double tau, double gain) {
  Filter f{Eigen::MatrixXd::Constant(1, 1, -1.0 / tau), Eigen::MatrixXd::Ones(1, 1),
           Eigen::MatrixXd::Constant(1, 1, gain / tau)};
  return f;
}

// σ√τ (1 + √3 τ s)/(1 + τ s)² = σ√τ (a² + √3 a s)/(s + a)², a = 1/τ.
Filter SecondOrderDryden(double tau, double sigma) {
  const double a = 1.0 / tau;
  Filter f{Eigen::MatrixXd(2, 2), Eigen::MatrixXd(2, 1), Eigen::MatrixXd(1, 2)};
  f.A << 0.0, 1.0, -a * a, -2.0 * a;
  f.B << 0.0, 1.0;
  const double k = sigma * std::sqrt(tau);
  f.C << k * a * a, k * std::sqrt(3.0) * a;
  return f;
}

// Solves A P + P Aᵀ + Q = 0 exactly (to rounding) in Kronecker form:
// (I ⊗ A + A ⊗ I) vec(P) = −vec(Q). n ≤ 2 here, so the n² system is tiny.
Eigen::MatrixXd Lyapunov(const Eigen::MatrixXd& A, const Eigen::MatrixXd& Q) {
  const Eigen::Index n = A.rows();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n * n, n * n);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index l = 0; l < n; ++l)
        for (Eigen::Index k = 0; k < n; ++k)
          K(i + n * j, k + n * l) = (j == l ? A(i, k) : 0.0) + (i == k ? A(j, l) : 0.0);
  const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(Q.data(), n * n);
  const Eigen::VectorXd p = K.fullPivLu().solve(-q);
  const Eigen::MatrixXd P = Eigen::Map<const Eigen::MatrixXd>(p.data(), n, n);
  return 0.5 * (P + P.transpose());
}

// Van Loan (1978): exp([−A Q; 0 Aᵀ]h) = [· F12; 0 F22], A_d = F22ᵀ,
// Q_d = A_d F12 = ∫₀^h e^{As} Q e^{Aᵀs} ds. The −A block grows as e^{h/τ}
// and its product with the decaying F22 loses e^{h/τ}·ε, so the formula is
// applied to h = Δt/2^s with |A|h ≤ 1, then doubled exactly s times:
// A_d(2h) = A_d(h)², Q_d(2h) = A_d(h) Q_d(h) A_d(h)ᵀ + Q_d(h).
void VanLoan(const Eigen::MatrixXd& A, const Eigen::MatrixXd& Q, double dt,
             Eigen::MatrixXd& Ad, Eigen::MatrixXd& Qd) {
  const Eigen::Index n = A.rows();
  const double norm = A.cwiseAbs().rowwise().sum().maxCoeff();  // ‖A‖∞
  const int doublings = std::max(0, static_cast<int>(std::ceil(std::log2(norm * dt))));
  const double h = std::ldexp(dt, -doublings);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  M.topLeftCorner(n, n) = -A * h;
  M.topRightCorner(n, n) = Q * h;
  M.bottomRightCorner(n, n) = A.transpose() * h;
  const Eigen::MatrixXd F = core::MatrixExponential(M);
  Ad = F.bottomRightCorner(n, n).transpose();
  Qd = Ad * F.topRightCorner(n, n);
  for (int i = 0; i < doublings; ++i) {
    Qd = (Ad * Qd * Ad.transpose() + Qd).eval();
    Ad = (Ad * Ad).eval();
  }
  Qd = (0.5 * (Qd + Qd.transpose())).eval();
}

Eigen::MatrixXd LowerCholesky(const Eigen::MatrixXd& S, const char* what) {
  const Eigen::LLT<Eigen::MatrixXd> llt(S);
  if (llt.info() != Eigen::Success)
    throw std::invalid_argument(std::string("DrydenTurbulence: the ") + what +
                                " covariance is not positive definite");
  return llt.matrixL();
}

void CheckPositive(double v, const char* what) {
  if (!std::isfinite(v) || v <= 0.0)
    throw std::invalid_argument(std::string("DrydenTurbulence: ") + what +
                                " must be positive and finite, got " + std::to_string(v));
}

}  // namespace

std::optional<TurbulenceIntensity> ParseTurbulenceIntensity(std::string_view text) {
  if (text == "light") return TurbulenceIntensity::kLight;
  if (text == "moderate") return TurbulenceIntensity::kModerate;
  if (text == "severe") return TurbulenceIntensity::kSevere;
  return std::nullopt;
}

std::string_view ToString(TurbulenceIntensity intensity) {
  switch (intensity) {
    case TurbulenceIntensity::kLight: return "light";
    case TurbulenceIntensity::kModerate: return "moderate";
    case TurbulenceIntensity::kSevere: return "severe";
  }
  return "?";
}

std::vector<double> DrydenBreakpointHeights() {
  std::vector<double> heights = {10.0 * kFoot, 1000.0 * kFoot, 2000.0 * kFoot};
  for (const double h_ft : kPoeAltitudeFt)
    if (h_ft > 2000.0) heights.push_back(h_ft * kFoot);
  return heights;
}

DrydenParameters DrydenParametersAt(TurbulenceIntensity intensity, double altitude) {
  if (!std::isfinite(altitude) || altitude < 0.0)
    throw std::invalid_argument("DrydenParametersAt: the altitude must be finite and >= 0 m, got " +
                                std::to_string(altitude));
  const double h_ft = std::max(altitude / kFoot, 10.0);
  DrydenParameters ft;
  if (h_ft < 1000.0) {
    ft = LowAltitudeFt(intensity, h_ft);
  } else if (h_ft >= 2000.0) {
    ft = HighAltitudeFt(intensity, h_ft);
  } else {
    const DrydenParameters lo = LowAltitudeFt(intensity, 1000.0);
    const DrydenParameters hi = HighAltitudeFt(intensity, 2000.0);
    const double f = (h_ft - 1000.0) / 1000.0;
    auto mix = [f](double a, double b) { return a + f * (b - a); };
    ft = {mix(lo.sigma_u, hi.sigma_u), mix(lo.sigma_v, hi.sigma_v), mix(lo.sigma_w, hi.sigma_w),
          mix(lo.L_u, hi.L_u),         mix(lo.L_v, hi.L_v),         mix(lo.L_w, hi.L_w)};
  }
  return {ft.sigma_u * kFoot, ft.sigma_v * kFoot, ft.sigma_w * kFoot,
          ft.L_u * kFoot,     ft.L_v * kFoot,     ft.L_w * kFoot};
}

void StandardNormal::Seed(std::uint64_t seed) {
  engine_.seed(seed);
  has_spare_ = false;
  spare_ = 0.0;
}

double StandardNormal::operator()() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  // Marsaglia & Bray's polar method: a point uniform in the unit disc.
  double u, v, s;
  do {
    u = static_cast<double>(engine_() >> 11) * 0x1.0p-52 - 1.0;  // [−1, 1), 53 bits
    v = static_cast<double>(engine_() >> 11) * 0x1.0p-52 - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  const double m = std::sqrt(-2.0 * std::log(s) / s);
  spare_ = v * m;
  has_spare_ = true;
  return u * m;
}

DrydenTurbulence::DrydenTurbulence(const DrydenParameters& parameters, double airspeed,
                                   double dt, std::optional<double> span, std::uint64_t seed)
    : parameters_(parameters),
      airspeed_(airspeed),
      dt_(dt),
      span_(span),
      seed_(seed),
      normal_(seed) {
  CheckPositive(airspeed, "the airspeed V");
  CheckPositive(dt, "the slice length dt");
  if (span) CheckPositive(*span, "the wing span b");
  for (const double L : {parameters.L_u, parameters.L_v, parameters.L_w})
    CheckPositive(L, "a scale length L");
  for (const double s : {parameters.sigma_u, parameters.sigma_v, parameters.sigma_w})
    if (!std::isfinite(s) || s < 0.0)
      throw std::invalid_argument("DrydenTurbulence: an intensity sigma must be finite and >= 0, got " +
                                  std::to_string(s));

  const double V = airspeed;
  const DrydenParameters& d = parameters;
  struct Block {
    Filter filter;
    int offset;
    int output;
  };
  std::vector<Block> blocks = {
      {FirstOrder(d.L_u / V, d.sigma_u * std::sqrt(2.0 * d.L_u / V)), 0, 0},
      {SecondOrderDryden(d.L_v / V, d.sigma_v), 1, 1},
      {SecondOrderDryden(d.L_w / V, d.sigma_w), 3, 2},
  };
  if (span) {
    const double b = *span;
    const double gain = d.sigma_w * std::sqrt(0.8 * std::numbers::pi / V) *
                        std::pow(std::numbers::pi / (4.0 * b), 1.0 / 6.0) /
                        std::cbrt(d.L_w);
    blocks.push_back({FirstOrder(4.0 * b / (std::numbers::pi * V), gain), 5, 3});
  }

  A_.setZero();
  B_.setZero();
  C_.setZero();
  P_.setZero();
  Ad_.setIdentity();  // the p block stays e^0 = 1 (and its state 0) without a span
  Qd_.setZero();
  chol_P_.setZero();
  chol_Qd_.setZero();
  for (const Block& block : blocks) {
    const Filter& f = block.filter;
    const int o = block.offset;
    const auto n = f.A.rows();
    const Eigen::MatrixXd Q = f.B * f.B.transpose();
    const Eigen::MatrixXd P = Lyapunov(f.A, Q);
    Eigen::MatrixXd Ad, Qd;
    VanLoan(f.A, Q, dt, Ad, Qd);
    A_.block(o, o, n, n) = f.A;
    B_.block(o, block.output, n, 1) = f.B;
    C_.block(block.output, o, 1, n) = f.C;
    P_.block(o, o, n, n) = P;
    Ad_.block(o, o, n, n) = Ad;
    Qd_.block(o, o, n, n) = Qd;
    chol_P_.block(o, o, n, n) = LowerCholesky(P, "stationary");
    chol_Qd_.block(o, o, n, n) = LowerCholesky(Qd, "discrete noise");
  }
  if (span) sigma_p_ = std::sqrt((C_.row(3) * P_ * C_.row(3).transpose())(0, 0));
  Reset();
}

void DrydenTurbulence::Reseed(std::uint64_t seed) {
  seed_ = seed;
  Reset();
}

void DrydenTurbulence::Reset() {
  normal_.Seed(seed_);
  for (int i = 0; i < kStates; ++i) eta_[i] = normal_();
  x_.noalias() = chol_P_ * eta_;
}

Eigen::Vector4d DrydenTurbulence::Next() {
  const Eigen::Vector4d y = C_ * x_;
  for (int i = 0; i < kStates; ++i) eta_[i] = normal_();
  State next;
  next.noalias() = Ad_ * x_;
  next.noalias() += chol_Qd_ * eta_;
  x_ = next;
  return y;
}

}  // namespace aerolin::sim
