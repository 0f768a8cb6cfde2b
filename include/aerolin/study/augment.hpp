#pragma once
/// @file
/// Full-state augmentation of one axis of an aircraft: LQR (Bryson's rule or
/// explicit weights) or pole placement (by value or by mode name), the
/// closed loop named and graded as `aerolin modes` and `aerolin qualities`
/// name and grade the bare aircraft. One request (AugmentSpec), filled by
/// `aerolin augment` and `aerolin.augment`, run by Augment().
///
/// **Which states.** The design uses the states that feed the dynamics: a
/// state whose column of A is zero (a pure integrator: the lateral axis's
/// heading ψ) gets zero gain, since no feedback through the other states
/// needs it and the LQR cannot weight a free integrator without holding it.
/// `AugmentSpec::include_integrators` designs on them too (heading hold:
/// then ψ needs a weight, and the closed loop has no free heading).
///
/// **Bryson's rule** (Bryson & Ho, *Applied Optimal Control*, 1975, §5.4):
/// Q = diag(1/x_max²), R = diag(1/u_max²), with the maxima of
/// DefaultMaximum unless the spec gives them.

#include <Eigen/Core>
#include <complex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aerolin/analysis/flying_qualities.hpp"
#include "aerolin/analysis/modes.hpp"
#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"
#include "aerolin/study/loops.hpp"

namespace aerolin::study {

/// How the gain is designed: LQR, pole placement, or output-feedback loops
/// at given gains (study/loops.hpp).
enum class DesignMethod { kLqr, kPlace, kLoops };

/// "lqr", "place" or "loops".
std::string_view ToString(DesignMethod method);

/// The inputs a design uses unless told: elevator (longitudinal); aileron
/// and rudder (lateral). Throttle only when named.
const std::vector<std::string>& DefaultInputs(model::Axis axis);

/// Bryson's default maximum of a state or input (SI): u 5 m/s; α 2°, q 5°/s,
/// θ 5°; β 2°, p 10°/s, r 5°/s, φ 5°, ψ 5°; a control in rad 10°, a
/// dimensionless control (throttle) 0.1.
double DefaultMaximum(const core::Signal& signal);

/// Reads a value of `signal` as typed, e.g. "2deg", "5deg/s", "0.03rad",
/// "3ft/s", "0.1": a number, optionally followed by a unit of the signal's
/// dimension (rad: rad or deg; rad/s: rad/s or deg/s; m/s: m/s, ft/s or kt;
/// dimensionless: none). No unit: SI. Returns the SI value.
/// @throws std::invalid_argument naming the text and the accepted units.
double ParseSignalValue(const std::string& text, const core::Signal& signal);

/// Reads the Bryson maximum `value` (as ParseSignalValue) of the state or
/// input `name` of `axis` of `aircraft`; returns the SI value.
/// @throws std::invalid_argument naming an unknown name (listing the axis's
///         states and inputs) or a value that does not parse.
double ParseMaximum(const model::AircraftData& aircraft, model::Axis axis, const std::string& name,
                    const std::string& value);

/// Requested closed-loop poles: for one mode (its open-loop roots replaced),
/// or unnamed values.
struct PoleRequest {
  std::optional<analysis::ModeKind> mode;  ///< the mode whose roots these replace
  std::vector<std::complex<double>> poles;  ///< [1/s]: one real, two real, or a conjugate pair
};

/// Parses `--place` text: a comma list of poles by value ("-2", "-2+3j",
/// "-2-3j"), pairs "wn=W,zeta=Z" (two roots: a conjugate pair for ζ < 1),
/// and "MODE:" before either (e.g. "short-period:wn=4,zeta=0.7",
/// "roll:-3", "dutch-roll:-1+2j", which implies its conjugate).
/// @throws std::invalid_argument naming the entry that does not parse.
std::vector<PoleRequest> ParsePoles(const std::string& text);

/// One design request. SI throughout.
struct AugmentSpec {
  model::Axis axis = model::Axis::kLongitudinal;
  DesignMethod method = DesignMethod::kLqr;
  std::vector<std::string> inputs;  ///< empty: DefaultInputs(axis)
  bool include_integrators = false;  ///< also design on pure integrators (ψ: heading hold)
  /// Bryson maxima (SI) replacing DefaultMaximum, by state or input name.
  std::vector<std::pair<std::string, double>> maxima;
  /// Explicit diagonal weights (SI) in the design's state / input order;
  /// empty: Bryson's rule. Both or neither.
  std::vector<double> q_diagonal, r_diagonal;
  /// Pole placement: the requests (see ParsePoles). All by value (as many as
  /// design states), or by mode (the other modes kept where they are).
  std::vector<PoleRequest> poles;
  /// Loops (DesignMethod::kLoops): δ_input = K·y_output, each with its gain,
  /// all on `axis`; a washout adds a filter state (see AugmentResult).
  std::vector<OutputLoop> loops;
};

/// The MIL-F-8785C grading of the bare and the augmented aircraft for one
/// category (the designed axis closed, the other as it is).
struct AugmentGrade {
  analysis::QualitiesGrade open_loop;
  std::optional<analysis::QualitiesGrade> closed_loop;  ///< empty: see AugmentResult::not_graded
};

/// What Augment() returns.
struct AugmentResult {
  /// Open and closed loop both `model` until the design closes the loop.
  explicit AugmentResult(const model::StateSpace& model) : open_loop(model), closed_loop(model) {}

