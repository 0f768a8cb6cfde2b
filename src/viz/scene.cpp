#include "aerolin/viz/scene.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "aerolin/core/units.hpp"
#include "aerolin/export/glyph.hpp"

namespace aerolin::viz {
namespace {

const sf::Color kSkyTop(206, 222, 240);
const sf::Color kSkyBottom(244, 247, 251);
const sf::Color kGridLine(160, 174, 192, 150);
const sf::Color kGridBorder(110, 124, 145, 200);
const sf::Color kPath(24, 86, 200);
const sf::Color kPathOld(120, 160, 225);
const sf::Color kShadow(60, 66, 80, 80);
const sf::Color kAxis(40, 44, 52);
// The wing tips' trail: navigation-light red (left; darker than the
// glyph's orange-red, which tests look for) and green (right).
const sf::Color kTipLeft(190, 20, 40);
const sf::Color kTipRight(20, 150, 60);
// The glyph's faces are slightly translucent so the path behind shows.
constexpr sf::Uint8 kGlyphAlpha = 235;
// The nonlinear aircraft (the N key): violet, far from the linear glyph's
// orange-red, lime and gold, at alpha 0.45 so the linear glyph and the path
// show through it; its trail the same violet, both tips.
constexpr sf::Uint8 kGhostAlpha = 115;
const sf::Color kGhostWing(120, 60, 210, kGhostAlpha);
const sf::Color kGhostBody(175, 135, 240, kGhostAlpha);
const sf::Color kGhostEdge(70, 30, 130, kGhostAlpha);
const sf::Color kGhostTrail(120, 60, 210);
constexpr float kGhostTrailFade = 0.6f;  // of the linear trail's alpha

constexpr float kPathWidth = 2.6f;     // [px]
constexpr float kShadowWidth = 2.0f;   // [px]
constexpr float kGridWidth = 1.0f;     // [px]
constexpr int kMaxLabelsPerAxis = 8;

sf::Vector2f V(const ScreenPoint& p) {
  return {static_cast<float>(p.x), static_cast<float>(p.y)};
}

// A segment drawn as two triangles of the given width, so lines are thicker
// than SFML's one-pixel sf::Lines and can blend colour along their length.
void AppendSegment(sf::VertexArray& out, sf::Vector2f a, sf::Vector2f b,
                   float width, sf::Color ca, sf::Color cb) {
  sf::Vector2f d = b - a;
  const float len = std::sqrt(d.x * d.x + d.y * d.y);
  if (!(len > 1e-4f) || !std::isfinite(len)) return;
  const sf::Vector2f n(-d.y / len * 0.5f * width, d.x / len * 0.5f * width);
  out.append({a + n, ca});
  out.append({a - n, ca});
  out.append({b + n, cb});
  out.append({b + n, cb});
  out.append({a - n, ca});
  out.append({b - n, cb});
}

void AppendProjectedSegment(sf::VertexArray& out, const Projector& projector,
                            const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                            float width, sf::Color ca, sf::Color cb) {
  const auto seg = projector.ProjectSegment(a, b);
  if (seg) AppendSegment(out, V(seg->first), V(seg->second), width, ca, cb);
}

sf::Color ToSf(exporting::Rgb c, sf::Uint8 alpha = 255) { return {c.r, c.g, c.b, alpha}; }

sf::Color Mix(sf::Color a, sf::Color b, float t) {
  auto m = [t](sf::Uint8 x, sf::Uint8 y) {
    return static_cast<sf::Uint8>(std::lround(x + (y - x) * t));
  };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), m(a.a, b.a)};
}

}  // namespace

