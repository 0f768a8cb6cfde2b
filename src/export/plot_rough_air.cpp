// The rough-air figure (plot_rough_air.hpp, PlotRoughAir).

#include "aerolin/export/plot_rough_air.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "aerolin/core/nice_number.hpp"
#include "aerolin/core/units.hpp"
#include "aerolin/export/plot_layout.hpp"
#include "display_units.hpp"
#include "mathgl_canvas.hpp"

namespace aerolin::exporting {
namespace {

constexpr double kTitleFontSize = 1.4;
constexpr double kFoot = core::kMetresPerFoot;

// Light, moderate, severe: a colour and a dash each, so they part on paper
// in grey too (tab10 green, orange, red; solid, dashed, dash-dot).
constexpr std::array<const char*, 3> kIntensityColours = {"{x2CA02C}", "{xFF7F0E}", "{xD62728}"};
constexpr std::array<const char*, 3> kIntensityDashes = {"-", ";", "j"};
constexpr const char* kMarkColour = "{x505050}";

std::string IntensityPen(int i, bool requested) {
  return std::string(kIntensityColours[static_cast<std::size_t>(i)]) +
         kIntensityDashes[static_cast<std::size_t>(i)] + (requested ? "4" : "2");
}

// Output `name` of `stats` (nullptr when its axis has none).
const study::OutputStatistics* Find(const study::RoughAirStatistics& stats, const std::string& name) {
  for (const model::Axis axis : {model::Axis::kLongitudinal, model::Axis::kLateral})
    for (const study::OutputStatistics& o : stats.of(axis).outputs)
      if (o.signal.name == name) return &o;
  return nullptr;
}

// The output's symbol as MathGL text: Greek names as TeX commands.
std::wstring Symbol(const std::string& name) {
  if (name == "nz") return L"n_z";
  if (name == "ay") return L"a_y";
  return internal::Widen("\\" + name);
}

// "304.8 m (1000 ft)": a height in both units, as the data files use either.
std::string BothUnits(double h) {
  return fmt::format("{:.6g} m ({:.6g} ft)", h, h / kFoot);
}

// Decade ticks of the logarithmic height axis, written as plain numbers.
void LogHeightAxis(mglGraph& gr, double h0, double h1) {
  gr.SetFunc("", "lg(y)");
  std::vector<double> ticks;
  std::wstring labels;
  for (int k = static_cast<int>(std::ceil(std::log10(h0))); std::pow(10.0, k) <= h1; ++k) {
    ticks.push_back(std::pow(10.0, k));
    labels += internal::Widen(fmt::format("{:g}", std::pow(10.0, k))) + L"\n";
  }
  gr.SetTicksVal('y', internal::Data(ticks), labels.c_str());
}

}  // namespace

std::vector<std::string> RoughAirFigurePaths(const std::string& prefix, const std::string& format) {
  return {prefix + "_rms_height." + format};
}

void PlotRoughAir(const study::RoughAirProfile& profile, const study::RoughAirStatistics& requested,
                  const PlotOptions& options, const std::string& path) {
  if (profile.heights.empty() ||
      std::any_of(profile.statistics.begin(), profile.statistics.end(),
                  [&](const auto& s) { return s.size() != profile.heights.size(); }))
    throw std::invalid_argument(path + ": no rough-air statistics to plot");
  std::unique_ptr<mglGraph> canvas = internal::MakeCanvas(options, path);
  mglGraph& gr = *canvas;
  const double text_scale = internal::SmallImageTextScale(gr);

  GridLayout layout = HistoryLayout(2, 3);
  layout.left_margin = 0.065 * text_scale + 0.01;  // tick labels and "h, m", text enlarged below 1200 x 900
  layout.bottom_margin = 0.075;
  layout.grid_bottom = 0.15 + 0.08 * (text_scale - 1.0);
  const double h0 = profile.heights.front(), h1 = profile.heights.back();
  const int chosen = static_cast<int>(requested.turbulence.intensity);
  const double marked = requested.turbulence.height.value_or(0.0);

  gr.SetFontSize(kTitleFontSize);
  gr.SetTuneTicks(0);
  gr.Putsw(0.5, 0.5 * (1.0 + layout.title_bottom),
           internal::FigureTitle(options, "RMS in Dryden turbulence against the height h above ground").c_str(), ":AC",
           internal::kTitleScale);

  for (std::size_t p = 0; p < kRoughAirFigureOutputs.size(); ++p) {
    const std::string name = kRoughAirFigureOutputs[p];
    const PanelRect r = layout.Cell(static_cast<int>(p / 3), static_cast<int>(p % 3));
    internal::InPanel(gr, r, text_scale * 1.4 / (1.55 * (r.y1 - r.y0)));
    // The table's first row is longitudinal, its second lateral.
    const study::AxisStatistics& axis = requested.of(p < 3 ? model::Axis::kLongitudinal : model::Axis::kLateral);
    const study::OutputStatistics* shown = Find(requested, name);
    const DisplayUnit unit =
        shown ? DisplayUnitOf(shown->signal.unit, core::UnitSystem::kSI, true) : DisplayUnit{};
    std::array<std::vector<double>, 3> rms;
    double top = 0.0;
    for (int i = 0; i < 3 && shown; ++i)
      for (const study::RoughAirStatistics& s : profile.statistics[static_cast<std::size_t>(i)]) {
        const study::OutputStatistics* o = Find(s, name);
        rms[static_cast<std::size_t>(i)].push_back(o ? unit.per_si * o->rms : NAN);
        if (o) top = std::max(top, unit.per_si * o->rms);
      }
    const double step = core::NiceCeil(std::max(top, 1e-12) / 4.0);
    const AxisRange x{0.0, step * std::ceil(std::max(top, 1e-12) * 1.04 / step)};
    gr.SetRanges(x.min, x.max, h0, h1);
    gr.SetOrigin(x.min, h0);
    LogHeightAxis(gr, h0, h1);
    gr.SetTicks('x', step, 0, 0.0);
    gr.SetTickTempl('x', "%g");
    gr.Grid("xy", "{xD0D0D0}:");
    gr.Box("k", false);
    gr.SetRotatedText(false);
    gr.Axis("xy");
    gr.SetRotatedText(true);
    internal::LabelYClearOfTicks(gr, L"h, m", internal::TextSizePx(gr, L"10000")[0]);
    gr.Label('x', (L"RMS " + Symbol(name) + L", " + internal::Widen(unit.name)).c_str(), 0);
    if (!shown) {
      // No stationary statistics on this axis (an unstable mode): say so.
      const std::string why = axis.not_stationary.value_or("no statistics");
      gr.Putsw(mglPoint(0.5 * (x.min + x.max), std::sqrt(h0 * h1) * 2.0), L"no stationary RMS:",
               "{x707070}:C", -0.9);
      gr.Putsw(mglPoint(0.5 * (x.min + x.max), std::sqrt(h0 * h1) / 2.0), internal::Widen(why).c_str(),
               "{x707070}:C", -0.8);
      continue;
    }
    if (marked > 0.0)
      gr.Line(mglPoint(x.min, marked), mglPoint(x.max, marked), (std::string(kMarkColour) + "=1").c_str());
    const mglData heights = internal::Data(profile.heights);
    // The requested intensity last, on top.
    for (const int i : {0, 1, 2})
      if (i != chosen) gr.Plot(internal::Data(rms[static_cast<std::size_t>(i)]), heights, IntensityPen(i, false).c_str());
    gr.Plot(internal::Data(rms[static_cast<std::size_t>(chosen)]), heights, IntensityPen(chosen, true).c_str());
  }
  gr.SetFunc("", "");

  // Under the panels: the legend (left) and what the figure holds fixed.
  const PanelRect strip{0.02, 0.98, 0.01, layout.grid_bottom - 0.01};
  internal::InPanel(gr, strip, text_scale * 1.4 / (1.55 * (strip.y1 - strip.y0)));
  gr.SetRanges(0, 1, 0, 1);
  const internal::PanelMap map = internal::MapPanel(gr, {0, 1}, {0, 1});
  static constexpr std::array<const char*, 3> kNames = {"light", "moderate", "severe"};
  std::vector<internal::LegendEntry> legend;
  for (int i = 0; i < 3; ++i)
    legend.push_back({internal::Widen(std::string(kNames[static_cast<std::size_t>(i)]) +
                                      (i == chosen ? " (the table's intensity)" : "")),
                      IntensityPen(i, i == chosen)});
  if (marked > 0.0)
    legend.push_back({internal::Widen("the table's height: " + BothUnits(marked) + ", " +
                                      std::string(study::ToString(requested.height_source))),
                      std::string(kMarkColour) + "=1"});
  const std::array<double, 2> size = internal::LegendSizePx(gr, legend);
  const double top_px = map.box.y1;
  internal::DrawLegend(gr, map, {map.box.x0, map.box.x0 + size[0], top_px - size[1], top_px}, legend);
  const std::array<std::string, 4> notes = {
      fmt::format("MIL-F-8785C Dryden turbulence; the aircraft at its file's condition (V = {:.4g} m/s):",
                  requested.airspeed),
      "only the turbulence changes with height. Controls fixed (no pilot); the flight",
      fmt::format("sampled every {:g} s, as aerolin rms and simulate fly it. A linear model: RMS", requested.dt),
      "angles of tens of degrees lie outside its small-perturbation range."};
  const double line_px = internal::TextSizePx(gr, L"0")[1] * 1.5;
  for (std::size_t k = 0; k < notes.size(); ++k) {
    const mglPoint at = map.ToData(map.box.x0 + size[0] + 0.03 * map.box.width(),
                                   internal::BaselineForInkBox(top_px - (k + 1) * line_px, line_px / 1.5));
    gr.Putsw(at, internal::Widen(notes[k]).c_str(), "k:L");
  }
  internal::WriteCanvas(gr, path);
}

}  // namespace aerolin::exporting
