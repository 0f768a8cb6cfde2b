#pragma once
/// @file
/// Frequency response G(jω) = C (jωI − A)⁻¹ B + D of a model, Bode data with a
/// continuously unwrapped phase, and the default frequency range of an
/// aircraft's axis.
///
/// **Method.** Three forms of G, chosen per frequency.
/// - The modal form. A is balanced (Ab = D⁻¹ A D, D powers of 2, Parlett &
///   Reinsch 1969) and diagonalized once, Ab = X Λ X⁻¹ (Eigen::EigenSolver,
///   O(n³)), each eigenpair then refined in extended precision
///   (RefineEigenpairs: one Newton step with the residual in long double,
///   and X⁻¹ by one Newton–Schulz step; the solver's pairs are up to 1e-13
///   off where two eigenvalues are close, the lateral model's spiral and
///   heading). A channel's residues r̃ᵢ = (C D X)ᵢ (X⁻¹ D⁻¹ B)ᵢ are formed in
///   long double; λᵢ and rᵢ are those rounded to double, and at each
///   frequency G(jω) = D + Σ rᵢ/(jω − λᵢ) (each complex pair one
///   second-order term): O(n), over blocks of 64 frequencies in split
///   real/imaginary arrays (vectorized). Beside the sum, each frequency's
///   error is estimated as Σ (ra,ᵢ/|jω − λᵢ| + |rᵢ| |δλᵢ|/|jω − λᵢ|²), with
///   |δλᵢ| = |λᵢ − λ̃ᵢ| + κᵢ ρᵢ (the rounding of the refined eigenvalue plus
///   its first-order error, κᵢ its condition number, ρᵢ its residual) and
///   ra,ᵢ = |rᵢ − r̃ᵢ| + bᵢ + (n + 4) u |rᵢ| (bᵢ the refined residue's
///   first-order error from the refined vectors' residuals over the
///   eigenvalue gaps, and the roundings of the sum, u the unit round-off).
///   It is large where the terms cancel (near a zero of G) or near a
///   lightly damped pole; where it exceeds kModalTolerance·|G| the peeled
///   forms are tried.
/// - The peeled forms, for the two cancellations that the modal sum meets
///   on most channels: at high ω when the relative degree is ≥ 2 (C B = 0:
///   the terms fall as 1/ω, G as 1/ω²) and at low ω near a zero at s = 0
///   (q/δe). The same terms, rearranged exactly:
///   G = D + C B/s + Σ rᵢ λᵢ/(s (s − λᵢ)) with C B formed from C and B, and
///   G = G(0) + Σ rᵢ s/(λᵢ (s − λᵢ)) with G(0) = D − Σ r̃ᵢ/λ̃ᵢ summed in long
///   double; each with its first-order error estimate, the smaller
///   relative one taken where it meets kModalTolerance·|G|. Only the
///   frequencies the modal sum leaves are computed so.
/// - The Hessenberg form. A is reduced once to upper Hessenberg form
///   H = Qᵀ A Q (Householder, Eigen::HessenbergDecomposition, O(n³)), with
///   B̃ = Qᵀ B and C̃ = C Q. At each frequency (jωI − H) x = B̃ e_k is solved
///   by Gaussian elimination with partial pivoting between neighbouring rows,
///   O(n²), and G = C̃ x + D (Laub, "Efficient multivariable frequency
///   response computations", IEEE TAC 26(2), 1981). Backward stable, like a
///   dense LU solve per frequency (O(n³)). Evaluate (any complex s) always
///   uses it, and Sweep wherever neither modal form is accurate enough
///   (on the bundled channels: a lightly damped zero pair's notch, r/δr of
///   the P2V-7 at 6 of 1000 frequencies; q/δe below ~3e-4 rad/s, where G(0)
///   = 0 is known only to ~1e-17).
/// The tests require the modal forms' values to agree with an
/// extended-precision direct solve to 1e-12 relative on every channel of the
/// bundled aircraft (the estimate's tolerance is 10× below that), Sweep to
/// agree at every frequency on the P2V-7's θ/δe, q/δe, φ/δa, r/δr, β/δr, and
/// far from the modes with the Markov and Taylor series (1e-8 … 1e90 rad/s),
/// where the Hessenberg form in double is off (θ/δe of the A-7A at 1e30 rad/s:
/// 4e-46 where G is 5.4e-60).

#include <Eigen/Core>
#include <array>
#include <complex>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/analysis/transfer_function.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/state_space.hpp"
#include <string>

