#include "aerolin/export/qualities_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
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

}  // namespace

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
                          const std::vector<QualitiesGrade>& grades) {
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
  RemoveNegativeZeros(doc);
  return doc.dump(2);
}

}  // namespace aerolin::exporting
