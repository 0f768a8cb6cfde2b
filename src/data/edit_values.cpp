#include "aerolin/data/edit_values.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "aerolin/core/error.hpp"

namespace aerolin::data {
namespace {

// Byte offset in `text` of the 1-based (line, column), columns counted in
// UTF-8 code points as toml++ counts them.
std::size_t OffsetOf(const std::string& text, std::size_t line, std::size_t column) {
  std::size_t at = 0;
  for (std::size_t l = 1; l < line; ++l) at = text.find('\n', at) + 1;
  for (std::size_t c = 1; c < column; ++c) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
  }
  return at;
}

}  // namespace

std::string WithValues(const std::string& text, const std::string& path,
                       const std::vector<std::pair<std::string, double>>& values) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw core::DataError({path, static_cast<int>(e.source().begin.line)}, std::string(e.description()));
  }
  struct Edit {
    std::size_t begin, end;
    std::string number;
  };
  std::vector<Edit> edits;
  for (const auto& [key, value] : values) {
    const toml::node* node = root.at_path(key).node();
    if (node == nullptr || !(node->is_floating_point() || node->is_integer()))
      throw core::DataError({path, 0}, "'" + key +
                                           "' is not a number written in this file (a key of an AVL "
                                           ".st file cannot be written back into the TOML)");
    const std::size_t begin = OffsetOf(text, node->source().begin.line, node->source().begin.column);
    std::size_t end = begin;
    while (end < text.size() && std::string_view(" \t,#\r\n]}").find(text[end]) == std::string_view::npos)
      ++end;
    edits.push_back({begin, end, fmt::format("{}", value)});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  std::string out = text;
  for (const Edit& e : edits) out.replace(e.begin, e.end - e.begin, e.number);
  return out;
}

}  // namespace aerolin::data
