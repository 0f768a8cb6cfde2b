// The Bode figure (plot.hpp, PlotBode).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/frequency_report.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "mathgl_canvas.hpp"

namespace aerolin::exporting {
namespace {

// One colour per output (matplotlib tab10, as the time histories).
constexpr std::array<const char*, 4> kCurveColours = {"{x1F77B4}", "{xD62728}", "{x2CA02C}",
                                                      "{xFF7F0E}"};
constexpr const char* kModeLineColour = "{x7F7F7F}";
constexpr double kTitleFontSize = 1.4;

// MathGL font size of a panel of `rect`: tick labels of the same pixel size in
// every panel (text scales with the panel's height).
// Times SmallImageTextScale: readable at 800 × 600.
double PanelFont(mglGraph& gr, const PanelRect& rect) {
  return internal::SmallImageTextScale(gr) * 1.4 / (1.55 * (rect.y1 - rect.y0));
}

std::string Num(double v) {
  std::string s = fmt::format("{:.3g}", v);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

std::wstring OutputSymbol(const core::Signal& s) {
  const bool ascii = std::all_of(s.symbol.begin(), s.symbol.end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return internal::Widen(ascii ? s.symbol : "\\" + s.name);
}

// Decade ticks of a log axis: MathGL's own picks for lg(x) are fine but label
// them 10^k; write plain numbers instead.
void LogFrequencyAxis(mglGraph& gr, double w0, double w1) {
  gr.SetFunc("lg(x)", "");
  const int k0 = static_cast<int>(std::ceil(std::log10(w0) - 1e-9));
  const int k1 = static_cast<int>(std::floor(std::log10(w1) + 1e-9));
  std::vector<double> ticks;
  std::wstring labels;
  for (int k = k0; k <= k1; ++k) {
    ticks.push_back(std::pow(10.0, k));
    labels += internal::Widen(fmt::format("{:g}", std::pow(10.0, k))) + L"\n";
  }
  if (ticks.empty()) {
    gr.SetTicks('x', 0);
    return;
  }
  mglData t(static_cast<long>(ticks.size()));
  for (std::size_t i = 0; i < ticks.size(); ++i) t.a[i] = ticks[i];
  gr.SetTicksVal('x', t, labels.c_str());
}

AxisRange SnappedRange(double lo, double hi, double step) {
  if (!(lo <= hi)) return {-step, step};
  double a = step * std::floor(lo / step), b = step * std::ceil(hi / step);
  if (b - a < step) b = a + step;
  return {a, b};
}

}  // namespace

void PlotBode(const analysis::BodeDiagram& diagram, const PlotOptions& options,
              const std::string& path) {
  if (diagram.curves.empty() || diagram.curves.front().points.empty())
    throw std::invalid_argument(path + ": no Bode data to plot");
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;

  const std::vector<analysis::BodePoint>& first = diagram.curves.front().points;
  const double w0 = first.front().omega, w1 = first.back().omega;
  double db_lo = std::numeric_limits<double>::infinity(), db_hi = -db_lo;
  double ph_lo = db_lo, ph_hi = -db_lo;
  for (const analysis::BodeCurve& c : diagram.curves)
    for (const analysis::BodePoint& p : c.points) {
      if (std::isfinite(p.magnitude_db)) {
        db_lo = std::min(db_lo, p.magnitude_db);
        db_hi = std::max(db_hi, p.magnitude_db);
      }
      ph_lo = std::min(ph_lo, p.phase_deg);
      ph_hi = std::max(ph_hi, p.phase_deg);
    }
  const double db_step = core::NiceCeil(std::max(db_hi - db_lo, 1.0) / 6.0);
  AxisRange db = SnappedRange(db_lo, db_hi, db_step);
  db.max += 2 * db_step;  // room for the mode names above the curves
  const double ph_step = ph_hi - ph_lo > 360.0 ? 90.0 : 45.0;
  const AxisRange ph = SnappedRange(ph_lo, ph_hi, ph_step);

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);
  constexpr double kTitleBottom = 0.93;
  std::string outputs;
  for (const analysis::BodeCurve& c : diagram.curves)
    outputs += (outputs.empty() ? "" : ", ") + c.tf.output.name;
  gr.Putsw(0.5, 0.5 * (1.0 + kTitleBottom),
           internal::FigureTitle(options, "Bode diagram, " + outputs + " / " + diagram.input.name)
               .c_str(),
           ":AC", internal::kTitleScale);

  // The legend: one entry per output, with its bandwidth and resonances. It
  // gets a strip of its own under the phase panel (BodeLayoutOf), as tall as
  // its rows measure in that strip's font; text too wide for the strip is set
  // smaller.
  std::vector<internal::LegendEntry> legend;
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const analysis::BodeCurve& c = diagram.curves[k];
    std::wstring text = OutputSymbol(c.tf.output) + L"/" + internal::Widen(c.tf.input.name) + L", dB re 1 " +
                        internal::Widen(GainUnit(c.tf.output, c.tf.input, core::UnitSystem::kSI));
    if (c.bandwidth) text += L"; bandwidth " + internal::Widen(Num(*c.bandwidth)) + L" rad/s";
    for (const analysis::NamedResonance& r : c.resonances)
      text += L"; " + internal::Widen(r.name) + L" peak " + internal::Widen(Num(r.resonance.magnitude_db)) +
              L" dB at " + internal::Widen(Num(r.resonance.omega)) + L" rad/s";
    legend.push_back({text, std::string(kCurveColours[k % kCurveColours.size()]) + "2"});
  }
  // Legend text as tall as the tick labels (smaller only if too wide for the
  // strip); text size is linear in the font size within one panel.
  const BodeLayout provisional = BodeLayoutOf(0.1);
  internal::InPanel(gr, provisional.magnitude, PanelFont(gr, provisional.magnitude));
  const double tick_px = internal::TextSizePx(gr, L"0")[1];
  internal::InPanel(gr, provisional.legend, PanelFont(gr, provisional.legend));
  gr.SetRanges(0, 1, 0, 1);
  const double strip_px = internal::MapPanel(gr, {0, 1}, {0, 1}).box.width();
  const double measured_px = internal::TextSizePx(gr, L"0")[1];
  const std::array<double, 2> measured = internal::LegendSizePx(gr, legend);
  const double text_px = tick_px * std::min(1.0, strip_px / (measured[0] * tick_px / measured_px));
  const BodeLayout layout = BodeLayoutOf(measured[1] * text_px / measured_px / gr.GetHeight());
  internal::InPanel(gr, layout.legend, PanelFont(gr, layout.legend));
  const double legend_font = PanelFont(gr, layout.legend) * text_px / internal::TextSizePx(gr, L"0")[1];
  const PanelRect mag_rect = layout.magnitude;
  const PanelRect ph_rect = layout.phase;

