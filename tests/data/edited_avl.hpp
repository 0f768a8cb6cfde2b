#pragma once
// Test helpers: an aircraft file with one key edited (WithValue), and an AVL
// aircraft file with one number of its .st file edited (WithAvlValue), for
// the tests that check a key against the file edited, loaded, converted,
// built and solved (sensitivities, sweeps). Both ST formats.

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include "aerolin/core/files.hpp"
#include "aerolin/data/avl_st.hpp"

namespace aerolin::testing {

/// Returns `text`, an AVL aircraft TOML read from `toml_path`, with the .st
/// number of key `key` set to `value` (17 digits): the .st is copied with
/// that number edited into a new file under ::testing::TempDir() and
/// `avl_st` names the copy. `key` is "avl.NAME" (AVL's name: "avl.CLa",
/// "avl.CLtot", "avl.Sref", "avl.Alpha") or "avl.CONTROL.{CL,CY,Cl,Cm,Cn,CD}"
/// (the .st's CLd4 ... of the control named, CD its CDd or else CDffd).
inline std::string WithAvlValue(const std::string& text, const std::string& toml_path, const std::string& key,
                                double value) {
  std::smatch m;
  const std::regex avl_st("avl_st\\s*=\\s*\"([^\"]+)\"");
  EXPECT_TRUE(std::regex_search(text, m, avl_st)) << toml_path;
  std::filesystem::path st_path = m[1].str();
  if (st_path.is_relative()) st_path = std::filesystem::path(toml_path).parent_path() / st_path;
  const std::string st_text = core::ReadInputFile(st_path.string());
  const bool machine = st_text.rfind("DERMATS", 0) == 0;
  // The .st's own name of the number: a control's by its number in the
  // classic text (Cmd4), by its column of the "Cmd*" row in the machine format.
  std::string token = key.substr(4);
  std::size_t column = 0;
  if (const std::size_t dot = token.find('.'); dot != std::string::npos) {
    const std::string control = token.substr(0, dot), derivative = token.substr(dot + 1);
    const data::AvlStability st = data::ParseAvlStability(st_text, st_path.string());
    const data::AvlControl* c = nullptr;
    for (std::size_t i = 0; i < st.controls.size(); ++i)
      if (st.controls[i].name == control) c = &st.controls[i], column = i;
    EXPECT_NE(c, nullptr) << key;
    if (c == nullptr) return text;
    token = (derivative == "CD" ? (c->CD ? "CDd" : "CDffd") : derivative + "d") +
            (machine ? std::string("*") : std::to_string(c->index));
  }
  std::string edited;
  if (!machine) {
    const std::regex number("(^|[^A-Za-z'])(" + token + "\\s*=\\s*)[-+0-9.eE]+");
    EXPECT_TRUE(std::regex_search(st_text, m, number)) << key << " (" << token << ")";
    edited = m.prefix().str() + m[1].str() + m[2].str() + fmt::format("{:.17g}", value) + m.suffix().str();
  } else {
    // "values | labels" or "values | what : labels": the value in the label's column.
    std::istringstream in(st_text);
    bool found = false;
    for (std::string line; std::getline(in, line);) {
      const std::size_t bar = line.find('|');
      if (!found && bar != std::string::npos) {
        std::string labels = line.substr(bar + 1);
        if (const std::size_t colon = labels.find(':'); colon != std::string::npos) labels = labels.substr(colon + 1);
        std::istringstream names(std::regex_replace(labels, std::regex(","), " "));
        std::size_t i = 0;
        for (std::string name; names >> name; ++i) {
          if (name != token) continue;
          std::istringstream values(line.substr(0, bar));
          std::vector<std::string> v{std::istream_iterator<std::string>(values), {}};
          const std::size_t at = token.back() == '*' ? column : i;
          EXPECT_LT(at, v.size()) << key;
          if (at >= v.size()) break;
          v[at] = fmt::format("{:.17g}", value);
          line = fmt::format(" {} {}", fmt::join(v, " "), line.substr(bar));
          found = true;
          break;
        }
      }
      edited += line + "\n";
    }
    EXPECT_TRUE(found) << key << " (" << token << ")";
  }
  // A ring of names: a caller may hold a few edited texts before loading them
  // (the two sides of a central difference), not thousands of files; the
  // process id keeps tests that run in parallel apart.
  static std::atomic<int> count{0};
  struct RemovedAtExit {
    ~RemovedAtExit() {
      std::error_code ignored;
      for (int i = 0; i < 16; ++i) std::filesystem::remove(Name(i), ignored);
    }
    static std::string Name(int i) {
      return (std::filesystem::path(::testing::TempDir()) / fmt::format("aerolin_edited_{}_{}.st", ::getpid(), i))
          .string();
    }
  };
  static const RemovedAtExit removed_at_exit;
  const std::string copy = RemovedAtExit::Name(count++ % 16);
  { std::ofstream(copy) << edited; }
  return std::regex_replace(text, avl_st, "avl_st = \"" + copy + "\"");
}

/// Returns `text` (read from `file`) with key `path` (section.key) set to
/// `value` (17 digits); an AVL file's "avl.NAME" in a copy of its .st.
inline std::string WithValue(const std::string& text, const std::string& path, double value,
                             const std::string& file = "edited.toml") {
  if (path.rfind("avl.", 0) == 0) return WithAvlValue(text, file, path, value);
  const std::string section = path.substr(0, path.rfind('.'));
  const std::string key = path.substr(path.rfind('.') + 1);
  const std::size_t at = text.find("[" + section + "]");
  EXPECT_NE(at, std::string::npos) << path;
  const std::regex line("\\n" + key + "\\s*=\\s*[-+0-9.eE]+");
  std::smatch m;
  const std::string tail = text.substr(at);
  EXPECT_TRUE(std::regex_search(tail, m, line)) << path;
  return text.substr(0, at) + m.prefix().str() + "\n" + key + " = " + fmt::format("{:.17g}", value) +
         m.suffix().str();
}

}  // namespace aerolin::testing
