#include "aerolin/viz/hud.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "aerolin/core/units.hpp"

namespace aerolin::viz {
namespace {

// Nearly opaque: the grid and its labels must not show through.
const sf::Color kPanelFill(252, 253, 255, 238);
const sf::Color kPanelEdge(120, 130, 150, 160);
const sf::Color kInk(25, 30, 40);
const sf::Color kDim(90, 98, 115);
const sf::Color kWarn(200, 30, 20);

// `v` as the HUD shows it with `decimals` decimals: +0 when it rounds to
// zero, so that no row reads "-0.0" (a sign with no digit behind it).
double Shown(double v, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(v * scale) == 0.0 ? 0.0 : v;
}

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
const sf::Color kSky(80, 145, 215);
const sf::Color kGround(140, 100, 60);
const sf::Color kGustFill(110, 60, 170);
// Attitude indicator: disc radius range [px] and the panel's height beyond
// the disc (title, bank scale, the θ/φ line) [px].
constexpr float kMinIndicatorRadius = 36.0f;
constexpr float kMaxIndicatorRadius = 72.0f;
constexpr float kIndicatorChrome = 56.0f;

}  // namespace

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

void HudRenderer::Rect(sf::RenderTarget& target, sf::Vector2f position, sf::Vector2f size,
                       sf::Color fill, float outline, sf::Color edge) {
  rect_.setSize(size);
  rect_.setPosition(position);
  rect_.setFillColor(fill);
  rect_.setOutlineColor(edge);
  rect_.setOutlineThickness(outline);
  target.draw(rect_);
}

void HudRenderer::Panel(sf::RenderTarget& target, sf::FloatRect r) {
  Rect(target, {r.left, r.top}, {r.width, r.height}, kPanelFill, 1.0f, kPanelEdge);
  panels_.push_back(r);
}

void HudRenderer::CentredBar(sf::RenderTarget& target, const sf::FloatRect& box, double fraction,
                             sf::Color fill) {
  const float bx = box.left, by = box.top, bw = box.width, bh = box.height;
  Rect(target, {bx, by}, {bw, bh}, kBarTrack);
  const double f = std::clamp(fraction, -1.0, 1.0);
  Rect(target, {static_cast<float>(f >= 0 ? bx + bw / 2 : bx + bw / 2 + f * bw / 2), by},
       {static_cast<float>(std::abs(f) * bw / 2), bh}, fill);
  Rect(target, {bx + bw / 2 - 0.75f, by - 2}, {1.5f, bh + 4}, kInk);
}

void HudRenderer::Draw(sf::RenderTarget& target, const HudState& h) {
  using core::kRadToDeg;
  panels_.clear();
  const sf::Vector2f size = target.getView().getSize();
  auto width_of = [this](const std::string& s, unsigned size, bool mono = true) {
    text_.setFont(mono ? *mono_ : *sans_);
    text_.setCharacterSize(size);
    text_.setString(sf::String::fromUtf8(s.begin(), s.end()));
    return text_.getLocalBounds().width;
  };

  // Bottom status strip: cost, overruns, real-time factor. Two groups of
  // fields, each wrapped onto as many lines as the width needs (an 800 px
  // window takes three or four); who flies and the log path go right of the
  // first line if they fit there, else right of the last, else on a line of
  // their own. Laid out
  // first: its height decides how far down the right column reaches.
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
       {fmt::format("altitude \xc3\x97{:g}{} (X)", h.vertical_exaggeration,
                    h.exaggeration_auto ? " auto" : ""),
        kInk},
       {AttitudeExaggerationText(h), kInk},
       {fmt::format("panels {} (Tab)", ToString(h.panels)), kInk},
       {"H/F1: help", kInk}}};
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
  const bool log_on_last = !log_on_first && log_w + 2 * gap + line_w.back() <= text_w;
  if (!log_on_first && !log_on_last && log_w > text_w) {
    // Keep the end of a path too long for the strip: the file name matters.
    while (log.size() > 1 && width_of("\xe2\x80\xa6" + log, 12) > text_w) {
      log.erase(0, 1);
      while (!log.empty() && (static_cast<unsigned char>(log[0]) & 0xC0) == 0x80) log.erase(0, 1);
    }
    log = "\xe2\x80\xa6" + log;
  }
  const int num_lines =
      static_cast<int>(lines.size()) + (!log.empty() && !log_on_first && !log_on_last);
  const HudLayout layout = LayoutHud(h, size.x, size.y, h.panels, num_lines);
  const bool shown = layout.mode != PanelMode::kHidden;
  const bool compact = layout.mode == PanelMode::kCompact;
  const unsigned fs = layout.text_size, small = layout.small_size;
  const float lh = layout.line_height;

  // Left panel: time, states, controls.
  if (shown) {
    const HudRect& lp = layout.state_panel;
    const float lx = lp.left;
    Panel(target, {lp.left, lp.top, lp.width, lp.height});
    float y = lp.top + 8;
    std::string name = h.aircraft;
    if (compact && width_of(name, 13, false) > lp.width - 20) {  // one line, cut with "…"
      while (name.size() > 1 && width_of(name + "\xe2\x80\xa6", 13, false) > lp.width - 20) {
        name.pop_back();
        while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80)
          name.pop_back();
      }
      name += "\xe2\x80\xa6";
    }
    Text(target, name, lx + 10, y, compact ? 13 : 15, kInk, false);
    y += compact ? 20 : 24;
    Text(target, fmt::format("t = {:9.1f} s", h.time), lx + 10, y, compact ? 14 : 16, kInk);
    y += compact ? 22 : 26;
    // The nine perturbation states, symbol and unit from their signals; the
    // symbol column is two characters wide (fmt pads by code point).
    const sim::FlightState& s = h.state;
    const std::vector<core::Signal>& states = sim::FlightStateSignals();
    for (int i = 0; i <= sim::kPsi; ++i) {
      const DisplayUnit unit = DisplayUnitOf(states[i].unit);
      Text(target, fmt::format("{:<2} {:+9.2f} {}", states[i].symbol, Shown(s[i] * unit.factor, 2),
                               unit.symbol),
           lx + 14, y, fs, kInk);
      y += lh;
    }
    // Height gained, Δh = −down, whose unit is down's.
    const double dh = -s[sim::kDown];
    Text(target,
         fmt::format("\xce\x94h {:+9.1f} {}", Shown(dh, 1), core::ToString(states[sim::kDown].unit)),
         lx + 14, y, fs, kInk);
    y += lh;
    std::string pos = fmt::format("N {:.2f} km  E {:.2f} km", Shown(s[sim::kNorth] / 1000.0, 2),
                                  Shown(s[sim::kEast] / 1000.0, 2));
    if (h.trim_altitude) pos += fmt::format("  h {:.0f} m", *h.trim_altitude + dh);
    Text(target, pos, lx + 14, y, compact ? 12 : 13, kDim);
    y += lh + (compact ? 2 : 6);
    Text(target, "controls", lx + 10, y, compact ? 12 : 13, kDim, false);
    y += compact ? 16 : 18;
    for (const ControlGauge& c : h.controls) {
      const bool rad = c.unit == core::Unit::kRadian;
      const std::string value = rad ? fmt::format("{:+6.2f}\xc2\xb0", Shown(c.value * kRadToDeg, 2))
                                    : fmt::format("{:+7.2f}", Shown(c.value, 2));
      Text(target, c.name.substr(0, 8), lx + 14, y, small, kInk);
      const float bx = lx + (compact ? 82 : 95), bw = compact ? 90 : 110, bh = 10, by = y + 5;
      // A surface held at its actuator's stop or moving at its rate limit:
      // the bar and its value in red, with the stop marked at the bar's ends
      // (the warning line names which).
      const bool limited = c.saturated || c.rate_saturated;
      CentredBar(target, {bx, by, bw, bh}, c.range > 0 ? c.value / c.range : 0.0,
                 limited ? kWarn : kBarFill);
      if (c.limit && c.range > 0) {
        const float half = static_cast<float>(*c.limit / c.range) * bw / 2;
        for (const float sx : {bx + bw / 2 - half, bx + bw / 2 + half})
          Rect(target, {sx - 1.0f, by - 3}, {2.0f, bh + 6}, c.saturated ? kWarn : kDim);
      }
      Text(target, value, bx + bw + 6, y, small, limited ? kWarn : kInk);
      if (!compact) Text(target, c.keys, lx + 22, y + 17, 12, kDim, false);
      y += layout.control_row;
    }
  }

  // Right panel: the mode table of the loaded aircraft (compact: no ωn).
  const HudRect& mt = layout.mode_table;
  const float rx = mt.left, ry = mt.top, rw = mt.width;
  if (shown) {
    Panel(target, {mt.left, mt.top, mt.width, mt.height});
    // Full panels say which aircraft the modes are of when the file closes a
    // feedback (the G key switches it); compact ones leave that to the
    // augmentation line of the right column.
    const char* title = compact                    ? "modes"
                        : !h.augmentation_on       ? "modes (linear model)"
                        : *h.augmentation_on       ? "modes (closed loop)"
                                                   : "modes (bare airframe)";
    Text(target, title, rx + 10, ry + (compact ? 6 : 8), compact ? 14 : 15, kInk, false);
    if (!h.qualities.empty())
      Text(target, h.qualities, rx + (compact ? 70 : 190), ry + (compact ? 8 : 10), 12, kDim);
    float my = ry + (compact ? 30 : 34);
    const float row = compact ? 17 : lh;
    const unsigned size_row = compact ? 12 : 13;
    Text(target,
         compact ? "mode                   \xce\xb6  T/\xcf\x84 s"
                 : "mode                 \xcf\x89n rad/s    \xce\xb6    T/\xcf\x84 s",
         rx + 10, my, size_row, kDim);
    my += row;
    for (const ModeRow& m : h.modes) {
      const std::string t = m.period ? fmt::format("T {:6.1f}", *m.period)
                            : m.time_constant ? fmt::format("\xcf\x84 {:6.1f}", *m.time_constant)
                                              : std::string("     -");
      // A name longer than its column goes on over the next lines.
      const std::vector<std::string> names = ModeNameLines(m.name, ModeNameChars(layout.mode));
      const std::string text =
          compact ? fmt::format("{:<18.18} {:6.3f}  {}", names.front(), m.damping_ratio, t)
                  : fmt::format("{:<20.20} {:8.3f} {:7.3f}  {}", names.front(), m.natural_frequency,
                                m.damping_ratio, t);
      const sf::Color colour = m.level ? LevelColour(*m.level) : m.stable ? kInk : kWarn;
      Text(target, text, rx + 10, my, size_row, colour);
      if (m.level)
        Text(target, fmt::format("L{}", *m.level), rx + rw - (compact ? 28 : 34), my, size_row,
             LevelColour(*m.level));
      my += row;
      for (std::size_t i = 1; i < names.size(); ++i, my += row)
        Text(target, names[i], rx + 10, my, size_row, colour);
    }
  }

  const float by = layout.strip.top, bh = layout.strip.height;
  const float line_h = 20;
  Panel(target, {layout.strip.left, by, layout.strip.width, bh});
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const auto& [f, x] : lines[i]) Text(target, f.text, 22 + x, by + 6 + line_h * i, 13, f.color);
  if (!log.empty()) {
    if (log_on_first) Text(target, log, size.x - 24 - log_w, by + 7, 12, kDim);
    else if (log_on_last)
      Text(target, log, size.x - 24 - log_w, by + 7 + line_h * (lines.size() - 1), 12, kDim);
    else Text(target, log, 22, by + 7 + line_h * lines.size(), 12, kDim);
  }

  // Right column under the mode table: the attitude indicator, then the
  // excitation and turbulence panel, as far down as the status strip allows.
  if (shown) {
    const HudRect& col = layout.right_column;
    const float aw = col.width, ax = col.left;
    // A narrow column gets a smaller indicator, so the scene keeps some room.
    const float max_radius = aw < 220 ? 44 : kMaxIndicatorRadius;
    float ay = col.top;
    // In turbulence the RMS rows come first: in a column too short for them
    // and the indicator (800 x 600) the indicator gives way; in one too
    // short for the rows alone they go and the gusts stay.
    const bool with_rms = ay + DisturbancesHeight(h, true) <= col.bottom();
    const float disturbances = DisturbancesHeight(h, with_rms);
    const float room = col.bottom() - ay - disturbances - 8;
    if (room >= 2 * kMinIndicatorRadius + kIndicatorChrome)
      ay += DrawAttitude(target, h, ax, ay, aw,
                         std::min(max_radius, (room - kIndicatorChrome) / 2)) + 8;
    if (ay + disturbances <= col.bottom()) DrawDisturbances(target, h, ax, ay, aw, with_rms);
  }

  // Pause banner, validity warnings and the status message. The pause
  // banner goes top centre, between the state panel and the mode table,
  // where it fits; the warnings, whose width changes with the numbers in
  // them, always stack above the status strip (so they don't jump as a
  // value grows), with the pause banner on top of them in a window too
  // narrow for it at the top (800 px: the gap there is ~15 px). They never
  // cover the aircraft's name, the mode table's header or the right column
  // (tests/viz/window_check.cpp HudPanels). The status message, wrapped to
  // the width left of the right column, keeps its lines above the strip.
  struct Banner {
    std::string text;
    unsigned size;
    float text_width;
    bool big;  ///< the pause banner
    float pad() const { return big ? 14 : 10; }
    float width() const { return text_width + 2 * pad(); }
    float lift() const { return big ? 4 : 2; }  ///< panel top above the text
    float height() const { return big ? 40 : 24; }
    float advance() const { return big ? 46 : 28; }
  };
  auto banner = [&](const std::string& s, unsigned size) {
    return Banner{s, size, width_of(s, size, false), size > 20};
  };
  // The nonlinear aircraft's lines (the N key) are information, not warnings.
  std::size_t ink_lines = 0;  // of the stack, from first_ink
  auto draw = [&](const Banner& b, float cx, float ty, bool ink) {
    Panel(target, {cx - b.width() / 2, ty - b.lift(), b.width(), b.height()});
    Text(target, b.text, cx - b.text_width / 2, ty, b.size, b.big || ink ? kInk : kWarn, false);
  };
  std::vector<Banner> stack;
  if (h.paused) {
    const Banner pause = banner("PAUSED  (P / Space)", 26);
    const float gap_left = shown ? layout.state_panel.right() : 12;
    const float gap_right = shown ? rx : size.x - 12;
    if (pause.width() + 16 <= gap_right - gap_left)
      draw(pause, 0.5f * (gap_left + gap_right), 14, false);
    else stack.push_back(pause);
  }
  const std::size_t first_ink = stack.size();
  if (!h.nonlinear.empty()) stack.push_back(banner(h.nonlinear, 15));
  for (const std::string& n : h.nonlinear_notes) stack.push_back(banner(n, 15));
  // Refused or stopped, its one line is a warning.
  ink_lines = h.nonlinear_difference ? stack.size() - first_ink : 0;
  for (const std::string& w : h.warnings) stack.push_back(banner(w, 15));
  // Centred left of the right column (attitude, turbulence), which reaches
  // down to the strip in a small window.
  const float column_left = shown ? layout.right_column.left : size.x - 12;
  const std::vector<std::string> message =
      WrapText(h.message, column_left - 8 - 22,
               [&](const std::string& s) { return width_of(s, 14, false); });
  const float message_h = 20.0f * static_cast<float>(message.size());
  float stack_height = 0;
  for (const Banner& b : stack) stack_height += b.advance();
  float ty = by - 8 - (message.empty() ? 0 : message_h + 4) - stack_height + 4;
  for (std::size_t i = 0; i < stack.size(); ++i) {
    const bool ink = i >= first_ink && i < first_ink + ink_lines;
    draw(stack[i], 0.5f * (12 + column_left - 8), ty, ink);
    ty += stack[i].advance();
  }
  for (std::size_t i = 0; i < message.size(); ++i)
    Text(target, message[i], 22, by - 4 - message_h + 20.0f * static_cast<float>(i), 14, kInk,
         false);
}

