// The reader core: TOML primitives, diagnostics and "did you mean".
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>
#include <toml++/toml.h>

#include "aerolin/core/messages.hpp"
#include "read_context.hpp"

namespace aerolin::data::read {

std::string Format(double v) { return fmt::format("{:.4g}", v); }

core::SourceLocation LocationOf(const toml::node& node, const std::string& path) {
  const toml::source_region& src = node.source();
  const int line = static_cast<int>(src.begin.line);
  return {path, line > 0 ? line : 1};
}

namespace {

// Levenshtein distance, case-insensitive, for "did you mean".
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Spelling variants users write for the same derivative: "M_alpha",
// "Malfa", "Nbeta", "M_alpha_dot" all reduce to the key's canonical form.
std::string Canonical(std::string_view key) {
  static constexpr std::pair<std::string_view, std::string_view> kSpellings[] = {
      {"alpha", "a"}, {"alfa", "a"}, {"beta", "b"}, {"Dot", "dot"}};
  std::string out;
  for (std::size_t i = 0; i < key.size();) {
    if (key[i] == '_') {
      ++i;
      continue;
    }
    bool replaced = false;
    for (const auto& [from, to] : kSpellings)
      if (key.substr(i, from.size()) == from) {
        out += to;
        i += from.size();
        replaced = true;
        break;
      }
    if (!replaced) out += key[i++];
  }
  return out;
}

}  // namespace

std::optional<std::string> Suggest(std::string_view key, const std::vector<std::string_view>& allowed) {
  const std::string canonical = Canonical(key);
  for (std::string_view candidate : allowed)
    if (canonical == candidate) return std::string(candidate);
  std::optional<std::string> best;
  std::size_t best_distance = 3;  // suggest only close matches (≤ 2 edits)
  for (std::string_view candidate : allowed) {
    const std::size_t d = EditDistance(key, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(candidate);
    }
  }
  return best;
}

core::SourceLocation ReadContext::At(const toml::node& node) const { return LocationOf(node, path); }

bool IsPerAngleKey(std::string_view key) {
  static constexpr std::string_view kPerAngleKeys[] = {"Xa",  "Za",  "Ma",  "Yb",  "Lb",  "Nb",  "CXa",
                                                       "CZa", "Cma", "CLa", "CDa", "CYb", "Clb", "Cnb"};
  return std::find(std::begin(kPerAngleKeys), std::end(kPerAngleKeys), key) != std::end(kPerAngleKeys);
}

const toml::table* RequireTable(ReadContext& ctx, const toml::table& root, std::string_view name) {
  const toml::node* node = root.get(name);
  if (node == nullptr) {
    ctx.Error({ctx.path, 1}, "missing table [" + std::string(name) + "]");
    return nullptr;
  }
  const toml::table* table = node->as_table();
  if (table == nullptr) ctx.Error(ctx.At(*node), fmt::format("'{}' must be a table", name));
  return table;
}

const toml::table* OptionalTable(ReadContext& ctx, const toml::table& root, std::string_view name,
                                 std::string_view what) {
  const toml::node* node = root.get(name);
  if (node == nullptr) return nullptr;
  const toml::table* table = node->as_table();
  if (table == nullptr) ctx.Error(ctx.At(*node), fmt::format("'{}' must be {}", name, what));
  return table;
}

void CheckKeys(ReadContext& ctx, const toml::table& table, std::string_view table_name,
               const std::vector<std::string_view>& allowed, std::string_view hint) {
  for (const auto& [key, node] : table) {
    const std::string_view k = key.str();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    // Echoed escaped and clipped: a key may hold terminal escapes or be megabytes long.
    std::string message = "unknown key '" + core::Printable(k) + "' in [" +
                          core::Printable(table_name) + "]";
    if (const auto hint_for_key = KeyHint(ctx, k, table_name)) {
      message += " (" + *hint_for_key + ")";
    } else if (const auto suggestion = Suggest(k, allowed)) {
      message += " (did you mean '" + *suggestion + "'?)";
      ctx.suggested.push_back(std::string(table_name) + "." + *suggestion);
    }
    else if (!hint.empty())
      message += " (" + std::string(hint) + ")";
    ctx.Error(ctx.At(node), message);
  }
}

void Missing(ReadContext& ctx, const toml::table& table, std::string_view table_name, std::string_view key,
             std::string_view hint) {
  // A misspelt key was already reported with this key as the suggestion:
  // one defect, one line.
  const std::string qualified = std::string(table_name) + "." + std::string(key);
  if (std::find(ctx.suggested.begin(), ctx.suggested.end(), qualified) != ctx.suggested.end()) return;
  std::string message = "missing '" + std::string(key) + "' in [" + std::string(table_name) + "]";
  if (!hint.empty()) message += " (" + std::string(hint) + ")";
  ctx.Error(ctx.At(table), message);
}

std::optional<double> Number(ReadContext& ctx, const toml::table& table, std::string_view key,
                             std::string_view table_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return std::nullopt;
  const std::optional<double> value = node->value<double>();
  if (!value) {
    ctx.Error(ctx.At(*node), fmt::format("'{}' in [{}] must be a number", key, table_name));
    return std::nullopt;
  }
  if (!std::isfinite(*value)) {
    ctx.Error(ctx.At(*node), fmt::format("'{}' in [{}] must be a finite number", key, table_name));
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> String(ReadContext& ctx, const toml::table& table, std::string_view key,
                                  std::string_view table_name, bool required) {
  const toml::node* node = table.get(key);
  if (node == nullptr) {
    if (required) Missing(ctx, table, table_name, key, "a quoted string");
    return std::nullopt;
  }
  const std::optional<std::string> value = node->value<std::string>();
  if (!value)
    ctx.Error(ctx.At(*node), fmt::format("'{}' in [{}] must be a quoted string", key, table_name));
  return value;
}

std::optional<bool> Bool(ReadContext& ctx, const toml::table& table, std::string_view key,
                         std::string_view table_name) {
  const toml::node* node = table.get(key);
  if (node == nullptr) return std::nullopt;
  const std::optional<bool> value = node->value<bool>();
  if (!value) ctx.Error(ctx.At(*node), fmt::format("'{}' in [{}] must be true or false", key, table_name));
  return value;
}

double PerDegreeFactor(ReadContext& ctx, const toml::table& t, const std::string& section,
                       std::string_view key) {
  auto it = ctx.per_degree.find(section);
  if (it == ctx.per_degree.end()) {
    const std::optional<bool> flag = Bool(ctx, t, "per_degree", section);
    it = ctx.per_degree.emplace(section, flag.value_or(false) ? core::kRadToDeg : 1.0).first;
  }
  const bool control = section.rfind("controls.", 0) == 0;
  return control || IsPerAngleKey(key) ? it->second : 1.0;
}

}  // namespace aerolin::data::read
