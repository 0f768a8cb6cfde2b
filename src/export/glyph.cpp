#include "aerolin/export/glyph.hpp"

namespace aerolin::exporting {

std::array<Triangle, kNumGlyphParts> PaperPlaneBody(double scale, double keel_depth) {
  // The seed program's vertices (plot_paper_airplane_update), y > 0 half;
  // the other half is the mirror image in y.
  const Triangle wing = {Eigen::Vector3d(2, 0, 0), Eigen::Vector3d(-1, 1, 0),
                         Eigen::Vector3d(-1, 0.1, 0)};
  const Triangle body = {Eigen::Vector3d(2, 0, 0), Eigen::Vector3d(-1, 0, keel_depth),
                         Eigen::Vector3d(-1, 0.1, 0)};
  const auto scaled = [scale](Triangle t, double y_sign) {
    for (Eigen::Vector3d& v : t) {
      v.y() *= y_sign;
      v *= scale;
    }
    return t;
  };
  std::array<Triangle, kNumGlyphParts> parts;
  parts[kRightWing] = scaled(wing, 1.0);
  parts[kRightBody] = scaled(body, 1.0);
  parts[kLeftWing] = scaled(wing, -1.0);
  parts[kLeftBody] = scaled(body, -1.0);
  return parts;
}

Triangle PaperPlaneFin(double scale) {
  return {Eigen::Vector3d(-scale, 0, 0), Eigen::Vector3d(-0.25 * scale, 0, 0),
          Eigen::Vector3d(-scale, 0, -0.7 * scale)};
}

}  // namespace aerolin::exporting
