#pragma once
/// @file
/// Output-feedback loops δ_INPUT = K·y_OUTPUT, optionally through a washout
/// s/(s + 1/τ): one spelling ("INPUT:OUTPUT[=GAIN][,washout=TAU]") and one
/// lookup of the input and output, shared by `aerolin locus` (one loop, its
/// gain swept) and `aerolin augment --loop` (several loops at given gains).
///
/// **Sign.** K's sign is as given, δ = +K·y (the locus's convention, not the
/// full-state design's u = −K x): the P2V-7's yaw damper rudder:r has K > 0,
/// since its N_δr < 0.

#include <optional>
#include <string>
#include <vector>

#include "aerolin/core/signal.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"
#include "aerolin/model/state_space.hpp"

namespace aerolin::study {

/// One loop as written.
struct OutputLoop {
  std::string input;   ///< a control of the file, e.g. "rudder"
  std::string output;  ///< an output of that control's axis (a state, or nz, gamma, ay, also as n_z, a_y), e.g. "r"
  std::optional<double> gain;         ///< K [input unit per output unit]; empty: given elsewhere (a locus's --gain)
  std::optional<double> washout_tau;  ///< τ [s] of s/(s + 1/τ) on the output
};

/// "INPUT:OUTPUT", e.g. "rudder:r", for error messages and titles.
std::string LoopName(const OutputLoop& loop);

/// Parses "INPUT:OUTPUT", optionally followed by "=GAIN" and by
/// ",washout=TAU" (e.g. "rudder:r=1.5,washout=1.5"; GAIN and TAU plain
/// numbers, SI). Names are not checked here (ResolveLoop does).
/// @throws std::invalid_argument naming the text and the expected form.
OutputLoop ParseLoop(const std::string& text);

/// A loop looked up in the axis model of its input and output.
struct ResolvedLoop {
  model::Axis axis = model::Axis::kLongitudinal;
  int input_column = -1;  ///< the input's column of the axis model's B
  int output_row = -1;    ///< the output's row of the axis model's C, D
  core::Signal input, output;
  std::string gain_unit;  ///< e.g. "rad/(rad/s)"
};

/// Looks `loop`'s input and output up in `lon` and `lat` (model::
/// BuildWithOutputs of `aircraft`; the output among their outputs C, D, a
/// derived output by name or symbol: "nz" or "n_z") and checks τ > 0.
/// @throws std::invalid_argument for an unknown input (listing the
///         aircraft's controls), an unknown output (listing each axis's),
///         an input that does not act on the output's axis, or τ ≤ 0.
ResolvedLoop ResolveLoop(const model::AircraftData& aircraft, const model::StateSpace& lon,
                         const model::StateSpace& lat, const OutputLoop& loop);

/// The axis of `loop` on `aircraft` (ResolveLoop on its models).
/// @throws std::invalid_argument as ResolveLoop.
model::Axis LoopAxis(const model::AircraftData& aircraft, const OutputLoop& loop);

}  // namespace aerolin::study
