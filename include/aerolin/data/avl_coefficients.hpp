#pragma once
/// @file
/// AVL's stability derivatives (avl_st.hpp) as the coefficient form's
/// numbers: the lift/drag family in stability axes, per radian, with AVL's
/// assumptions filled in and said (README data/derivatives, "AVL files").
///
/// The result is `model::CoefficientsAsWritten` (model/coefficients.hpp)
/// with what the `.st` file gives filled in: geometry S c b, α0, the
/// lift/drag family, the lateral coefficients and the controls. The flight
/// condition (U0, ρ, g, θ0) and the mass are not in the file: the caller
/// (the loader, `[aerodynamics] avl_st`) sets them before ToDimensional.
///
/// AVL's conventions applied here:
/// - stability axes (X forward, Z down); a prime (Cl', Cn', p', r') means
///   stability axes, not the Ixz-coupled primed derivatives, so Clb, Clp …
///   are Etkin's stability-axis C_lβ, C_lp̂ …;
/// - rates p̂ = p'b/(2V), q̂ = qc/(2V), r̂ = r'b/(2V), α and β per radian;
/// - quasi-steady: no α̇ terms (C_Lα̇ = C_mα̇ = 0);
/// - no speed derivatives (C_Lu = C_Du = C_mu = 0), so the lift/drag
///   mapping gives C_Xu = −2 C_D0 = −2 CDtot and C_Zu = 0, with C_L0 =
///   C_W0 = CLtot (AVL trims lift to weight);
/// - control derivatives per degree of the control variable → × 180/π.

#include <string>
#include <vector>

#include "aerolin/data/avl_st.hpp"
#include "aerolin/model/coefficients.hpp"

namespace aerolin::data {

/// An AVL ST file as coefficient-form numbers (see the file comment).
struct AvlCoefficients {
  /// Geometry in the TOML's length unit (AVL's Sref, Cref, Bref × Lunit),
  /// alpha0 = AVL's Alpha [rad], family kLiftDrag with CL0 = CLtot (= C_W0),
  /// CD0 = CDtot, per radian; controls per radian with AVL's names. U0, rho,
  /// g, theta0, m/W and the inertias are left default.
  model::CoefficientsAsWritten coefficients;
  /// Each assumption applied to this file, one sentence each, for the user.
  std::vector<std::string> notes;
};

/// Returns `st` in coefficient form; `length_unit` is AVL's Lunit in the
/// TOML's length unit (`[aerodynamics] avl_length_unit`), e.g. 0.3048 for a
/// geometry in feet read into an SI file.
/// @throws core::DataError "path:0: ..." if length_unit ≤ 0 or not finite,
///         or "path:line: ..." at CLtot if CLtot ≤ 0 (AVL's run case must be
///         a trimmed lifting condition: C_W0 = CLtot).
AvlCoefficients ToCoefficients(const AvlStability& st, double length_unit);

}  // namespace aerolin::data
