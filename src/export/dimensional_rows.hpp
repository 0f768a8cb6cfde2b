#pragma once
// The raw dimensional derivatives a coefficient file produced, as labelled
// rows with their units (internal to export): one table for the text
// (dimensional_text.cpp) and the JSON (matrices_json.cpp) writers.

#include <string>
#include <vector>

#include "aerolin/core/units.hpp"
#include "aerolin/model/conversions.hpp"

namespace aerolin::exporting {

/// A raw derivative's dimension and how the textbooks write its unit.
struct DerivativeKind {
  core::Dimension dim;
  const char* si;
  const char* imperial;
};

/// One derivative: its key, SI value and kind.
struct DerivativeRow {
  const char* key;
  double value;  ///< SI
  DerivativeKind kind;

  /// The value in `units`' unit of this kind (SI: the value itself).
  double In(core::UnitSystem units) const { return value / core::ToSIFactor(units, kind.dim); }
};

/// A block of rows: "Longitudinal", "Lateral", or one control's.
struct DerivativeBlock {
  std::string section;   ///< "longitudinal", "lateral" or "control"
  std::string control;   ///< the control's name (section "control")
  std::string per;       ///< a control's unit: "rad" or "unit"
  std::vector<DerivativeRow> rows;
};

/// The blocks of `d` in the order the text prints them: longitudinal and
/// lateral when their `raw` flag is set (they came from coefficients), then
/// each control with either flag, its X Z M and/or Y L N.
inline std::vector<DerivativeBlock> DimensionalDerivativeBlocks(const model::AircraftAsWritten& d) {
  constexpr DerivativeKind kForcePerSpeed{{0, 1, -1}, "N s/m", "lbf s/ft"};   // Xu Xw Zu Zw Yv
  constexpr DerivativeKind kMomentPerSpeed{{1, 1, -1}, "N s", "lbf s"};       // Mu Mw Lv Nv
  constexpr DerivativeKind kForcePerRate{{1, 1, -1}, "N s", "lbf s"};         // Xq Zq Yp Yr (per rad/s)
  constexpr DerivativeKind kMomentPerRate{{2, 1, -1}, "N m s", "ft lbf s"};   // Mq Lp Lr Np Nr
  constexpr DerivativeKind kForcePerAcceleration{{0, 1, 0}, "kg", "slug"};    // Zwdot
  constexpr DerivativeKind kMomentPerAcceleration{{1, 1, 0}, "kg m", "slug ft"};  // Mwdot
  constexpr DerivativeKind kForce{{1, 1, -2}, "N", "lbf"};                    // control X Y Z
  constexpr DerivativeKind kMoment{{2, 1, -2}, "N m", "ft lbf"};              // control M L N
  std::vector<DerivativeBlock> blocks;
  const model::LongitudinalAsWritten& lon = d.longitudinal;
  const model::LateralAsWritten& lat = d.lateral;
  if (lon.raw)
    blocks.push_back({"longitudinal", "", "",
                      {{"Xu", lon.Xu, kForcePerSpeed}, {"Xw", lon.Xw, kForcePerSpeed},
                       {"Xq", lon.Xq, kForcePerRate}, {"Zu", lon.Zu, kForcePerSpeed},
                       {"Zw", lon.Zw, kForcePerSpeed}, {"Zq", lon.Zq, kForcePerRate},
                       {"Zwdot", lon.Zwdot, kForcePerAcceleration}, {"Mu", lon.Mu, kMomentPerSpeed},
                       {"Mw", lon.Mw, kMomentPerSpeed}, {"Mq", lon.Mq, kMomentPerRate},
                       {"Mwdot", lon.Mwdot, kMomentPerAcceleration}}});
  if (lat.raw)
    blocks.push_back({"lateral", "", "",
                      {{"Yv", lat.Yv, kForcePerSpeed}, {"Yp", lat.Yp, kForcePerRate},
                       {"Yr", lat.Yr, kForcePerRate}, {"Lv", lat.Lv, kMomentPerSpeed},
                       {"Lp", lat.Lp, kMomentPerRate}, {"Lr", lat.Lr, kMomentPerRate},
                       {"Nv", lat.Nv, kMomentPerSpeed}, {"Np", lat.Np, kMomentPerRate},
                       {"Nr", lat.Nr, kMomentPerRate}}});
  for (const model::Control& c : d.controls) {
    if (!c.longitudinal && !c.lateral) continue;  // no coefficient of this control
    DerivativeBlock block{"control", c.name, c.unit == core::Unit::kRadian ? "rad" : "unit", {}};
    if (c.longitudinal) {
      block.rows.push_back({"X", c.X, kForce});
      block.rows.push_back({"Z", c.Z, kForce});
      block.rows.push_back({"M", c.M, kMoment});
    }
    if (c.lateral) {
      block.rows.push_back({"Y", c.Y, kForce});
      block.rows.push_back({"L", c.L, kMoment});
      block.rows.push_back({"N", c.N, kMoment});
    }
    blocks.push_back(std::move(block));
  }
  return blocks;
}

}  // namespace aerolin::exporting
