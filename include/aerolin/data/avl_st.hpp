#pragma once
/// @file
/// Reads AVL's stability-axis derivative file (the `ST` command's output,
/// Drela & Youngren, AVL 3.x) in both of its formats:
/// - the classic text, `CLa =   7.299206    CLb =   0.000000`, written by
///   every AVL 3.x;
/// - the machine format of AVL 3.40 and later (`MRF` command), starting
///   `DERMATS` / `VERSION 1.0`, each line "values | labels", e.g.
///   `7.2992E+00  1.6E-17  | z' force CL  : CLa, CLb`.
///
/// The result is what the file says, unconverted (`AvlStability`). AVL's
/// conventions, documented with their sources in data/derivatives/README.md:
/// - stability axes, X forward, Z down; a prime (Cl', Cn', p', r') means
///   *stability axes*, not Ixz-coupled "primed" derivatives;
/// - α and β derivatives per radian; rate derivatives with respect to
///   p'b/(2V), qc/(2V), r'b/(2V);
/// - control derivatives per degree of the control variable (`CLd1` or
///   `CLd*` rows: the control named in the file's header);
/// - Alpha, Beta in degrees; Sref, Cref, Bref in AVL's length unit (Lunit).
/// The last line, `Clb Cnr / Clr Cnb = 2.45`, is the spiral-stability ratio,
/// not Cnb; it is kept apart (`spiral_ratio`).

#include <optional>
#include <string>
#include <vector>

namespace aerolin::data {

/// Which of AVL's two ST formats a file is in.
enum class AvlFormat {
  kClassic,  ///< "CLa = 7.299" text
  kMachine,  ///< "DERMATS / VERSION 1.0", "values | labels"
};

/// One AVL control variable and its derivatives, as the file gives them:
/// per degree of the control variable, stability axes.
struct AvlControl {
  std::string name;              ///< AVL's name, e.g. "elevator"
  int index = 0;                 ///< AVL's control number: the "4" of CLd4, elevator d4
  double deflection_deg = 0.0;   ///< its value in the run case [deg]
  double CL = 0, CY = 0, Cl = 0, Cm = 0, Cn = 0;  ///< CLd, CYd, Cl'd, Cmd, Cn'd [1/deg]
  std::optional<double> CD;      ///< CDd [1/deg] (AVL 3.52; absent from older files)
  std::optional<double> CDff;    ///< Trefftz-plane drag CDffd [1/deg]
  int line = 0;                  ///< line of its CL derivative
};

/// An AVL ST file, as written. Angles in the file's degrees; derivatives per
/// radian (α, β), per unit of p'b/2V, qc/2V, r'b/2V (rates), per degree
/// (controls, AvlControl).
struct AvlStability {
  AvlFormat format = AvlFormat::kClassic;
  std::string path;           ///< for messages
  std::string configuration;  ///< AVL's configuration name
  double Sref = 0, Cref = 0, Bref = 0;  ///< reference area, chord, span [Lunit², Lunit]
  double alpha_deg = 0, beta_deg = 0;   ///< run case α, β [deg]
  double mach = 0;
  double CLtot = 0, CDtot = 0, CDind = 0;  ///< trim lift, total and induced drag
  std::optional<double> CDvis;             ///< viscous (profile) drag, when printed
  // α and β derivatives [1/rad], stability axes.
  double CLa = 0, CLb = 0, CYa = 0, CYb = 0, Cla = 0, Clb = 0, Cma = 0, Cmb = 0, Cna = 0, Cnb = 0;
  std::optional<double> CDa, CDb;  ///< printed by AVL 3.52 only
  // Rate derivatives, per p'b/2V, qc/2V, r'b/2V.
  double CLp = 0, CLq = 0, CLr = 0, CYp = 0, CYq = 0, CYr = 0, Clp = 0, Clq = 0, Clr = 0;
  double Cmp = 0, Cmq = 0, Cmr = 0, Cnp = 0, Cnq = 0, Cnr = 0;
  std::optional<double> CDp, CDq, CDr;  ///< printed by AVL 3.52 only
  std::vector<AvlControl> controls;     ///< in the file's order
  std::optional<double> Xnp;            ///< neutral point [Lunit]
  std::optional<double> spiral_ratio;   ///< Clb·Cnr/(Clr·Cnb), AVL's spiral check

  /// The 1-based line of `key` as the file gives it ("CLa", "Sref",
  /// "Alpha"), 0 if absent.
  int LineOf(const std::string& key) const;

  /// Every key read and its line, in file order.
  std::vector<std::pair<std::string, int>> lines;
};

/// Returns the ST file in `text`; `path` names it in messages.
/// @throws core::DataError with one "path:line: problem (hint)" per defect:
///         a value that is not a number (or Fortran's `****` overflow), a
///         missing derivative, a repeated key, a control row whose count
///         differs from the control names, AVL's body-axis file (SB) given
///         instead of ST, text that is no AVL output.
AvlStability ParseAvlStability(const std::string& text, const std::string& path);

/// As ParseAvlStability, for the file at `path` (core::ReadInputFile).
AvlStability ReadAvlStabilityFile(const std::string& path);

}  // namespace aerolin::data
