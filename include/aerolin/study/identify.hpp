#pragma once
/// @file
/// System identification: estimates of a data file's keys (as written, in its
/// units and form) from a recorded flight, with honest standard errors.
///
/// The model is aerolin's linear model of one axis, A(θ) and B(θ) through
/// model::MatricesOfFile and model::InputMatricesOfFile (the keys as written,
/// every other key of the file fixed), measured outputs y = x + b (every state
/// of the axis, biased), the controls as recorded. θ is the free keys plus the
/// initial state x0 of every output and a constant output bias b per measured
/// state (either group can be fixed); no bias is estimated for a state that no
/// state equation reads (ψ: its bias and its x0 are the same offset).
///
/// **Output error** (the default; Klein & Morelli 2006 ch. 6, SIDPAC `oe`):
/// maximum likelihood with an unknown diagonal noise covariance R, which is
/// re-estimated from the residuals at every iteration (R̂ = diag Σνν'/N, so the
/// cost is ln det R̂); Gauss–Newton steps with Levenberg–Marquardt damping,
/// (M + λ diag M)Δθ = g. The model is simulated with the exact zero-order hold
/// at the data's step: [Φ Γ] from e^{[A B; 0 0]Δt}, each row's controls held
/// over the slice that ends at it (the CSV's convention). The output
/// sensitivities are exact: ∂Φ/∂θ and ∂Γ/∂θ are the upper right block of
/// e^{[M, ∂M/∂θ; 0, M]Δt} (M = [A B; 0 0], Van Loan 1978), with ∂A/∂θ and
/// ∂B/∂θ from forward-mode automatic differentiation, propagated as
/// X(k+1) = Φ X(k) + ∂Φ x(k) + ∂Γ u(k+1). Converged when the relative change
/// of det R̂ is below kCostTolerance and the step is below kStepTolerance
/// standard errors; a step that no damping makes cost less, or
/// kMaxIterations, stops with the best estimate found and says so.
///
/// **Equation error** (least squares; the start of output error): the states'
/// derivatives by the 5-point Savitzky–Golay (local quadratic) differentiator
/// ż = (−2x₋₂ − x₋₁ + x₁ + 2x₂)/(10Δt), which is exactly the weighted mean
/// (2, 3, 3, 2)/10 of ẋ over the four slices it spans; the states are averaged
/// with the same weights (trapezoid rule: (2, 5, 6, 5, 2)/20) and the held
/// controls with (2, 3, 3, 2)/10, so that ż = A x̄ + B ū + c holds with no
/// relative lag (c: one bias per equation). Only the equations that a free
/// key enters are used, weighted by their residual variances; Gauss–Newton
/// (one step where A, B are affine in θ).
///
/// **Uncertainty**: the Cramér–Rao bound M⁻¹ (M = Σ Sᵀ R⁻¹ S at the estimate)
/// and Morelli & Klein's correction for coloured residuals,
/// M⁻¹ [Σᵢ Σⱼ Sᵢᵀ R⁻¹ R̂νν(i−j) R⁻¹ Sⱼ] M⁻¹ with the biased residual
/// correlation over all lags (SIDPAC `m_colores`; computed as (1/N) GᵀG with G
/// the cross-correlation of R⁻¹S with ν, by FFT: positive semi-definite),
/// streamed sample by sample (ColouredBracketStream), with the residuals'
/// correlation itself streamed (CorrelationStream) through a lag window of
/// at most kMaxLagWindow samples.
/// Flight data are rarely white: the corrected bound is the honest one.
///
/// **Memory**: nothing proportional to the flight's length. Every pass reads
/// the flight again in chunks (IdentifyFlightCsv: from a temporary binary
/// copy of the CSV's columns, data::SpooledFlight) and sums as it goes:
/// output error flies the model through it once per iteration and damping
/// trial, equation error computes each regressor from the 5-row window
/// around it; the fit, the residual correlation and the bracket are sums
/// too, and the figure's responses are thinned as they go.

