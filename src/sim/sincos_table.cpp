#include "aerolin/sim/sincos_table.hpp"

namespace aerolin::sim {

SinCosTable::SinCosTable() {
  for (int k = -kHalf; k <= kHalf; ++k) {
    const double a = k * kStep;  // exact
    entries_[k + kHalf] = {std::sin(a), std::cos(a)};
  }
}

const SinCosTable& SinCosTable::Get() {
  static const SinCosTable table;
  return table;
}

}  // namespace aerolin::sim
