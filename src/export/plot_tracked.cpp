// Figures of tracked sweeps and loci (plot_tracked.hpp).

#include "aerolin/export/plot_tracked.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting {
namespace {

constexpr double kFontSize = 2.2;
constexpr const char* kPalette[] = {"{x1F77B4}", "{xD62728}", "{xFF7F0E}", "{x9467BD}", "{x2CA02C}",
                                    "{x8C564B}", "{x17BECF}", "{xE377C2}", "{xBCBD22}", "{x7F7F7F}"};

// One drawn branch: a mode's root (or the lower member of its pair) over the points.
struct Series {
  std::string origin;
  std::string label;
  std::vector<double> value, re, im, wn, zeta;
};

// Splits each origin into slots: at every point, the k-th mode with that
// origin is slot k; a pair also draws its lower member as its own branch.
std::vector<Series> BranchesOf(const study::TrackedStudy& s, bool lower_members) {
  std::map<std::pair<std::string, int>, Series> by;
  std::vector<std::pair<std::string, int>> order;
  for (const study::TrackedPoint& p : s.points) {
    std::map<std::string, int> slot;
    for (const study::TrackedMode& m : p.modes) {
      if (m.kind == analysis::ModeKind::kHeading) continue;
      for (int member = 0; member < (m.oscillatory && lower_members ? 2 : 1); ++member) {
        const int k = slot[m.origin]++;
        const auto key = std::make_pair(m.origin, k);
        if (!by.count(key)) order.push_back(key);
        Series& series = by[key];
        series.origin = m.origin;
        series.label = m.origin;
        series.value.push_back(p.value);
        series.re.push_back(m.lambda.real());
        series.im.push_back(member == 0 ? m.lambda.imag() : -m.lambda.imag());
        series.wn.push_back(m.wn);
        series.zeta.push_back(m.zeta);
      }
    }
  }
  std::vector<Series> out;
  for (const auto& k : order) out.push_back(by[k]);
  return out;
}

std::map<std::string, const char*> Colours(const std::vector<Series>& series) {
  std::map<std::string, const char*> c;
  for (const Series& s : series)
    if (!c.count(s.origin)) c[s.origin] = kPalette[c.size() % std::size(kPalette)];
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

mglData Data(const std::vector<double>& v) {
  mglData d(static_cast<long>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) d.a[i] = v[i];
  return d;
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

// The s-plane with every branch, arrows along the parameter's direction.
void SPlanePanel(mglGraph& gr, const std::vector<Series>& branches,
                 const std::map<std::string, const char*>& colour, const PanelRect& rect) {
  internal::InPanel(gr, rect, kFontSize);
  std::vector<std::complex<double>> all;
  for (const Series& s : branches)
    for (std::size_t i = 0; i < s.re.size(); ++i) all.push_back({s.re[i], s.im[i]});
  const SPlaneWindow w = FullSPlaneWindow(all);
  Axes(gr, w.re, w.im, L"Re \\lambda, 1/s", L"Im \\lambda, rad/s");
  gr.Line(mglPoint(0, w.im.min), mglPoint(0, w.im.max), "k1");
  gr.Line(mglPoint(w.re.min, 0), mglPoint(w.re.max, 0), "k1");
  gr.SetArrowSize(0.7);
  gr.SetMarkSize(0.8);
  for (const Series& s : branches) {
    const std::string c = colour.at(s.origin);
    gr.Plot(Data(s.re), Data(s.im), (c + "-2").c_str());
    const std::size_t n = s.re.size();
    // Arrows at a third and two thirds of the way: the direction of increasing index.
    for (std::size_t k : {n / 3, (2 * n) / 3})
      if (k >= 1 && k < n && (s.re[k] != s.re[k - 1] || s.im[k] != s.im[k - 1]))
        gr.Line(mglPoint(s.re[k - 1], s.im[k - 1]), mglPoint(s.re[k], s.im[k]), (c + "_A").c_str());
    mglData x0(1), y0(1), x1(1), y1(1);
    x0.a[0] = s.re.front();
    y0.a[0] = s.im.front();
    x1.a[0] = s.re.back();
    y1.a[0] = s.im.back();
    gr.Plot(x0, y0, (c + " o").c_str());   // start: open circle
    gr.Plot(x1, y1, (c + " o#").c_str());  // end: filled circle
  }
}

std::vector<std::string> Legend(mglGraph& gr, const std::map<std::string, const char*>& colour,
                                const PanelRect& rect, const std::vector<std::wstring>& extra) {
  internal::InPanel(gr, rect, kFontSize * 2.0);
  gr.SetRanges(0, 1, 0, 1);
  int i = 0;
  const int rows = static_cast<int>(colour.size() + extra.size());
  const double h = 1.0 / std::max(rows, 1);
  for (const auto& [origin, c] : colour) {
    const double y = 1.0 - (i++ + 0.5) * h;
    gr.Line(mglPoint(0.0, y), mglPoint(0.08, y), (std::string(c) + "-3").c_str());
    gr.Putsw(mglPoint(0.1, y), internal::Widen(origin).c_str(), ":L");
  }
  for (const std::wstring& e : extra) gr.Putsw(mglPoint(0.0, 1.0 - (i++ + 0.5) * h), e.c_str(), ":L");
  return {};
}

std::string Num(double v) {
  std::string s = fmt::format("{:.4g}", v);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

void AgainstParameter(mglGraph& gr, const std::vector<Series>& branches,
                      const std::map<std::string, const char*>& colour, const PanelRect& rect,
                      bool zeta, const std::wstring& xlabel) {
  internal::InPanel(gr, rect, kFontSize);
  std::vector<double> xs, ys;
  for (const Series& s : branches) {
    xs.insert(xs.end(), s.value.begin(), s.value.end());
    const auto& y = zeta ? s.zeta : s.wn;
    ys.insert(ys.end(), y.begin(), y.end());
  }
  AxisRange yr = Range(ys, true);
  if (zeta) yr = {std::min(yr.min, -0.1), std::max(yr.max, 1.1)};
  Axes(gr, Range(xs, false), yr, xlabel.c_str(), zeta ? L"\\zeta" : L"\\omega_n, rad/s");
  for (const Series& s : branches)
    gr.Plot(Data(s.value), Data(zeta ? s.zeta : s.wn), (std::string(colour.at(s.origin)) + "-2").c_str());
}

}  // namespace

std::vector<std::string> PlotSweep(const study::TrackedStudy& study, const TrackedPlotOptions& options,
                                   const std::string& prefix) {
  if (study.points.empty()) throw std::invalid_argument(prefix + ": nothing to plot");
  const std::vector<Series> branches = BranchesOf(study, true);
  const auto colour = Colours(branches);
  const std::string splane = prefix + "_splane.png", curves = prefix + "_wn_zeta.png";
  const std::wstring param = internal::Widen(study.param);
  {
    auto canvas = internal::MakeCanvas(Canvas(options), splane);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (s-plane paths)");
    SPlanePanel(gr, branches, colour, {0.08, 0.70, 0.10, 0.90});
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90},
           {internal::Widen("\u25cb start " + study.param + " = " + Num(study.points.front().value)),
            internal::Widen("\u25cf end " + study.param + " = " + Num(study.points.back().value)),
            L"arrows: sweep direction"});
    internal::WriteCanvas(gr, splane);
  }
  {
    auto canvas = internal::MakeCanvas(Canvas(options), curves);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (\u03c9n and \u03b6)");
    const std::vector<Series> tops = BranchesOf(study, false);
    AgainstParameter(gr, tops, colour, {0.08, 0.70, 0.56, 0.90}, false, param);
    AgainstParameter(gr, tops, colour, {0.08, 0.70, 0.10, 0.44}, true, param);
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90}, {});
    internal::WriteCanvas(gr, curves);
  }
  return {splane, curves};
}

