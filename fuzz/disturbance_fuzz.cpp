// Fuzz harness: any bytes as `augment --disturbance` text (NAME=VALUE,...)
// for the P2V-7's designs: an LQR design of the longitudinal axis and a
// washed-out yaw damper on the lateral (a filter state among its states).
// ParseDisturbance must return components or throw std::invalid_argument.
// Returned: one per item, each a state of a designed axis (not a filter's),
// stated once, a finite magnitude >= 0. Thrown: a message that echoes the
// user's text clipped and escaped (no control character, bounded length).
// Run from the source tree (it reads data/derivatives/p2v7.toml).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "aerolin/data/load_aircraft.hpp"
#include "aerolin/study/augment.hpp"
#include "aerolin/study/loops.hpp"
#include "aerolin/study/saturation.hpp"

namespace {

using aerolin::study::AugmentResult;

std::vector<AugmentResult> Designs() {
  try {
    const aerolin::model::AircraftData a = aerolin::data::LoadAircraftFile("data/derivatives/p2v7.toml").aircraft;
    aerolin::study::AugmentSpec lqr;
    lqr.axis = aerolin::model::Axis::kLongitudinal;
    lqr.method = aerolin::study::DesignMethod::kLqr;
    aerolin::study::AugmentSpec loops;
    loops.method = aerolin::study::DesignMethod::kLoops;
    loops.loops.push_back(aerolin::study::ParseLoop("rudder:r=1.2,washout=1.5"));
    std::vector<AugmentResult> designs{aerolin::study::Augment(a, lqr)};
    for (AugmentResult& d : aerolin::study::AugmentAxes(a, aerolin::study::LoopDesignsByAxis(a, loops)))
      designs.push_back(std::move(d));
    return designs;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "disturbance_fuzz: run it from the source tree: %s\n", e.what());
    std::abort();
  }
}

bool IsOpenLoopState(const std::vector<AugmentResult>& designs, const std::string& name) {
  for (const AugmentResult& d : designs)
    for (const aerolin::core::Signal& s : d.open_loop.states())
      if (s.name == name) return true;
  return false;
}

// No C0 control, DEL or C1 control (U+0080..U+009F as UTF-8) in a message.
bool Escaped(const std::string& message) {
  for (std::size_t i = 0; i < message.size(); ++i) {
    const auto c = static_cast<unsigned char>(message[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < message.size()) {
      const auto next = static_cast<unsigned char>(message[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<AugmentResult> designs = Designs();
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<aerolin::study::DisturbanceComponent> parsed;
  try {
    parsed = aerolin::study::ParseDisturbance(text, designs);
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    if (message.empty() || !Escaped(message) || message.size() > 2000) std::abort();
    return 0;
  }
  std::size_t items = 1;
  for (const char c : text) items += c == ',';
  if (parsed.size() != items) std::abort();
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    if (!IsOpenLoopState(designs, parsed[i].name)) std::abort();
    if (!std::isfinite(parsed[i].value) || !(parsed[i].value >= 0.0)) std::abort();
    for (std::size_t j = 0; j < i; ++j)
      if (parsed[j].name == parsed[i].name) std::abort();
  }
  return 0;
}
