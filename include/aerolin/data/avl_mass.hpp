#pragma once
/// @file
/// Reads AVL's mass file (`xxx.mass`, avl_doc.txt "Mass file"; AVL's
/// amass.f): `Lunit`, `Munit` (and `Tunit`, `g`, `rho`), then one line per
/// item, `mass x y z Ixx Iyy Izz [Ixy Ixz Iyz]` with `*` multiplier and `+`
/// adder lines applying to the lines after them, `#` / `!` comments. Totals
/// as AVL forms them: mass, CG, and the inertias about the CG by the
/// parallel-axis theorem, Ixz = Σ Ixz_i + Σ m_i x_i z_i − m x_cg z_cg.
///
/// Axes: AVL's geometry axes are x aft (downstream), y right, z up. The
/// products Ixy, Ixz, Iyz are the integrals ∫xy dm, ∫xz dm, ∫yz dm (AVL's
/// MASS print shows the tensor, whose off-diagonal entries are −Ixy, −Ixz,
/// −Iyz). Body axes (x forward, y right, z down) are the geometry axes turned
/// 180° about y: x_b = −x, z_b = −z, so Ix, Iy, Iz and Ixz = ∫x z dm keep
/// their values and signs (Etkin's Ixz), and Ixy, Iyz change sign.

#include <optional>
#include <string>

namespace aerolin::data {

/// An AVL mass file's totals, in the units its `Lunit` / `Munit` lines
/// declare (their names as written, e.g. "m", "kg"), geometry axes.
struct AvlMass {
  std::string path;
  double length_unit = 1.0;          ///< Lunit's value (1 if absent)
  std::string length_unit_name = "Lunit";
  double mass_unit = 1.0;            ///< Munit's value (1 if absent)
  std::string mass_unit_name = "Munit";
  double time_unit = 1.0;            ///< Tunit's value (1 if absent)
  std::string time_unit_name = "Tunit";
  /// AVL's default gravity and air density for its run cases, as written, in
  /// the units the Lunit/Munit/Tunit lines *name* (amass.f keeps them
  /// unscaled: g in m/s² for "Lunit = 0.3048 m", "Tunit = 1.0 s").
  std::optional<double> g, rho;
  int g_line = 0, rho_line = 0;      ///< their 1-based lines, 0 if absent
  int items = 0;                     ///< data lines read
  double mass = 0;                   ///< [mass_unit_name]
  double x_cg = 0, y_cg = 0, z_cg = 0;  ///< [length_unit_name], geometry axes
  /// About the CG, geometry axes, [mass_unit_name · length_unit_name²].
  double Ixx = 0, Iyy = 0, Izz = 0, Ixy = 0, Ixz = 0, Iyz = 0;
};

/// The same totals in aerolin's body axes (x forward, z down), about the CG.
struct AvlMassBodyAxes {
  double m = 0;                    ///< mass
  double Ix = 0, Iy = 0, Iz = 0;   ///< moments of inertia
  double Ixz = 0;                  ///< ∫x z dm, Etkin's sign (= AVL's Ixz)
  double x_cg = 0, z_cg = 0;       ///< CG in body axes from AVL's origin (−x, −z)
};

/// Returns the totals of the mass file in `text`; `path` names it in messages.
/// @throws core::DataError "path:line: ..." for a value that is not a number,
///         more than 10 values on a line, an unknown `name = value` keyword,
///         no item, or a total mass ≤ 0.
AvlMass ParseAvlMass(const std::string& text, const std::string& path);

/// As ParseAvlMass, for the file at `path`.
AvlMass ReadAvlMassFile(const std::string& path);

/// Returns `mass` in body axes (see the file comment).
AvlMassBodyAxes ToBodyAxes(const AvlMass& mass);

}  // namespace aerolin::data