#include <Eigen/Core>
#include <complex>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "aerolin/analysis/modes.hpp"
#include "aerolin/data/flight_record.hpp"
#include "aerolin/model/as_written.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::study {

/// How the keys are estimated.
enum class IdentifyMethod {
  kOutputError,    ///< maximum likelihood on the simulated response (default)
  kEquationError,  ///< least squares on the smoothed derivatives
};

/// Parses "output-error" / "equation-error"; nullopt otherwise.
std::optional<IdentifyMethod> ParseIdentifyMethod(const std::string& text);

/// Relative change of det R̂ below which output error has converged (with the step).
inline constexpr double kCostTolerance = 1e-9;
/// Step size, in standard errors (ΔθᵀMΔθ ≤ kStepTolerance²), below which output
/// error has converged (with the cost).
inline constexpr double kStepTolerance = 1e-3;
/// Most Gauss–Newton iterations of output error, by default.
inline constexpr int kMaxIterations = 50;
/// Smallest eigenvalue of the information matrix scaled to unit diagonal
/// (a correlation matrix) that still identifies every parameter: below it the
/// direction is lost in round-off (16 digits, squared by M = SᵀS).
inline constexpr double kMinScaledInformation = 1e-10;
/// |ρ| above which two estimates are reported as highly correlated
/// (Klein & Morelli's rule of thumb).
inline constexpr double kHighCorrelation = 0.9;
/// Fewest samples a flight must have.
inline constexpr int kMinSamples = 20;

/// What a long identification is doing, for a progress line: an event
/// (the flight read to `fraction`, an iteration done, the bounds begun), or,
/// with `pass`, how far a pass over the flight has gone.
struct IdentifyProgress {
  enum class Stage {
    kReading,        ///< reading the flight: `fraction` of its bytes
    kEquationError,  ///< an equation-error iteration done: `iteration`, `cost` = Σ r²
    kOutputError,    ///< an output-error iteration done: `iteration`, `cost` = ln det R̂
    kBounds,         ///< computing the coloured-residual bounds (two or three passes)
    kResponses,      ///< flying the models for the figure (two passes)
  };
  Stage stage = Stage::kReading;
  double fraction = 0;
  int iteration = 0;
  double cost = 0;
  /// A pass over the flight under way: `fraction` of its rows read, for
  /// `iteration` (of at most `max_iterations`) of `stage`, or for the bounds
  /// or the responses.
  bool pass = false;
  int max_iterations = 0;
};

/// Called as an identification goes (IdentifySpec::progress).
using ProgressFunction = std::function<void(const IdentifyProgress&)>;

/// The progress line: "reading 41 %", "output error: iteration 3, cost -41.25",
/// "equation error: iteration 1, sum of squares 0.0123", "error bounds
/// (coloured residuals)"; a pass: "output error: iteration 3 of at most 50,
/// 41 % of the flight", "error bounds (coloured residuals), 41 % of the
/// flight", "responses for the figure, 41 % of the flight".
std::string ToString(const IdentifyProgress& progress);

/// One identification run.
struct IdentifySpec {
  model::Axis axis = model::Axis::kLongitudinal;
  std::vector<std::string> free;  ///< keys as written in the file
  IdentifyMethod method = IdentifyMethod::kOutputError;
  bool estimate_x0 = true;    ///< output error: the initial state of every output
  bool estimate_bias = true;  ///< output error: a constant bias per measured state
  /// Output error's start: the equation-error estimate (true) or the file's values.
  bool start_from_equation_error = true;
  /// Most Gauss–Newton iterations of output error.
  int max_iterations = kMaxIterations;
  /// > 0: IdentifyResult::responses holds the measured and modelled outputs,
  /// thinned to at most about this many points per series (for a figure).
  int response_points = 0;
  /// Called with what the run is doing (reading, each iteration, the
  /// bounds); empty: nothing is reported. Never writes anything itself.
  ProgressFunction progress;
};

