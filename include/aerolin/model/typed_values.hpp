#pragma once
/// @file
/// Checks on what was typed: the signs and sizes of stability derivatives and
/// inertias that are physically fixed for a conventional aircraft, so that a
/// flipped sign, a table typed per degree or a weight typed as a mass draws a
/// warning instead of believable nonsense. Each finding names the key as the
/// file wrote it, the expected sign or size, and the physical reason; none
/// forbids anything (an unstable design is legal: it is said, not refused).
///
/// The model never knows files: the caller supplies a locator that turns a
/// quantity of `AircraftData` ("longitudinal.Ma") into the key that set it
/// ("Mw") and its place. The rules and their thresholds are documented in
/// data/derivatives/README.md, "Checks on what was typed".

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/model/aircraft_data.hpp"

namespace aerolin::model {

/// Where a quantity was written: the key as the file spells it and its place.
struct WrittenAt {
  std::string key;             ///< e.g. "Mw" for longitudinal.Ma in w-form
  core::SourceLocation where;  ///< its line (the section's, or line 1, if absent)
};

/// Returns where the quantity named by aerolin's member path ("longitudinal.Za",
/// "lateral.Nb", "mass.Ixz", "mass.W", "coefficients.CL0") was written.
using Locator = std::function<WrittenAt(std::string_view quantity)>;

/// Numbers a file may give besides AircraftData (the coefficient form's):
/// each check runs only when its numbers are given.
struct TypedValueExtras {
  std::optional<double> W{};    ///< weight [N], when the file gives it beside m
  std::optional<double> CL0{};  ///< trim lift coefficient as written
  std::optional<double> CW0{};  ///< weight coefficient W/(½ρU0²S)
};

/// Returns one warning "key: problem (expected ...): reason; advice" per rule
/// that `aircraft` breaks, located by `locate`, in the order of the rules:
/// - U0 outside 1 to 3000 m/s (a speed in the wrong unit or with a slipped
///   exponent: the model divides by U0);
/// - Z_α > 0 (lift falls with α), M_α > 0 (statically unstable in pitch),
///   M_q > 0, L_p > 0, N_r > 0 (damping of the wrong sign), N_β < 0
///   (directionally unstable), Y_β > 0, X_u > 0 (thrust growing faster than
///   drag with speed?);
/// - Ixz² > ½·Ix·Iz (a product of inertia nearly as large as the moments
///   themselves), a moment of inertia larger than the sum of the other two
///   (impossible for any body in any axes: Ix + Iy − Iz = 2∫z² dm ≥ 0);
/// - W and m·g differing by more than 2 %, C_L0 and C_W0·cos θ0 by more than
///   5 % (only when `extras` gives them);
/// - a table that looks typed per degree: at least two of |Z_α| < g/2,
///   0 < |M_α| < 0.09 1/s², 0 < |L_β| < 0.04 1/s², 0 < |N_β| < 0.04 1/s²
///   (one warning naming those keys, "per degree? add per_degree = true").
/// A derivative of exactly 0 (not given, or neglected by the source) draws none.
std::vector<core::Diagnostic> CheckTypedValues(const AircraftData& aircraft, const Locator& locate,
                                               const TypedValueExtras& extras = {});

}  // namespace aerolin::model
