// A program outside the aerolin repository: loads an aircraft data file and
// prints every mode with its eigenvalue, natural frequency and damping ratio.
//   print_modes FILE
#include <aerolin/analysis/modes.hpp>
#include <aerolin/core/error.hpp>
#include <aerolin/data/load_aircraft.hpp>

#include <cstdio>
#include <exception>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: print_modes FILE\n");
    return 2;
  }
  try {
    const aerolin::data::LoadResult loaded = aerolin::data::LoadAircraftFile(argv[1]);
    const aerolin::model::AircraftData& aircraft = loaded.aircraft;
    const aerolin::analysis::ModalAnalysis analysis = aerolin::analysis::AnalyzeModes(aircraft);
    std::printf("%s\n", aircraft.name.c_str());
    using aerolin::model::Axis;
    for (const Axis axis : {Axis::kLongitudinal, Axis::kLateral})
      for (const aerolin::analysis::Mode& m : analysis.modes(axis))
        std::printf("%-40s lambda = %+.6g %+.6gi 1/s  wn = %.6g rad/s  zeta = %.6g\n",
                    m.full_name().c_str(), m.lambda.real(), m.lambda.imag(),
                    m.natural_frequency, m.damping_ratio);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
