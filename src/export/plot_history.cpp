// The time-history figure (plot.hpp, PlotTimeHistories).

#include <algorithm>
#include <stdexcept>

#include "aerolin/core/signal.hpp"
#include "aerolin/core/units.hpp"
#include "mathgl_canvas.hpp"
#include "aerolin/core/nice_number.hpp"
#include "aerolin/export/plot_geometry.hpp"
#include "aerolin/export/plot_layout.hpp"

namespace aerolin::exporting {
namespace {

// Distinguishable on paper and for colour-blind readers (matplotlib tab10).
constexpr std::array<const char*, 4> kSeriesPens = {
    "{x1F77B4}2", "{xD62728}2", "{x2CA02C}2", "{xFF7F0E}2"};

// MathGL font size of the figure title on the whole image.
constexpr double kTitleFontSize = 1.4;

struct Series {
  std::wstring label;
  std::vector<double> values;
};

struct Panel {
  std::wstring y_label;
  std::vector<Series> series;
};

// A state as the figure shows it: angles and rates in degrees, the rest in
// its SI unit.
struct DisplayUnit {
  double factor;
  std::wstring label;
};

DisplayUnit DisplayUnitOf(core::Unit unit) {
  switch (unit) {
    case core::Unit::kRadian: return {core::kRadToDeg, L"deg"};
    case core::Unit::kRadianPerSecond: return {core::kRadToDeg, L"deg/s"};
    default: return {1.0, internal::Widen(std::string(core::ToString(unit)))};
  }
}

// A state's symbol as MathGL text: a Greek symbol becomes the TeX command its
// ASCII name spells ("alpha" → \alpha; MathGL's \phi is the ϕ the figures
// have always shown, not the UTF-8 symbol's φ); a Latin one stays as it is.
std::wstring MathGlSymbol(const core::Signal& signal) {
  const bool ascii = std::all_of(signal.symbol.begin(), signal.symbol.end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return internal::Widen(ascii ? signal.symbol : "\\" + signal.name);
}

// The series of state `index`, multiplied by `sign` and the display factor,
// labelled with the state's symbol unless `label` is given.
Series StateSeries(const sim::FlightLog& log, int index, double sign = 1.0,
                   const std::wstring& label = L"") {
  const core::Signal& signal = sim::FlightStateSignals()[index];
  const double factor = sign * DisplayUnitOf(signal.unit).factor;
  Series s{label.empty() ? MathGlSymbol(signal) : label, {}};
  s.values.reserve(log.size());
  for (const sim::FlightState& x : log.state) s.values.push_back(factor * x[index]);
  return s;
}

// A panel of states sharing one unit: "quantity, unit".
Panel StatePanel(const std::wstring& quantity, std::vector<Series> series, int first_state) {
  const core::Signal& signal = sim::FlightStateSignals()[first_state];
  return {quantity + L", " + DisplayUnitOf(signal.unit).label, std::move(series)};
}

std::vector<Panel> BuildPanels(const sim::FlightLog& log,
                               const std::vector<Eigen::Vector4d>& wind) {
  using namespace sim;
  constexpr double kDeg = core::kRadToDeg;
  std::vector<Panel> panels;
  // Left column longitudinal, right column lateral-directional.
  panels.push_back(StatePanel(L"speed", {StateSeries(log, kU)}, kU));
  panels.push_back(StatePanel(L"sideslip", {StateSeries(log, kBeta)}, kBeta));
  panels.push_back(
      StatePanel(L"angle", {StateSeries(log, kAlpha), StateSeries(log, kTheta)}, kAlpha));
  panels.push_back(
      StatePanel(L"angle", {StateSeries(log, kPhi), StateSeries(log, kPsi)}, kPhi));
  panels.push_back(StatePanel(L"rate", {StateSeries(log, kQ)}, kQ));
  panels.push_back(StatePanel(L"rate", {StateSeries(log, kP), StateSeries(log, kR)}, kP));
  panels.push_back(StatePanel(
      L"position",
      {StateSeries(log, kDown, -1.0, L"altitude h"),
       StateSeries(log, kEast, 1.0, internal::Widen(FlightStateSignals()[kEast].name))},
      kDown));

  Panel controls{L"control, deg", {}};
  bool any_dimensionless = false;
  for (std::size_t c = 0; c < log.control_names.size(); ++c) {
    const bool radians =
        c < log.control_units.size() && log.control_units[c] == "rad";
    any_dimensionless = any_dimensionless || !radians;
    Series s{internal::Widen(log.control_names[c]) + (radians ? L"" : L" (-)"),
             {}};
    for (const Eigen::VectorXd& u : log.controls)
      s.values.push_back(static_cast<Eigen::Index>(c) < u.size()
                             ? (radians ? kDeg : 1.0) * u[c]
                             : 0.0);
    controls.series.push_back(std::move(s));
  }
  if (any_dimensionless) controls.y_label = L"control, deg or (-)";
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

}  // namespace

void PlotTimeHistories(const sim::FlightLog& log, const PlotOptions& options,
                       const std::string& path, const std::vector<Eigen::Vector4d>& wind) {
  if (log.size() == 0)
    throw std::invalid_argument(path + ": the flight log is empty");
  if (!wind.empty() && wind.size() != log.size())
    throw std::invalid_argument(path + ": the wind has " + std::to_string(wind.size()) +
                                " rows, the flight log " + std::to_string(log.size()));
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;

  const std::vector<Panel> panels = BuildPanels(log, wind);
  const int rows = static_cast<int>((panels.size() + 1) / 2);
  const GridLayout layout = HistoryLayout(rows, 2);

  mglData time(static_cast<long>(log.size()));
  for (std::size_t k = 0; k < log.size(); ++k) time.a[k] = log.time[k];
  const double t0 = log.time.front();
  const double t1 = std::max(log.time.back(), t0 + 1e-9);

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);  // no "x10^3" factor above an axis: write the numbers
  gr.Putsw(0.5, 0.5 * (1.0 + layout.title_bottom),
          internal::FigureTitle(options, "time histories").c_str(), ":AC",
          internal::kTitleScale);

  for (std::size_t i = 0; i < panels.size(); ++i) {
    const Panel& panel = panels[i];
    const int row = static_cast<int>(i) / 2;
    const PanelRect r = layout.Cell(row, static_cast<int>(i) % 2);
    // Tuned by eye: tick labels about 1.4 % of the image height.
    internal::InPanel(gr, r, 1.4 / (1.55 * (r.y1 - r.y0)));
    std::vector<std::vector<double>> columns;
    for (const Series& s : panel.series) columns.push_back(s.values);
    const AxisRange y = PaddedRange(columns);
    gr.SetRanges(t0, t1, y.min, y.max);
    gr.SetOrigin(t0, y.min);
    gr.SetTicks('x', core::NiceCeil((t1 - t0) / 8.0), 0, t0);
    gr.SetTicks('y', core::NiceCeil((y.max - y.min) / 4.0), 0, 0.0);
    gr.SetTickTempl('x', "%g");
    gr.SetTickTempl('y', "%g");
    gr.Grid("xy", "{xD0D0D0}:");
    gr.Box("k", false);
    gr.Axis("xy");
    gr.Label('y', panel.y_label.c_str(), 0);
    if (row == rows - 1) gr.Label('x', L"time, s", 0);
    for (std::size_t j = 0; j < panel.series.size(); ++j) {
      const Series& s = panel.series[j];
      mglData values(static_cast<long>(s.values.size()));
      for (std::size_t k = 0; k < s.values.size(); ++k) values.a[k] = s.values[k];
      const char* pen = kSeriesPens[j % kSeriesPens.size()];
      gr.Plot(time, values, pen);
      gr.AddLegend(s.label.c_str(), pen);
    }
    gr.Legend(3, "#", internal::kLegendOption);
    gr.ClearLegend();
  }
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
