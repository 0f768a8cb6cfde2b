// The s-plane figure (plot.hpp, PlotSPlane).

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_geometry.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting {
namespace {

// MathGL font sizes of the title (whole image) and of the two tall panels,
// tuned by eye to match the time-history figure.
constexpr double kTitleFontSize = 1.4;
constexpr double kPanelFontSize = 2.5;
// The legend table below the views: longitudinal modes left, lateral right.
constexpr double kLegendTop = 0.25;  // fraction of the image height
constexpr double kLegendMarkSize = 3.0;

struct Root {
  const analysis::Mode* mode;
  bool longitudinal;
  const char* colour;
};

const char* ColourOf(analysis::ModeKind kind) {
  switch (kind) {
    case analysis::ModeKind::kShortPeriod: return "{x1F77B4}";
    case analysis::ModeKind::kPhugoid: return "{x17BECF}";
    case analysis::ModeKind::kDutchRoll: return "{xD62728}";
    case analysis::ModeKind::kRollSubsidence: return "{xFF7F0E}";
    case analysis::ModeKind::kSpiral: return "{x9467BD}";
    case analysis::ModeKind::kRollSpiral: return "{x8C564B}";
    case analysis::ModeKind::kHeading: return "{x7F7F7F}";
  }
  return "k";
}

std::string Number(double v) {
  // MathGL's TeX parser shows '-' as a hyphen; a real minus reads better.
  std::string s = fmt::format("{:.3g}", v);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

std::wstring LegendText(const analysis::Mode& m) {
  std::string text = m.full_name() + ": " + Number(m.lambda.real());
  if (m.oscillatory)
    text += " \u00b1 " + Number(std::abs(m.lambda.imag())) + "i, \u03b6 = " +
            Number(m.damping_ratio);
  return internal::Widen(text);
}

std::string Pen(const Root& r) {
  // No line (space), a filled mark: circles longitudinal, squares lateral.
  return std::string(r.colour) + (r.longitudinal ? " o#" : " s#");
}

bool Inside(const SPlaneWindow& w, std::complex<double> l) {
  return l.real() >= w.re.min && l.real() <= w.re.max &&
         l.imag() >= w.im.min && l.imag() <= w.im.max;
}

// Draws one view; modes inside `labelled_elsewhere` get a marker but no name
// (the zoomed view names them).
void DrawView(mglGraph& gr, const std::vector<Root>& roots,
              const SPlaneWindow& w, const std::wstring& caption,
              const std::optional<SPlaneWindow>& labelled_elsewhere) {
  gr.SetRanges(w.re.min, w.re.max, w.im.min, w.im.max);
  gr.SetOrigin(w.re.min, w.im.min);
  gr.SetTicks('x', core::NiceCeil((w.re.max - w.re.min) / 6.0), 0, 0.0);
  gr.SetTicks('y', core::NiceCeil((w.im.max - w.im.min) / 6.0), 0, 0.0);
  gr.SetTickTempl('x', "%g");
  gr.SetTickTempl('y', "%g");
  gr.Grid("xy", "{xD0D0D0}:");
  // The axes of the complex plane; Re λ = 0 is the stability boundary.
  gr.Line(mglPoint(0, w.im.min), mglPoint(0, w.im.max), "k1");
  gr.Line(mglPoint(w.re.min, 0), mglPoint(w.re.max, 0), "k1");
  gr.Box("k", false);
  gr.Axis("xy");
  gr.Label('x', L"Re \\lambda, 1/s", 0);
  gr.Label('y', L"Im \\lambda, rad/s", 0);
  gr.Putsw(mglPoint(0.5 * (w.re.min + w.re.max),
                    w.im.max + 0.025 * (w.im.max - w.im.min)),
           caption.c_str(), ":C");

  // Labels of the upper pair members and real roots inside this window.
  std::vector<std::array<double, 2>> anchors;
  std::vector<const Root*> labelled;
  const double dx = w.re.max - w.re.min;
  const double dy = w.im.max - w.im.min;
  for (const Root& r : roots) {
    const std::complex<double> l = r.mode->lambda;
    const bool inside =
        Inside(w, l) && !(labelled_elsewhere && Inside(*labelled_elsewhere, l));
    const std::string pen = Pen(r);
    for (const double sign : {1.0, -1.0}) {
      if (sign < 0 && !r.mode->oscillatory) break;
      mglData x(1), y(1);
      x.a[0] = l.real();
      y.a[0] = sign * l.imag();
      gr.Plot(x, y, pen.c_str());
    }
    if (inside) {
      anchors.push_back({l.real(), l.imag() + 0.035 * dy});
      labelled.push_back(&r);
    }
  }
  constexpr double kLabelWidthFraction = 0.25;  // a typical mode name
  constexpr double kLabelHeightFraction = 0.05;
  const std::vector<double> label_y =
      SpreadLabels(anchors, kLabelWidthFraction * dx, kLabelHeightFraction * dy);
  for (std::size_t i = 0; i < labelled.size(); ++i)
    gr.Putsw(mglPoint(anchors[i][0] + 0.015 * dx, label_y[i]),
             internal::Widen(labelled[i]->mode->full_name()).c_str(), ":L");
}

// A legend as a two-column table under the views, so it never hides a root:
// longitudinal modes (circles) left, lateral-directional (squares) right.
void DrawLegendTable(mglGraph& gr, const std::vector<Root>& roots,
                     const PanelRect& rect) {
  // Text scales with the panel height; this strip is about 1/3.5 as tall.
  internal::InPanel(gr, rect, kPanelFontSize * 3.0);
  gr.SetRanges(0, 1, 0, 1);
  gr.SetMarkSize(kLegendMarkSize);  // marks shrink with the strip's height too
  std::array<int, 2> count = {0, 0};
  for (const Root& r : roots) ++count[r.longitudinal ? 0 : 1];
  const int rows = std::max(count[0], count[1]) + 1;  // + the heading
  const double row_h = 1.0 / rows;
  const std::array<const wchar_t*, 2> headings = {
      L"\\b{longitudinal modes} (circles)",
      L"\\b{lateral-directional modes} (squares)"};
  for (int c = 0; c < 2; ++c)
    gr.Putsw(mglPoint(0.5 * c, 1.0 - 0.5 * row_h), headings[c], ":L");
  std::array<int, 2> row = {1, 1};
  for (const Root& r : roots) {
    const int c = r.longitudinal ? 0 : 1;
    const double y = 1.0 - (row[c]++ + 0.5) * row_h;
    mglData x(1), yd(1);
    x.a[0] = 0.5 * c + 0.012;
    yd.a[0] = y;
    gr.Plot(x, yd, Pen(r).c_str());
    gr.Putsw(mglPoint(0.5 * c + 0.03, y), LegendText(*r.mode).c_str(), ":L");
  }
}

}  // namespace

void PlotSPlane(const std::vector<analysis::Mode>& lon,
                const std::vector<analysis::Mode>& lat,
                const PlotOptions& options, const std::string& path) {
  if (lon.empty() && lat.empty())
    throw std::invalid_argument(path + ": no modes to plot");
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;

  std::vector<Root> roots;
  std::vector<std::complex<double>> lambdas;
  for (const analysis::Mode& m : lon) roots.push_back({&m, true, ColourOf(m.kind)});
  for (const analysis::Mode& m : lat) roots.push_back({&m, false, ColourOf(m.kind)});
  for (const Root& r : roots) {
    lambdas.push_back(r.mode->lambda);
    lambdas.push_back(std::conj(r.mode->lambda));
  }

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);
  constexpr double kTitleBottom = 0.93;
  gr.Putsw(0.5, 0.5 * (1.0 + kTitleBottom),
           internal::FigureTitle(options, "eigenvalues (s-plane)").c_str(),
           ":AC", internal::kTitleScale);

  const std::optional<SPlaneWindow> zoom = SlowModeWindow(lambdas);
  GridLayout layout = HistoryLayout(1, zoom ? 2 : 1);
  layout.title_bottom = kTitleBottom;
  layout.bottom_margin = 0.08;
  layout.top_margin = 0.04;  // room for each view's caption
  layout.grid_bottom = kLegendTop;
  internal::InPanel(gr, layout.Cell(0, 0), kPanelFontSize);
  DrawView(gr, roots, FullSPlaneWindow(lambdas),
           L"all modes", zoom);
  if (zoom) {
    internal::InPanel(gr, layout.Cell(0, 1), kPanelFontSize);
    DrawView(gr, roots, *zoom, L"zoom on the slow modes", std::nullopt);
  }
  DrawLegendTable(gr, roots, {0.04, 0.98, 0.01, kLegendTop - 0.06});
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
