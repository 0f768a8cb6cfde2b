// Fuzz harness: any bytes as an aircraft data file of the coefficient form
// (seeded with the bundled `form = "coefficients"` files, so mutations reach
// the coefficient reader and model::ToDimensional). The loader must either
// throw core::DataError or return an aircraft whose state-space models build:
// a file it accepts must not fail later in BuildLongitudinal/BuildLateral
// (a non-finite matrix entry), as a user would then see an internal message.
// Anything else (another exception, a crash, a sanitizer report, a hang) is a
// finding.

#include <cstddef>
#include <cstdint>
#include <string>

#include "aerolin/core/error.hpp"
#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/model/build.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  aerolin::data::LoadResult result;
  try {
    result = aerolin::data::LoadAircraftString(text, "fuzz.toml");
  } catch (const aerolin::core::DataError&) {
    return 0;
  }
  (void)aerolin::model::BuildLongitudinal(result.aircraft);
  (void)aerolin::model::BuildLateral(result.aircraft);
  return 0;
}
