#include "aerolin/viz/hud.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "aerolin/core/units.hpp"

namespace aerolin::viz {
namespace {

const sf::Color kPanelFill(255, 255, 255, 205);
const sf::Color kPanelEdge(120, 130, 150, 160);
const sf::Color kInk(25, 30, 40);
const sf::Color kDim(90, 98, 115);
const sf::Color kWarn(200, 30, 20);

// A mode row's colour by its MIL-F-8785C level: green, amber, orange, red
// (dark enough to read on the light panel).
sf::Color LevelColour(int level) {
  switch (level) {
    case 1: return {30, 130, 40};
    case 2: return {175, 125, 0};
    case 3: return {215, 90, 0};
    default: return kWarn;
  }
}
const sf::Color kBarFill(24, 86, 200);
const sf::Color kBarTrack(210, 216, 226);
const sf::Color kStable(20, 120, 50);

// A state as the HUD shows it: angles and rates in degrees, the rest in its
// SI unit.
struct DisplayUnit {
  double factor;
  std::string_view symbol;
};

DisplayUnit DisplayUnitOf(core::Unit unit) {
  switch (unit) {
    case core::Unit::kRadian: return {core::kRadToDeg, "\xc2\xb0"};
    case core::Unit::kRadianPerSecond: return {core::kRadToDeg, "\xc2\xb0/s"};
    default: return {1.0, core::ToString(unit)};
  }
}

}  // namespace

std::vector<std::string> ValidityWarnings(const sim::FlightState& x, double U0,
                                          const sim::ValidityThresholds& limits) {
  std::vector<std::string> out;
  const std::vector<core::Signal>& states = sim::FlightStateSignals();
  auto angle = [&](int i, double limit) {
    const DisplayUnit shown = DisplayUnitOf(states[i].unit);
    if (std::abs(x[i]) > limit)
      out.push_back(fmt::format("{} = {:+.1f}{} beyond \xc2\xb1{:.0f}{}: left the "
                                "small-perturbation range",
                                states[i].symbol, x[i] * shown.factor, shown.symbol,
                                limit * shown.factor, shown.symbol));
  };
  if (U0 > 0.0 && std::abs(x[sim::kU]) > limits.speed_ratio * U0)
    out.push_back(fmt::format("{} = {:+.1f} {} beyond {:.0f} % of U0: left the "
                              "small-perturbation range",
                              states[sim::kU].symbol, x[sim::kU],
                              core::ToString(states[sim::kU].unit), limits.speed_ratio * 100));
  angle(sim::kAlpha, limits.alpha);
  angle(sim::kBeta, limits.beta);
  angle(sim::kPhi, limits.phi);
  return out;
}

float HudRenderer::Text(sf::RenderTarget& target, const std::string& s, float x,
                        float y, unsigned size, sf::Color color, bool mono) {
  text_.setFont(mono ? *mono_ : *sans_);
  text_.setString(sf::String::fromUtf8(s.begin(), s.end()));
  text_.setCharacterSize(size);
  text_.setFillColor(color);
  text_.setOutlineThickness(0.0f);
  text_.setPosition(std::round(x), std::round(y));
  target.draw(text_);
  return text_.getLocalBounds().width;
}

void HudRenderer::Panel(sf::RenderTarget& target, sf::FloatRect r) {
  sf::RectangleShape shape({r.width, r.height});
  shape.setPosition(r.left, r.top);
  shape.setFillColor(kPanelFill);
  shape.setOutlineColor(kPanelEdge);
  shape.setOutlineThickness(1.0f);
  target.draw(shape);
  panels_.push_back(r);
}

void HudRenderer::Draw(sf::RenderTarget& target, const HudState& h) {
  using core::kRadToDeg;
  panels_.clear();
  const sf::Vector2f size = target.getView().getSize();
  const unsigned fs = 14;
  const float lh = 19.0f;

  // Left panel: time, states, controls.
  const float lx = 12, ly = 12, lw = kStatePanelRight - lx;
  const float lheight = 30 + 22 + 11 * lh + 18 + h.controls.size() * 26.0f + 10;
  Panel(target, {lx, ly, lw, lheight});
  float y = ly + 8;
  Text(target, h.aircraft, lx + 10, y, 15, kInk, false);
  y += 24;
  Text(target, fmt::format("t = {:9.1f} s", h.time), lx + 10, y, 16, kInk);
  y += 26;
  // The nine perturbation states, symbol and unit from their signals; the
  // symbol column is two characters wide (fmt pads by code point).
  const sim::FlightState& s = h.state;
  const std::vector<core::Signal>& states = sim::FlightStateSignals();
  for (int i = 0; i <= sim::kPsi; ++i) {
    const DisplayUnit shown = DisplayUnitOf(states[i].unit);
    Text(target, fmt::format("{:<2} {:+9.2f} {}", states[i].symbol, s[i] * shown.factor,
                             shown.symbol),
         lx + 14, y, fs, kInk);
    y += lh;
  }
  // Height gained, Δh = −down, whose unit is down's.
  const double dh = -s[sim::kDown];
  Text(target,
       fmt::format("\xce\x94h {:+9.1f} {}", dh, core::ToString(states[sim::kDown].unit)),
       lx + 14, y, fs, kInk);
  y += lh;
  std::string pos = fmt::format("N {:.2f} km  E {:.2f} km", s[sim::kNorth] / 1000.0,
                                s[sim::kEast] / 1000.0);
  if (h.trim_altitude) pos += fmt::format("  h {:.0f} m", *h.trim_altitude + dh);
  Text(target, pos, lx + 14, y, 13, kDim);
  y += lh + 6;
  Text(target, "controls", lx + 10, y, 13, kDim, false);
  y += 18;
  for (const ControlGauge& c : h.controls) {
    const bool rad = c.unit == core::Unit::kRadian;
    const std::string value = rad ? fmt::format("{:+6.2f}\xc2\xb0", c.value * kRadToDeg)
                                  : fmt::format("{:+7.2f}", c.value);
    Text(target, c.name.substr(0, 8), lx + 14, y, 13, kInk);
    const float bx = lx + 95, bw = 110, bh = 10, by = y + 5;
    sf::RectangleShape track({bw, bh});
    track.setPosition(bx, by);
    track.setFillColor(kBarTrack);
    target.draw(track);
    const double f = std::clamp(c.range > 0 ? c.value / c.range : 0.0, -1.0, 1.0);
    sf::RectangleShape bar({static_cast<float>(std::abs(f) * bw / 2), bh});
    bar.setPosition(static_cast<float>(f >= 0 ? bx + bw / 2 : bx + bw / 2 + f * bw / 2), by);
    bar.setFillColor(kBarFill);
    target.draw(bar);
    sf::RectangleShape mid({1.5f, bh + 4});
    mid.setPosition(bx + bw / 2 - 0.75f, by - 2);
    mid.setFillColor(kInk);
    target.draw(mid);
    Text(target, value, bx + bw + 6, y, 13, kInk);
    Text(target, c.keys, lx + lw - 38, y + 1, 12, kDim);
    y += 26;
  }

  // Right panel: the mode table of the loaded aircraft.
  const float rw = 430, rx = size.x - rw - 12, ry = 12;
  const float rheight = 34 + lh * (h.modes.size() + 1) + 6;
  Panel(target, {rx, ry, rw, rheight});
  Text(target, "modes (linear model)", rx + 10, ry + 8, 15, kInk, false);
  if (!h.qualities.empty()) Text(target, h.qualities, rx + 190, ry + 10, 12, kDim);
  float my = ry + 34;
  Text(target, "mode                 \xcf\x89n rad/s    \xce\xb6    T/\xcf\x84 s", rx + 10, my, 13, kDim);
  my += lh;
  for (const ModeRow& m : h.modes) {
    const std::string t = m.period ? fmt::format("T {:6.1f}", *m.period)
                          : m.time_constant ? fmt::format("\xcf\x84 {:6.1f}", *m.time_constant)
                                            : std::string("     -");
    Text(target,
         fmt::format("{:<20.20} {:8.3f} {:7.3f}  {}", m.name, m.natural_frequency,
                     m.damping_ratio, t),
         rx + 10, my, 13, m.level ? LevelColour(*m.level) : m.stable ? kInk : kWarn);
    if (m.level) Text(target, fmt::format("L{}", *m.level), rx + rw - 34, my, 13, LevelColour(*m.level));
    my += lh;
  }

  // Bottom status strip: cost, overruns, real-time factor. Two groups of
  // fields, each wrapped onto as many lines as the width needs (an 800 px
  // window takes three or four); who flies and the log path go right of the
  // first line if they fit there, else on a line of their own.
  struct Field {
    std::string text;
    sf::Color color;
  };
  const std::vector<std::vector<Field>> groups = {
      {{fmt::format("slice {:.3g} s  cost {:.1f} \xc2\xb5s mean / {:.1f} \xc2\xb5s max",
                    h.slice_dt, h.slice_cost_mean * 1e6, h.slice_cost_max * 1e6),
        kInk},
       {fmt::format("overruns {}", h.overruns), h.overruns > 0 ? kWarn : kInk},
       {fmt::format("behind {:.2f} s", h.behind), h.overruns > 0 ? kWarn : kInk},
       {fmt::format("slices {}", h.slices), kInk}},
      {h.as_fast_as_possible
           ? Field{"time: as fast as possible (scripted)", kInk}
           : Field{fmt::format("time \xc3\x97{:.2f} (measured \xc3\x97{:.2f})", h.time_scale,
                               h.realtime_factor),
                   kInk},
       h.as_fast_as_possible ? Field{"fps: -", kInk} : Field{fmt::format("{:.0f} fps", h.fps), kInk},
       {fmt::format("frame {:.2f} ms", h.frame_cost * 1e3), kInk},
       {fmt::format("{} path points", h.drawn_points), kInk},
       {"camera: " + h.camera_mode, kInk},
       {"H/F1: help", kInk}}};
  auto width_of = [this](const std::string& s, unsigned size) {
    text_.setFont(*mono_);
    text_.setCharacterSize(size);
    text_.setString(sf::String::fromUtf8(s.begin(), s.end()));
    return text_.getLocalBounds().width;
  };
  const float text_w = size.x - 44;  // strip inner width [px]
  const float gap = width_of("   ", 13);
  std::vector<std::vector<std::pair<Field, float>>> lines;  // field, x offset
  std::vector<float> line_w;
  for (const std::vector<Field>& group : groups) {
    lines.emplace_back();
    line_w.push_back(0);
    for (const Field& f : group) {
      const float w = width_of(f.text, 13);
      if (!lines.back().empty() && line_w.back() + gap + w > text_w) {
        lines.emplace_back();
        line_w.push_back(0);
      }
      const float x = lines.back().empty() ? 0 : line_w.back() + gap;
      lines.back().push_back({f, x});
      line_w.back() = x + w;
    }
  }
  std::string log = h.pilot + (h.pilot.empty() || h.log_path.empty() ? "" : "   ") +
                    (h.log_path.empty() ? "" : "log: " + h.log_path);
  float log_w = log.empty() ? 0 : width_of(log, 12);
  const bool log_on_first = log_w + 2 * gap + line_w.front() <= text_w;
  if (!log_on_first && log_w > text_w) {
    // Keep the end of a path too long for the strip: the file name matters.
    while (log.size() > 1 && width_of("\xe2\x80\xa6" + log, 12) > text_w) {
      log.erase(0, 1);
      while (!log.empty() && (static_cast<unsigned char>(log[0]) & 0xC0) == 0x80) log.erase(0, 1);
    }
    log = "\xe2\x80\xa6" + log;
  }
  const float line_h = 20;
  const int num_lines = static_cast<int>(lines.size()) + (!log.empty() && !log_on_first);
  const float bh = 10 + line_h * num_lines, by = size.y - bh - 8;
  Panel(target, {12, by, size.x - 24, bh});
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const auto& [f, x] : lines[i]) Text(target, f.text, 22 + x, by + 6 + line_h * i, 13, f.color);
  if (!log.empty()) {
    if (log_on_first) Text(target, log, size.x - 24 - log_w, by + 7, 12, kDim);
    else Text(target, log, 22, by + 7 + line_h * lines.size(), 12, kDim);
  }