namespace aerolin::analysis {

/// Where Sweep's estimate of the modal form's relative error exceeds this,
/// the frequency is computed by a peeled form, and where that one's does
/// too, by the Hessenberg form.
inline constexpr double kModalTolerance = 1e-13;

/// How FrequencyResponse::Sweep computes G(jω).
enum class ResponseMethod {
  kModalWhereAccurate,  ///< the modal forms where their error estimates allow, else Hessenberg
  kHessenberg,          ///< the Hessenberg form at every frequency
};

/// G(jω) of one model, decomposed once, evaluated in O(n) (modal form) or
/// O(n²) (Hessenberg form) per frequency.
class FrequencyResponse {
 public:
  /// Reduces `sys`'s A to Hessenberg form and, where A's eigenvector matrix
  /// is well enough conditioned for the modal form to be used at all
  /// (u κ(V) ≤ kModalTolerance), diagonalizes it and refines the eigenpairs
  /// (not with kHessenberg).
  /// @throws std::invalid_argument if `sys` has no state.
  explicit FrequencyResponse(const model::StateSpace& sys,
                             ResponseMethod method = ResponseMethod::kModalWhereAccurate);

  /// Returns G(s) from input `input` to every output at the complex frequency
  /// `s` (s = jω for the frequency response) [output/input].
  /// @throws std::invalid_argument if `input` is out of range.
  /// @throws core::NumericalError if sI − A is singular to working precision
  ///         (s is an eigenvalue of A, e.g. ω = 0 with an integrator).
  Eigen::VectorXcd Evaluate(std::complex<double> s, int input) const;

  /// Returns G(jωₖ) for every ωₖ [rad/s] from input `input` to output
  /// `output`.
  /// @throws as Evaluate, and std::invalid_argument if `output` is out of range.
  std::vector<std::complex<double>> Sweep(const std::vector<double>& omega, int input,
                                          int output) const;

  /// Writes G(jωₖ) from input `input` to output `output` into `out[k]` for
  /// every ωₖ [rad/s] and returns how many of them the Hessenberg form
  /// computed (the others: the modal forms).
  /// @throws as Sweep, and std::invalid_argument if the sizes differ.
  std::size_t Sweep(std::span<const double> omega, int input, int output,
                    std::span<std::complex<double>> out) const;

  int num_states() const { return static_cast<int>(H_.rows()); }
  /// Whether Sweep may use the modal forms (A diagonalizable, u κ(V) ≤
  /// kModalTolerance, its eigenpairs refined).
  bool has_modal_form() const { return modal_condition_ > 0.0; }
  /// κ(V) = ‖V‖_F ‖V⁻¹‖_F of A's unit eigenvectors; 0 without a modal form.
  double modal_condition() const { return modal_condition_; }

 private:
  // Solves (sI − H) x = B̃ e_input into the workspace M, x.
  void Solve(std::complex<double> s, int input, Eigen::MatrixXcd& M, Eigen::VectorXcd& x) const;
  Eigen::MatrixXd H_;   ///< Qᵀ A Q, upper Hessenberg
  double h_max_ = 0;    ///< max |Hᵢⱼ| (Solve's singularity scale)
  Eigen::MatrixXd Bt_;  ///< Qᵀ B
  Eigen::MatrixXd Ct_;  ///< C Q
  Eigen::MatrixXd D_;
  /// The eigenpairs refined in long double: λᵢ, C D X and X⁻¹ D⁻¹ B (the
  /// residues' reference and the peeled forms' values) and their moduli,
  /// κᵢ and the residuals, 1/|λᵢ − λⱼ|.
  Eigen::Matrix<std::complex<long double>, Eigen::Dynamic, 1> lambda_extended_;
  Eigen::Matrix<std::complex<long double>, Eigen::Dynamic, Eigen::Dynamic> CV_extended_, WB_extended_;
  Eigen::MatrixXd CV_extended_abs_, WB_extended_abs_;
  Eigen::VectorXd extended_condition_, extended_residual_;
  Eigen::MatrixXd inverse_gap_;
  Eigen::MatrixXd CB_;        ///< C B (the peeled high-frequency form's 1/s coefficient)
  Eigen::MatrixXd CB_error_;  ///< its error bound
  double modal_condition_ = 0.0;
};

/// One frequency of a Bode diagram.
struct BodePoint {
  double omega = 0.0;         ///< ω [rad/s]
  std::complex<double> value; ///< G(jω) [output/input]
  double magnitude = 0.0;     ///< |G(jω)| [output/input]
  double magnitude_db = 0.0;  ///< 20 log₁₀ |G| [dB] (−inf where G = 0)
  /// Phase [deg], continuous across the sweep, the first point in (−360, 0].
  double phase_deg = 0.0;
  double phase_principal_deg = 0.0;  ///< arg G in (−180, 180] [deg]
};

/// The frequencies of a Bode diagram [rad/s]: a list, or points spaced evenly
/// in log ω (LogSpace's), each computed when asked, so a long sweep is never
/// held.
class FrequencyGrid {
 public:
  /// Returns LogSpace(from, to, points) without holding it.
  /// @throws as LogSpace.
  static FrequencyGrid LogSpaced(double from, double to, int points);
  /// Returns the listed frequencies (checked as ComputeBode checks them, by
  /// each BodeCursor).
  static FrequencyGrid Listed(std::vector<double> omega);
  std::size_t size() const { return listed_.empty() ? count_ : listed_.size(); }
  double operator[](std::size_t k) const;
  /// The listed frequencies (Listed's); empty for a log-spaced grid.
  std::span<const double> listed() const { return listed_; }