  mglData omega(static_cast<long>(first.size()));
  for (std::size_t i = 0; i < first.size(); ++i) omega.a[i] = first[i].omega;

  // Magnitude.
  internal::InPanel(gr, mag_rect, PanelFont(gr, mag_rect));
  gr.SetRanges(w0, w1, db.min, db.max);
  gr.SetOrigin(w0, db.min);
  LogFrequencyAxis(gr, w0, w1);
  gr.SetTicks('y', db_step, 0, 0.0);
  gr.SetTickTempl('y', "%g");
  gr.Grid("xy", "{xD0D0D0}:");
  gr.Box("k", false);
  gr.SetRotatedText(false);  // horizontal tick labels, the axis label along the axis
  gr.Axis("xy");
  gr.SetRotatedText(true);
  internal::LabelYClearOfTicks(gr, L"magnitude |G|, dB", internal::WidestTickLabelPx(gr, db.min, db.max, db_step));
  // Names of modes closer than kLabelDecades on the log axis (e.g. roll
  // subsidence and Dutch roll) are stacked one line apart.
  constexpr double kLabelDecades = 0.7;
  int row = 0;
  double previous = 0.0;
  for (const analysis::ModeMark& m : diagram.modes) {
    if (m.natural_frequency < w0 || m.natural_frequency > w1) continue;
    row = previous > 0.0 && std::log10(m.natural_frequency / previous) < kLabelDecades ? row + 1 : 0;
    previous = m.natural_frequency;
    gr.Line(mglPoint(m.natural_frequency, db.min), mglPoint(m.natural_frequency, db.max),
            (std::string(kModeLineColour) + ";1").c_str());
    gr.Putsw(mglPoint(m.natural_frequency, db.max - (0.04 + 0.05 * row) * (db.max - db.min)),
             internal::Widen(m.name + ", \u03c9_n = " + Num(m.natural_frequency)).c_str(),
             (std::string(kModeLineColour) + ":R").c_str(), -0.85);
  }
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const analysis::BodeCurve& c = diagram.curves[k];
    const std::string colour = kCurveColours[k % kCurveColours.size()];
    mglData mag(static_cast<long>(c.points.size()));
    for (std::size_t i = 0; i < c.points.size(); ++i)
      mag.a[i] = std::isfinite(c.points[i].magnitude_db) ? c.points[i].magnitude_db : NAN;
    gr.Plot(omega, mag, legend[k].pen.c_str());
    // Resonance peaks: filled circles; bandwidth: a diamond at the −3 dB point.
    for (const analysis::NamedResonance& r : c.resonances) {
      mglData x(1), y(1);
      x.a[0] = r.resonance.omega;
      y.a[0] = r.resonance.magnitude_db;
      gr.Plot(x, y, (colour + " o#").c_str());
    }
    if (c.bandwidth && c.tf.dc_gain) {
      mglData x(1), y(1);
      x.a[0] = *c.bandwidth;
      y.a[0] = 20.0 * std::log10(std::abs(*c.tf.dc_gain)) - 10.0 * std::log10(2.0);
      gr.Plot(x, y, (colour + " d#").c_str());
    }
  }

