// The 3D trajectory figure (plot.hpp, PlotTrajectory3D).

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <Eigen/Geometry>
#include <fmt/format.h>

#include "aerolin/export/plot_colours.hpp"
#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_geometry.hpp"

namespace aerolin::exporting {
namespace {

constexpr const char* kPathPen = "{x1F4E9C}3";   // dark blue, thick
constexpr const char* kShadowPen = "{x9A9A9A}2";  // mid grey
constexpr const char* kDropPen = "{xB0B0B0}=";    // light grey, dashed
// The nonlinear flight beside (plot.hpp): kNonlinearPathColour, long dashes,
// so where the paths agree the linear one shows between them; its shadow a
// lighter grey, dashed.
const std::string kNonlinearPathPen = MglColour(kNonlinearPathColour) + "|3";
constexpr const char* kNonlinearShadowPen = "{xC4C4C4}|2";
// Each axis of the box is at least this fraction of the longest, so a level
// flight still shows an altitude axis (the scale stays equal on all axes).
constexpr double kMinAxisFraction = 0.3;
// View angles [deg] of MathGL's Rotate: tilt from the top view (60: the eye
// is 30 deg above the ground plane) and azimuth. Looking from the south-west,
// the mostly-northward paths of the bundled scenarios recede to the right.
constexpr double kViewPolarDeg = 60.0;
constexpr double kViewAzimuthDeg = 35.0;
constexpr double kTicksOnLongestAxis = 6.0;
// MathGL's default 1.55 leaves a wide empty margin around a rotated box.
constexpr double kPlotFactor = 1.3;
// Tick labels of the short axes collide when larger.
constexpr double kFontPt = 5.5;
// How far a glyph is moved towards the reader, in glyph lengths: in front of
// the path line however the glyph is banked.
constexpr double kGlyphLift = 0.6;

mglPoint ToPoint(const Eigen::Vector3d& v) { return mglPoint(v.x(), v.y(), v.z()); }

// MathGL's colour code, "{xRRGGBB}".
std::string MglColour(Rgb c) { return fmt::format("{{x{:02X}{:02X}{:02X}}}", c.r, c.g, c.b); }

// Coordinate `axis` of path[first, last).
mglData Column(const std::vector<Eigen::Vector3d>& path, int axis,
               std::size_t first, std::size_t last) {
  mglData d(static_cast<long>(last - first));
  for (std::size_t k = first; k < last; ++k) d.a[k - first] = path[k][axis];
  return d;
}

void DrawGlyph(mglGraph& gr, const std::array<Triangle, kNumGlyphParts>& parts) {
  static const std::string kEdgePen = MglColour(kGlyphEdgeColour);
  for (int i = 0; i < kNumGlyphParts; ++i) {
    const Triangle& t = parts[i];
    const auto part = static_cast<GlyphPart>(i);
    const bool wing = IsWing(part);
    // A quadrilateral with its last corner repeated is MathGL's triangle.
    gr.Face(ToPoint(t[0]), ToPoint(t[1]), ToPoint(t[2]), ToPoint(t[2]),
            MglColour(GlyphColour(part)).c_str());
    // Seen from above, a body half is a sliver a tenth of the span wide at
    // the tail; black edges around it too would cover it at report scale.
    if (!wing) continue;
    for (int e = 0; e < 3; ++e)
      gr.Line(ToPoint(t[e]), ToPoint(t[(e + 1) % 3]), kEdgePen.c_str(), 2);
  }
}

// "×20", "×2.5": how the figure names the vertical exaggeration.
std::wstring TimesK(double k) { return L"\u00D7" + internal::Widen(fmt::format("{:g}", k)); }

std::string FormatSeconds(double t) {
  return fmt::format("{:g} s", std::round(t * 10.0) / 10.0);
}

// Draws the whole figure but the legend's placement (the entries are
// added): the path, box, glyphs and axes.
// `tag_font`: MathGL's font style of the glyphs' time tags.
void DrawTrajectory(mglGraph& gr, const sim::FlightLog& log, const PlotOptions& options,
                    const char* tag_font, const sim::FlightLog* nonlinear) {
  const double k = options.vertical_exaggeration;
  const bool exaggerated = k > 1.0;
  // Everything positional is drawn in exaggerated coordinates; only the
  // glyph shapes (PaperPlaneInPlotFrame) and the tick labels stay true.
  const std::vector<Eigen::Vector3d> track = ExaggerateAltitude(PathInPlotFrame(log), k);
  const std::vector<Eigen::Vector3d> nl_track =
      nonlinear ? ExaggerateAltitude(PathInPlotFrame(*nonlinear), k)
                : std::vector<Eigen::Vector3d>{};
  // The box holds both paths.
  std::vector<Eigen::Vector3d> both = track;
  both.insert(both.end(), nl_track.begin(), nl_track.end());
  // Size the glyph from the path alone, then let the box make room for it.
  const PlotBox path_box = EqualScaleBox(both, 0.0, kMinAxisFraction);
  const double glyph_length =
      options.glyph_length_fraction * std::max(path_box.extent().maxCoeff(), 1.0);
  const double glyph_scale = glyph_length / 3.0;  // body x runs from −s to 2s
  const PlotBox box = EqualScaleBox(both, glyph_length, kMinAxisFraction);
  const Eigen::Vector3d extent = box.extent();

  gr.SetFontSizePT(kFontPt * internal::SmallImageTextScale(gr));
  // A long title (the F-16's name and "linear and nonlinear models") is set
  // smaller until it fits the image's width; one that fits is as always.
  const std::wstring title = internal::FigureTitle(
      options, internal::FlightSubject(options, "flight path", nonlinear != nullptr));
  constexpr double kTitleSize = 1.8;
  gr.Title(title.c_str(), "", internal::TitleSizeToFit(gr, title, -kTitleSize));
  gr.SetTuneTicks(0);
  // One tick step on all axes: the scales are equal, so the grid is square.
  const double tick = core::NiceCeil(extent.maxCoeff() / kTicksOnLongestAxis);
  // Short axes get a finer step so each shows at least three ticks.
  const char* const kAxisNames = "xyz";
  // The altitude tick labels' texts, to keep the axis title clear of them.
  std::vector<std::wstring> z_labels;
  for (int i = 0; i < (exaggerated ? 2 : 3); ++i) {
    const double step = std::min(tick, core::NiceCeil(extent[i] / 4.0));
    gr.SetTicks(kAxisNames[i], step, 0, 0.0);
    gr.SetTickTempl(kAxisNames[i], "%.0f");
    if (i == 2)
      for (double v = std::ceil(box.min.z() / step) * step; v <= box.max.z(); v += step)
        z_labels.push_back(internal::Widen(fmt::format("{:.0f}", v + 0.0)));
  }
  if (exaggerated) {
    // Ticks at true-metre multiples, drawn at K times their value, so the
    // labels read true altitude: the coarsest step showing three of them
    // (more crowd the short altitude edge; NiceCeil(span / 4) may leave one).
    const double step = CoarsestTickStep(box.min.z() / k, box.max.z() / k, 3);
    const std::vector<AxisTick> ticks =
        ExaggeratedAxisTicks(box.min.z(), box.max.z(), k, step);
    mglData positions(static_cast<long>(ticks.size()));
    std::wstring labels;
    for (std::size_t i = 0; i < ticks.size(); ++i) {
      positions.a[i] = ticks[i].position;
      z_labels.push_back(internal::Widen(fmt::format("{:g}", ticks[i].value)));
      labels += (i > 0 ? L"\n" : L"") + z_labels.back();
    }
    gr.SetTicksVal('z', positions, labels.c_str());
  }
  gr.SetRanges(box.min.x(), box.max.x(), box.min.y(), box.max.y(), box.min.z(),
               box.max.z());
  gr.SetOrigin(box.min.x(), box.min.y(), box.min.z());
  gr.SetPlotFactor(kPlotFactor);
  gr.Rotate(kViewPolarDeg, kViewAzimuthDeg);
  gr.Aspect(extent.x(), extent.y(), extent.z());

  gr.Grid("xyz", "{xD0D0D0}:");
  // The box without the three edges at the corner nearest the reader, which
  // would run in front of the path (and often along it, seen from here).
  std::array<std::array<double, 2>, 8> screen;
  std::array<mglPoint, 8> corner;
  for (int c = 0; c < 8; ++c) {
    corner[c] = mglPoint(c & 1 ? box.max.x() : box.min.x(), c & 2 ? box.max.y() : box.min.y(),
                         c & 4 ? box.max.z() : box.min.z());
    const mglPoint p = gr.CalcScr(corner[c]);
    screen[c] = {p.x, p.y};
  }
  for (const BoxEdge& e : BoxEdgesBehindContents(screen)) gr.Line(corner[e[0]], corner[e[1]], "k", 2);
  // The direction towards the reader [plot units]: the one the projection
  // flattens (the null vector of the screen's x and y rows), pointing up
  // (the view is from above the ground).
  Eigen::Matrix<double, 2, 3> projection;
  for (int i = 0; i < 3; ++i) {
    const int c = 1 << i;
    const double span = box.max[i] - box.min[i];
    projection(0, i) = (screen[c][0] - screen[0][0]) / span;
    projection(1, i) = (screen[c][1] - screen[0][1]) / span;
  }
  Eigen::Vector3d towards_reader = Eigen::Vector3d(projection.row(0).transpose())
                                       .cross(Eigen::Vector3d(projection.row(1).transpose()))
                                       .normalized();
  if (towards_reader.z() < 0.0) towards_reader = -towards_reader;
  // The axes are drawn along the box edges nearest the reader: east along the
  // front, north along the right-hand side, altitude at the front-left corner.
  gr.SetOrigin(box.min.x(), box.min.y(), box.min.z());
  gr.Axis("x");
  // Altitude tick labels horizontal: along the short altitude edge, turned
  // labels ran into each other end to end ("-150-100-50" on the 737's).
  gr.SetRotatedText(false);
  gr.Axis("z");
  gr.SetRotatedText(true);
  gr.Label('x', L"east, m", 0);
  // Short: the altitude edge of a flat box is short, and the legend spells
  // out "vertical scale ×K".
  const std::wstring altitude_label =
      exaggerated ? L"altitude, m (" + TimesK(k) + L")" : L"altitude, m";
  // Out past the widest (horizontal) tick label, as LabelYClearOfTicks
  // places a 2D panel's y title.
  double widest_z_label = 0.0;
  for (const std::wstring& t : z_labels)
    widest_z_label = std::max(widest_z_label, internal::TextSizePx(gr, t)[0]);
  const double h = internal::TextSizePx(gr, L"0")[1];
  const double shift = std::max(0.0, (widest_z_label + 0.9 * h - 1.3 * h) / (4.3 * h));
  gr.Label('z', altitude_label.c_str(), 0, fmt::format("value {:.3f}", shift).c_str());
  gr.SetOrigin(box.max.x(), box.min.y(), box.min.z());
  gr.Axis("y");
  gr.Label('y', L"north, m", 0);

  mglData ground(static_cast<long>(track.size()));
  ground.Fill(box.min.z(), box.min.z());
  gr.Plot(Column(track, 0, 0, track.size()), Column(track, 1, 0, track.size()),
          ground, kShadowPen);
  if (nonlinear)
    gr.Plot(Column(nl_track, 0, 0, nl_track.size()), Column(nl_track, 1, 0, nl_track.size()),
            ground, kNonlinearShadowPen);

  const std::vector<std::size_t> rows =
      GlyphRows(log.time, options.glyph_interval_s);
  // One continuous line (the glyphs are drawn over it).
  gr.Plot(Column(track, 0, 0, track.size()), Column(track, 1, 0, track.size()),
          Column(track, 2, 0, track.size()), kPathPen);
  for (const std::size_t row : rows) {
    const Eigen::Vector3d& p = track[row];
    gr.Line(ToPoint(p), mglPoint(p.x(), p.y(), box.min.z()), kDropPen, 2);
    // Moved towards the reader, which leaves it where it is on the image but
    // in front of the continuous path, so the path does not cover its thin
    // body halves.
    std::array<Triangle, kNumGlyphParts> glyph =
        PaperPlaneInPlotFrame(log.state[row], options.theta0, glyph_scale, k);
    for (Triangle& t : glyph)
      for (Eigen::Vector3d& v : t) v += kGlyphLift * glyph_length * towards_reader;
    DrawGlyph(gr, glyph);
    // Time tags sit above the glyph so the wings do not cover them.
    gr.Puts(mglPoint(p.x(), p.y(), p.z() + 0.9 * glyph_length),
            FormatSeconds(log.time[row]).c_str(), tag_font, -0.8);
  }
  if (nonlinear) {
    // Over the linear path, with its glyphs at the same times (untagged: the
    // linear glyph of the same time carries the tag).
    gr.Plot(Column(nl_track, 0, 0, nl_track.size()), Column(nl_track, 1, 0, nl_track.size()),
            Column(nl_track, 2, 0, nl_track.size()), kNonlinearPathPen.c_str());
    for (const std::size_t row : rows) {
      if (row >= nonlinear->size()) continue;  // it departed: no glyph after its end
      std::array<Triangle, kNumGlyphParts> glyph =
          PaperPlaneInPlotFrame(nonlinear->state[row], options.theta0, glyph_scale, k);
      for (Triangle& t : glyph)
        for (Eigen::Vector3d& v : t) v += kGlyphLift * glyph_length * towards_reader;
      DrawGlyph(gr, glyph);
    }
  }

  const std::wstring path_label =
      (nonlinear ? L"linear model's flight path" : L"flight path") +
      (exaggerated ? L" (vertical scale " + TimesK(k) + L")" : L"");
  gr.AddLegend(path_label.c_str(), kPathPen);
  if (nonlinear) gr.AddLegend(L"nonlinear model's flight path", kNonlinearPathPen.c_str());
  gr.AddLegend(L"ground track (shadow)", kShadowPen);
  const double interval =
      rows.size() > 2 ? log.time[rows[1]] - log.time[rows[0]] : 0.0;
  // The glyphs keep true proportions however the altitude is stretched.
  const std::wstring glyph_note =
      exaggerated ? L" (true shape, not exaggerated)" : L" (equal axis scales)";
  const std::wstring glyph_label =
      interval > 0.0
          ? L"attitude every " + internal::Widen(FormatSeconds(interval)) + glyph_note
          : L"attitude" + glyph_note;
  gr.AddLegend(glyph_label.c_str(), (MglColour(kWingColour) + "#^").c_str());
}

// MathGL's legend corners, in the order tried: top right, top left, bottom
// right, bottom left.
constexpr std::array<int, 4> kLegendCorners = {3, 2, 1, 0};

void DrawLegend(mglGraph& gr, int corner) { gr.Legend(corner, "#", "size -0.85"); }

// A pixel of the path or a glyph: saturated (the box, grid, drop lines,
// shadow and text are grey or black).
bool IsDataPixel(const unsigned char* rgb) {
  const int hi = std::max({rgb[0], rgb[1], rgb[2]});
  const int lo = std::min({rgb[0], rgb[1], rgb[2]});
  return hi - lo > 60;
}

// The time tags as the figure draws them (black) and as the legend probe
// does (magenta, so that they count as data: a legend on a tag hides it).
constexpr const char* kTagFont = ":C";
constexpr const char* kProbeTagFont = "{xFF00FF}:C";
// Clearance [px] the legend keeps from the path, glyphs and tags.
constexpr int kLegendClearancePx = 3;

// The figure drawn off-screen at the options' size, legend at `corner`
// (none if negative); returns its pixels, RGB rows from the top.
std::vector<unsigned char> Render(const sim::FlightLog& log, const PlotOptions& options,
                                  int corner, const sim::FlightLog* nonlinear) {
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, "probe.png");
  DrawTrajectory(*canvas, log, options, kProbeTagFont, nonlinear);
  if (corner >= 0) DrawLegend(*canvas, corner);
  const unsigned char* rgb = canvas->GetRGB();
  return std::vector<unsigned char>(
      rgb, rgb + 3 * static_cast<std::size_t>(options.width_px) * options.height_px);
}

}  // namespace

