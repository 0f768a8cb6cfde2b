// The s-plane figure (plot.hpp, PlotSPlane).

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_colours.hpp"
#include "aerolin/export/plot_geometry.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting {
namespace {

// MathGL font sizes of the title (whole image) and of the two tall panels,
// tuned by eye to match the time-history figure.
constexpr double kTitleFontSize = 1.4;
constexpr double kPanelFontSize = 2.5;
// The legend table below the views: longitudinal modes left, lateral right.
constexpr double kLegendTop = 0.25;  // fraction of the image height (SPlaneLayout)
constexpr double kLegendMarkSize = 3.0;

struct Root {
  const analysis::Mode* mode;
  bool longitudinal;
  std::string colour;  ///< MathGL pen colour (plot_colours.hpp)
};

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
  return r.colour + (r.longitudinal ? " o#" : " s#");
}

bool Inside(const SPlaneWindow& w, std::complex<double> l) {
  return l.real() >= w.re.min && l.real() <= w.re.max &&
         l.imag() >= w.im.min && l.imag() <= w.im.max;
}

constexpr const char* kGridPen = "{xC8C8C8}1";    // the sgrid lines, light grey
constexpr const char* kGridTextColour = "{x909090}";
constexpr double kGridTextScale = 0.7;             // grid labels, relative size
constexpr const char* kLeaderPen = "{x808080}1";
constexpr double kMarkSize = 1.0;                  // MathGL mark size of the roots
constexpr double kMarkerRadiusPx = 7.0;            // what a root's mark covers [px]

// The constant-ζ rays and constant-ωn arcs (left half-plane) of `w`, light
// grey, with small labels that avoid the roots' marks; returns the boxes of
// the labels drawn, for the mode labels to avoid.
std::vector<PixelBox> DrawSGrid(mglGraph& gr, const SPlaneView& view,
                                const std::vector<PixelBox>& marks) {
  const SPlaneWindow& w = view.window;
  const SPlaneGrid grid = SPlaneGridOf(w);
  std::vector<PixelBox> drawn;
  const auto put_label = [&](std::complex<double> at, const std::wstring& text, bool right) {
    const std::array<double, 2> size = internal::TextSizePx(gr, text, kGridTextScale);
    const std::array<double, 2> p = view.ToPixels(at);
    const double x0 = right ? p[0] + 3.0 : p[0] - 3.0 - size[0];
    const PixelBox box{x0, x0 + size[0], p[1] - 0.5 * size[1], p[1] + 0.5 * size[1]};
    if (!Contains(view.box, box)) return;
    for (const PixelBox& b : marks)
      if (Overlaps(box, b)) return;
    // Grid labels keep a few pixels apart from each other.
    const PixelBox padded{box.x0 - 6.0, box.x1 + 6.0, box.y0 - 2.0, box.y1 + 2.0};
    for (const PixelBox& b : drawn)
      if (Overlaps(padded, b)) return;
    drawn.push_back(box);
    const double fx = (box.x0 - view.box.x0) / view.box.width();
    const double fy = (internal::BaselineForInkBox(box.y0, size[1]) - view.box.y0) /
                      view.box.height();
    gr.Putsw(mglPoint(w.re.min + fx * (w.re.max - w.re.min),
                      w.im.min + fy * (w.im.max - w.im.min)),
             text.c_str(), (std::string(kGridTextColour) + ":L").c_str(), -kGridTextScale);
  };
  // Clipped here: MathGL's Line does not clip to the axes.
  for (const double zeta : grid.zetas)
    if (const auto exit = RayLabelPoint(zeta, w)) {
      const std::complex<double> end = *exit / 0.95;
      gr.Line(mglPoint(0, 0), mglPoint(end.real(), end.imag()), kGridPen);
      if (w.im.min <= -end.imag())
        gr.Line(mglPoint(0, 0), mglPoint(end.real(), -end.imag()), kGridPen);
    }
  constexpr int kArcPoints = 181;
  for (const double wn : grid.natural_frequencies) {
    mglData x(kArcPoints), y(kArcPoints);
    for (int k = 0; k < kArcPoints; ++k) {
      const double angle = std::numbers::pi / 2.0 + std::numbers::pi * k / (kArcPoints - 1);
      const std::complex<double> p = std::polar(wn, angle);
      // NaN breaks the line outside the window.
      const bool inside = Inside(w, p);
      x.a[k] = inside ? p.real() : NAN;
      y.a[k] = inside ? p.imag() : NAN;
    }
    gr.Plot(x, y, kGridPen);
  }
  // Labels after the lines: ζ where each ray leaves the window, ωn below the
  // negative real axis where each circle crosses it.
  for (const double zeta : grid.zetas)
    if (const auto at = RayLabelPoint(zeta, w))
      put_label(*at, internal::Widen(fmt::format("\u03b6 = {:g}", zeta)), true);
  for (const double wn : grid.natural_frequencies)
    put_label({-wn, -0.03 * (w.im.max - w.im.min)},
              internal::Widen("\u03c9n = " + Number(wn)), false);
  return drawn;
}

