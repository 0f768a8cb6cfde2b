// Fuzz harness: any bytes as a recorded flight (the CSV `aerolin simulate
// --csv` writes, read back by `aerolin identify`), asking for the longitudinal
// states and the elevator. The reader must return a record or throw
// core::DataError; a record it returns must be what its contract says: the
// columns asked for, at least the rows asked for, finite values, time
// increasing by the same step within kSampleStepTolerance.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/data/flight_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> columns{"u", "alpha", "q", "theta", "elevator"};
  constexpr int kMinRows = 3;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  aerolin::data::FlightRecord record;
  try {
    record = aerolin::data::ReadFlightCsv(in, "fuzz.csv", columns, kMinRows);
  } catch (const aerolin::core::DataError&) {
    return 0;
  }
  if (record.columns.size() != columns.size() + 1 || record.values.cols() != static_cast<Eigen::Index>(record.columns.size()) ||
      record.rows() < kMinRows || !(record.dt > 0) || !record.values.allFinite())
    std::abort();
  for (Eigen::Index i = 1; i < record.rows(); ++i) {
    const double step = record.values(i, 0) - record.values(i - 1, 0);
    if (!(std::abs(step - record.dt) <= 1.0001 * aerolin::data::kSampleStepTolerance * record.dt)) std::abort();
  }
  return 0;
}
