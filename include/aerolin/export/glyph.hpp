#pragma once
/// @file
/// The paper-plane glyph that shows the aircraft's attitude, in the figures
/// and in the flight window: its triangles in body axes and the colour of
/// each part, defined once.

#include <Eigen/Core>
#include <array>
#include <cstdint>

namespace aerolin::exporting {

/// A triangle's three vertices.
using Triangle = std::array<Eigen::Vector3d, 3>;

/// The four triangles of the seed's paper plane, in this order; wings are
/// drawn kWingColour, body halves kBodyColour.
enum GlyphPart : int {
  kRightWing = 0,  ///< y > 0 (the seed calls it "left": its plot frame differs)
  kRightBody,
  kLeftWing,
  kLeftBody,
  kNumGlyphParts
};

/// An sRGB colour, 0–255 per channel.
struct Rgb {
  std::uint8_t r, g, b;
};

inline constexpr Rgb kWingColour{255, 69, 0};  ///< matplotlib "orangered"
inline constexpr Rgb kBodyColour{0, 255, 0};   ///< matplotlib "lime"
inline constexpr Rgb kGlyphEdgeColour{0, 0, 0};

/// Returns true for the two wing triangles.
inline bool IsWing(GlyphPart part) { return part == kRightWing || part == kLeftWing; }

/// Returns the fill colour of `part`: kWingColour or kBodyColour.
inline Rgb GlyphColour(GlyphPart part) { return IsWing(part) ? kWingColour : kBodyColour; }

/// The seed's keel depth [glyph units], drawn in the figures.
inline constexpr double kSeedKeelDepth = 0.1;
/// The flight window's keel depth [glyph units]: deeper than the seed's so
/// the body halves read at the window's 64 px glyph size.
inline constexpr double kWindowKeelDepth = 0.3;

/// The paper plane in body axes (x forward, y right, z down) [m]: the seed's
/// triangles scaled by `scale` [m per unit]. The nose is at (2s, 0, 0), the
/// wing tips at (−s, ±s, 0), the keel at (−s, 0, keel_depth·s). Each
/// triangle starts at the nose; the left half mirrors the right in y.
std::array<Triangle, kNumGlyphParts> PaperPlaneBody(
    double scale, double keel_depth = kSeedKeelDepth);

/// Colour of the tail fin ("gold": neither wing nor body colour).
inline constexpr Rgb kFinColour{255, 215, 0};
/// The tail fin the flight window adds to the paper plane so that it reads as
/// a shape side-on: one triangle in the symmetry plane, above the tail
/// (z < 0 is up), vertices (−s, 0, 0), (−0.25 s, 0, 0), (−s, 0, −0.7 s) [m]
/// for `scale` s. The figures draw the seed's four triangles only.
Triangle PaperPlaneFin(double scale);

}  // namespace aerolin::exporting
