#include "aerolin/export/dimensional_text.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "display_units.hpp"

namespace aerolin::exporting {
namespace {

using core::Dimension;

// A raw derivative's dimension and how the textbooks write its unit.
struct Kind {
  Dimension dim;
  const char* si;
  const char* imperial;
};
constexpr Kind kForcePerSpeed{{0, 1, -1}, "N s/m", "lbf s/ft"};   // Xu Xw Zu Zw Yv
constexpr Kind kMomentPerSpeed{{1, 1, -1}, "N s", "lbf s"};       // Mu Mw Lv Nv
constexpr Kind kForcePerRate{{1, 1, -1}, "N s", "lbf s"};         // Xq Zq Yp Yr (per rad/s)
constexpr Kind kMomentPerRate{{2, 1, -1}, "N m s", "ft lbf s"};   // Mq Lp Lr Np Nr
constexpr Kind kForcePerAcceleration{{0, 1, 0}, "kg", "slug"};    // Zwdot
constexpr Kind kMomentPerAcceleration{{1, 1, 0}, "kg m", "slug ft"};  // Mwdot
constexpr Kind kForce{{1, 1, -2}, "N", "lbf"};                    // control X Y Z
constexpr Kind kMoment{{2, 1, -2}, "N m", "ft lbf"};              // control M L N

struct Row {
  const char* key;
  double value;  // SI
  Kind kind;
};

void WriteRows(std::ostream& out, const std::vector<Row>& rows, core::UnitSystem units) {
  for (const Row& r : rows) {
    const double value = NoNegativeZero(r.value);  // C_Xq = −C_Dq of a 0 is −0
    std::string line = fmt::format("  {:<6} = {:>12.5g} {:<8}", r.key, value, r.kind.si);
    if (units == core::UnitSystem::kImperial)
      line += fmt::format("  = {:>12.5g} {}", value / core::ToSIFactor(units, r.kind.dim),
                          r.kind.imperial);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

}  // namespace

void WriteDimensionalDerivativesText(std::ostream& out, const model::AircraftAsWritten& d,
                                     core::UnitSystem units) {
  out << "\nDimensional derivatives from the coefficients (Etkin & Reid Tables 4.4, 4.5;\n"
         "raw, stability axes, w/v-form, L and N unprimed):\n";
  const model::LongitudinalAsWritten& lon = d.longitudinal;
  const model::LateralAsWritten& lat = d.lateral;
  if (lon.raw) {
    out << "Longitudinal\n";
    WriteRows(out,
              {{"Xu", lon.Xu, kForcePerSpeed}, {"Xw", lon.Xw, kForcePerSpeed},
               {"Xq", lon.Xq, kForcePerRate}, {"Zu", lon.Zu, kForcePerSpeed},
               {"Zw", lon.Zw, kForcePerSpeed}, {"Zq", lon.Zq, kForcePerRate},
               {"Zwdot", lon.Zwdot, kForcePerAcceleration}, {"Mu", lon.Mu, kMomentPerSpeed},
               {"Mw", lon.Mw, kMomentPerSpeed}, {"Mq", lon.Mq, kMomentPerRate},
               {"Mwdot", lon.Mwdot, kMomentPerAcceleration}},
              units);
  }
  if (lat.raw) {
    out << "Lateral\n";
    WriteRows(out,
              {{"Yv", lat.Yv, kForcePerSpeed}, {"Yp", lat.Yp, kForcePerRate},
               {"Yr", lat.Yr, kForcePerRate}, {"Lv", lat.Lv, kMomentPerSpeed},
               {"Lp", lat.Lp, kMomentPerRate}, {"Lr", lat.Lr, kMomentPerRate},
               {"Nv", lat.Nv, kMomentPerSpeed}, {"Np", lat.Np, kMomentPerRate},
               {"Nr", lat.Nr, kMomentPerRate}},
              units);
  }
  for (const model::Control& c : d.controls) {
    if (!c.longitudinal && !c.lateral) continue;  // no coefficient of this control
    out << "Control " << c.name << " (per " << (c.unit == core::Unit::kRadian ? "rad" : "unit")
        << ")\n";
    std::vector<Row> rows;
    if (c.longitudinal) {
      rows.push_back({"X", c.X, kForce});
      rows.push_back({"Z", c.Z, kForce});
      rows.push_back({"M", c.M, kMoment});
    }
    if (c.lateral) {
      rows.push_back({"Y", c.Y, kForce});
      rows.push_back({"L", c.L, kMoment});
      rows.push_back({"N", c.N, kMoment});
    }
    WriteRows(out, rows, units);
  }
}

}  // namespace aerolin::exporting
