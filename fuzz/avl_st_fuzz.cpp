// Fuzz harness: any bytes as an AVL stability-derivative (ST) file, classic
// or machine format, and as an AVL mass file. Each parser must either return
// its result or throw core::DataError; anything else (another exception, a crash, a sanitizer
// report, a hang) is a finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/data/avl_mass.hpp"
#include "aerolin/data/avl_st.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const aerolin::data::AvlStability st = aerolin::data::ParseAvlStability(text, "fuzz.st");
    (void)st;
  } catch (const aerolin::core::DataError&) {
  }
  try {
    const aerolin::data::AvlMass mass = aerolin::data::ParseAvlMass(text, "fuzz.mass");
    (void)mass;
  } catch (const aerolin::core::DataError&) {
  }
  return 0;
}
