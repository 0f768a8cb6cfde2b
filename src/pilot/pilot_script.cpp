#include "aerolin/pilot/pilot_script.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/core/messages.hpp"

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

long SliceIndexOf(double t, double dt) {
  const double x = t / dt;
  // 2^62: far beyond any flight, and lround stays defined below it.
  constexpr double kSaturation = 4.611686018427387904e18;
  if (!(x < kSaturation)) return std::numeric_limits<long>::max();
  return std::lround(x);
}

ScriptPlayer::ScriptPlayer(const PilotScript& script, double dt) : script_(&script) {
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw std::invalid_argument("ScriptPlayer: slice length must be finite and > 0");
  for (std::size_t i = 0; i < script.keys.size(); ++i) {
    const KeyEvent& e = script.keys[i];
    const Span span{SliceIndexOf(e.t_start, dt), SliceIndexOf(e.t_end, dt), static_cast<int>(i), true};
    if (span.k0 < span.k1) by_start_.push_back(span);
  }
  for (std::size_t i = 0; i < script.sets.size(); ++i) {
    const SetEvent& e = script.sets[i];
    const Span span{SliceIndexOf(e.t_start, dt), SliceIndexOf(e.t_end, dt), static_cast<int>(i), false};
    if (span.k0 < span.k1) by_start_.push_back(span);
  }
  by_end_ = by_start_;
  std::stable_sort(by_start_.begin(), by_start_.end(),
                   [](const Span& a, const Span& b) { return a.k0 < b.k0; });
  std::stable_sort(by_end_.begin(), by_end_.end(),
                   [](const Span& a, const Span& b) { return a.k1 < b.k1; });
  int controls = 0;
  for (const SetEvent& e : script.sets) controls = std::max(controls, e.control + 1);
  key_count_.assign(kNumKeys, 0);
  set_active_.assign(static_cast<std::size_t>(controls), -1);
}

void ScriptPlayer::Rewind() {
  next_start_ = next_end_ = 0;
  last_k_ = -1;
  std::fill(key_count_.begin(), key_count_.end(), 0);
  std::fill(set_active_.begin(), set_active_.end(), -1);
}

void ScriptPlayer::InputForSlice(long k, KeySet& held, std::vector<ControlOverride>& overrides) {
  if (k < last_k_) Rewind();
  last_k_ = k;
  // Start every event begun by slice k, then end every event over by k; an
  // event both begun and over is added and removed (k0 < k1 for all).
  for (; next_start_ < by_start_.size() && by_start_[next_start_].k0 <= k; ++next_start_) {
    const Span& s = by_start_[next_start_];
    if (s.is_key)
      ++key_count_[static_cast<std::size_t>(script_->keys[s.event].key)];
    else
      set_active_[static_cast<std::size_t>(script_->sets[s.event].control)] = s.event;
  }
  for (; next_end_ < by_end_.size() && by_end_[next_end_].k1 <= k; ++next_end_) {
    const Span& s = by_end_[next_end_];
    if (s.is_key) {
      --key_count_[static_cast<std::size_t>(script_->keys[s.event].key)];
    } else {
      int& active = set_active_[static_cast<std::size_t>(script_->sets[s.event].control)];
      // Sets of one control do not overlap, but one may begin in the slice
      // the previous ends: keep the newer.
      if (active == s.event) active = -1;
    }
  }
  held = KeySet();
  for (int i = 0; i < kNumKeys; ++i)
    if (key_count_[static_cast<std::size_t>(i)] > 0) held.Set(static_cast<Key>(i));
  overrides.clear();
  for (const int e : set_active_)
    if (e >= 0) overrides.push_back({script_->sets[e].control, script_->sets[e].value});
}

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
  text = core::StripByteOrderMark(text);
  core::CheckInputText(text, path);
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
      message += core::Printable(!t0 ? f[0] : f[1]);  // escaped, clipped
      message += "' is not a time in seconds";
      defect(line_no, message);
      continue;
    }
    if (*t0 < 0.0) {
      defect(line_no, "t_start " + core::Printable(f[0]) + " is negative");
      continue;
    }
    if (*t1 > kMaxScriptTime) {
      defect(line_no, "time " + core::Printable(f[1]) + " s is beyond the longest flight (" +
                          FormatNumber(kMaxScriptTime) + " s)");
      continue;
    }
    if (*t1 < *t0) {
      defect(line_no, "t_end " + core::Printable(f[1]) + " is before t_start " +
                          core::Printable(f[0]));
      continue;
    }

    if (!is_set) {
      const std::optional<Key> key = ParseKey(f[2]);
      if (!key) {
        defect(line_no, "unknown key '" + core::Printable(f[2]) +
                            "' (keys: 8 5 + - 4 6 9 7, or 'set')");
        continue;
      }
      const std::string_view bound = KeyControlName(*key);
      if (std::find(control_names.begin(), control_names.end(), bound) ==
          control_names.end()) {
        defect(line_no, "key '" + core::Printable(f[2]) + "' drives '" +
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
      defect(line_no, "unknown control '" + core::Printable(f[3]) +
                          "' (controls: " + Join(control_names) + ")");
      continue;
    }
    const int c = static_cast<int>(it - control_names.begin());
    const std::optional<double> value = ParseNumber(f[4]);
    if (!value) {
      defect(line_no, "'" + core::Printable(f[4]) + "' is not a number (value of " +
                          control_names[c] + " in " + std::string(core::ToString(controls[c].unit)) + ")");
      continue;
    }
    const ControlLimits lim = LimitsOf(controls[c], settings);
    if (*value < lim.min || *value > lim.max) {
      defect(line_no, "value " + core::Printable(f[4]) + " is outside " +
                          control_names[c] + "'s limits [" +
                          FormatNumber(lim.min) + ", " + FormatNumber(lim.max) +
                          "] " + std::string(core::ToString(controls[c].unit)));
      continue;
    }
    script.sets.push_back({*t0, *t1, c, *value, line_no});
  }
  // Overlapping `set` lines of one control, O(n log n): sorted by control and
  // start, each line is compared with the one reaching furthest so far.
  std::vector<std::size_t> order(script.sets.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const SetEvent& x = script.sets[a];
    const SetEvent& y = script.sets[b];
    if (x.control != y.control) return x.control < y.control;
    if (x.t_start != y.t_start) return x.t_start < y.t_start;
    return x.line < y.line;
  });
  const SetEvent* reach = nullptr;
  for (const std::size_t i : order) {
    const SetEvent& e = script.sets[i];
    if (reach != nullptr && reach->control == e.control && e.t_start < reach->t_end &&
        reach->t_start < e.t_end) {
      // Reported on the later line of the two, naming the earlier.
      const SetEvent& later = e.line > reach->line ? e : *reach;
      const SetEvent& earlier = e.line > reach->line ? *reach : e;
      defect(later.line, "'set " + control_names[later.control] + "' from " +
                             FormatNumber(later.t_start) + " to " + FormatNumber(later.t_end) +
                             " s overlaps line " + std::to_string(earlier.line));
    }
    if (reach == nullptr || reach->control != e.control || e.t_end > reach->t_end) reach = &e;
  }
  if (!defects.empty()) {
    std::stable_sort(defects.begin(), defects.end(),
                     [](const core::Diagnostic& a, const core::Diagnostic& b) {
                       return a.where.line < b.where.line;
                     });
    throw core::DataError(std::move(defects));
  }
  return script;
}

PilotScript LoadPilotScript(const std::string& path,
                            const std::vector<model::Control>& controls,
                            const PilotSettings& settings) {
  return ParsePilotScript(core::ReadInputFile(path), path, controls, settings);
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
