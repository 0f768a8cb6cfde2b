// The flying-qualities charts (plot.hpp, PlotShortPeriodChart and
// PlotDutchRollChart): the level regions are shaded from the same limits the
// grading used (the grade's requirement rows), so a chart cannot disagree
// with the table.

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "mathgl_canvas.hpp"

namespace aerolin::exporting {
namespace {

using analysis::Level;
using analysis::Limits;
using analysis::QualitiesGrade;
using analysis::RequirementResult;

constexpr double kTitleFontSize = 1.4;
constexpr double kPanelFontSize = 2.6;

// Fill colours of Levels 1, 2, 3 and "worse than 3" (light, so the lines and
// the point stay readable), and the darker pens of their boundary lines.
constexpr std::array<const char*, 4> kLevelFill = {"{xC7E9C0}", "{xFFF3B0}", "{xFDD0A2}",
                                                   "{xF4B4B4}"};
constexpr std::array<const char*, 3> kLevelPen = {"{x2CA02C}2", "{xD4A017}2", "{xD62728}2"};

const RequirementResult* Find(const QualitiesGrade& g, analysis::ModeKind mode,
                              const std::string& criterion) {
  for (const RequirementResult& r : g.requirements)
    if (r.mode == mode && r.criterion == criterion) return &r;
  return nullptr;
}

std::string Number(double v) {
  std::string s = fmt::format("{:.3g}", v);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

std::wstring LevelName(Level level) {
  return level == Level::k4 ? L"worse than Level 3"
                            : L"Level " + std::to_wstring(analysis::ToInt(level));
}

std::wstring Heading(const QualitiesGrade& g, const std::string& what) {
  return internal::Widen(what + "; Category " + std::string(analysis::ToString(g.category)) +
                         ", Class " + std::string(analysis::ToString(g.aircraft_class)));
}

// One level's region as the band lo(x) ≤ y ≤ hi(x) over the sampled x (an
// empty band where lo ≥ hi). The regions are nested (each level's limits are
// looser than the one before), so painting Level 3, then 2, then 1 over a
// "worse than Level 3" background shades every point by its level.
struct Band {
  std::vector<double> x, lo, hi;
};

std::vector<double> Spaced(double lo, double hi, int n, bool log) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / (n - 1);
    v[i] = log ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo))) : lo + t * (hi - lo);
  }
  return v;
}

// Fills the rectangle [x_lo, x_hi] × [y_lo, y_hi] with `colour`.
void FillRectangle(mglGraph& gr, double x_lo, double x_hi, double y_lo, double y_hi, const char* colour) {
  mglData x(2), lo(2), hi(2);
  x.a[0] = x_lo;
  x.a[1] = x_hi;
  lo.a[0] = lo.a[1] = y_lo;
  hi.a[0] = hi.a[1] = y_hi;
  gr.Region(x, lo, hi, colour);
}

// Fills the bands (index k = Level k+1) from Level 3 down to Level 1 over a
// background of the "worse" colour, then draws each band's lower and upper
// edges (where they lie inside the plot) in the level's pen.
void DrawLevels(mglGraph& gr, const std::array<Band, 3>& bands, double x_lo, double x_hi,
                double y_lo, double y_hi) {
  // Everything here is drawn in the plane z = Min.z, so later primitives lie
  // on top of earlier ones (a FaceZ at z = 0 would hide them).
  FillRectangle(gr, x_lo, x_hi, y_lo, y_hi, kLevelFill[3]);
  for (int k = 2; k >= 0; --k) {
    const Band& b = bands[k];
    if (b.x.empty()) continue;
    std::vector<double> hi = b.hi;
    for (std::size_t i = 0; i < hi.size(); ++i) hi[i] = std::max(hi[i], b.lo[i]);
    gr.Region(internal::Data(b.x), internal::Data(b.lo), internal::Data(hi), kLevelFill[k]);
  }
  for (int k = 2; k >= 0; --k) {
    const Band& b = bands[k];
    if (b.x.empty()) continue;
    // Edges only where the band is open (lo < hi), and not on the plot frame.
    for (const std::vector<double>* edge : {&b.lo, &b.hi}) {
      std::vector<double> xs, ys;
      auto flush = [&] {
        if (xs.size() >= 2) gr.Plot(internal::Data(xs), internal::Data(ys), kLevelPen[k]);
        xs.clear();
        ys.clear();
      };
      for (std::size_t i = 0; i < b.x.size(); ++i) {
        const double y = (*edge)[i];
        const bool on = b.lo[i] < b.hi[i] && y > y_lo && y < y_hi;
        if (on) {
          xs.push_back(b.x[i]);
          ys.push_back(y);
        } else {
          flush();
        }
      }
      flush();
    }
    // The left end of a band that starts inside the plot (a frequency floor
    // drawn as a vertical line on the Dutch-roll chart).
    if (b.x.front() > x_lo && b.lo.front() < b.hi.front())
      gr.Line(mglPoint(b.x.front(), std::max(b.lo.front(), y_lo)),
              mglPoint(b.x.front(), std::min(b.hi.front(), y_hi)), kLevelPen[k]);
  }
}

