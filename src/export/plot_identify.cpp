// The identification figure (plot_identify.hpp, PlotIdentify).

#include "aerolin/export/plot_identify.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_geometry.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "display_units.hpp"
#include "mathgl_canvas.hpp"

namespace aerolin::exporting {
namespace {

constexpr double kTitleFontSize = 1.4;
// tab10 grey, blue, orange, red: the measured flight thin and grey under the
// models; the start model and the ±2σ lines dashed, so they part in grey too.
constexpr const char* kMeasuredPen = "{x7F7F7F}1";
constexpr const char* kIdentifiedPen = "{x1F77B4}2";
constexpr const char* kStartPen = "{xFF7F0E};2";
constexpr const char* kResidualPen = "{x7F7F7F}1";
constexpr const char* kSigmaPen = "{xD62728};2";

// The output's symbol as MathGL text: a Greek name as its TeX command.
std::wstring Symbol(const core::Signal& s) {
  const bool ascii = std::all_of(s.symbol.begin(), s.symbol.end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return internal::Widen(ascii ? s.symbol : "\\" + s.name);
}

std::vector<double> Scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out(v.size());
  std::transform(v.begin(), v.end(), out.begin(), [factor](double x) { return factor * x; });
  return out;
}

// Draws one panel's axes for x in [t0, t1] and y in `y`, labelled `y_label`.
void Axes(mglGraph& gr, double t0, double t1, AxisRange y, const std::wstring& y_label, bool bottom_row) {
  gr.SetRanges(t0, t1, y.min, y.max);
  gr.SetOrigin(t0, y.min);
  gr.SetTicks('x', core::NiceCeil((t1 - t0) / 6.0), 0, t0);
  const double y_step = CoarsestTickStep(y.min, y.max, 3);
  gr.SetTicks('y', y_step, 0, 0.0);
  gr.SetTickTempl('x', "%g");
  gr.SetTickTempl('y', "%g");
  internal::DrawFrame(gr);
  internal::LabelYClearOfTicks(gr, y_label, internal::WidestTickLabelPx(gr, y.min, y.max, y_step));
  if (bottom_row) gr.Label('x', L"time from the first sample, s", 0);
}

void Plot(mglGraph& gr, const study::ResponseSeries& s, double factor, const char* pen) {
  gr.Plot(internal::Data(s.t), internal::Data(Scaled(s.value, factor)), pen);
}

}  // namespace

std::vector<std::string> IdentifyFigurePaths(const std::string& prefix, const std::string& format) {
  return {prefix + "_identify." + format};
}

void PlotIdentify(const study::IdentifyResponses& responses, study::IdentifyMethod method,
                  const PlotOptions& options, const std::string& path) {
  if (responses.outputs.empty() ||
      std::any_of(responses.outputs.begin(), responses.outputs.end(),
                  [](const study::OutputResponse& o) { return o.measured.t.empty(); }))
    throw std::invalid_argument(path + ": no identified responses to plot");
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;
  const double text_scale = internal::SmallImageTextScale(gr);
  const int rows = static_cast<int>(responses.outputs.size());
  GridLayout layout = HistoryLayout(rows, 2);
  layout.left_margin = 0.065 * text_scale + 0.01;
  layout.bottom_margin = 0.03 + 0.03 * text_scale;
  layout.top_margin = 0.03 * text_scale;  // σ above each residual panel
  layout.grid_bottom = 0.11 + 0.1 * (text_scale - 1.0);

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);
  gr.Putsw(0.5, 0.5 * (1.0 + layout.title_bottom),
           internal::FigureTitle(options, "identified from the flight: responses and residuals").c_str(), ":AC",
           internal::kTitleScale);

