// The time-history figure (plot.hpp, PlotTimeHistories).

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "aerolin/core/signal.hpp"
#include "aerolin/core/units.hpp"
#include "display_units.hpp"
#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/label_placement.hpp"
#include "aerolin/export/plot_geometry.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting {
namespace {

// Distinguishable on paper and for colour-blind readers (matplotlib tab10);
// six, so no two controls of the AVL 737 (slat, flap, aileron, elevator,
// rudder) share a colour.
constexpr std::array<const char*, 6> kSeriesPens = {
    "{x1F77B4}2", "{xD62728}2", "{x2CA02C}2", "{xFF7F0E}2", "{x9467BD}2", "{x8C564B}2"};

// MathGL font size of the figure title on the whole image.
constexpr double kTitleFontSize = 1.4;

struct Series {
  std::wstring label;
  std::vector<double> values;
  /// The same signal in the nonlinear flight drawn beside (empty: none).
  std::vector<double> nonlinear = {};
};

// A nonlinear curve: the linear one's colour, dashed ("|", MathGL's long
// dash), so where the two agree the linear line shows between the dashes.
std::string NonlinearPen(const char* pen) {
  const std::string p(pen);
  return p.substr(0, p.find('}') + 1) + "|2";
}


struct Panel {
  std::wstring y_label;
  std::vector<Series> series;
};

// A state as the figure shows it: angles and rates in degrees, the rest in
// its SI unit.
DisplayUnit Shown(core::Unit unit) { return DisplayUnitOf(unit, core::UnitSystem::kSI, true); }

// A state's symbol as MathGL text: a Greek symbol becomes the TeX command its
// ASCII name spells ("alpha" → \alpha; MathGL's \phi is the ϕ the figures
// have always shown, not the UTF-8 symbol's φ); a Latin one stays as it is.
std::wstring MathGlSymbol(const core::Signal& signal) {
  const bool ascii = std::all_of(signal.symbol.begin(), signal.symbol.end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return internal::Widen(ascii ? signal.symbol : "\\" + signal.name);
}

// The series of state `index`, multiplied by `sign` and the display factor,
// labelled with the state's symbol unless `label` is given; with
// `nonlinear`, its values there too.
Series StateSeries(const sim::FlightLog& log, const sim::FlightLog* nonlinear, int index,
                   double sign = 1.0, const std::wstring& label = L"") {
  const core::Signal& signal = sim::FlightStateSignals()[index];
  const double factor = sign * Shown(signal.unit).per_si;
  Series s{label.empty() ? MathGlSymbol(signal) : label, {}};
  s.values.reserve(log.size());
  for (const sim::FlightState& x : log.state) s.values.push_back(factor * x[index]);
  if (nonlinear != nullptr)
    for (const sim::FlightState& x : nonlinear->state) s.nonlinear.push_back(factor * x[index]);
  return s;
}

// A panel of states sharing one unit: "quantity, unit".
Panel StatePanel(const std::wstring& quantity, std::vector<Series> series, int first_state) {
  const core::Signal& signal = sim::FlightStateSignals()[first_state];
  return {quantity + L", " + internal::Widen(Shown(signal.unit).name), std::move(series)};
}

std::vector<Panel> BuildPanels(const sim::FlightLog& log,
                               const std::vector<Eigen::Vector4d>& wind,
                               const sim::FlightLog* nl) {
  using namespace sim;
  constexpr double kDeg = core::kRadToDeg;
  std::vector<Panel> panels;
  // Left column longitudinal, right column lateral-directional.
  panels.push_back(StatePanel(L"speed", {StateSeries(log, nl, kU)}, kU));
  panels.push_back(StatePanel(L"sideslip", {StateSeries(log, nl, kBeta)}, kBeta));
  panels.push_back(StatePanel(
      L"angle", {StateSeries(log, nl, kAlpha), StateSeries(log, nl, kTheta)}, kAlpha));
  panels.push_back(
      StatePanel(L"angle", {StateSeries(log, nl, kPhi), StateSeries(log, nl, kPsi)}, kPhi));
  panels.push_back(StatePanel(L"rate", {StateSeries(log, nl, kQ)}, kQ));
  panels.push_back(
      StatePanel(L"rate", {StateSeries(log, nl, kP), StateSeries(log, nl, kR)}, kP));
  panels.push_back(StatePanel(
      L"position",
      {StateSeries(log, nl, kDown, -1.0, L"altitude h"),
       StateSeries(log, nl, kEast, 1.0, internal::Widen(FlightStateSignals()[kEast].name))},
      kDown));

  Panel controls{L"control, deg", {}};
  bool any_setting = false;
  for (std::size_t c = 0; c < log.control_names.size(); ++c) {
    // A control in rad is drawn in degrees; a dimensionless one (unit "1",
    // core::Unit::kOne: the throttle) is a setting, drawn as logged.
    const bool radians =
        c < log.control_units.size() && log.control_units[c] == core::ToString(core::Unit::kRadian);
    any_setting = any_setting || !radians;
    Series s{internal::Widen(log.control_names[c]) + (radians ? L"" : L" (setting)"),
             {}};
    for (const Eigen::VectorXd& u : log.controls)
      s.values.push_back(static_cast<Eigen::Index>(c) < u.size()
                             ? (radians ? kDeg : 1.0) * u[c]
                             : 0.0);
    controls.series.push_back(std::move(s));
  }
  if (any_setting) controls.y_label = L"control, deg or setting";
  panels.push_back(std::move(controls));
  if (!wind.empty()) {
    Panel velocity{L"gust velocity, m/s", {}};
    const wchar_t* names[] = {L"u_g", L"v_g", L"w_g"};
    for (int i = 0; i < 3; ++i) {
      Series s{names[i], {}};
      s.values.reserve(wind.size());
      for (const Eigen::Vector4d& g : wind) s.values.push_back(g[i]);
      velocity.series.push_back(std::move(s));
    }
    panels.push_back(std::move(velocity));
    Series p{L"p_g", {}};
    p.values.reserve(wind.size());
    for (const Eigen::Vector4d& g : wind) p.values.push_back(kDeg * g[3]);
    panels.push_back({L"rolling gust, deg/s", {std::move(p)}});
  }
  return panels;
}

// True if every value of every column is zero (to 1e-9 in display units):
// the motion did not happen, e.g. the longitudinal states of a lateral
// excitation in the decoupled linear model.
bool NoMotion(const std::vector<std::vector<double>>& columns) {
  constexpr double kZero = 1e-9;
  for (const std::vector<double>& column : columns)
    for (const double v : column)
      if (!(std::abs(v) <= kZero)) return false;
  return true;
}

// The series of `panel` as polylines [px] of the panel `map`.
std::vector<Polyline> Polylines(const Panel& panel, const mglData& time,
                                const internal::PanelMap& map) {
  std::vector<Polyline> lines;
  for (const Series& s : panel.series)
    for (const std::vector<double>* values : {&s.values, &s.nonlinear}) {
      if (values->empty()) continue;
      Polyline line;
      line.reserve(values->size());
      for (std::size_t k = 0; k < values->size(); ++k)
        line.push_back(map.ToPixels(time.a[k], (*values)[k]));
      lines.push_back(std::move(line));
    }
  return lines;
}

}  // namespace

void PlotTimeHistories(const sim::FlightLog& log, const PlotOptions& options,
                       const std::string& path, const std::vector<Eigen::Vector4d>& wind,
                       const sim::FlightLog* nonlinear) {
  if (log.size() == 0)
    throw std::invalid_argument(path + ": the flight log is empty");
  if (!wind.empty() && wind.size() != log.size())
    throw std::invalid_argument(path + ": the wind has " + std::to_string(wind.size()) +
                                " rows, the flight log " + std::to_string(log.size()));
  internal::CheckBesideFlight(log, nonlinear, path);
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;

  const std::vector<Panel> panels = BuildPanels(log, wind, nonlinear);
  const int rows = static_cast<int>((panels.size() + 1) / 2);
  GridLayout layout = HistoryLayout(rows, 2);
  // Text enlarged for a small image (SmallImageTextScale) needs a strip under
  // the grid for the bottom row's "time, s" (it ran off an 800 x 600 image).
  layout.grid_bottom = 0.1 * (internal::SmallImageTextScale(gr) - 1.0);

  mglData time(static_cast<long>(log.size()));
  for (std::size_t k = 0; k < log.size(); ++k) time.a[k] = log.time[k];
  // A departed nonlinear flight ends first: its curves end with its rows.
  const std::size_t nl_rows = nonlinear != nullptr ? nonlinear->size() : 0;
  mglData nl_time(static_cast<long>(nl_rows));
  for (std::size_t k = 0; k < nl_rows; ++k) nl_time.a[k] = log.time[k];
  const double t0 = log.time.front();
  const double t1 = std::max(log.time.back(), t0 + 1e-9);

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);  // no "x10^3" factor above an axis: write the numbers
  const std::wstring title = internal::FigureTitle(
      options, nonlinear != nullptr
                   ? "time histories: linear model solid, nonlinear model dashed"
                   : internal::FlightSubject(options, "time histories", false));
  gr.Putsw(0.5, 0.5 * (1.0 + layout.title_bottom), title.c_str(), ":AC",
           internal::TitleSizeToFit(gr, title, internal::kTitleScale));

