#include "aerolin/model/parameters.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace aerolin::model {
namespace {

using core::Dimension;

constexpr Dimension kOne = core::kDimensionless;
constexpr Dimension kPerS = core::PerSecond(1);
constexpr Dimension kPerS2 = core::PerSecond(2);
constexpr Dimension kPerLengthS{-1, 0, -1};
constexpr Dimension kPerLength{-1, 0, 0};
constexpr Dimension kSpeed = core::kSpeed;
constexpr Dimension kAccel = core::kAcceleration;

// Rows for a plain double member of AircraftData, reached by `expr`.
#define AEROLIN_MEMBER(section, key, dim, divisor, expr)                               \
  Parameter {                                                                        \
    section, key, dim, divisor, #expr,                                               \
        [](const AircraftData& a, const Control*) -> std::optional<double> {         \
          return a.expr;                                                             \
        },                                                                           \
        [](AircraftData& a, Control*, double v) { a.expr = v; }                      \
  }
// Rows for an optional<double> member.
#define AEROLIN_OPTIONAL(section, key, dim, expr)                                    \
  Parameter {                                                                        \
    section, key, dim, Divisor::kNone, #expr,                                        \
        [](const AircraftData& a, const Control*) -> std::optional<double> {         \
          return a.expr;                                                             \
        },                                                                           \
        [](AircraftData& a, Control*, double v) { a.expr = v; }                      \
  }
// Rows for a velocity-form key: a view of the angle-form member ÷ U0.
#define AEROLIN_PER_U0(section, key, dim, divisor, expr)                             \
  Parameter {                                                                        \
    section, key, dim, divisor, #expr " / U0",                                       \
        [](const AircraftData& a, const Control*) -> std::optional<double> {         \
          return a.expr / a.condition.U0;                                            \
        },                                                                           \
        [](AircraftData& a, Control*, double v) { a.expr = v * a.condition.U0; }     \
  }
// Rows for a control's member.
#define AEROLIN_CONTROL(key, dim, divisor, field)                                    \
  Parameter {                                                                        \
    "controls", key, dim, divisor, "controls[i]." #field,                            \
        [](const AircraftData&, const Control* c) -> std::optional<double> {         \
          return c->field;                                                           \
        },                                                                           \
        [](AircraftData&, Control* c, double v) { c->field = v; }                    \
  }

// Dimensions: Etkin & Reid Table 4.4 gives the raw forms; the normalized
// dimension is the raw one ÷ mass or inertia. Order within a section is the
// order of "did you mean" candidates in the loader's messages.
const Parameter kTable[] = {
    AEROLIN_MEMBER("condition", "U0", kSpeed, Divisor::kNone, condition.U0),
    AEROLIN_MEMBER("condition", "W0", kSpeed, Divisor::kNone, condition.W0),
    AEROLIN_MEMBER("condition", "theta0", kOne, Divisor::kNone, condition.theta0),
    Parameter{"condition", "theta0_deg", kOne, Divisor::kNone, "condition.theta0 (deg)",
              [](const AircraftData& a, const Control*) -> std::optional<double> {
                return a.condition.theta0 * core::kRadToDeg;
              },
              [](AircraftData& a, Control*, double v) { a.condition.theta0 = v * core::kDegToRad; }},
    AEROLIN_MEMBER("condition", "g", kAccel, Divisor::kNone, condition.g),
    AEROLIN_OPTIONAL("condition", "altitude", core::kLength, condition.altitude),
    AEROLIN_OPTIONAL("condition", "mach", kOne, condition.mach),

    AEROLIN_OPTIONAL("mass", "m", core::kMass, mass.m),
    AEROLIN_OPTIONAL("mass", "Ix", core::kInertia, mass.Ix),
    AEROLIN_OPTIONAL("mass", "Iy", core::kInertia, mass.Iy),
    AEROLIN_OPTIONAL("mass", "Iz", core::kInertia, mass.Iz),
    AEROLIN_OPTIONAL("mass", "Ixz", core::kInertia, mass.Ixz),

    AEROLIN_OPTIONAL("geometry", "b", core::kLength, geometry.b),

    AEROLIN_MEMBER("longitudinal", "Xu", kPerS, Divisor::kMass, longitudinal.Xu),
    AEROLIN_MEMBER("longitudinal", "Zu", kPerS, Divisor::kMass, longitudinal.Zu),
    AEROLIN_MEMBER("longitudinal", "Mu", kPerLengthS, Divisor::kIy, longitudinal.Mu),
    AEROLIN_MEMBER("longitudinal", "Xa", kAccel, Divisor::kMass, longitudinal.Xa),
    AEROLIN_MEMBER("longitudinal", "Za", kAccel, Divisor::kMass, longitudinal.Za),
    AEROLIN_MEMBER("longitudinal", "Ma", kPerS2, Divisor::kIy, longitudinal.Ma),
    AEROLIN_MEMBER("longitudinal", "Madot", kPerS, Divisor::kIy, longitudinal.Madot),
    AEROLIN_MEMBER("longitudinal", "Zadot", kSpeed, Divisor::kMass, longitudinal.Zadot),
    AEROLIN_PER_U0("longitudinal", "Xw", kPerS, Divisor::kMass, longitudinal.Xa),
    AEROLIN_PER_U0("longitudinal", "Zw", kPerS, Divisor::kMass, longitudinal.Za),
    AEROLIN_PER_U0("longitudinal", "Mw", kPerLengthS, Divisor::kIy, longitudinal.Ma),
    AEROLIN_PER_U0("longitudinal", "Mwdot", kPerLength, Divisor::kIy, longitudinal.Madot),
    AEROLIN_PER_U0("longitudinal", "Zwdot", kOne, Divisor::kMass, longitudinal.Zadot),
    AEROLIN_MEMBER("longitudinal", "Xq", kSpeed, Divisor::kMass, longitudinal.Xq),
    AEROLIN_MEMBER("longitudinal", "Zq", kSpeed, Divisor::kMass, longitudinal.Zq),
    AEROLIN_MEMBER("longitudinal", "Mq", kPerS, Divisor::kIy, longitudinal.Mq),

    AEROLIN_MEMBER("lateral", "Yb", kAccel, Divisor::kMass, lateral.Yb),
    AEROLIN_MEMBER("lateral", "Lb", kPerS2, Divisor::kIx, lateral.Lb),
    AEROLIN_MEMBER("lateral", "Nb", kPerS2, Divisor::kIz, lateral.Nb),
    AEROLIN_PER_U0("lateral", "Yv", kPerS, Divisor::kMass, lateral.Yb),
    AEROLIN_PER_U0("lateral", "Lv", kPerLengthS, Divisor::kIx, lateral.Lb),
    AEROLIN_PER_U0("lateral", "Nv", kPerLengthS, Divisor::kIz, lateral.Nb),
    AEROLIN_MEMBER("lateral", "Yp", kSpeed, Divisor::kMass, lateral.Yp),
    AEROLIN_MEMBER("lateral", "Yr", kSpeed, Divisor::kMass, lateral.Yr),
    AEROLIN_MEMBER("lateral", "Lp", kPerS, Divisor::kIx, lateral.Lp),
    AEROLIN_MEMBER("lateral", "Lr", kPerS, Divisor::kIx, lateral.Lr),
    AEROLIN_MEMBER("lateral", "Np", kPerS, Divisor::kIz, lateral.Np),
    AEROLIN_MEMBER("lateral", "Nr", kPerS, Divisor::kIz, lateral.Nr),

    AEROLIN_CONTROL("X", kAccel, Divisor::kMass, X),
    AEROLIN_CONTROL("Z", kAccel, Divisor::kMass, Z),
    AEROLIN_CONTROL("M", kPerS2, Divisor::kIy, M),
    AEROLIN_CONTROL("Y", kAccel, Divisor::kMass, Y),
    AEROLIN_CONTROL("L", kPerS2, Divisor::kIx, L),
    AEROLIN_CONTROL("N", kPerS2, Divisor::kIz, N),
    // Limits are in the control's unit (rad or 1).
    AEROLIN_CONTROL("min", kOne, Divisor::kNone, min),
    AEROLIN_CONTROL("max", kOne, Divisor::kNone, max),
};

#undef AEROLIN_MEMBER
#undef AEROLIN_OPTIONAL
#undef AEROLIN_PER_U0
#undef AEROLIN_CONTROL

struct Resolved {
  const Parameter* row = nullptr;
  std::string control;  // for "controls"
};

// Splits "section.key" or "controls.<name>.key".
Resolved Resolve(std::string_view path) {
  const std::size_t first = path.find('.');
  const std::size_t last = path.rfind('.');
  if (first == std::string_view::npos)
    throw std::invalid_argument("unknown parameter '" + std::string(path) +
                                "' (expected section.key, e.g. longitudinal.Ma)");
  const std::string_view section = path.substr(0, first);
  const std::string_view key = path.substr(last + 1);
  Resolved r;
  if (section == "controls") {
    if (last == first)
      throw std::invalid_argument("unknown parameter '" + std::string(path) +
                                  "' (expected controls.<name>.key)");
    r.control = std::string(path.substr(first + 1, last - first - 1));
  } else if (last != first) {
    throw std::invalid_argument("unknown parameter '" + std::string(path) + "'");
  }
  r.row = FindParameter(section, key);
  if (r.row == nullptr)
    throw std::invalid_argument("unknown parameter '" + std::string(path) + "'");
  return r;
}

template <typename Controls>
auto ControlNamed(Controls& controls, const std::string& name, std::string_view path) {
  for (auto& c : controls)
    if (c.name == name) return &c;
  throw std::invalid_argument("unknown control '" + name + "' in parameter '" +
                              std::string(path) + "'");
}

}  // namespace

std::span<const Parameter> Parameters() { return kTable; }

const Parameter* FindParameter(std::string_view section, std::string_view key) {
  for (const Parameter& p : kTable)
    if (p.section == section && p.key == key) return &p;
  return nullptr;
}

double GetParameter(const AircraftData& aircraft, std::string_view path) {
  const Resolved r = Resolve(path);
  const Control* control = nullptr;
  if (r.row->section == "controls")
    control = ControlNamed(aircraft.controls, r.control, path);
  const std::optional<double> v = r.row->get(aircraft, control);
  if (!v) throw std::invalid_argument("parameter '" + std::string(path) + "' is not set");
  return *v;
}

void SetParameter(AircraftData& aircraft, std::string_view path, double value) {
  if (!std::isfinite(value))
    throw std::invalid_argument("parameter '" + std::string(path) + "' must be finite");
  const Resolved r = Resolve(path);
  Control* control = nullptr;
  if (r.row->section == "controls") control = ControlNamed(aircraft.controls, r.control, path);
  r.row->set(aircraft, control, value);
}

}  // namespace aerolin::model
