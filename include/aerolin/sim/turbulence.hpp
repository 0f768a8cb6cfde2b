#pragma once
/// @file
/// Dryden continuous turbulence, MIL-F-8785C convention (§3.7.2, not the
/// MIL-HDBK-1797 variant with L_u = 2L_v = 2L_w): the intensities and scale
/// lengths by altitude, the shaping filters, their exact discretization for
/// the slice length, and a reproducible sampler.
///
/// **Spectra** (one-sided in spatial frequency Ω [rad/m], ∫₀^∞ Φ dΩ = σ²;
/// temporal ω = VΩ, with V the airspeed, the model's U0):
/// @f[
/// \Phi_u = \sigma_u^2 \frac{2L_u}{\pi}\frac{1}{1 + (L_u\Omega)^2},\quad
/// \Phi_{v,w} = \sigma^2 \frac{L}{\pi}\frac{1 + 3(L\Omega)^2}{(1 + (L\Omega)^2)^2},\quad
/// \Phi_p = \frac{\sigma_w^2}{L_w}\frac{0.8\,(\pi L_w/4b)^{1/3}}{1 + (4b\Omega/\pi)^2}.
/// @f]
/// Autocorrelations: R_u(τ) = σ_u² e^{−Vτ/L_u}, R_{v,w}(τ) = σ²(1 − Vτ/2L)
/// e^{−Vτ/L}; R_p(τ) = σ_p² e^{−πVτ/4b}.
///
/// **Filters** driven by unit-intensity white noise (E[η(t)η(s)] = δ(t − s)),
/// whose output spectrum is π Φ(ω/V)/V two-sided, with τ = L/V:
/// H_u = σ_u√(2τ_u)/(1 + τ_u s); H_{v,w} = σ√τ (1 + √3 τ s)/(1 + τ s)²;
/// H_p = σ_w √(0.8π/V) (π/4b)^{1/6} L_w^{−1/3} / (1 + (4b/πV) s).
/// (Sources writing the filters with noise "of power 1" per rad/s one-sided
/// drop a √π: the spectra above are the definition.)
///
/// **Discretization.** Each filter (A_f, B_f) is discretized exactly for the
/// slice Δt: A_d = e^{A_f Δt}, Q_d = ∫₀^Δt e^{A_f s}B_f B_fᵀe^{A_fᵀ s}ds (Van
/// Loan's method, on Δt/2^s with |A_f|Δt/2^s ≤ 1 then doubled exactly, so a
/// Δt much longer than L/V loses no precision), x_{k+1} = A_d x_k +
/// chol(Q_d) η_k, and x_0 is drawn from
/// the stationary covariance P (A_f P + P A_fᵀ + B_f B_fᵀ = 0, solved exactly
/// in Kronecker form). So the samples x_k at t = kΔt have the continuous
/// Dryden autocovariance at every lag, for any Δt (JSBSim's forward-Euler
/// recursions do not). Each sample is held over its slice.
///
/// **Neglected:** the rate gusts q_g, r_g (MIL-F-8785C's gust gradients);
/// the von Kármán form; wind shear and a mean wind; a time-varying V or
/// altitude (the filters are built once, for the trim speed and the given
/// altitude).

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>
#include <string_view>

namespace aerolin::sim {

/// MIL-F-8785C turbulence intensity: the wind at 20 ft (low altitude) and
/// the probability of exceedance (high altitude).
enum class TurbulenceIntensity {
  kLight,     ///< W20 = 15 kt; exceedance 10⁻²
  kModerate,  ///< W20 = 30 kt; exceedance 10⁻³
  kSevere,    ///< W20 = 45 kt; exceedance 10⁻⁵
};

/// Parses "light" / "moderate" / "severe"; nullopt otherwise.
std::optional<TurbulenceIntensity> ParseTurbulenceIntensity(std::string_view text);
std::string_view ToString(TurbulenceIntensity intensity);

/// Dryden intensities [m/s] and scale lengths [m].
struct DrydenParameters {
  double sigma_u = 0.0, sigma_v = 0.0, sigma_w = 0.0;  ///< [m/s]
  double L_u = 0.0, L_v = 0.0, L_w = 0.0;              ///< [m]
};

/// Returns the MIL-F-8785C intensities and scale lengths at altitude h [m]
/// above ground (h_ft = h/0.3048):
/// - h_ft < 1000 (clipped below at 10 ft, as JSBSim): L_w = h_ft,
///   L_u = L_v = h_ft/(0.177 + 0.000823 h_ft)^{1.2}, σ_w = 0.1 W20,
///   σ_u = σ_v = σ_w/(0.177 + 0.000823 h_ft)^{0.4};
/// - h_ft ≥ 2000: L = 1750 ft, σ_u = σ_v = σ_w from the probability-of-
///   exceedance table (MIL-F-8785C fig. 7, the values JSBSim tabulates),
///   linear in altitude between its columns 500, 1750, 3750, 7500, 15000,
///   25000, ..., 80000 ft and held beyond 80000 ft;
/// - in between, each σ and L is linear in h between its value at 1000 ft
///   (low-altitude model: L = 1000 ft, σ = 0.1 W20) and at 2000 ft (high-
///   altitude model). JSBSim instead blends toward the table at h itself.
/// @throws std::invalid_argument if h is negative or not finite.
DrydenParameters DrydenParametersAt(TurbulenceIntensity intensity, double altitude);

/// Returns the heights above ground [m], ascending, where DrydenParametersAt
/// changes form or has a table column: 10 ft (below it h is clipped), 1000
/// and 2000 ft, and the table's altitudes from 2000 up to 80 000 ft (held
/// beyond). Between neighbours each σ and L is smooth in h, so a statistic
/// drawn against height through these points and any between them shows
/// every kink where it is.
std::vector<double> DrydenBreakpointHeights();

/// Standard normal deviates, reproducible everywhere: std::mt19937_64 (its
/// output sequence is fixed by the C++ standard) and Marsaglia's polar
/// method written here (std::normal_distribution's algorithm is left to the
/// library, so libstdc++, libc++ and MSVC give different numbers for one
/// seed). Uniforms are the engine's top 53 bits scaled to [−1, 1); the
/// transform uses only +, ×, /, sqrt (correctly rounded by IEEE 754) and log,
/// so the bytes depend at most on the last bit of the C library's log.
class StandardNormal {
 public:
  explicit StandardNormal(std::uint64_t seed) { Seed(seed); }
  /// Restarts the sequence for `seed`.
  void Seed(std::uint64_t seed);
  /// Returns the next N(0, 1) deviate.
  double operator()();

