#include "aerolin/export/qualities_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>
#include "aerolin/core/units.hpp"
#include "json_numbers.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Level;
using analysis::Limits;
using analysis::QualitiesGrade;
using analysis::RequirementResult;

bool Impossible(const Limits& l) { return l.min && std::isinf(*l.min) && *l.min > 0; }

std::string LimitText(const Limits& l, const RequirementResult& r) {
  if (Impossible(l)) return r.criterion == "T2" ? "no divergence" : "not permitted";
  if (l.min && l.max) return fmt::format("{:g}..{:g}", *l.min, *l.max);
  if (l.min) return fmt::format("≥ {:g}", *l.min);
  if (l.max) return fmt::format("≤ {:g}", *l.max);
  return "-";
}

std::string ValueText(double v) {
  if (std::isinf(v)) return "never";
  return fmt::format("{:.4g}", v);
}

std::string LevelText(Level level) {
  return level == Level::k4 ? "4 (worse than 3)" : fmt::format("{}", analysis::ToInt(level));
}

// Pads UTF-8 text to `width` columns (code points, not bytes).
std::string Pad(const std::string& text, std::size_t width) {
  std::size_t columns = 0;
  for (unsigned char c : text)
    if ((c & 0xC0) != 0x80) ++columns;
  return columns >= width ? text + " " : text + std::string(width - columns, ' ');
}

std::vector<analysis::ModeKind> ModesIn(const QualitiesGrade& g) {
  std::vector<analysis::ModeKind> modes;
  for (const RequirementResult& r : g.requirements)
    if (std::find(modes.begin(), modes.end(), r.mode) == modes.end()) modes.push_back(r.mode);
  return modes;
}

nlohmann::json Number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json LimitJson(const Limits& l) {
  nlohmann::json j;
  if (Impossible(l)) {
    j["min"] = nullptr;
    j["max"] = nullptr;
    j["permitted"] = false;
    return j;
  }
  j["min"] = l.min ? Number(*l.min) : nlohmann::json(nullptr);
  j["max"] = l.max ? Number(*l.max) : nlohmann::json(nullptr);
  return j;
}

Level Worst(const std::vector<QualitiesGrade>& grades) {
  Level worst = Level::k1;
  for (const QualitiesGrade& g : grades)
    if (analysis::ToInt(g.level) > analysis::ToInt(worst)) worst = g.level;
  return worst;
}

// --- MIL-STD-1797A block ---

constexpr const char* kNotVerified = "not graded: boundary not verified";

std::string Maybe(const std::optional<double>& v) { return v ? fmt::format("{:.4g}", *v) : std::string("-"); }

std::string PathText(const model::CommandPath& path) {
  if (path.empty()) return "an ideal command path (no actuator, no delay: [actuators] or --actuator, --delay give them)";
  std::string s;
  for (const auto& [name, a] : path.actuators) {
    s += fmt::format("{} actuator {:g} s", name, a.time_constant);
    if (a.position_limit) s += fmt::format(", limit {:g} deg", *a.position_limit * core::kRadToDeg);
    if (a.rate_limit) s += fmt::format(", rate {:g} deg/s", *a.rate_limit * core::kRadToDeg);
    s += "; ";
  }
  return s + fmt::format("delay {:g} s", path.delay);
}

std::vector<const study::MilStd1797Result*> Columns(const MilStd1797Report& r) {
  std::vector<const study::MilStd1797Result*> c = {&r.bare};
  if (r.augmented) c.push_back(&*r.augmented);
  return c;
}

std::string BandwidthCell(const std::optional<study::BandwidthResult>& b) {
  if (!b || !b->bandwidth) return "-";
  return fmt::format("{:.4g} ({})", *b->bandwidth, b->gain_limited ? "gain" : "phase");
}

std::string CapLevels(const MilStd1797Report& r, const std::optional<study::CapTheta2>& cap) {
  if (!cap) return "-";
  std::string s = "level";
  for (analysis::FlightPhaseCategory c : r.categories)
    s += fmt::format(" {} {}", analysis::ToString(c),
                     analysis::ToInt(study::GradeCap(cap->cap, r.aircraft_class, c)));
  return s;
}

nlohmann::json Opt(const std::optional<double>& v) { return v ? Number(*v) : nlohmann::json(nullptr); }