// Draws one view; modes inside `labelled_elsewhere` get a marker but no name
// (the zoomed view names them).
void DrawView(mglGraph& gr, const std::vector<Root>& roots, const PanelRect& rect,
              const SPlaneWindow& w, const std::wstring& caption,
              const std::optional<SPlaneWindow>& labelled_elsewhere) {
  internal::InPanel(gr, rect, kPanelFontSize);
  gr.SetRanges(w.re.min, w.re.max, w.im.min, w.im.max);
  gr.SetOrigin(w.re.min, w.im.min);
  gr.SetTicks('x', core::NiceCeil((w.re.max - w.re.min) / 6.0), 0, 0.0);
  gr.SetTicks('y', core::NiceCeil((w.im.max - w.im.min) / 6.0), 0, 0.0);
  gr.SetTickTempl('x', "%g");
  gr.SetTickTempl('y', "%g");
  gr.SetMarkSize(kMarkSize);
  const SPlaneView view{w, internal::MapPanel(gr, w.re, w.im).box};

  std::vector<std::complex<double>> marks;
  for (const Root& r : roots) {
    const std::complex<double> l = r.mode->lambda;
    if (!Inside(w, l)) continue;
    marks.push_back(l);
    if (r.mode->oscillatory) marks.push_back(std::conj(l));
  }
  std::vector<PixelBox> mark_boxes;
  for (const std::complex<double>& m : marks)
    mark_boxes.push_back(MarkerBox(view.ToPixels(m), kMarkerRadiusPx));

  const std::vector<PixelBox> grid_text = DrawSGrid(gr, view, mark_boxes);
  // The axes of the complex plane; Re λ = 0 is the stability boundary.
  gr.Line(mglPoint(0, w.im.min), mglPoint(0, w.im.max), "k1");
  gr.Line(mglPoint(w.re.min, 0), mglPoint(w.re.max, 0), "k1");
  gr.Box("k", false);
  // Tick labels horizontal, the axis label along the axis.
  gr.SetRotatedText(false);
  gr.Axis("xy");
  gr.SetRotatedText(true);
  gr.Label('x', L"Re \\lambda, 1/s", 0);
  internal::LabelYClearOfTicks(
      gr, L"Im \\lambda, rad/s",
      internal::WidestTickLabelPx(gr, w.im.min, w.im.max, core::NiceCeil((w.im.max - w.im.min) / 6.0)));
  gr.Putsw(mglPoint(0.5 * (w.re.min + w.re.max),
                    w.im.max + 0.025 * (w.im.max - w.im.min)),
           caption.c_str(), ":C");

  // Labels of the upper pair members and real roots inside this window.
  std::vector<std::complex<double>> named;
  std::vector<std::array<double, 2>> sizes;
  std::vector<std::wstring> texts;
  for (const Root& r : roots) {
    const std::complex<double> l = r.mode->lambda;
    const std::string pen = Pen(r);
    for (const double sign : {1.0, -1.0}) {
      if (sign < 0 && !r.mode->oscillatory) break;
      mglData x(1), y(1);
      x.a[0] = l.real();
      y.a[0] = sign * l.imag();
      gr.Plot(x, y, pen.c_str());
    }
    if (Inside(w, l) && !(labelled_elsewhere && Inside(*labelled_elsewhere, l))) {
      named.push_back({l.real(), std::abs(l.imag())});
      texts.push_back(internal::Widen(r.mode->full_name()));
      sizes.push_back(internal::TextSizePx(gr, texts.back()));
    }
  }
  const std::vector<LabelPlacement> placed =
      LayoutSPlaneLabels(view, named, sizes, marks, kMarkerRadiusPx, grid_text);
  const auto to_data = [&](double px, double py) {
    return mglPoint(w.re.min + (px - view.box.x0) / view.box.width() * (w.re.max - w.re.min),
                    w.im.min + (py - view.box.y0) / view.box.height() * (w.im.max - w.im.min));
  };
  for (std::size_t i = 0; i < placed.size(); ++i) {
    const PixelBox& b = placed[i].box;
    if (placed[i].leader) {
      // From the marker's edge to the nearest point of the label's box.
      const std::array<double, 2> a = view.ToPixels(named[i]);
      const double tx = std::clamp(a[0], b.x0, b.x1), ty = std::clamp(a[1], b.y0, b.y1);
      const double len = std::hypot(tx - a[0], ty - a[1]);
      if (len > kMarkerRadiusPx) {
        const double k = kMarkerRadiusPx / len;
        gr.Line(to_data(a[0] + k * (tx - a[0]), a[1] + k * (ty - a[1])), to_data(tx, ty),
                kLeaderPen);
      }
    }
    gr.Putsw(to_data(b.x0, internal::BaselineForInkBox(b.y0, b.height())), texts[i].c_str(),
             ":L");
  }
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
  for (const analysis::Mode& m : lon) roots.push_back({&m, true, MglColour(ModeColour(m.kind))});
  for (const analysis::Mode& m : lat) roots.push_back({&m, false, MglColour(ModeColour(m.kind))});
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
  const GridLayout layout = SPlaneLayout(zoom ? 2 : 1);
  DrawView(gr, roots, layout.Cell(0, 0), FullSPlaneWindow(lambdas), L"all modes", zoom);
  if (zoom)
    DrawView(gr, roots, layout.Cell(0, 1), *zoom, L"zoom on the slow modes", std::nullopt);
  DrawLegendTable(gr, roots, {0.04, 0.98, 0.01, kLegendTop - 0.06});
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