GroundGrid LayoutGrid(const Bounds& bounds, double min_extent) {
  GroundGrid g;
  const Eigen::Vector3d lo = bounds.empty ? Eigen::Vector3d::Zero() : bounds.min;
  const Eigen::Vector3d hi = bounds.empty ? Eigen::Vector3d::Zero() : bounds.max;
  const double extent = std::max({hi.x() - lo.x(), hi.y() - lo.y(), min_extent});
  g.step = NiceStep(extent, 8.0);
  const Eigen::Vector2d center(0.5 * (lo.x() + hi.x()), 0.5 * (lo.y() + hi.y()));
  for (int i = 0; i < 2; ++i) {
    const double half = 0.5 * std::max(hi[i] - lo[i], min_extent) + g.step;
    g.min[i] = std::floor((std::min(lo[i], center[i] - half)) / g.step) * g.step;
    g.max[i] = std::ceil((std::max(hi[i], center[i] + half)) / g.step) * g.step;
  }
  // The altitude axis spans at least 30 % of the horizontal extent, so a
  // level flight still gets a readable axis and its shadow sits visibly below.
  const double z_step = NiceStep(std::max(hi.z() - lo.z(), 0.3 * extent), 3.0);
  g.ground_z = std::floor(lo.z() / z_step) * z_step - z_step;
  g.top_z = std::ceil(hi.z() / z_step) * z_step + z_step;
  return g;
}

GroundGrid LayoutFollowGrid(const Bounds& bounds, const Eigen::Vector3d& aircraft,
                            double distance) {
  GroundGrid g;
  g.step = NiceStep(2.0 * std::max(distance, 1.0), 8.0);
  const double half = kFollowGridSteps * g.step;
  for (int i = 0; i < 2; ++i) {
    g.min[i] = std::floor((aircraft[i] - half) / g.step) * g.step;
    g.max[i] = std::ceil((aircraft[i] + half) / g.step) * g.step;
  }
  const double lo = bounds.empty ? aircraft.z() : std::min(bounds.min.z(), aircraft.z());
  const double hi = bounds.empty ? aircraft.z() : std::max(bounds.max.z(), aircraft.z());
  g.ground_z = std::floor(lo / g.step) * g.step - g.step;
  g.top_z = std::ceil(hi / g.step) * g.step + g.step;
  return g;
}

Bounds DrawnBounds(const Bounds& path) {
  const GroundGrid g = LayoutGrid(path, kMinGridExtent);
  Bounds drawn = path;
  drawn.Extend({g.min.x(), g.min.y(), g.ground_z});
  drawn.Extend({g.max.x(), g.max.y(), g.top_z});
  return drawn;
}

double AutoVerticalExaggeration(const Bounds& path) {
  if (path.empty) return 1.0;
  const Eigen::Vector3d extent = path.max - path.min;
  const double horizontal = std::max({extent.x(), extent.y(), kMinGridExtent});
  const double vertical = std::max(extent.z(), 1.0);
  double best = 1.0;
  for (const double k : {2.0, 5.0, 10.0, 20.0, 50.0, 100.0})
    if (k * vertical <= 0.25 * horizontal) best = k;
  return best;
}

double AutoAttitudeExaggeration(double peak) {
  constexpr double kDeg = core::kDegToRad;
  if (!std::isfinite(peak)) return 1.0;
  const double largest = std::max(peak, 1.0 * kDeg);
  double best = 1.0;
  for (const double k : {2.0, 5.0, 10.0, 20.0})
    if (k * largest <= 25.0 * kDeg) best = k;
  return best;
}

double AutoHeadingExaggeration(double peak) {
  constexpr double kDeg = core::kDegToRad;
  if (!std::isfinite(peak)) return 1.0;
  const double largest = std::max(peak, 0.25 * kDeg);
  double best = 1.0;
  for (const double k : {2.0, 5.0, 10.0, 20.0, 50.0, kMaxAttitudeExaggeration})
    if (k * largest <= 25.0 * kDeg) best = k;
  return best;
}

GlyphExaggeration AutoGlyphExaggeration(const Eigen::Vector3d& peak) {
  return {AutoAttitudeExaggeration(std::max(peak[0], peak[1])), AutoHeadingExaggeration(peak[2])};
}