TrajectoryLegend PlaceTrajectoryLegend(const sim::FlightLog& log, const PlotOptions& options,
                                       const sim::FlightLog* nonlinear) {
  if (log.size() == 0) throw std::invalid_argument("the flight log is empty");
  internal::CheckBesideFlight(log, nonlinear, "the trajectory");
  const std::vector<unsigned char> bare = Render(log, options, -1, nonlinear);
  const int w = options.width_px, h = options.height_px;
  TrajectoryLegend best;
  best.covered = -1;
  for (const int corner : kLegendCorners) {
    const std::vector<unsigned char> with = Render(log, options, corner, nonlinear);
    TrajectoryLegend t;
    t.corner = corner;
    t.box = {w, h, -1, -1};
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t i = 3 * (static_cast<std::size_t>(y) * w + x);
        if (bare[i] == with[i] && bare[i + 1] == with[i + 1] && bare[i + 2] == with[i + 2]) continue;
        t.box = {std::min(t.box[0], x), std::min(t.box[1], y), std::max(t.box[2], x),
                 std::max(t.box[3], y)};
      }
    const int c = kLegendClearancePx;
    for (int y = std::max(t.box[1] - c, 0); y <= std::min(t.box[3] + c, h - 1); ++y)
      for (int x = std::max(t.box[0] - c, 0); x <= std::min(t.box[2] + c, w - 1); ++x)
        if (IsDataPixel(&bare[3 * (static_cast<std::size_t>(y) * w + x)])) ++t.covered;
    if (best.covered < 0 || t.covered < best.covered) best = t;
    if (t.covered == 0) break;
  }
  return best;
}

void PlotTrajectory3D(const sim::FlightLog& log, const PlotOptions& options,
                      const std::string& path, const sim::FlightLog* nonlinear) {
  if (log.size() == 0)
    throw std::invalid_argument(path + ": the flight log is empty");
  const double k = options.vertical_exaggeration;
  if (!(k >= 1.0) || !std::isfinite(k))
    throw std::invalid_argument(path +
                                ": vertical exaggeration must be a finite number >= 1, got " +
                                std::to_string(k));
  internal::CheckBesideFlight(log, nonlinear, path);
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  // The legend goes in the first corner where it covers no pixel of the
  // path or a glyph (top right hid the end of a climbing 737's path).
  const TrajectoryLegend legend = PlaceTrajectoryLegend(log, options, nonlinear);
  DrawTrajectory(*canvas, log, options, kTagFont, nonlinear);
  DrawLegend(*canvas, legend.corner);
  internal::WriteCanvas(*canvas, path);
}

}  // namespace aerolin::exporting
