#include "aerolin/model/typed_values.hpp"

#include <cmath>
#include <fmt/format.h>

namespace aerolin::model {
namespace {

// Per-degree suspicion thresholds (README "Checks on what was typed"): the
// value each derivative takes when a typical aircraft's per-radian value is
// divided by 57.3, well below any per-radian value of a real aircraft.
constexpr double kZalphaOverG = 0.5;  // |Zα|/g = C_Lα/C_L in level flight: ≥ 0.5 per rad
constexpr double kMalpha = 0.09;      // 1/s²: √|Mα| < 0.3 rad/s
constexpr double kLbeta = 0.04;       // 1/s²: √|Lβ| < 0.2 rad/s
constexpr double kNbeta = 0.04;       // 1/s²: √|Nβ| < 0.2 rad/s (Dutch roll period > 30 s)

// The trim airspeed of anything that flies, hang glider to hypersonic
// research aircraft (the X-15's 2 000 m/s): outside it, a speed typed in
// the wrong unit or with a slipped exponent (U0 = 1e-300 gave roots of
// 1e302 1/s, as the model divides by U0).
constexpr double kMinU0 = 1.0;     // m/s
constexpr double kMaxU0 = 3000.0;  // m/s

std::string Number(double v) { return fmt::format("{:.4g}", v); }

}  // namespace

std::vector<core::Diagnostic> CheckTypedValues(const AircraftData& a, const Locator& locate,
                                               const TypedValueExtras& extras) {
  std::vector<core::Diagnostic> out;
  auto warn = [&](std::string_view quantity, const std::string& text) {
    const WrittenAt at = locate(quantity);
    out.push_back({at.where, at.key + ": " + text});
  };
  const LongitudinalDerivatives& lon = a.longitudinal;
  const LateralDerivatives& lat = a.lateral;
  const FlightCondition& fc = a.condition;

  // The flight condition.
  if (!(fc.U0 >= kMinU0 && fc.U0 <= kMaxU0))
    warn("condition.U0",
         fmt::format("{} m/s, expected {} to {} m/s: implausible for an aircraft in flight "
                     "(the model divides by U0, so its roots scale with 1/U0); check the value "
                     "and its units",
                     Number(fc.U0), Number(kMinU0), Number(kMaxU0)));

  // Signs: each derivative, the sign it is expected not to have (+1: > 0 is
  // suspect, -1: < 0 is), and why.
  const struct {
    const char* quantity;
    double value;
    int suspect_sign;
    const char* text;
  } signs[] = {
      {"longitudinal.Za", lon.Za, +1,
       "Z_alpha > 0, expected < 0: lift grows with angle of attack and Z points down, so "
       "Z_alpha = -(C_Lalpha + C_D0) qS/m is negative; check the sign"},
      {"longitudinal.Ma", lon.Ma, +1,
       "M_alpha > 0, expected < 0: the aircraft is statically unstable in pitch (a nose-up "
       "disturbance grows); fine for an unstable design, otherwise check the sign"},
      {"longitudinal.Mq", lon.Mq, +1,
       "M_q > 0, expected < 0: pitch damping opposes the pitch rate (the tail's angle of "
       "attack grows with q); check the sign"},
      {"lateral.Lp", lat.Lp, +1,
       "L_p > 0, expected < 0: roll damping opposes the roll rate (the down-going wing "
       "meets a larger angle of attack); check the sign"},
      {"lateral.Nr", lat.Nr, +1,
       "N_r > 0, expected < 0: yaw damping opposes the yaw rate (the fin's side force); "
       "check the sign"},
      {"lateral.Nb", lat.Nb, -1,
       "N_beta < 0, expected > 0: the aircraft is directionally unstable (weathercock "
       "stability turns the nose into the relative wind); check the sign"},
      {"lateral.Yb", lat.Yb, +1,
       "Y_beta > 0, expected < 0: a sideslip to the right (wind from the right) pushes the "
       "aircraft to the left; check the sign"}};
  for (const auto& s : signs)
    if (s.suspect_sign * s.value > 0.0) warn(s.quantity, s.text);
  {
    // Body axes at a trim angle of attack α0 (W0 ≠ 0): the tilted lift adds
    // up to g sin α0 cos α0 / V to X_u, which may then be positive.
    const double V = std::hypot(fc.U0, fc.W0);
    const double allowance = V > 0.0 ? fc.g * std::abs(fc.W0) * fc.U0 / (V * V * V) : 0.0;
    if (lon.Xu > allowance)
      warn("longitudinal.Xu",
           allowance > 0.0
               ? fmt::format("X_u = {} 1/s > g sin(alpha0) cos(alpha0)/V = {} 1/s, expected "
                             "below: drag grows with speed; only thrust growing faster than "
                             "drag makes X_u positive (thrust?); check the sign",
                             Number(lon.Xu), Number(allowance))
               : "X_u > 0, expected < 0: drag grows with speed; only thrust growing faster "
                 "than drag makes X_u positive (thrust?); check the sign");
  }

  // Inertias.
  const MassProperties& m = a.mass;
  if (m.Ixz && m.Ix && m.Iz && *m.Ixz * *m.Ixz > 0.5 * *m.Ix * *m.Iz)
    warn("mass.Ixz",
         fmt::format("|Ixz| = {} is more than 0.71 sqrt(Ix Iz) = {}: a product of inertia is "
                     "normally a small fraction of Ix and Iz; check its value and units (and "
                     "that Ix and Iz are about the same axes)",
                     Number(std::abs(*m.Ixz)), Number(std::sqrt(0.5 * *m.Ix * *m.Iz))));
  if (m.Ix && m.Iy && m.Iz) {
    const struct {
      const char* quantity;
      const char* name;
      double big, other1, other2;
    } triangle[] = {{"mass.Ix", "Ix", *m.Ix, *m.Iy, *m.Iz},
                    {"mass.Iy", "Iy", *m.Iy, *m.Ix, *m.Iz},
                    {"mass.Iz", "Iz", *m.Iz, *m.Ix, *m.Iy}};
    for (const auto& t : triangle)
      if (t.big > 1.001 * (t.other1 + t.other2))
        warn(t.quantity,
             fmt::format("{} = {} exceeds the sum of the other two moments of inertia ({}), "
                         "impossible for any body (e.g. Ix + Iy - Iz = 2 integral z^2 dm >= 0); "
                         "check the values and their units",
                         t.name, Number(t.big), Number(t.other1 + t.other2)));
  }
  if (extras.W && m.m && *m.m > 0.0 && std::abs(*extras.W - *m.m * fc.g) > 0.02 * *m.m * fc.g)
    warn("mass.W",
         fmt::format("W = {} N differs from m g = {} N by more than 2 %: weight is mass times "
                     "g; check which of the two (or g) is meant",
                     Number(*extras.W), Number(*m.m * fc.g)));
  if (extras.CL0 && extras.CW0 && *extras.CW0 > 0.0) {
    const double trimmed = *extras.CW0 * std::cos(fc.theta0);
    if (std::abs(*extras.CL0 - trimmed) > 0.05 * trimmed)
      warn("coefficients.CL0",
           fmt::format("C_L0 = {} differs from C_W0 cos(theta0) = {} by more than 5 %: in "
                       "steady flight lift balances weight; check the condition (speed, "
                       "density, weight) or C_L0",
                       Number(*extras.CL0), Number(trimmed)));
  }

  // A table typed per degree: several angle derivatives implausibly small together.
  std::vector<WrittenAt> small;
  auto suspicious = [&](std::string_view quantity, double value, double bound) {
    if (value != 0.0 && std::abs(value) < bound) small.push_back(locate(quantity));
  };
  suspicious("longitudinal.Za", lon.Za, kZalphaOverG * fc.g);
  suspicious("longitudinal.Ma", lon.Ma, kMalpha);
  suspicious("lateral.Lb", lat.Lb, kLbeta);
  suspicious("lateral.Nb", lat.Nb, kNbeta);
  if (small.size() >= 2) {
    std::string keys;
    for (const WrittenAt& k : small) {
      if (!keys.empty()) keys += ", ";
      keys += k.key;
    }
    out.push_back({small.front().where,
                   fmt::format("{}: implausibly small for any aircraft per radian (|Z_alpha| < "
                               "g/2, |M_alpha| < 0.09 1/s^2, |L_beta|, |N_beta| < 0.04 1/s^2): "
                               "per degree? add per_degree = true",
                               keys)});
  }
  return out;
}

}  // namespace aerolin::model