std::string FormatDistance(double metres, double step) {
  if (std::abs(metres) < 1e-9 * std::max(step, 1.0)) metres = 0.0;
  if (step >= 1000.0 || std::abs(metres) >= 10000.0) {
    const bool whole = std::fmod(step, 1000.0) == 0.0;
    return fmt::format("{:.{}f} km", metres / 1000.0, whole ? 0 : 1);
  }
  return fmt::format("{:.{}f} m", metres, step >= 1.0 ? 0 : 1);
}

bool SceneRenderer::TryLabel(sf::RenderTarget& target, const std::string& text, float x,
                             float y, unsigned size, sf::Color color, bool center,
                             float angle_deg, bool right_aligned) {
  text_.setFont(*font_);
  text_.setString(sf::String::fromUtf8(text.begin(), text.end()));
  text_.setCharacterSize(size);
  text_.setFillColor(color);
  text_.setOutlineColor(sf::Color(250, 251, 253, 220));
  text_.setOutlineThickness(2.0f);
  const sf::FloatRect r = text_.getLocalBounds();
  // Origin at the anchor: the centre, the left or the right end of the text,
  // vertically centred; then turned by the angle about it.
  const float ox = center ? r.left + 0.5f * r.width : right_aligned ? r.left + r.width : r.left;
  text_.setOrigin(ox, r.top + 0.5f * r.height);
  text_.setRotation(angle_deg);
  text_.setPosition(std::round(x), std::round(y));
  sf::FloatRect box = text_.getGlobalBounds();
  box.left -= 2, box.top -= 2, box.width += 4, box.height += 4;
  text_.setRotation(0.0f);
  text_.setOrigin(0.0f, 0.0f);
  const sf::Vector2f vs = target.getView().getSize();
  const sf::Vector2f v0 = target.getView().getCenter() - 0.5f * vs;
  const bool inside = box.left >= v0.x && box.top >= v0.y && box.left + box.width <= v0.x + vs.x &&
                      box.top + box.height <= v0.y + vs.y;
  if (!inside) return false;
  for (const sf::FloatRect& other : placed_)
    if (box.intersects(other)) return false;
  for (const sf::FloatRect& other : keep_out_)
    if (box.intersects(other)) return false;
  text_.setOrigin(ox, r.top + 0.5f * r.height);
  text_.setRotation(angle_deg);
  target.draw(text_);
  text_.setRotation(0.0f);
  text_.setOrigin(0.0f, 0.0f);
  placed_.push_back(box);
  return true;
}

void SceneRenderer::Draw(sf::RenderTarget& target, const Projector& projector,
                         const SceneView& view) {
  grid_ = view.follow_distance
              ? LayoutFollowGrid(view.bounds, view.aircraft, *view.follow_distance)
              : LayoutGrid(view.bounds, kMinGridExtent);
  DrawBackground(target);
  DrawGrid(target, projector);
  DrawPath(target, projector, view);
  DrawAxes(target, projector, view.vertical_exaggeration);
  DrawGlyph(target, projector, view);
}

void SceneRenderer::DrawBackground(sf::RenderTarget& target) {
  // The window may shift the view (scene centred beside the HUD): cover it all.
  const sf::Vector2f size = target.getView().getSize();
  const sf::Vector2f lo = target.getView().getCenter() - 0.5f * size, hi = lo + size;
  sf::VertexArray quad(sf::TriangleStrip, 4);
  quad[0] = {{lo.x, lo.y}, kSkyTop};
  quad[1] = {{hi.x, lo.y}, kSkyTop};
  quad[2] = {{lo.x, hi.y}, kSkyBottom};
  quad[3] = {{hi.x, hi.y}, kSkyBottom};
  target.draw(quad);
}