  double t0 = 0.0, t1 = 0.0;
  for (const study::OutputResponse& o : responses.outputs) t1 = std::max(t1, o.measured.t.back());
  t1 = std::max(t1, t0 + 1e-9);
  for (int row = 0; row < rows; ++row) {
    const study::OutputResponse& o = responses.outputs[static_cast<std::size_t>(row)];
    const DisplayUnit unit = DisplayUnitOf(o.signal.unit, core::UnitSystem::kSI, true);
    const std::wstring unit_name = internal::Widen(unit.name);
    const bool bottom = row == rows - 1;
    // Left: the flight and the two models.
    PanelRect r = layout.Cell(row, 0);
    internal::InPanel(gr, r, text_scale * 1.4 / (1.55 * std::max(r.y1 - r.y0, 0.12)));
    Axes(gr, t0, t1,
         PaddedRange({Scaled(o.measured.value, unit.per_si), Scaled(o.identified.value, unit.per_si),
                      Scaled(o.start.value, unit.per_si)}),
         Symbol(o.signal) + L", " + unit_name, bottom);
    Plot(gr, o.measured, unit.per_si, kMeasuredPen);
    Plot(gr, o.start, unit.per_si, kStartPen);
    Plot(gr, o.identified, unit.per_si, kIdentifiedPen);
    // Right: the residual and ±2σ.
    r = layout.Cell(row, 1);
    internal::InPanel(gr, r, text_scale * 1.4 / (1.55 * std::max(r.y1 - r.y0, 0.12)));
    const double band = 2.0 * o.sigma * unit.per_si;
    const AxisRange y = PaddedRange({Scaled(o.residual.value, unit.per_si), {-band, band}});
    Axes(gr, t0, t1, y, L"residual, " + unit_name, bottom);
    Plot(gr, o.residual, unit.per_si, kResidualPen);
    for (const double level : {-band, band}) gr.Line(mglPoint(t0, level), mglPoint(t1, level), kSigmaPen);
    // σ above the panel's top right corner, clear of the curves.
    const internal::PanelMap map = internal::MapPanel(gr, {t0, t1}, y);
    const double line_px = internal::TextSizePx(gr, L"0")[1];
    gr.Putsw(map.ToData(map.box.x1, internal::BaselineForInkBox(map.box.y1 + 0.4 * line_px, line_px)),
             (Symbol(o.signal) + internal::Widen(fmt::format(": σ = {:.3g} {}", o.sigma * unit.per_si, unit.name)))
                 .c_str(),
             "k:R");
  }

  // Under the panels: a legend under each column, and what the start model is.
  const PanelRect strip{0.02, 0.98, 0.005, layout.grid_bottom};
  internal::InPanel(gr, strip, text_scale * 1.4 / (1.55 * (strip.y1 - strip.y0)));
  gr.SetRanges(0, 1, 0, 1);
  const internal::PanelMap map = internal::MapPanel(gr, {0, 1}, {0, 1});
  const std::vector<internal::LegendEntry> left = {
      {L"measured", kMeasuredPen}, {L"identified model", kIdentifiedPen}, {L"start model", kStartPen}};
  const std::vector<internal::LegendEntry> right = {{L"residual: measured − identified", kResidualPen},
                                                    {L"±2σ (σ: the residual RMS)", kSigmaPen}};
  const std::array<double, 2> left_size = internal::LegendSizePx(gr, left);
  const std::array<double, 2> right_size = internal::LegendSizePx(gr, right);
  const double top = map.box.y1;
  const double left_x = map.box.x0 + (layout.Cell(0, 0).x0 - strip.x0) / (strip.x1 - strip.x0) * map.box.width();
  const double right_x = map.box.x0 + (layout.Cell(0, 1).x0 - strip.x0) / (strip.x1 - strip.x0) * map.box.width();
  internal::DrawLegend(gr, map, {left_x, left_x + left_size[0], top - left_size[1], top}, left);
  internal::DrawLegend(gr, map, {right_x, right_x + right_size[0], top - right_size[1], top}, right);
  std::vector<std::string> notes =
      method == study::IdentifyMethod::kOutputError && !responses.from_first_sample
          ? std::vector<std::string>{"start model: the free keys' start values,", "x0 and biases as identified"}
          : std::vector<std::string>{"both models start at the first sample,", "without output biases"};
  const double line_px = internal::TextSizePx(gr, L"0")[1] * 1.5;
  auto write = [&](double x, double below, std::size_t k, const std::string& text) {
    const mglPoint at = map.ToData(x, internal::BaselineForInkBox(top - below - (k + 1.2) * line_px, line_px / 1.5));
    gr.Putsw(at, internal::Widen(text).c_str(), "k:L");
  };
  for (std::size_t k = 0; k < notes.size(); ++k) write(right_x, right_size[1], k, notes[k]);
  // A thinned flight: said under the curves' legend.
  if (responses.bucket > 1)
    write(left_x, left_size[1], 0, fmt::format("{} samples a bucket: its least and greatest drawn", responses.bucket));
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
