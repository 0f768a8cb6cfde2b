// The 2D trajectory figure (plot.hpp, PlotGroundTrack): the ground track at
// equal scales above the altitude profile on its own scale.

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/label_placement.hpp"
#include "aerolin/export/plot_geometry.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "aerolin/export/plot_colours.hpp"
#include "mathgl_canvas.hpp"

namespace aerolin::exporting {
namespace {

constexpr const char* kPathPen = "{x1F4E9C}2";  // dark blue, as the 3D path
// The nonlinear flight beside, as in the 3D figure: magenta, long dashes.
const std::string kNonlinearPen = MglColour(kNonlinearPathColour) + "|2";
constexpr double kTitleFontSize = 1.4;
constexpr double kTitleBottom = 0.93;
// The two panels [fractions of the image]: the map on top, the profile below.
constexpr PanelRect kMapRect{0.08, 0.975, 0.47, 0.88};
constexpr PanelRect kProfileRect{0.08, 0.975, 0.08, 0.35};

std::string Number(double v) {
  if (std::abs(v) < 1e-9) v = 0.0;  // no "-0"
  std::string s = fmt::format("{:g}", v);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

// The tick labels of the map's y axis when it is −east: the ticks sit at
// multiples of `step` of y and read east = −y.
void EastDownTicks(mglGraph& gr, const AxisRange& y, double step) {
  std::vector<double> positions;
  std::wstring labels;
  for (double k = std::ceil(y.min / step); k * step <= y.max; k += 1.0) {
    positions.push_back(k * step);
    labels += (labels.empty() ? L"" : L"\n") + internal::Widen(Number(-k * step));
  }
  gr.SetTicksVal('y', internal::Data(positions), labels.c_str());
}

void Caption(mglGraph& gr, const internal::PanelMap& map, const std::wstring& text) {
  gr.Putsw(map.ToData(0.5 * (map.box.x0 + map.box.x1),
                      map.box.y1 + 0.5 * internal::TextSizePx(gr, text)[1]),
           text.c_str(), ":C");
}

}  // namespace

void PlotGroundTrack(const sim::FlightLog& log, const PlotOptions& options,
                     const std::string& path, const sim::FlightLog* nonlinear) {
  if (log.size() == 0) throw std::invalid_argument(path + ": the flight log is empty");
  internal::CheckBesideFlight(log, nonlinear, path);
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;
  const std::vector<Eigen::Vector3d> track = PathInPlotFrame(log);
  const std::vector<Eigen::Vector3d> nl_track =
      nonlinear ? PathInPlotFrame(*nonlinear) : std::vector<Eigen::Vector3d>{};
  // The axes hold both tracks.
  std::vector<Eigen::Vector3d> both = track;
  both.insert(both.end(), nl_track.begin(), nl_track.end());

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);
  const std::wstring title = internal::FigureTitle(
      options,
      internal::FlightSubject(options, "ground track and altitude", nonlinear != nullptr));
  gr.Putsw(0.5, 0.5 * (1.0 + kTitleBottom), title.c_str(), ":AC",
           internal::TitleSizeToFit(gr, title, internal::kTitleScale));