void SceneRenderer::DrawGrid(sf::RenderTarget& target, const Projector& projector) {
  lines_.clear();
  const GroundGrid& g = grid_;
  const double z = g.ground_z;
  for (double x = g.min.x(); x <= g.max.x() + 0.5 * g.step; x += g.step) {
    const bool edge = x <= g.min.x() + 1e-6 || x >= g.max.x() - 1e-6;
    AppendProjectedSegment(lines_, projector, {x, g.min.y(), z}, {x, g.max.y(), z},
                           edge ? 1.6f : kGridWidth, edge ? kGridBorder : kGridLine,
                           edge ? kGridBorder : kGridLine);
  }
  for (double y = g.min.y(); y <= g.max.y() + 0.5 * g.step; y += g.step) {
    const bool edge = y <= g.min.y() + 1e-6 || y >= g.max.y() - 1e-6;
    AppendProjectedSegment(lines_, projector, {g.min.x(), y, z}, {g.max.x(), y, z},
                           edge ? 1.6f : kGridWidth, edge ? kGridBorder : kGridLine,
                           edge ? kGridBorder : kGridLine);
  }
  target.draw(lines_);
}

void SceneRenderer::DrawPath(sf::RenderTarget& target, const Projector& projector,
                             const SceneView& view) {
  lines_.clear();
  shadow_.clear();
  if (view.path == nullptr || view.path->size() < 2) return;
  const std::vector<Eigen::Vector3d>& path = *view.path;
  const double z = grid_.ground_z;
  const float n = static_cast<float>(path.size() - 1);
  for (std::size_t i = 1; i < path.size(); ++i) {
    const Eigen::Vector3d& a = path[i - 1];
    const Eigen::Vector3d& b = path[i];
    // Older path fades toward a lighter blue, so direction of travel reads.
    const float ta = std::min(1.0f, (i - 1) / n * 1.4f);
    const float tb = std::min(1.0f, i / n * 1.4f);
    AppendProjectedSegment(lines_, projector, a, b, kPathWidth,
                           Mix(kPathOld, kPath, ta), Mix(kPathOld, kPath, tb));
    AppendProjectedSegment(shadow_, projector, {a.x(), a.y(), z}, {b.x(), b.y(), z},
                           kShadowWidth, kShadow, kShadow);
  }
  target.draw(shadow_);
  target.draw(lines_);
}

