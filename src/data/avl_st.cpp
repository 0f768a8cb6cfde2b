#include "aerolin/data/avl_st.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string_view>
#include <fmt/format.h>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "avl_text.hpp"

namespace aerolin::data {
namespace {

using core::Diagnostic;
using avl_text::ParseInteger;
using avl_text::ParseNumber;
using avl_text::Trim;
using avl_text::Words;

std::string Normalized(std::string_view s) {
  std::string out;
  for (std::string_view w : Words(s)) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

bool AllStars(std::string_view token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) { return c == '*'; });
}

// The keys of AVL's header (run case, totals): anything else "name = value"
// before the derivative tables is a control variable's setting.
bool IsHeaderKey(std::string_view key) {
  static constexpr std::string_view kKeys[] = {
      "Surfaces", "Strips", "Vortices", "Sref",  "Cref",   "Bref",  "Xref",  "Yref",
      "Zref",     "Alpha",  "pb/2V",    "p'b/2V", "Beta",  "qc/2V", "Mach",  "rb/2V",
      "r'b/2V",   "CXtot",  "Cltot",    "Cl'tot", "CYtot", "Cmtot", "CZtot", "Cntot",
      "Cn'tot",   "CLtot",  "CDtot",    "CDvis",  "CDind", "CLff",  "CDff",  "CYff",
      "e",        "CDo"};
  return std::find(std::begin(kKeys), std::end(kKeys), key) != std::end(kKeys);
}

// A control derivative key: "CLd3" → ("CL", 3); "CDffd2" → ("CDff", 2).
std::optional<std::pair<std::string, int>> ControlKey(std::string_view key) {
  static constexpr std::string_view kBases[] = {"CDff", "CL", "CY", "Cl", "Cm", "Cn", "CD", "e"};
  for (std::string_view base : kBases) {
    if (key.size() <= base.size() + 1 || key.substr(0, base.size()) != base || key[base.size()] != 'd')
      continue;
    const std::string_view digits = key.substr(base.size() + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      continue;
    const std::optional<int> n = ParseInteger(digits);
    if (!n || *n < 1) continue;
    return std::pair<std::string, int>(std::string(base), *n);
  }
  return std::nullopt;
}

struct Value {
  double value = 0;
  int line = 0;
};

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  AvlStability Parse(const std::string& text);

 private:
  void Error(int line, std::string message) { errors_.push_back({{path_, line}, std::move(message)}); }
  void Put(const std::string& key, double value, int line);
  void ParseClassic();
  void ParseClassicPairs(std::string_view line, int number, bool in_derivatives);
  void ParseMachine();
  AvlStability Build();

  std::string path_;
  std::vector<std::string_view> lines_;
  std::vector<Diagnostic> errors_;
  std::map<std::string, Value> values_;
  std::vector<std::pair<std::string, int>> order_;
  AvlFormat format_ = AvlFormat::kClassic;
  std::string configuration_;
  int derivatives_line_ = 0;  // "Stability-axis derivatives..." (0: not seen)
  // Control variables: names by AVL's index (1-based, from the derivative
  // table's header), their settings in the run case (file order), and the
  // machine format's per-control rows ("CL" → values, line).
  std::map<int, std::string> control_names_;
  std::vector<std::pair<std::string, double>> settings_;
  std::vector<std::string> machine_controls_;
};

void Parser::Put(const std::string& key, double value, int line) {
  if (!std::isfinite(value)) {
    Error(line, fmt::format("'{}' is {} (AVL printed a non-finite value; check the run case)", key, value));
    return;
  }
  const auto [it, inserted] = values_.emplace(key, Value{value, line});
  if (!inserted) {
    Error(line, fmt::format("'{}' given twice (first at line {}; one ST output per file)", key,
                            it->second.line));
    return;
  }
  order_.emplace_back(key, line);
}

void Parser::ParseClassicPairs(std::string_view line, int number, bool in_derivatives) {
  // Each "name = value" pair: the name is the word before '=', and must
  // follow the line start, a '|' or the previous value; a longer phrase
  // before '=' ("Neutral point  Xnp", "Clb Cnr / Clr Cnb") is read whole, so
  // the spiral ratio is never taken for Cnb.
  std::size_t boundary = 0;
  for (std::size_t eq = line.find('='); eq != std::string_view::npos; eq = line.find('=', eq + 1)) {
    std::size_t name_end = eq;
    while (name_end > boundary && line[name_end - 1] == ' ') --name_end;
    std::size_t name_start = name_end;
    while (name_start > boundary && line[name_start - 1] != ' ' && line[name_start - 1] != '|')
      --name_start;
    const std::string name(line.substr(name_start, name_end - name_start));
    std::string_view before = Trim(line.substr(boundary, name_start - boundary));
    if (const std::size_t bar = before.rfind('|'); bar != std::string_view::npos)
      before = Trim(before.substr(bar + 1));
    if (!before.empty() && before.front() == '#') before = Trim(before.substr(1));
    // The value.
    std::size_t v = eq + 1;
    while (v < line.size() && line[v] == ' ') ++v;
    std::size_t v_end = v;
    while (v_end < line.size() && line[v_end] != ' ' && line[v_end] != '|') ++v_end;
    const std::string_view token = line.substr(v, v_end - v);
    boundary = v_end;
    std::string key = name;
    if (!before.empty()) {
      const std::string phrase = Normalized(std::string(before) + " " + name);
      if (phrase == "Clb Cnr / Clr Cnb")
        key = "spiral_ratio";
      else if (phrase == "Neutral point Xnp")
        key = "Xnp";
      else
        continue;  // prose, not a quantity
    }
    if (name.empty()) {
      Error(number, "'=' without a name before it (expected AVL's 'name = value')");
      continue;
    }
    const std::optional<double> value = ParseNumber(token);
    if (!value) {
      if (AllStars(token))
        Error(number, fmt::format("'{}' is printed as '{}', AVL's overflow of its number field "
                                  "(the value is too large; check the run case)",
                                  name, token));
      else
        Error(number, fmt::format("'{} =' is followed by '{}', not a number", name, token));
      continue;
    }
    if (!in_derivatives && !IsHeaderKey(key) && key != "spiral_ratio" && key != "Xnp") {
      settings_.emplace_back(key, *value);  // a control variable's setting
      continue;
    }
    Put(key, *value, number);
  }
}

void Parser::ParseClassic() {
  for (std::size_t i = 0; i < lines_.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    const std::string_view line = lines_[i];
    const std::string_view trimmed = Trim(line);
    if (trimmed.rfind("Configuration:", 0) == 0) {
      configuration_ = std::string(Trim(trimmed.substr(14)));
      continue;
    }
    if (trimmed.rfind("Stability-axis derivatives", 0) == 0) {
      derivatives_line_ = number;
      continue;
    }
    if (line.find('=') == std::string_view::npos) {
      // The control table's header: "slat d1  flap d2 ...".
      if (derivatives_line_ == 0) continue;
      const std::vector<std::string_view> words = Words(line);
      for (std::size_t w = 1; w < words.size(); ++w) {
        const std::string_view word = words[w];
        if (word.size() < 2 || word[0] != 'd') continue;
        if (const std::optional<int> n = ParseInteger(word.substr(1)); n && *n >= 1)
          control_names_[*n] = std::string(words[w - 1]);
      }
      continue;
    }
    ParseClassicPairs(line, number, derivatives_line_ != 0);
  }
}

void Parser::ParseMachine() {
  // Line 1 "DERMATS", line 2 "VERSION 1.0", then "values | labels" lines;
  // unlabelled lines are titles, except the CONTROL and DESIGN blocks (a
  // count, then that many "value name" lines) and the names after
  // "# control vars" / "# design vars".
  const std::vector<std::string_view> version =
      lines_.size() < 2 ? std::vector<std::string_view>{} : Words(lines_[1]);
  if (version.size() != 2 || version[0] != "VERSION") {
    Error(2, "expected 'VERSION 1.0' after DERMATS (AVL's machine-format header)");
    return;
  }
  if (version[1] != "1.0")
    Error(2, fmt::format("machine-format VERSION {} (aerolin reads VERSION 1.0; write the file "
                         "with ST in AVL's classic format instead)",
                         version[1]));
  if (lines_.size() > 3) configuration_ = std::string(Trim(lines_[3]));
  auto count_at = [&](std::size_t i) -> std::optional<int> {
    const std::string_view token = Trim(lines_[i].substr(0, lines_[i].find('|')));
    const std::optional<int> n = ParseInteger(token);
    if (!n || *n < 0 || *n > 1000) {
      Error(static_cast<int>(i) + 1, fmt::format("expected a count, found '{}'", token));
      return std::nullopt;
    }
    if (i + 1 + static_cast<std::size_t>(*n) > lines_.size()) {
      Error(static_cast<int>(i) + 1,
            fmt::format("{} names announced, the file ends before them", *n));
      return std::nullopt;
    }
    return n;
  };
  for (std::size_t i = 4; i < lines_.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    const std::string_view line = lines_[i];
    const std::string_view trimmed = Trim(line);
    const std::size_t bar = line.find('|');
    if (bar == std::string_view::npos) {
      if (trimmed.rfind("Stability-axis derivatives", 0) == 0) derivatives_line_ = number;
      if (trimmed != "CONTROL" && trimmed != "DESIGN") continue;
      if (i + 1 >= lines_.size()) {
        Error(number, fmt::format("{} without its count", trimmed));
        return;
      }
      const std::optional<int> n = count_at(i + 1);
      if (!n) return;
      for (int k = 0; k < *n; ++k) {
        const std::vector<std::string_view> words = Words(lines_[i + 2 + k]);
        const std::optional<double> v = words.size() >= 2 ? ParseNumber(words[0]) : std::nullopt;
        if (!v) {
          Error(number + 2 + k, "expected 'value name' of a control or design variable");
          continue;
        }
        if (trimmed == "CONTROL") settings_.emplace_back(std::string(words[1]), *v);
      }
      i += 1 + *n;
      continue;
    }
    const std::string label = Normalized(line.substr(bar + 1));
    if (label == "# control vars" || label == "# design vars") {
      const std::optional<int> n = count_at(i);
      if (!n) return;
      if (label == "# control vars") {
        machine_controls_.clear();
        for (int k = 0; k < *n; ++k) machine_controls_.push_back(std::string(Trim(lines_[i + 1 + k])));
      }
      i += *n;
      continue;
    }
    if (label.rfind("#", 0) == 0) continue;  // # surfaces, strips, vortices
    std::vector<double> values;
    bool numbers = true;
    for (std::string_view token : Words(line.substr(0, bar))) {
      const std::optional<double> v = ParseNumber(token);
      if (!v) {
        Error(number, AllStars(token)
                          ? fmt::format("'{}' is AVL's overflow of its number field (the value is "
                                        "too large; check the run case)",
                                        token)
                          : fmt::format("'{}' is not a number (expected 'values | labels')", token));
        numbers = false;
        break;
      }
      values.push_back(*v);
    }
    if (!numbers) continue;
    if (label.rfind("Clb Cnr / Clr Cnb", 0) == 0) {
      if (values.size() != 1)
        Error(number, "expected one value for 'Clb Cnr / Clr Cnb'");
      else
        Put("spiral_ratio", values[0], number);
      continue;
    }
    // "z' force CL : CLa, CLb" → CLa, CLb; "Neutral point Xnp" → Xnp.
    const std::size_t colon = label.find(':');
    const std::string list = colon == std::string::npos ? label : label.substr(colon + 1);
    std::vector<std::string> names;
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      const std::vector<std::string_view> words = Words(std::string_view(list).substr(start, comma - start));
      if (!words.empty()) names.emplace_back(words.back());
      start = comma + 1;
    }
    if (names.size() == 1 && names[0].size() > 2 && names[0].substr(names[0].size() - 2) == "d*") {
      // One value per control variable: "CLd*".
      const std::string base = names[0].substr(0, names[0].size() - 2);
      if (values.size() != machine_controls_.size()) {
        Error(number, fmt::format("{} values for {} control variables in '{}'", values.size(),
                                  machine_controls_.size(), names[0]));
        continue;
      }
      for (std::size_t k = 0; k < values.size(); ++k) {
        control_names_[static_cast<int>(k) + 1] = machine_controls_[k];
        Put(fmt::format("{}d{}", base, k + 1), values[k], number);
      }
      continue;
    }
    if (names.size() == 1 && names[0].size() > 2 && names[0].substr(names[0].size() - 2) == "g*")
      continue;  // design-variable derivatives
    if (names.size() != values.size()) {
      Error(number, fmt::format("{} values for {} labels ({})", values.size(), names.size(), list));
      continue;
    }
    for (std::size_t k = 0; k < names.size(); ++k) Put(names[k], values[k], number);
  }
}