 private:
  std::vector<double> listed_;
  double from_ = 0, to_ = 0, log_from_ = 0, log_to_ = 0;
  std::size_t count_ = 0;
};

/// Frequencies a BodeCursor computes at a time by default.
inline constexpr std::size_t kBodeChunk = 4096;

/// The Bode data of one output at the frequencies of a grid, computed in
/// order a chunk at a time: ComputeBode's points, without holding them.
class BodeCursor {
 public:
  /// `response`, `tf` (of the same model) and `omega` must outlive the cursor.
  /// @throws as ComputeBode, on `omega`.
  BodeCursor(const FrequencyResponse& response, const TransferFunction& tf, int input, int output,
             const FrequencyGrid& omega);
  /// Returns the next points (at most `max`; none after the last), valid
  /// until the next call.
  /// @throws core::NumericalError as ComputeBode.
  std::span<const BodePoint> Next(std::size_t max = kBodeChunk);
  /// As Next, appending the points to `out` (no copy of them); the span
  /// is of `out`, valid while `out` is not reallocated.
  std::span<const BodePoint> NextInto(std::vector<BodePoint>& out, std::size_t max = kBodeChunk);

 private:
  const FrequencyResponse& response_;
  const TransferFunction& tf_;
  int input_, output_;
  const FrequencyGrid& omega_;
  std::size_t next_ = 0;
  double turns_ = 0;  // whole turns taken off every phase (the first point's)
  std::vector<double> chunk_omega_;
  std::vector<std::complex<double>> chunk_values_;
  std::vector<double> continuous_;  // the factored form's phase at each [deg]
  std::vector<double> magnitude_, principal_;  // |G|, arg G [rad] at each
  std::vector<std::pair<std::complex<double>, double>> factors_;  // each root, +1 zero / −1 pole
  std::vector<BodePoint> chunk_;
};

/// Returns the Bode data of `tf` at the frequencies `omega` (ascending),
/// with values from `response` (the model `tf` was computed from). The phase
/// is unwrapped from the factored form, arg K + Σ arg(jω − zᵢ) − Σ arg(jω − pⱼ),
/// each term continuous in ω, so a sparse sweep past a lightly damped mode
/// cannot skip a turn; each point's phase is the principal value moved by the
/// whole number of turns nearest that continuous phase, and the whole curve
/// then by the turns that put the first point in (−360°, 0°].
/// @throws std::invalid_argument if `omega` is empty, not ascending, or has a
///         value that is not finite and positive.
std::vector<BodePoint> ComputeBode(const FrequencyResponse& response, const TransferFunction& tf,
                                   int input, int output, const std::vector<double>& omega);

/// Returns `points` frequencies spaced evenly in log ω from `from` to `to`
/// inclusive [rad/s].
/// @throws std::invalid_argument unless 0 < from < to (finite) and points ≥ 2.
std::vector<double> LogSpace(double from, double to, int points);

/// Returns the default sweep range of an axis [rad/s]: a decade below the
/// slowest mode with ωn > 0 to a decade above the fastest.
/// @throws std::invalid_argument if no mode has ωn > 0.
std::pair<double, double> DefaultFrequencyRange(const std::vector<Mode>& modes);

/// A resonance peak of a sweep: the local maximum of |G| nearest ωn.
struct Resonance {
  double omega = 0.0;         ///< ω at the peak [rad/s]
  double magnitude_db = 0.0;  ///< |G| there [dB]
  /// Peak above the straight line joining the magnitudes (in dB, log ω) at
  /// ωn/2 and 2ωn [dB]: how much the mode stands out of the trend.
  double prominence_db = 0.0;
};

/// Returns the resonance of a mode with natural frequency `natural_frequency`
/// [rad/s]: the interior local maximum of |G| in [ωn/2, 2ωn] nearest ωn (log
/// distance), refined by a parabola through the three samples in (log ω, dB);
/// nullopt if the sweep has none there.
std::optional<Resonance> FindResonance(const std::vector<BodePoint>& bode,
                                       double natural_frequency);

/// FindResonance of a sweep whose points are given one at a time, in order:
/// it keeps the three samples around the best peak so far and those around
/// ωn/2 and 2ωn, not the sweep.
class ResonanceScan {
 public:
  explicit ResonanceScan(double natural_frequency) : wn_(natural_frequency) {}
  void Add(const BodePoint& point);
  /// Add of each point in order (the same result), without copying the
  /// points that cannot be a peak or a bracket.
  void Add(std::span<const BodePoint> points);
  /// FindResonance of the points added.
  std::optional<Resonance> Result() const;

