// Figures of tracked sweeps and loci (plot_tracked.hpp).

#include "aerolin/export/plot_tracked.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_colours.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting {
namespace {

constexpr double kFontSize = 2.2;
// Height of a full-height panel (the s-plane's, the locus's ζ), as a
// fraction of the image: text of kFontSize there is the figures' size.
constexpr double kFullPanelHeight = 0.80;
// What a pole, zero or branch end marker covers [px], at MathGL mark size 0.8-2.
constexpr double kMarkerRadiusPx = 7.0;
// Gain labels on one branch at least this many text heights apart.
constexpr double kGainLabelSpacingEm = 2.0;
// Gain labels a little smaller than the tick labels (MathGL's relative size).
constexpr double kGainLabelScale = 0.85;
using Series = TrackedBranch;

std::vector<double> Re(const Series& s) {
  std::vector<double> v;
  for (const std::complex<double>& z : s.root) v.push_back(z.real());
  return v;
}

std::vector<double> Im(const Series& s) {
  std::vector<double> v;
  for (const std::complex<double>& z : s.root) v.push_back(z.imag());
  return v;
}

// Each origin's pen colour, from the one mode colour table (plot_colours.hpp).
std::map<std::string, std::string> Colours(const std::vector<Series>& series) {
  std::map<std::string, std::string> c;
  std::size_t others = 0;
  for (const Series& s : series)
    if (!c.count(s.origin)) {
      const bool named = analysis::ParseModeKind(s.origin).has_value();
      c[s.origin] = MglColour(OriginColour(s.origin, others));
      if (!named) ++others;
    }
  return c;
}

AxisRange Range(const std::vector<double>& v, bool include_zero) {
  double lo = include_zero ? 0.0 : v.front(), hi = lo;
  for (double x : v) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  if (hi - lo < 1e-12) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = 0.06 * (hi - lo);
  return {lo - pad, hi + pad};
}

void Axes(mglGraph& gr, const AxisRange& x, const AxisRange& y, const wchar_t* xl, const wchar_t* yl) {
  gr.SetRanges(x.min, x.max, y.min, y.max);
  gr.SetOrigin(x.min, y.min);
  gr.SetTicks('x', core::NiceCeil((x.max - x.min) / 6.0), 0, 0.0);
  gr.SetTicks('y', core::NiceCeil((y.max - y.min) / 6.0), 0, 0.0);
  gr.SetTickTempl('x', "%g");
  gr.SetTickTempl('y', "%g");
  gr.Grid("xy", "{xD0D0D0}:");
  gr.Box("k", false);
  gr.Axis("xy");
  gr.Label('x', xl, 0);
  gr.Label('y', yl, 0);
}

// One marker at (x, y) in `style`.
void PlotPoint(mglGraph& gr, double x, double y, const std::string& style) {
  gr.Plot(internal::Data({x}), internal::Data({y}), style.c_str());
}

PlotOptions Canvas(const TrackedPlotOptions& o) {
  PlotOptions p;
  p.width_px = o.width_px;
  p.height_px = o.height_px;
  p.aircraft = "";
  return p;
}

void Title(mglGraph& gr, const std::string& text) {
  gr.SetFontSize(1.4);
  gr.SetTuneTicks(0);
  gr.Putsw(0.5, 0.965, internal::Widen(text).c_str(), ":AC", internal::kTitleScale);
}

// The s-plane with every branch, arrows along the parameter's direction;
// returns where it landed on the image.
SPlaneView SPlanePanel(mglGraph& gr, const std::vector<Series>& branches,
                       const std::map<std::string, std::string>& colour, const PanelRect& rect) {
  internal::InPanel(gr, rect, kFontSize);
  std::vector<std::complex<double>> all;
  for (const Series& s : branches) all.insert(all.end(), s.root.begin(), s.root.end());
  const SPlaneWindow w = FullSPlaneWindow(all);
  Axes(gr, w.re, w.im, L"Re \\lambda, 1/s", L"Im \\lambda, rad/s");
  gr.Line(mglPoint(0, w.im.min), mglPoint(0, w.im.max), "k1");
  gr.Line(mglPoint(w.re.min, 0), mglPoint(w.re.max, 0), "k1");
  gr.SetArrowSize(0.7);
  gr.SetMarkSize(0.8);
  for (const Series& s : branches) {
    const std::string c = colour.at(s.origin);
    gr.Plot(internal::Data(Re(s)), internal::Data(Im(s)), (c + "-2").c_str());
    // MathGL's "A" puts the head at the line's second point ("_A" would put
    // it at the first, pointing back to the start).
    for (const BranchArrow& a : BranchArrows(s))
      gr.Line(mglPoint(a.tail.real(), a.tail.imag()), mglPoint(a.head.real(), a.head.imag()), (c + "A").c_str());
    PlotPoint(gr, s.root.front().real(), s.root.front().imag(), c + " o");  // start: open circle
    PlotPoint(gr, s.root.back().real(), s.root.back().imag(), c + " o#");   // end: filled circle
  }
  return {w, internal::MapPanel(gr, w.re, w.im).box};
}

std::vector<std::string> Legend(mglGraph& gr, const std::map<std::string, std::string>& colour,
                                const PanelRect& rect, const std::vector<std::wstring>& extra) {
  internal::InPanel(gr, rect, kFontSize * 2.0);
  gr.SetRanges(0, 1, 0, 1);
  // An entry that would run past the image's right edge ("roll subsidence +
  // washout filter (coupled)") is broken at a space onto two lines within its
  // row, each drawn smaller only if it still does not fit.
  const double image_px = gr.GetWidth();
  const int rows = static_cast<int>(colour.size() + extra.size());
  const double h = 1.0 / std::max(rows, 1);
  const auto put = [&](const std::wstring& text, double x, double y) {
    const double room = (1.0 - rect.x0 - x * (rect.x1 - rect.x0)) * image_px -
                        internal::TextSizePx(gr, L"M")[1];
    const auto fits = [&](const std::wstring& t) { return internal::TextSizePx(gr, t)[0] <= room; };
    const auto size = [&](const std::wstring& t) {
      return fits(t) ? -1.0 : -room / internal::TextSizePx(gr, t)[0];
    };
    std::size_t cut = std::wstring::npos;
    if (!fits(text))
      for (std::size_t at = text.find(L' '); at != std::wstring::npos; at = text.find(L' ', at + 1))
        if (fits(text.substr(0, at))) cut = at;
    if (cut == std::wstring::npos) {
      gr.Putsw(mglPoint(x, y), text.c_str(), ":L", size(text));
      return;
    }
    const std::wstring first = text.substr(0, cut), second = text.substr(cut + 1);
    gr.Putsw(mglPoint(x, y + 0.2 * h), first.c_str(), ":L", size(first));
    gr.Putsw(mglPoint(x, y - 0.2 * h), second.c_str(), ":L", size(second));
  };
  int i = 0;
  for (const auto& [origin, c] : colour) {
    const double y = 1.0 - (i++ + 0.5) * h;
    gr.Line(mglPoint(0.0, y), mglPoint(0.08, y), (std::string(c) + "-3").c_str());
    put(internal::Widen(origin), 0.1, y);
  }
  for (const std::wstring& e : extra) put(e, 0.0, 1.0 - (i++ + 0.5) * h);
  return {};
}

std::string Num(double v) {
  std::string s = fmt::format("{:.4g}", v);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

// The legend lines of a marked gain: "◇ max ζ: dutch roll",
// "ζ = 0.2825 at K = 1.694" (short enough for an 800 px figure's legend).
std::vector<std::wstring> MarkedGainNotes(const MarkedGain& m) {
  return {internal::Widen("\u25c7 max \u03b6: " + m.mode),
          internal::Widen("\u03b6 = " + Num(m.zeta) + " at K = " + Num(m.gain))};
}

// Draws ωn or ζ (DrawnZeta) of every branch against the parameter; returns
// true if a real root's ζ was left out.
bool AgainstParameter(mglGraph& gr, const std::vector<Series>& branches,
                      const std::map<std::string, std::string>& colour, const PanelRect& rect,
                      bool zeta, const std::wstring& xlabel) {
  // MathGL sizes text relative to the panel: a half-height panel (ωn above
  // ζ) would get half the s-plane panel's text, 7 px tick labels at
  // 800 x 600. Scaled to the full-height panel's (y 0.10 to 0.90) size.
  internal::InPanel(gr, rect, kFontSize * kFullPanelHeight / (rect.y1 - rect.y0));
  std::vector<double> xs, ys;
  std::vector<std::vector<double>> curves;
  bool left_out = false;
  for (const Series& s : branches) {
    xs.insert(xs.end(), s.value.begin(), s.value.end());
    curves.push_back(zeta ? DrawnZeta(s) : s.wn);
    for (const double y : curves.back()) {
      if (std::isnan(y)) left_out = true;
      else ys.push_back(y);
    }
  }
  AxisRange yr = Range(ys, true);
  if (zeta) yr = {std::min(yr.min, -0.1), std::max(yr.max, 1.1)};
  Axes(gr, Range(xs, false), yr, xlabel.c_str(), zeta ? L"\\zeta" : L"\\omega_n, rad/s");
  for (std::size_t i = 0; i < branches.size(); ++i)
    gr.Plot(internal::Data(branches[i].value), internal::Data(curves[i]),
            (std::string(colour.at(branches[i].origin)) + "-2").c_str());
  return left_out;
}

}  // namespace

std::vector<double> DrawnZeta(const TrackedBranch& branch) {
  std::vector<double> out(branch.zeta);
  for (std::size_t i = 0; i < out.size(); ++i)
    if (branch.root[i].imag() == 0.0) out[i] = std::numeric_limits<double>::quiet_NaN();
  return out;
}

std::vector<TrackedBranch> TrackedBranches(const study::TrackedStudy& s, bool lower_members) {
  std::map<std::pair<std::string, int>, TrackedBranch> by;
  std::vector<std::pair<std::string, int>> order;
  for (const study::TrackedPoint& p : s.points) {
    std::map<std::string, int> slot;
    for (const study::TrackedMode& m : p.modes) {
      if (m.kind == analysis::ModeKind::kHeading) continue;
      for (int member = 0; member < (m.oscillatory && lower_members ? 2 : 1); ++member) {
        const int k = slot[m.origin]++;
        const auto key = std::make_pair(m.origin, k);
        if (!by.count(key)) order.push_back(key);
        TrackedBranch& branch = by[key];
        branch.origin = m.origin;
        branch.value.push_back(p.value);
        branch.root.push_back(member == 0 ? m.lambda : std::conj(m.lambda));
        branch.wn.push_back(m.wn);
        branch.zeta.push_back(m.zeta);
      }
    }
  }
  std::vector<TrackedBranch> out;
  for (const auto& k : order) out.push_back(by[k]);
  return out;
}

std::vector<GainLabel> GainLabelsWanted(const std::vector<TrackedBranch>& branches, const SPlaneView& view,
                                        double min_spacing_px) {
  // The listed gains, in order, from the branches' points.
  std::vector<double> gains;
  for (const TrackedBranch& b : branches) gains.insert(gains.end(), b.value.begin(), b.value.end());
  std::sort(gains.begin(), gains.end());
  gains.erase(std::unique(gains.begin(), gains.end()), gains.end());
  if (gains.empty()) return {};
  // Round gains: the multiples of a 1-2-5 step of about an eighth of the
  // range, each moved to the nearest listed gain, and the last listed gain.
  const double span = gains.back() - gains.front();
  std::vector<double> chosen;
  auto choose = [&](double target) {
    const auto it = std::min_element(gains.begin(), gains.end(), [&](double a, double b) {
      return std::abs(a - target) < std::abs(b - target);
    });
    if (std::find(chosen.begin(), chosen.end(), *it) == chosen.end()) chosen.push_back(*it);
  };
  if (span > 0.0) {
    const double step = core::NiceCeil(span / 8.0);
    for (double k = std::ceil(gains.front() / step); k * step <= gains.back(); ++k)
      if (k != 0.0) choose(k * step);  // K = 0 is the open-loop pole, marked ×
  }
  choose(gains.back());
  std::sort(chosen.begin(), chosen.end());
  std::vector<GainLabel> out;
  for (std::size_t b = 0; b < branches.size(); ++b) {
    const TrackedBranch& branch = branches[b];
    std::vector<std::array<double, 2>> kept{view.ToPixels(branch.root.front())};
    for (const double g : chosen) {
      const auto it = std::find(branch.value.begin(), branch.value.end(), g);
      if (it == branch.value.end()) continue;
      const auto k = static_cast<std::size_t>(it - branch.value.begin());
      if (branch.root[k].imag() < 0.0) continue;  // the mirror image is labelled
      const std::array<double, 2> at = view.ToPixels(branch.root[k]);
      const bool crowded = std::any_of(kept.begin(), kept.end(), [&](const std::array<double, 2>& p) {
        return std::hypot(p[0] - at[0], p[1] - at[1]) < min_spacing_px;
      });
      if (crowded) continue;
      kept.push_back(at);
      out.push_back({b, k});
    }
  }
  return out;
}

namespace {

// Squares of half-size r every r along p–q (so consecutive ones touch and
// cover the segment), clipped to `bounds`.
void CoverSegment(const std::array<double, 2>& p, const std::array<double, 2>& q, double r,
                  const PixelBox& bounds, std::vector<PixelBox>& out) {
  const double length = std::hypot(q[0] - p[0], q[1] - p[1]);
  const int n = std::max(1, static_cast<int>(std::ceil(length / r)));
  for (int i = 0; i <= n; ++i) {
    const double t = static_cast<double>(i) / n;
    const PixelBox box = MarkerBox({p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])}, r);
    if (Overlaps(box, bounds)) out.push_back(box);
  }
}

}  // namespace