AvlStability Parser::Build() {
  AvlStability st;
  st.format = format_;
  st.path = path_;
  st.configuration = configuration_;
  st.lines = order_;
  if (values_.empty()) {
    Error(1, "no AVL stability derivatives found (expected the output of AVL's ST command: "
             "\"CLa = ...\" lines, or the machine format starting DERMATS)");
    return st;
  }
  const int missing_at = derivatives_line_ > 0 ? derivatives_line_ : 1;
  auto get = [&](const char* key, double& field) {
    if (const auto it = values_.find(key); it != values_.end())
      field = it->second.value;
    else
      Error(missing_at, fmt::format("missing '{}' (AVL's ST output prints it; is the file complete?)", key));
  };
  auto optional = [&](const char* key, std::optional<double>& field) {
    if (const auto it = values_.find(key); it != values_.end()) field = it->second.value;
  };
  get("Sref", st.Sref);
  get("Cref", st.Cref);
  get("Bref", st.Bref);
  get("Alpha", st.alpha_deg);
  get("Beta", st.beta_deg);
  get("Mach", st.mach);
  get("CLtot", st.CLtot);
  get("CDtot", st.CDtot);
  get("CDind", st.CDind);
  optional("CDvis", st.CDvis);
  get("CLa", st.CLa);
  get("CLb", st.CLb);
  get("CYa", st.CYa);
  get("CYb", st.CYb);
  get("Cla", st.Cla);
  get("Clb", st.Clb);
  get("Cma", st.Cma);
  get("Cmb", st.Cmb);
  get("Cna", st.Cna);
  get("Cnb", st.Cnb);
  optional("CDa", st.CDa);
  optional("CDb", st.CDb);
  get("CLp", st.CLp);
  get("CLq", st.CLq);
  get("CLr", st.CLr);
  get("CYp", st.CYp);
  get("CYq", st.CYq);
  get("CYr", st.CYr);
  get("Clp", st.Clp);
  get("Clq", st.Clq);
  get("Clr", st.Clr);
  get("Cmp", st.Cmp);
  get("Cmq", st.Cmq);
  get("Cmr", st.Cmr);
  get("Cnp", st.Cnp);
  get("Cnq", st.Cnq);
  get("Cnr", st.Cnr);
  optional("CDp", st.CDp);
  optional("CDq", st.CDq);
  optional("CDr", st.CDr);
  optional("Xnp", st.Xnp);
  optional("spiral_ratio", st.spiral_ratio);
  for (double s : {st.Sref, st.Cref, st.Bref})
    if (s <= 0.0 && values_.count("Sref") && values_.count("Cref") && values_.count("Bref")) {
      Error(values_["Sref"].line, "Sref, Cref and Bref must be > 0");
      break;
    }

  // Controls: every index any derivative names, each with all five moments.
  std::map<int, std::map<std::string, Value>> rows;
  for (const auto& [key, value] : values_)
    if (const auto ck = ControlKey(key)) rows[ck->second][ck->first] = value;
  for (const auto& entry : rows) {
    const int index = entry.first;  // not a structured binding: lambdas below capture it
    const std::map<std::string, Value>& row = entry.second;
    AvlControl c;
    c.index = index;
    int line = row.begin()->second.line;  // the row's first line in the file
    for (const auto& [base, value] : row) line = std::min(line, value.line);
    if (const auto it = control_names_.find(index); it != control_names_.end())
      c.name = it->second;
    else if (index <= static_cast<int>(settings_.size()))
      c.name = settings_[index - 1].first;
    else {
      Error(line, fmt::format("control derivative d{} without a control name (the table's "
                              "header \"name d{}\" is missing)",
                              index, index));
      continue;
    }
    for (const auto& [name, deflection] : settings_)
      if (name == c.name) c.deflection_deg = deflection;
    auto field = [&](const char* base, double& out) {
      if (const auto it = row.find(base); it != row.end())
        out = it->second.value;
      else
        Error(line, fmt::format("missing '{}d{}' of control '{}'", base, index, c.name));
    };
    field("CL", c.CL);
    field("CY", c.CY);
    field("Cl", c.Cl);
    field("Cm", c.Cm);
    field("Cn", c.Cn);
    if (const auto it = row.find("CD"); it != row.end()) c.CD = it->second.value;
    if (const auto it = row.find("CDff"); it != row.end()) c.CDff = it->second.value;
    c.line = row.count("CL") ? row.at("CL").line : line;
    st.controls.push_back(std::move(c));
  }
  return st;
}