// The colour key under the plot.
void DrawKey(mglGraph& gr, const PanelRect& rect) {
  // Text scales with the panel's height; this strip is a tenth of the plot's.
  internal::InPanel(gr, rect, kPanelFontSize * 7.0);
  gr.SetFunc("", "");
  gr.SetRanges(0, 4, 0, 1);
  for (int k = 0; k < 4; ++k) {
    const double x0 = k + 0.02;
    FillRectangle(gr, x0, x0 + 0.2, 0.1, 0.9, kLevelFill[k]);
    if (k < 3) gr.Line(mglPoint(x0, 0.1), mglPoint(x0 + 0.2, 0.1), kLevelPen[k]);
    gr.Putsw(mglPoint(x0 + 0.26, 0.5), LevelName(static_cast<Level>(k + 1)).c_str(), ":L");
  }
}

// Marks the aircraft's point with a black dot and its level.
void MarkPoint(mglGraph& gr, double x, double y, Level level, bool label_right, double dx) {
  mglData px(1), py(1);
  px.a[0] = x;
  py.a[0] = y;
  gr.SetMarkSize(2.0);
  gr.Plot(px, py, "k o#");
  gr.Putsw(mglPoint(label_right ? x + dx : x - dx, y), LevelName(level).c_str(),
           label_right ? "k:L" : "k:R");
}

struct Frame {
  PanelRect plot;
  PanelRect key;
};

// Title, the table row's name, and the aircraft's values on a third line.
Frame Layout(mglGraph& gr, const PlotOptions& options, const std::string& title,
             const std::wstring& subtitle, const std::wstring& values) {
  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);
  gr.Putsw(0.5, 0.96, internal::FigureTitle(options, title).c_str(), ":AC",
           internal::kTitleScale);
  gr.Putsw(0.5, 0.915, subtitle.c_str(), ":AC", -1.4);
  gr.Putsw(0.5, 0.88, values.c_str(), ":AC", -1.4);
  return {{0.11, 0.96, 0.17, 0.84}, {0.06, 0.98, 0.015, 0.06}};
}

}  // namespace