nlohmann::json BandwidthJson(const std::optional<study::BandwidthResult>& b) {
  if (!b) return nullptr;
  return {{"omega_180_rad_s", Opt(b->omega_180)},     {"omega_phase_rad_s", Opt(b->omega_phase)},
          {"omega_gain_rad_s", Opt(b->omega_gain)},   {"bandwidth_rad_s", Opt(b->bandwidth)},
          {"gain_limited", b->gain_limited},          {"phase_delay_s", Opt(b->phase_delay)},
          {"note", b->note},                          {"graded", false},
          {"not_graded", "boundary not verified"}};
}

nlohmann::json ResultJson(const MilStd1797Report& report, const study::MilStd1797Result& r) {
  using nlohmann::json;
  json j;
  j["pitch"] = BandwidthJson(r.pitch);
  j["roll"] = BandwidthJson(r.roll);
  j["elevator_sign"] = r.elevator_sign;
  j["aileron_sign"] = r.aileron_sign;
  if (r.dropback) {
    const study::DropbackResult& d = *r.dropback;
    j["dropback"] = {{"q_ss_rad_s", d.q_ss},
                     {"q_peak_rad_s", d.q_peak},
                     {"overshoot", d.overshoot},
                     {"dropback_rad", d.dropback},
                     {"dropback_ratio_s", d.dropback_ratio},
                     {"release_ratio_s", d.release_ratio},
                     {"hold_time_s", d.hold_time},
                     {"limited", d.limited},
                     {"region", study::ToString(d.region)},
                     {"satisfactory", d.region == study::DropbackRegion::kSatisfactory},
                     {"source", "Gibson's region as two course scripts read it [V, secondary]"}};
  } else {
    j["dropback"] = nullptr;
  }
  j["dropback_note"] = r.dropback_note;
  if (r.cap) {
    json levels = json::object();
    for (analysis::FlightPhaseCategory c : report.categories)
      levels[std::string(analysis::ToString(c))] =
          analysis::ToInt(study::GradeCap(r.cap->cap, report.aircraft_class, c));
    j["cap_theta2"] = {{"inverse_t_theta2_per_s", r.cap->inverse_t_theta2},
                       {"n_alpha_g_per_rad", r.cap->n_alpha},
                       {"omega_sp_rad_s", r.cap->omega_sp},
                       {"cap", r.cap->cap},
                       {"levels", levels}};
  } else {
    j["cap_theta2"] = nullptr;
  }
  j["cap_note"] = r.cap_note;
  return j;
}

nlohmann::json MilStd1797Json(const MilStd1797Report& report) {
  using nlohmann::json;
  json path;
  path["delay_s"] = report.path.delay;
  json actuators = json::object();
  for (const auto& [name, a] : report.path.actuators)
    actuators[name] = {{"time_constant_s", a.time_constant},
                       {"limit_rad", Opt(a.position_limit)},
                       {"rate_limit_rad_s", Opt(a.rate_limit)}};
  path["actuators"] = actuators;
  path["dropback_step_rad"] = report.dropback.command;
  json j;
  j["command_path"] = path;
  j["bare"] = ResultJson(report, report.bare);
  j["augmented"] = report.augmented ? ResultJson(report, *report.augmented) : json(nullptr);
  return j;
}

}  // namespace

MilStd1797Report AssessForReport(const model::AircraftData& aircraft, const model::CommandPath& path,
                                 analysis::AircraftClass aircraft_class,
                                 const std::vector<analysis::FlightPhaseCategory>& categories,
                                 const study::DropbackOptions& dropback) {
  MilStd1797Report r;
  r.path = path;
  r.dropback = dropback;
  r.aircraft_class = aircraft_class;
  r.categories = categories;
  r.bare = study::AssessMilStd1797(model::BareAirframe(aircraft), path, dropback);
  if (model::IsAugmented(aircraft))
    r.augmented = study::AssessMilStd1797(aircraft, path, dropback);
  return r;
}