std::vector<PixelBox> LocusObstacles(const SPlaneView& view, const std::vector<TrackedBranch>& branches,
                                     const std::vector<std::complex<double>>& marks, double marker_radius) {
  std::vector<PixelBox> out;
  for (const std::complex<double>& m : marks) out.push_back(MarkerBox(view.ToPixels(m), marker_radius));
  for (const TrackedBranch& b : branches)
    for (std::size_t k = 0; k < b.root.size(); ++k)
      CoverSegment(view.ToPixels(b.root[k == 0 ? 0 : k - 1]), view.ToPixels(b.root[k]), kBranchClearancePx,
                   view.box, out);
  const SPlaneWindow& w = view.window;
  CoverSegment(view.ToPixels({w.re.min, 0.0}), view.ToPixels({w.re.max, 0.0}), kBranchClearancePx, view.box, out);
  CoverSegment(view.ToPixels({0.0, w.im.min}), view.ToPixels({0.0, w.im.max}), kBranchClearancePx, view.box, out);
  return out;
}

std::vector<LabelPlacement> LayoutGainLabels(const SPlaneView& view, const std::vector<TrackedBranch>& branches,
                                             const std::vector<GainLabel>& labels,
                                             const std::vector<std::array<double, 2>>& sizes,
                                             const std::vector<std::complex<double>>& marks, double marker_radius) {
  std::vector<LabelRequest> requests;
  for (std::size_t i = 0; i < labels.size(); ++i)
    requests.push_back({view.ToPixels(branches[labels[i].branch].root[labels[i].point]), sizes[i][0], sizes[i][1]});
  // The gap keeps a label a little off its point's tick dot.
  return PlaceLabels(requests, LocusObstacles(view, branches, marks, marker_radius), view.box,
                     kBranchClearancePx + 3.0);
}

