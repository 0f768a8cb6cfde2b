#include "aerolin/core/error.hpp"

#include <algorithm>
#include <cassert>

#include "aerolin/core/messages.hpp"

namespace aerolin::core {

std::string Diagnostic::ToString() const {
  std::string text = where.path;
  text += ':';
  text += std::to_string(where.line);
  text += ": ";
  text += message;
  return text;
}

std::string JoinDiagnostics(const std::vector<Diagnostic>& diagnostics, std::string_view noun,
                            std::string_view prefix) {
  std::string text;
  const std::size_t shown = std::min(diagnostics.size(), kMaxReportedDiagnostics);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) text += '\n';
    text += prefix;
    text += diagnostics[i].ToString();
  }
  if (diagnostics.size() > shown) {
    text += '\n';
    text += prefix;
    text += "... and ";
    text += std::to_string(diagnostics.size() - shown);
    text += " more ";
    text += noun;
  }
  return text;
}

namespace {
// The length of the UTF-8 sequence starting at s[i] (1 to 4), or 0 if the
// bytes there are not one.
std::size_t Utf8Length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  std::size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return n;
}

void AppendHex(std::string& out, const char* prefix, unsigned value, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += prefix;
  for (int d = digits - 1; d >= 0; --d) out += kHex[(value >> (4 * d)) & 0xF];
}
}  // namespace

std::string Printable(std::string_view text, bool clip) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (clip && chars == kMaxEchoedChars) {
      out += "\u2026";
      break;
    }
    ++chars;
    const std::size_t n = Utf8Length(text, i);
    const auto b = static_cast<unsigned char>(text[i]);
    if (n == 0) {  // not UTF-8
      AppendHex(out, "\\x", b, 2);
      ++i;
    } else if (b < 0x20 || b == 0x7F) {  // C0 controls, DEL
      AppendHex(out, "\\x", b, 2);
      ++i;
    } else if (n == 2 && b == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      AppendHex(out, "\\u00", static_cast<unsigned char>(text[i + 1]), 2);  // C1 controls
      i += 2;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

DataError::DataError(SourceLocation where, const std::string& message)
    : DataError(std::vector<Diagnostic>{{std::move(where), message}}) {}

DataError::DataError(std::vector<Diagnostic> defects)
    : std::runtime_error(JoinDiagnostics(defects)), defects_(std::move(defects)) {
  assert(!defects_.empty());
}

}  // namespace aerolin::core
