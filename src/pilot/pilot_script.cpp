#include "aerolin/pilot/pilot_script.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "aerolin/core/error.hpp"

namespace aerolin::pilot {
namespace {

std::vector<std::string_view> SplitFields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' ||
                               line[i] == '\r'))
      ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' &&
           line[j] != '\r')
      ++j;
    if (j > i) fields.push_back(line.substr(i, j - i));
    i = j;
  }
  return fields;
}

std::optional<double> ParseNumber(std::string_view text) {
  double value = 0.0;
  const char* end = text.data() + text.size();
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string FormatNumber(double v) {
  char buf[32];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ptr);
}

}  // namespace

long SliceIndexOf(double t, double dt) { return std::lround(t / dt); }

void PilotScript::InputForSlice(long k, double dt, KeySet& held,
                                std::vector<ControlOverride>& overrides) const {
  held = KeySet();
  overrides.clear();
  for (const KeyEvent& e : keys)
    if (SliceIndexOf(e.t_start, dt) <= k && k < SliceIndexOf(e.t_end, dt))
      held.Set(e.key);
  for (const SetEvent& e : sets)
    if (SliceIndexOf(e.t_start, dt) <= k && k < SliceIndexOf(e.t_end, dt))
      overrides.push_back({e.control, e.value});
}

double PilotScript::end_time() const {
  double t = 0.0;
  for (const KeyEvent& e : keys) t = std::max(t, e.t_end);
  for (const SetEvent& e : sets) t = std::max(t, e.t_end);
  return t;
}

PilotScript ParsePilotScript(std::string_view text, const std::string& path,
                             const std::vector<model::Control>& controls,
                             const PilotSettings& settings) {
  PilotScript script;
  script.path = path;
  std::vector<core::Diagnostic> defects;
  std::vector<std::string> control_names;
  for (const model::Control& c : controls) control_names.push_back(c.name);
  auto defect = [&](int line, const std::string& message) {
    defects.push_back({{path, line}, message});
  };

  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(
        pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const std::vector<std::string_view> f = SplitFields(line);
    if (f.empty()) continue;

    const bool is_set = f.size() >= 3 && f[2] == "set";
    if (!(f.size() == 3 && !is_set) && !(is_set && f.size() == 5)) {
      defect(line_no, "expected 't_start t_end KEY' or 't_start t_end set "
                      "CONTROL VALUE', got " + std::to_string(f.size()) +
                      " fields");
      continue;
    }
    const std::optional<double> t0 = ParseNumber(f[0]);
    const std::optional<double> t1 = ParseNumber(f[1]);
    if (!t0 || !t1) {
      std::string message = "'";
      message += !t0 ? f[0] : f[1];
      message += "' is not a time in seconds";
      defect(line_no, message);
      continue;
    }
    if (*t0 < 0.0) {
      defect(line_no, "t_start " + std::string(f[0]) + " is negative");
      continue;
    }
    if (*t1 < *t0) {
      defect(line_no, "t_end " + std::string(f[1]) + " is before t_start " +
                          std::string(f[0]));
      continue;
    }

    if (!is_set) {
      const std::optional<Key> key = ParseKey(f[2]);
      if (!key) {
        defect(line_no, "unknown key '" + std::string(f[2]) +
                            "' (keys: 8 5 + - 4 6 9 7, or 'set')");
        continue;
      }
      const std::string_view bound = KeyControlName(*key);
      if (std::find(control_names.begin(), control_names.end(), bound) ==
          control_names.end()) {
        defect(line_no, "key '" + std::string(f[2]) + "' drives '" +
                            std::string(bound) +
                            "', which this aircraft does not have (controls: " +
                            Join(control_names) + ")");
        continue;
      }
      script.keys.push_back({*t0, *t1, *key, line_no});
      continue;
    }

    const auto it =
        std::find(control_names.begin(), control_names.end(), f[3]);
    if (it == control_names.end()) {
      defect(line_no, "unknown control '" + std::string(f[3]) +
                          "' (controls: " + Join(control_names) + ")");
      continue;
    }
    const int c = static_cast<int>(it - control_names.begin());
    const std::optional<double> value = ParseNumber(f[4]);
    if (!value) {
      defect(line_no, "'" + std::string(f[4]) + "' is not a number (value of " +
                          control_names[c] + " in " + std::string(core::ToString(controls[c].unit)) + ")");
      continue;
    }
    const ControlLimits lim = LimitsOf(controls[c], settings);
    if (*value < lim.min || *value > lim.max) {
      defect(line_no, "value " + std::string(f[4]) + " is outside " +
                          control_names[c] + "'s limits [" +
                          FormatNumber(lim.min) + ", " + FormatNumber(lim.max) +
                          "] " + std::string(core::ToString(controls[c].unit)));
      continue;
    }
    bool overlaps = false;
    for (const SetEvent& other : script.sets) {
      if (other.control == c && *t0 < other.t_end && other.t_start < *t1) {
        defect(line_no, "'set " + control_names[c] + "' from " +
                            std::string(f[0]) + " to " + std::string(f[1]) +
                            " s overlaps line " + std::to_string(other.line));
        overlaps = true;
        break;
      }
    }
    if (!overlaps) script.sets.push_back({*t0, *t1, c, *value, line_no});
  }
  if (!defects.empty()) throw core::DataError(std::move(defects));
  return script;
}

PilotScript LoadPilotScript(const std::string& path,
                            const std::vector<model::Control>& controls,
                            const PilotSettings& settings) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw core::DataError({path, 0}, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return ParsePilotScript(text.str(), path, controls, settings);
}

void KeyRecorder::Record(KeySet keys) {
  for (int i = 0; i < kNumKeys; ++i) {
    const Key key = static_cast<Key>(i);
    if (keys.Has(key) && open_since_[i] < 0) open_since_[i] = slices_;
    if (!keys.Has(key) && open_since_[i] >= 0) {
      holds_.push_back({open_since_[i], slices_, key});
      open_since_[i] = -1;
    }
  }
  ++slices_;
}

std::string KeyRecorder::ToScript() const {
  std::vector<Hold> all = holds_;
  for (int i = 0; i < kNumKeys; ++i)
    if (open_since_[i] >= 0)
      all.push_back({open_since_[i], slices_, static_cast<Key>(i)});
  std::stable_sort(all.begin(), all.end(), [](const Hold& a, const Hold& b) {
    return a.k_start != b.k_start ? a.k_start < b.k_start : a.k_end < b.k_end;
  });
  // k·Δt rounded to 1 ns, written shortest: "2.3", not "2.3000000000000003".
  auto time_text = [&](long k) {
    return FormatNumber(std::round(static_cast<double>(k) * dt_ * 1e9) / 1e9);
  };
  std::string out = "# recorded by aerolin, slice length " + FormatNumber(dt_) +
                    " s\n";
  for (const Hold& h : all)
    out += time_text(h.k_start) + " " + time_text(h.k_end) + " " +
           std::string(KeyText(h.key)) + "\n";
  return out;
}

}  // namespace aerolin::pilot