  model::Axis axis = model::Axis::kLongitudinal;
  DesignMethod method = DesignMethod::kLqr;
  std::vector<core::Signal> states;  ///< the axis's states: the gain's columns
  std::vector<core::Signal> inputs;  ///< the designed inputs: the gain's rows
  std::vector<int> design_states;    ///< indices into `states` the design used
  /// u = −K x over all the axis's states (zero columns for the states left
  /// out), SI: input unit per state unit.
  Eigen::MatrixXd gain;
  double gain_norm = 0.0;  ///< ‖K‖₂
  // LQR
  bool bryson = false;         ///< weights by Bryson's rule (else explicit)
  std::vector<double> maxima;  ///< Bryson maxima, design states then inputs (SI)
  Eigen::MatrixXd Q, R;        ///< the weights used (design states, inputs)
  std::optional<Eigen::MatrixXd> riccati;  ///< X over the design states
  std::optional<double> residual;          ///< relative Riccati residual
  // Pole placement
  std::vector<std::complex<double>> requested;  ///< in design order
  std::vector<std::complex<double>> achieved;   ///< matched to `requested`
  std::optional<double> max_pole_error;         ///< [1/s]
  std::optional<double> eigenvector_condition;  ///< κ₂ of the closed-loop eigenvectors
  // Output-feedback loops (kLoops), as given, and each K's unit
  std::vector<OutputLoop> loops;
  std::vector<std::string> loop_gain_units;  ///< e.g. "rad/(rad/s)"
  /// Washout filter states: `states` ends with one per washed-out loop,
  /// "<output>_washout" (the output low-passed by 1/(τs + 1), in the output's
  /// unit; the loop feeds back y − y_washout = s/(s + 1/τ)·y). `gain` and the
  /// closed loop include them.
  int filter_states = 0;
  /// M of δ = M δ_pilot − K x when a loop measures an acceleration that
  /// depends on the controls (model::SolveOutputFeedback): the designed
  /// inputs × the axis's inputs; empty otherwise (M = I).
  Eigen::MatrixXd command;
  // The loops
  model::StateSpace open_loop;    ///< the axis's model
  /// A − B_d K, with the whole B (pilot inputs stay inputs); with washout
  /// filters, over `states` (the aircraft's, then the filters').
  model::StateSpace closed_loop;
  std::vector<analysis::Mode> open_modes;  ///< as `aerolin modes` names them
  /// As `aerolin modes` names them; empty when ψ is fed back (aerolin names
  /// lateral modes with ψ a free integrator): see closed_eigenvalues.
  std::optional<std::vector<analysis::Mode>> closed_modes;
  std::vector<std::complex<double>> closed_eigenvalues;  ///< eig(A − B_d K), sorted
  // Grading
  std::optional<analysis::AircraftClass> aircraft_class;
  std::vector<AugmentGrade> grades;  ///< per category (the file's, else A, B, C)
  std::string not_graded;            ///< why grades (or closed ones) are missing, else ""
  /// The design as a file holds it (the `[augmentation.<axis>]` section
  /// `--write` writes, read back): what closes `closed_loop`.
  model::AxisAugmentation augmentation;
};

/// Designs the gain `spec` asks for on `aircraft` and analyzes both loops.
/// The open loop is the designed axis's bare airframe: an augmentation the
/// file already has on that axis (model::AxisAugmentation) is left out (the
/// new gain replaces it); the other axis is as the file has it.
/// @throws std::invalid_argument for a bad request (unknown input or state
///         names, weight counts, pole counts, modes that are absent or cannot
///         be moved, as analysis::Lqr / analysis::Place), naming the cause.
/// @throws core::NumericalError as analysis::Lqr / analysis::Place.
AugmentResult Augment(const model::AircraftData& aircraft, const AugmentSpec& spec);

/// Designs one spec per axis (`aerolin augment --loop` with loops of both
/// axes): each on its axis's bare airframe, as Augment, and each graded with
/// the other specs' designs closed (their `augmentation`) in place of the
/// file's sections of those axes: the results are those of Augment on the
/// file with the other axes' designs written in, as two runs on the file
/// the first run writes give them. One spec: Augment.
/// @throws std::invalid_argument as Augment, or for two specs of one axis.
std::vector<AugmentResult> AugmentAxes(const model::AircraftData& aircraft, const std::vector<AugmentSpec>& specs);

/// The loops of `spec` (a kLoops spec; its axis is not read) as one spec per
/// axis they act on, longitudinal first, each with its loops in the order
/// given and `spec`'s other fields: what AugmentAxes designs (`aerolin
/// augment --loop` and `aerolin.augment(loops=...)` without an axis).
/// @throws std::invalid_argument as LoopAxis, naming the loop.
std::vector<AugmentSpec> LoopDesignsByAxis(const model::AircraftData& aircraft, const AugmentSpec& spec);

}  // namespace aerolin::study