void PlotShortPeriodChart(const analysis::ModalSummary& modes, const QualitiesGrade& grade,
                          const PlotOptions& options, const std::string& path) {
  const RequirementResult* cap = Find(grade, analysis::ModeKind::kShortPeriod, "CAP");
  if (cap == nullptr || !modes.short_period)
    throw std::invalid_argument(path + ": the grade has no short-period CAP requirement");
  const RequirementResult* floor = Find(grade, analysis::ModeKind::kShortPeriod, "wn");
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;

  const double n_alpha = grade.n_alpha;
  const double wn = modes.short_period->natural_frequency();
  const Level level = grade.LevelOf(analysis::ModeKind::kShortPeriod).value_or(Level::k4);
  // The level the point is shaded by: CAP and the floor only (ζsp is graded
  // too, and the values line names the short period's overall level).
  Level chart_level = cap->level;
  if (floor && analysis::ToInt(floor->level) > analysis::ToInt(chart_level))
    chart_level = floor->level;
  const std::wstring values =
      internal::Widen(fmt::format("n/\\alpha = {} g/rad, \\omega_n = {} rad/s, CAP = {}, "
                                  "\\zeta = {}: short period ",
                                  Number(n_alpha), Number(wn), Number(cap->value),
                                  Number(modes.short_period->damping_ratio()))) +
      LevelName(level);
  const Frame frame = Layout(gr, options, "short-period frequency (MIL-F-8785C 3.2.2.1.1)",
                             Heading(grade, "CAP = \\omega_n^2/(n/\\alpha) bands of MIL-STD-1797A"),
                             values);

  // The specification's figures span n/α 1..100 g/rad and ωn 0.1..100 rad/s;
  // widen to keep the aircraft's point inside with a margin.
  const bool point_shown = n_alpha > 0.0 && wn > 0.0;
  const double x_lo = point_shown ? std::min(1.0, n_alpha / 2.0) : 1.0;
  const double x_hi = point_shown ? std::max(100.0, n_alpha * 2.0) : 100.0;
  const double y_lo = point_shown ? std::min(0.1, wn / 2.0) : 0.1;
  const double y_hi = point_shown ? std::max(100.0, wn * 2.0) : 100.0;

  // Level k: CAP within the band and ωn above the floor (if any), i.e.
  // max(floor, √(CAPmin·n/α)) ≤ ωn ≤ √(CAPmax·n/α).
  constexpr int kSamples = 400;
  std::array<Band, 3> bands;
  for (int k = 0; k < 3; ++k) {
    Band& b = bands[k];
    b.x = Spaced(x_lo, x_hi, kSamples, true);
    for (double na : b.x) {
      const Limits& c = cap->limits[k];
      double lo = c.min ? std::sqrt(std::max(*c.min, 0.0) * na) : y_lo;
      if (floor && floor->limits[k].min) lo = std::max(lo, *floor->limits[k].min);
      const double hi = c.max ? std::sqrt(*c.max * na) : y_hi;
      b.lo.push_back(std::clamp(lo, y_lo, y_hi));
      b.hi.push_back(std::clamp(hi, y_lo, y_hi));
    }
  }

  internal::InPanel(gr, frame.plot, kPanelFontSize);
  gr.SetRanges(x_lo, x_hi, y_lo, y_hi);
  gr.SetFunc("lg(x)", "lg(y)");
  gr.SetOrigin(x_lo, y_lo);
  DrawLevels(gr, bands, x_lo, x_hi, y_lo, y_hi);
  gr.Grid("xy", "{x909090}:");
  gr.Box("k", false);
  gr.Axis("xy");
  gr.Label('x', L"n/\\alpha, g/rad", 0);
  gr.Label('y', L"\\omega_{n,sp}, rad/s", 0);
  // Each finite CAP limit labelled just inside the right edge, on its line.
  std::vector<double> labelled;
  for (int k = 0; k < 3; ++k)
    for (const std::optional<double>& c : {cap->limits[k].min, cap->limits[k].max}) {
      if (!c || *c <= 0.0 || std::isinf(*c)) continue;
      if (std::find(labelled.begin(), labelled.end(), *c) != labelled.end()) continue;
      labelled.push_back(*c);
      const double x = x_hi / 1.03;
      const double y = std::sqrt(*c * x);
      if (y > y_lo && y < y_hi)
        gr.Putsw(mglPoint(x, y * 1.06), internal::Widen("CAP " + Number(*c)).c_str(), "k:RD");
    }
  if (point_shown) MarkPoint(gr, n_alpha, wn, chart_level, true, n_alpha * 0.12);
  DrawKey(gr, frame.key);
  internal::WriteCanvas(gr, path);
}

