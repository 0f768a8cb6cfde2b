// Fuzz harness: any bytes as an AVL mass file (`.mass`), through the parser
// and its body-axis totals, and through the whole loader as the `avl_mass` of
// the bundled AVL 737 (data/avl/b737.toml, its .st from data/avl/: run from
// the source tree, as CTest and scripts/fuzz.sh do). The parser and the
// loader must either return or throw core::DataError; anything else (another
// exception, a crash, a sanitizer report, a hang) is a finding.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/core/files.hpp"
#include "aerolin/data/avl_mass.hpp"
#include "aerolin/data/load_aircraft.hpp"

namespace {

// The bundled 737 with `mass` in place of its avl_mass and its .st named
// from the source tree.
std::string AircraftNaming(const std::string& mass) {
  static const std::string toml = aerolin::core::ReadInputFile("data/avl/b737.toml");
  std::string text = toml;
  auto edit = [&text](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos) std::abort();  // the bundled file changed: update this harness
    text.replace(at, from.size(), to);
  };
  edit("avl_st = \"b737_classic.st\"", "avl_st = \"data/avl/b737_classic.st\"");
  edit("avl_mass = \"b737.mass\"", "avl_mass = \"" + mass + "\"");
  return text;
}

// A file of this process for the input (the loader reads the .mass by path).
const std::string& MassPath() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/aerolin_avl_mass_fuzz_" +
           std::to_string(::getpid()) + ".mass";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const aerolin::data::AvlMass mass = aerolin::data::ParseAvlMass(text, "fuzz.mass");
    (void)aerolin::data::ToBodyAxes(mass);
  } catch (const aerolin::core::DataError&) {
  }
  static const std::string aircraft = AircraftNaming(MassPath());
  std::ofstream(MassPath(), std::ios::binary | std::ios::trunc) << text;
  try {
    const aerolin::data::LoadResult result = aerolin::data::LoadAircraftString(aircraft, "fuzz.toml");
    (void)result;
  } catch (const aerolin::core::DataError&) {
  }
  std::remove(MassPath().c_str());
  return 0;
}
