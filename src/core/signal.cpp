#include "aerolin/core/signal.hpp"

namespace aerolin::core {

std::string_view ToString(Unit unit) {
  switch (unit) {
    case Unit::kOne: return "1";
    case Unit::kRadian: return "rad";
    case Unit::kRadianPerSecond: return "rad/s";
    case Unit::kMetre: return "m";
    case Unit::kMetrePerSecond: return "m/s";
    case Unit::kSecond: return "s";
    case Unit::kGravity: return "g";
  }
  return "?";
}

}  // namespace aerolin::core
