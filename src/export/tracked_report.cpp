#include "aerolin/export/tracked_report.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include "aerolin/core/files.hpp"
#include "damping_text.hpp"
#include "json_numbers.hpp"
#include "json_writer.hpp"
#include "display_units.hpp"

namespace aerolin::exporting {
namespace {

nlohmann::json Complex(std::complex<double> z) { return {{"re", z.real()}, {"im", z.imag()}}; }


// One point's object: its modes and its value under `value_key`.
void WritePointJson(JsonWriter& w, const study::TrackedPoint& p, const std::string& value_key) {
  const bool value_first = value_key < "modes";
  w.BeginObject();
  if (value_first) w.Key(value_key).Number(p.value);
  w.Key("modes").BeginArray();
  for (const study::TrackedMode& m : p.modes) {
    w.BeginObject();
    w.Key("axis").String(model::AxisName(m.axis));
    w.Key("eigenvalue_per_s").BeginObject();
    w.Key("im").Number(m.lambda.imag());
    w.Key("re").Number(m.lambda.real());
    w.EndObject();
    w.Key("name").String(m.name);
    w.Key("origin").String(m.origin);
    w.Key("oscillatory").Bool(m.oscillatory);
    if (!m.pointwise_name.empty()) w.Key("pointwise_name").String(m.pointwise_name);
    w.Key("wn").Number(m.wn);
    w.Key("zeta").Number(m.zeta);
    w.EndObject();
  }
  w.EndArray();
  if (!value_first) w.Key(value_key).Number(p.value);
  w.EndObject();
}

nlohmann::json ChangesJson(const std::vector<study::StructureChange>& changes, const std::string& value_key) {
  nlohmann::json list = nlohmann::json::array();
  for (const study::StructureChange& c : changes)
    list.push_back({{value_key, c.value}, {"axis", model::AxisName(c.axis)}, {"from", c.from}, {"to", c.to}});
  return list;
}

// The members of a tracked study in nlohmann's (sorted) order: "notes",
// what `between` writes (a locus' "open_loop_poles"), "param", the points
// (`points` writes them inside the array), "refinements" and
// "structure_changes".
void WriteStudyMembers(JsonWriter& w, const study::TrackedStudy& s, const std::string& value_key,
                       const std::function<void()>& points, const std::function<void()>& between = {}) {
  w.Key("notes").Dom(s.notes);
  if (between) between();
  w.Key("param").String(s.param);
  w.Key("points").BeginArray();
  points();
  w.EndArray();
  w.Key("refinements").Integer(s.refinements);
  w.Key("structure_changes").Dom(ChangesJson(s.changes, value_key));
}

}  // namespace

void WriteTrackedJson(std::ostream& out, const study::TrackedStudy& study, const std::string& value_key,
                      const std::string& file) {
  JsonWriter w(out);
  w.BeginObject();
  w.Key("file").String(file);
  WriteStudyMembers(w, study, value_key, [&] {
    for (const study::TrackedPoint& p : study.points) WritePointJson(w, p, value_key);
  });
  w.EndObject();
  w.Flush();
}

std::string TrackedJson(const study::TrackedStudy& study, const std::string& value_key,
                        const std::string& file) {
  std::ostringstream out;
  WriteTrackedJson(out, study, value_key, file);
  return std::move(out).str();
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

// A locus's document: its loop and optimum, then the study's members with
// the points `points` writes, the poles and the zeros.
void WriteLocusDocument(JsonWriter& w, const study::LocusResult& locus, const std::string& loop,
                        const std::string& file, const study::DampingOptimum* optimum,
                        const std::function<void()>& points) {
  auto complexes = [](const std::vector<std::complex<double>>& zs) {
    nlohmann::json list = nlohmann::json::array();
    for (auto z : zs) list.push_back(Complex(z));
    return list;
  };
  w.BeginObject();
  w.Key("axis").String(model::AxisName(locus.axis));
  w.Key("file").String(file);
  w.Key("gain_unit").String(locus.gain_unit);
  w.Key("loop").String(loop);
  if (optimum != nullptr) w.Key("maximize").Dom(OptimumJson(*optimum));
  WriteStudyMembers(w, locus.study, "gain", points,
                    [&] { w.Key("open_loop_poles").Dom(complexes(locus.open_loop_poles)); });
  w.Key("zeros").Dom(complexes(locus.zeros));
  w.EndObject();
  w.Flush();
}

}  // namespace

void WriteLocusJson(std::ostream& out, const study::LocusResult& locus, const std::string& loop,
                    const std::string& file, const study::DampingOptimum* optimum) {
  JsonWriter w(out);
  WriteLocusDocument(w, locus, loop, file, optimum, [&] {
    for (const study::TrackedPoint& p : locus.study.points) WritePointJson(w, p, "gain");
  });
}

std::string LocusJson(const study::LocusResult& locus, const std::string& loop,
                      const std::string& file, const study::DampingOptimum* optimum) {
  std::ostringstream out;
  WriteLocusJson(out, locus, loop, file, optimum);
  return std::move(out).str();
}

std::string DampingOptimumJson(const study::DampingOptimum& optimum) {
  nlohmann::json j = OptimumJson(optimum);
  RemoveNegativeZeros(j);
  return j.dump(2);
}

namespace {

void WriteTextHeading(std::ostream& out, const std::string& label) {
  out << fmt::format("{:>12}  {:<40} {:>22}  {:>9}  {:>8}  {}\n", label, "mode", "eigenvalue [1/s]",
                     "wn", "zeta", "aerolin modes says");
}

void AppendTextRows(fmt::memory_buffer& out, const study::TrackedPoint& p) {
  for (const study::TrackedMode& m : p.modes) {
    const std::string lam = m.oscillatory ? fmt::format("{:.5g} ± {:.5g}i", m.lambda.real(), m.lambda.imag())
                                          : fmt::format("{:.5g}", m.lambda.real());
    const std::string zeta = HasDampingRatio(m.kind) ? fmt::format("{:.4f}", m.zeta) : kNoDampingRatio;
    fmt::format_to(std::back_inserter(out), "{:>12.6g}  {:<40} {:>22}  {:>9.4g}  {:>8}  {}\n", p.value,
                   m.name, lam, m.wn, zeta, m.pointwise_name);
  }
}

void WriteTextEnd(std::ostream& out, const study::TrackedStudy& s, const std::string& label) {
  if (!s.changes.empty()) out << "\nstructure changes:\n";
  for (const study::StructureChange& c : s.changes)
    out << fmt::format("  {} = {:.6g}: {} -> {}\n", label, c.value, c.from, c.to);
  for (const std::string& n : s.notes) out << "\nnote: " << n << '\n';
}

void WriteCsvHeading(std::ostream& out, const std::string& label) {
  out << label << ",axis,mode,origin,re_per_s,im_per_s,wn_rad_s,zeta,pointwise_name\n";
}

void AppendCsvRows(fmt::memory_buffer& out, const study::TrackedPoint& p) {
  for (const study::TrackedMode& m : p.modes)
    fmt::format_to(std::back_inserter(out), "{:.17g},{},\"{}\",\"{}\",{:.17g},{:.17g},{:.17g},{:.17g},\"{}\"\n",
                   p.value, model::AxisName(m.axis), m.name, m.origin, m.lambda.real(), m.lambda.imag(), m.wn, m.zeta,
                   m.pointwise_name);
}

// Appends each point's rows to a buffer and writes it once it is large.
template <typename Append>
void WriteRows(std::ostream& out, std::span<const study::TrackedPoint> points, Append append) {
  fmt::memory_buffer buffer;
  for (const study::TrackedPoint& p : points) {
    append(buffer, p);
    if (buffer.size() >= (1 << 16)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

}  // namespace

void WriteTrackedText(std::ostream& out, const study::TrackedStudy& s, const std::string& label) {
  WriteTextHeading(out, label);
  WriteRows(out, s.points, AppendTextRows);
  WriteTextEnd(out, s, label);
}

void WriteTrackedCsv(std::ostream& out, const study::TrackedStudy& s, const std::string& label) {
  WriteCsvHeading(out, label);
  WriteRows(out, s.points, AppendCsvRows);
}

struct TrackedReportStream::State {
  std::ostream& report;
  Format format;
  std::ostream* csv;
  std::string label, value_key, file;
  // JSON, or text held: the points written so far (JSON: with their writer,
  // inside the document's object and its "points" array).
  std::fstream spool;
  std::unique_ptr<JsonWriter> points;
  bool any_point = false;
  // Where the text's rows go: the report, or the spool while held.
  std::ostream* text = nullptr;
};

TrackedReportStream::TrackedReportStream(std::ostream& report, Format format, std::ostream* csv,
                                         std::string label, std::string value_key, std::string file,
                                         const std::string& preamble, bool hold)
    : state_(new State{report, format, csv, std::move(label), std::move(value_key), std::move(file), {}, {}}) {
  if (format == Format::kJson || hold) {
    state_->spool = core::OpenScratchFile("the report's points");
  }
  if (format == Format::kJson) {
    state_->points = std::make_unique<JsonWriter>(state_->spool, 2);
  } else {
    state_->text = hold ? static_cast<std::ostream*>(&state_->spool) : &report;
    *state_->text << preamble;
    WriteTextHeading(*state_->text, state_->label);
  }
  if (csv != nullptr) WriteCsvHeading(*csv, state_->label);
}

TrackedReportStream::~TrackedReportStream() = default;

void TrackedReportStream::Add(std::span<const study::TrackedPoint> points) {
  State& s = *state_;
  if (s.format == Format::kJson) {
    for (const study::TrackedPoint& p : points) WritePointJson(*s.points, p, s.value_key);
    s.points->Flush();
    s.any_point = s.any_point || !points.empty();
  } else {
    WriteRows(*s.text, points, AppendTextRows);
  }
  if ((s.format == Format::kJson || s.text == &s.spool) && !s.spool)
    throw std::runtime_error(std::string("writing the report's temporary file failed: ") + std::strerror(errno));
  if (s.csv != nullptr) WriteRows(*s.csv, points, AppendCsvRows);
}

// The rows held in the spool, copied to the report.
void TrackedReportStream::Release() {
  State& s = *state_;
  if (s.text != &s.spool) return;
  s.spool.flush();
  s.spool.seekg(0);
  s.report << s.spool.rdbuf();
  if (!s.spool) throw std::runtime_error(std::string("reading the report's temporary file failed: ") + std::strerror(errno));
}

void TrackedReportStream::Finish(const study::TrackedStudy& study) {
  State& s = *state_;
  if (s.format == Format::kText) {
    Release();
    WriteTextEnd(s.report, study, s.label);
    return;
  }
  JsonWriter w(s.report);
  w.BeginObject();
  w.Key("file").String(s.file);
  WriteStudyMembers(w, study, s.value_key, [&] {
    s.spool.seekg(0);
    w.Splice(s.spool, s.any_point);
  });
  w.EndObject();
  w.Flush();
}

void TrackedReportStream::Finish(const study::LocusResult& locus, const std::string& loop,
                                 const study::DampingOptimum* optimum) {
  State& s = *state_;
  if (s.format == Format::kText) {
    Release();
    WriteTextEnd(s.report, locus.study, s.label);
    if (optimum != nullptr) {
      s.report << '\n';
      WriteDampingOptimum(s.report, *optimum, locus.gain_unit);
    }
    return;
  }
  JsonWriter w(s.report);
  WriteLocusDocument(w, locus, loop, s.file, optimum, [&] {
    s.spool.seekg(0);
    w.Splice(s.spool, s.any_point);
  });
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
                     {"axis", model::AxisName(m.mode.axis)},
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
