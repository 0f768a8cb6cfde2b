#pragma once
/// @file
/// Transfer functions and Bode data as text, JSON (schemas aerolin.tf/1 and
/// aerolin.bode/1) and CSV: the outputs of `aerolin tf` and `aerolin bode`.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/analysis/frequency_response.hpp"
#include "aerolin/analysis/transfer_function.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/model/aircraft_data.hpp"
#include "aerolin/model/conventions.hpp"

namespace aerolin::exporting {

/// Returns the unit of G = output/input, e.g. "(rad/s)/rad", "g/rad", "m/s"
/// (per unit of a dimensionless control); speeds in ft/s for kImperial.
std::string GainUnit(const core::Signal& output, const core::Signal& input,
                     core::UnitSystem speed_units);

/// Returns `tf` in factored textbook form on one line, e.g.
/// "-2.48 (s + 0.0198)(s + 1.05) / [(s² + 2(0.055)(0.1444)s + 0.1444²)(…)]",
/// the gain in the unit system `speed_units` (only outputs in m/s change).
std::string FactoredForm(const analysis::TransferFunction& tf, core::UnitSystem speed_units);

/// Writes the heading of `aerolin tf`'s text: the aircraft and `file`, the
/// axis with its state vector (model/conventions.hpp), the factored form's
/// notation and the units (speeds in `speed_units`), then a blank line.
void WriteTransferFunctionHeading(std::ostream& out, const model::AircraftData& aircraft,
                                  std::string_view file, model::Axis axis,
                                  core::UnitSystem speed_units);

/// Writes one transfer function as text: the factored form, the gain and its
/// unit, each zero and pole factor (poles with their mode names), the DC gain
/// (or why it is infinite), minimum phase or not, and the cancelled pairs.
void WriteTransferFunctionText(std::ostream& out, const analysis::TransferFunction& tf,
                               core::UnitSystem speed_units);

/// Returns the aerolin.tf/1 document (indented by 2, no final newline) for
/// one transfer function (`all` false: the object itself, with schema, file,
/// aircraft) or for a control's whole table (`all` true: {schema, file,
/// aircraft, input, transfer_functions[]}). Each transfer function: input,
/// output, unit, gain, gain_unit, relative_degree, dc_gain (null when
/// infinite), integrators, non_minimum_phase, zeros[] {re, im}, poles[]
/// {re, im, mode}, zero_factors[] and pole_factors[] {order, root {re, im},
/// natural_frequency, damping_ratio | inverse_time_constant, mode},
/// cancelled[] {mode, pole {re, im}, zero {re, im}, distance}, numerator[],
/// denominator[] (highest power first), identically_zero.
std::string TransferFunctionJson(const model::AircraftData& aircraft, std::string_view file,
                                 const std::vector<analysis::TransferFunction>& tfs, bool all,
                                 core::UnitSystem speed_units);

/// Returns the aerolin.bode/1 document: schema, file, aircraft, input,
/// modes[] {name, natural_frequency}, curves[] {output, unit, bandwidth,
/// resonances[] {mode, omega, magnitude_db, prominence_db}, points[] {omega,
/// magnitude, magnitude_db, phase_deg, phase_principal_deg}} (SI; −inf dB as
/// null).
std::string BodeJson(const model::AircraftData& aircraft, std::string_view file,
                     const analysis::BodeDiagram& diagram);
/// Writes BodeJson's text (no final newline) to `out` point by point, as it
/// is formatted: nothing proportional to the number of frequencies is built.
void WriteBodeJson(std::ostream& out, const model::AircraftData& aircraft, std::string_view file,
                   const analysis::BodeDiagram& diagram);
/// As above, each curve's points computed as they are written (BodeSweep):
/// memory does not grow with the number of frequencies.
void WriteBodeJson(std::ostream& out, const model::AircraftData& aircraft, std::string_view file,
                   const analysis::BodeSweep& sweep);

/// Writes the Bode data as CSV: a header `omega` then, per output OUT,
/// `OUT_magnitude,OUT_magnitude_db,OUT_phase_deg,OUT_phase_principal_deg`;
/// one row per frequency, shortest round-trip numbers (−inf dB as "-inf").
void WriteBodeCsv(std::ostream& out, const analysis::BodeDiagram& diagram);
/// As above, the rows computed as they are written (BodeSweep).
void WriteBodeCsv(std::ostream& out, const analysis::BodeSweep& sweep);

/// Writes a short text summary of a Bode diagram: per output the DC gain,
/// bandwidth and resonances, then the table ω, |G|, dB, phase.
void WriteBodeText(std::ostream& out, const analysis::BodeDiagram& diagram);
/// As above, each curve's table computed as it is written (BodeSweep).
void WriteBodeText(std::ostream& out, const analysis::BodeSweep& sweep);

}  // namespace aerolin::exporting