void WriteMilStd1797Text(std::ostream& out, const MilStd1797Report& report) {
  const std::vector<const study::MilStd1797Result*> cols = Columns(report);
  out << "\nMIL-STD-1797A (Notice 3), criteria for augmented aircraft, through " << PathText(report.path)
      << "\n"
      << "Pilot command → delay → actuator → airframe" << (report.augmented ? " (closed by its [augmentation])" : "")
      << "; the linear criteria use the unsaturated actuator, the dropback (a "
      << fmt::format("{:g}", report.dropback.command * core::kRadToDeg)
      << " deg nose-up step, held until steady) its limits.\n";
  // One cell per column and the graded column: `graded` per column, joined
  // ("bare: ...; augmented: ...") when there are two and they say something.
  using Cell = std::function<std::string(const study::MilStd1797Result&)>;
  const auto row = [&](const std::string& name, const Cell& cell, const std::string& unit, const Cell& graded,
                       const std::string& suffix = "") {
    std::string line = "  " + Pad(name, 34);
    for (const study::MilStd1797Result* c : cols) line += Pad(cell(*c), 20);
    line += Pad(unit, 11);
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const std::string g = graded(*cols[k]);
      if (g.empty()) continue;
      if (cols.size() > 1) line += (k == 0 ? "bare: " : "; augmented: ");
      line += g;
    }
    line += suffix;
    out << line.substr(0, line.find_last_not_of(' ') + 1) << '\n';
  };
  const Cell none = [](const study::MilStd1797Result&) { return std::string(); };
  const auto pitch = [](auto f) {
    return [f](const study::MilStd1797Result& r) { return r.pitch ? f(*r.pitch) : std::string("-"); };
  };
  const auto roll = [](auto f) {
    return [f](const study::MilStd1797Result& r) { return r.roll ? f(*r.roll) : std::string("-"); };
  };
  const auto dropback = [](auto f) {
    return [f](const study::MilStd1797Result& r) { return r.dropback ? f(*r.dropback) : std::string("-"); };
  };
  const auto cap = [](auto f) {
    return [f](const study::MilStd1797Result& r) { return r.cap ? f(*r.cap) : std::string("-"); };
  };
  const std::string not_graded = kNotVerified;
  out << "  " << Pad("criterion", 34) << Pad("bare airframe", 20) << (report.augmented ? Pad("augmented", 20) : "")
      << Pad("unit", 11) << "graded\n";
  row("pitch bandwidth w_BW (theta/de)", [](const auto& r) { return BandwidthCell(r.pitch); }, "rad/s", none,
      not_graded);
  row("  w180", pitch([](const auto& b) { return Maybe(b.omega_180); }), "rad/s", none);
  row("pitch phase delay tau_p", pitch([](const auto& b) { return Maybe(b.phase_delay); }), "s", none, not_graded);
  row("bank bandwidth w_BW (phi/da)", [](const auto& r) { return BandwidthCell(r.roll); }, "rad/s", none,
      not_graded);
  row("bank phase delay tau_p", roll([](const auto& b) { return Maybe(b.phase_delay); }), "s", none, not_graded);
  row("dropback DB/q_ss", dropback([](const auto& d) { return fmt::format("{:.4g}", d.dropback_ratio); }), "s",
      dropback([](const auto& d) { return study::ToString(d.region); }),
      " (Gibson's region [V, secondary])");
  row("pitch-rate overshoot q_pk/q_ss", dropback([](const auto& d) { return fmt::format("{:.4g}", d.overshoot); }),
      "1", none);
  row("1/T_theta2", cap([](const auto& c) { return fmt::format("{:.4g}", c.inverse_t_theta2); }), "1/s", none);
  row("n/alpha = (U0/g)/T_theta2", cap([](const auto& c) { return fmt::format("{:.4g}", c.n_alpha); }), "g/rad",
      none);
  row("CAP = wn_sp^2/(n/alpha)", cap([](const auto& c) { return fmt::format("{:.4g}", c.cap); }), "1/(s^2*g)",
      [&](const auto& r) { return CapLevels(report, r.cap); }, " (the CAP bands of 3.2.2.1.1 above)");
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const study::MilStd1797Result& r = *cols[k];
    const std::string who = k == 0 ? "bare airframe" : "augmented";
    std::vector<std::string> notes;
    if (r.pitch && !r.pitch->note.empty()) notes.push_back("pitch: " + r.pitch->note);
    if (!r.pitch) notes.push_back("pitch: no elevator acting on q");
    if (r.roll && !r.roll->note.empty()) notes.push_back("bank: " + r.roll->note);
    if (!r.roll) notes.push_back("bank: no aileron acting on p");
    if (!r.dropback_note.empty()) notes.push_back("dropback: " + r.dropback_note);
    if (r.dropback && r.dropback->limited) notes.push_back("dropback: an actuator limit was reached");
    if (!r.cap_note.empty()) notes.push_back("CAP: " + r.cap_note);
    for (const std::string& n : notes) out << "  (" << who << ") " << n << '\n';
  }
}