 private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

/// The Dryden gust generator: (u_g, v_g, w_g, p_g) [m/s, m/s, m/s, rad/s]
/// along the model's axes, one sample per slice of length Δt.
///
/// The six filter states are, in order: u (1), v (2), w (2), p (1); each
/// second-order filter in controllable form (states y, ẏ of the denominator
/// 1/(s + 1/τ)², output c0 y + c1 ẏ).
///
/// | Matrix | Rows | Cols |
/// |:--:|:--:|:--:|
/// | A, Ad, Qd, P | 6 | 6 (block-diagonal per component) |
/// | B | 6 | 4 (one white noise per component) |
/// | C | 4 | 6 |
class DrydenTurbulence {
 public:
  static constexpr int kStates = 6;
  using StateMatrix = Eigen::Matrix<double, kStates, kStates>;
  using State = Eigen::Matrix<double, kStates, 1>;

  /// @param airspeed V [m/s] (the trim speed U0), > 0
  /// @param dt slice length Δt [s], > 0
  /// @param span wing span b [m], > 0; without it p_g is 0.
  /// @param seed the random sequence (the same seed gives the same gusts)
  /// @throws std::invalid_argument if V, Δt, b, a σ (< 0) or an L (≤ 0) is
  ///         not valid and finite.
  DrydenTurbulence(const DrydenParameters& parameters, double airspeed, double dt,
                   std::optional<double> span, std::uint64_t seed);

  /// Returns the sample held over the current slice and steps to the next.
  /// Does not allocate.
  Eigen::Vector4d Next();
  /// Restarts: re-seeds and draws the initial state again, so the sequence
  /// repeats from the first sample.
  void Reset();
  /// Changes the seed and restarts (Reset) with it: a copy of a generator
  /// reseeded flies as one built with that seed, without refitting the filters.
  void Reseed(std::uint64_t seed);

  const DrydenParameters& parameters() const { return parameters_; }
  /// Roll-gust intensity σ_p [rad/s] from Φ_p (0 without a span).
  double sigma_p() const { return sigma_p_; }
  std::optional<double> span() const { return span_; }
  double airspeed() const { return airspeed_; }
  double dt() const { return dt_; }
  std::uint64_t seed() const { return seed_; }

  const StateMatrix& A() const { return A_; }
  const Eigen::Matrix<double, kStates, 4>& B() const { return B_; }
  const Eigen::Matrix<double, 4, kStates>& C() const { return C_; }
  const StateMatrix& P() const { return P_; }    ///< stationary covariance
  const StateMatrix& Ad() const { return Ad_; }  ///< e^{AΔt}
  const StateMatrix& Qd() const { return Qd_; }  ///< discrete noise covariance

 private:
  DrydenParameters parameters_;
  double airspeed_, dt_;
  std::optional<double> span_;
  std::uint64_t seed_;
  double sigma_p_ = 0.0;
  StateMatrix A_, P_, Ad_, Qd_;
  StateMatrix chol_P_, chol_Qd_;  // block-diagonal lower Cholesky factors
  Eigen::Matrix<double, kStates, 4> B_;
  Eigen::Matrix<double, 4, kStates> C_;
  StandardNormal normal_;
  State x_, eta_;
};

}  // namespace aerolin::sim