float HudRenderer::DrawAttitude(sf::RenderTarget& target, const HudState& h, float x, float y,
                                float w, float radius) {
  const float R = radius;
  const float height = 2 * R + kIndicatorChrome;
  Panel(target, {x, y, w, height});
  Text(target, "attitude", x + 10, y + 5, 13, kDim, false);
  const sf::Vector2f c(x + w / 2, y + 30 + R);
  const double phi = h.state[sim::kPhi];
  const double theta_deg = h.pitch_attitude * core::kRadToDeg;
  // Screen axes (x right, y down): the horizon runs along d and n points
  // from it to the ground; a bank φ > 0 (right wing down) raises its right
  // end, a pitch θ > 0 (nose up) moves it down by θ·kPitchPixelsPerDegree.
  const sf::Vector2f d(static_cast<float>(std::cos(phi)), static_cast<float>(-std::sin(phi)));
  const sf::Vector2f n(static_cast<float>(std::sin(phi)), static_cast<float>(std::cos(phi)));
  auto dot = [](sf::Vector2f a, sf::Vector2f b) { return a.x * b.x + a.y * b.y; };
  const float ppd = PitchPixelsPerDegree(R, h.trim_pitch * core::kRadToDeg);
  const float offset = static_cast<float>(theta_deg) * ppd;

  sf::CircleShape disc(R, 72);
  disc.setOrigin(R, R);
  disc.setPosition(c);
  disc.setFillColor(kSky);
  target.draw(disc);
  // Ground: the disc's part beyond the horizon, (p − c)·n > offset, a convex
  // polygon of the circle's points there and the two crossings.
  sf::VertexArray ground(sf::TriangleFan);
  constexpr int kSides = 72;
  for (int i = 0; i < kSides; ++i) {
    const double a0 = 2 * core::kPi * i / kSides, a1 = 2 * core::kPi * (i + 1) / kSides;
    const sf::Vector2f p0 = c + R * sf::Vector2f(float(std::cos(a0)), float(std::sin(a0)));
    const sf::Vector2f p1 = c + R * sf::Vector2f(float(std::cos(a1)), float(std::sin(a1)));
    const float s0 = dot(p0 - c, n) - offset, s1 = dot(p1 - c, n) - offset;
    if (s0 > 0) ground.append({p0, kGround});
    if ((s0 > 0) != (s1 > 0)) ground.append({p0 + (p1 - p0) * (s0 / (s0 - s1)), kGround});
  }
  if (ground.getVertexCount() >= 3) target.draw(ground);
  sf::VertexArray lines(sf::Triangles);
  auto segment = [&lines](sf::Vector2f a, sf::Vector2f b, float width, sf::Color colour) {
    const sf::Vector2f v = b - a;
    const float len = std::sqrt(v.x * v.x + v.y * v.y);
    if (!(len > 1e-4f)) return;
    const sf::Vector2f m(-v.y / len * width / 2, v.x / len * width / 2);
    for (const sf::Vector2f p : {a + m, a - m, b + m, b + m, a - m, b - m}) lines.append({p, colour});
  };
  const sf::Vector2f horizon = c + n * offset;
  if (std::abs(offset) < R) {
    const float half = std::sqrt(R * R - offset * offset);
    segment(horizon - d * half, horizon + d * half, 2.0f, sf::Color::White);
  }
  // Pitch ladder every 5°, labelled every 10°, where it fits in the disc.
  std::vector<std::pair<sf::Vector2f, int>> ladder_labels;
  for (int ladder = -40; ladder <= 40; ladder += 5) {
    if (ladder == 0) continue;
    const sf::Vector2f m = c + n * static_cast<float>((theta_deg - ladder) * ppd);
    const float half = ladder % 10 == 0 ? 0.28f * R : 0.15f * R;
    const sf::Vector2f rel = m - c;
    if (std::sqrt(dot(rel, rel)) + 0.5f * half > R - 6) continue;
    segment(m - d * half, m + d * half, 1.4f, sf::Color::White);
    if (ladder % 10 == 0) ladder_labels.push_back({m + d * (half + 11), ladder});
  }
  // Bank scale: fixed ticks on the case at 0, ±10 … ±60° from the top; the
  // sky pointer turns with the horizon and points at the bank angle.
  auto tick = [&](double deg, float len, float width) {
    const double a = deg * core::kDegToRad;
    const sf::Vector2f u(float(std::sin(a)), float(-std::cos(a)));
    segment(c + u * (R + 1), c + u * (R + 1 + len), width, kInk);
  };
  tick(0, 9, 2.0f);
  for (const int t : kBankTicks) {
    const float len = t % 30 == 0 ? 8.0f : 5.0f;
    tick(t, len, 1.4f);
    tick(-t, len, 1.4f);
  }
  const sf::Vector2f up = -n;
  const sf::Vector2f tip = c + up * (R - 2), base = c + up * (R - 12);
  sf::VertexArray pointer(sf::Triangles, 3);
  pointer[0] = {tip, kInk};
  pointer[1] = {base + d * 5.0f, kInk};
  pointer[2] = {base - d * 5.0f, kInk};
  // Fixed aircraft symbol: wings and a centre dot.
  const sf::Color symbol(250, 205, 20);
  segment(c + sf::Vector2f(-0.62f * R, 0), c + sf::Vector2f(-0.2f * R, 0), 5.0f, kInk);
  segment(c + sf::Vector2f(0.2f * R, 0), c + sf::Vector2f(0.62f * R, 0), 5.0f, kInk);
  segment(c + sf::Vector2f(-0.6f * R, 0), c + sf::Vector2f(-0.22f * R, 0), 2.6f, symbol);
  segment(c + sf::Vector2f(0.22f * R, 0), c + sf::Vector2f(0.6f * R, 0), 2.6f, symbol);
  target.draw(lines);
  target.draw(pointer);
  sf::CircleShape dot_shape(3.5f);
  dot_shape.setOrigin(3.5f, 3.5f);
  dot_shape.setPosition(c);
  dot_shape.setFillColor(symbol);
  dot_shape.setOutlineColor(kInk);
  dot_shape.setOutlineThickness(1.0f);
  target.draw(dot_shape);
  for (const auto& [p, value] : ladder_labels) {
    text_.setFont(*mono_);
    text_.setCharacterSize(10);
    text_.setString(std::to_string(std::abs(value)));
    const sf::FloatRect r = text_.getLocalBounds();
    text_.setFillColor(sf::Color::White);
    text_.setOutlineThickness(0.0f);
    text_.setPosition(std::round(p.x - r.left - r.width / 2), std::round(p.y - r.top - r.height / 2));
    target.draw(text_);
  }
  Text(target, fmt::format("\xce\xb8\xe2\x82\x80+\xce\xb8 {:+.1f}\xc2\xb0  \xcf\x86 {:+.1f}\xc2\xb0",
                           Shown(theta_deg, 1), Shown(phi * core::kRadToDeg, 1)),
       x + 10, y + height - 22, 13, kInk);
  return height;
}