void WriteQualitiesText(std::ostream& out, const QualitiesReportHeader& header,
                        const std::vector<QualitiesGrade>& grades) {
  if (grades.empty()) return;
  out << header.aircraft << "  (" << header.file << ")\n"
      << fmt::format("Flying qualities, MIL-F-8785C: class {}, n/α = −Zα/g = {:.4g} g/rad\n",
                     analysis::ToString(grades.front().aircraft_class), grades.front().n_alpha)
      << "Limits are inclusive; level 4 = worse than Level 3. "
      << (header.augmented ? "Augmented (the file's [augmentation])" : "Bare airframe")
      << ", linear modes only.\n";
  for (const QualitiesGrade& g : grades) {
    out << fmt::format("\nCategory {}: level {}\n", analysis::ToString(g.category), LevelText(g.level));
    out << "  " << Pad("mode", 18) << Pad("criterion", 10) << Pad("value", 10) << Pad("unit", 11)
        << Pad("Level 1", 15) << Pad("Level 2", 15) << Pad("Level 3", 15) << Pad("level", 7)
        << "paragraph\n";
    for (const RequirementResult& r : g.requirements) {
      out << "  " << Pad(analysis::ToString(r.mode), 18) << Pad(r.criterion, 10)
          << Pad(ValueText(r.value), 10) << Pad(r.unit, 11);
      for (const Limits& l : r.limits) out << Pad(LimitText(l, r), 15);
      out << Pad(fmt::format("{}", analysis::ToInt(r.level)), 7) << r.paragraph;
      if (!r.note.empty()) out << "  (" << r.note << ")";
      out << '\n';
    }
    out << "  worst per mode:";
    for (analysis::ModeKind m : ModesIn(g))
      out << fmt::format(" {} {};", analysis::ToString(m), analysis::ToInt(*g.LevelOf(m)));
    out << '\n';
  }
  if (grades.size() > 1)
    out << fmt::format("\nOverall (worst category): level {}\n", LevelText(Worst(grades)));
}

std::string QualitiesJson(const QualitiesReportHeader& header,
                          const std::vector<QualitiesGrade>& grades, const MilStd1797Report* mil_std_1797) {
  using nlohmann::json;
  json doc;
  doc["schema"] = "aerolin.qualities/1";
  doc["file"] = header.file;
  doc["aircraft"] = header.aircraft;
  doc["class"] = grades.empty() ? "" : std::string(analysis::ToString(grades.front().aircraft_class));
  doc["n_alpha_g_per_rad"] = grades.empty() ? json(nullptr) : Number(grades.front().n_alpha);
  json categories = json::array();
  for (const QualitiesGrade& g : grades) {
    json c;
    c["category"] = std::string(analysis::ToString(g.category));
    c["level"] = analysis::ToInt(g.level);
    json mode_levels = json::object();
    for (analysis::ModeKind m : ModesIn(g)) mode_levels[analysis::ToString(m)] = analysis::ToInt(*g.LevelOf(m));
    c["mode_levels"] = mode_levels;
    json requirements = json::array();
    for (const RequirementResult& r : g.requirements) {
      json limits;
      for (int level = 0; level < 3; ++level) limits[std::to_string(level + 1)] = LimitJson(r.limits[level]);
      requirements.push_back({{"mode", analysis::ToString(r.mode)},
                              {"criterion", r.criterion},
                              {"value", Number(r.value)},
                              {"unit", r.unit},
                              {"level", analysis::ToInt(r.level)},
                              {"limits", limits},
                              {"paragraph", r.paragraph},
                              {"note", r.note}});
    }
    c["requirements"] = requirements;
    categories.push_back(c);
  }
  doc["categories"] = categories;
  doc["level"] = analysis::ToInt(Worst(grades));
  if (mil_std_1797) doc["mil_std_1797"] = MilStd1797Json(*mil_std_1797);
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

}  // namespace aerolin::exporting