 private:
  // The first point at or above ω and the point before it (lower_bound's).
  struct Bracket {
    double omega;
    std::optional<BodePoint> lo, hi;
  };
  double wn_;
  std::size_t count_ = 0;
  BodePoint window_[3];  // the last three points, oldest first
  std::optional<std::array<BodePoint, 3>> best_;
  BodePoint front_, back_;
  Bracket low_{0.5 * wn_, {}, {}}, high_{2.0 * wn_, {}, {}};
};

/// Bandwidth of a sweep whose points are given one at a time, in order.
class BandwidthScan {
 public:
  explicit BandwidthScan(std::optional<double> dc_gain);
  void Add(const BodePoint& point);
  /// Add of each point in order (the same result), from the chunk's last
  /// crossing alone.
  void Add(std::span<const BodePoint> points);
  /// Bandwidth of the points added.
  std::optional<double> Result() const;

 private:
  bool defined_ = false;
  double level_db_ = 0;
  bool any_ = false;
  BodePoint last_;
  // The last point at or above the level and the first below it, of the
  // run of points below the level that ends at the last point (if any).
  bool crossing_ = false;
  BodePoint above_, below_;
};

/// Returns the −3 dB bandwidth [rad/s]: the lowest ω of the sweep above which
/// |G| stays below |DC gain|/√2, interpolated in log ω; nullopt if the DC gain
/// is absent, zero or infinite, or the sweep never settles below that level.
std::optional<double> Bandwidth(const std::vector<BodePoint>& bode,
                                std::optional<double> dc_gain);

/// A control and outputs of one aircraft axis, resolved from their names.
struct Channel {
  model::Axis axis = model::Axis::kLongitudinal;
  model::StateSpace system;  ///< the axis's model with derived outputs (model/outputs.hpp)
  int input = 0;            ///< index into model.inputs()
  std::vector<int> outputs; ///< indices into model.outputs()
};

/// Returns the channel from control `input` to the outputs `outputs` (state
/// names u, alpha, q, theta, beta, p, r, phi, psi, or nz, gamma, ay), all on
/// one axis, with the model of `modes` extended by WithDerivedOutputs.
/// @throws std::invalid_argument naming the unknown control or output and the
///         valid names, or outputs on different axes, or a control that does
///         not enter the outputs' axis.
Channel ResolveChannel(const model::AircraftData& aircraft, const ModalAnalysis& modes,
                       const std::string& input, const std::vector<std::string>& outputs);

/// Returns the transfer function of `channel`'s output `k`, poles named by
/// the axis's modes.
TransferFunction ChannelTransferFunction(const Channel& channel, const ModalAnalysis& modes,
                                         std::size_t k = 0);

/// A mode to mark on a Bode diagram.
struct ModeMark {
  ModeKind kind;
  std::string name;               ///< Mode::full_name()
  double natural_frequency = 0.0; ///< ωn [rad/s], > 0
};

/// A named resonance of one curve.
struct NamedResonance {
  ModeKind kind;
  std::string name;
  Resonance resonance;
};

/// One output's curve of a Bode diagram.
struct BodeCurve {
  TransferFunction tf;
  std::vector<BodePoint> points;
  /// Resonances of the short period and Dutch roll (oscillatory modes of the
  /// axis) found on this curve.
  std::vector<NamedResonance> resonances;
  std::optional<double> bandwidth;  ///< Bandwidth(points, tf.dc_gain) [rad/s]
};

/// The Bode diagram of one control to one or more outputs of an axis.
struct BodeDiagram {
  model::Axis axis = model::Axis::kLongitudinal;
  core::Signal input;
  std::vector<BodeCurve> curves;
  std::vector<ModeMark> modes;  ///< the axis's modes with ωn > 0, ωn ascending
};

/// Returns the Bode diagram of `channel` at `omega` [rad/s] (ascending,
/// positive; empty → LogSpace over DefaultFrequencyRange with `points`).
/// @throws as ComputeBode and DefaultFrequencyRange.
BodeDiagram ComputeBodeDiagram(const Channel& channel, const ModalAnalysis& modes,
                               std::vector<double> omega, int points = 400);

/// What the Bode diagrams of one channel share whatever their frequencies:
/// the decomposition of the channel's model (FrequencyResponse), each
/// output's transfer function, the axis's mode marks and the modes whose
/// resonances are sought. Made once per channel and immutable, so sweeps
/// over any frequencies can share it (the Python binding keeps one per
/// channel on its aircraft: the per-call cost of `aerolin.bode` is then the
/// frequencies' alone).
class BodeChannel {
 public:
  /// @throws as FrequencyResponse and ComputeTransferFunction.
  BodeChannel(const Channel& channel, const ModalAnalysis& modes);
  BodeChannel(const BodeChannel&) = delete;
  BodeChannel& operator=(const BodeChannel&) = delete;
  model::Axis axis() const { return axis_; }
  const core::Signal& input_signal() const { return input_signal_; }
  int input() const { return input_; }
  const std::vector<int>& outputs() const { return outputs_; }
  const FrequencyResponse& response() const { return response_; }
  /// The transfer function of each output, poles named by the axis's modes.
  const std::vector<TransferFunction>& transfer_functions() const { return tfs_; }
  /// The axis's modes with ωn > 0, ωn ascending.
  const std::vector<ModeMark>& marks() const { return marks_; }
  /// The oscillatory short period and Dutch roll, in the axis's order.
  const std::vector<ModeMark>& resonant() const { return resonant_; }