  // Phase.
  internal::InPanel(gr, ph_rect, PanelFont(gr, ph_rect));
  gr.SetRanges(w0, w1, ph.min, ph.max);
  gr.SetOrigin(w0, ph.min);
  LogFrequencyAxis(gr, w0, w1);
  // At most about five phase ticks, a multiple of 45°.
  const double ph_tick = 45.0 * std::max(1.0, std::ceil((ph.max - ph.min) / (45.0 * 5.0)));
  gr.SetTicks('y', ph_tick, 0, 0.0);
  gr.SetTickTempl('y', "%g");
  gr.Grid("xy", "{xD0D0D0}:");
  gr.Box("k", false);
  gr.SetRotatedText(false);
  gr.Axis("xy");
  gr.SetRotatedText(true);
  internal::LabelYClearOfTicks(gr, L"phase, deg", internal::WidestTickLabelPx(gr, ph.min, ph.max, ph_tick));
  gr.Label('x', L"frequency \\omega, rad/s", 0);
  for (const analysis::ModeMark& m : diagram.modes)
    if (m.natural_frequency >= w0 && m.natural_frequency <= w1)
      gr.Line(mglPoint(m.natural_frequency, ph.min), mglPoint(m.natural_frequency, ph.max),
              (std::string(kModeLineColour) + ";1").c_str());
  for (std::size_t k = 0; k < diagram.curves.size(); ++k) {
    const analysis::BodeCurve& c = diagram.curves[k];
    mglData phase(static_cast<long>(c.points.size()));
    for (std::size_t i = 0; i < c.points.size(); ++i) phase.a[i] = c.points[i].phase_deg;
    gr.Plot(omega, phase, (std::string(kCurveColours[k % kCurveColours.size()]) + "2").c_str());
  }
  gr.SetFunc("", "");

  internal::InPanel(gr, layout.legend, legend_font);
  gr.SetRanges(0, 1, 0, 1);
  const internal::PanelMap strip = internal::MapPanel(gr, {0, 1}, {0, 1});
  const std::array<double, 2> legend_px = internal::LegendSizePx(gr, legend);
  internal::DrawLegend(gr, strip, {strip.box.x0, strip.box.x0 + legend_px[0], strip.box.y1 - legend_px[1], strip.box.y1},
                       legend);
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
