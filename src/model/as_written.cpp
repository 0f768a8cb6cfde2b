#include "aerolin/model/as_written.hpp"

#include <array>
#include <vector>
#include <unsupported/Eigen/AutoDiff>
#include <utility>

#include "aerolin/model/build.hpp"

namespace aerolin::model {
namespace {

// "elevator.M" -> {"elevator", "M"}; {"", ""} without a dot. The control's
// name may itself hold dots: the derivative is what follows the last one.
std::pair<std::string_view, std::string_view> SplitControlKey(std::string_view key) {
  const std::size_t last = key.rfind('.');
  if (last == std::string_view::npos) return {};
  return {key.substr(0, last), key.substr(last + 1)};
}

// One lookup for both constnesses: `W` is AircraftAsWritten or its const.
template <class W>
auto Lookup(W& w, std::string_view path) -> decltype(&w.condition.U0) {
  using Ptr = decltype(&w.condition.U0);
  auto opt = [](auto& o) -> Ptr { return o ? &*o : nullptr; };
  const std::size_t first = path.find('.');
  if (first == std::string_view::npos) return nullptr;
  const std::string_view section = path.substr(0, first);
  std::string_view key = path.substr(first + 1);
  if (section == "condition") {
    if (key.find('.') != std::string_view::npos) return nullptr;
    if (key == "U0") return &w.condition.U0;
    if (key == "W0") return &w.condition.W0;
    if (key == "theta0" || key == "theta0_deg") return &w.condition.theta0;
    if (key == "g") return &w.condition.g;
    if (key == "altitude") return opt(w.condition.altitude);
    if (key == "mach") return opt(w.condition.mach);
    return nullptr;
  }
  if (section == "mass") {
    if (key == "m") return opt(w.mass.m);
    if (key == "Ix") return opt(w.mass.Ix);
    if (key == "Iy") return opt(w.mass.Iy);
    if (key == "Iz") return opt(w.mass.Iz);
    if (key == "Ixz") return opt(w.mass.Ixz);
    return nullptr;
  }
  if (section == "longitudinal") {
    auto& d = w.longitudinal;
    if (key == "Xu") return &d.Xu;
    if (key == "Zu") return &d.Zu;
    if (key == "Mu") return &d.Mu;
    if (key == "Xq") return &d.Xq;
    if (key == "Zq") return &d.Zq;
    if (key == "Mq") return &d.Mq;
    if (d.form == AngleForm::kAngle) {
      if (key == "Xa") return &d.Xa;
      if (key == "Za") return &d.Za;
      if (key == "Ma") return &d.Ma;
      if (key == "Madot") return &d.Madot;
      if (key == "Zadot") return &d.Zadot;
    } else {
      if (key == "Xw") return &d.Xw;
      if (key == "Zw") return &d.Zw;
      if (key == "Mw") return &d.Mw;
      if (key == "Mwdot") return &d.Mwdot;
      if (key == "Zwdot") return &d.Zwdot;
    }
    return nullptr;
  }
  if (section == "lateral") {
    auto& d = w.lateral;
    if (key == "Yp") return &d.Yp;
    if (key == "Yr") return &d.Yr;
    if (key == "Lp") return &d.Lp;
    if (key == "Lr") return &d.Lr;
    if (key == "Np") return &d.Np;
    if (key == "Nr") return &d.Nr;
    if (d.form == AngleForm::kAngle) {
      if (key == "Yb") return &d.Yb;
      if (key == "Lb") return &d.Lb;
      if (key == "Nb") return &d.Nb;
    } else {
      if (key == "Yv") return &d.Yv;
      if (key == "Lv") return &d.Lv;
      if (key == "Nv") return &d.Nv;
    }
    return nullptr;
  }
  if (section == "controls") {
    const auto [name, derivative] = SplitControlKey(key);
    if (name.empty()) return nullptr;
    key = derivative;
    for (auto& c : w.controls) {
      if (c.name != name) continue;
      if (key == "X") return &c.X;
      if (key == "Z") return &c.Z;
      if (key == "M") return &c.M;
      if (key == "Y") return &c.Y;
      if (key == "L") return &c.L;
      if (key == "N") return &c.N;
      if (key == "min") return opt(c.min);
      if (key == "max") return opt(c.max);
      return nullptr;
    }
  }
  return nullptr;
}

// The field of a coefficient file's `k` that `path` sets, or nullptr (then the
// key, if any, is one of a dimensional section: FieldOf(written)). `lon`,
// `lat`: whether those sections are in coefficient form.
template <class K>
auto CoefficientLookup(K& k, bool lon, bool lat, std::string_view path) -> decltype(&k.U0) {
  using Ptr = decltype(&k.U0);
  auto opt = [](auto& o) -> Ptr { return o ? &*o : nullptr; };
  const std::size_t first = path.find('.');
  if (first == std::string_view::npos) return nullptr;
  const std::string_view section = path.substr(0, first);
  std::string_view key = path.substr(first + 1);
  if (section == "condition") {
    if (key == "U0") return &k.U0;
    if (key == "theta0" || key == "theta0_deg") return &k.theta0;
    if (key == "g") return &k.g;
    if (key == "rho") return &k.rho;
    if (key == "alpha0" || key == "alpha0_deg") return opt(k.alpha0);
    if (key == "altitude") return opt(k.altitude);
    if (key == "mach") return opt(k.mach);
    return nullptr;  // W0: the dimensional field (coefficients need W0 = 0)
  }
  if (section == "mass") {
    if (key == "m") return opt(k.m);
    if (key == "W") return opt(k.W);
    if (key == "Ix") return &k.Ix;
    if (key == "Iy") return &k.Iy;
    if (key == "Iz") return &k.Iz;
    if (key == "Ixz") return &k.Ixz;
    return nullptr;
  }
  if (section == "geometry") {
    if (key == "S") return &k.S;
    if (key == "c") return &k.c;
    if (key == "b") return &k.b;
    return nullptr;
  }
  if (section == "longitudinal" && lon) {
    const std::pair<std::string_view, Ptr> fields[] = {
        {"CXu", &k.CXu}, {"CXa", &k.CXa}, {"CXq", &k.CXq}, {"CXadot", &k.CXadot},
        {"CZu", &k.CZu}, {"CZa", &k.CZa}, {"CZq", &k.CZq}, {"CZadot", &k.CZadot},
        {"CL0", opt(k.CL0)}, {"CD0", &k.CD0}, {"CLu", &k.CLu}, {"CDu", &k.CDu},
        {"CLa", &k.CLa}, {"CDa", &k.CDa}, {"CLq", &k.CLq}, {"CLadot", &k.CLadot},
        {"CDq", &k.CDq}, {"Cmu", &k.Cmu}, {"Cma", &k.Cma}, {"Cmq", &k.Cmq},
        {"Cmadot", &k.Cmadot}};
    for (const auto& [name, field] : fields)
      if (name == key) return field;
    return nullptr;
  }
  if (section == "lateral" && lat) {
    const std::pair<std::string_view, Ptr> fields[] = {
        {"CYb", &k.CYb}, {"CYp", &k.CYp}, {"CYr", &k.CYr}, {"Clb", &k.Clb}, {"Clp", &k.Clp},
        {"Clr", &k.Clr}, {"Cnb", &k.Cnb}, {"Cnp", &k.Cnp}, {"Cnr", &k.Cnr}};
    for (const auto& [name, field] : fields)
      if (name == key) return field;
    return nullptr;
  }
  if (section == "avl") {
    // An AVL .st file's numbers (data/derivatives/README.md, "AVL files"), by
    // AVL's names, and its controls' derivatives as avl.NAME.{CL,CD,CY,Cl,Cm,Cn}.
    const std::pair<std::string_view, Ptr> fields[] = {
        {"CLtot", opt(k.CL0)}, {"CDtot", &k.CD0}, {"Sref", &k.S}, {"Cref", &k.c},
        {"Bref", &k.b}, {"Alpha", opt(k.alpha0)}, {"CLa", &k.CLa}, {"CDa", &k.CDa},
        {"Cma", &k.Cma}, {"CLq", &k.CLq}, {"CDq", &k.CDq}, {"Cmq", &k.Cmq},
        {"CYb", &k.CYb}, {"CYp", &k.CYp}, {"CYr", &k.CYr}, {"Clb", &k.Clb},
        {"Clp", &k.Clp}, {"Clr", &k.Clr}, {"Cnb", &k.Cnb}, {"Cnp", &k.Cnp}, {"Cnr", &k.Cnr}};
    for (const auto& [name, field] : fields)
      if (name == key) return field;
    const auto [name, derivative] = SplitControlKey(key);
    if (name.empty()) return nullptr;
    key = derivative;
    for (auto& c : k.controls) {
      if (c.name != name) continue;
      const std::pair<std::string_view, Ptr> derivatives[] = {
          {"CL", opt(c.CL)}, {"CD", opt(c.CD)}, {"CY", opt(c.CY)},
          {"Cl", opt(c.Cl)}, {"Cm", opt(c.Cm)}, {"Cn", opt(c.Cn)}};
      for (const auto& [derivative, field] : derivatives)
        if (derivative == key) return field;
    }
    return nullptr;
  }
  if (section == "controls") {
    const auto [name, derivative] = SplitControlKey(key);
    if (name.empty()) return nullptr;
    key = derivative;
    for (auto& c : k.controls) {
      if (c.name != name) continue;
      if (lon && key == "CX") return opt(c.CX);
      if (lon && key == "CZ") return opt(c.CZ);
      if (lon && key == "CL") return opt(c.CL);
      if (lon && key == "CD") return opt(c.CD);
      if (lon && key == "Cm") return opt(c.Cm);
      if (lat && key == "CY") return opt(c.CY);
      if (lat && key == "Cl") return opt(c.Cl);
      if (lat && key == "Cn") return opt(c.Cn);
    }
  }
  return nullptr;
}

template <class F>
auto FileLookup(F& file, std::string_view path) -> decltype(&file.written.condition.U0) {
  if (file.coefficients) {
    if (auto* field = CoefficientLookup(*file.coefficients, file.longitudinal_coefficients,
                                        file.lateral_coefficients, path))
      return field;
    // The condition, mass and geometry keys are the coefficients' (the
    // dimensional sections read U0, θ0, g and the mass ToDimensional gives).
    const std::string_view section = path.substr(0, path.find('.'));
    if (section != "controls" && section != "longitudinal" && section != "lateral" &&
        !(section == "condition" && path == "condition.W0"))
      return nullptr;
  }
  return Lookup(file.written, path);
}

}  // namespace

const WrittenKey* AircraftFile::Find(std::string_view path) const {
  for (const WrittenKey& k : keys)
    if (k.path == path) return &k;
  return nullptr;
}

const double* FieldOf(const AircraftAsWritten& written, std::string_view path) {
  return Lookup(written, path);
}

double* FieldOf(AircraftAsWritten& written, std::string_view path) { return Lookup(written, path); }

const double* FieldOf(const AircraftFile& file, std::string_view path) { return FileLookup(file, path); }

double* FieldOf(AircraftFile& file, std::string_view path) { return FileLookup(file, path); }

template <class T>
AxisMatrices<T> MatricesOf(const AircraftAsWritten& written, FieldValue<T> value) {
  const NormalizedAircraft<T> n = ToNormalized<T>(written, value);
  return {LongitudinalA(n.condition, n.longitudinal), LateralA(n.condition, n.lateral)};
}

template <class T>
AxisInputMatrices<T> InputMatricesOf(const AircraftAsWritten& written, FieldValue<T> value) {
  const NormalizedAircraft<T> n = ToNormalized<T>(written, value);
  Eigen::Index lon = 0, lat = 0;
  for (const Control& c : written.controls) lon += c.longitudinal, lat += c.lateral;
  AxisInputMatrices<T> out{Eigen::Matrix<T, 4, Eigen::Dynamic>(4, lon),
                           Eigen::Matrix<T, 5, Eigen::Dynamic>(5, lat)};
  lon = lat = 0;
  for (const Control& c : written.controls) {
    if (!c.longitudinal && !c.lateral) continue;
    const ControlDerivativesOf<T> d = ToNormalizedControl<T>(written, c, value);
    if (c.longitudinal) out.longitudinal.col(lon++) = LongitudinalB(n.condition, n.longitudinal, d.X, d.Z, d.M);
    if (c.lateral) out.lateral.col(lat++) = LateralB(n.condition, d.Y, d.L, d.N);
  }
  return out;
}

namespace {

// Calls `f(value')` where value' reads the fields of `file.written` that a
// coefficient file's ToDimensional<T> produced (U0, θ0, g, the mass, the
// coefficient sections' derivatives and its controls' parts) as that
// conversion's T values, and every other field through `value`: the link
// MatricesOfFile and InputMatricesOfFile put in front of the formulas.
template <class T, class F>
auto ThroughCoefficients(const AircraftFile& file, FieldValue<T> value, F f) {
  if (!file.coefficients) return f(value);
  const DimensionalDerivatives<T> d = ToDimensional<T>(*file.coefficients, value);
  const AircraftAsWritten& w = file.written;
  // The fields of `w` the conversion produced, and their values in T.
  std::vector<std::pair<const double*, const T*>> produced;
  auto add = [&](const double& field, const T& v) { produced.emplace_back(&field, &v); };
  add(w.condition.U0, d.U0);
  add(w.condition.theta0, d.theta0);
  add(w.condition.g, d.g);
  if (w.mass.m) add(*w.mass.m, d.m);
  if (w.mass.Ix) add(*w.mass.Ix, d.Ix);
  if (w.mass.Iy) add(*w.mass.Iy, d.Iy);
  if (w.mass.Iz) add(*w.mass.Iz, d.Iz);
  if (w.mass.Ixz) add(*w.mass.Ixz, d.Ixz);
  if (file.longitudinal_coefficients) {
    const LongitudinalAsWritten& L = w.longitudinal;
    add(L.Xu, d.Xu), add(L.Zu, d.Zu), add(L.Mu, d.Mu), add(L.Xw, d.Xw), add(L.Zw, d.Zw);
    add(L.Mw, d.Mw), add(L.Xq, d.Xq), add(L.Zq, d.Zq), add(L.Mq, d.Mq), add(L.Zwdot, d.Zwdot);
    add(L.Mwdot, d.Mwdot);
  }
  if (file.lateral_coefficients) {
    const LateralAsWritten& L = w.lateral;
    add(L.Yv, d.Yv), add(L.Lv, d.Lv), add(L.Nv, d.Nv), add(L.Yp, d.Yp), add(L.Yr, d.Yr);
    add(L.Lp, d.Lp), add(L.Lr, d.Lr), add(L.Np, d.Np), add(L.Nr, d.Nr);
  }
  // The controls of `w` are the coefficients' in order (data/read_coefficients.cpp).
  for (std::size_t i = 0; i < w.controls.size() && i < d.controls.size(); ++i) {
    const Control& c = w.controls[i];
    const typename DimensionalDerivatives<T>::ControlDerivatives& dc = d.controls[i];
    if (file.longitudinal_coefficients) add(c.X, dc.X), add(c.Z, dc.Z), add(c.M, dc.M);
    if (file.lateral_coefficients) add(c.Y, dc.Y), add(c.L, dc.L), add(c.N, dc.N);
  }
  return f([&](const double& field) -> T {
    for (const auto& [at, v] : produced)
      if (at == &field) return *v;
    return value(field);
  });
}

}  // namespace

template <class T>
AxisMatrices<T> MatricesOfFile(const AircraftFile& file, FieldValue<T> value) {
  return ThroughCoefficients<T>(file, value, [&](FieldValue<T> v) { return MatricesOf<T>(file.written, v); });
}

template <class T>
AxisInputMatrices<T> InputMatricesOfFile(const AircraftFile& file, FieldValue<T> value) {
  return ThroughCoefficients<T>(file, value,
                                [&](FieldValue<T> v) { return InputMatricesOf<T>(file.written, v); });
}

#define AEROLIN_INSTANTIATE(T)                                                     \
  template AxisMatrices<T> MatricesOf(const AircraftAsWritten&, FieldValue<T>); \
  template AxisMatrices<T> MatricesOfFile(const AircraftFile&, FieldValue<T>);          \
  template AxisInputMatrices<T> InputMatricesOf(const AircraftAsWritten&, FieldValue<T>); \
  template AxisInputMatrices<T> InputMatricesOfFile(const AircraftFile&, FieldValue<T>);
AEROLIN_MODEL_SCALARS(AEROLIN_INSTANTIATE)
#undef AEROLIN_INSTANTIATE

AxisMatrices<double> MatricesOf(const AircraftAsWritten& written) {
  return MatricesOf<double>(written, [](const double& field) { return field; });
}

}  // namespace aerolin::model