  // Top centre: pause banner, validity warnings, status message.
  float cy = 14;
  const float cx = 0.5f * ((lx + lw) + rx);
  if (h.paused) {
    text_.setFont(*sans_);
    text_.setCharacterSize(26);
    text_.setString("PAUSED  (P / Space)");
    const float w = text_.getLocalBounds().width;
    Panel(target, {cx - w / 2 - 14, cy - 4, w + 28, 40});
    Text(target, "PAUSED  (P / Space)", cx - w / 2, cy, 26, kInk, false);
    cy += 46;
  }
  for (const std::string& w : h.warnings) {
    text_.setFont(*sans_);
    text_.setCharacterSize(15);
    text_.setString(sf::String::fromUtf8(w.begin(), w.end()));
    const float tw = text_.getLocalBounds().width;
    Panel(target, {cx - tw / 2 - 10, cy - 2, tw + 20, 24});
    Text(target, w, cx - tw / 2, cy, 15, kWarn, false);
    cy += 28;
  }
  if (!h.message.empty()) Text(target, h.message, 22, by - 24, 14, kInk, false);
}

void HudRenderer::DrawHelp(sf::RenderTarget& target, const std::vector<KeyHelp>& keys) {
  const sf::Vector2f size = target.getView().getSize();
  const float lh = 22, w = 720;
  const float h = 60 + keys.size() * lh + 20;
  sf::RectangleShape dim(size);
  dim.setFillColor(sf::Color(20, 25, 35, 110));
  target.draw(dim);
  const float x = (size.x - w) / 2, y = std::max(10.0f, (size.y - h) / 2);
  sf::RectangleShape box({w, h});
  box.setPosition(x, y);
  box.setFillColor(sf::Color(255, 255, 255, 240));
  box.setOutlineColor(kPanelEdge);
  box.setOutlineThickness(1.5f);
  target.draw(box);
  Text(target, "aerolin-fly \xe2\x80\x94 keys", x + 20, y + 14, 20, kInk, false);
  float ty = y + 54;
  for (const KeyHelp& k : keys) {
    Text(target, k.keys, x + 20, ty, 15, kBarFill);
    Text(target, k.action, x + 250, ty, 15, kInk, false);
    ty += lh;
  }
}

}  // namespace aerolin::viz