AvlStability Parser::Parse(const std::string& text) {
  lines_ = avl_text::Lines(text);
  std::size_t first = 0;
  while (first < lines_.size() && Trim(lines_[first]).empty()) ++first;
  const std::string_view head = first < lines_.size() ? Trim(lines_[first]) : std::string_view{};
  const bool body_axes_classic =
      text.find("Stability-axis derivatives") == std::string::npos &&
      (text.find("Geometry-axis derivatives") != std::string::npos ||
       text.find("Body-axis derivatives") != std::string::npos);
  if (head == "DERMATB" || body_axes_classic) {
    Error(static_cast<int>(first) + 1,
          "this is AVL's body-axis derivative file (SB); aerolin reads the stability-axis "
          "derivatives (write them with AVL's ST command)");
  } else if (head == "DERMATS") {
    if (first != 0) Error(static_cast<int>(first) + 1, "DERMATS must be the first line");
    format_ = AvlFormat::kMachine;
    ParseMachine();
  } else {
    ParseClassic();
  }
  AvlStability st;
  if (errors_.empty()) st = Build();
  if (!errors_.empty()) {
    std::stable_sort(errors_.begin(), errors_.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.where.line < b.where.line; });
    throw core::DataError(std::move(errors_));
  }
  return st;
}

}  // namespace

int AvlStability::LineOf(const std::string& key) const {
  for (const auto& [k, line] : lines)
    if (k == key) return line;
  return 0;
}

AvlStability ParseAvlStability(const std::string& text, const std::string& path) {
  return Parser(path).Parse(text);
}

AvlStability ReadAvlStabilityFile(const std::string& path) {
  return ParseAvlStability(core::ReadInputFile(path), path);
}

}  // namespace aerolin::data