void SceneRenderer::DrawAxes(sf::RenderTarget& target, const Projector& projector,
                             double exaggeration) {
  const GroundGrid& g = grid_;
  const Eigen::Vector3d& eye = projector.eye();
  const double cx = 0.5 * (g.min.x() + g.max.x());
  const double cy = 0.5 * (g.min.y() + g.max.y());
  // Labels go on the grid edges nearest the eye, the altitude axis on the
  // far corner, so neither is hidden behind the scene.
  const double near_y = eye.y() < cy ? g.min.y() : g.max.y();
  const double near_x = eye.x() < cx ? g.min.x() : g.max.x();
  const double far_x = eye.x() < cx ? g.max.x() : g.min.x();
  const double far_y = eye.y() < cy ? g.max.y() : g.min.y();
  const double z = g.ground_z;
  const double out = 0.45 * g.step;  // label offset outside the grid [m]
  const int nx = static_cast<int>(std::lround((g.max.x() - g.min.x()) / g.step));
  const int ny = static_cast<int>(std::lround((g.max.y() - g.min.y()) / g.step));
  const int every_x = std::max(1, (nx + kMaxLabelsPerAxis - 1) / kMaxLabelsPerAxis);
  const int every_y = std::max(1, (ny + kMaxLabelsPerAxis - 1) / kMaxLabelsPerAxis);
  const double sy = near_y == g.min.y() ? -1.0 : 1.0;
  const double sx = near_x == g.min.x() ? -1.0 : 1.0;
  const unsigned kTick = 13;

  // Tick labels first, each skipped where it would overlap another label or
  // a HUD panel or leave the view (so they thin out in a small window); then
  // the axis titles, each at the first free spot along its axis, turned
  // along the axis' projection ("← east" where east points left on screen).
  placed_.clear();
  auto title_along = [&](const char* name, auto at) {
    const double mid = 0.5;
    for (const double along : {mid, mid - 0.15, mid + 0.15, mid - 0.3, mid + 0.3})
      for (const double offset : {3.0, 4.2, 5.4, 6.6}) {
        const auto a = projector.Project(at(along - 0.02, offset));
        const auto b = projector.Project(at(along + 0.02, offset));
        const auto p = projector.Project(at(along, offset));
        if (!a || !b || !p) continue;
        double angle = std::atan2(b->y - a->y, b->x - a->x) * 180.0 / 3.14159265358979323846;
        const bool flipped = angle > 90.0 || angle < -90.0;
        if (flipped) angle += angle > 0 ? -180.0 : 180.0;
        const std::string text = flipped ? std::string("\xe2\x86\x90 ") + name
                                         : std::string(name) + " \xe2\x86\x92";
        if (TryLabel(target, text, p->x, p->y, 15, kAxis, true, static_cast<float>(angle)))
          return;
      }
  };
  // The corner shared by both label rows gets no label, so they never collide.
  for (int i = 0; i <= nx; i += every_x) {
    const double x = g.min.x() + i * g.step;
    if (std::abs(x - near_x) < 1e-6 * g.step) continue;
    if (auto p = projector.Project({x, near_y + sy * out, z}))
      TryLabel(target, FormatDistance(x, g.step), p->x, p->y, kTick, kAxis, true);
  }
  for (int i = 0; i <= ny; i += every_y) {
    const double y = g.min.y() + i * g.step;
    if (std::abs(y - near_y) < 1e-6 * g.step) continue;
    if (auto p = projector.Project({near_x + sx * out, y, z}))
      TryLabel(target, FormatDistance(y, g.step), p->x, p->y, kTick, kAxis, true);
  }

  const double span_x = g.max.x() - g.min.x(), span_y = g.max.y() - g.min.y();
  title_along("east", [&](double f, double k) {
    return Eigen::Vector3d(g.min.x() + f * span_x, near_y + sy * k * out, z);
  });
  title_along("north", [&](double f, double k) {
    return Eigen::Vector3d(near_x + sx * k * out, g.min.y() + f * span_y, z);
  });

  // Altitude axis with ticks, relative to the start of the flight, in true
  // metres: the drawn z is K times the true one.
  lines_.clear();
  const double k = exaggeration > 0.0 ? exaggeration : 1.0;
  const double z_step = NiceStep((g.top_z - g.ground_z) / k, 4.0);  // true [m]
  AppendProjectedSegment(lines_, projector, {far_x, far_y, g.ground_z},
                         {far_x, far_y, g.top_z}, 1.8f, kAxis, kAxis);
  target.draw(lines_);
  const double first = std::ceil(g.ground_z / k / z_step) * z_step;
  for (double h = first; h * k <= g.top_z + 1e-6 * k; h += z_step) {
    if (auto p = projector.Project({far_x, far_y, h * k})) {
      sf::RectangleShape tick({8.f, 1.8f});
      tick.setPosition(static_cast<float>(p->x) - 4.f, static_cast<float>(p->y) - 0.9f);
      tick.setFillColor(kAxis);
      target.draw(tick);
      // Appended, not "+" + string: GCC 12 warns (-Wrestrict) on the latter.
      std::string label = h > 0 ? "+" : "";
      label += FormatDistance(h, z_step);
      TryLabel(target, label, static_cast<float>(p->x) + 8.f, p->y, kTick, kAxis, false);
    }
  }
  // The altitude title above the axis, else beside its top or its middle
  // (in chase view the top may be off screen or under the HUD).
  std::string title = "altitude \xce\x94h \xe2\x86\x91";
  if (k != 1.0) title += fmt::format("  \xc3\x97{:g}", k);
  for (const double f : {1.0, 0.85, 0.7, 0.55, 0.4}) {
    const auto p = projector.Project({far_x, far_y, g.ground_z + f * (g.top_z - g.ground_z)});
    if (!p) continue;
    if (f == 1.0 && (TryLabel(target, title, p->x, p->y - 18.0, 15, kAxis, true) ||
                     TryLabel(target, title, p->x, p->y - 30.0, 15, kAxis, true)))
      break;
    if (f < 1.0 && TryLabel(target, title, p->x - 12.0, p->y, 15, kAxis, false, 0.0f, true))
      break;
  }
}