namespace {
// The lines under "augmentation on/off": one per axis with loops, or
// "bare airframe".
float AugmentationLines(const HudState& h) {
  return h.augmentation_on && *h.augmentation_on
             ? static_cast<float>(std::max<std::size_t>(h.augmentation_loops.size(), 1))
             : 1.0f;
}
}  // namespace

float HudRenderer::DisturbancesHeight(const HudState& h, bool with_rms) const {
  const std::size_t rms_rows = with_rms && !h.turbulence_rms.empty() ? h.turbulence_rms.size() + 1 : 0;
  return 10 + 18 + (h.excitation.empty() ? 0 : 17) + (h.augmentation_on ? 18 + 17 * AugmentationLines(h) : 0) + 18 +
         (h.turbulence.empty() ? 0 : 3 * 17 + 4 * 17 + 17 * static_cast<float>(rms_rows)) + 4;
}

float HudRenderer::DrawDisturbances(sf::RenderTarget& target, const HudState& h, float x,
                                    float y, float w, bool with_rms) {
  const float height = DisturbancesHeight(h, with_rms);
  Panel(target, {x, y, w, height});
  float ty = y + 6;
  // The narrow column (800 px windows) takes 12 px text: "turbulence
  // moderate  (T)" at 13 px reaches its edge.
  const unsigned title = w < 220 ? 12 : 13;
  Text(target, fmt::format("amplitude \xc3\x97{:g}  (, .)", h.amplitude_factor), x + 10, ty,
       title, kInk);
  ty += 18;
  if (!h.excitation.empty()) {
    Text(target, h.excitation, x + 18, ty, 12, kDim);
    ty += 17;
  }
  if (h.augmentation_on) {
    // The file's feedback: flying (the closed loop) or switched off (G).
    Text(target, *h.augmentation_on ? "augmentation on  (G)" : "augmentation off  (G)", x + 10, ty,
         title, *h.augmentation_on ? kStable : kWarn);
    ty += 18;
    if (!*h.augmentation_on) {
      Text(target, "bare airframe", x + 18, ty, 12, kDim);
      ty += 17;
    } else {
      for (const std::string& line : h.augmentation_loops) {
        Text(target, line, x + 18, ty, 12, kDim);
        ty += 17;
      }
    }
  }
  if (h.turbulence.empty()) {
    Text(target, "turbulence off  (T)", x + 10, ty, title, kInk);
    return height;
  }
  Text(target, "turbulence " + h.turbulence + "  (T)", x + 10, ty, title, kWarn);
  ty += 18;
  Text(target,
       fmt::format("\xcf\x83 {:.1f}/{:.1f}/{:.1f} m/s", h.turbulence_sigma.x(),
                   h.turbulence_sigma.y(), h.turbulence_sigma.z()),
       x + 18, ty, 12, kDim);
  ty += 17;
  // Height above ground (AGL) and where it came from, e.g. "AGL 305 m
  // (default)": the Dryden scales depend on it.
  Text(target, fmt::format("AGL {:.0f} m ({})", h.turbulence_altitude, h.turbulence_height_source),
       x + 18, ty, 12, kDim);
  ty += 17;
  Text(target, fmt::format("seed {}", h.turbulence_seed), x + 18, ty, 12, kDim);
  ty += 17;
  // Gust bars: u_g, v_g, w_g against ±3σ of their component.
  static constexpr std::array<const char*, 3> kNames = {"u_g", "v_g", "w_g"};
  for (int i = 0; i < 3; ++i) {
    const float bx = x + 52, bw = w - 52 - 82, bh = 9, by = ty + 4;
    Text(target, kNames[i], x + 18, ty, 12, kInk);
    const double range = 3.0 * std::max(h.turbulence_sigma[i], 1e-9);
    CentredBar(target, {bx, by, bw, bh}, h.wind[i] / range, kGustFill);
    Text(target, fmt::format("{:+5.1f} m/s", Shown(h.wind[i], 1)), bx + bw + 6, ty, 12, kInk);
    ty += 17;
  }
  Text(target, fmt::format("p_g {:+.2f}\xc2\xb0/s", Shown(h.wind[3] * core::kRadToDeg, 2)), x + 18, ty,
       12, kInk);
  if (!with_rms || h.turbulence_rms.empty()) return height;
  // The running RMS of this flight beside the exact stationary RMS it
  // tends to (`aerolin rms`): a student sees the estimate converge.
  ty += 17;
  Text(target, fmt::format("RMS: {:.0f} s flown / exact", h.turbulence_rms_time), x + 10, ty, 12, kInk);
  for (const HudState::RmsRow& row : h.turbulence_rms) {
    ty += 17;
    const int digits = row.unit == "g" ? 3 : 2;
    const std::string exact = row.exact ? fmt::format("{:.{}f}", Shown(*row.exact, digits), digits) : "\xe2\x80\x94";
    Text(target, row.symbol, x + 18, ty, 12, kInk);
    Text(target, fmt::format("{:.{}f} / {} {}", Shown(row.running, digits), digits, exact, row.unit), x + 52, ty, 12,
         kInk);
  }
  return height;
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
