#include "aerolin/model/aero_tables.hpp"

#include <algorithm>
#include <cassert>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <numbers>

namespace aerolin::model {
namespace {

constexpr double kDegree = std::numbers::pi / 180.0;

// The index i of the interval [xs[i], xs[i+1]] that holds x (clamped) and
// x's fraction of it, in [0, 1].
std::pair<std::size_t, double> Bracket(const std::vector<double>& xs, double x) {
  assert(xs.size() >= 2);
  if (!(x > xs.front())) return {0, 0.0};  // also NaN: held at the first value
  if (x >= xs.back()) return {xs.size() - 2, 1.0};
  const auto upper = std::upper_bound(xs.begin(), xs.end(), x);
  const std::size_t i = static_cast<std::size_t>(upper - xs.begin()) - 1;
  return {i, (x - xs[i]) / (xs[i + 1] - xs[i])};
}

std::string Shown(double v, bool angle) { return fmt::format("{:.4g}", angle ? v / kDegree : v); }

}  // namespace

std::string_view ToString(TableCoefficient c) {
  return TableCoefficientNames()[static_cast<std::size_t>(c)];
}

const std::vector<std::string_view>& TableCoefficientNames() {
  static const std::vector<std::string_view> names = {"CX", "CZ", "Cm", "CXq", "CZq", "Cmq"};
  return names;
}

std::optional<TableCoefficient> TableCoefficientNamed(std::string_view name) {
  const std::vector<std::string_view>& names = TableCoefficientNames();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) return std::nullopt;
  return static_cast<TableCoefficient>(it - names.begin());
}

bool IsStatic(TableCoefficient c) {
  return c == TableCoefficient::kCX || c == TableCoefficient::kCZ || c == TableCoefficient::kCm;
}

double InterpolateClamped(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
  const auto [i, f] = Bracket(xs, x);
  return ys[i] + f * (ys[i + 1] - ys[i]);
}

double CoefficientTable::At(double a, double second_value) const {
  const std::size_t n = alpha.size();
  // Named copies: clang 14 (the fuzz build) cannot capture structured bindings.
  const auto bracket = Bracket(alpha, a);
  const std::size_t i = bracket.first;
  const double f = bracket.second;
  const auto row_value = [&](std::size_t row) {
    const double* y = values.data() + row * n;
    return y[i] + f * (y[i + 1] - y[i]);
  };
  if (other.empty()) return row_value(0);
  const auto [j, g] = Bracket(other, second_value);
  const double lo = row_value(j), hi = row_value(j + 1);
  return lo + g * (hi - lo);
}

const CoefficientTable* AeroTables::Find(TableCoefficient c) const {
  for (const CoefficientTable& t : tables)
    if (t.coefficient == c) return &t;
  return nullptr;
}

std::string TableExcursion::ToString() const {
  const std::string unit = angle ? " deg" : "";
  const std::string range = Shown(low, angle) + ".." + Shown(high, angle) + unit;
  if (tables.size() == 1)
    return fmt::format("{} = {}{} is past {}'s table, {} (held at its edge value)", variable,
                       Shown(value, angle), unit, tables.front(), range);
  return fmt::format("{} = {}{} is past the tables {}, {} (held at their edge values)", variable,
                     Shown(value, angle), unit, fmt::join(tables, ", "), range);
}

std::vector<TableExcursion> TableExcursions(const AeroTables& tables, double alpha, double beta,
                                            const std::vector<double>& controls) {
  std::vector<TableExcursion> out;
  const auto check = [&out](const CoefficientTable& t, const std::string& variable,
                            const std::vector<double>& xs, double x, bool angle) {
    if (!(x < xs.front() || x > xs.back())) return;
    const std::string name(ToString(t.coefficient));
    for (TableExcursion& e : out)
      if (e.variable == variable && e.low == xs.front() && e.high == xs.back()) {
        e.tables.push_back(name);
        return;
      }
    out.push_back({{name}, variable, x, xs.front(), xs.back(), angle});
  };
  for (const CoefficientTable& t : tables.tables) {
    check(t, "alpha", t.alpha, alpha, true);
    if (t.second == TableVariable::kBeta) check(t, "beta", t.other, beta, true);
    if (t.second == TableVariable::kControl)
      check(t, t.second_name, t.other, controls[static_cast<std::size_t>(t.control)], t.second_is_angle);
  }
  return out;
}

}  // namespace aerolin::model
