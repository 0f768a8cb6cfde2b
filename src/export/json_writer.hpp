#pragma once
// A streaming JSON writer (internal to export): writes a document value by
// value, as it is produced, in exactly the text nlohmann::json::dump(2) gives
// for the same document after RemoveNegativeZeros, so a report of 10^5
// points needs no DOM of the whole report. The caller writes an object's keys
// in sorted order (nlohmann's objects are std::maps).
//
// Numbers: nlohmann's own shortest round-trip form (detail::to_chars: "1.0"
// for an integer-valued double, "1e-07", "1e+21", exponent form from 1e15 on);
// fmt's `{}` is shortest round-trip too but prints "1" and "1000000000000000",
// so it is not used here. −0 is written as 0.0, NaN and ±inf as null, as
// RemoveNegativeZeros and dump do.

#include <array>
#include <cmath>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace aerolin::exporting {

class JsonWriter {
 public:
  /// Writes to `out`, buffered: call Flush() when the document is complete.
  explicit JsonWriter(std::ostream& out) : out_(out) { buffer_.reserve(kFlushAt + 4096); }
  /// Continues a document inside `depth` open containers whose innermost is
  /// an array still empty (the elements of an array another writer opened,
  /// to be spliced into it with Splice).
  JsonWriter(std::ostream& out, std::size_t depth) : JsonWriter(out) { depth_.assign(depth, true); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  /// The next member's key (inside an object).
  JsonWriter& Key(std::string_view key) {
    BeforeValue();
    Quoted(key);
    buffer_ += ": ";
    after_key_ = true;
    return *this;
  }

  void Number(double v) {
    BeforeValue();
    if (!std::isfinite(v)) {
      buffer_ += "null";
    } else if (v == 0.0) {
      buffer_ += "0.0";
    } else {
      std::array<char, 64> digits;
      const char* end = nlohmann::detail::to_chars(digits.data(), digits.data() + digits.size(), v);
      buffer_.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
    }
    MaybeFlush();
  }
  void Integer(std::int64_t v) {
    BeforeValue();
    buffer_ += std::to_string(v);
  }
  void Bool(bool v) {
    BeforeValue();
    buffer_ += v ? "true" : "false";
  }
  void Null() {
    BeforeValue();
    buffer_ += "null";
  }
  void String(std::string_view s) {
    BeforeValue();
    Quoted(s);
    MaybeFlush();
  }
  /// A small value built as a DOM (an optimum, the structure changes), as
  /// dump(2) writes it at this depth.
  void Dom(nlohmann::json j) {
    BeforeValue();
    RemoveZeros(j);
    const std::string text = j.dump(2);
    const std::string indent(2 * depth_.size(), ' ');
    for (char c : text) {
      buffer_ += c;
      // A string's newline is escaped by dump: a raw one ends a line.
      if (c == '\n') buffer_ += indent;
    }
    MaybeFlush();
  }

  /// Copies the elements `in` holds (written by a writer made with this
  /// writer's depth) into the open array; `any`: there is at least one.
  void Splice(std::istream& in, bool any) {
    Flush();
    if (any) {
      out_ << in.rdbuf();
      depth_.back() = false;
    }
  }

  /// Writes what is buffered to the stream.
  void Flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kFlushAt = 1 << 16;

  static void RemoveZeros(nlohmann::json& j) {
    if (j.is_number_float()) {
      if (j.get<double>() == 0.0) j = 0.0;
    } else if (j.is_structured()) {
      for (nlohmann::json& v : j) RemoveZeros(v);
    }
  }

  void MaybeFlush() {
    if (buffer_.size() >= kFlushAt) Flush();
  }

  void Indent() {
    buffer_ += '\n';
    buffer_.append(2 * depth_.size(), ' ');
  }

  // Before a value: after a key, nothing; in an array, the separator and the
  // element's line.
  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (depth_.empty()) return;
    if (!depth_.back()) buffer_ += ',';
    depth_.back() = false;
    Indent();
  }

  void Open(char bracket) {
    BeforeValue();
    buffer_ += bracket;
    depth_.push_back(true);
  }

  void Close(char bracket) {
    const bool empty = depth_.back();
    depth_.pop_back();
    if (!empty) Indent();
    buffer_ += bracket;
    MaybeFlush();
  }

  // A string as dump escapes it: printable ASCII other than " and \ as is,
  // anything else through nlohmann (escapes, UTF-8 checks and their errors).
  void Quoted(std::string_view s) {
    for (char c : s)
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        buffer_ += nlohmann::json(std::string(s)).dump();
        return;
      }
    buffer_ += '"';
    buffer_ += s;
    buffer_ += '"';
  }

  std::ostream& out_;
  std::string buffer_;
  std::vector<bool> depth_;  // per open container: still empty
  bool after_key_ = false;
};

}  // namespace aerolin::exporting