std::vector<BranchArrow> BranchArrows(const TrackedBranch& branch) {
  std::vector<BranchArrow> out;
  const std::size_t n = branch.root.size();
  for (const std::size_t k : {n / 3, (2 * n) / 3})
    if (k >= 1 && k < n && branch.root[k] != branch.root[k - 1] &&
        (out.empty() || out.back().head != branch.root[k]))
      out.push_back({branch.root[k - 1], branch.root[k]});
  return out;
}

std::vector<std::string> SweepFigurePaths(const std::string& prefix, const std::string& format) {
  return {prefix + "_splane." + format, prefix + "_wn_zeta." + format};
}

std::vector<std::string> LocusFigurePaths(const std::string& prefix, const std::string& format) {
  return {prefix + "_locus." + format, prefix + "_zeta." + format};
}

std::vector<std::string> PlotSweep(const study::TrackedStudy& study, const TrackedPlotOptions& options,
                                   const std::string& prefix) {
  if (study.points.empty()) throw std::invalid_argument(prefix + ": nothing to plot");
  const std::vector<Series> branches = TrackedBranches(study, true);
  const auto colour = Colours(branches);
  const std::vector<std::string> paths = SweepFigurePaths(prefix, options.format);
  const std::string& splane = paths[0];
  const std::string& curves = paths[1];
  const std::wstring param = internal::Widen(study.param);
  {
    auto canvas = internal::MakeCanvas(Canvas(options), splane);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (s-plane paths)");
    SPlanePanel(gr, branches, colour, {0.08, 0.70, 0.10, 0.90});
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90},
           {internal::Widen("\u25cb start " + study.param + " = " + Num(study.points.front().value)),
            internal::Widen("\u25cf end " + study.param + " = " + Num(study.points.back().value)),
            internal::Widen("arrows: " + study.param + " from " + Num(study.points.front().value) + " to " +
                            Num(study.points.back().value))});
    internal::WriteCanvas(gr, splane);
  }
  {
    auto canvas = internal::MakeCanvas(Canvas(options), curves);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (\u03c9n and \u03b6)");
    const std::vector<Series> tops = TrackedBranches(study, false);
    AgainstParameter(gr, tops, colour, {0.08, 0.70, 0.56, 0.90}, false, param);
    std::vector<std::wstring> notes;
    if (AgainstParameter(gr, tops, colour, {0.08, 0.70, 0.10, 0.44}, true, param))
      notes.push_back(kRealRootsNote);
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90}, notes);
    internal::WriteCanvas(gr, curves);
  }
  return paths;
}