void PlotDropbackChart(const MilStd1797Report& report, const PlotOptions& options, const std::string& path) {
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;
  struct Point {
    const char* who;
    const study::DropbackResult* d;
    const char* mark;
  };
  std::vector<Point> points;
  if (report.bare.dropback) points.push_back({"bare", &*report.bare.dropback, "k o#"});
  if (report.augmented && report.augmented->dropback)
    points.push_back({"augmented", &*report.augmented->dropback, "b s#"});
  std::string values;
  for (const Point& p : points)
    values += fmt::format("{}{} {} s, {}", values.empty() ? "" : "; ", p.who, Number(p.d->dropback_ratio),
                          Number(p.d->overshoot));
  values = points.empty() ? "no dropback computed (the report says why)"
                          : "DB/q_{ss}, q_{pk}/q_{ss}: " + values;
  const Frame frame = Layout(gr, options, "Gibson's dropback criterion (pitch step-and-hold)",
                             L"satisfactory region as two course scripts read it [V, secondary]; not a Level",
                             internal::Widen(values));

  const double base = study::kDropbackLineBase, top = study::kDropbackMaxOvershoot;
  double x_lo = -0.25, x_hi = 1.0, y_lo = 0.5, y_hi = 4.0;
  for (const Point& p : points) {
    x_lo = std::min(x_lo, p.d->dropback_ratio - 0.1);
    x_hi = std::max(x_hi, p.d->dropback_ratio * 1.15 + 0.05);
    y_hi = std::max(y_hi, p.d->overshoot * 1.15);
  }
  internal::InPanel(gr, frame.plot, kPanelFontSize);
  gr.SetRanges(x_lo, x_hi, y_lo, y_hi);
  gr.SetOrigin(x_lo, y_lo);
  gr.SetTicks('x', core::NiceCeil((x_hi - x_lo) / 6.0), 0, 0.0);
  FillRectangle(gr, x_lo, x_hi, y_lo, y_hi, kLevelFill[3]);  // outside; the region over it
  // The line DB/q_ss = base + (end − base)(r − 1)/(top − 1), as y over x.
  const auto line_y = [&](double x, double end) { return 1.0 + (top - 1.0) * (base - x) / (base - end); };
  Band region;
  region.x = Spaced(0.0, base, 200, false);
  for (double x : region.x) {
    region.lo.push_back(1.0);
    region.hi.push_back(std::clamp(line_y(x, study::kDropbackLineTopLow), 1.0, top));
  }
  gr.Region(internal::Data(region.x), internal::Data(region.lo), internal::Data(region.hi), kLevelFill[0]);
  const auto segment = [&](double x0, double y0, double x1, double y1, const char* pen) {
    gr.Line(mglPoint(x0, y0), mglPoint(x1, y1), pen);
  };
  segment(0.0, 1.0, base, 1.0, kLevelPen[0]);
  segment(0.0, 1.0, 0.0, top, kLevelPen[0]);
  segment(0.0, top, study::kDropbackLineTopLow, top, kLevelPen[0]);
  segment(base, 1.0, study::kDropbackLineTopLow, top, kLevelPen[0]);
  segment(base, 1.0, study::kDropbackLineTopHigh, top, "{x2CA02C}|");
  gr.Grid("xy", "{x909090}:");
  gr.Box("k", false);
  gr.Axis("xy");
  gr.Label('x', L"DB/q_{ss}, s", 0);
  gr.Label('y', L"q_{pk}/q_{ss}", 0);
  const double dx = 0.01 * (x_hi - x_lo);
  gr.Putsw(mglPoint(0.5 * base, 1.6), L"satisfactory", "k:C");
  if (x_lo < -3 * dx) gr.Putsw(mglPoint(x_lo + dx, 0.5 * (1.0 + top)), L"sluggish", "k:L");
  gr.Putsw(mglPoint(base + 0.45 * (x_hi - base), 0.75), L"abrupt, bobble tendency", "k:C");
  gr.Putsw(mglPoint(x_lo + dx, top + 0.25), L"continuous bobbling", "k:L");
  for (const Point& p : points) {
    mglData px(1), py(1);
    px.a[0] = p.d->dropback_ratio;
    py.a[0] = p.d->overshoot;
    gr.SetMarkSize(2.0);
    gr.Plot(px, py, p.mark);
    // Labels beside the point, the bare one below and the augmented one above
    // it, so two close points keep readable names.
    const bool right = p.d->dropback_ratio < 0.7 * x_hi;
    const double dy = (&p == &points.front() ? -0.04 : 0.04) * (y_hi - y_lo);
    gr.Putsw(mglPoint(p.d->dropback_ratio + (right ? 2 : -2) * dx, p.d->overshoot + dy),
             internal::Widen(p.who).c_str(), right ? "k:L" : "k:R");
  }
  internal::WriteCanvas(gr, path);
}

