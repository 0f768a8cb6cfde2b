// Fuzz harness: any bytes as a pilot script for an aircraft with the P2V-7's
// controls. The parser must return a script or throw core::DataError. A
// parsed script is then played for a few hundred slices by ScriptPlayer
// (amortized O(1) per slice), which must agree with the O(n) reference
// PilotScript::InputForSlice slice by slice.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "aerolin/core/error.hpp"
#include "aerolin/pilot/pilot_script.hpp"

namespace {

std::vector<aerolin::model::Control> Controls() {
  std::vector<aerolin::model::Control> controls(4);
  controls[0].name = "elevator";
  controls[1].name = "throttle";
  controls[1].unit = aerolin::core::Unit::kOne;
  controls[2].name = "aileron";
  controls[3].name = "rudder";
  controls[3].min = -0.3;
  controls[3].max = 0.3;
  return controls;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<aerolin::model::Control> controls = Controls();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  aerolin::pilot::PilotScript script;
  try {
    script = aerolin::pilot::ParsePilotScript(text, "fuzz.txt", controls);
  } catch (const aerolin::core::DataError&) {
    return 0;
  }
  constexpr double kDt = 0.1;
  constexpr long kSlices = 300;
  aerolin::pilot::ScriptPlayer player(script, kDt);
  std::vector<aerolin::pilot::ControlOverride> fast, slow;
  for (long k = 0; k < kSlices; ++k) {
    aerolin::pilot::KeySet held_fast, held_slow;
    player.InputForSlice(k, held_fast, fast);
    script.InputForSlice(k, kDt, held_slow, slow);
    if (!(held_fast == held_slow) || fast.size() != slow.size()) std::abort();
    for (const aerolin::pilot::ControlOverride& o : slow) {
      bool found = false;
      for (const aerolin::pilot::ControlOverride& p : fast)
        found = found || (p.control == o.control && p.value == o.value);
      if (!found) std::abort();
    }
  }
  return 0;
}
