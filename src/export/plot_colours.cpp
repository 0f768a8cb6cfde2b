// The mode colour table (plot_colours.hpp).

#include "aerolin/export/plot_colours.hpp"

#include <array>

#include <fmt/format.h>

namespace aerolin::exporting {

std::uint32_t ModeColour(analysis::ModeKind kind) {
  switch (kind) {
    case analysis::ModeKind::kShortPeriod: return 0x1F77B4;
    case analysis::ModeKind::kPhugoid: return 0x17BECF;
    case analysis::ModeKind::kDutchRoll: return 0xD62728;
    case analysis::ModeKind::kRollSubsidence: return 0xFF7F0E;
    case analysis::ModeKind::kSpiral: return 0x9467BD;
    case analysis::ModeKind::kRollSpiral: return 0x8C564B;
    case analysis::ModeKind::kHeading: return 0x7F7F7F;
  }
  return 0x000000;
}

std::uint32_t OtherRootColour(std::size_t k) {
  constexpr std::array<std::uint32_t, 3> kOthers = {0x2CA02C, 0xE377C2, 0xBCBD22};
  return kOthers[k % kOthers.size()];
}

std::uint32_t OriginColour(const std::string& origin, std::size_t other_index) {
  if (const std::optional<analysis::ModeKind> kind = analysis::ParseModeKind(origin)) return ModeColour(*kind);
  return OtherRootColour(other_index);
}

std::string MglColour(std::uint32_t rgb) { return fmt::format("{{x{:06X}}}", rgb & 0xFFFFFF); }

}  // namespace aerolin::exporting