  for (std::size_t i = 0; i < panels.size(); ++i) {
    const Panel& panel = panels[i];
    const int row = static_cast<int>(i) / 2;
    const PanelRect r = layout.Cell(row, static_cast<int>(i) % 2);
    // Tuned by eye: tick labels about 1.4 % of the image height.
    internal::InPanel(gr, r, internal::SmallImageTextScale(gr) * 1.4 / (1.55 * (r.y1 - r.y0)));
    std::vector<std::vector<double>> columns;
    for (const Series& s : panel.series) {
      columns.push_back(s.values);
      // The panel's range and corners hold the nonlinear curves too.
      if (!s.nonlinear.empty()) columns.push_back(s.nonlinear);
    }
    const bool still = NoMotion(columns);
    AxisRange y = PaddedRange(columns);
    const AxisRange x{t0, t1};
    // Series that stay zero while others move share one line without a
    // sample ("slat, flap = 0 throughout"): a row each made the legend of
    // the 737's five controls so tall that its band squeezed a 1° aileron
    // pulse into the bottom twentieth of the panel at 800 x 600.
    std::vector<internal::LegendEntry> legend;
    std::wstring flat;
    for (std::size_t j = 0; j < panel.series.size(); ++j) {
      const std::wstring& label = panel.series[j].label;
      if (!still && panel.series.size() > 1 &&
          NoMotion({panel.series[j].values, panel.series[j].nonlinear}))
        flat += (flat.empty() ? L"" : L", ") + label + (label.starts_with(L"\\") ? L" " : L"");
      else
        legend.push_back({label, kSeriesPens[j % kSeriesPens.size()]});
    }
    if (!flat.empty()) legend.push_back({flat + L" = 0 throughout", ""});
    const std::array<double, 2> legend_size = internal::LegendSizePx(gr, legend);
    // The legend goes in the corner no curve crosses; when every corner is
    // crossed, the y range grows upwards until the band above the curves
    // holds it (then the top right corner is free).
    gr.SetRanges(t0, t1, y.min, y.max);
    internal::PanelMap map = internal::MapPanel(gr, x, y);
    const double inset = 0.4 * legend_size[1] / std::max<std::size_t>(legend.size(), 1);
    Corner corner = Corner::kTopRight;
    if (!still) {
      corner = EmptiestCorner(map.box, legend_size[0], legend_size[1], inset,
                              Polylines(panel, time, map));
      if (SegmentsHitting(CornerBox(map.box, corner, legend_size[0], legend_size[1], inset),
                          Polylines(panel, time, map)) > 0) {
        y = WithHeadroom(y, (legend_size[1] + 2.0 * inset) / map.box.height());
        gr.SetRanges(t0, t1, y.min, y.max);
        map = internal::MapPanel(gr, x, y);
        corner = Corner::kTopRight;
      }
    }
    gr.SetOrigin(t0, y.min);
    gr.SetTicks('x', core::NiceCeil((t1 - t0) / 8.0), 0, t0);
    // At least three labelled ticks (NiceCeil(span / 4) could leave one).
    const double y_step = CoarsestTickStep(y.min, y.max, 3);
    gr.SetTicks('y', y_step, 0, 0.0);
    gr.SetTickTempl('x', "%g");
    gr.SetTickTempl('y', "%g");
    if (still) {
      // Only the zero the signals sit on.
      mglData zero(1);
      zero.a[0] = 0.0;
      gr.SetTicksVal('y', zero, L"0");
    }
    gr.Grid("xy", "{xD0D0D0}:");
    gr.Box("k", false);
    gr.SetRotatedText(false);  // horizontal tick labels
    gr.Axis("xy");
    gr.SetRotatedText(true);
    internal::LabelYClearOfTicks(
        gr, panel.y_label,
        still ? internal::TextSizePx(gr, L"0")[0]
              : internal::WidestTickLabelPx(gr, y.min, y.max, y_step));
    if (row == rows - 1) gr.Label('x', L"time, s", 0);
    for (std::size_t j = 0; j < panel.series.size(); ++j) {
      const Series& s = panel.series[j];
      mglData values(static_cast<long>(s.values.size()));
      for (std::size_t k = 0; k < s.values.size(); ++k) values.a[k] = s.values[k];
      gr.Plot(time, values, kSeriesPens[j % kSeriesPens.size()]);
    }
    // Over the linear curves, so where they part the dashes show.
    for (std::size_t j = 0; j < panel.series.size(); ++j)
      if (!panel.series[j].nonlinear.empty())
        gr.Plot(nl_time, internal::Data(panel.series[j].nonlinear),
                NonlinearPen(kSeriesPens[j % kSeriesPens.size()]).c_str());
    if (still) {
      // A motion that did not happen: say so instead of a legend.
      std::wstring names;
      for (std::size_t j = 0; j < panel.series.size(); ++j)
        // A TeX command ("\\theta") swallows the space after it.
        names += (j == 0 ? L"" : L", ") + panel.series[j].label +
                 (panel.series[j].label.starts_with(L"\\") ? L" " : L"");
      const std::wstring note = L"no motion: " + names + L" = 0 throughout";
      // Smaller when wider than the panel (the P2V-7's four controls ran
      // past both edges at 800 x 600); as always when it fits.
      const double note_width = internal::TextSizePx(gr, note)[0];
      const double room = 0.96 * map.box.width();
      gr.Putsw(mglPoint(0.5 * (t0 + t1), 0.5 * y.max), note.c_str(), "{x707070}:C",
               note_width > room ? -room / note_width : -1.0);
      gr.SetTicks('y', y_step, 0, 0.0);  // no fixed ticks for the next panel
      continue;
    }
    internal::DrawLegend(gr, map,
                         CornerBox(map.box, corner, legend_size[0], legend_size[1], inset),
                         legend);
  }
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