 private:
  model::Axis axis_;
  core::Signal input_signal_;
  int input_;
  std::vector<int> outputs_;
  FrequencyResponse response_;
  std::vector<TransferFunction> tfs_;
  std::vector<ModeMark> marks_, resonant_;
};

/// Returns ComputeBodeDiagram's diagram of a prepared channel; `modes` (of
/// the aircraft `channel` was made from) sets the default range.
/// @throws as ComputeBodeDiagram.
BodeDiagram ComputeBodeDiagram(std::shared_ptr<const BodeChannel> channel, const ModalAnalysis& modes,
                               std::vector<double> omega, int points = 400);

/// A Bode diagram whose points are computed when they are asked for: the
/// summary (each curve's transfer function, resonances and bandwidth) from
/// one pass over the frequencies at construction, then each curve's points
/// again, a chunk at a time, for each writer. Memory does not grow with the
/// number of frequencies; the points are those of ComputeBodeDiagram.
class BodeSweep {
 public:
  /// With `keep_points`, the points of the summary's pass are kept, so that
  /// Diagram() does not compute them again (memory then grows with the
  /// number of frequencies: for ComputeBodeDiagram, which returns them all).
  /// @throws as ComputeBodeDiagram (before any point is handed over).
  BodeSweep(const Channel& channel, const ModalAnalysis& modes, FrequencyGrid omega,
            bool keep_points = false);
  /// As above, of a prepared channel (shared, not copied).
  BodeSweep(std::shared_ptr<const BodeChannel> channel, FrequencyGrid omega, bool keep_points = false);
  BodeSweep(const BodeSweep&) = delete;
  BodeSweep& operator=(const BodeSweep&) = delete;
  /// The diagram without its points.
  const BodeDiagram& summary() const { return summary_; }
  /// The diagram with every point (for a figure, or ComputeBodeDiagram).
  BodeDiagram Diagram() const&;
  /// As above, moving the kept points (keep_points) rather than copying them.
  BodeDiagram Diagram() &&;
  std::size_t size() const { return omega_.size(); }  ///< frequencies
  /// Calls `f` with the next points of each curve in `curves` (one span per
  /// curve, the same frequencies), from the first frequency to the last.
  void ForEachChunk(std::span<const std::size_t> curves,
                    const std::function<void(std::span<const std::span<const BodePoint>>)>& f) const;

 private:
  FrequencyGrid omega_;
  std::shared_ptr<const BodeChannel> channel_;
  BodeDiagram summary_;
  std::vector<std::vector<BodePoint>> kept_;  ///< each curve's points, with keep_points
};

}  // namespace aerolin::analysis
