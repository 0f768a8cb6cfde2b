#include "aerolin/data/avl_coefficients.hpp"

#include <cmath>
#include <fmt/format.h>

#include "aerolin/core/error.hpp"
#include "aerolin/core/units.hpp"

namespace aerolin::data {

AvlCoefficients ToCoefficients(const AvlStability& st, double length_unit) {
  if (!std::isfinite(length_unit) || length_unit <= 0.0)
    throw core::DataError({st.path, 0},
                          fmt::format("avl_length_unit = {} must be > 0 (AVL's Lunit in the data "
                                      "file's length unit, e.g. 0.3048 for feet into SI)",
                                      length_unit));
  if (!(st.CLtot > 0.0))
    throw core::DataError({st.path, st.LineOf("CLtot")},
                          fmt::format("CLtot = {} must be > 0: aerolin takes AVL's run case as a "
                                      "trimmed flight condition with C_W0 = CLtot",
                                      st.CLtot));
  AvlCoefficients result;
  model::CoefficientsAsWritten& out = result.coefficients;
  std::vector<std::string>& notes = result.notes;
  out.name = st.configuration;
  out.family = model::LongitudinalFamily::kLiftDrag;
  out.S = st.Sref * length_unit * length_unit;
  out.c = st.Cref * length_unit;
  out.b = st.Bref * length_unit;
  out.alpha0 = st.alpha_deg * core::kDegToRad;
  out.CL0 = st.CLtot;
  out.CD0 = st.CDtot;
  out.CLa = st.CLa;
  out.Cma = st.Cma;
  out.CLq = st.CLq;
  out.Cmq = st.Cmq;
  notes.push_back(
      "AVL is quasi-steady and has no speed derivatives: CLadot = Cmadot = 0, CLu = CDu = Cmu = "
      "0 (so C_Xu = -2 CDtot, C_Zu = 0), CL0 = C_W0 = CLtot");
  if (st.CDa) {
    out.CDa = *st.CDa;
  } else {
    out.CDa = 2.0 * st.CDind * st.CLa / st.CLtot;
    notes.push_back(fmt::format(
        "the file prints no CDa: CDa = 2 CDind CLa / CL = {:.4g}, the parabolic-polar estimate "
        "(induced drag only)",
        out.CDa));
  }
  if (st.CDq) {
    out.CDq = *st.CDq;
  } else {
    notes.push_back("the file prints no CDq: CDq = 0");
  }
  out.CYb = st.CYb;
  out.CYp = st.CYp;
  out.CYr = st.CYr;
  out.Clb = st.Clb;
  out.Clp = st.Clp;
  out.Clr = st.Clr;
  out.Cnb = st.Cnb;
  out.Cnp = st.Cnp;
  out.Cnr = st.Cnr;
  for (const AvlControl& c : st.controls) {
    model::ControlCoefficients k;
    k.name = c.name;
    k.unit = core::Unit::kRadian;
    k.CL = c.CL * core::kRadToDeg;
    k.Cm = c.Cm * core::kRadToDeg;
    k.CY = c.CY * core::kRadToDeg;
    k.Cl = c.Cl * core::kRadToDeg;
    k.Cn = c.Cn * core::kRadToDeg;
    if (c.CD) {
      k.CD = *c.CD * core::kRadToDeg;
    } else if (c.CDff) {
      k.CD = *c.CDff * core::kRadToDeg;
      notes.push_back(fmt::format(
          "control '{}': no CDd in the file, its Trefftz-plane (induced) drag CDffd is used", c.name));
    }
    out.controls.push_back(k);
  }
  // The decoupled model drops the cross-axis derivatives: zero for a
  // symmetric configuration at β = 0, so a large one is worth saying.
  const struct {
    const char* name;
    double value;
  } cross[] = {{"CLb", st.CLb}, {"CYa", st.CYa}, {"Cla", st.Cla}, {"Cmb", st.Cmb},
               {"Cna", st.Cna}, {"CLp", st.CLp}, {"CLr", st.CLr}, {"CYq", st.CYq},
               {"Clq", st.Clq}, {"Cmp", st.Cmp}, {"Cmr", st.Cmr}, {"Cnq", st.Cnq}};
  for (const auto& x : cross)
    if (std::abs(x.value) > 1e-3)
      notes.push_back(fmt::format(
          "{} = {:.4g} is dropped: the longitudinal and lateral models are decoupled (an "
          "asymmetric configuration or a run case with sideslip?)",
          x.name, x.value));
  return result;
}

}  // namespace aerolin::data
