// The parameter table (model/parameters.hpp) against the bundled data files:
// every numeric key a dimensional file holds is a row of the table.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <toml++/toml.h>

#include "aerolin/model/parameters.hpp"

namespace aerolin::data {
namespace {

TEST(ParameterTable, HoldsEveryNumericKeyOfEveryBundledFile) {
  const std::filesystem::path dir = std::filesystem::path(AEROLIN_SOURCE_DIR) / "data/derivatives";
  int files = 0, keys = 0, coefficient_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    ++files;
    const toml::table root = toml::parse_file(entry.path().string());
    // A coefficient file's keys are not parameters (its derivatives come out
    // of the coefficient conversion; data/derivatives/README.md).
    if (root["longitudinal"]["form"].value_or(std::string()) == "coefficients" ||
        root["lateral"]["form"].value_or(std::string()) == "coefficients") {
      ++coefficient_files;
      continue;
    }
    // [tables] (and [geometry] S, c, which scale them) feed the nonlinear
    // model's coefficient tables, not the linear model's parameters.
    const bool tabled = root.contains("tables");
    for (const auto& [section, node] : root) {
      const toml::table* table = node.as_table();
      if (table == nullptr || section.str() == "tables") continue;
      auto check = [&](const toml::table& t, std::string_view sec, const std::string& where) {
        for (const auto& [key, value] : t)
          if (value.is_number() && !(tabled && sec == "geometry" && (key.str() == "S" || key.str() == "c"))) {
            ++keys;
            EXPECT_NE(model::FindParameter(sec, key.str()), nullptr)
                << entry.path().filename() << ": " << where << "." << key.str();
          }
      };
      if (section.str() == "controls") {
        for (const auto& [name, control] : *table)
          if (const toml::table* t = control.as_table())
            check(*t, "controls", "controls." + std::string(name.str()));
      } else {
        check(*table, section.str(), std::string(section.str()));
      }
    }
  }
  EXPECT_EQ(files - coefficient_files, 6);  // dimensional files (the F-16 with tables among them)
  EXPECT_GT(keys, 150);
}

}  // namespace
}  // namespace aerolin::data
