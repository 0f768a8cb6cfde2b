#include "aerolin/export/svg_text.hpp"

#include <fmt/format.h>

#include <cwctype>
#include <map>
#include <sstream>
#include <stdexcept>

namespace aerolin::exporting {
namespace {

void AppendUtf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

void AppendEscaped(std::string& out, char32_t c) {
  switch (c) {
    case U'&': out += "&amp;"; break;
    case U'<': out += "&lt;"; break;
    case U'>': out += "&gt;"; break;
    case U'"': out += "&quot;"; break;
    default: AppendUtf8(out, c);
  }
}

const std::map<std::wstring, char32_t>& Greek() {
  static const std::map<std::wstring, char32_t> table = {
      {L"alpha", U'α'},   {L"beta", U'β'},  {L"gamma", U'γ'},   {L"delta", U'δ'},
      {L"epsilon", U'ε'}, {L"zeta", U'ζ'},  {L"eta", U'η'},     {L"theta", U'θ'},
      {L"iota", U'ι'},    {L"kappa", U'κ'}, {L"lambda", U'λ'},  {L"mu", U'μ'},
      {L"nu", U'ν'},      {L"xi", U'ξ'},    {L"pi", U'π'},      {L"rho", U'ρ'},
      {L"sigma", U'σ'},   {L"tau", U'τ'},   {L"upsilon", U'υ'}, {L"phi", U'ϕ'},
      {L"chi", U'χ'},     {L"psi", U'ψ'},   {L"omega", U'ω'},   {L"Gamma", U'Γ'},
      {L"Delta", U'Δ'},   {L"Theta", U'Θ'}, {L"Lambda", U'Λ'},  {L"Xi", U'Ξ'},
      {L"Pi", U'Π'},      {L"Sigma", U'Σ'}, {L"Phi", U'Φ'},     {L"Psi", U'Ψ'},
      {L"Omega", U'Ω'}};
  return table;
}

class Converter {
 public:
  explicit Converter(const std::wstring& text) : s_(text) {}
  std::string Run() {
    std::string out;
    while (i_ < s_.size()) Item(out, false);
    return out;
  }

 private:
  // A group "{...}" or one item, appended to `out`.
  void Group(std::string& out) {
    if (i_ < s_.size() && s_[i_] == L'{') {
      ++i_;
      while (i_ < s_.size() && s_[i_] != L'}') Item(out, true);
      if (i_ < s_.size()) ++i_;  // '}'
    } else if (i_ < s_.size()) {
      Item(out, true);
    }
  }

  void Item(std::string& out, bool in_group) {
    const wchar_t c = s_[i_];
    if (c == L'\\' && i_ + 1 < s_.size()) {
      std::size_t j = i_ + 1;
      while (j < s_.size() && std::iswalpha(s_[j])) ++j;
      if (j == i_ + 1) {  // "\{" and the like: the character itself
        AppendEscaped(out, s_[j]);
        i_ = j + 1;
        return;
      }
      const std::wstring name = s_.substr(i_ + 1, j - i_ - 1);
      i_ = j;
      if (name == L"b" || name == L"i") {
        out += name == L"b" ? "<tspan font-weight=\"bold\">" : "<tspan font-style=\"italic\">";
        Group(out);
        out += "</tspan>";
        return;
      }
      const auto greek = Greek().find(name);
      if (greek != Greek().end()) {
        AppendEscaped(out, greek->second);
      } else {
        for (const wchar_t w : name) AppendEscaped(out, static_cast<char32_t>(w));
      }
      // TeX: one space after a command word ends it and is not drawn.
      if (i_ < s_.size() && s_[i_] == L' ') ++i_;
      return;
    }
    if ((c == L'_' || c == L'^') && i_ + 1 < s_.size()) {
      ++i_;
      out += c == L'_' ? "<tspan baseline-shift=\"sub\" font-size=\"70%\">"
                       : "<tspan baseline-shift=\"super\" font-size=\"70%\">";
      Group(out);
      out += "</tspan>";
      return;
    }
    if (in_group && c == L'}') return;
    AppendEscaped(out, static_cast<char32_t>(c));
    ++i_;
  }

  const std::wstring& s_;
  std::size_t i_ = 0;
};

}  // namespace

std::string MathTextToSvg(const std::wstring& text) { return Converter(text).Run(); }

std::string ReplaceGlyphsWithText(const std::string& svg, const std::vector<SvgTextItem>& items) {
  const std::size_t end = svg.rfind("</svg>");
  if (end == std::string::npos)
    throw std::invalid_argument("ReplaceGlyphsWithText: no closing </svg>");
  std::string out;
  out.reserve(svg.size());
  std::istringstream in(svg.substr(0, end));
  std::string line;
  bool in_glyph_defs = false;
  while (std::getline(in, line)) {
    // MathGL writes each glyph outline as "<defs><g id=..><path d=\"" ...
    // "\"/></g></defs>" over several lines, and places each character with
    // one "<g transform=\"translate(...) scale(...) rotate(...)\" ..>" line;
    // no other element it writes has a transform.
    if (line.rfind("<defs><g id=", 0) == 0) in_glyph_defs = true;
    if (in_glyph_defs) {
      if (line.find("</g></defs>") != std::string::npos) in_glyph_defs = false;
      continue;
    }
    if (line.rfind("<g transform=\"translate(", 0) == 0) continue;
    out += line;
    if (!in.eof()) out += '\n';
  }
  // MathGL's last line is "</g></svg>": keep its "</g>", texts after it.
  out += "\n<g font-family=\"'DejaVu Serif Condensed', 'DejaVu Serif', serif\" "
         "font-stretch=\"condensed\">\n";
  for (const SvgTextItem& t : items) {
    out += fmt::format(
        "<text transform=\"translate({:.2f},{:.2f}) rotate({:.4g})\" font-size=\"{:.2f}\" "
        "fill=\"#{:06x}\" xml:space=\"preserve\"{}>",
        t.x, t.y, t.angle_deg, t.font_px, t.rgb & 0xFFFFFFu,
        t.length_px > 0.0
            ? fmt::format(" textLength=\"{:.2f}\" lengthAdjust=\"spacingAndGlyphs\"", t.length_px)
            : std::string());
    out += MathTextToSvg(t.text);
    out += "</text>\n";
  }
  out += "</g>\n";
  out += svg.substr(end);
  return out;
}

}  // namespace aerolin::exporting