  // The map: equal scales, long axis across.
  internal::InPanel(gr, kMapRect, internal::SmallImageTextScale(gr) * 1.4 / (1.55 * (kMapRect.y1 - kMapRect.y0)));
  const GroundTrackAxes axes =
      GroundTrackAxesOf(both, (kMapRect.x1 - kMapRect.x0) * options.width_px,
                        (kMapRect.y1 - kMapRect.y0) * options.height_px);
  gr.SetRanges(axes.x.min, axes.x.max, axes.y.min, axes.y.max);
  internal::PanelMap map = internal::MapPanel(gr, axes.x, axes.y);
  gr.SetOrigin(axes.x.min, axes.y.min);
  const double x_step = CoarsestTickStep(axes.x.min, axes.x.max, 3);
  const double y_step = CoarsestTickStep(axes.y.min, axes.y.max, 3);
  gr.SetTicks('x', std::max(x_step, core::NiceCeil((axes.x.max - axes.x.min) / 10.0)), 0, 0.0);
  gr.SetTicks('y', y_step, 0, 0.0);
  gr.SetTickTempl('x', "%g");
  gr.SetTickTempl('y', "%g");
  if (axes.north_right) EastDownTicks(gr, axes.y, y_step);
  gr.Grid("xy", "{xD0D0D0}:");
  gr.Box("k", false);
  gr.SetRotatedText(false);
  gr.Axis("xy");
  gr.SetRotatedText(true);
  gr.Label('x', axes.north_right ? L"north, m" : L"east, m", 0);
  internal::LabelYClearOfTicks(
      gr, axes.north_right ? L"east, m (increasing down)" : L"north, m",
      internal::WidestTickLabelPx(gr, axes.y.min, axes.y.max, y_step));
  std::vector<double> mx, my;
  for (const Eigen::Vector3d& p : track) {
    const std::array<double, 2> m = axes.ToMap(p.x(), p.y());
    mx.push_back(m[0]);
    my.push_back(m[1]);
  }
  gr.Plot(internal::Data(mx), internal::Data(my), kPathPen);
  gr.SetMarkSize(1.0);
  const std::string start_pen = std::string(kPathPen).substr(0, 9) + " o";
  const std::string end_pen = std::string(kPathPen).substr(0, 9) + " o#";
  gr.Plot(internal::Data({mx.front()}), internal::Data({my.front()}), start_pen.c_str());
  gr.Plot(internal::Data({mx.back()}), internal::Data({my.back()}), end_pen.c_str());
  std::vector<double> nx, ny;  // the nonlinear track on the map
  for (const Eigen::Vector3d& p : nl_track) {
    const std::array<double, 2> m = axes.ToMap(p.x(), p.y());
    nx.push_back(m[0]);
    ny.push_back(m[1]);
  }
  if (nonlinear) {
    gr.Plot(internal::Data(nx), internal::Data(ny), kNonlinearPen.c_str());
    const std::string nl_end_pen = kNonlinearPen.substr(0, 9) + " o#";
    gr.Plot(internal::Data({nx.back()}), internal::Data({ny.back()}), nl_end_pen.c_str());
  }
  Caption(gr, map,
          axes.north_right ? L"ground track, equal scales (map turned: north to the right)"
                           : L"ground track, equal scales (north up)");
  {
    std::vector<internal::LegendEntry> legend = {
        {nonlinear ? L"linear model's ground track" : L"ground track", kPathPen},
        {internal::Widen(fmt::format("\u25cb start, \u25cf end ({:g} s)",
                                     std::round(10.0 * log.time.back()) / 10.0)),
         ""}};
    if (nonlinear)
      legend.insert(legend.begin() + 1, {L"nonlinear model's ground track", kNonlinearPen});
    const std::array<double, 2> size = internal::LegendSizePx(gr, legend);
    Polyline line;
    for (std::size_t k = 0; k < mx.size(); ++k) line.push_back(map.ToPixels(mx[k], my[k]));
    std::vector<Polyline> lines = {line};
    if (nonlinear) {
      Polyline nl_line;
      for (std::size_t k = 0; k < nx.size(); ++k) nl_line.push_back(map.ToPixels(nx[k], ny[k]));
      lines.push_back(std::move(nl_line));
    }
    const double inset = 0.3 * size[1];
    const Corner corner = EmptiestCorner(map.box, size[0], size[1], inset, lines);
    internal::DrawLegend(gr, map, CornerBox(map.box, corner, size[0], size[1], inset), legend);
  }

  // The profile: altitude against the distance flown, on its own scale.
  internal::InPanel(gr, kProfileRect,
                    internal::SmallImageTextScale(gr) * 1.4 / (1.55 * (kProfileRect.y1 - kProfileRect.y0)));
  const std::vector<double> distance = GroundDistance(track);
  std::vector<double> altitude;
  for (const Eigen::Vector3d& p : track) altitude.push_back(p.z());
  const std::vector<double> nl_distance =
      nonlinear ? GroundDistance(nl_track) : std::vector<double>{};
  std::vector<double> nl_altitude;
  for (const Eigen::Vector3d& p : nl_track) nl_altitude.push_back(p.z());
  const AxisRange d_range =
      nonlinear ? PaddedRange({distance, nl_distance}) : PaddedRange({distance});
  const AxisRange h_range =
      nonlinear ? PaddedRange({altitude, nl_altitude}) : PaddedRange({altitude});
  gr.SetRanges(d_range.min, d_range.max, h_range.min, h_range.max);
  map = internal::MapPanel(gr, d_range, h_range);
  gr.SetOrigin(d_range.min, h_range.min);
  const double d_step = std::max(CoarsestTickStep(d_range.min, d_range.max, 3),
                                 core::NiceCeil((d_range.max - d_range.min) / 10.0));
  const double h_step = CoarsestTickStep(h_range.min, h_range.max, 3);
  gr.SetTicks('x', d_step, 0, 0.0);
  gr.SetTicks('y', h_step, 0, 0.0);
  gr.Grid("xy", "{xD0D0D0}:");
  gr.Box("k", false);
  gr.SetRotatedText(false);
  gr.Axis("xy");
  gr.SetRotatedText(true);
  gr.Label('x', L"distance flown over the ground, m", 0);
  internal::LabelYClearOfTicks(gr, L"altitude, m",
                               internal::WidestTickLabelPx(gr, h_range.min, h_range.max, h_step));
  gr.Plot(internal::Data(distance), internal::Data(altitude), kPathPen);
  if (nonlinear)
    gr.Plot(internal::Data(nl_distance), internal::Data(nl_altitude), kNonlinearPen.c_str());
  // How much taller the profile draws a metre than the map does.
  const double map_m_per_px = (axes.x.max - axes.x.min) / map.box.width();
  const double profile_v_m_per_px = (h_range.max - h_range.min) / map.box.height();
  const double k = map_m_per_px / profile_v_m_per_px;
  Caption(gr, map,
          internal::Widen(fmt::format("altitude against distance flown (vertical scale "
                                      "\u00d7{} the map's)",
                                      k >= 10.0 ? fmt::format("{:.0f}", k)
                                                : fmt::format("{:.2g}", k))));
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
