#include "aerolin/export/tracked_report.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include "damping_text.hpp"
#include "json_numbers.hpp"
#include "display_units.hpp"

namespace aerolin::exporting {
namespace {

nlohmann::json Complex(std::complex<double> z) { return {{"re", z.real()}, {"im", z.imag()}}; }

const char* AxisName(model::Axis a) {
  return a == model::Axis::kLongitudinal ? "longitudinal" : "lateral";
}

nlohmann::json StudyJson(const study::TrackedStudy& s, const std::string& value_key) {
  nlohmann::json j;
  j["param"] = s.param;
  nlohmann::json points = nlohmann::json::array();
  for (const study::TrackedPoint& p : s.points) {
    nlohmann::json modes = nlohmann::json::array();
    for (const study::TrackedMode& m : p.modes) {
      nlohmann::json mj = {{"name", m.name},
                           {"origin", m.origin},
                           {"axis", AxisName(m.axis)},
                           {"eigenvalue_per_s", Complex(m.lambda)},
                           {"oscillatory", m.oscillatory},
                           {"wn", m.wn},
                           {"zeta", m.zeta}};
      if (!m.pointwise_name.empty()) mj["pointwise_name"] = m.pointwise_name;
      modes.push_back(mj);
    }
    points.push_back({{value_key, p.value}, {"modes", modes}});
  }
  j["points"] = points;
  nlohmann::json changes = nlohmann::json::array();
  for (const study::StructureChange& c : s.changes)
    changes.push_back({{value_key, c.value}, {"axis", AxisName(c.axis)}, {"from", c.from}, {"to", c.to}});
  j["structure_changes"] = changes;
  j["refinements"] = s.refinements;
  j["notes"] = s.notes;
  return j;
}

}  // namespace

std::string TrackedJson(const study::TrackedStudy& study, const std::string& value_key,
                        const std::string& file) {
  nlohmann::json j = StudyJson(study, value_key);
  j["file"] = file;
  RemoveNegativeZeros(j);
  return j.dump(2);
}

namespace {

std::string G(double v) { return WithoutNegativeZero(fmt::format("{:.6g}", v)); }

std::string Gains(const std::vector<double>& gains) {
  std::string s;
  for (double g : gains) s += (s.empty() ? "" : ", ") + G(g);
  return s;
}

const char* StatusName(study::DampingOptimumKind k) {
  switch (k) {
    case study::DampingOptimumKind::kRefined: return "refined";
    case study::DampingOptimumKind::kBecomesReal: return "becomes_real";
    case study::DampingOptimumKind::kAtRangeEnd: return "at_range_end";
    case study::DampingOptimumKind::kOverdamped: return "overdamped";
    case study::DampingOptimumKind::kReal: return "real";
    case study::DampingOptimumKind::kAbsent: return "absent";
  }
  return "";
}

// The one-line verdict, shared by the text report and JSON's "message".
std::string Verdict(const study::DampingOptimum& o) {
  switch (o.kind) {
    case study::DampingOptimumKind::kRefined:
      return fmt::format("most damping of {}: K = {} (zeta = {}, wn = {} rad/s, {})", o.mode, G(o.gain),
                         G(o.zeta), G(o.wn), o.name);
    case study::DampingOptimumKind::kBecomesReal:
      return fmt::format(
          "most damping of {}: zeta rises to 1 where its pair ({}) becomes two real roots, at K = {} (wn = "
          "{} rad/s); the mode is overdamped past it",
          o.mode, o.name, G(o.gain), G(o.wn));
    case study::DampingOptimumKind::kAtRangeEnd:
      // At K = 0 the open loop damps most: gains of the listed sign take
      // damping away (a yaw damper on an aircraft whose N'dr > 0, such as the
      // AVL 737, needs K < 0), so widening the range the same way cannot help.
      if (o.gain == 0.0)
        return fmt::format(
            "most damping of {} among the listed gains: K = 0, the open loop (zeta = {}, wn = {} rad/s, "
            "{}): gains of this sign take damping away; try gains of the other sign (negate --gain)",
            o.mode, G(o.zeta), G(o.wn), o.name);
      return fmt::format(
          "most damping of {} among the listed gains: K = {} (zeta = {}, wn = {} rad/s, {}), at the end of "
          "the gain range; widen --gain",
          o.mode, G(o.gain), G(o.zeta), G(o.wn), o.name);
    case study::DampingOptimumKind::kOverdamped:
      return fmt::format(
          "{} reaches zeta = 1 ({}: real roots) at the listed gains K = {} to {}: no oscillation left to "
          "damp there; nothing to refine",
          o.mode, o.name, G(o.overdamped_from), G(o.overdamped_to));
    case study::DampingOptimumKind::kReal:
      return fmt::format("{} is a real root at every listed gain (zeta = +-1): no oscillation to damp",
                         o.mode);
    case study::DampingOptimumKind::kAbsent:
      return "no mode named '" + o.mode + "' in this locus";
  }
  return "";
}

}  // namespace

void WriteDampingOptimum(std::ostream& out, const study::DampingOptimum& o, const std::string& gain_unit) {
  out << Verdict(o) << '\n';
  if (o.kind == study::DampingOptimumKind::kRefined || o.kind == study::DampingOptimumKind::kBecomesReal)
    out << fmt::format(
        "  K in {}, refined between the listed gains {} and {} (Brent's method on the tracked mode, K to {} "
        "relative, {} evaluations); best listed gain K = {} (zeta = {})\n",
        gain_unit, G(o.bracket_low), G(o.bracket_high), G(o.relative_tolerance), o.evaluations,
        G(o.grid.gain), G(o.grid.mode.zeta));
  if (!o.other_local_maxima.empty())
    out << "  zeta also has local maxima among the listed gains at K = " << Gains(o.other_local_maxima)
        << "; the largest is taken\n";
}

namespace {

// The "maximize" object of LocusJson (DampingOptimumJson's).
nlohmann::json OptimumJson(const study::DampingOptimum& o) {
  nlohmann::json m = o.grid.found ? nlohmann::json{{"mode", o.mode},
                                                   {"gain", o.grid.gain},
                                                   {"zeta", o.grid.mode.zeta},
                                                   {"name", o.grid.mode.name},
                                                   {"wn", o.grid.mode.wn}}
                                  : nlohmann::json{{"mode", o.mode}, {"gain", nullptr}};
  nlohmann::json r = {{"status", StatusName(o.kind)}, {"message", Verdict(o)}};
  if (o.kind == study::DampingOptimumKind::kRefined || o.kind == study::DampingOptimumKind::kBecomesReal) {
    r["gain"] = o.gain;
    r["zeta"] = o.zeta;
    r["wn"] = o.wn;
    r["eigenvalue_per_s"] = Complex(o.lambda);
    r["name"] = o.name;
    r["bracket"] = {o.bracket_low, o.bracket_high};
    r["evaluations"] = o.evaluations;
    r["relative_tolerance"] = o.relative_tolerance;
  }
  if (o.kind == study::DampingOptimumKind::kOverdamped) {
    r["overdamped_from"] = o.overdamped_from;
    r["overdamped_to"] = o.overdamped_to;
  }
  m["refined"] = r;
  m["other_local_maxima"] = o.other_local_maxima;
  return m;
}

}  // namespace

std::string LocusJson(const study::LocusResult& locus, const std::string& loop,
                      const std::string& file, const study::DampingOptimum* optimum) {
  nlohmann::json j = StudyJson(locus.study, "gain");
  j["file"] = file;
  j["loop"] = loop;
  j["axis"] = AxisName(locus.axis);
  j["gain_unit"] = locus.gain_unit;
  nlohmann::json poles = nlohmann::json::array(), zeros = nlohmann::json::array();
  for (auto z : locus.open_loop_poles) poles.push_back(Complex(z));
  for (auto z : locus.zeros) zeros.push_back(Complex(z));
  j["open_loop_poles"] = poles;
  j["zeros"] = zeros;
  if (optimum != nullptr) j["maximize"] = OptimumJson(*optimum);
  RemoveNegativeZeros(j);
  return j.dump(2);
}

std::string DampingOptimumJson(const study::DampingOptimum& optimum) {
  nlohmann::json j = OptimumJson(optimum);
  RemoveNegativeZeros(j);
  return j.dump(2);
}

void WriteTrackedText(std::ostream& out, const study::TrackedStudy& s, const std::string& label) {
  out << fmt::format("{:>12}  {:<40} {:>22}  {:>9}  {:>8}  {}\n", label, "mode", "eigenvalue [1/s]",
                     "wn", "zeta", "aerolin modes says");
  for (const study::TrackedPoint& p : s.points)
    for (const study::TrackedMode& m : p.modes) {
      const std::string lam = m.oscillatory ? fmt::format("{:.5g} ± {:.5g}i", m.lambda.real(), m.lambda.imag())
                                            : fmt::format("{:.5g}", m.lambda.real());
      const std::string zeta = HasDampingRatio(m.kind) ? fmt::format("{:.4f}", m.zeta) : kNoDampingRatio;
      out << fmt::format("{:>12.6g}  {:<40} {:>22}  {:>9.4g}  {:>8}  {}\n", p.value, m.name, lam, m.wn, zeta,
                         m.pointwise_name);
    }
  if (!s.changes.empty()) out << "\nstructure changes:\n";
  for (const study::StructureChange& c : s.changes)
    out << fmt::format("  {} = {:.6g}: {} -> {}\n", label, c.value, c.from, c.to);
  for (const std::string& n : s.notes) out << "\nnote: " << n << '\n';
}

void WriteTrackedCsv(std::ostream& out, const study::TrackedStudy& s, const std::string& label) {
  auto quoted = [](const std::string& t) { return "\"" + t + "\""; };
  out << label << ",axis,mode,origin,re_per_s,im_per_s,wn_rad_s,zeta,pointwise_name\n";
  for (const study::TrackedPoint& p : s.points)
    for (const study::TrackedMode& m : p.modes)
      out << fmt::format("{:.17g},{},{},{},{:.17g},{:.17g},{:.17g},{:.17g},{}\n", p.value, AxisName(m.axis),
                         quoted(m.name), quoted(m.origin), m.lambda.real(), m.lambda.imag(), m.wn, m.zeta,
                         quoted(m.pointwise_name));
}

void WriteSensitivityText(std::ostream& out, const std::vector<analysis::ModeSensitivity>& s,
                          const std::string& file) {
  out << "Eigenvalue sensitivities of " << file
      << " (exact, per unit of each key as written in the file)\n";
  out << "Ranking: the change of zeta (pairs) or of lambda [1/s] (real roots) for a 100 % change of "
         "the key, p*dzeta/dp or p*dlambda/dp.\n";
  for (const analysis::ModeSensitivity& m : s) {
    out << fmt::format("\n{}  lambda = {:.5g}{:+.5g}i  zeta = {:.4f}\n", m.mode.full_name(),
                       m.mode.lambda.real(), m.mode.lambda.imag(), m.mode.damping_ratio);
    out << "  moves " << (m.mode.oscillatory ? "damping" : "the root") << " most:";
    for (int i : m.top) out << "  " << m.keys[static_cast<std::size_t>(i)].key;
    out << '\n';
    out << fmt::format("  {:<28} {:>12} {:>26} {:>12} {:>12}\n", "key", "value", "dlambda/dp", "dzeta/dp",
                       "p*effect");
    for (const analysis::KeySensitivity& k : m.keys)
      out << fmt::format("  {:<28} {:>12} {:>12} {}i {:>12} {:>12}\n", k.key,
                         WithoutNegativeZero(fmt::format("{:.5g}", k.value)),
                         WithoutNegativeZero(fmt::format("{:.4e}", k.dlambda.real())),
                         SignedWithoutNegativeZero(fmt::format("{:+.4e}", k.dlambda.imag())),
                         WithoutNegativeZero(fmt::format("{:.4e}", k.dzeta)),
                         WithoutNegativeZero(fmt::format("{:.4e}", k.relative_effect)));
  }
}

std::string SensitivityJson(const std::vector<analysis::ModeSensitivity>& s, const std::string& file) {
  nlohmann::json modes = nlohmann::json::array();
  for (const analysis::ModeSensitivity& m : s) {
    nlohmann::json sens = nlohmann::json::object(), dzeta = nlohmann::json::object(),
                   top = nlohmann::json::array();
    for (const analysis::KeySensitivity& k : m.keys) {
      sens[k.key] = Complex(k.dlambda);
      dzeta[k.key] = k.dzeta;
    }
    for (int i : m.top) top.push_back(m.keys[static_cast<std::size_t>(i)].key);
    modes.push_back({{"name", m.mode.full_name()},
                     {"axis", AxisName(m.mode.axis)},
                     {"eigenvalue_per_s", Complex(m.mode.lambda)},
                     {"zeta", m.mode.damping_ratio},
                     {"top_damping", top},
                     {"sensitivity", sens},
                     {"dzeta", dzeta}});
  }
  nlohmann::json doc{{"schema", "aerolin.sensitivity/1"}, {"file", file}, {"modes", modes}};
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

}  // namespace aerolin::exporting