std::vector<std::string> PlotLocus(const study::LocusResult& locus, const TrackedPlotOptions& options,
                                   const std::string& prefix) {
  const study::TrackedStudy& study = locus.study;
  if (study.points.empty()) throw std::invalid_argument(prefix + ": nothing to plot");
  const std::vector<Series> branches = BranchesOf(study, true);
  const auto colour = Colours(branches);
  const std::string path = prefix + "_locus.png", zpath = prefix + "_zeta.png";
  {
    auto canvas = internal::MakeCanvas(Canvas(options), path);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (root locus)");
    SPlanePanel(gr, branches, colour, {0.08, 0.70, 0.10, 0.90});
    for (auto p : locus.open_loop_poles) {
      mglData x(1), y(1);
      x.a[0] = p.real();
      y.a[0] = p.imag();
      gr.Plot(x, y, "k x2");
    }
    for (auto z : locus.zeros) {
      mglData x(1), y(1);
      x.a[0] = z.real();
      y.a[0] = z.imag();
      gr.Plot(x, y, "k o2");
    }
    // Gain ticks: dots at every reported gain, the value at a few of them on
    // the branch that moves most.
    const Series* longest = nullptr;
    double travel = -1;
    for (const Series& s : branches) {
      double t = 0;
      for (std::size_t i = 1; i < s.re.size(); ++i) t += std::hypot(s.re[i] - s.re[i - 1], s.im[i] - s.im[i - 1]);
      if (t > travel) {
        travel = t;
        longest = &s;
      }
      gr.Plot(Data(s.re), Data(s.im), (std::string(colour.at(s.origin)) + " .").c_str());
    }
    if (longest)
      for (std::size_t k : {longest->re.size() / 4, longest->re.size() / 2, 3 * longest->re.size() / 4,
                            longest->re.size() - 1})
        gr.Putsw(mglPoint(longest->re[k], longest->im[k]),
                 internal::Widen(" K=" + Num(longest->value[k])).c_str(), ":L");
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90},
           {L"\u00d7 open-loop poles (K = 0)", L"\u25cb zeros of y/\u03b4",
            internal::Widen("K from " + Num(study.points.front().value) + " to " +
                            Num(study.points.back().value) + " " + locus.gain_unit)});
    internal::WriteCanvas(gr, path);
  }
  {
    auto canvas = internal::MakeCanvas(Canvas(options), zpath);
    mglGraph& gr = *canvas;
    Title(gr, options.title + " (\u03b6 against K)");
    AgainstParameter(gr, BranchesOf(study, false), colour, {0.08, 0.70, 0.10, 0.90}, true,
                     internal::Widen("K, " + locus.gain_unit));
    Legend(gr, colour, {0.74, 0.99, 0.35, 0.90}, {});
    internal::WriteCanvas(gr, zpath);
  }
  return {path, zpath};
}

}  // namespace aerolin::exporting