void SceneRenderer::DrawGlyph(sf::RenderTarget& target, const Projector& projector,
                              const SceneView& view) {
  aircraft_px_ = projector.Project(view.aircraft);
  if (!aircraft_px_) return;
  // Scale so the 3-unit-long plane spans kGlyphPixels at its depth.
  const double scale = projector.WorldPerPixel(aircraft_px_->depth, kGlyphPixels / 3.0);
  const GroundGrid& g = grid_;

  // Drop line and shadow of the glyph on the ground.
  lines_.clear();
  const Eigen::Vector3d foot(view.aircraft.x(), view.aircraft.y(), g.ground_z);
  const int dashes = 24;
  for (int i = 0; i < dashes; i += 2) {
    const Eigen::Vector3d a = view.aircraft + (foot - view.aircraft) * (double(i) / dashes);
    const Eigen::Vector3d b = view.aircraft + (foot - view.aircraft) * (double(i + 1) / dashes);
    AppendProjectedSegment(lines_, projector, a, b, 1.2f, kShadow, kShadow);
  }
  AppendTrail(projector, view.trail, scale, kTipLeft, kTipRight);
  // The nonlinear aircraft beside, first: the linear glyph is drawn over it.
  std::optional<double> ghost_scale;
  if (view.nonlinear) {
    if (const auto px = projector.Project(view.nonlinear->position)) {
      ghost_scale = projector.WorldPerPixel(px->depth, kGlyphPixels / 3.0);
      AppendTrail(projector, view.nonlinear->trail, *ghost_scale, kGhostTrail, kGhostTrail,
                  kGhostTrailFade);
    }
  }
  sf::VertexArray shadow(sf::Triangles);
  AppendPlaneShadow(shadow, projector, view.aircraft, view.attitude, scale);
  target.draw(shadow);
  target.draw(lines_);
  if (ghost_scale)
    DrawPlane(target, projector, view.nonlinear->position, view.nonlinear->attitude, *ghost_scale,
              /*ghost=*/true);
  DrawPlane(target, projector, view.aircraft, view.attitude, scale, /*ghost=*/false);
}

void SceneRenderer::AppendTrail(const Projector& projector,
                                const std::vector<std::pair<Eigen::Vector3d, Eigen::Matrix3d>>* trail,
                                double scale, sf::Color left, sf::Color right, float fade) {
  // The wing tips' trail, at the glyph's size, behind the glyph.
  if (trail == nullptr || trail->size() < 2) return;
  const float n = static_cast<float>(trail->size() - 1);
  for (const double side : {-1.0, 1.0}) {
    const sf::Color colour = side < 0 ? left : right;
    const Eigen::Vector3d tip(-1.0, side, 0.0);  // PaperPlaneBody's wing tip
    for (std::size_t i = 1; i < trail->size(); ++i) {
      const Eigen::Vector3d a = (*trail)[i - 1].first + scale * ((*trail)[i - 1].second * tip);
      const Eigen::Vector3d b = (*trail)[i].first + scale * ((*trail)[i].second * tip);
      sf::Color ca = colour, cb = colour;
      ca.a = static_cast<sf::Uint8>(fade * (40 + 200 * (i - 1) / n));
      cb.a = static_cast<sf::Uint8>(fade * (40 + 200 * i / n));
      AppendProjectedSegment(lines_, projector, a, b, 1.8f, ca, cb);
    }
  }
}