std::vector<std::string> PlotLocus(const study::LocusResult& locus, const TrackedPlotOptions& options,
                                   const std::string& prefix) {
  const study::TrackedStudy& study = locus.study;
  if (study.points.empty()) throw std::invalid_argument(prefix + ": nothing to plot");
  const std::vector<Series> branches = TrackedBranches(study, true);
  const auto colour = Colours(branches);
  const std::vector<std::string> paths = LocusFigurePaths(prefix, options.format);
  const std::string& path = paths[0];
  const std::string& zpath = paths[1];
  {
    auto canvas = internal::MakeCanvas(Canvas(options), path);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (root locus)");
    const SPlaneView view = SPlanePanel(gr, branches, colour, {0.08, 0.70, 0.10, 0.90});
    for (auto p : locus.open_loop_poles) PlotPoint(gr, p.real(), p.imag(), "k x2");
    for (auto z : locus.zeros) PlotPoint(gr, z.real(), z.imag(), "k o2");
    // Gain ticks: a dot at every listed gain; "K=…" at a few of them on
    // each branch, placed clear of each other, of the markers and of the
    // branches (LayoutGainLabels); a label with no clear place is left out.
    for (const Series& s : branches)
      gr.Plot(internal::Data(Re(s)), internal::Data(Im(s)), (std::string(colour.at(s.origin)) + " .").c_str());
    std::vector<std::complex<double>> marks(locus.open_loop_poles.begin(), locus.open_loop_poles.end());
    marks.insert(marks.end(), locus.zeros.begin(), locus.zeros.end());
    for (const Series& s : branches) {
      marks.push_back(s.root.front());
      marks.push_back(s.root.back());
    }
    if (options.marked) {  // the gain labels keep clear of the rhombs too
      marks.push_back(options.marked->lambda);
      marks.push_back(std::conj(options.marked->lambda));
    }
    const std::vector<GainLabel> wanted = GainLabelsWanted(branches, view, kGainLabelSpacingEm * internal::TextSizePx(gr, L"K=0", kGainLabelScale)[1]);
    std::vector<std::wstring> texts;
    std::vector<std::array<double, 2>> sizes;
    for (const GainLabel& g : wanted) {
      texts.push_back(internal::Widen("K=" + Num(branches[g.branch].value[g.point])));
      sizes.push_back(internal::TextSizePx(gr, texts.back(), kGainLabelScale));
    }
    const std::vector<LabelPlacement> placed = LayoutGainLabels(view, branches, wanted, sizes, marks, kMarkerRadiusPx);
    const internal::PanelMap map{view.window.re, view.window.im, view.box};
    for (std::size_t i = 0; i < placed.size(); ++i) {
      if (!placed[i].clear) continue;
      const PixelBox& b = placed[i].box;
      const std::string c = colour.at(branches[wanted[i].branch].origin);
      if (placed[i].leader) {
        // From the tick dot to the nearest point of the label's box.
        const std::array<double, 2> a = view.ToPixels(branches[wanted[i].branch].root[wanted[i].point]);
        const double tx = std::clamp(a[0], b.x0, b.x1), ty = std::clamp(a[1], b.y0, b.y1);
        gr.Line(map.ToData(a[0], a[1]), map.ToData(tx, ty), (c + "1").c_str());
      }
      gr.Putsw(map.ToData(b.x0, internal::BaselineForInkBox(b.y0, b.height())), texts[i].c_str(),
               (c + ":L").c_str(), -kGainLabelScale);
    }
    std::vector<std::wstring> notes = {
        L"\u00d7 open-loop poles (K = 0)", L"\u25cb zeros of y/\u03b4",
        internal::Widen("K from " + Num(study.points.front().value) + " to " +
                        Num(study.points.back().value) + " " + locus.gain_unit),
        L"arrows: increasing K"};
    if (options.marked) {
      for (const std::complex<double> l : {options.marked->lambda, std::conj(options.marked->lambda)})
        PlotPoint(gr, l.real(), l.imag(), "k d3");
      for (std::wstring& n : MarkedGainNotes(*options.marked)) notes.push_back(std::move(n));
    }
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90}, notes);
    internal::WriteCanvas(gr, path);
  }
  {
    auto canvas = internal::MakeCanvas(Canvas(options), zpath);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (\u03b6 against K)");
    std::vector<std::wstring> notes;
    if (AgainstParameter(gr, TrackedBranches(study, false), colour, {0.08, 0.70, 0.10, 0.90}, true,
                         internal::Widen("K, " + locus.gain_unit)))
      notes.push_back(kRealRootsNote);
    if (options.marked) {
      PlotPoint(gr, options.marked->gain, options.marked->zeta, "k d3");
      for (std::wstring& n : MarkedGainNotes(*options.marked)) notes.push_back(std::move(n));
    }
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90}, notes);
    internal::WriteCanvas(gr, zpath);
  }
  return paths;
}

}  // namespace aerolin::exporting
