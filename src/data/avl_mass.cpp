#include "aerolin/data/avl_mass.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>
#include <vector>
#include <fmt/format.h>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "avl_text.hpp"

namespace aerolin::data {
namespace {

using avl_text::Trim;
using avl_text::Words;

// Largest magnitude of any running sum (mass, mass·distance, mass·distance²,
// inertias) in the file's units: the SI totals formed from them (times
// Munit·Lunit², and products of two in the Ixz coupling) then stay finite.
constexpr double kMaxTotal = 1e100;

// A finite number, or nullopt.
std::optional<double> Number(std::string_view token) {
  const std::optional<double> v = avl_text::ParseNumber(token);
  if (!v || !std::isfinite(*v)) return std::nullopt;
  return v;
}

}  // namespace

AvlMass ParseAvlMass(const std::string& text, const std::string& path) {
  std::vector<core::Diagnostic> errors;
  auto error = [&](int line, std::string message) {
    errors.push_back({{path, line}, std::move(message)});
  };
  AvlMass out;
  out.path = path;
  double fac[10], add[10];
  std::fill(std::begin(fac), std::end(fac), 1.0);
  std::fill(std::begin(add), std::end(add), 0.0);
  // Sums as amass.f forms them.
  double m = 0, mx = 0, my = 0, mz = 0, mxx = 0, myy = 0, mzz = 0, mxy = 0, mxz = 0, myz = 0;
  double ixx = 0, iyy = 0, izz = 0, ixy = 0, ixz = 0, iyz = 0;
  int number = 0;
  bool overflowed = false;
  int unit_line = 0;  // the last Lunit or Munit line  // reported once, at the first row that does it
  for (std::string_view line : avl_text::Lines(text)) {
    ++number;
    if (!line.empty() && (line.front() == '#' || line.front() == '!')) continue;
    if (const std::size_t bang = line.find_first_of("!#"); bang != std::string_view::npos)
      line = line.substr(0, bang);
    line = Trim(line);
    if (line.empty()) continue;
    auto values = [&](std::string_view s, double* into, int& count) {
      count = 0;
      for (std::string_view token : Words(s)) {
        const std::optional<double> v = Number(token);
        if (!v) {
          error(number, fmt::format("'{}' is not a number (an AVL mass line is: mass x y z Ixx "
                                    "Iyy Izz [Ixy Ixz Iyz])",
                                    token));
          return false;
        }
        if (count == 10) {
          error(number, "more than 10 values (mass x y z Ixx Iyy Izz Ixy Ixz Iyz)");
          return false;
        }
        into[count++] = *v;
      }
      return true;
    };
    if (line.front() == '*' || line.front() == '+') {
      double v[10];
      int count = 0;
      if (!values(line.substr(1), v, count)) continue;
      std::copy(v, v + count, line.front() == '*' ? fac : add);
      continue;
    }
    if (const std::size_t eq = line.find('='); eq != std::string_view::npos) {
      const std::string_view key = Trim(line.substr(0, eq));
      const std::vector<std::string_view> rhs = Words(line.substr(eq + 1));
      const std::optional<double> v = rhs.empty() ? std::nullopt : Number(rhs[0]);
      std::string unit;
      for (std::size_t i = 1; i < rhs.size(); ++i) {
        if (i > 1) unit += ' ';
        unit += rhs[i];
      }
      if (!v) {
        error(number, fmt::format("'{} =' needs a number", key));
        continue;
      }
      if (key == "Lunit" || key == "Munit") {
        if (*v <= 0.0) {
          error(number, fmt::format("{} must be > 0", key));
          continue;
        }
        (key == "Lunit" ? out.length_unit : out.mass_unit) = *v;
        unit_line = number;
        (key == "Lunit" ? out.length_unit_name : out.mass_unit_name) = unit.empty() ? std::string(key) : unit;
      } else if (key == "Tunit") {
        out.time_unit = *v;
        out.time_unit_name = unit.empty() ? std::string(key) : unit;
      } else if (key == "g") {
        out.g = *v;
        out.g_line = number;
      } else if (key == "rho") {
        out.rho = *v;
        out.rho_line = number;
      } else {
        error(number, fmt::format("unknown keyword '{}' (AVL's mass file knows Lunit, Munit, "
                                  "Tunit, g, rho)",
                                  key));
      }
      continue;
    }
    double r[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int count = 0;
    if (!values(line, r, count)) continue;
    double d[10];
    for (int k = 0; k < 10; ++k) d[k] = fac[k] * r[k] + add[k];
    const double mi = d[0], xi = d[1], yi = d[2], zi = d[3];
    m += mi;
    mx += mi * xi;
    my += mi * yi;
    mz += mi * zi;
    mxx += mi * xi * xi;
    myy += mi * yi * yi;
    mzz += mi * zi * zi;
    mxy += mi * xi * yi;
    mxz += mi * xi * zi;
    myz += mi * yi * zi;
    ixx += d[4];
    iyy += d[5];
    izz += d[6];
    ixy += d[7];
    ixz += d[8];
    iyz += d[9];
    ++out.items;
    // A number far outside any aircraft's (1e308) overflows the totals, and
    // the inertias that are formed from them, with no line to show; say it
    // here, at the row that does it.
    const double sums[] = {m,   mx,  my,  mz,  mxx, myy, mzz, mxy,
                           mxz, myz, ixx, iyy, izz, ixy, ixz, iyz};
    if (!overflowed && !std::all_of(std::begin(sums), std::end(sums),
                                    [](double v) { return std::abs(v) <= kMaxTotal; })) {
      overflowed = true;
      error(number, fmt::format("this item takes the totals beyond {:g} (the sums of mass, "
                                "mass x distance and inertia): a value far outside the physical "
                                "range (check the numbers, the '*' scale factors and Lunit, Munit)",
                                kMaxTotal));
    }
  }
  if (errors.empty() && !(m > 0.0))
    error(out.items == 0 ? 1 : number,
          out.items == 0 ? "no mass lines (mass x y z Ixx Iyy Izz ...)"
                         : fmt::format("total mass {} must be > 0", m));
  if (!errors.empty()) throw core::DataError(std::move(errors));
  const double xcg = mx / m, ycg = my / m, zcg = mz / m;
  const double L = out.length_unit, M = out.mass_unit, I = M * L * L;
  out.mass = m * M;
  out.x_cg = xcg * L;
  out.y_cg = ycg * L;
  out.z_cg = zcg * L;
  out.Ixx = (ixx + myy + mzz - m * (ycg * ycg + zcg * zcg)) * I;
  out.Iyy = (iyy + mzz + mxx - m * (zcg * zcg + xcg * xcg)) * I;
  out.Izz = (izz + mxx + myy - m * (xcg * xcg + ycg * ycg)) * I;
  out.Ixy = (ixy + mxy - m * xcg * ycg) * I;
  out.Ixz = (ixz + mxz - m * xcg * zcg) * I;
  out.Iyz = (iyz + myz - m * ycg * zcg) * I;
  // The totals are bounded (kMaxTotal); the units may still overflow them.
  const double totals[] = {out.mass, out.x_cg, out.y_cg, out.z_cg, out.Ixx, out.Iyy,
                           out.Izz,  out.Ixy,  out.Ixz,  out.Iyz};
  if (!std::all_of(std::begin(totals), std::end(totals),
                   [](double v) { return std::abs(v) <= kMaxTotal; }))
    throw core::DataError({path, unit_line == 0 ? 1 : unit_line},
                          fmt::format("Lunit = {:g}, Munit = {:g} take the totals beyond {:g} in "
                                      "SI units: check the units' values",
                                      L, M, kMaxTotal));
  return out;
}

AvlMass ReadAvlMassFile(const std::string& path) {
  return ParseAvlMass(core::ReadInputFile(path), path);
}

AvlMassBodyAxes ToBodyAxes(const AvlMass& mass) {
  AvlMassBodyAxes b;
  b.m = mass.mass;
  b.Ix = mass.Ixx;
  b.Iy = mass.Iyy;
  b.Iz = mass.Izz;
  b.Ixz = mass.Ixz;  // ∫(−x)(−z) dm = ∫x z dm
  b.x_cg = -mass.x_cg;
  b.z_cg = -mass.z_cg;
  return b;
}

}  // namespace aerolin::data