namespace {

// The seed's four triangles plus the tail fin, so the glyph reads as a
// shape side-on too.
struct Part {
  exporting::Triangle triangle;
  exporting::Rgb colour;
  bool wing;
};
const std::array<Part, exporting::kNumGlyphParts + 1>& GlyphParts() {
  static const std::array<Part, exporting::kNumGlyphParts + 1> parts = [] {
    const auto body = exporting::PaperPlaneBody(1.0, exporting::kWindowKeelDepth);
    std::array<Part, exporting::kNumGlyphParts + 1> out;
    for (int i = 0; i < exporting::kNumGlyphParts; ++i)
      out[i] = {body[i], exporting::GlyphColour(static_cast<exporting::GlyphPart>(i)),
                exporting::IsWing(static_cast<exporting::GlyphPart>(i))};
    out[exporting::kNumGlyphParts] = {exporting::PaperPlaneFin(1.0), exporting::kFinColour, false};
    return out;
  }();
  return parts;
}

// The nonlinear glyph's colour for a part of the linear one's: violet, the
// wings darker than the body and fin, so its shape reads as the linear's does.
sf::Color GhostColour(const Part& part) { return part.wing ? kGhostWing : kGhostBody; }

}  // namespace

void SceneRenderer::AppendPlaneShadow(sf::VertexArray& tris, const Projector& projector,
                                      const Eigen::Vector3d& position,
                                      const Eigen::Matrix3d& attitude, double scale) const {
  for (const Part& part : GlyphParts())
    for (int k = 0; k < 3; ++k) {
      const Eigen::Vector3d w = position + scale * (attitude * part.triangle[k]);
      // Shadow vertex straight below.
      if (auto q = projector.Project({w.x(), w.y(), grid_.ground_z}))
        tris.append({V(*q), sf::Color(40, 44, 56, 70)});
      else
        tris.append({V(*aircraft_px_), sf::Color::Transparent});
    }
}

void SceneRenderer::DrawPlane(sf::RenderTarget& target, const Projector& projector,
                              const Eigen::Vector3d& position, const Eigen::Matrix3d& attitude,
                              double scale, bool ghost) {
  struct Drawn {
    std::array<ScreenPoint, 3> p;
    double depth;
    sf::Color fill;
  };
  std::array<Drawn, exporting::kNumGlyphParts + 1> drawn;
  std::size_t count = 0;
  for (const Part& part : GlyphParts()) {
    const exporting::Triangle& t = part.triangle;
    std::array<ScreenPoint, 3> s;
    bool ok = true;
    for (int k = 0; k < 3; ++k) {
      auto p = projector.Project(position + scale * (attitude * t[k]));
      if (!p) ok = false; else s[k] = *p;
    }
    if (ok)
      drawn[count++] = {s, (s[0].depth + s[1].depth + s[2].depth) / 3.0,
                        ghost ? GhostColour(part) : ToSf(part.colour, kGlyphAlpha)};
  }
  const sf::Color edge_colour = ghost ? kGhostEdge : ToSf(exporting::kGlyphEdgeColour);
  // Painter's algorithm: five triangles, farthest first.
  std::sort(drawn.begin(), drawn.begin() + static_cast<std::ptrdiff_t>(count),
            [](const Drawn& a, const Drawn& b) { return a.depth > b.depth; });
  for (std::size_t i = 0; i < count; ++i) {
    const Drawn& d = drawn[i];
    sf::VertexArray fill(sf::Triangles, 3);
    sf::VertexArray edge(sf::Triangles);
    for (int k = 0; k < 3; ++k) {
      fill[k] = {V(d.p[k]), d.fill};
      AppendSegment(edge, V(d.p[k]), V(d.p[(k + 1) % 3]), ghost ? 1.0f : 1.4f, edge_colour,
                    edge_colour);
    }
    target.draw(fill);
    target.draw(edge);
  }
}

}  // namespace aerolin::viz
