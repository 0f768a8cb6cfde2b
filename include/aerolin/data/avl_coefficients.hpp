#pragma once
/// @file
/// AVL's stability derivatives (avl_st.hpp) as the coefficient form's
/// numbers: the lift/drag family in stability axes, per radian, with AVL's
/// assumptions filled in and said (README data/derivatives, "AVL files").
///
/// `AvlCoefficients` is a local stand-in carrying the field names of the
/// coefficient form (`model::CoefficientsAsWritten`, built on another branch:
/// condition, geometry S c b, CL0 CD0 CLu CDu CLa CDa CLq CLadot CDq Cmu Cma
/// Cmq Cmadot, CYb … Cnr, controls per radian). When that type lands,
/// ToCoefficients fills it field by field instead: a few lines.
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

namespace aerolin::data {

/// Coefficient-form numbers from an AVL ST file (see the file comment).
struct AvlCoefficients {
  // Geometry in the TOML's length unit (AVL's Sref, Cref, Bref × Lunit).
  double S = 0, c = 0, b = 0;
  double alpha0 = 0;  ///< AVL's trim Alpha [rad] (for body-axis inertias)
  double CW0 = 0;     ///< weight coefficient = CLtot
  // Longitudinal, lift/drag family, per radian and per q̂ = qc/(2V).
  double CL0 = 0, CD0 = 0, CLu = 0, CDu = 0, CLa = 0, CDa = 0, CLq = 0, CLadot = 0, CDq = 0;
  double Cmu = 0, Cma = 0, Cmq = 0, Cmadot = 0;
  // Lateral-directional, stability axes, per radian and per p̂, r̂.
  double CYb = 0, CYp = 0, CYr = 0, Clb = 0, Clp = 0, Clr = 0, Cnb = 0, Cnp = 0, Cnr = 0;
  /// One AVL control variable, derivatives per radian of it.
  struct Control {
    std::string name;  ///< AVL's name
    double CL = 0, CD = 0, Cm = 0, CY = 0, Cl = 0, Cn = 0;
  };
  std::vector<Control> controls;
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