/// A flight's samples for one axis: row k is the sample at t = kΔt.
struct FlightSamples {
  std::string path;           ///< where they came from (for messages)
  double dt = 0;              ///< [s]
  Eigen::MatrixXd states;     ///< N × the axis's states (conventions.hpp order), SI
  Eigen::MatrixXd controls;   ///< N × the axis's controls (file order): row k holds the
                              ///< value over the slice that ends at t = kΔt
};

/// The columns a flight must have for `axis` of `file`: its states, then its
/// controls (by the names FlightCsvHeader writes).
std::vector<std::string> FlightColumns(const model::AircraftFile& file, model::Axis axis);

/// One estimated parameter.
struct Estimate {
  std::string key;        ///< "longitudinal.Ma", or "x0.alpha", "bias.q"
  bool file_key = false;  ///< a key of the file (not x0 or a bias)
  double start = 0;       ///< as written / SI for x0 and biases
  double value = 0;
  double std_error = 0;            ///< Cramér–Rao
  double std_error_corrected = 0;  ///< Morelli & Klein, coloured residuals
};

/// Fit of one measured output.
struct OutputFit {
  std::string name;  ///< "alpha"
  std::string unit;  ///< "rad"
  double rms = 0;    ///< residual RMS [unit]
  double r2 = 0;     ///< 1 − Σν²/Σ(z − z̄)²
};

/// An identified mode, with the standard errors of its characteristics.
struct ModeEstimate {
  analysis::Mode mode;
  double re_sigma = 0, im_sigma = 0;                ///< corrected [1/s]
  double re_sigma_cr = 0, im_sigma_cr = 0;          ///< Cramér–Rao [1/s]
  double zeta_sigma = 0, wn_sigma = 0;              ///< corrected
  double zeta_sigma_cr = 0, wn_sigma_cr = 0;        ///< Cramér–Rao
};

/// A series of a figure: samples [s] and values (SI).
struct ResponseSeries {
  std::vector<double> t, value;
};

/// One measured output with the identified and the start model's responses
/// to the flight's controls, thinned for a figure: every sample when the
/// flight is short, else each bucket of consecutive samples as its least and
/// greatest value (in time order), so a spike stays visible.
struct OutputResponse {
  core::Signal signal;
  ResponseSeries measured;
  ResponseSeries identified;  ///< the model at the estimate (with its x0 and bias)
  ResponseSeries start;       ///< the free keys at their start, x0 and bias as identified
  ResponseSeries residual;    ///< measured − identified
  double sigma = 0;           ///< residual RMS [SI]: R̂'s σ of the output
};

/// The responses of IdentifySpec::response_points.
struct IdentifyResponses {
  std::vector<OutputResponse> outputs;  ///< the axis's states, conventions.hpp order
  int bucket = 1;                       ///< samples per bucket (1: every sample kept)
  /// Output error: x0 and biases as estimated; equation error: the model
  /// started at the first sample, no output bias (it estimates neither).
  bool from_first_sample = false;
};

/// A pair of estimates with |ρ| > kHighCorrelation.
struct Correlated {
  int a = 0, b = 0;  ///< indices into IdentifyResult::estimates
  double rho = 0;
};

/// What Identify found.
struct IdentifyResult {
  IdentifyMethod method = IdentifyMethod::kOutputError;
  std::vector<Estimate> estimates;   ///< the free keys (spec order), then x0, then biases
  Eigen::MatrixXd covariance;        ///< Cramér–Rao, estimates × estimates
  Eigen::MatrixXd covariance_corrected;
  Eigen::MatrixXd correlation;       ///< of covariance_corrected
  std::vector<Correlated> correlated;
  std::vector<OutputFit> fit;        ///< output error: each output; equation error: each equation
  std::vector<ModeEstimate> modes;   ///< of the axis at the estimate (heading left out)
  int iterations = 0;
  bool converged = true;
  std::string stop_reason;  ///< why it stopped when not converged
  int samples = 0;
  /// The condition number of the information matrix scaled to unit diagonal.
  double scaled_condition = 0;
  /// Filled when IdentifySpec::response_points > 0.
  std::optional<IdentifyResponses> responses;
};