void PlotDutchRollChart(const analysis::ModalSummary& modes, const QualitiesGrade& grade,
                        const PlotOptions& options, const std::string& path) {
  const RequirementResult* zeta = Find(grade, analysis::ModeKind::kDutchRoll, "zeta");
  const RequirementResult* rate = Find(grade, analysis::ModeKind::kDutchRoll, "zeta*wn");
  const RequirementResult* freq = Find(grade, analysis::ModeKind::kDutchRoll, "wn");
  if (zeta == nullptr || rate == nullptr || freq == nullptr || !modes.dutch_roll)
    throw std::invalid_argument(path + ": the grade has no Dutch-roll requirements");
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;

  const double wn = modes.dutch_roll->natural_frequency();
  const double z = modes.dutch_roll->damping_ratio();
  const Level level = grade.LevelOf(analysis::ModeKind::kDutchRoll).value_or(Level::k4);
  std::string text = fmt::format("\\zeta = {}, \\omega_n = {} rad/s, \\zeta\\omega_n = {} rad/s",
                                 Number(z), Number(wn), Number(z * wn));
  if (modes.dutch_roll_phi_beta)
    text += fmt::format(", \\omega_n^2|\\phi/\\beta| = {} rad^2/s^2",
                        Number(wn * wn * *modes.dutch_roll_phi_beta));
  const Frame frame =
      Layout(gr, options, "Dutch roll (MIL-F-8785C 3.3.1.1, Table VI)",
             Heading(grade, "minimum \\zeta, \\zeta\\omega_n and \\omega_n"),
             internal::Widen(text + ": ") + LevelName(level));

  const bool point_shown = wn > 0.0 && std::isfinite(z);
  const double x_hi = std::max(3.0, point_shown ? 1.3 * wn : 0.0);
  const double y_lo = point_shown ? std::min(0.0, 1.3 * z) : 0.0;
  const double y_hi = std::max(0.8, point_shown ? 1.3 * z : 0.0);
  // 3.3.1.1: ζd ≥ 0.7 meets any ζd·ωnd minimum for Class III (as Grade()).
  const bool class_iii = grade.aircraft_class == analysis::AircraftClass::kIII;
  // Level k: ωn ≥ ωmin and ζ ≥ max(ζmin, (ζω)min/ωn), the second capped at
  // 0.7 for Class III; no upper limit.
  constexpr int kSamples = 600;
  std::array<Band, 3> bands;
  for (int k = 0; k < 3; ++k) {
    Band& b = bands[k];
    const double w_min = freq->limits[k].min.value_or(0.0);
    if (w_min >= x_hi) continue;
    for (double w : Spaced(std::max(w_min, x_hi * 1e-4), x_hi, kSamples, false)) {
      double lo = zeta->limits[k].min.value_or(y_lo);
      if (rate->limits[k].min) {
        double needed = *rate->limits[k].min / w;
        if (class_iii) needed = std::min(needed, 0.7);
        lo = std::max(lo, needed);
      }
      b.x.push_back(w);
      b.lo.push_back(std::clamp(lo, y_lo, y_hi));
      b.hi.push_back(y_hi);
    }
  }

  internal::InPanel(gr, frame.plot, kPanelFontSize);
  gr.SetRanges(0.0, x_hi, y_lo, y_hi);
  gr.SetOrigin(0.0, y_lo);
  gr.SetTicks('x', core::NiceCeil(x_hi / 6.0), 0, 0.0);
  DrawLevels(gr, bands, 0.0, x_hi, y_lo, y_hi);
  gr.Grid("xy", "{x909090}:");
  gr.Box("k", false);
  gr.Axis("xy");
  gr.Label('x', L"\\omega_{n,d}, rad/s", 0);
  gr.Label('y', L"\\zeta_d", 0);
  if (point_shown) {
    Level chart_level = Level::k1;
    for (const RequirementResult* r : {zeta, rate, freq})
      if (analysis::ToInt(r->level) > analysis::ToInt(chart_level)) chart_level = r->level;
    MarkPoint(gr, wn, z, chart_level, wn < 0.7 * x_hi, 0.02 * x_hi);
  }
  DrawKey(gr, frame.key);
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
