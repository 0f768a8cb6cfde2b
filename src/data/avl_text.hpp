#pragma once
// Reading AVL's whitespace-separated text files (.st, .mass): the pieces
// both readers share. Internal to module data.

#include <cctype>
#include <charconv>
#include <optional>
#include <string_view>
#include <vector>

namespace aerolin::data::avl_text {

/// `s` without leading and trailing white space.
inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// The lines of `text` (views into it), each without its '\n' and a '\r'
/// before it; a text ending in '\n' ends with an empty line.
inline std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

/// The white-space-separated words of `s` (views into it).
inline std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const std::size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

/// `token` as a number (a leading '+' allowed, as Fortran prints it), or
/// nullopt unless the whole token is one; "inf" and "nan" are numbers here:
/// callers say what a non-finite value means.
inline std::optional<double> ParseNumber(std::string_view token) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || token.empty()) return std::nullopt;
  return value;
}

/// `token` as an integer (an optional leading '-'), or nullopt unless the
/// whole token is one.
inline std::optional<int> ParseInteger(std::string_view token) {
  int value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size() || token.empty()) return std::nullopt;
  return value;
}

}  // namespace aerolin::data::avl_text