/// Throws std::invalid_argument unless every key of `spec.free` is a key of
/// `file` that enters the axis's A or B; the message lists those keys.
void CheckFreeKeys(const model::AircraftFile& file, const IdentifySpec& spec);

/// Estimates `spec.free` (and x0, biases) from `flight`.
/// @throws std::invalid_argument as CheckFreeKeys, or if the flight's sizes
///         do not match the axis.
/// @throws core::DataError located at the flight (line 0) if the flight
///         cannot identify a key (the information matrix is singular): the
///         message names the keys and why.
IdentifyResult Identify(const model::AircraftFile& file, const FlightSamples& flight,
                        const IdentifySpec& spec);

/// The columns a flight is read from for `axis` of `file` (t, FlightColumns)
/// with the column map `columns` applied (data::ResolveColumns; the other
/// axis's names may be mapped too, and are not read).
/// @throws std::invalid_argument as data::ResolveColumns.
std::vector<data::ColumnSource> FlightSources(const model::AircraftFile& file, model::Axis axis,
                                              const std::vector<data::ColumnMapping>& columns);

/// Reads the flight CSV at `path` (data::SpooledFlight: the columns
/// FlightSources names, at least kMinSamples rows, kept in a temporary file)
/// and identifies as Identify does, reading the flight again for each pass:
/// memory independent of the flight's length; the same numbers as Identify
/// on the same samples held in memory. What `aerolin identify` and
/// `aerolin.identify` run. A pipe or standard input works too (it is read
/// once, into the temporary file).
/// @throws as CheckFreeKeys, FlightSources, data::SpooledFlight and Identify.
IdentifyResult IdentifyFlightCsv(const model::AircraftFile& file, const std::string& path,
                                 const IdentifySpec& spec, const std::vector<data::ColumnMapping>& columns = {});

/// ∂Φ/∂θ and ∂Γ/∂θ of the zero-order hold e^{[A B; 0 0]Δt} in the direction
/// (dA, dB): the upper right block of e^{[M, dM; 0, M]Δt}. Public for the
/// test against central differences.
struct HoldDerivative {
  Eigen::MatrixXd Phi, Gamma;     ///< e^{AΔt}, ∫e^{As}ds B
  Eigen::MatrixXd dPhi, dGamma;   ///< their derivatives
};
HoldDerivative DifferentiateHold(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                 const Eigen::MatrixXd& dA, const Eigen::MatrixXd& dB, double dt);

/// The biased correlation of residuals ν (N × outputs) at lags 0…lags():
/// lag[k](o1, o2) = R̂(k) = (1/N) Σₜ ν_o1(t + k) ν_o2(t), and R̂(−k) = R̂(k)ᵀ.
struct ResidualCorrelation {
  Eigen::Index samples = 0;          ///< N
  std::vector<Eigen::MatrixXd> lag;  ///< outputs × outputs each
  int lags() const { return static_cast<int>(lag.size()) - 1; }
};

/// The correlation of `residuals` (N × outputs) held whole, by direct sums,
/// at lags 0…`lags` (at most N − 1).
ResidualCorrelation CorrelationOf(const Eigen::MatrixXd& residuals, int lags);

/// Samples per block of CorrelationStream, at least (longer for long lags).
inline constexpr Eigen::Index kCorrelationBlock = 2048;

/// CorrelationOf fed one residual at a time, so that the residuals are never
/// held: the sums over each block of samples and the `lags` after it are
/// taken by FFT. Memory: about (block + 2·lags) × outputs, and lags ×
/// outputs² for the result.
class CorrelationStream {
 public:
  CorrelationStream(Eigen::Index outputs, int lags, Eigen::Index block = kCorrelationBlock);
  /// The next sample's residual (outputs); N of them, in time order.
  void Add(const Eigen::VectorXd& residual);
  /// The correlation at lags 0…min(lags, N − 1), once the N residuals are added.
  ResidualCorrelation Finish();

