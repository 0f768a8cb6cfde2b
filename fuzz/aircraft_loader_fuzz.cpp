// Fuzz harness: any bytes as an aircraft data file. The loader must either
// return an aircraft or throw core::DataError; anything else (another
// exception, a crash, a sanitizer report, a hang) is a finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/data/load_aircraft.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const aerolin::data::LoadResult result = aerolin::data::LoadAircraftString(text, "fuzz.toml");
    (void)result;
  } catch (const aerolin::core::DataError&) {
  }
  return 0;
}