 private:
  void Block(Eigen::Index valid);
  Eigen::Index ny_, lags_, L_ = 1, block_ = 0;
  Eigen::MatrixXd buffer_;  // row j: ν(start + j); rows block_ … block_ + lags − 1 are the next block's first
  Eigen::Index start_ = 0, filled_ = 0;
  std::vector<Eigen::MatrixXd> sum_;
};

/// The lag window of the coloured-residual correction: kLagWindowFactor × the
/// first lag at which every output's normalized residual autocorrelation is
/// inside ±2/√N (reference notes §5), at most min(N − 1, kMaxLagWindow).
/// Residuals that stay correlated to the end get that limit: untapered over
/// the whole flight when it is shorter than kMaxLagWindow, else the Bartlett
/// window of kMaxLagWindow lags (which bounds the memory and time of the
/// bounds on long flights).
inline constexpr int kLagWindowFactor = 8;
inline constexpr int kMaxLagWindow = 8192;
/// The lags the window's search looks at for N samples: a lag beyond them
/// gives the window's limit anyway.
int LagSearch(Eigen::Index samples);
/// The window from `correlation`, which must hold at least
/// LagSearch(correlation.samples) lags (the window may be longer).
/// @throws std::invalid_argument if it holds fewer.
int LagWindow(const ResidualCorrelation& correlation);
/// The window of `residuals` held whole (N × outputs).
int LagWindow(const Eigen::MatrixXd& residuals);

/// Morelli & Klein's bracket Σᵢ Σⱼ aᵢᵀ R̂νν(i−j) aⱼ for weighted sensitivities
/// a (one N × parameters matrix per output: R⁻¹S) and residuals ν
/// (N × outputs), with the biased correlation R̂νν(k) = (1/N) Σ ν(t+k)ν(t)ᵀ
/// tapered by the Bartlett window w(k) = 1 − |k|/(lags + 1) (all lags,
/// untapered, for lags = N − 1: K&M's `m_colores` with the biased estimate).
/// Computed by FFT; positive semi-definite (the Bartlett taper's spectrum is
/// ≥ 0). Public for its test against the direct double sum.
Eigen::MatrixXd ColouredBracket(const std::vector<Eigen::MatrixXd>& a, const Eigen::MatrixXd& residuals,
                                int lags);

/// Samples per block of ColouredBracketStream (at least 2 × the lags).
inline constexpr Eigen::Index kBracketBlock = 8192;

/// ColouredBracket fed one sample of a at a time (a row of every output: an
/// outputs × parameters matrix), so that a is never held whole: the
/// correlation is convolved with a by FFT in blocks of about `block`
/// samples with 2·lags of overlap (overlap-save), and aᵀ(R̂ ∗ a) summed
/// block by block. Memory: about (block + 2·lags) × outputs × parameters;
/// with lags = N − 1 (untapered) the block is the whole flight.
class ColouredBracketStream {
 public:
  /// The residuals' `correlation` (at least `lags` lags), `lags` as
  /// ColouredBracket, `parameters` the columns of a.
  ColouredBracketStream(const ResidualCorrelation& correlation, int lags, Eigen::Index parameters,
                        Eigen::Index block = kBracketBlock);
  /// The same from the residuals held whole (N × outputs; CorrelationOf).
  ColouredBracketStream(const Eigen::MatrixXd& residuals, int lags, Eigen::Index parameters,
                        Eigen::Index block = kBracketBlock);
  /// The next sample's a (outputs × parameters); N of them, in time order.
  void Add(const Eigen::MatrixXd& a);
  /// The bracket, once the N samples are added.
  Eigen::MatrixXd Finish();

 private:
  void Block(Eigen::Index valid);
  Eigen::Index N_, ny_, np_, lags_ = 0, L_ = 1, block_ = 0;
  std::vector<Eigen::VectorXcd> H_;  // outputs² spectra of the windowed correlation
  Eigen::MatrixXd buffer_;           // row j: a(start − lags + j), outputs·parameters columns
  Eigen::Index start_ = 0, filled_ = 0;
  Eigen::MatrixXd sum_;
};

}  // namespace aerolin::study
